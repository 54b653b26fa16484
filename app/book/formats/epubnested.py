"""An EPUB's table-of-contents entries nested under another: a chapter's sections, or a label's divisions.

A chapter's sections listed under it (anchors in the chapter's own file) stay in the chapter, unless the
chapter is only a label over two or more of them (an act's heading over its scenes, a story's title over its
numbered parts): then they are the chapters, the first announced with it. A sub-entry in a file of its own is
a chapter (a part's page names the chapters listed under it).

A Kindle book (the EPUB a KF8 or old MOBI unpacks to) is read as its own NCX says instead: its producer built
the NCX from the book's chapters (kindlegen's from "# Chapter" over "## Section", a chapter heading set
straight over its first section with no words between), so its sub-entries are sections of their entry,
in its file or in the next files (a chapter split into several), and only an entry with no text and no
sub-entry in its own file (a part's title page) gives way to the entries under it.
"""
from __future__ import annotations

import re
from dataclasses import replace

from app.book.formats.epubtoc import Entry
from app.book.structure.blocks import Block, Document, body_words

#: A chapter with fewer words of its own than this (a page) before its first sub-entry is a label over its
#: sub-entries (an act's heading and its setting over its scenes, a story's title and motto over its numbered
#: parts, an appendix's note over its documents); its words are read with the first of them.
_LABEL_WORDS = 300

#: A section numbered within its chapter ("2.1. Getting started", "3.1.1 Scope"): a manual's section, never
#: a chapter of its own however short its chapter's introduction.
_SECTION_NUMBER = re.compile(r"^\s*(?:[A-Z]|\d{1,3})(?:\.\d{1,3})+\.?(?:\s|$)")


def find(blocks: list[Block], fragment: str) -> int:
    """Return the index of the block where an anchor starts (0 when it is not found)."""
    if fragment:
        for i, b in enumerate(blocks):
            if fragment in b.ids:
                return i
    return 0


def label_over(blocks: list[Block], start: int, first: int, sub_title: str = "") -> bool:
    """Return whether the text from a TOC entry's start to its first sub-entry is only its label."""
    if start >= first or any(_SECTION_NUMBER.match(t) for t in (sub_title, blocks[first].text)):
        return False
    return body_words(blocks[start:first]) < _LABEL_WORDS


def located(
    entries: list[Entry], docs: dict[str, Document], order: list[str], kindle: bool = False
) -> list[tuple[tuple[int, int], Entry]]:
    """Return TOC entries in reading order, with same-file sub-entries folded into their parent (a chapter's
    sections), unless the parent is only a label over two or more of them (see label_over): then they are
    the chapters, the first announced with it. `kindle`: the entries as a Kindle book's NCX says (module doc)."""
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
        where = (position[e.name], find(docs[e.name].blocks, e.fragment))
        if kindle and parent is not None and e.depth > 1 and parent.name != e.name and parent.name in position:
            # A Kindle book's sub-entry in another file: a section of its entry (a chapter split into files,
            # calibre's at each section's heading: its first section's anchor is still in the chapter's file),
            # unless the entry is a part's page, with no text or sub-entry of its own, or itself a section.
            if (id(parent) not in at or inner.get(id(parent))
                    or body_words(docs[parent.name].blocks[out[at[id(parent)]][0][1]:])):
                continue
        if parent is not None and e.depth > 1 and parent.name == e.name and e.fragment:
            # A section anchor inside its chapter's own file is not a chapter of its own, unless the
            # chapter is only a label over its sub-entries (never in a Kindle book).
            if id(parent) in labels:
                pass  # the label's later sub-entries: chapters of their own
            elif (kindle or id(parent) not in at or inner[id(parent)] < 2
                  or not label_over(docs[e.name].blocks, out[at[id(parent)]][0][1], where[1], e.title)):
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
