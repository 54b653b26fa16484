"""Who says each line on novels nobody here tuned on, against other annotators' gold: LitBank (issue 31).

    .venv/bin/python -m benchmarks.cast_litbank [--half dev|held-out] [--book KEY ...] [--min-quotes 10]

LitBank (Bamman, Popat and Shen, NAACL 2019; Sims and Bamman, TACL 2020: github.com/dbamman/litbank,
commit 3e50db0, CC BY 4.0) annotates the opening ~2,000 words of 100 English novels: every quotation
(`quotations/tsv/*.ann`, QUOTE rows with sentence/token spans) with its speaker (ATTRIB rows naming a
coreference entity), and every mention of each entity (`coref/tsv/*.ann`: MENTION rows with the text and
the kind, PROP for a proper name). Its annotators are not PDNC's, and its books are not the tuning half's.
Nothing of it is committed: it is read from the `fetch` tool's mirror of the repository
(AUDIOBOOK_LITBANK, default /work/.mirror/dbamman+litbank/repo) with `git show`.

**Books.** Every LitBank book with at least --min-quotes attributed quotations, except those the cast was
ever read or tuned on: the PDNC novels (any title PDNC's folder names spell) and the books earlier rounds
read by eye (benchmarks/README.md, issue 31). The list below is that rule written out, fixed before any
book was scored.

**Halves.** The scored books, in sorted key order, alternate: the 1st, 3rd, 5th... are the development
half (read, tuned on), the 2nd, 4th, 6th... the held-out half (scored once at the end of a round, never
read). The rule was written before any book's errors were read (`half_of`).

**Reading.** The whole novel (`original/<key>.txt`) is read by the app's plain-text reader and
app.cast.find_cast finds the dialogue, the characters and the speakers from the whole book, as a
conversion does; only the quotations in LitBank's excerpt (the book's opening) are scored.

**Matching.** The app's quotes are walked in book order beside LitBank's: a gold quotation is found when
one of the next app quotes holds most of its letters (LitBank splits a quote at its tag; the app may not),
compared as lower-case letters and digits only.

**Speakers.** Each app character maps to the LitBank entity whose proper-name mentions (and definite roles of
three words or fewer, "the parson") hold its names
(main name 2, the k-th alias 1/k; a titled surname maps to the one entity with that surname), as
benchmarks/cast_pdnc.py maps to PDNC's aliases; failing that, a full name with its title dropped found
whole in one entity's names only ("Master Tobin Wrede" is "Tobin Wrede", `map_character`, added in round
cast12: a scorer fix, dev half 61.2 -> 65.8 % with the app unchanged); a line of the first-person narrator maps to the entity
that "I" outside every quotation refers to most. A quotation is right when its mapped entity is the gold
speaker. A quotation not found, with no speaker, or whose speaker maps to no entity, is wrong. The excerpt
names fewer people than the book does: an app character whose names match no entity maps to the entity
most of its excerpt lines are by, only when the excerpt gives that entity no proper name and no character
that speaks in the excerpt maps to it by name (the "unnamed" column counts these; `--names-only` turns it off;
before round cast26b any character mapping to it by name blocked it, even one the excerpt never hears).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from app.book import load_book
from app.cast import find_cast
from benchmarks.cast_pdnc import _TITLES, _norm, map_names
from benchmarks.litbank_characters import CHECK_HEADER, MIN_LINES, CastCheck, categories, check_cast, check_row

REPO = Path(os.environ.get("AUDIOBOOK_LITBANK", "/work/.mirror/dbamman+litbank/repo"))
GIT_TIMEOUT = 120
#: Books the cast was read or tuned on (PDNC's novels; those read by eye in earlier rounds): never scored.
SEEN_TITLES = ("pride_and_prejudice", "a_room_with_a_view", "the_picture_of_dorian_gray", "daisy_miller",
               "the_invisible_man", "night_and_day", "alices_adventures_in_wonderland",
               "the_man_who_was_thursday", "oliver_twist", "howards_end", "anne_of_green_gables",
               "the_age_of_innocence", "emma", "persuasion", "mansfield_park", "hard_times",
               "northanger_abbey", "sense_and_sensibility", "the_awakening", "the_gambler",
               "the_sign_of_the_four", "the_sun_also_rises", "where_angels_fear_to_tread",
               "winnie_the_pooh", "a_passage_to_india", "the_mysterious_affair_at_styles",
               "the_sport_of_the_gods", "jane_eyre", "great_expectations", "treasure_island",
               "little_women", "the_warden", "the_hound_of_the_baskervilles")
#: How many app quotes past the last match a gold quotation is looked for in.
LOOKAHEAD = 12
#: The share of a gold quotation's letters an app quote must hold to be its match.
MIN_MATCH = 0.6


def _git(*args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(_git_dir()), *args], capture_output=True, text=True,
                          check=True, timeout=GIT_TIMEOUT).stdout


def _git_dir() -> Path:
    return REPO / ".git" if (REPO / ".git").is_dir() else REPO


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.casefold())


@dataclass
class GoldQuote:
    sentence: int
    text: str
    speaker: str


def read_gold(key: str) -> tuple[list[GoldQuote], dict[str, set[str]], set[str], str | None]:
    """Return the excerpt's quotations in order, each entity's names (proper names, definite roles), the
    entities with a proper name in the excerpt, and the narrator's entity."""
    quotes, speakers, spans = {}, {}, []
    for line in _git("show", f"HEAD:quotations/tsv/{key}_brat.ann").splitlines():
        cols = line.split("\t")
        if cols[0] == "QUOTE":
            quotes[cols[1]] = (int(cols[2]), int(cols[3]), cols[6])
            spans.append(((int(cols[2]), int(cols[3])), (int(cols[4]), int(cols[5]))))
        elif cols[0] == "ATTRIB":
            speakers[cols[1]] = cols[2]
    mentions, entity_of = {}, {}
    for line in _git("show", f"HEAD:coref/tsv/{key}_brat.ann").splitlines():
        cols = line.split("\t")
        if cols[0] == "MENTION":
            mentions[cols[1]] = (int(cols[2]), int(cols[3]), cols[6], cols[8] if len(cols) > 8 else "")
        elif cols[0] == "COREF":
            entity_of[cols[1]] = cols[2]
    names: dict[str, set[str]] = defaultdict(set)
    proper: set[str] = set()
    narrator: Counter = Counter()
    for tid, (sent, tok, text, kind) in mentions.items():
        entity = entity_of.get(tid)
        if entity is None:
            continue
        if kind == "PROP" or (kind == "NOM" and text.casefold().startswith("the ") and len(text.split()) <= 3):
            names[entity].add(_norm(text))  # a definite role ("the parson") names its one person too
        if kind == "PROP":
            proper.add(entity)
        if text in ("I", "me", "my") and not any(a <= (sent, tok) <= b for a, b in spans):
            narrator[entity] += 1
    for entity in set(speakers.values()):  # the entity's own label ("Mr__Greyson-18") is a name too
        label = re.sub(r"-\d+$", "", entity).replace("_", " ")
        # A label naming whose someone is ("Philip_s_nurse": Philip's nurse) is a description, no name.
        if label[:1].isupper() and label.split()[0] not in ("The", "A", "An", "THE_READER") and " s " not in label:
            names[entity].add(_norm(label))
            proper.add(entity)
    ordered = sorted((s, t, q) for q, (s, t, _) in quotes.items())
    gold = [GoldQuote(s, quotes[q][2], speakers[q]) for s, t, q in ordered if q in speakers]
    top = narrator.most_common(1)
    return gold, dict(names), proper, top[0][0] if top and top[0][1] >= 3 else None


