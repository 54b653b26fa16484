"""A Gutenberg HTML heading set above the chapters' level that is a chapter itself.

Many HTML editions set a preface, an introduction, a list of the party or an appendix one level above the
chapters (an <h2> "INTRODUCTION." before <h3> chapters, the level of the book's parts). Divided at the
chapters' level only, such a heading's text would be read as the front matter or run into the chapter
before it. A heading above the chapters' level with a page of text of its own and no chapter under it
before the next heading at its level or above is read at the chapters' level: a chapter, as the book's
own headings make it.
"""
from __future__ import annotations

import re

from app.book.formats.htmlfront import opens_text
from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.normalize import clean_text
from app.book.structure.blocks import MAX_CHAPTER_LEVEL, Block, body_words, split_level
from app.book.structure.lines import KEYWORD, is_named_heading, leading_number

#: A heading above the chapters with this many words of its own is a chapter's (a page of text); a part's
#: title page, with a motto or a line of argument under it, has fewer.
_MIN_OWN_WORDS = 100


def with_lone_parts(blocks: list[Block]) -> list[Block]:
    """Return the blocks with each heading above the chapters' level that holds text and no chapter set at
    the chapters' level. Before the first chapter only from a heading that opens a text ("PREFACE",
    "INTRODUCTION.") on, or at matter (a list of illustrations, left out as matter is): the title page's
    headings above its imprint are no chapters."""
    level = split_level(blocks)
    if level is None or level == 1:
        return blocks
    out = list(blocks)
    first = next((k for k, b in enumerate(blocks) if b.level == level), len(blocks))
    started = False
    for k, b in enumerate(blocks):
        if not 0 < b.level < level:
            continue
        text = clean_text(b.text)
        started = started or k > first or opens_text(text)
        # A list of illustrations or a contents set there is matter of its own, left out as matter is.
        if not (started or is_matter_title(text) or is_apparatus_title(text)):
            continue
        end = next((j for j in range(k + 1, len(blocks)) if 0 < blocks[j].level <= b.level), len(blocks))
        if any(blocks[j].level == level for j in range(k + 1, end)):
            continue  # a part over its chapters
        own_end = next((j for j in range(k + 1, len(blocks)) if 0 < blocks[j].level <= level), len(blocks))
        if body_words(blocks[k + 1:own_end]) >= _MIN_OWN_WORDS:
            out[k] = Block(b.text, level, b.ids, b.kind, b.links)
    return out


#: A level with this many times the headings of the level above it, spread under most of them, holds the
#: chapters; the level above is the book's parts.
_CHAPTERS_PER_PART = 2
_MIN_CHAPTERS = 3


#: More upper headings than this, each over sections numbered afresh by a bare numeral ("JANUARY" over "I",
#: "II", "III"; "FEBRUARY" over "I" ...), are the chapters themselves: a year's months, a tour's stages.
_MAX_PARTS_OVER_SECTIONS = 3


#: A figure's caption set as a heading ("Fig. 3. The weir in flood.", "FIGURE 12").
_FIGURE = re.compile(r"^(?:fig\.|figs\.|figure|figures)\s*[\dIVXLC]", re.I)


def _numbered_sections(blocks: list[Block], lower: list[int]) -> bool:
    """Return whether the lower headings are numbers alone that start again under the upper ones."""
    numbers = [leading_number(clean_text(blocks[k].text)) for k in lower]
    bare = all(n is not None and len(clean_text(blocks[k].text).split()) == 1 for n, k in zip(numbers, lower))
    return bare and numbers.count(1) >= 2


