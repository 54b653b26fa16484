"""Listings a page prints without page numbers, which the contents-page rule (entries ending in page
numbers, pdfclean) does not see: pandoc's LaTeX, and any PDF printed from a web page, set a contents
or a list of illustrations as bare lines of links.

Two signs, each on a run of LISTED_RUN lines or more (a sentence rarely names three chapters on three
lines of their own, or is three lines that are each one link):
- the lines name outline entries that start on a later page: a contents listing;
- each line is one link into the document, wholly and from its first character: a list of links
  (illustrations, figures, a contents with no outline). A link in running text covers a part of its
  line; a bulleted list of links in the text opens each line with its bullet, outside the link.
"""
from __future__ import annotations

import ctypes
import re

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from app.book.formats.pdflayout import Line
from app.book.structure.listing import is_contents_label

#: Lines in a row (at most one other line between two, for the title matches) that make a listing.
LISTED_RUN = 3
#: A line is wholly a link when link areas cover this share of its width.
LINKED_SHARE = 0.9
#: At most this many links are read from one page (a page is bounded work, whatever the file says).
MAX_PAGE_LINKS = 2000
#: A line opening with a list's bullet: an item of the text's own list, never a chapter's heading nor a contents
#: entry (a chapter may list the chapters of its part as bullets: the author's text, as its HTML edition shows it).
LIST_ITEM = re.compile(r"^[\u2022\u25e6\u25aa\u25ab\u2023\u2043\u00b7*\u2013-]\s")
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f\u0400-\u04ff]+")

#: A link's area on a page, in top-down page coordinates: (x0, top, x1, bottom).
Area = tuple[float, float, float, float]


def word_key(text: str) -> tuple[str, ...]:
    """Return a line's or title's words, numbering, punctuation and case aside: equal keys, same words."""
    return tuple(_WORD.findall(text.casefold()))


def same_words(line: str, title: str) -> bool:
    """Return whether a page's heading line is the outline's title (numbering and case aside)."""
    a = word_key(line)
    return bool(a) and a == word_key(title)


def internal_links(doc: pdfium.PdfDocument, page: pdfium.PdfPage, height: float) -> list[Area]:
    """Return the areas of a page's links that go to a place in the document (not a web address)."""
    out: list[Area] = []
    pos, link = ctypes.c_int(0), raw.FPDF_LINK()
    while len(out) < MAX_PAGE_LINKS and raw.FPDFLink_Enumerate(page.raw, ctypes.byref(pos), ctypes.byref(link)):
        action = raw.FPDFLink_GetAction(link)
        inside = raw.FPDFAction_GetType(action) == raw.PDFACTION_GOTO if action else bool(
            raw.FPDFLink_GetDest(doc.raw, link))
        rect = raw.FS_RECTF()
        if inside and raw.FPDFLink_GetAnnotRect(link, ctypes.byref(rect)):
            out.append((rect.left, height - rect.top, rect.right, height - rect.bottom))
    return out


def _linked(ln: Line, areas: list[Area]) -> bool:
    mid = ln.base - ln.size * 0.35
    spans = sorted((max(a[0], ln.x0), min(a[2], ln.x1)) for a in areas if a[1] <= mid <= a[3])
    covered, reach = 0.0, ln.x0
    for x0, x1 in spans:
        if x1 > reach:
            covered += x1 - max(x0, reach)
            reach = x1
    # From its first character: a bullet or number before the link makes an item of a list in the text.
    starts = bool(spans) and spans[0][0] <= ln.x0 + ln.size * 0.3
    return starts and ln.x1 > ln.x0 and covered >= LINKED_SHARE * (ln.x1 - ln.x0)


def strip_listings(pages, entries) -> None:
    """Take out, in place, runs of lines that name outline entries starting on a later page, and runs
    of lines that are each wholly a link into the document (the run may go on over a page's end)."""
    last_start: dict[tuple[str, ...], int] = {}
    for entry in entries:  # pdfoutline.Entry: (level, title, page index, ...)
        title, index = entry[1], entry[2]
        if key := word_key(title):
            last_start[key] = max(index, last_start.get(key, -1))
    drop: set[int] = set()
    for page in pages:
        hits = [k for k, ln in enumerate(page.lines)
                if last_start.get(word_key(ln.text), -1) > page.index and not LIST_ITEM.match(ln.text)]
        runs: list[list[int]] = []
        for k in hits:
            if runs and k - runs[-1][-1] <= 2:
                runs[-1].append(k)
            else:
                runs.append([k])
        drop.update(id(page.lines[k]) for run in runs if len(run) >= LISTED_RUN for k in range(run[0], run[-1] + 1))
    run: list[Line] = []
    for page in pages:
        for ln in page.lines:
            if page.links and _linked(ln, page.links):
                run.append(ln)
                continue
            if len(run) >= LISTED_RUN:
                drop.update(id(x) for x in run)
            run = []
    if len(run) >= LISTED_RUN:
        drop.update(id(x) for x in run)
    if drop:
        # The listing's own heading ("Table of Contents" over a question list set as links) goes with it.
        flat = [ln for page in pages for ln in page.lines]
        drop.update(id(ln) for ln, nxt in zip(flat, flat[1:])
                    if id(nxt) in drop and id(ln) not in drop and is_contents_label(ln.text.strip(" .:")))
        for page in pages:
            page.lines = [ln for ln in page.lines if id(ln) not in drop]
