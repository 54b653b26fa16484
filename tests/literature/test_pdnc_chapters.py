"""PDNC novels (../shared/corpus/pdnc) give their own chapters: each test book carries one heading convention.

The expected count is read here, independently of app/book, from the text's own heading lines: a chapter
label with its number ("CHAPTER I.", "Chapter VI: ...", "CHAPTER" over "1"), or else a bare numeral line
with a blank line on either side, counting up (1, 2, 3 ..., again from 1 in a new part).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.book import load_book

PDNC = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "pdnc"
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}

#: Novel -> the convention its headings follow (the test's id says which convention failed).
CONVENTIONS = {
    "OliverTwist": "label-over-title-wrapped-on-several-lines",
    "ARoomWithAView": "label-and-title-wrapped-in-one-paragraph",
    "AlicesAdventuresInWonderland": "title-that-asks-under-its-label",
    "TheMysteriousAffairAtStyles": "capitals-title-with-question-mark",
    "TheGambler": "bare-numeral-then-two-blank-lines",
    "TheSportOfTheGods": "first-numeral-close-under-the-title-page",
    "TheAgeOfInnocence": "bare-numerals-one-closer-to-the-text-above",
    "TheSunAlsoRises": "chapter-word-over-its-number",
}


def _value(token: str) -> int:
    token = token.lower().rstrip(".")
    if token.isdigit():
        return int(token)
    total = 0
    for a, b in zip(token, token[1:] + " "):
        v = _ROMAN[a]
        total += -v if b in _ROMAN and _ROMAN[b] > v else v
    return total


def expected_chapters(text: str) -> int:
    lines = [ln.strip() for ln in text.splitlines()]
    labelled = 0
    for n, ln in enumerate(lines):
        if re.match(r"(?i)^chapter\s+([ivxlc]+|\d+)\b", ln):
            labelled += 1
        elif re.fullmatch(r"(?i)chapter", ln) and n + 1 < len(lines) and re.fullmatch(r"\d+|[IVXLC]+", lines[n + 1]):
            labelled += 1
    if labelled:
        return labelled
    # A novella in parts and nothing below them ("PART I" ... "PART II"): the parts are its chapters.
    parts = sum(1 for ln in lines if re.fullmatch(r"(?i)part\s+(?:[ivxlc]+|\d+)\.?", ln))
    if parts >= 2:
        return parts
    count, last = 0, 0
    for n, ln in enumerate(lines):
        if re.fullmatch(r"[IVXLC]+\.?|\d{1,3}\.?", ln) and n and not lines[n - 1] and n + 1 < len(lines) \
                and not lines[n + 1]:
            v = _value(ln)
            if v == last + 1 or (v == 1 and last):
                count, last = count + 1, v
    return count


@pytest.mark.parametrize("novel", sorted(CONVENTIONS), ids=lambda n: CONVENTIONS[n])
def test_pdnc_novel_gives_its_own_chapters(novel):
    path = PDNC / novel / "novel_text.txt"
    if not path.is_file():
        pytest.skip(f"the PDNC corpus is not at {PDNC} (see ../shared/corpus/README.md)")
    want = expected_chapters(path.read_text(encoding="utf-8", errors="replace"))
    assert want >= 9, "the independent count found the book's headings"
    book = load_book(path)
    numbered = [c.title for c in book.chapters if re.search(r"\b(?:[IVXLC]+|\d+)\b", c.title)]
    assert len(numbered) == want, [c.title for c in book.chapters]


def _novels() -> list[str]:
    return sorted(d.name for d in PDNC.iterdir() if (d / "novel_text.txt").is_file()) if PDNC.is_dir() else []


@pytest.mark.slow
def test_every_pdnc_text_gives_its_own_chapters():
    """Every PDNC text, not only the eight conventions above (about two minutes: 27 novels)."""
    if not _novels():
        pytest.skip(f"the PDNC corpus is not at {PDNC} (see ../shared/corpus/README.md)")
    wrong = {}
    for novel in _novels():
        path = PDNC / novel / "novel_text.txt"
        want = expected_chapters(path.read_text(encoding="utf-8", errors="replace"))
        numbered = [c.title for c in load_book(path).chapters if re.search(r"\b(?:[IVXLC]+|\d+)\b", c.title)]
        if want < 2 or len(numbered) != want:
            wrong[novel] = (want, len(numbered))
    assert not wrong, wrong
