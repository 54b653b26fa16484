"""From a PDF's lines to a book's blocks: only the narration, in paragraphs.

The rules are generic, measured on the document itself, never on one book:
- running heads and feet: lines in a page's top or bottom zone that repeat across pages once
  digits and Roman numerals are normalised (odd and even pages apart), and any line at the
  height and size where such repeating lines stand; page numbers ("12", "xii", "3 / 40",
  "Page 3 of 40");
- a block's "(continued from previous page)" labels where a page breaks it;
- footnotes: the run of smaller-than-body lines at a page's foot that starts with a note marker;
- contents listings: lines ending in dot leaders and a page number;
- paragraphs: a line joins the one before unless the space above it, an indented first line,
  a short line ending a sentence before it, or a change of style starts a new one, across
  columns and pages alike;
- hyphenation across lines: pdfwords.py;
- headings: lines larger than the body text, or bold lines standing alone, ranked by size.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from app.book.structure.blocks import Block
from app.book.formats.pdffigure import without_pictures
from app.book.formats.pdflayout import Line, soft_hyphen_end
from app.book.formats.pdflisting import hangs_on
from app.book.formats.pdfxref import spoken_xrefs
from app.book.formats.pdfwords import join_lines
from app.book.formats.pdfstyle import Style, measure  # noqa: F401 - measure re-exported for pdf.py

#: Share of the page height at its top and bottom where running heads and feet stand.
ZONE = 0.12
#: A normalised line seen at this many pages' edges is a running head or foot.
MIN_REPEATS = 3
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-\u2013\u2014\s]*(?:\d{1,5}|[ivxlcdm]{1,8})(?:\s*(?:/|of|von|de|sur)\s*\d{1,5})?[-\u2013\u2014\s]*$",
    re.I)
_ROMAN_TOKEN = re.compile(r"\b[ivxlcdm]{1,8}\b", re.I)
_DIGITS = re.compile(r"\d+")
#: A contents entry without leaders: "3.1 Notable differences with C 45", "Preface xi".
_CONTENTS_ENTRY = re.compile(r"^(?:[\dA-Z]{1,3}(?:\.\d{1,3})*\.?\s+)?[^\d\s].*\s(?:\d{1,4}|[ivxlc]{1,6})$")
#: A page is a contents page when this share of its lines (at least CONTENTS_MIN_LINES) are entries.
CONTENTS_SHARE = 0.6
CONTENTS_MIN_LINES = 8
#: A back-of-book index entry: a term and its page references ("install command line option, 61, 82").
_INDEX_ENTRY = re.compile(r",\s*(?:\d{1,4}|[ivxlc]{1,6})(?:\s*[-\u2013]\s*\d{1,4})?(?:,\s*\d{1,4}(?:\s*[-\u2013]\s*\d{1,4})?)*$")
#: An index page: this share of its lines end in page references, and nearly all are short (a term, a
#: sub-term whose references follow on its own line).
INDEX_SHARE = 0.4
INDEX_SHORT_SHARE = 0.9
INDEX_SHORT_WORDS = 8
_LEADERS = re.compile(r"(?:\.\s?){4,}\s*(?:\d{1,5}|[ivxlcdm]{1,8})\s*$", re.I)
#: A list item's bullet glyph at a line's start ("•", a nested item's "–"): a code block is set without one.
_LIST_BULLET = re.compile(r"^[\u2022\u2013\u2023\u2043\u2219\u25aa\u25e6\u00b7]\s")
#: A block's label where the page breaks it: Sphinx's "(continues on next page)" under a code block's part and
#: "(continued from previous page)" over the next; longtable's "Continued on next page". Pages, not text.
_CONTINUED = re.compile(r"^\(?\s*(?:continued|continues)\s+(?:on|from)\s+(?:the\s+)?(?:next|previous|following|"
                        r"preceding)\s+page\s*\)?\.?$", re.I)
_END_SENTENCE = re.compile(r"[.!?:;\"\u201d\u2019)\]]$")


def edge_key(text: str) -> str:
    """Return a line as running heads are compared: case-folded, numbers as '#'."""
    return " ".join(_ROMAN_TOKEN.sub("#", _DIGITS.sub("#", text.casefold())).split())


@dataclass
class Page:
    """One page's lines and size, as the reader keeps them between its two passes."""

    index: int
    height: float
    lines: list[Line]
    #: Where the page's links into the document stand (x0, top, x1, bottom): pdflisted's listings.
    links: list[tuple[float, float, float, float]] = field(default_factory=list)


