"""A small learned review of a plain-text book's chapter headings: which short paragraphs are chapters.

The rules of headings.py read a text's words and layout; on books they were not tuned on they still take
a synopsis for a chapter or miss headings no rule names. The HTML twins of Gutenberg's plain-text
editions label every line of them for free, so `benchmarks/heading_model.py` trains a small ensemble of
decision trees on features of each short paragraph (its length, case, numerals and heading words, the
blank lines around it, its indentation, how often its shape repeats, whether a contents entry names it,
where it stands in the book, and the rules' own verdicts) over the development half of the fetched
corpus, and writes it to `heading_model.json` beside this file. Here the trees are only evaluated, in
plain Python: no library is needed at run time.

The rules stay the fallback: with no model file, or where the model would leave fewer than two chapters,
the rules' choice stands. With "consistent" in the model's settings, a book-level pass (consistent())
keeps only picks set as the book's other headings are.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from app.book.structure.lines import (
    NAMED, NUMBERED_TITLE, NUMERAL, Heading, Para, clean_line, keyword_match, title_line,
)

MODEL_PATH = Path(__file__).with_name("heading_model.json")
#: A paragraph longer than this is prose, never a heading: the model weighs only shorter ones.
MAX_LINES = 4
MAX_WORDS = 30


@dataclass
class RuleVerdict:
    """What the rules found: the listing's paragraph range and entries, every candidate, and the choice."""

    lo: int
    hi: int
    entries: list
    cands: list[Heading]
    chosen: list[Heading]
    listed: bool
    extra: dict = field(default_factory=dict)


_KINDS = ("chapter", "part", "numeral", "named")
_QUOTE = re.compile("^[\"'\u2018\u201c(\\[]")


def _key(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"[a-z0-9]+", text.casefold().replace("'s", "")))


def _short(p: Para) -> bool:
    """A paragraph the model weighs: short, with a letter, and no bracketed note ("[Illustration]")."""
    text = clean_line(p.text)
    return len(p.lines) <= MAX_LINES and len(text.split()) <= MAX_WORDS and not text.startswith("[") \
        and any(ch.isalpha() for ch in text)


def _entry_keys(entries: list) -> tuple[set, set]:
    """Return the full word keys and the first-three-word keys of a listing's entry names and labels."""
    full, head = set(), set()
    for e in entries:
        for name in (e.name, e.label):
            k = _key(name)
            if k:
                full.add(k)
                head.add(k[:3])
    return full, head


