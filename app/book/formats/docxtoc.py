"""A table of contents in a DOCX is a field: Word writes `TOC \\o "1-3"` (or `TOC \\c "Figure"`, a list of
figures or tables) in a w:instrText between fldChar begin and end, and its result, the entries, as the
paragraphs in between. The result is a listing of the document, not its text: it is not read, whatever the
paragraphs' style (an empty list of figures shows "No table of figures entries found." in Normal style).

A broken or hostile file can open a TOC field and never end it: then nothing is skipped, since skipping would
silence the rest of the document (`for_body` checks that the body's field ends match its beginnings).
"""
from __future__ import annotations

import re

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_TOC_CODE = re.compile(r"\s*TOC\b")


class ContentsField:
    """Follows the fields paragraph by paragraph, in the body's order: `listing(p)` says whether a paragraph
    stands, in whole or in part, inside a table of contents field's result."""

    def __init__(self, enabled: bool = True) -> None:
        self.depth = 0  # fields open inside the TOC field, itself counted; 0: outside any
        self.enabled = enabled

    @classmethod
    def for_body(cls, body) -> "ContentsField":
        """A follower for this body: off when some field begins and never ends (Word always writes the end)."""
        kinds = [f.get(f"{W}fldCharType") for f in body.iter(f"{W}fldChar")]
        return cls(enabled=kinds.count("begin") <= kinds.count("end"))

    def listing(self, p) -> bool:
        if not self.enabled:
            return False
        inside = self.depth > 0
        opening = 0  # fields begun in this paragraph and not yet known to be a TOC
        for node in p.iter(f"{W}fldChar", f"{W}instrText"):
            if node.tag == f"{W}instrText":
                if not self.depth and opening and _TOC_CODE.match(node.text or ""):
                    self.depth, opening, inside = 1, 0, True
                continue
            kind = node.get(f"{W}fldCharType")
            if self.depth:
                self.depth += 1 if kind == "begin" else -1 if kind == "end" else 0
            elif kind == "begin":
                opening += 1
            elif kind == "end" and opening:
                opening -= 1
        if any(_TOC_CODE.match(f.get(f"{W}instr") or "") for f in p.iter(f"{W}fldSimple")):
            inside = True
        return inside
