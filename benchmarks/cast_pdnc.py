"""Who says each line, measured on the Project Dialogism Novel Corpus (issue 25): rules alone, end to end.

    .venv/bin/python -m benchmarks.cast_pdnc [--split tune|held-out|all] [--novel Emma ...] [--errors N]

Each novel's novel_text.txt is read by the app's own plain-text reader (app.book.load_book: chapters and
paragraphs as a conversion gets them), and app.cast.find_cast finds the dialogue, the characters and the
speakers from that alone (the converter's characters, not PDNC's list). Each paragraph the reader made is
located back in novel_text.txt (the reader only folds whitespace and line breaks, so the text's
non-space characters are walked in step), which gives every predicted quote a character span in the file.

Matching, per gold quotation (a row of quotation_info.csv; a quote interrupted by a tag is one row with
several quoteByteSpans):
- it is found when a predicted quote overlaps one of its spans (character offsets into novel_text.txt);
  the predicted quote with the most overlap is its prediction;
- the predicted speaker (a Character) maps to the PDNC character whose aliases (character_info.csv: Main
  Name and Aliases, compared without case, full stops and a leading "the") hold the Character's names,
  its main name weighing 2 and its k-th alias (most used first) 1/k; when none matches, a titled surname
  ("Miss Quested") maps to the one PDNC character with that surname, if only one has it; a line the first-person narrator says (Quote.by_narrator) maps to the novel's narrator,
  the PDNC character most often the gold speaker of quotes whose referring expression has "I";
- it is right when that PDNC character is the gold speaker's (the speaker column holds a main name or an
  alias: it is mapped the same way). A quotation not found, or with no speaker, or
  with a name mapping to no PDNC character, is wrong.
Accuracy is right / all gold quotations, in percent, per novel and per quoteType (Explicit / Anaphoric /
Implicit). The tuning half is the first 13 novels in sorted folder order; the other 14 are held out.
"""
from __future__ import annotations

import argparse
import ast
import csv
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from app.book import load_book
from app.cast import find_cast
from app.cast.model import Cast

