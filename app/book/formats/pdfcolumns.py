"""A page set in columns put in reading order: column by column, band by band (pdflayout's lines).

A gutter is an x position in the middle of the text that no line crosses but full-width ones, with lines on
both sides at the same heights. Full-width lines (a title, a figure's caption across the page) cut the page
into bands; each band is read column by column, from the left. A side of a gutter may hold a gutter of its
own: a page in three columns (a newsletter, Word's "Three" columns) has two, found one after the other.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.book.formats.pdflayout import Line

#: Gutters looked for inside a side of a gutter, at most (four columns).
MAX_GUTTERS = 3


def _gutter(lines: list[Line]) -> float | None:
    """Return the x of the best gutter between columns of these lines, or None."""
    if len(lines) < 6:
        return None
    lo = min(ln.x0 for ln in lines)
    hi = max(ln.x1 for ln in lines)
    width = hi - lo
    if width <= 0:
        return None
    best = None
    for step in range(30, 71, 2):
        g = lo + width * step / 100
        left = sum(1 for ln in lines if ln.x1 < g)
        right = sum(1 for ln in lines if ln.x0 > g)
        crossing = len(lines) - left - right
        if left >= 3 and right >= 3 and crossing <= len(lines) * 0.25:
            score = crossing - min(left, right) * 0.01
            if best is None or score < best[0]:
                best = (score, g)
    if best is None:
        return None
    g = best[1]
    left_lines = [ln for ln in lines if ln.x1 < g]
    right_lines = [ln for ln in lines if ln.x0 > g]
    # Side by side, not one after the other: the columns must share heights.
    l_top, l_bot = min(ln.base for ln in left_lines), max(ln.base for ln in left_lines)
    r_top, r_bot = min(ln.base for ln in right_lines), max(ln.base for ln in right_lines)
    overlap = min(l_bot, r_bot) - max(l_top, r_top)
    if overlap < 0.3 * min(l_bot - l_top, r_bot - r_top) or overlap <= 0:
        return None
    return g


def _gutters(lines: list[Line], depth: int = 0) -> list[float]:
    """Return the gutters of these lines, left to right: the best one, then those inside each side."""
    g = _gutter(lines)
    if g is None:
        return []
    if depth + 1 >= MAX_GUTTERS:
        return [g]
    return (_gutters([ln for ln in lines if ln.x1 < g], depth + 1) + [g]
            + _gutters([ln for ln in lines if ln.x0 > g], depth + 1))


def in_reading_order(lines: list[Line]) -> list[Line]:
    """Return the lines of a page in columns read column by column, band by band (else as they are)."""
    gutters = _gutters(lines)
    if not gutters:
        return lines
    ordered: list[Line] = []
    band: list[Line] = []

    def flush() -> None:
        band.sort(key=lambda ln: (ln.column, ln.base))
        ordered.extend(band)
        band.clear()

    for ln in sorted(lines, key=lambda ln: ln.base):
        # Its column: the gutters left of it, where it crosses none.
        column = 1 + sum(1 for g in gutters if g < ln.x0)
        if any(ln.x0 <= g <= ln.x1 for g in gutters):
            flush()
            ln.column = 0
            ordered.append(ln)
            continue
        ln.column = column
        band.append(ln)
    flush()
    return ordered
