"""A PDF's outline as chapters, and where on its page each chapter starts.

An outline entry names a page and, for most producers (LaTeX's hyperref, dblatex, Texinfo), a place on
it: the XYZ destination's top. The chapter starts at its heading on that page, found by its words; where
the heading cannot be matched, at the destination's top, so that the end of the chapter before it, set on
the same page above the heading, stays in that chapter (Texinfo starts an appendix mid-page).
"""
from __future__ import annotations

from typing import NamedTuple

import pypdfium2 as pdfium

from app.book.formats.pdflayout import Line, soft_hyphen_end
from app.book.formats.pdflisted import LIST_ITEM, same_words, word_key
from app.book.structure.listing import is_contents_label
from app.book.normalize import clean_text

#: Outline entries read at most (a hostile outline can be a cycle or millions long).
MAX_OUTLINE = 20_000
#: PDF's XYZ destination (left, top, zoom): its second value is a page's height.
_XYZ = 1
#: FitH and FitBH (top): the page fit to the window's width, that height at its top (groff's pdfmark
#: bookmarks through Ghostscript are FitH).
_FIT_WIDTH = (3, 7)
#: A heading's division word, printed before the number or letter that the outline's title starts with
#: ("Appendix A Licence" for the entry "A Licence", "Chapter 5 Arrays" for "5 Arrays").
_DIVISIONS = frozenset("chapter appendix part section annex book".split())
#: A destination's top may stand this far (points) below the top of its heading's first line.
_DEST_SLACK = 4.0
#: A title wrapped over at most this many lines is found at its destination.
_TITLE_LINES = 5


class Entry(NamedTuple):
    level: int
    title: str
    index: int
    #: The destination's distance from the page's top (points), None where the outline names no place.
    top: float | None = None


def outline(doc: pdfium.PdfDocument) -> tuple[list[Entry], str]:
    """Return the outline's chapter entries, in order: its top level, or the children of a lone top entry;
    and that lone entry's title (the book's), else ""."""
    entries: list[Entry] = []
    try:
        for n, item in enumerate(doc.get_toc(max_depth=6)):
            if n >= MAX_OUTLINE:
                break
            dest = item.get_dest()
            index = dest.get_index() if dest is not None else None
            title = clean_text(item.get_title() or "")
            if index is not None and title:
                entries.append(Entry(item.level, title, index, _dest_top(doc, dest, index)))
    except (pdfium.PdfiumError, ValueError, RecursionError):
        pass
    if not entries:
        return [], ""
    top = min(e.level for e in entries)
    chapters = []
    for k, e in enumerate(entries):
        if e.level != top:
            continue
        kids = []
        for later in entries[k + 1:]:
            if later.level == top:
                break
            if later.level == top + 1:
                kids.append(Entry(top, later.title, later.index, later.top))
        # A contents entry holding the book's sections (jadetex bookmarks an article's sections under its
        # "Table of Contents"): they are the chapters, not matter to leave out with the contents.
        chapters += kids if kids and is_contents_label(e.title.strip(" .:")) else [e]
    if len(chapters) == 1:
        # A lone top entry is the book's own title: its children are the chapters.
        deeper = [e for e in entries if e.level == top + 1]
        if deeper:
            return deeper, chapters[0].title
    return chapters, ""


def headings(doc: pdfium.PdfDocument) -> set[str]:
    """Return every outline entry's title, at any level, case-folded: the document's own headings."""
    out: set[str] = set()
    try:
        for n, item in enumerate(doc.get_toc(max_depth=6)):
            if n >= MAX_OUTLINE:
                break
            out.add(" ".join(clean_text(item.get_title() or "").casefold().split()))
    except (pdfium.PdfiumError, ValueError, RecursionError):
        pass
    out.discard("")
    return out


def _dest_top(doc: pdfium.PdfDocument, dest, index: int) -> float | None:
    try:
        mode, view = dest.get_view()
        at = view[1] if mode == _XYZ and len(view) >= 2 else view[0] if mode in _FIT_WIDTH and view else None
        if not at:
            return None
        height = doc.get_page_size(index)[1]
    except (pdfium.PdfiumError, ValueError, IndexError, TypeError):
        return None
    top = height - float(at)
    return top if 0 <= top <= height else None