def features(paras: list[Para], rules: RuleVerdict) -> tuple[list[int], list[list[float]]]:
    """Return the indexes of the short paragraphs and one feature row for each (names in FEATURES)."""
    n = len(paras)
    by_para = {c.para: c for c in rules.cands}
    chosen = {c.para for c in rules.chosen}
    sub_of = {c.sub_para for c in rules.cands if c.sub_para is not None}
    full, head = _entry_keys(rules.entries)
    # Every short paragraph, and every one the rules hold for a heading however long (a label over a
    # title wrapped on four lines).
    index = sorted({j for j, p in enumerate(paras) if _short(p)} | set(by_para) | chosen)
    firsts: dict[str, int] = {}
    shapes: dict[tuple, int] = {}
    for j in index:
        p = paras[j]
        firsts[_first_word(p)] = firsts.get(_first_word(p), 0) + 1
        shapes[_shape(paras, j)] = shapes.get(_shape(paras, j), 0) + 1
    kinds = {k: sum(1 for c in rules.cands if c.kind == k) for k in _KINDS}
    # How the rules' chosen headings are set: a line set as they are is likelier one of them.
    chosen_shapes: dict[tuple, int] = {}
    chosen_firsts: dict[str, int] = {}
    for j in chosen:
        chosen_shapes[_shape(paras, j)] = chosen_shapes.get(_shape(paras, j), 0) + 1
        chosen_firsts[_first_word(paras[j])] = chosen_firsts.get(_first_word(paras[j]), 0) + 1
    context = _context(paras, index, rules, chosen)
    rows = []
    last_number: int | None = None
    for j in index:
        p = paras[j]
        text = clean_line(p.text)
        words = text.split()
        letters = [ch for ch in text if ch.isalpha()]
        upper = sum(1 for ch in letters if ch.isupper()) / len(letters) if letters else 0.0
        capitalised = sum(1 for w in words if w[:1].isupper()) / len(words) if words else 0.0
        cand = by_para.get(j)
        nxt = paras[j + 1] if j + 1 < n else None
        prev = paras[j - 1] if j else None
        key = _key(text)
        follows = cand is not None and cand.number is not None and last_number is not None \
            and cand.number == last_number + 1
        if cand is not None and cand.number is not None:
            last_number = cand.number
        indent = len(p.lines[0]) - len(p.lines[0].lstrip())
        row = [
            len(p.lines), math.log1p(len(words)), len(text) / 60, upper, float(text.isupper()), capitalised,
            float(text[-1:] == "."), float(text[-1:] in ",;:"), float(text[-1:] in "?!"), float(bool(_QUOTE.match(text))),
            float(text[:1].islower()), min(indent, 40) / 10, float(any(ch.isdigit() for ch in text)),
            min(p.gap, 6), min(nxt.gap, 6) if nxt else 6, math.log1p(len(nxt.text.split())) if nxt else 0.0,
            math.log1p(len(prev.text.split())) if prev else 0.0, float(bool(title_line(p))),
            float(bool(keyword_match(text))), float(bool(NUMERAL.match(text))), float(bool(NUMBERED_TITLE.match(text))),
            float(bool(NAMED.match(text))),
            math.log1p(firsts[_first_word(p)]), shapes[_shape(paras, j)] / max(len(index), 1),
            float(key in full), float(bool(key) and key[:3] in head), float(bool(rules.entries)),
            float(rules.lo <= j < rules.hi and rules.hi > 0), j / n,
            float(cand is not None), *(float(cand is not None and cand.kind == k) for k in _KINDS),
            float(j in chosen), float(j in sub_of), float(rules.listed), math.log1p(len(rules.chosen)),
            *(math.log1p(kinds[k]) for k in _KINDS), float(follows),
            float(cand is not None and bool(cand.subtitle)),
            chosen_shapes.get(_shape(paras, j), 0) / max(len(chosen), 1),
            chosen_firsts.get(_first_word(p), 0) / max(len(chosen), 1),
            *context(j),
        ]
        rows.append(row)
    return index, rows


FEATURES = (
    "lines", "log_words", "chars/60", "upper_share", "all_caps", "capitalised_share",
    "ends_period", "ends_comma", "ends_ask", "opens_quote", "opens_lower", "indent/10", "has_digit",
    "gap_before", "gap_after", "log_next_words", "log_prev_words", "title_line",
    "keyword", "bare_numeral", "numbered_title", "named_word",
    "log_first_word_repeats", "shape_share", "entry_named", "entry_named_start", "has_listing",
    "in_listing", "position",
    "rule_candidate", *(f"rule_{k}" for k in _KINDS),
    "rule_chosen", "rule_subtitle", "rules_listed", "log_rules_chosen",
    *(f"log_{k}_candidates" for k in _KINDS), "number_follows", "candidate_titled",
    "chosen_shape_share", "chosen_first_word_share",
    "prev_short", "next_short", "prev_candidate", "next_candidate", "prev_chosen", "next_chosen",
    "log_words_from_chosen", "log_words_to_chosen", "log_paras_to_chosen", "gap_as_chosen", "after_as_chosen",
    "log_words_from_short", "log_words_to_short",
)


