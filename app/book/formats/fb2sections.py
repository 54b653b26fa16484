"""An FB2's chapters as its own table of contents says: the main body's section tree.

FictionBook readers show the main body's sections as the book's contents, so its top sections are the
chapters, each titled by its <title>. A top section that only groups sections (a part: little or no text
of its own, every sub-section titled) gives way to its sub-sections, and the first of them announces the
part's name ("Part One: The Crossing"; every one of them where the chapters number afresh in each part,
as the EPUB reader does for a part's title page). Sub-sections numbered within their section ("1.1.",
"1.2.") are a chapter's sections, and a first sub-section without a title is a chapter's opening: neither
makes a part. An untitled top section (calibre writes one a file, titling none) is one chapter: it is
never split at a line guessed to be a heading. In a body that titles no section, only its name is taken
from its opening bold line (calibre sets the chapter's <h1> so), with the short line under a bare label
("I" over "The Tide": "I: The Tide"); a bold line in a titled book stays a paragraph. Untitled (or
bold-named) sections before the first chapter (a title page, a dedication), and a bold-named half title
later, are front matter, read only with the matter unless long. No shared level rule is
asked, so a part over chapters never loses the chapters' titles to a share test.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from app.book.model import Chapter, ReadOptions
from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.normalize import clean_text
from app.book.structure.blocks import UNLISTED_MIN_WORDS, Block, body_words, names_the_book, narration
from app.book.structure.lines import NUMERAL, keyword_match, leading_number, numbering_restarts

#: blocks_of(container, options, depth): a container's children read as blocks, its sections' titles
#: headings at their depth (fb2._blocks).
BlocksOf = Callable[[ET.Element, ReadOptions, int], list[Block]]

#: A part's own text at most: an epigraph or a line under its name, not a chapter's opening.
PART_MAX_OWN_WORDS = 100
#: A title numbered within its section ("1.1.", "2.3 Methods"): a chapter's section, not a part's chapter.
_NUMBERED_WITHIN = re.compile(r"^\s*\d+\.\d+")
#: An opening bold line that names its section, and the name under a bare label, at most (words).
_BOLD_TITLE_MAX_WORDS = 10


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _title(section: ET.Element, inline: Callable[[ET.Element], str]) -> str:
    title = next((c for c in section if _local(c.tag) == "title"), None)
    if title is None:
        return ""
    return clean_text(" ".join(inline(p) for p in title if _local(p.tag) == "p"))


def _bold_title(section: ET.Element, inline: Callable[[ET.Element], str]) -> str:
    """Return an untitled section's name from its opening paragraph set wholly in bold, else ""."""
    paras = [c for c in section if _local(c.tag) == "p"]
    first = paras[0] if paras else None
    if first is None or (first.text or "").strip() or len(first) != 1 or _local(first[0].tag) != "strong" \
            or (first[0].tail or "").strip():
        return ""
    label = inline(first)
    if not label or len(label.split()) > _BOLD_TITLE_MAX_WORDS:
        return ""
    bare = NUMERAL.match(label) or (m := keyword_match(label)) is not None and not m.group("rest").strip(" .:")
    name = inline(paras[1]) if bare and len(paras) > 1 else ""
    if name and len(name.split()) <= _BOLD_TITLE_MAX_WORDS and not name.endswith((".", "!", "?")):
        return f"{label.rstrip(' .:')}: {name}"
    return label


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
    # (title or "", blocks, part name or "", whether the title is the bold line's)
    spans: list[tuple[str, list[Block], str, bool]] = []
    front: list[Block] = []
    untitled = not any(_title(s, inline) for body in bodies for s in body.iter() if _local(s.tag) == "section")
    for body in bodies:
        loose: list[ET.Element] = []
        for el in body:
            if _local(el.tag) != "section":
                if _local(el.tag) != "title":
                    loose.append(el)
                continue
            if loose:
                _loose(loose, spans, front, options, blocks_of)
                loose = []
            title = _title(el, inline)
            own = _own_blocks(el, options, blocks_of)
            if _is_part(el, own, inline):
                subs = [c for c in el if _local(c.tag) == "section"]
                for n, sub in enumerate(subs):
                    blocks = blocks_of(sub, options, 1)
                    spans.append((_title(sub, inline), (own if n == 0 else []) + blocks, title, False))
            else:
                bold = _bold_title(el, inline) if untitled else ""
                spans.append((title or bold, blocks_of(el, options, 1), "", bool(bold)))
        if loose:
            _loose(loose, spans, front, options, blocks_of)
    if not spans:
        return None
    return _numbered(_titled(spans, front, book_title, options), options)


def _loose(loose: list[ET.Element], spans: list[tuple[str, list[Block], str, bool]], front: list[Block],
           options: ReadOptions, blocks_of: BlocksOf) -> None:
    """Text outside the sections: front matter before the first, back matter (read with the matter only,
    with the chapter before it: a colophon some converters leave in the body) after it."""
    blocks = blocks_of(_wrapped(loose), options, 1)
    if not spans:
        front.extend(blocks)
    elif options.include_matter:
        spans[-1][1].extend(blocks)


def _titled(spans: list[tuple[str, list[Block], str, bool]], front: list[Block], book_title: str,
            options: ReadOptions) -> list[tuple[str, list[Block]]]:
    """Return (title, blocks): parts announced, front pages and matter as the options say."""
    out: list[tuple[str, list[Block]]] = []
    if front and (options.include_matter or body_words(front) >= UNLISTED_MIN_WORDS):
        out.append((book_title, front))
    # Where each part numbers its chapters from one, every chapter names its part ("Part Two, 1").
    restarts = numbering_restarts([t for t, _, part, _ in spans if part])
    previous_part = ""
    # The first chapter: the first section with a title of its own or a long text. Short pages before it are
    # front pages; a book of short untitled sections alone (a sample, a note) has none, and is read whole.
    first = next((n for n, (title, blocks, _, bold) in enumerate(spans)
                  if title and not bold or body_words(blocks) >= UNLISTED_MIN_WORDS), None)
    for n, (title, blocks, part, bold) in enumerate(spans):
        short = not options.include_matter and first is not None and body_words(blocks) < UNLISTED_MIN_WORDS
        if short and (n < first or bold and names_the_book(title, book_title)):
            continue  # an untitled front page (title page, dedication) before the first chapter, a half title
        # A licence or an index is matter; notes and lists gathered at the end are too where the book has chapters.
        if title and not options.include_matter and (
                is_matter_title(title) or len(spans) > 1 and is_apparatus_title(title)):
            continue
        full = title or book_title
        if part and (part != previous_part or restarts and leading_number(title)):
            full = f"{part}, {title}" if part == previous_part else f"{part}: {title}"
        previous_part = part
        out.append((full, blocks))
    return out


def _numbered(titled: list[tuple[str, list[Block]]], options: ReadOptions) -> list[Chapter]:
    spoken = ((t, narration(bs, options)) for t, bs in titled)
    return [Chapter(n, t, paras) for n, (t, paras) in enumerate(((t, p) for t, p in spoken if p), start=1)]
