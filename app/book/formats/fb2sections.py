"""An FB2's chapters as its own table of contents says: the main body's section tree.

FictionBook readers show the main body's sections as the book's contents, so its top sections are the
chapters, each titled by its <title>. A top section that only groups sections (a part: little or no text
of its own, every sub-section titled) gives way to its sub-sections, and the first of them announces the
part's name ("Part One: The Crossing"; every one of them where the chapters number afresh in each part,
as the EPUB reader does for a part's title page). Sub-sections numbered within their section ("1.1.",
"1.2.") are a chapter's sections, and a first sub-section without a title is a chapter's opening: neither
makes a part. An untitled top section (calibre writes one a file, titling none) is one chapter: it is
never split at a line guessed to be a heading. Untitled sections before the first chapter (a title
page, a dedication) are front matter, read only with the matter unless long. No shared level rule is
asked, so a part over chapters never loses the chapters' titles to a share test.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from app.book.model import Chapter, ReadOptions
from app.book.narration.cleanup import is_matter_title
from app.book.normalize import clean_text
from app.book.structure.blocks import UNLISTED_MIN_WORDS, Block, body_words, narration
from app.book.structure.lines import leading_number, numbering_restarts

#: blocks_of(container, options, depth): a container's children read as blocks, its sections' titles
#: headings at their depth (fb2._blocks).
BlocksOf = Callable[[ET.Element, ReadOptions, int], list[Block]]

#: A part's own text at most: an epigraph or a line under its name, not a chapter's opening.
PART_MAX_OWN_WORDS = 100
#: A title numbered within its section ("1.1.", "2.3 Methods"): a chapter's section, not a part's chapter.
_NUMBERED_WITHIN = re.compile(r"^\s*\d+\.\d+")


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _title(section: ET.Element, inline: Callable[[ET.Element], str]) -> str:
    title = next((c for c in section if _local(c.tag) == "title"), None)
    if title is None:
        return ""
    return clean_text(" ".join(inline(p) for p in title if _local(p.tag) == "p"))


def _wrapped(children: list[ET.Element]) -> ET.Element:
    holder = ET.Element("section")
    holder.extend(children)
    return holder


def _own_blocks(section: ET.Element, options: ReadOptions, blocks_of: BlocksOf) -> list[Block]:
    """A section's text outside its title and sub-sections (a part's epigraph)."""
    return blocks_of(_wrapped([c for c in section if _local(c.tag) not in ("title", "section")]), options, 1)


def _is_part(section: ET.Element, own: list[Block], inline: Callable[[ET.Element], str]) -> bool:
    subs = [c for c in section if _local(c.tag) == "section"]
    titles = [_title(s, inline) for s in subs]
    return (len(subs) >= 2 and all(titles) and not any(_NUMBERED_WITHIN.match(t) for t in titles)
            and body_words(own) <= PART_MAX_OWN_WORDS)


def section_chapters(bodies: list[ET.Element], book_title: str, options: ReadOptions,
                     blocks_of: BlocksOf, inline: Callable[[ET.Element], str]) -> list[Chapter] | None:
    """Return the chapters of the main bodies' section trees; None when they hold no section.

    Text in a body outside its sections (FB2 allows none there) is read as fb2._blocks reads it: before
    the first section it is front matter, after it back matter, both read only with the matter (front
    matter also when long).
    """
    # (title or "", blocks, part name or "")
    spans: list[tuple[str, list[Block], str]] = []
    front: list[Block] = []
    back: list[Block] = []
    for body in bodies:
        loose: list[ET.Element] = []
        for el in body:
            if _local(el.tag) != "section":
                if _local(el.tag) != "title":
                    loose.append(el)
                continue
            if loose:
                (back if spans else front).extend(blocks_of(_wrapped(loose), options, 1))
                loose = []
            title = _title(el, inline)
            own = _own_blocks(el, options, blocks_of)
            if _is_part(el, own, inline):
                subs = [c for c in el if _local(c.tag) == "section"]
                for n, sub in enumerate(subs):
                    blocks = blocks_of(sub, options, 1)
                    spans.append((_title(sub, inline), (own if n == 0 else []) + blocks, title))
            else:
                spans.append((title, blocks_of(el, options, 1), ""))
        if loose:
            (back if spans else front).extend(blocks_of(_wrapped(loose), options, 1))
    if not spans:
        return None
    return _numbered(_titled(spans, front, back, book_title, options), options)


def _titled(spans: list[tuple[str, list[Block], str]], front: list[Block], back: list[Block],
            book_title: str, options: ReadOptions) -> list[tuple[str, list[Block]]]:
    """Return (title, blocks): parts announced, front pages and matter as the options say."""
    out: list[tuple[str, list[Block]]] = []
    if front and (options.include_matter or body_words(front) >= UNLISTED_MIN_WORDS):
        out.append((book_title, front))
    # Where each part numbers its chapters from one, every chapter names its part ("Part Two, 1").
    restarts = numbering_restarts([t for t, _, part in spans if part])
    previous_part = ""
    started = False
    for title, blocks, part in spans:
        if not title and not started and not options.include_matter and body_words(blocks) < UNLISTED_MIN_WORDS:
            continue  # an untitled front page (title page, dedication) before the first chapter
        started = True
        if title and is_matter_title(title) and not options.include_matter:
            continue
        full = title or book_title
        if part and (part != previous_part or restarts and leading_number(title)):
            full = f"{part}, {title}" if part == previous_part else f"{part}: {title}"
        previous_part = part
        out.append((full, blocks))
    if back and options.include_matter and out:
        out[-1] = (out[-1][0], out[-1][1] + back)
    return out


def _numbered(titled: list[tuple[str, list[Block]]], options: ReadOptions) -> list[Chapter]:
    spoken = ((t, narration(bs, options)) for t, bs in titled)
    return [Chapter(n, t, paras) for n, (t, paras) in enumerate(((t, p) for t, p in spoken if p), start=1)]