def with_parts_over_chapters(blocks: list[Block]) -> list[Block]:
    """Return the blocks divided at the chapters where the headings the book would be divided at are its parts.

    The division level is the highest that spreads the text, so a novel in two or three parts (<h2>), each
    over its chapters (<h3>), would be read as two or three chapters of many thousand words each. Where the
    level below has at least twice the headings, under most of the upper ones, and most upper ones are labels
    (under a page of text before their first chapter: a name, a motto), the lower level holds the chapters:
    a part's label is announced with its first chapter ("PART ONE: CHAPTER I.") and its motto read after it,
    and an upper heading with no chapter under it (a preface, an epilogue) is a chapter itself."""
    level = split_level(blocks)
    if level is None or level >= MAX_CHAPTER_LEVEL:
        return blocks
    lower = min((b.level for b in blocks if level < b.level <= MAX_CHAPTER_LEVEL), default=None)
    if lower is None:
        return blocks
    uppers = [k for k, b in enumerate(blocks) if b.level == level]
    chapters = [k for k, b in enumerate(blocks) if b.level == lower]
    if len(chapters) < max(_MIN_CHAPTERS, _CHAPTERS_PER_PART * len(uppers)):
        return blocks
    if len(uppers) > _MAX_PARTS_OVER_SECTIONS and _numbered_sections(blocks, chapters):
        return blocks
    if 2 * sum(1 for k in chapters if _FIGURE.match(clean_text(blocks[k].text))) > len(chapters):
        return blocks  # a plate's figures set as headings ("Fig. 3. ..."): captions, never chapters
    ends = [next((j for j in range(k + 1, len(blocks)) if 0 < blocks[j].level <= level), len(blocks)) for k in uppers]
    firsts = [next((j for j in range(k + 1, end) if blocks[j].level == lower), None) for k, end in zip(uppers, ends)]
    parts = [(k, f) for k, f in zip(uppers, firsts) if f is not None]
    labels = [(k, f) for k, f in parts if body_words(blocks[k + 1:f]) < _MIN_OWN_WORDS]
    if len(parts) < 2 or 2 * len(parts) < len(uppers) or 3 * len(labels) < 2 * len(parts):
        return blocks
    out = list(blocks)
    moved: dict[int, list[Block]] = {}
    for k, first in labels:
        part, head = blocks[k], blocks[first]
        out[k] = None
        for j in range(k + 1, first):
            out[j] = None
        name = clean_text(part.text).rstrip(' .:')
        # A part named as its first chapter (a collection's title over its title piece) is said once.
        title = head.text if name.casefold() == clean_text(head.text).rstrip(' .:').casefold() else f"{name}: {head.text}"
        out[first] = Block(title, lower, part.ids | head.ids, head.kind, head.links)
        moved[first] = [b for b in blocks[k + 1:first]]
    for k in uppers:
        if out[k] is not None:
            b = blocks[k]
            out[k] = Block(b.text, lower, b.ids, b.kind, b.links)
    return _spliced(out, moved)


#: A piece's title page (its title, "OR" and a second title, a by-line, "Author of ...") has fewer words.
_MAX_TITLE_PAGE_WORDS = 50


def with_piece_titles(blocks: list[Block]) -> list[Block]:
    """Return the blocks with a piece's title page announced with its first chapter.

    A collection sets each piece's title at the chapters' level, and under it a second title, a by-line or
    the author's other works, then the piece's "CHAPTER I". Divided there, the title would be a chapter of a
    few lines; it names the piece its chapters belong to: "THE MILL: CHAPTER I", its lines read after."""
    level = split_level(blocks)
    if level is None:
        return blocks
    heads = [k for k, b in enumerate(blocks) if b.level == level]
    out: list[Block | None] = list(blocks)
    moved: dict[int, list[Block]] = {}
    for n, nxt in enumerate(heads):
        if not n or not _first_chapter(clean_text(blocks[nxt].text)):
            continue
        # The title page may be set over several headings ("THE MILL", "OR", "THE MILLER'S DAUGHTER").
        start = None
        for k in reversed(heads[:n]):
            text = clean_text(blocks[k].text)
            if (body_words(blocks[k + 1:nxt]) >= _MAX_TITLE_PAGE_WORDS or leading_number(text) is not None
                    or is_named_heading(text) or is_matter_title(text) or is_apparatus_title(text)):
                break
            start = k
        if start is None or not body_words(blocks[start + 1:nxt]):
            continue  # no title page, or nothing under it but headings (folded as it is)
        names = [clean_text(blocks[k].text).rstrip(" .:") for k in heads if start <= k < nxt]
        head = blocks[nxt]
        out[nxt] = Block(f"{names[0]}: {head.text}", level, blocks[start].ids | head.ids, head.kind, head.links)
        moved[nxt] = [b if k not in heads else Block(b.text, 0, b.ids, b.kind, b.links)
                      for k, b in enumerate(blocks[start + 1:nxt], start + 1)]
        for j in range(start, nxt):
            out[j] = None
    if not moved:
        return blocks
    return _spliced(out, moved)


#: A first chapter's number: a label's word and its number ("CHAPTER I", "PART ONE"), a figure or a Roman
#: numeral ("I.", "1. THE FORD"), or the word alone ("ONE."); "ONE GERMAN WE FORGIVE" is a title, no number.
_FIRST_NUMBER = re.compile(r"^(?:[IVXLCDM]{1,8}\b|\d{1,3}\b|one\W*$)", re.I)


def _first_chapter(text: str) -> bool:
    """Return whether a heading is a piece's first chapter by its number."""
    return leading_number(text) == 1 and bool(KEYWORD.match(text) or _FIRST_NUMBER.match(text))


def _spliced(out: list[Block | None], moved: dict[int, list[Block]]) -> list[Block]:
    """Return the blocks left in `out`, each followed by the blocks moved after it (a label's lines)."""
    result: list[Block] = []
    for k, b in enumerate(out):
        if b is not None:
            result.append(b)
            result.extend(moved.get(k, ()))
    return result
