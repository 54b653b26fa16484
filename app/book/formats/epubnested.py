"""An EPUB's table-of-contents entries nested inside their parent's own file: sections, or divisions.

A chapter's sections listed under it (anchors in the chapter's file) stay in the chapter. An entry that is
only a label over two or more numbered sub-entries in its file gives way to them, the first announced with
it: an act's heading over its scenes, a story's title over its numbered parts. Named sections under a chapter
heading set straight over the first of them (how pandoc, and kindlegen after it, lay out a technical book:
"# Chapter" then "## Section") are no divisions: the chapter keeps them, as its table of contents says.
"""
from __future__ import annotations

import re
from dataclasses import replace

from app.book.formats.epubtoc import Entry
from app.book.structure.blocks import Block, Document, body_words
from app.book.structure.lines import CHAPTER_WORDS, KEYWORD, NUMBER, PART_WORDS, leading_number

#: A chapter with fewer words of its own than this (a page) before its first sub-entry is a label over its
#: sub-entries (an act's heading and its setting over its scenes, a story's title and motto over its numbered
#: parts); its words are read with the first of them.
_LABEL_WORDS = 300

#: A section numbered within its chapter ("2.1. Getting started", "3.1.1 Scope"): a manual's section, never
#: a chapter of its own however short its chapter's introduction.
_SECTION_NUMBER = re.compile(r"^\s*(?:[A-Z]|\d{1,3})(?:\.\d{1,3})+\.?(?:\s|$)")

#: A division's number at the end of its title: "The Second Scene 2", "Manuscript No. 4" (leading_number and
#: KEYWORD take "III", "IV: The Crossing", "Scene 2", "Book the Second"); a bare number at the end is no division's
#: ("Upgrading to Version 4").
_NUMBERED_END = re.compile(rf"\b(?:no\.?|number|{CHAPTER_WORDS}|{PART_WORDS})\s+(?:the\s+)?{NUMBER}\.?$", re.I)


def find(blocks: list[Block], fragment: str) -> int:
    """Return the index of the block where an anchor starts (0 when it is not found)."""
    if fragment:
        for i, b in enumerate(blocks):
            if fragment in b.ids:
                return i
    return 0


def _numbered(title: str) -> bool:
    return leading_number(title) is not None or bool(KEYWORD.match(title) or _NUMBERED_END.search(title))


def label_over(blocks: list[Block], start: int, first: int, sub_title: str = "") -> bool:
    """Return whether the text from a TOC entry's start to its first sub-entry is only its label over
    numbered divisions."""
    if start >= first or any(_SECTION_NUMBER.match(t) for t in (sub_title, blocks[first].text)):
        return False
    return _numbered(sub_title) and body_words(blocks[start:first]) < _LABEL_WORDS


def located(
    entries: list[Entry], docs: dict[str, Document], order: list[str]
) -> list[tuple[tuple[int, int], Entry]]:
    """Return TOC entries in reading order, with same-file sub-entries folded into their parent (a chapter's
    sections), unless the parent is only a label over two or more of them (an act over its scenes, a story's
    title over its numbered parts, see label_over): then they are the chapters, the first announced with it."""
    position = {name: i for i, name in enumerate(order)}
    out: list[tuple[tuple[int, int], Entry]] = []
    parents: dict[int, Entry] = {}
    at: dict[int, int] = {}  # id of a located entry -> its index in out
    labels: set[int] = set()  # parents whose first sub-entry took their place
    inner: dict[int, int] = {}  # id of an entry -> how many sub-entries it has in its own file
    for e in entries:
        parents[e.depth] = e
        parent = parents.get(e.depth - 1)
        if parent is not None and e.depth > 1 and parent.name == e.name and e.fragment:
            inner[id(parent)] = inner.get(id(parent), 0) + 1
    parents = {}
    for e in entries:
        parents[e.depth] = e
        parent = parents.get(e.depth - 1)
        if e.name not in position:
            continue
        blocks = docs[e.name].blocks
        where = (position[e.name], find(blocks, e.fragment))
        if parent is not None and e.depth > 1 and parent.name == e.name and e.fragment:
            # A section anchor inside its chapter's own file is not a chapter of its own, unless the
            # chapter is only a label over its sub-entries.
            if id(parent) in labels:
                pass  # the label's later sub-entries: chapters of their own
            elif (id(parent) not in at or inner[id(parent)] < 2
                  or not label_over(blocks, out[at[id(parent)]][0][1], where[1], e.title)):
                continue
            else:
                # The first sub-entry starts where its label does, and is announced with it ("Act I: Scene I").
                labels.add(id(parent))
                where, label = out[at[id(parent)]]
                at[id(e)] = at[id(parent)]
                out[at[id(parent)]] = (where, replace(e, title=f"{label.title}: {e.title}" if label.title else e.title))
                continue
        at[id(e)] = len(out)
        out.append((where, e))
    return out
