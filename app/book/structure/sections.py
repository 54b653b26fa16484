"""Headings that are no division of the book's: sections numbered inside a labelled chapter, parts before every
chapter.

A book that labels its chapters "CHAPTER I" ... "CHAPTER IX" may divide one of them into sections headed by
bare numerals, counted from one again ("CHAPTER I" / "PROLOGUE", then "I", "II", "III" over its parts); the
listing may name them too, indented under their chapter. The labelled run is the book's division; the
numerals inside one of its chapters divide that chapter only. And parts ("FIRST SERIES." / "SECOND SERIES.")
that all stand before the first chapter, one after another with no chapter between, part nothing: they are
a publisher's list of a series' volumes, or a listing's lines, over the front matter.
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


def without_empty_parts(chosen: list[Heading]) -> list[Heading]:
    """Return the chapters without part headings that all come before the first chapter (two or more of them)."""
    first = next((c.para for c in chosen if c.kind == "chapter"), None)
    parts = [c for c in chosen if c.kind == "part"]
    if first is None or len(parts) < 2 or any(c.para > first for c in parts):
        return chosen
    return [c for c in chosen if c.kind != "part"]