def _in_zone(ln: Line, page: Page) -> str:
    if ln.base <= page.height * ZONE + ln.size:
        return "top"
    if ln.base >= page.height * (1 - ZONE):
        return "bottom"
    return ""


#: A page's first or last line set off from the text by this many line heights stands in its margin.
MARGIN_GAP = 1.8


def strip_page_furniture(pages: list[Page], style: Style, listings: bool = True) -> None:
    """Remove running heads and feet, page numbers and (with `listings`) contents and index pages, in place."""
    counts: Counter = Counter()
    texts: Counter = Counter()
    inner: Counter = Counter()
    for page in pages:
        edges = [*_edge_lines(page).values(), *((ln, "top") for ln in _top_three(page)[2:])]
        for ln, zone in edges:
            counts[(page.index % 2, zone, edge_key(ln.text), round(ln.size))] += 1
            texts[" ".join(ln.text.casefold().split())] += 1
            # A head in two parts (the chapter's name left, the section's right, as dblatex sets
            # them): the part that stays the same repeats even where the whole line does not.
            for piece in ln.pieces:
                counts[(page.index % 2, zone, "piece:" + edge_key(piece), round(ln.size))] += 1
        at_edge = {id(ln) for ln, _zone in edges}
        inner.update(" ".join(ln.text.casefold().split()) for ln in page.lines if id(ln) not in at_edge)
    many = len(pages) >= 8

    def _own_heading(ln: Line) -> bool:
        # A chapter's heading at the top of its page ("CHAPTER XI.", set large) repeats in shape from chapter
        # to chapter, never as printed: a running line repeats as printed, or is set no larger than the body.
        return _heading_size(ln, style) and texts[" ".join(ln.text.casefold().split())] < 2

    def _text_line(ln: Line) -> bool:
        # A line of the text that a document repeats (a form's boilerplate, a refrain, a heading every
        # chapter has) stands at page edges now and then, and inside pages at least half as often; a
        # running line stands at the edges alone (its chapter's heading aside). A table's header row is
        # furniture where a long table repeats it atop each page, read once where the table starts.
        n = inner[" ".join(ln.text.casefold().split())]
        return not ln.row and n >= 2 and n * 2 >= texts[" ".join(ln.text.casefold().split())]

    seen: Counter = Counter()
    for page in pages:
        for ln, zone in _edge_lines(page).values():
            if _repeats(counts, page.index % 2, zone, ln) >= (MIN_REPEATS if many else 2) and not _own_heading(ln) \
                    and _set_apart(ln, page, zone, style) and not _text_line(ln):
                seen[(page.index % 2, zone, round(ln.base), round(ln.size))] += 1
    # A place where heads stand holds one on many pages: a line that repeats elsewhere (a code sample's
    # "import os", set apart by its block's padding) standing there once marks no place, or every page's
    # first line at that height went with it.
    slots = {slot for slot, n in seen.items() if n >= (MIN_REPEATS if many else 1)}
    numbered = _number_places(pages)
    for page in pages:
        entries = sum(1 for ln in page.lines if _CONTENTS_ENTRY.match(ln.text) or _LEADERS.search(ln.text))
        if listings and len(page.lines) >= CONTENTS_MIN_LINES and (
                entries >= CONTENTS_SHARE * len(page.lines) or _index_page(page.lines)):
            page.lines = []  # a contents or index page: its wrapped entries and heading go with it
        edges = _edge_lines(page)
        drop = set()
        for ln, zone in edges.values():
            slot = (page.index % 2, zone, round(ln.base), round(ln.size))
            # A line where running heads stand is one too, unless it is set large (a chapter's title).
            near = ln.size <= style.body * 1.25 and any((slot[0], slot[1], slot[2] + d, slot[3]) in slots for d in (-1, 0, 1))
            # Facing pages head alike: where the book's title heads the even pages, the odd ones carry their
            # chapter's, which repeats too little in a short chapter. Such a line, numbered as the page, set
            # off from the text, where the other pages' heads stand, is one.
            near = near or ln.size <= style.body * 1.25 and _page_numbered(ln) and _set_apart(ln, page, zone, style) \
                and any((1 - slot[0], slot[1], slot[2] + d, slot[3]) in slots for d in (-1, 0, 1))
            heading = _own_heading(ln)
            if _PAGE_NUMBER.match(ln.text) and not _chapter_number(ln, page, style, numbered) or not heading and _repeats(
                    counts, slot[0], zone, ln) >= (MIN_REPEATS if many else 2) and not _text_line(ln) \
                    or near or _numbered_head(ln, page, zone):
                drop.add(id(ln))
        # A head of three lines (FOP wraps a long title): the third goes with the two above it where it
        # repeats as they do; by repetition only, as a body line may stand there.
        if (top := _top_three(page)) and {id(top[0]), id(top[1])} <= drop and _repeats(
                counts, page.index % 2, "top", top[2]) >= (MIN_REPEATS if many else 2):
            drop.add(id(top[2]))
        page.lines = without_pictures([ln for ln in page.lines if id(ln) not in drop and not (
            listings and _LEADERS.search(ln.text)) and not _CONTINUED.match(ln.text.strip())])


