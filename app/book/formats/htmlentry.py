"""How a contents listing's entries name the book's headings, beyond their words.

Gutenberg's HTML contents often link each entry to the page it starts on ("III. The Guns ... 32" -> #Page_32), and
the entry and the heading there may be spelled or cut otherwise ("Millimetre" / "MILLIMETER", a section's name
added to the chapter's); and a book's list of illustrations is a listing of links as like a contents as can be.
"""
from __future__ import annotations

import re
from typing import Callable

from app.book.formats.htmllisting import names_alike
from app.book.narration.cleanup import is_apparatus_title
from app.book.normalize import clean_text
from app.book.structure.blocks import Block
from app.book.structure.lines import KEYWORD, leading_number, number_value
from app.book.structure.listing import is_contents_label

#: A list of the book's pictures ("LIST OF ILLUSTRATIONS IN THE TEXT", "Plates", "MAPS AND PLANS"), set over its
#: own linked entries: the links are the pictures', however much it looks like a contents.
_PICTURES_HEAD = re.compile(r"^(?:(?:a\s+)?(?:list|table|index)\s+of\s+(?:the\s+)?)?(?:illustrations|plates|engravings|maps|figures|"
                            r"pictures|drawings|diagrams|portraits|photographs|woodcuts|facsimiles)\b", re.I)
#: How many unlinked lines (a column's heads, "PAGE") may stand between that heading and the first entry.
_HEAD_GAP = 2
#: A list's heading is this short ("ILLUSTRATIONS" may be set as a styled paragraph, no heading).
_MAX_HEAD_WORDS = 8


#: The front of a book, where its lists stand: its first fifth of words.
_FRONT_SHARE = 0.2


def front_lists(blocks: list[Block], starts: dict[int, str], skip: set[int]) -> set[int]:
    """Return the headings in the front of the book that head a list of its pictures or its contents, the matter rules'
    names, with no other heading between them and the next listed chapter: matter of their own where the contents
    does not list them, never a section of the chapter before (a listed preface set before the contents;
    "ILLUSTRATIONS" after it was read as the preface's last page). A heading of another kind after them, unlisted (an
    introduction), would go with them: they are left as they were."""
    total, seen, lists = sum(len(b.text.split()) for b in blocks), 0, set()
    for k, b in enumerate(blocks):
        seen += len(b.text.split())
        if seen > _FRONT_SHARE * total:
            break
        text = clean_text(b.text)
        if b.level and k not in starts and (is_apparatus_title(text) and _PICTURES_HEAD.match(text) or is_contents_label(text)):
            lists.add(k)
    # (A start the listing's own blocks cover is no start: what follows it would go with the list.)
    ends = {k: min((s for s in starts if s > k and s not in skip), default=len(blocks)) for k in lists}
    return {k for k in lists if all(j in lists for j in range(k + 1, ends[k]) if blocks[j].level and j not in skip)}


def lists_pictures(blocks: list[Block], skip: set[int]) -> bool:
    """Return whether the listing made of the blocks `skip` stands under a list of pictures' heading (a heading,
    or a short paragraph set as one), with at most a line or two between (the columns' heads, a first entry that
    points back at the frontispiece)."""
    if not skip:
        return False
    for k in range(min(skip) - 1, max(-1, min(skip) - 2 - _HEAD_GAP), -1):
        text = clean_text(blocks[k].text)
        if _PICTURES_HEAD.match(text) and len(text.split()) <= _MAX_HEAD_WORDS:
            return True
        if blocks[k].level and not blocks[k].links:
            return False  # another heading: the list, if any, is its
    return False


def numbered_alike(blocks: list[Block], window: list[int], label: str, entry: str) -> int | None:
    """Return the heading in a page-linked entry's window that bears the entry's number, its own or its label's
    (`entry` without its page number): "III. The 75-Millimetre Guns ... 32" for "CHAPTER III" / "THE 75-MILLIMETER
    GUNS", "CHAPTER XI" over "From the Frontier: The Siege ... 156" for "CHAPTER XI" / "FROM THE FRONTIER". The
    names spelled or cut otherwise, the number says which chapter it is."""
    number = leading_number(clean_text(label)) if label else None
    if number is None:
        number = leading_number(clean_text(entry))
    if number is None:
        return None
    return next((k for k in window if leading_number(clean_text(blocks[k].text)) == number), None)


def named_before_next(blocks: list[Block], pos: int, linked_at: list[int], name: str, key: Callable[[str], str]) -> int | None:
    """Return the heading a page-linked entry names (`name`, its words or nearly all of them, as `key` makes them)
    between its page's mark and the next entry's: two entries on one page ("The Seal ... 15", "The Church ...
    15"), the second's heading further down than a page's top, was read as a section of the first's chapter. A
    heading of another name there is the page's section: no chapter (as before)."""
    end = min((p for p in linked_at if p > pos), default=pos)
    return next((k for k in range(pos, end) if blocks[k].level and name
                 and (key(blocks[k].text) == name or names_alike(name, key(blocks[k].text)))), None)


#: A page's mark set in the first paragraph under the heading at the page's top stands this many blocks below it.
_MARK_BELOW = 2


def named_near_mark(blocks: list[Block], pos: int, end: int, alike: Callable[[int], bool]) -> list[int]:
    """Return the heading a page-linked entry names (`alike`) on its page: anywhere before the next page's mark
    `end` (a poem or piece starts anywhere on its page), or just above the page's own mark at `pos` (round
    html26: the heading at the page's top, the mark set in its first paragraph; the chapter was merged into the one
    before). Empty when none is."""
    return ([k for k in range(pos, end) if blocks[k].level and alike(k)][:1]
            or [k for k in range(max(0, pos - _MARK_BELOW), pos) if blocks[k].level and alike(k)][-1:])


def _label_number(text: str) -> tuple[str, int] | None:
    """Return a part's or chapter's label word and number ("PART II" -> ("part", 2)), None for other headings."""
    m = KEYWORD.match(clean_text(text).rstrip(" ."))
    number = number_value(m.group("num")) if m and not m.group("rest").strip(" .:") else None
    return (m.group("word").casefold(), number) if number is not None else None


def numbered_on(blocks: list[Block], starts: dict[int, str], skip: set[int]) -> set[int]:
    """Return the unlisted headings that go on numbering a listed piece's first part: the contents lists a story
    ("THE MARE"), whose heading stands over its "PART I" at the same level (one chapter, named by both); its
    "PART II" and "PART III" after, at that level, are its next chapters, not sections of the first."""
    out: set[int] = set()
    for i in starts:
        level, first = blocks[i].level, i + 1
        if not level or first >= len(blocks) or blocks[first].level != level or first in starts or first in skip:
            continue
        label = _label_number(blocks[first].text)
        if label is None or label[1] != 1:
            continue
        for k in range(first + 1, len(blocks)):
            if k in starts or 0 < blocks[k].level < level:
                break
            if blocks[k].level == level:
                if _label_number(blocks[k].text) != (label[0], label[1] + 1):
                    break
                out.add(k)
                label = (label[0], label[1] + 1)
    return out
