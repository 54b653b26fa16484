"""Sections numbered inside a labelled chapter are no chapters of their own.

A book that labels its chapters "CHAPTER I" ... "CHAPTER IX" may divide one of them into sections headed by
bare numerals, counted from one again ("CHAPTER I" / "PROLOGUE", then "I", "II", "III" over its parts); the
listing may name them too, indented under their chapter. The labelled run is the book's division; the
numerals inside one of its chapters divide that chapter only.
"""
from __future__ import annotations

from app.book.structure.lines import LAST, Heading

#: Labelled chapters a run needs before numerals inside them are read as its sections.
_MIN_RUN = 3


def without_inner_sections(chosen: list[Heading]) -> list[Heading]:
    """Return the chapters without the bare numerals counted from one again inside a labelled chapter."""
    labelled = [c for c in chosen if c.kind == "chapter" and c.number is not None and c.number != LAST]
    numbers = [c.number for c in labelled]
    if len(labelled) < _MIN_RUN or numbers != list(range(1, len(labelled) + 1)) or len({c.word for c in labelled}) > 1:
        return chosen
    drop: set[int] = set()
    group: list[Heading] = []
    for c in [*chosen, None]:
        if c is not None and c.kind == "numeral" and (group or _follows_label(chosen, c)):
            group.append(c)
            continue
        if group and group[0].number == 1 and [g.number for g in group] == list(range(1, len(group) + 1)):
            drop |= {id(g) for g in group}
        group = []
    return [c for c in chosen if id(c) not in drop] if drop else chosen


def _follows_label(chosen: list[Heading], c: Heading) -> bool:
    """Return whether the heading chosen just before c is a labelled chapter (the sections' own)."""
    before = [o for o in chosen if o.para < c.para]
    return bool(before) and before[-1].kind == "chapter"