def heading_matches(line: str, title: str) -> bool:
    """Return whether a heading line is the outline's title, its numbering, case and division word aside."""
    if same_words(line, title):
        return True
    a, b = word_key(line), word_key(title)
    return len(a) > 1 and a[0] in _DIVISIONS and a[1:] == b


def find_title(lines: list[Line], title: str, level_of, after: int = 0) -> tuple[int, int] | None:
    """Return (first line of the chapter's heading, its last line) on a page at or below `after`, or None."""
    for k in range(after, len(lines)):
        ln = lines[k]
        end = None
        if LIST_ITEM.match(ln.text):
            continue  # a list naming the chapters below ("• Tools for the garden"), not a heading
        if heading_matches(ln.text, title):
            end = k
        elif k + 1 < len(lines) and heading_matches(f"{ln.text} {lines[k + 1].text}", title):
            end = k + 1
        if end is None:
            continue
        start = k
        # "CHAPTER" / "TWO" above the title: a label, said as part of the title.
        while start > after and level_of(lines[start - 1]) and len(lines[start - 1].text.split()) <= 3:
            start -= 1
        return start, end
    return None


def at_destination(lines: list[Line], top: float, title: str, after: int = 0) -> tuple[int, int] | None:
    """Return (the first line at or below the destination's top, the last line of the heading there), or
    None when no line stands below it. The heading is the lines from there that spell the outline's title
    word for word (a long title wrapped over several lines); none (-1 past the first line) where they do not."""
    start = next((k for k in range(after, len(lines)) if lines[k].top >= top - _DEST_SLACK), None)
    if start is None:
        return None
    want, text = word_key(title), ""
    for k in range(start, min(len(lines), start + _TITLE_LINES)):
        # A word the typesetter broke at the line's end ("Au-" + "drey") is one word.
        text = text[:-1] + lines[k].text if soft_hyphen_end(text) else f"{text} {lines[k].text}"
        got = word_key(text)
        if got == want:
            return start, k
        if soft_hyphen_end(text):
            got = got[:-1]  # the broken word's first part: its whole is on the next line
        if not got or want[:len(got)] != got:
            break
    return start, start - 1


def breaks(entries: list[Entry], pages, level_of) -> dict[int, dict[int, tuple[str, int]]]:
    """Return, per page, where each outline chapter starts: line index -> (title, last heading line)."""
    out: dict[int, dict[int, tuple[str, int]]] = {}
    last = (-1, -1)
    for entry in entries:
        title, index = entry.title, entry.index
        spot = None
        for page in pages[index:index + 2]:
            # Several entries may start on one page ("2.1", "2.2"): look below the last one found.
            after = last[1] + 1 if page.index == last[0] else 0
            hit = find_title(page.lines, title, level_of, after)
            if hit is not None and page.index == index and entry.top is not None \
                    and page.lines[hit[1]].base < entry.top - _DEST_SLACK:
                # The title found above the place the outline points at is another heading of those words
                # (a section "Advanced features" ending the chapter before the chapter of that name): the
                # entry's own heading stands at or below its destination, where there is one.
                at = next((k for k in range(hit[1] + 1, len(page.lines))
                           if page.lines[k].base >= entry.top - _DEST_SLACK), None)  # jadetex points at a baseline
                below = find_title(page.lines, title, level_of, at) if at is not None else None
                hit = below or hit
            if hit is not None:
                spot = (page.index, *hit)
                break
        if spot is None and index < len(pages):
            # Not on its page: a listing's title went with its page (a contents or index page left
            # empty), which may be the next one when the outline points at the page before it; else
            # the chapter starts at the destination's place on its page, or at the page's top.
            empty = next((p.index for p in pages[index:index + 2] if not p.lines), None)
            after = last[1] + 1 if index == last[0] else 0
            hit = at_destination(pages[index].lines, entry.top, title, after) if entry.top is not None else None
            spot = (empty, 0, -1) if empty is not None else (index, *hit) if hit else (index, 0, -1)
        if spot is None or (spot[0], spot[1]) <= last:
            continue
        last = (spot[0], spot[1])
        out.setdefault(spot[0], {})[spot[1]] = (title, spot[2])
    return out
