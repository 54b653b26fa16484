"""A nested contents listing: which of its levels are the chapters, and the parts above them.

A Gutenberg contents often lists two or three levels at once: "BOOK I." over its "CHAPTER I." .. "CHAPTER V."
(and sometimes their "§ 1." sections), each pointing at a heading of its own level (<h2> books, <h3>
chapters). The chapters are the level the listing names most often; the entries above it are parts,
announced with the first chapter under them; the entries below it are sections, read inside their chapter.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from app.book.formats.htmlparts import announced_parts
from app.book.structure.blocks import Block
from app.book.normalize import clean_text
from app.book.structure.lines import is_named_heading, leading_number

#: A part's own text before its first chapter ("The Measure of the Heavens ..." under "BOOK I.") is read
#: with that chapter when it is this short; longer, it is a chapter of its own.
PART_INTRO_WORDS = 1500
#: A heading that calls itself a chapter ("CHAPTER IV", "Chap. 2.", "Chapter the First").
_CHAPTER = re.compile(r"^\s*(?:chapter|chap\.)\s+(?:the\s+)?(?:[IVXLCDM]{1,8}|\d{1,3}|[a-z]+)\b", re.I)
#: How many listed headings of one level must call themselves chapters for that level to be the chapters.
_MIN_CALLED = 3


def chapter_level(blocks: list[Block], starts: dict[int, str]) -> int | None:
    """Return the heading level the listing names most (ties: the higher one), None when it names one level.

    A level whose headings call themselves chapters ("CHAPTER IV" three times or more) is the chapter
    level even when the listing names the numbered sections under them more often ("1. The Soil",
    "2. The Seed" under each chapter): a book calls its chapters by that word, never its sections.
    """
    counts = Counter(blocks[k].level for k in starts if blocks[k].level)
    if len(counts) < 2:
        return None
    called = Counter(blocks[k].level for k in starts if blocks[k].level and _CHAPTER.match(blocks[k].text))
    if called and max(called.values()) >= _MIN_CALLED:
        return max(called, key=lambda lv: (called[lv], -lv))
    return max(counts, key=lambda lv: (counts[lv], -lv))


def with_unlisted_chapters(blocks: list[Block], starts: dict[int, str]) -> dict[int, str]:
    """Return the starts with the chapters a listing of parts leaves out ("FOREWORD", "PART I.", "PART II."
    listed, each part's "CHAPTER I" .. "CHAPTER XI" not): where fewer than three listed headings call
    themselves chapters (a part's page may be its first chapter's) and three or more unlisted headings
    below the listed level do, those headings are the chapters, and the listed parts are announced with
    them (see nested). A listing that names its chapters is left as it is."""
    listed = [blocks[k].level for k in starts if blocks[k].level]
    if not listed or sum(1 for k in starts if blocks[k].level and _CHAPTER.match(blocks[k].text)) >= _MIN_CALLED:
        return starts
    first = min(starts)
    called = [k for k in range(first + 1, len(blocks)) if k not in starts and blocks[k].level > min(listed)
              and _CHAPTER.match(blocks[k].text)]
    levels = Counter(blocks[k].level for k in called)
    if not levels or max(levels.values()) < _MIN_CALLED:
        return starts
    level = max(levels, key=lambda lv: (levels[lv], -lv))
    added = {k: blocks[k].text for k in called if blocks[k].level == level}
    # A chapter set at another level by mistake ("CHAPTER XV." an <h2> after "CHAPTER XIV" an <h3>, even at
    # the listed parts' level) is still a chapter where its number follows the chapter before it.
    last = None
    for k in range(first + 1, len(blocks)):
        if k in added:
            last = leading_number(clean_text(blocks[k].text))
        elif (last and k not in starts and blocks[k].level and blocks[k].level != level
              and _CHAPTER.match(blocks[k].text) and leading_number(clean_text(blocks[k].text)) == last + 1):
            added[k] = blocks[k].text
            last += 1
    return {**starts, **added}


def nested(blocks: list[Block], starts: dict[int, str], skip: set[int],
           title_of: Callable[[list[Block], int, str], str]) -> tuple[list[Block], dict[int, str], set[int]]:
    """Return blocks, starts and skipped blocks with a nested listing's chapters at its chapter level (below),
    and each part the listing leaves out announced with its first chapter (`htmlparts`)."""
    return announced_parts(*_nested(blocks, starts, skip, title_of), title_of)


def _nested(blocks: list[Block], starts: dict[int, str], skip: set[int],
            title_of: Callable[[list[Block], int, str], str]) -> tuple[list[Block], dict[int, str], set[int]]:
    """Return blocks, starts and skipped blocks with a nested listing's chapters at its chapter level.

    Entries below that level are no chapters; a part (an entry above it) whose own text is short is
    announced with its first chapter, and its text read there: one heading "BOOK I: CHAPTER I. EARLY
    THEORIES" where the part begins, then the part's introduction, then the chapter.
    """
    starts = with_unlisted_chapters(blocks, starts)
    level = chapter_level(blocks, starts)
    if level is None:
        return blocks, starts, skip
    starts = {k: t for k, t in starts.items() if not blocks[k].level or blocks[k].level <= level}
    order = sorted(starts)
    moves: dict[int, int] = {}  # part's block -> its first chapter's block
    parts = [k for k in order if 0 < blocks[k].level < level and not is_named_heading(blocks[k].text)]
    if len(parts) < 2:
        # One heading above the chapters is the book's title over its text, not a part's.
        return blocks, starts, skip
    for part, nxt in zip(order, order[1:]):
        if not (0 < blocks[part].level < level) or blocks[nxt].level != level or is_named_heading(blocks[part].text):
            continue
        between = range(part + 1, nxt)
        if sum(len(blocks[k].text.split()) for k in between if not blocks[k].level and k not in skip) >= PART_INTRO_WORDS:
            continue
        moves[part] = nxt
    if not moves:
        return blocks, starts, skip
    moved = set(moves.values())
    out: list[Block] = []
    new_starts: dict[int, str] = {}
    new_skip: set[int] = set()
    for i, b in enumerate(blocks):
        if i in moved:
            continue
        if i in moves:
            chapter = blocks[moves[i]]
            name = title_of(blocks, moves[i], starts[moves[i]]).strip()
            b = Block(f"{b.text.strip().rstrip(' .:')}: {name}", chapter.level, b.ids | chapter.ids,
                      chapter.kind, chapter.links)
        if i in starts:
            new_starts[len(out)] = starts[i]
        if i in skip:
            new_skip.add(len(out))
        out.append(b)
    return out, new_starts, new_skip