def read_opening(key: str) -> tuple[dict[str, str], list[str], Counter, list[tuple[str, list[str]]]]:
    """Return each coreference entity's category (PER, FAC, GPE, LOC, ORG, VEH), the opening's words,
    how often each entity is named (proper-name mentions), and each mention's entity and words."""
    entity_of, category_of, proper, texts = {}, {}, set(), {}
    for line in _git("show", f"HEAD:coref/tsv/{key}_brat.ann").splitlines():
        cols = line.split("\t")
        if cols[0] == "MENTION" and len(cols) > 7:
            category_of[cols[1]] = cols[7]
            texts[cols[1]] = re.findall(r"[A-Za-z]+", cols[6])
            if len(cols) > 8 and cols[8] == "PROP":
                proper.add(cols[1])
        elif cols[0] == "COREF":
            entity_of[cols[1]] = cols[2]
    pairs = [(entity_of[t], c) for t, c in category_of.items() if t in entity_of]
    words = re.findall(r"[A-Za-z]+", _git("show", f"HEAD:coref/tsv/{key}_brat.txt"))
    mentions = [(entity_of[t], w) for t, w in texts.items() if t in entity_of]
    return categories(pairs), words, Counter(entity_of[t] for t in proper if t in entity_of), mentions


def books(min_quotes: int) -> list[str]:
    keys = []
    for path in _git("ls-tree", "-r", "--name-only", "HEAD", "quotations/tsv").split():
        if not path.endswith("_brat.ann"):
            continue
        key = Path(path).name[:-len("_brat.ann")]
        title = key.split("_", 1)[1]
        if any(title.startswith(seen) for seen in SEEN_TITLES):
            continue
        attributed = sum(1 for line in _git("show", f"HEAD:{path}").splitlines() if line.startswith("ATTRIB\t"))
        if attributed >= min_quotes:
            keys.append(key)
    return sorted(keys)


