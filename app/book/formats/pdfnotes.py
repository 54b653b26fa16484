"""A PDF page's footnotes: the small-type run at its foot from its first marked line down (pdfclean's pages).

An audiobook reads no footnotes in the text's flow (the HTML and EPUB editions' notes are apart too): each page's
run of notes is taken out before its lines become paragraphs.
"""
from __future__ import annotations

import re

from app.book.formats.pdfclean import _END_SENTENCE, _PAGE_NUMBER, Page
from app.book.formats.pdflayout import Line
from app.book.formats.pdflisting import listing_lines
from app.book.formats.pdfstyle import Style

#: Lines of the body's size a page holds above its small-type foot, at least, for a numbered line there to open
#: a note.
MIN_BODY_LINES = 2


def strip_footnotes(pages: list[Page], style: Style) -> None:
    """Remove each page's footnotes: the small-type run at its foot from its first marked line down, or
    from its first line where the page before ended inside a note (TeX carries a long note's rest over to
    the next page's foot, without a marker)."""
    carried = False
    for page in pages:
        lines = page.lines
        i = len(lines)
        while i > 0 and lines[i - 1].size < style.body * 0.92 and lines[i - 1].base > page.height * 0.4:
            i -= 1
        # A monospace line opening like a note ("*{b=2} What is...?") is a code block set small at a
        # page's foot, unless a raised marker stands before it.
        # A listing numbered line by line, set small, is no note (nor is a callout beside its line).
        listing = listing_lines(lines[i:]) if i < len(lines) else set()
        # A page set in the smaller type throughout (a form, a bibliography in small print: "1. ..." entries
        # down to its foot) has under two lines of the body's size above that run: its numbered lines are
        # its text, and only a raised marker opens a note there.
        numbered = sum(1 for ln in lines[:i] if abs(ln.size - style.body) < 0.6) >= MIN_BODY_LINES
        start = next((k for k in range(i, len(lines)) if k - i not in listing
                      and (lines[k].marked or (numbered and not lines[k].mono and _numbered_note(lines[k])))), None)
        if carried and i < len(lines) and not listing and not any(ln.mono for ln in lines[i:]) \
                and lines[i].text[:1].islower():
            start = i  # the rest of a sentence: an admonition or caption set small opens its own
        carried = start is not None and not _END_SENTENCE.search(lines[-1].text.rstrip())
        if start is not None:
            page.lines = lines[:start]


def _numbered_note(ln: Line) -> bool:
    """Return whether a small-type line opens like a footnote ("1 See ...", "* Note ...")."""
    # "3.9.4 Setup" is a section's number, set small at a page's foot: no note's.
    return bool(re.match(r"^(?:\d{1,3}(?!\.\d)|[*\u2020\u2021\u00a7])\s?\S", ln.text)) and not _PAGE_NUMBER.match(ln.text)