def _context(paras: list[Para], index: list[int], rules: RuleVerdict, chosen: set[int]):
    """The features of a paragraph's neighbourhood: are the paragraphs beside it short, or headings the rules
    found; how many words lie between it and the rules' chosen headings (a heading opens a chapter's worth of
    prose, a signature or a motto sits a few lines from one), and is it set apart as they are."""
    n = len(paras)
    short = set(index)
    cands = {c.para for c in rules.cands}
    words = [0]
    for p in paras:
        words.append(words[-1] + len(p.text.split()))
    marks = sorted(chosen)
    gaps = [paras[j].gap for j in marks]
    afters = [paras[j + 1].gap for j in marks if j + 1 < n]
    gap = max(set(gaps), key=gaps.count) if gaps else -1
    after = max(set(afters), key=afters.count) if afters else -1

    def around(j: int, among: list[int]) -> tuple[int | None, int | None]:
        import bisect
        at = bisect.bisect_left(among, j)
        before = among[at - 1] if at else None
        nxt = at + 1 if at < len(among) and among[at] == j else at
        return before, among[nxt] if nxt < len(among) else None

    def row(j: int) -> list[float]:
        before, later = around(j, marks)
        sb, sl = around(j, index)
        return [
            float(j - 1 in short), float(j + 1 in short), float(j - 1 in cands), float(j + 1 in cands),
            float(j - 1 in chosen), float(j + 1 in chosen),
            math.log1p(words[j] - words[before + 1]) if before is not None else -1.0,
            math.log1p(words[later] - words[j + 1]) if later is not None else -1.0,
            math.log1p(min(j - before if before is not None else n, later - j if later is not None else n)),
            float(paras[j].gap == gap), float(j + 1 < n and paras[j + 1].gap == after),
            math.log1p(words[j] - words[sb + 1]) if sb is not None else -1.0,
            math.log1p(words[sl] - words[j + 1]) if sl is not None else -1.0,
        ]
    return row


def _first_word(p: Para) -> str:
    words = re.findall(r"[a-z]+", p.text.casefold())
    return words[0] if words else ""


def _shape(paras: list[Para], j: int) -> tuple:
    """A paragraph's layout: blank lines before and after, line count, capitals (repeated by headings)."""
    p = paras[j]
    after = paras[j + 1].gap if j + 1 < len(paras) else 0
    return min(p.gap, 4), min(after, 4), len(p.lines), clean_line(p.text).isupper()


@lru_cache(maxsize=1)
def load_model(path: Path = MODEL_PATH) -> dict | None:
    """Return the shipped model (trees, threshold), or None when there is none or it does not fit FEATURES."""
    try:
        model = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if model.get("features") != list(FEATURES):
        return None  # trained on other features: the rules decide
    return model


def probability(model: dict, row: list[float]) -> float:
    """Return the ensemble's probability that a paragraph is a chapter heading (gradient-boosted trees)."""
    score = model["bias"]
    for tree in model["trees"]:
        node = 0
        while tree["feature"][node] >= 0:
            node = tree["left"][node] if row[tree["feature"][node]] <= tree["threshold"][node] else tree["right"][node]
        score += model["rate"] * tree["value"][node]
    return 1 / (1 + math.exp(-score))