HALVES = ("dev", "held-out")


def half_of(keys: list[str], half: str) -> list[str]:
    """The books of one half: the scored keys in sorted order, alternating dev, held-out, dev, ..."""
    index = HALVES.index(half)
    return [key for i, key in enumerate(sorted(keys)) if i % 2 == index]


@dataclass
class Score:
    key: str
    total: int = 0
    found: int = 0
    right: int = 0
    seconds: float = 0.0
    unnamed_mapped: int = 0
    per_speaker: dict[str, Counter] = field(default_factory=dict)
    #: Each wrong quotation's class ("not found", "no speaker", "unmapped", "wrong speaker",
    #: "narrator wrong": a narrator line where gold says another, or the reverse) with gold, app speaker, text.
    errors: list[tuple[str, str, str, str]] = field(default_factory=list)
    #: The characters of 10 or more lines: junk, merged, split (benchmarks/litbank_characters.py).
    check: CastCheck = field(default_factory=CastCheck)


def score_book(key: str, names_only: bool = False) -> Score:
    gold, names, proper, narrator = read_gold(key)
    text = _git("show", f"HEAD:original/{key}.txt")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{key}.txt"
        path.write_text(text, encoding="utf-8")
        t0 = time.perf_counter()
        book = load_book(path)
        cast = find_cast(book)
        seconds = time.perf_counter() - t0
    mapped = {}
    for c in cast.characters:
        hit = map_character([c.name, *c.aliases], names)
        if hit is not None:
            mapped[c.name] = hit
    predicted = [(_letters(q.text), q) for q in cast.quotes]
    score = Score(key, seconds=seconds)
    matches = _match(gold, predicted)
    # The excerpt names fewer people than the book: a speaker the excerpt calls only "a girl" may be named
    # three chapters on, and the app names her so. An app character that maps to no entity by name maps
    # to the entity most of its excerpt lines are by, when that entity has no name in the excerpt and no
    # character maps to it by name (so a name is never overruled, and a named person is never guessed).
    votes: dict[str, Counter] = defaultdict(Counter)
    for g, q in matches:
        if q is not None and q.speaker and q.speaker not in mapped:
            votes[q.speaker][g.speaker] += 1
    # Claimed: an entity a character that speaks in the excerpt maps to by name. A character the excerpt never
    # hears ("The individual", a part named only chapters on) overrules no line, so it claims nothing (round
    # cast26b: the excerpt's "a man" spoke through the app's part "The man" and was scored wrong for it).
    heard = {q.speaker for _, q in matches if q is not None and q.speaker}
    claimed = {entity for name, entity in mapped.items() if name in heard}
    for name, counts in ({} if names_only else votes).items():
        entity = counts.most_common(1)[0][0]
        if entity not in proper and entity not in claimed:
            mapped[name] = entity
            claimed.add(entity)
            score.unnamed_mapped += 1
    for g, q in matches:
        score.total += 1
        bucket = score.per_speaker.setdefault(g.speaker, Counter())
        if q is None:
            bucket["missed"] += 1
            score.errors.append(("not found", g.speaker, "", g.text))
            continue
        score.found += 1
        who = narrator if q.by_narrator else mapped.get(q.speaker)
        bucket[q.speaker or ("<narrator>" if q.by_narrator else "<none>")] += 1
        if who is not None and who == g.speaker:
            score.right += 1
        else:
            said = "<narrator>" if q.by_narrator else (q.speaker or "")
            kind = ("narrator wrong" if q.by_narrator or (narrator is not None and g.speaker == narrator)
                    else "no speaker" if not q.speaker else "unmapped" if who is None else "wrong speaker")
            score.errors.append((kind, g.speaker, said, g.text))
    category, words, named, mention_words = read_opening(key)
    weight = named + Counter(g.speaker for g in gold)
    by_name = {c.name for c in cast.characters if map_character([c.name, *c.aliases], names) is not None}
    score.check = check_cast(cast, mapped, names, category, narrator, words, _norm, weight, by_name, mention_words)
    return score


#: Titles a character's name may open with, besides cast_pdnc's: the older forms of address.
_MORE_TITLES = {"master", "mistress", "madam", "dame", "father", "mother", "uncle", "aunt", "reverend", "rev"}