#: Page numbers stand at one place on this share of the pages at least: a number elsewhere is not one.
NUMBER_PLACE_SHARE = 0.25


def _place(ln: Line, page: Page) -> tuple[str, int]:
    return _in_zone(ln, page) or ("top" if ln.base < page.height / 2 else "bottom"), round(ln.base / 6)


def _number_places(pages: list[Page]) -> set[tuple[str, int]]:
    """Return where a page number stands on a quarter of the pages or more (a zone, a height in 6-point steps)."""
    counts: Counter = Counter()
    for page in pages:
        for ln, _zone in _edge_lines(page).values():
            if _PAGE_NUMBER.match(ln.text):
                zone, height = _place(ln, page)
                counts.update({(zone, height + d) for d in (-1, 0, 1)})
    return {key for key, n in counts.items() if n >= len(pages) * NUMBER_PLACE_SHARE}


def _heading_size(ln: Line, style: Style) -> bool:
    """Return whether a line is set in one of the book's heading sizes, larger than its body."""
    return round(ln.size * 2) / 2 in style.heading_sizes and ln.size > style.body * 1.05


def _chapter_number(ln: Line, page: Page, style: Style, numbered: set[tuple[str, int]]) -> bool:
    """Return whether a bare number at a page's edge is a chapter's, not the page's: set in a heading's size
    (a page number is set no larger than the body) where the book's page numbers do not stand (a page
    opening with a chapter, "XIX" over its first paragraph)."""
    return _heading_size(ln, style) and _place(ln, page) not in numbered


def _numbered_head(ln: Line, page: Page, zone: str) -> bool:
    """Return whether a page's first or last line is a running head or foot by its own shape, as on a page
    cut out of a book, where none repeats: words and a page number set apart ("Tables     13"), off the text."""
    by_height = sorted(page.lines, key=lambda x: x.base)
    if len(ln.pieces) != 2 or len(by_height) < 2 or not any(_PAGE_NUMBER.match(p) for p in ln.pieces) \
            or not any(re.search(r"[^\W\d_]{2}", p) and not _PAGE_NUMBER.match(p) for p in ln.pieces):
        return False
    if zone == "top" and ln is by_height[0]:
        return by_height[1].base - ln.base > MARGIN_GAP * max(ln.size, by_height[1].size)
    if zone == "bottom" and ln is by_height[-1]:
        return ln.base - by_height[-2].base > MARGIN_GAP * ln.size + ln.size
    return False


def _page_numbered(ln: Line) -> bool:
    """Return whether a line opens or ends with a page number beside words ("12   A Title", "A Title   13")."""
    if ln.pieces:
        return len(ln.pieces) == 2 and any(_PAGE_NUMBER.match(p) for p in ln.pieces)
    return bool(re.match(r"^(?:\d{1,4}|[ivxlc]{1,7})\s+\S|.*\S\s+(?:\d{1,4}|[ivxlc]{1,7})$", ln.text.strip()))


def _index_page(lines: list[Line]) -> bool:
    """Return whether a page's lines are a back-of-book index's: short terms, many ending in page numbers."""
    refs = sum(1 for ln in lines if _INDEX_ENTRY.search(ln.text))
    short = sum(1 for ln in lines if len(ln.text.split()) <= INDEX_SHORT_WORDS)
    return refs >= INDEX_SHARE * len(lines) and short >= INDEX_SHORT_SHARE * len(lines)


