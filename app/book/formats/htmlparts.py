"""A part's heading that the contents do not link, set just above its first listed chapter, announced there.

Gutenberg HTML editions often link only the chapters from their contents and set each part's heading
("DIVISION II" <br> "THE LATER HYMNS", "BOOK THE SECOND") in the body just above the part's first chapter, at
the chapters' level or above. Divided at the listed chapters, such a heading was read as the last words of
the chapter before, and the part never said where it begins. Read as the issue asks, it is announced with
its first chapter: "DIVISION II: THE LATER HYMNS: CHAPTER VI: ...".
"""
from __future__ import annotations

import re
from collections.abc import Callable

from app.book.formats.htmlentry import front_lists, numbered_on
from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.normalize import clean_text
from app.book.structure.blocks import Block
from app.book.structure.headings import BACK_MATTER
from app.book.structure.lines import CLOSING, PICTURE, is_named_heading

#: A page's number set as a paragraph of its own between the part's heading and its chapter ("53", "[53]",
#: "{53}", "p. 53", "xii"): the producer's page mark, no text of the part's.
_PAGE_MARK = re.compile(r"^[\[{(]?(?:p(?:age)?\.?\s*)?(?:\d{1,4}|[ivxlc]{1,7})[\]})]?\.?$", re.I)

#: A part's label and number before its name on the heading's next line ("DIVISION II" <br> "THE LATER HYMNS",
#: joined with a space): set apart as "DIVISION II: THE LATER HYMNS", so the number is said as a number.
_LABEL = re.compile(r"^((?:part|book|division|volume|section|period|series|act|canto)\s+(?:[IVXLC]{1,7}|\d{1,3}))\.?\s+(?=\w)",
                    re.I)

#: Parts recur: one heading alone above a chapter is the book's own title over its text (a half-title).
_MIN_PARTS = 2


def _label(text: str) -> bool:
    """Return whether a heading can title a part: not a closing line, a named page or matter of its own."""
    return bool(text) and not (CLOSING.match(text) or is_named_heading(text) or is_matter_title(text)
                               or is_apparatus_title(text))


def unlisted_parts(blocks: list[Block], starts: dict[int, str], skip: set[int],
                   chapters: set[int] = frozenset()) -> dict[int, list[int]]:
    """Return listed chapter's block -> the unlisted headings just above it that title its part.

    Only headings with nothing between them and the chapter but page marks or pictures, the topmost at the
    chapter's heading level or above, and only where at least two chapters have such headings: a part
    recurs; a lone heading over the first chapter is the book's half-title. `chapters` are the headings read
    at the chapters' level though no entry lists them (never a part's label)."""
    found: dict[int, list[int]] = {}
    for j in sorted(starts):
        if not blocks[j].level or starts[j] == BACK_MATTER:
            continue
        heads: list[int] = []
        k, after_text = j - 1, False
        while k >= 0 and k not in starts and k not in chapters:
            b = blocks[k]
            text = clean_text(b.text)
            if (k in skip or b.level and is_matter_title(text)
                    or not b.level and text and not (_PAGE_MARK.match(text) or PICTURE.match(b.text))):
                after_text = True  # the part's headings follow the last chapter's words, or the listing
                break
            if b.level and not _label(text):
                break
            if b.level:
                heads.append(k)
            k -= 1
        if not after_text:
            continue  # headings under a chapter with no text (its own subtitles), or the title page's
        if heads and blocks[heads[-1]].level <= blocks[j].level:
            found[j] = sorted(heads)
    return found if len(found) >= _MIN_PARTS else {}


def announced_parts(blocks: list[Block], starts: dict[int, str], skip: set[int],
                    title_of: Callable[[list[Block], int, str], str]) -> tuple[list[Block], dict[int, str], set[int]]:
    """Return blocks, starts and skipped blocks with each unlisted part's headings said with its first chapter: the
    chapter's heading titled "DIVISION II: THE LATER HYMNS: CHAPTER VI: ..." (its title as `title_of` gives it), the
    part's own headings skipped where they stood."""
    chapters = numbered_on(blocks, starts, skip) | front_lists(blocks, starts, skip)  # unlisted, yet no sections
    labels = unlisted_parts(blocks, starts, skip, chapters)
    if not labels:
        return blocks, starts, skip
    out = list(blocks)
    for j, heads in labels.items():
        b = blocks[j]
        names = [_LABEL.sub(r"\1: ", clean_text(blocks[k].text)).rstrip(" .:") for k in heads]
        title = ": ".join([*names, title_of(blocks, j, starts[j]).strip()])
        out[j] = Block(title, b.level, b.ids.union(*(blocks[k].ids for k in heads)), b.kind, b.links)
    return out, starts, skip | {k for heads in labels.values() for k in heads}