def review(paras: list[Para], rules: RuleVerdict, model: dict | None = None) -> list[Heading]:
    """Return the chapter headings with the model's verdict on each short paragraph, or the rules' choice."""
    model = model or load_model()
    if model is None or not paras:
        return rules.chosen
    index, rows = features(paras, rules)
    by_para = {c.para: c for c in rules.cands}
    by_para.update({c.para: c for c in rules.chosen})
    parts = [c for c in rules.chosen if c.kind == "part"]
    picked: list[Heading] = []
    chosen = {c.para for c in rules.chosen}
    if len(chosen) >= 2 and model.get("rules_stand"):
        return rules.chosen
    for j, row in zip(index, rows):
        # The rules' choice stands unless the model is sure: a line they chose is dropped only below
        # the "drop" probability, a line they left is added only above "add".
        p = probability(model, row)
        if p < (model.get("drop", 0.5) if j in chosen else model.get("add", 0.5)):
            continue
        c = by_para.get(j)
        if c is not None and c.kind == "part":
            continue  # parts stay as the rules set them
        picked.append(c if c is not None else Heading(j, "named", "", None, clean_line(paras[j].text)))
    subs = {c.sub_para for c in picked if c.sub_para is not None}
    picked = [c for c in picked if c.para not in subs]
    if model.get("consistent"):
        picked = consistent(paras, picked, rules, keep_rules=model.get("keep_rules", True))
    if len(picked) < 2:
        return rules.chosen
    if model.get("margin") is not None and len(chosen) >= 2:
        # The book-level decision: the model's set replaces the rules' only where the model holds it likelier
        # than theirs by the margin (log-likelihood over every line it weighs), not where one line tips it.
        # Parts stand in both sets as the rules set them: the lines are weighed as chapters or not.
        probs = {j: min(max(probability(model, row), 1e-4), 1 - 1e-4) for j, row in zip(index, rows)}
        ruled = {c.para for c in rules.chosen if c.kind != "part"}
        if likelihood(probs, {c.para for c in picked}) - likelihood(probs, ruled) < model["margin"]:
            return rules.chosen
    return sorted(parts + picked, key=lambda c: c.para)


def likelihood(probs: dict[int, float], heads: set[int]) -> float:
    """The log-likelihood, under the model's line probabilities, that exactly `heads` are the headings."""
    return sum(math.log(p if j in heads else 1 - p) for j, p in probs.items())


def form(paras: list[Para], c: Heading) -> tuple:
    """How a heading is set: its label word or numbering, its case, the blank lines around it.

    A book sets its chapter headings one way (or two: a preface, then "CHAPTER I."); a line the model
    picks that is set another way is, far more often than not, a stray: a signature, a date, a motto."""
    p = paras[c.para]
    text = clean_line(p.text)
    first = text.split()[0].casefold().strip(".:") if text.split() else ""
    if keyword_match(text):
        label = first
    elif NUMERAL.match(text):
        label = "numeral"
    elif NUMBERED_TITLE.match(text):
        label = "numbered"
    elif NAMED.match(text):
        label = "named"
    else:
        label = "name"
    letters = [ch for ch in text if ch.isalpha()]
    case = "upper" if letters and all(ch.isupper() for ch in letters) else "other"
    after = paras[c.para + 1].gap if c.para + 1 < len(paras) else 0
    return label, case, min(p.gap, 3), min(after, 3)


def consistent(paras: list[Para], picked: list[Heading], rules: RuleVerdict, keep_rules: bool = True) -> list[Heading]:
    """Keep the model's picks that fit the book's dominant heading form(s), a contents entry, or the rules.

    One extra heading spoils a whole book, so a pick must agree with the rest: its form (form()) is shared
    by at least a fifth of the picks and by two or more of them, or it is the form of a heading the rules
    chose, or a contents entry names it; the rules' own headings stay (keep_rules)."""
    chosen = {c.para: c for c in rules.chosen}
    forms = [form(paras, c) for c in picked]
    counts: dict[tuple, int] = {}
    for f in forms:
        counts[f] = counts.get(f, 0) + 1
    dominant = {f for f, k in counts.items() if k >= 2 and k >= 0.2 * len(picked)}
    if len(chosen) >= 2:
        dominant |= {form(paras, c) for c in rules.chosen}
    full, _ = _entry_keys(rules.entries)
    kept = [c for c, f in zip(picked, forms)
            if c.para in chosen or f in dominant or _key(clean_line(paras[c.para].text)) in full]
    if keep_rules:
        have = {c.para for c in kept}
        kept += [c for c in rules.chosen if c.para not in have and c.kind != "part"]
    return sorted(kept, key=lambda c: c.para)
