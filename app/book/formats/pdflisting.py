"""Lines a page sets apart that are one block: a numbered listing, a hanging indent.

A code listing numbered line by line is told from a page's footnotes.

A listing set in small type at a page's foot (DocBook's numbered program listings, dblatex's
"1 \\documentclass...", "2", "3 \\usepackage...") opens each line with a number, as a footnote's
first line does. The listing's numbers go up by one from line to line and its lines are
monospace; a page's notes are few, each may wrap over lines of prose. So a line is a listing's
when it stands in a run of LISTING_RUN lines or more numbered n, n+1, n+2... of which some are
monospace, and no such line starts a footnote.

A hanging indent (dblatex's definition lists, "Shared upkeep: where most ... run," then the
item's text indented below its term) is told from a paragraph's indented first line: the line
before runs to the right margin and ends mid-sentence, where a paragraph's last line ends one.
"""
from __future__ import annotations

import re

from app.book.formats.pdflayout import Line

#: Successive lines numbered one up from the last that make a listing, not notes.
LISTING_RUN = 3
_LEADING_NUMBER = re.compile(r"^(\d{1,5})(?=\s|;|$)")
#: A line that ends a sentence, or opens a list item of its own ("\u2022 ", "2. ", "(b) ").
_SENTENCE_END = re.compile(r"[.!?:;\"\u201d\u2019)\]]$")
_ITEM_OPENING = re.compile(r"^(?:[\u2022\u2013\u2014\u2023\u2043\u2219\u25aa\u25e6\u00b7*-]|\(?(?:\d{1,3}|[a-zA-Z]|[ivx]{1,5})[.)])\s")
#: How near the right margin (in body sizes) a line ends that runs on.
FULL_LINE = 1.0


def listing_lines(lines: list[Line]) -> set[int]:
    """Return the positions in `lines` of those that belong to a listing numbered line by line.

    Lines on one baseline are one row (a callout "(1)" set beside a listing's line belongs to it).
    """
    rows: list[list[int]] = []
    for k, ln in enumerate(lines):
        if rows and abs(lines[rows[-1][0]].base - ln.base) < 1.0:
            rows[-1].append(k)
        else:
            rows.append([k])
    numbers = [next((n for n in map(_number, (lines[k] for k in row)) if n is not None), None) for row in rows]
    found: set[int] = set()
    start = 0
    for i in range(1, len(rows) + 1):
        if i < len(rows) and None not in (numbers[i], numbers[i - 1]) and numbers[i] == numbers[i - 1] + 1:
            continue
        run = [k for row in rows[start:i] for k in row]
        if i - start >= LISTING_RUN and numbers[start] is not None and any(lines[k].mono for k in run):
            found.update(run)
        start = i
    return found


def _number(ln: Line) -> int | None:
    m = _LEADING_NUMBER.match(ln.text)
    return int(m.group(1)) if m else None


def hangs_on(prev: Line, ln: Line, right_margin: float, size: float) -> bool:
    """Return whether an indented line goes on with the line before it: a hanging indent's next line."""
    return (prev.x1 >= right_margin - size * FULL_LINE and not _SENTENCE_END.search(prev.text.rstrip())
            and not _ITEM_OPENING.match(ln.text))