CORPUS = Path(os.environ.get("AUDIOBOOK_PDNC", Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pdnc"))
TYPES = ("Explicit", "Anaphoric", "Implicit")
TUNE_COUNT = 13
csv.field_size_limit(10_000_000)


def novels() -> list[str]:
    """Return the novel folders in sorted order (the first TUNE_COUNT are the tuning half)."""
    if not CORPUS.is_dir():
        return []
    return sorted(p.name for p in CORPUS.iterdir() if (p / "novel_text.txt").is_file())


def split(name: str) -> list[str]:
    every = novels()
    return {"tune": every[:TUNE_COUNT], "held-out": every[TUNE_COUNT:], "all": every}[name]


@dataclass
class Gold:
    spans: list[tuple[int, int]]
    speaker: str
    kind: str
    refexp: str
    text: str


def read_gold(folder: Path) -> tuple[list[Gold], dict[str, set[str]]]:
    """Return the gold quotations and each PDNC character's names (main name -> its aliases, normalized)."""
    quotes = []
    with open(folder / "quotation_info.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            spans = [tuple(s) for s in ast.literal_eval(row["quoteByteSpans"])]
            quotes.append(Gold(spans, row["speaker"], row["quoteType"], row.get("referringExpression", ""), row["quoteText"]))
    names: dict[str, set[str]] = {}
    with open(folder / "character_info.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            aliases = ast.literal_eval(row["Aliases"]) if row["Aliases"].strip() else set()
            names[row["Main Name"]] = {_norm(a) for a in set(aliases) | {row["Main Name"]}}
    return quotes, names


def _norm(name: str) -> str:
    words = name.replace(".", " ").casefold().split()
    return " ".join(words[1:] if words[:1] == ["the"] and len(words) > 1 else words)


def paragraph_offsets(raw: str, paragraphs: list[str], start: int) -> tuple[list[int], int]:
    """Return, for each character of each paragraph, its offset in raw (walking from start), and the end.

    The reader joins lines with one space and folds whitespace; other characters are the file's own.
    A paragraph the reader changed otherwise is located again from its first words.
    """
    offsets: list[int] = []
    at = start
    n = len(raw)
    for para in paragraphs:
        head = para[:40]
        found = _find_loose(raw, head, at)
        if found < 0:
            offsets.extend([-1] * (len(para) + 1))
            continue
        at = found
        for ch in para:
            if ch.isspace():
                offsets.append(at)
                continue
            while at < n and raw[at].isspace():
                at += 1
            if at < n and raw[at] == ch:
                offsets.append(at)
                at += 1
            else:
                # Something the reader dropped (an invisible character): look a little ahead.
                nxt = raw.find(ch, at, at + 8)
                if nxt >= 0:
                    at = nxt
                offsets.append(at)
                at += 1 if nxt >= 0 else 0
        offsets.append(at)
    return offsets, at


def _find_loose(raw: str, head: str, at: int) -> int:
    """Return where head starts in raw at or after at, whitespace-insensitively."""
    pattern = r"\s+".join(re.escape(w) for w in head.split())
    if not pattern:
        return at
    m = re.compile(pattern).search(raw, at)
    return m.start() if m else -1


@dataclass
class Score:
    novel: str
    seconds: float = 0.0
    total: Counter = field(default_factory=Counter)
    right: Counter = field(default_factory=Counter)
    found: Counter = field(default_factory=Counter)
    #: (method, right) -> gold quotations, for the per-method table.
    methods: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    #: The character list against character_info.csv (see score_characters).
    chars: "CharScore | None" = None

    def pct(self, kind: str | None = None) -> float:
        total = sum(self.total.values()) if kind is None else self.total[kind]
        right = sum(self.right.values()) if kind is None else self.right[kind]
        return 100.0 * right / total if total else float("nan")


def score_novel(name: str, keep_errors: int = 0) -> Score:
    """Read one PDNC novel through the app, find its cast, and score every gold quotation."""
    folder = CORPUS / name
    raw = (folder / "novel_text.txt").read_text(encoding="utf-8")
    t0 = time.perf_counter()
    book = load_book(folder / "novel_text.txt")
    cast = find_cast(book)
    seconds = time.perf_counter() - t0
    gold, names = read_gold(folder)
    spans = _predicted_spans(raw, book, cast)
    mapped = _map_characters(cast, names)
    narrator = gold_id(_narrator(gold) or "", names)
    score = Score(name, seconds)
    score.chars = score_characters(cast, gold, names, mapped, narrator)
    for g, best in match_gold(spans, gold):
        score.total[g.kind] += 1
        if best is None:
            if len(score.errors) < keep_errors:
                score.errors.append(f"MISSED [{g.kind}] {g.speaker}: {g.text[:70]!r}")
            continue
        score.found[g.kind] += 1
        q = cast.quotes[best]
        predicted = narrator if q.by_narrator else mapped.get(q.speaker)
        right = predicted is not None and predicted == gold_id(g.speaker, names)
        score.methods[(q.method, right)] += 1
        if right:
            score.right[g.kind] += 1
        elif len(score.errors) < keep_errors:
            score.errors.append(f"[{g.kind}] gold {g.speaker!r} got {q.speaker!r} ({q.method} {q.confidence}): {g.text[:60]!r}")
    return score


def match_gold(spans: list[tuple[int, int, int]], gold: list[Gold]) -> list[tuple[Gold, int | None]]:
    """Return each gold quotation with the index of the predicted quote overlapping it most (None: missed)."""
    import bisect
    ordered = sorted(spans)
    keys = [s[0] for s in ordered]
    out = []
    for g in gold:
        best, overlap = None, 0
        for gs, ge in g.spans:
            lo = bisect.bisect_left(keys, gs - 20000)
            for i in range(lo, len(ordered)):
                ps, pe, qi = ordered[i]
                if ps >= ge:
                    break
                ov = min(pe, ge) - max(ps, gs)
                if ov > overlap:
                    best, overlap = qi, ov
        out.append((g, best))
    return out


def map_names(forms: list[str], names: dict[str, set[str]]) -> str | None:
    """Return the PDNC character a list of name forms (main name first) maps to, as for a Character."""
    votes: Counter = Counter()
    for rank, form in enumerate(forms):
        for gold, aliases in names.items():
            if _norm(form) in aliases:
                votes[gold] += 2.0 if rank == 0 else 1.0 / rank
    if not votes:
        for form in forms:
            words = _norm(form).split()
            if len(words) == 2 and words[0] in _TITLES:
                same = {g for g, aliases in names.items() if any(a.split()[-1:] == words[1:] for a in aliases)}
                if len(same) == 1:
                    return same.pop()
        return None
    return votes.most_common(1)[0][0]


MIN_GOLD_LINES = 5
MIN_JUNK_LINES = 10


@dataclass
class CharScore:
    """The exported character list of one novel against PDNC's characters.

    - gold: PDNC characters with at least MIN_GOLD_LINES gold quotations (the narrator of a first-person
      novel included: the converter's narrator voice stands for it);
    - recalled: those gold characters some exported character maps to (the narrator: when any line is
      Quote.by_narrator);
    - exported / precise: exported characters with at least MIN_GOLD_LINES lines, and those of them that
      map to a PDNC character (any, not only one of `gold`);
    - one_share: per gold character, the share of the lines of all exported characters mapping to it that
      the largest of them holds (1.0 = one person, one character); split = gold characters under 0.9;
    - junk: exported characters of MIN_JUNK_LINES or more lines that map to no PDNC character.
    """

    gold: int = 0
    recalled: int = 0
    exported: int = 0
    precise: int = 0
    one_lines: int = 0
    all_lines: int = 0
    split: list[str] = field(default_factory=list)
    junk: list[str] = field(default_factory=list)

    def add(self, other: "CharScore") -> None:
        for f in ("gold", "recalled", "exported", "precise", "one_lines", "all_lines"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.split += other.split
        self.junk += other.junk


def score_characters(cast: Cast, gold: list[Gold], names: dict[str, set[str]], mapped: dict[str, str],
                     narrator: str | None) -> CharScore:
    counts = Counter(gold_id(g.speaker, names) for g in gold)
    wanted = {g for g, n in counts.items() if g is not None and n >= MIN_GOLD_LINES}
    out = CharScore(gold=len(wanted))
    narrator_lines = sum(1 for q in cast.quotes if q.by_narrator)
    hit = set(mapped.values())
    if narrator_lines:
        hit.add(narrator)
    out.recalled = len(wanted & hit)
    per_gold: dict[str, list[int]] = {}
    named: dict[str, list[str]] = {}
    for c in cast.characters:
        g = mapped.get(c.name)
        if c.lines >= MIN_GOLD_LINES:
            out.exported += 1
            out.precise += g is not None
        if g is None and c.lines >= MIN_JUNK_LINES:
            out.junk.append(f"{c.name} ({c.lines})")
        if g is not None:
            per_gold.setdefault(g, []).append(c.lines)
            named.setdefault(g, []).append(f"{c.lines} {c.name}")
    if narrator_lines and narrator is not None:
        per_gold.setdefault(narrator, []).append(narrator_lines)
    for g, lines in per_gold.items():
        if g not in wanted:
            continue
        out.one_lines += max(lines)
        out.all_lines += sum(lines)
        if max(lines) < 0.9 * sum(lines):
            out.split.append(f"{g} {sorted(lines, reverse=True)}: " + "; ".join(named.get(g, [])))
    return out


def _char_row(label: str, c: CharScore) -> str:
    pct = lambda a, b: f"{100.0 * a / b:.1f}" if b else "-"
    return (f"| {label} | {c.gold} | {pct(c.recalled, c.gold)} | {c.exported} | {pct(c.precise, c.exported)} | "
            f"{pct(c.one_lines, c.all_lines)} | {len(c.split)} | {len(c.junk)} |")


CHAR_HEADER = ("| novel | gold chars (>= 5 quotes) | recall % | exported (>= 5 lines) | precision % | "
               "lines in one character % | split gold chars | junk (>= 10 lines) |\n|---|---|---|---|---|---|---|---|")


def _predicted_spans(raw: str, book, cast: Cast) -> list[tuple[int, int, int]]:
    """Return (start, end, quote index) of every predicted quote as offsets into the novel's file."""
    where: dict[tuple[int, int], list[int]] = {}
    at = 0
    for chapter in book.chapters:
        offsets, at_end = paragraph_offsets(raw, list(chapter.paragraphs), at)
        k = 0
        for n, para in enumerate(chapter.paragraphs):
            where[(chapter.index, n)] = offsets[k:k + len(para) + 1]
            k += len(para) + 1
        at = max(at, at_end)
    out = []
    for i, q in enumerate(cast.quotes):
        offs = where.get((q.chapter, q.paragraph))
        if not offs or offs[q.start] < 0:
            continue
        out.append((offs[q.start], offs[max(q.start, q.end - 1)] + 1, i))
    return out


def _map_characters(cast: Cast, names: dict[str, set[str]]) -> dict[str, str]:
    """Return predicted Character.name -> PDNC main name, through PDNC's aliases."""
    # PDNC's alias lists miss some titled forms ("Miss Quested" for Adela Quested): a titled surname maps
    # to the one PDNC character of that surname, when there is exactly one (map_names).
    out = {}
    for c in cast.characters:
        hit = map_names([c.name, *c.aliases], names)
        if hit is not None:
            out[c.name] = hit
    return out


_TITLES = {"mr", "mrs", "miss", "ms", "dr", "lady", "sir", "lord", "captain", "colonel", "professor", "major"}


def gold_id(speaker: str, names: dict[str, set[str]]) -> str | None:
    """Return the PDNC character a gold speaker names (the speaker column uses main names and aliases)."""
    if speaker in names:
        return speaker
    key = _norm(speaker)
    return next((main for main, aliases in names.items() if key in aliases), None)


def _narrator(gold: list[Gold]) -> str | None:
    counts = Counter(g.speaker for g in gold if re.search(r"\bI\b", g.refexp or ""))
    return counts.most_common(1)[0][0] if counts else None


def _row(s: Score) -> str:
    total = sum(s.total.values())
    found = 100.0 * sum(s.found.values()) / total if total else float("nan")
    cells = " | ".join(f"{s.pct(k):.1f}" for k in TYPES)
    return f"| {s.novel} | {total} | {found:.1f} | **{s.pct():.1f}** | {cells} | {s.seconds:.2f} |"


def _summary(label: str, scores: list[Score]) -> str:
    agg = Score(label)
    for s in scores:
        agg.total.update(s.total)
        agg.right.update(s.right)
        agg.found.update(s.found)
        agg.seconds += s.seconds
    agg.seconds /= max(1, len(scores))
    return _row(agg).replace(f"| {label} |", f"| **{label}** |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("tune", "held-out", "all"), default="all")
    parser.add_argument("--novel", action="append", help="only these novels (folder names)")
    parser.add_argument("--errors", type=int, default=0, help="print this many wrong lines per novel")
    parser.add_argument("--characters", action="store_true",
                        help="name the split and junk characters (of tuning novels only: the held-out half is not read)")
    args = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"PDNC is not at {CORPUS} (see ../shared/corpus/README.md)", file=sys.stderr)
        return 2
    header = ("| novel | quotations | found % | accuracy % | explicit % | anaphoric % | implicit % | s (read + cast) |\n"
              "|---|---|---|---|---|---|---|---|")
    groups = [("tuning half", split("tune")), ("held-out half", split("held-out"))]
    if args.novel:
        groups = [("selected", args.novel)]
    elif args.split != "all":
        groups = [(f"{args.split}", split(args.split))]
    every: list[Score] = []
    for label, names in groups:
        print(f"\n{label}:\n{header}")
        scores = []
        for name in names:
            s = score_novel(name, args.errors)
            scores.append(s)
            print(_row(s), flush=True)
            for line in s.errors:
                print("    " + line)
        print(_summary(f"all {label}", scores))
        print(f"\n{label}, the character list:\n{CHAR_HEADER}")
        total = CharScore()
        for s in scores:
            print(_char_row(s.novel, s.chars))
            if args.characters and s.novel in split("tune"):  # the held-out half is scored, never read
                for line in s.chars.split:
                    print("    split: " + line)
                for line in s.chars.junk:
                    print("    junk: " + line)
            total.add(s.chars)
        print(_char_row(f"**all {label}**", total))
        every.extend(scores)
    if len(groups) > 1:
        print(f"\n{header}\n{_summary('all 27', every)}")
    methods: Counter = Counter()
    for s in every:
        methods.update(s.methods)
    print("\n| method | gold quotations | right % |\n|---|---|---|")
    for m in ("explicit", "anaphoric", "ranked", "turn-taking", "vocative", "guess"):
        n = methods[(m, True)] + methods[(m, False)]
        if n:
            print(f"| {m} | {n} | {100.0 * methods[(m, True)] / n:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