def _repeats(counts: Counter, parity: int, zone: str, ln: Line) -> int:
    """Return how often a head or foot line, or the more repeated of its two parts, stands on such pages."""
    size = round(ln.size)
    key = edge_key(ln.text)
    if not re.search(r"[^\W\d_]", key):
        # Numbers alone ("5.6.26", a section number set on its own line) repeat only in shape: a page
        # number is caught as one, and nothing else without a letter is a running line.
        return 0
    whole = counts[(parity, zone, key, size)]
    # Only a part of some length: a page number beside a varying title repeats, yet says nothing.
    parts = [counts[(parity, zone, "piece:" + edge_key(p), size)] for p in ln.pieces
             if len(p.split()) >= 2]
    return max([whole, *parts])


def _edge_lines(page: Page) -> dict[int, tuple[Line, str]]:
    """Return the up to two first and two last lines of a page that stand in its head or foot: by position
    (the top or bottom eighth of the page), or, for the very first and last line, by the gap that sets it
    off from the text (a page number high above a tall bottom margin)."""
    if not page.lines:
        return {}
    by_height = sorted(page.lines, key=lambda ln: ln.base)
    picked: dict[int, tuple[Line, str]] = {}
    for k, ln in enumerate(by_height[:2]):
        gap = by_height[1].base - ln.base if k == 0 and len(by_height) > 1 else 0
        below = by_height[1].size if len(by_height) > 1 else ln.size  # a page of one line has no gap
        if _in_zone(ln, page) == "top" or gap > MARGIN_GAP * max(ln.size, below):
            picked[id(ln)] = (ln, "top")
    for k, ln in enumerate(reversed(by_height[-2:])):
        gap = ln.base - by_height[-2].base if k == 0 and len(by_height) > 1 else 0
        if id(ln) not in picked and (_in_zone(ln, page) == "bottom" or gap > MARGIN_GAP * ln.size + ln.size):
            picked[id(ln)] = (ln, "bottom")
    return picked


def _set_apart(ln: Line, page: Page, zone: str, style: Style) -> bool:
    """Return whether an edge line stands off from the text beside it, as a running head or foot does: a
    line in the text's flow that repeats (a long table's header row at each page's top, an admonition's
    "Note") marks no place where heads stand, else every page's first line there went with it."""
    if zone == "top":
        near = [x.base - ln.base for x in page.lines if x.base > ln.base + 0.5]
    else:
        near = [ln.base - x.base for x in page.lines if x.base < ln.base - 0.5]
    return not near or min(near) > style.pitch * 1.35 + 0.5


def _top_three(page: Page) -> list[Line]:
    """Return a page's three first lines when all stand in the head zone, else none."""
    top = sorted(page.lines, key=lambda ln: ln.base)[:3]
    return top if len(top) == 3 and all(_in_zone(ln, page) == "top" for ln in top) else []


@dataclass
class _Para:
    text: str
    level: int
    kind: str
    last: Line
    lines: int = 1