def map_character(forms: list[str], names: dict[str, set[str]]) -> str | None:
    """Return the entity a character's names map to: cast_pdnc.map_names, then, when nothing matches, a
    full name (given name and surname, any title dropped) found whole in one entity's names only
    ("Master Tobin Wrede" is the entity "Tobin Wrede"; "Captain Amos Vell" the entity "Captain Amos Vell RN")."""
    hit = map_names(forms, names)
    if hit is not None:
        return hit
    for form in forms:
        words = _norm(form).split()
        while words and words[0] in _TITLES | _MORE_TITLES:
            words = words[1:]
        if len(words) < 2:
            continue
        want = " " + " ".join(words) + " "
        same = {e for e, aliases in names.items() if any(want in f" {a} " for a in aliases)}
        if len(same) == 1:
            return same.pop()
    return None


def _match(gold: list[GoldQuote], predicted: list) -> list[tuple[GoldQuote, object]]:
    """Pair each gold quotation with the app quote holding most of its letters (None: not found)."""
    out = []
    at = 0
    for g in gold:
        want = _letters(g.text)
        best, best_i, best_share = None, None, 0.0
        for i in range(at, min(len(predicted), at + LOOKAHEAD)):
            have, q = predicted[i]
            if not want or not have:
                continue
            m = SequenceMatcher(None, want, have, autojunk=False).find_longest_match(0, len(want), 0, len(have))
            share = m.size / len(want)
            if share > best_share:
                best, best_i, best_share = q, i, share
        if best is None or best_share < MIN_MATCH:
            out.append((g, None))
            continue
        at = best_i  # a gold quote split at its tag may match the same app quote twice
        out.append((g, best))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--book", action="append", help="only these LitBank keys")
    parser.add_argument("--min-quotes", type=int, default=10)
    parser.add_argument("--half", choices=HALVES, help="only the development or the held-out half (default: all)")
    parser.add_argument("--names-only", action="store_true",
                        help="map characters by their names alone (no unnamed-entity fallback)")
    parser.add_argument("--errors", action="store_true",
                        help="count and list the wrong quotations by class (development half only)")
    args = parser.parse_args(argv)
    if args.errors and args.half != "dev":
        parser.error("--errors reads the books' errors: only with --half dev (the held-out half stays unread)")
    if not _git_dir().is_dir():
        print(f"LitBank is not at {REPO}: fetch github:dbamman/litbank (the `fetch` tool), or set AUDIOBOOK_LITBANK",
              file=sys.stderr)
        return 2
    keys = books(args.min_quotes)
    if args.half:
        keys = half_of(keys, args.half)
    if args.book:
        keys = [key for key in keys if key in args.book] if args.half else args.book
    print("| book | quotations | found % | right % | unnamed | s (read + cast) |\n|---|---|---|---|---|---|")
    total = found = right = 0
    rates = []
    classes: Counter = Counter()
    checks: list[CastCheck] = []
    for key in keys:
        s = score_book(key, args.names_only)
        if args.errors:
            classes.update(kind for kind, *_ in s.errors)
            for kind, gold, said, text in s.errors:
                print(f"    {key[:24]} | {kind} | gold {gold} | app {said} | {text[:70]!r}")
        total, found, right = total + s.total, found + s.found, right + s.right
        rates.append(s.right / s.total if s.total else 0.0)
        checks.append(s.check)
        print(f"| {key} | {s.total} | {100.0 * s.found / max(1, s.total):.1f} | {100.0 * s.right / max(1, s.total):.1f} "
              f"| {s.unnamed_mapped} | {s.seconds:.2f} |", flush=True)
    rates.sort()
    median = rates[len(rates) // 2] if rates else 0.0
    print(f"| **all {len(keys)} books** | {total} | {100.0 * found / max(1, total):.1f} | "
          f"**{100.0 * right / max(1, total):.1f}** | | |")
    print(f"\nmedian book: {100.0 * median:.1f}% right")
    print(f"\nthe characters of {MIN_LINES} or more lines (benchmarks/litbank_characters.py):\n{CHECK_HEADER}")
    total_check = CastCheck()
    for key, c in zip(keys, checks):
        print(check_row(key, c))
        if args.errors:  # names the junk, merged and split characters (development half only)
            for kind, items in (("junk", c.junk), ("merged", c.merged), ("split", c.split)):
                for item in items:
                    print(f"    {kind}: {item}")
        total_check.add(c)
    print(check_row(f"**all {len(keys)} books**", total_check))
    if args.errors:
        print("errors by class: " + ", ".join(f"{k} {n}" for k, n in classes.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
