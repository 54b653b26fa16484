"""A code listing numbered line by line, told from a page's footnotes.

A listing set in small type at a page's foot (DocBook's numbered program listings, dblatex's
"1 \\documentclass...", "2", "3 \\usepackage...") opens each line with a number, as a footnote's
first line does. The listing's numbers go up by one from line to line and its lines are
monospace; a page's notes are few, each may wrap over lines of prose. So a line is a listing's
when it stands in a run of LISTING_RUN lines or more numbered n, n+1, n+2... of which some are
monospace, and no such line starts a footnote.
"""
from __future__ import annotations

import re

from app.book.formats.pdflayout import Line

#: Successive lines numbered one up from the last that make a listing, not notes.
LISTING_RUN = 3
_LEADING_NUMBER = re.compile(r"^(\d{1,5})(?=\s|;|$)")


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