class Paragrapher:
    """Join lines into paragraphs and headings, fed page by page, emitting Blocks."""

    def __init__(self, style: Style, plain: set[str], compounds: set[str], outline_levels: bool):
        self.style = style
        self.plain = plain
        self.compounds = compounds
        #: With an outline the chapters come from it: size-found headings rank below level 1.
        self.offset = 1 if outline_levels else 0
        self.blocks: list[Block] = []
        self.cur: _Para | None = None
        self.margins: dict[tuple[int, int], tuple[float, float]] = {}

    def level_of(self, ln: Line) -> int:
        """Return a heading level for a line's style (0: body text)."""
        s = round(ln.size * 2) / 2
        if s in self.style.heading_sizes:
            return min(6, self.style.heading_sizes.index(s) + 1 + self.offset)
        if ln.bold and self.style.bold_marks and not ln.mono and abs(ln.size - self.style.body) < 0.6 and len(ln.text.split()) <= 12:
            return min(6, len(self.style.heading_sizes) + 1 + self.offset)
        return 0

    def page(self, page: Page, breaks: dict[int, tuple[str, int]]) -> None:
        """Add a page's lines; `breaks` maps a line's position to (chapter title, last heading line).

        The lines from a chapter's start through its heading ("CHAPTER", "TWO", "APPLYING TO
        BECOME A MEMBER") are said once, as the outline's title.
        """
        self._margins(page)
        for i in sorted(k for k in breaks if k >= len(page.lines)):
            # A chapter starting on a page left empty (a contents or index page): it starts, empty.
            self.flush()
            self.blocks.append(Block(breaks[i][0], 1))
        skip_to = -1
        for i, ln in enumerate(page.lines):
            if i in breaks:
                self.flush()
                title, skip_to = breaks[i]
                self.blocks.append(Block(title, 1))
            if i <= skip_to:
                continue
            self.add(ln)

    def _margins(self, page: Page) -> None:
        for col in {ln.column for ln in page.lines}:
            body = [ln for ln in page.lines if ln.column == col and abs(ln.size - self.style.body) < 0.6]
            if len(body) >= 3:
                xs0 = sorted(ln.x0 for ln in body)
                xs1 = sorted(ln.x1 for ln in body)
                self.margins[(page.index, col)] = (xs0[len(xs0) // 10], xs1[len(xs1) * 9 // 10])

    def add(self, ln: Line) -> None:
        level = self.level_of(ln)
        kind = "code" if ln.mono else "text"
        cur = self.cur
        if kind == "code" and (self._inline(cur, ln, level) or _LIST_BULLET.match(ln.text)):
            kind = "text"  # a path inside a sentence, or a list item naming a file ("• foo.orig.tar.gz")
        if cur is not None and self._continues(cur, ln, level, kind):
            if kind == "code":
                cur.text = f"{cur.text}\n{ln.text}"
            else:
                cur.text = join_lines(cur.text, ln.text, self.plain, self.compounds)
            cur.last = ln
            cur.lines += 1
            return
        self.flush()
        self.cur = _Para(ln.text, level, kind, ln)

    def _inline(self, cur: _Para | None, ln: Line, level: int) -> bool:
        """Return whether a monospace line is a path or command inside a sentence, not a code block.

        A sentence naming "/usr/share/doc/devscripts/README.gz" may wrap so that a line is all
        monospace; it runs on in the paragraph's flow (no space above, no indent), where a code
        block stands apart, or follows a sentence announcing it ("as follows:").
        """
        return (cur is not None and cur.kind == "text" and not level and not cur.level
                and not cur.text.rstrip().endswith(":") and self._continues(cur, ln, level, "text"))

    def _continues(self, cur: _Para, ln: Line, level: int, kind: str) -> bool:
        prev = cur.last
        if level != cur.level or kind != cur.kind or ln.row or prev.row:
            return False
        if level:
            # A heading runs on over its lines when they follow closely at the same size.
            return prev.page == ln.page and 0 < ln.base - prev.base < ln.size * 1.8 and cur.lines < 4
        size = self.style.body
        left = self.margins.get((ln.page, ln.column), (ln.x0, ln.x1))[0]
        p_left, p_right = self.margins.get((prev.page, prev.column), (prev.x0, prev.x1))
        same_flow = prev.page == ln.page and prev.column == ln.column
        if same_flow:
            gap = ln.base - prev.base
            if gap <= 0 or gap > self.style.pitch * 1.35 + 0.5:
                return False  # extra space above: a new paragraph
        if soft_hyphen_end(prev.text):
            return True  # a word the typesetter broke goes on, whatever the indent (a hanging one: a bibliography's)
        if prev.x1 < p_right - size * 2.5 and _END_SENTENCE.search(prev.text):
            return False  # a short line ending a sentence ended the paragraph (also at a column's or page's foot)
        if ln.x0 > left + size * 0.8 and (prev.x0 <= p_left + size * 0.5 or not same_flow):
            # An indented first line starts a paragraph, unless the line before runs to the right margin
            # mid-sentence: then the indent is a hanging one (a definition list's term and its text).
            return kind == "code" or (kind == "text" and hangs_on(prev, ln, p_right, size))
        return True

    def flush(self) -> None:
        if self.cur is not None:
            text = self.cur.text if self.cur.kind == "code" else spoken_xrefs(self.cur.text)
            self.blocks.append(Block(text, self.cur.level, set(), self.cur.kind))
            self.cur = None
