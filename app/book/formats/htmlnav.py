"""In-page navigation links set inside a book's text: read by the eye, never by a narrator.

Gutenberg and other producers put a link back to the contents (or the top) in each chapter's heading or
after its last paragraph: "CHAPTER II<span><a href="#toc">ToC</a></span>", "[Contents]", "Back to top".
Read, the link's word joins the heading's title ("CHAPTER IIToC") and is spoken in every chapter.
"""
from __future__ import annotations

import re

from lxml import etree

#: A link's whole text that names where it leads back to, not a word of the book's ("Index" alone is a
#: contents entry as often: the index stands after what links to it).
_BACK_WORDS = re.compile(
    r"^\W*(?:(?:back|return|go|up)\s+(?:to\s+)?)?(?:the\s+)?"
    r"(?:toc|table\s+of\s+contents|contents|top(?:\s+of\s+(?:the\s+)?page)?)\W*$", re.I)


def is_back_link(el: etree._Element) -> bool:
    """Return whether an element is an in-page link back to the contents or the top: a "#" target whose
    whole text is "ToC", "Contents", "Back to top" ... and that is no target itself (an anchor a listing
    points at keeps its place)."""
    href = (el.get("href") or "").strip()
    if not href.startswith("#") or el.get("id") or el.get("name"):
        return False
    text = "".join(el.itertext()).strip()
    if not _BACK_WORDS.match(text):
        return False
    # Only where it stands apart: in a heading, or alone in its paragraph ("[Contents]"); a word of a
    # sentence ("see the <a>Index</a>") is the book's.
    block = el.getparent()
    while block is not None and _tag(block) in _INLINE:
        block = block.getparent()
    if block is None:
        return False
    same = _bare("".join(block.itertext())) == _bare(text)
    # In a heading, beside its title (a heading that is the link alone is a heading: "CONTENTS").
    return not same if _tag(block) in _HEADINGS else same


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _bare(text: str) -> str:
    return re.sub(r"\W+", "", text).lower()


_INLINE = frozenset("span a small big b i em strong font sup sub u s".split())
_HEADINGS = frozenset(f"h{n}" for n in range(1, 7))
