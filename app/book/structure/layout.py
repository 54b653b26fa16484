"""A book-level consistency pass: every line set apart as the book's chapter headings are is one of them.

Whatever found the chapters (a contents listing, a heading word, a numeral run), the producer set each
heading the same way: after a run of blank lines wider than any between paragraphs (four in many
Gutenberg texts), on a line of its own, in capitals when they all are. A heading the rules could not read
("PUBLISHERS' NOTE.", "THE AUTHOR'S INTRODUCTION", "A NOTE ON THE TEXT" before chapter one, a closing essay
after the last) is still set so. The pass adds such lines, and only where the layout is the book's own:
the gap must be rare elsewhere in the text, each line must head prose of its own (a title page's lines, a
title repeated over chapter one, head none), and the lines added must be few beside the headings found
(many more lines set so are another level: sections, letters, verse, which the chosen level leaves out).
"""
from __future__ import annotations

import re
from collections import Counter

from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.structure.listing import is_contents_label
from app.book.structure.lines import (
    CLOSING, Heading, Para, clean_line, is_byline, keyword_match, number_value, title_line,
)

#: An index's heading ("INDEX.", "GENERAL INDEX", "INDEX TO THE PLATES", "INDEX OF NAMES"): the
#: book's apparatus, after which no chapter stands.
INDEX_TITLE = re.compile(r"^(?:general\s+|alphabetical\s+)?index(?:\s+(?:of|to)\s+\S+(?:\s+\S+){0,8})?\.?$", re.I)
#: Headings found before the layout is trusted: with fewer, a wide gap is no convention yet.
_MIN_HEADINGS = 3
#: The heading gap must be at least this many blank lines (two is a common paragraph or scene gap).
_MIN_GAP = 3
#: Words a line set apart must head before the next such line: a chapter, not a title page's line.
_MIN_OWN_WORDS = 150
#: Lines added at most, as a share of the headings found (and at least this many: a preface, an afterword).
_MAX_ADDED_SHARE = 0.25
_MIN_ADDED = 2
#: A heading line's words at most.
_MAX_WORDS = 10


