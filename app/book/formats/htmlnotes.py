"""Notes and page marks in an HTML page: the inline elements a voice never reads, and their anchors.

A note reference is a number or sign linked to a note ("<sup><a href="#fn3">3</a></sup>", "<a
href="#Footnote_3">[3]</a>") or, unlinked, a bare superscript number after a word; a page number sits in a
span of its own ("<span class="pagenum" id="Page_7">7</span>"). Both are left unread; a page mark's anchor
is kept, since a contents line may link to it.
"""
from __future__ import annotations

import re

from lxml import etree

#: Elements that end a paragraph: a note's text before it is looked for inside one.
_BLOCKS = frozenset("p div section article aside blockquote li dd dt td th h1 h2 h3 h4 h5 h6 body".split())

#: Classes of page numbers among the skipped ones.
PAGE_CLASS = frozenset("pagenum pageno page-no pagenumber page-num pgnum page-number".split())
#: epub:type / role values of notes and note references (EPUB 3 Structural Semantics, DPUB-ARIA).
NOTE_TYPES = frozenset(
    "noteref footnote endnote footnotes endnotes rearnote rearnotes note annotation "
    "doc-noteref doc-footnote doc-endnote doc-endnotes doc-pagebreak pagebreak".split()
)
_NOTE_CLASS = re.compile(r"(?:^|[\s_-])(?:noteref|footnote|fnref|endnote|caption|pagenum|pageno|page-?break)", re.I)
#: An in-page link to a note ("#Footnote_3", "#fn3", "#note-3", "#FNanchor_2"): its bare number is a marker,
#: set as a superscript or not.
_NOTE_TARGET = re.compile(r"#(?:[\w-]*note|fn|ftn|fnanchor)", re.I)
#: Text a bare superscript number follows when it marks a note: a word of three letters or more, or a
#: stop or quote closing one ("a river,¹"), not a variable or a number ("x²", "10⁶" are powers).
_NOTE_AFTER = re.compile(r"(?:[^\W\d_]{3}|[,.;:!?’”\"')\]])\s*$")
_MARKER = re.compile(r"^[\[(]?(?:\d{1,4}|[*\u2020\u2021\u00a7\u00b6]+|[a-z]|[ivx]{1,5})[\])]?$", re.I)


def tag_of(el: etree._Element) -> str:
    """Return the element's local tag name in lower case ('' for comments and entities)."""
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def types_of(el: etree._Element) -> set[str]:
    """Return the element's epub:type and role tokens."""
    found: set[str] = set()
    for key, value in el.attrib.items():
        key = str(key).lower()
        if key.endswith("type") and ("epub" in key) or key == "role":
            found.update(str(value).lower().split())
    return found


def is_note_marker(el: etree._Element, tag: str) -> bool:
    """Return whether an inline element is a footnote reference like <sup><a href="#n1">1</a></sup>."""
    if types_of(el) & NOTE_TYPES or _NOTE_CLASS.search(el.get("class", "") or ""):
        return True
    if tag in ("sup", "a"):
        text = "".join(el.itertext()).strip()
        linked = tag == "a" and "#" in (el.get("href") or "") or any(
            "#" in (a.get("href") or "") for a in el.iter("a")
        )
        if not text or not _MARKER.match(text):
            return False
        if linked:
            return tag == "sup" or _superscript(el) or bool(_NOTE_TARGET.match(el.get("href") or ""))
        # An unlinked superscript number after a word: the note it marks is printed elsewhere.
        return tag == "sup" and bool(re.fullmatch(r"\d{1,3}|[*\u2020\u2021\u00a7]", text)) and bool(
            _NOTE_AFTER.search(_text_before(el)))
    return False


def _text_before(el: etree._Element) -> str:
    """Return the text just before an inline element (climbing out of wrappers such as <small>)."""
    node = el
    for _ in range(4):
        prev = node.getprevious()
        if prev is not None:
            if (prev.tail or "").strip():
                return prev.tail
            return "".join(prev.itertext())[-40:]
        parent = node.getparent()
        if parent is None:
            return ""
        if (parent.text or "").strip():
            return parent.text
        if tag_of(parent) in _BLOCKS:
            return ""
        node = parent
    return ""


def _superscript(el: etree._Element) -> bool:
    """Return whether a link sits inside or wraps a <sup>, as note references do."""
    parent = el.getparent()
    return any(True for _ in el.iter("sup")) or (parent is not None and tag_of(parent) == "sup")


def page_anchors(root: etree._Element) -> set[str]:
    """Return the ids of the page-number marks (their text unread, their anchors kept for the contents)."""
    return {i for el in root.iter() if isinstance(el.tag, str)
            and PAGE_CLASS & set((el.get("class") or "").lower().split())
            for e in el.iter() if isinstance(e.tag, str) for i in (e.get("id"), e.get("name")) if i}
