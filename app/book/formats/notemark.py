"""Where a footnote's or endnote's marker stood in a paragraph of an office file (DOCX, ODT).

The notes are read after their paragraph, so their markers go; but the marker also parted what stood on
either side of it: "the pond¹ 1850" (a note on "pond", then a year) or a marker between two words in a
table cell. Joined, they make one word that is neither ("pond1850"). The readers put NOTE_MARK where a
marker stood and `note_gap` makes it a space between two word characters, nothing elsewhere
("pond¹." is "pond.").
"""
from __future__ import annotations

import re

NOTE_MARK = "\x00"
_GAP = re.compile(r"(?<=\w)\x00+(?=\w)")


def note_gap(text: str) -> str:
    """Return text with a space where a note's marker stood between two word characters, no mark left."""
    return _GAP.sub(" ", text).replace(NOTE_MARK, "")