def set_apart_like(chosen: list[Heading], paras: list[Para], skip: tuple[int, int]) -> list[Heading]:
    """Return the chapters with every line set apart as they are added (a named heading each).

    `skip` is the contents listing's paragraph range, never a heading's.
    """
    heads = [c for c in chosen if c.kind != "part"]
    if len(heads) < _MIN_HEADINGS:
        return chosen
    gaps = sorted(paras[c.para].gap for c in heads)
    # Most headings stand after at least this gap (a misplaced one or two do not set the rule).
    gap = gaps[len(gaps) // 5]
    if gap < _MIN_GAP:
        return chosen
    chosen_paras = {c.para for c in chosen} | {c.sub_para for c in chosen if c.sub_para is not None}
    wide = [j for j in range(1, len(paras)) if paras[j].gap >= gap]
    # The gap is the headings' own: paragraphs set after it are mostly the chosen headings (and their parts).
    others = [j for j in wide if j not in chosen_paras]
    if len(others) > len(heads):
        return chosen
    capitals = all(clean_line(paras[c.para].lines[0]).isupper() for c in heads)
    # Centred (indented) or flush left: the headings found share one, and so must a line added.
    indents = {_indent(paras[c.para]) for c in heads}
    lo, hi = skip
    last = max(c.para for c in chosen)
    # After the book's closing line ("THE END") what is set apart is back matter (publishers' lists, ads).
    # So is what follows the book's index ("INDEX."): a publisher's notices, however they are set.
    closing = next((j for j in range(last + 1, len(paras)) if CLOSING.match(clean_line(paras[j].text))
                    or len(paras[j].lines) == 1 and INDEX_TITLE.match(clean_line(paras[j].text))), len(paras))
    seen = Counter(clean_line(p.text).casefold() for p in paras if len(p.lines) <= 2)
    added: list[Heading] = []
    for n, j in enumerate(wide):
        if j in chosen_paras or lo <= j < hi or j > closing:
            continue
        p = paras[j]
        text = clean_line(p.text)
        if len(indents) == 1 and _indent(p) not in indents:
            continue
        if len(p.lines) > 2 or not text or len(text.split()) > _MAX_WORDS or not _heading_like(text, capitals):
            continue
        if _within_run(chosen, j) or heads_title_page(paras, j):
            continue
        if seen[text.casefold()] > 1:
            continue  # the book's title, set again over its text (or a running head): no chapter's
        end = wide[n + 1] if n + 1 < len(wide) else len(paras)
        if not _prose(paras[j + 1:end]):
            continue
        added.append(Heading(j, "named", "", None, text.rstrip(" .")))
    if not added or len(added) > max(_MIN_ADDED, _MAX_ADDED_SHARE * len(heads)):
        return chosen
    return sorted(chosen + added, key=lambda c: c.para)


def without_closer_words(chosen: list[Heading], paras: list[Para]) -> list[Heading]:
    """Return the headings without those of a heading word set closer than the others: where "VOLUME ONE,
    CHAPTER TWO." stands after three blank lines or more and every "SECTION 2." after one, the sections
    are a lower level (an appendix's articles, a statute's sections), not the book's chapters."""
    gaps: dict[str, list[int]] = {}
    for c in chosen:
        if c.kind in ("chapter", "part"):
            gaps.setdefault(c.word, []).append(paras[c.para].gap)
    wide = [w for w, g in gaps.items() if sorted(g)[len(g) // 2] >= _MIN_GAP]
    # (A part's label may stand close under the title page, "BOOK THE FIRST" over its first chapter: parts stay.)
    close = {w for w, g in gaps.items() if max(g) <= 1} - {c.word for c in chosen if c.kind == "part"}
    if not wide or not close:
        return chosen
    return [c for c in chosen if not (c.kind == "chapter" and c.word in close)]


def _within_run(chosen: list[Heading], j: int) -> bool:
    """Return whether paragraph j lies between two chapters numbered one after the other ("CHAPTER IV" ...
    "CHAPTER V"): the numbering leaves no chapter out there, so a line set apart is a section's heading."""
    before = [c for c in chosen if c.para < j]
    after = [c for c in chosen if c.para > j]
    if not before or not after:
        return False
    a, b = before[-1], after[0]
    return a.number is not None and b.number is not None and b.number == a.number + 1 and a.kind == b.kind


def heads_title_page(paras: list[Para], j: int) -> bool:
    """Return whether a line is the title on a title page: a by-line ("By A. Writer", "BY" over the name) within
    the next few paragraphs."""
    return any(is_byline(clean_line(ln)) for p in paras[j + 1:j + 1 + _TITLE_PAGE_PARAS] for ln in p.lines)


def ends_in_title_page(paras: list[Para], j: int) -> bool:
    """Return whether the text before paragraph j ends with a title page: a by-line, an imprint or a copyright
    line among its last few paragraphs, or a dedication ("... IS AFFECTIONATELY DEDICATED."). What stands before
    it (a publisher's advertisements, a half-title) is front matter too; an unlisted prologue never ends so."""
    return any(is_byline(clean_line(ln)) or _IMPRINT.match(clean_line(ln)) or _DEDICATED.match(clean_line(ln))
               for p in paras[max(0, j - _TITLE_PAGE_PARAS - 2):j] for ln in p.lines)


def front_named(paras: list[Para], first: int, skip: tuple[int, int], have: set[int]) -> list[Heading]:
    """Return the short named pieces before the first chapter that a printed book heads as its own (round txt26):
    "DEDICATION.", "PREFATORY NOTE", "AUTHOR'S NOTE", "NOTE TO THE SECOND EDITION", "LETTER OF TRANSMITTAL", each
    on a line of its own set apart, outside the contents listing (named_before weighs their words)."""
    lo, hi = skip
    return [Heading(i, "named", "front", None, clean_line(p.text)) for i, p in enumerate(paras[:first])
            if i not in have and not lo <= i < hi and len(p.lines) == 1 and p.gap >= 2
            and _FRONT_NAMED.match(clean_line(p.text))]


#: The names of short front pieces (a dedication, a note to an edition, a letter sending the report).
_FRONT_NAMED = re.compile(r"^(?:dedication|dedicatory|prefatory\s+note|author['\u2019]?s\s+note|"
                          r"(?:a\s+)?note\s+to\s+the\s+(?:\w+\s+)?edition|letter\s+of\s+transmittal)\W*$", re.I)
#: Words such a piece heads at least (a dedication of a sentence or two; the truth's title-page lines head fewer).
FRONT_OWN_WORDS = 20


#: A dedication's last line: "THIS BOOK IS AFFECTIONATELY DEDICATED.", "... ARE RESPECTFULLY INSCRIBED".
_DEDICATED = re.compile(r"^.*\b(?:is|are)\s+(?:\w+ly\s+)?(?:dedicated|inscribed)\W*$", re.I)
#: Paragraphs under a title that may hold the title page's by-line.
_TITLE_PAGE_PARAS = 3
#: A title page's imprint or copyright line.
_IMPRINT = re.compile(r"^(?:copyright\b|\(c\)\s*\d|published\s+by\b|printed\s+(?:by|for)\b|all\s+rights\s+reserved)", re.I)


def _indent(p: Para) -> bool:
    """Return whether a paragraph's first line is indented (centred), as a heading may be."""
    line = p.lines[0]
    return len(line) - len(line.lstrip()) >= _CENTRED


#: Leading spaces of a centred line at least (a paragraph's own indent is shorter).
_CENTRED = 6

#: A publisher's list or the book's series, set as a heading among its chapters ("NEW BOOKS OF THE SEASON",
#: "UNIFORM WITH THE PRESENT WORK", "THE HOME READING LIBRARY"), a list of pictures or a glossary: matter, never a chapter.
_PUBLISHERS = re.compile(
    r"^(?:.*\b(?:books|works|volumes|series|library|advertisements?)\W*|"
    r"(?:new|recent|other|popular|standard|choice)\b.*\b(?:books|works|novels|publications)\b.*|uniform with\b.*|by the same author\W*|"
    r"(?:list of )?(?:illustrations?|plates|figures|maps|drawings)\b.*|(?:glossary|vocabulary)\b.*)$", re.I)


def is_publishers_matter(text: str) -> bool:
    """Return whether a heading names matter, not a chapter: a publisher's list or advertisements, the book's
    series, a list of pictures, a glossary, an index or the contents."""
    return bool(_PUBLISHERS.match(text)) or is_matter_title(text) or is_apparatus_title(text)


def _prose(paras: list[Para]) -> bool:
    """Return whether paragraphs are a chapter's prose: enough words, in a paragraph of full lines (a list of
    illustrations, a title page's lines or a listing of pages are short lines, often ending in a number)."""
    words = sum(len(p.text.split()) for p in paras)
    lines = [ln.strip() for p in paras for ln in p.lines]
    numbered = sum(1 for ln in lines if ln[-1:].isdigit())
    full = any(len(p.lines) >= 3 and sum(len(ln) for ln in p.lines) / len(p.lines) >= _FULL_LINE for p in paras)
    return words >= _MIN_OWN_WORDS and full and numbered < _NUMBERED_SHARE * len(lines)


#: A prose line's characters on average (Gutenberg wraps near 70); list entries stay shorter.
_FULL_LINE = 50
#: Lines ending in a page number, as a share: more are a listing.
_NUMBERED_SHARE = 0.3


def _heading_like(text: str, capitals: bool) -> bool:
    """Return whether a line set apart reads as a heading: a title, not a sentence, a by-line or matter."""
    if capitals and not text.isupper():
        return False
    if not any(len(w) >= 3 and number_value(w) is None for w in re.findall(r"[^\W\d_]+", text)):
        return False  # numerals only ("VI., VII."): a plate's or a page's mark, no heading's name
    if text.startswith(("[", "(", "*")) or CLOSING.match(text) or keyword_match(text):
        return False
    if _PUBLISHERS.match(text) or is_contents_label(text) or is_byline(text) or is_matter_title(text) or is_apparatus_title(text):
        return False
    return bool(title_line(Para(0, [text], 0)))
