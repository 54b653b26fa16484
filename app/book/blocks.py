"""Paragraph and heading blocks, and splitting a run of them into chapters.

Every format reduces its text to a list of blocks; TXT, Markdown and HTML then
share one rule for where chapters start.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.book.model import Chapter
from app.book.normalize import clean_paragraphs, clean_text

#: Headings deeper than this never start a chapter (h4+ are sections).
MAX_CHAPTER_LEVEL = 3

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    "sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|"
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last"
)
#: "Chapter 12", "CHAPTER XII.", "Part One", "Book the First", "Chapter 1: The Beginning".
_KEYWORD_HEADING = re.compile(
    rf"^(?:chapter|part|book|volume|canto|letter)\s+"
    rf"(?:the\s+)?(?:\d+|[ivxlcdm]+|(?:{_NUMBER_WORDS})(?:[\s-](?:{_NUMBER_WORDS}))?)\b"
    r"\s*(?P<rest>[.:\-\u2013\u2014]?.*)$",
    re.IGNORECASE,
)
_NAMED_HEADING = re.compile(
    r"^(?:prologue|epilogue|preface|foreword|introduction|afterword|interlude)\b\s*(?P<rest>[.:\-\u2013\u2014]?.*)$",
    re.IGNORECASE,
)
_MAX_HEADING_WORDS = 14


@dataclass
class Block:
    """A paragraph (level 0) or a heading (level 1-6) of raw text."""

    text: str
    level: int = 0
    #: Element ids that start at or inside this block (EPUB TOC anchors).
    ids: set[str] = field(default_factory=set)


def keyword_heading(text: str) -> bool:
    """Return whether a one-line paragraph reads like a chapter heading."""
    line = clean_text(text)
    if not line or len(line.split()) > _MAX_HEADING_WORDS:
        return False
    for pattern in (_KEYWORD_HEADING, _NAMED_HEADING):
        m = pattern.match(line)
        if m:
            rest = m.group("rest").strip()
            # "Chapter 12 began badly." is prose; a heading's rest is empty or set off.
            return not rest or rest[0] in ".:-\u2013\u2014" or line.isupper()
    return False


def _is_bare(title: str) -> bool:
    """Return whether a heading is only a label like "Chapter 3" with no name."""
    m = _KEYWORD_HEADING.match(title) or _NAMED_HEADING.match(title)
    return bool(m) and not m.group("rest").strip(" .:-\u2013\u2014")


def _subtitle(block: Block | None, level: int, promoted: bool) -> str | None:
    """Return the block's text if it names the chapter whose bare label precedes it."""
    # A deeper heading names it; so does a short line after a "CHAPTER I." line of plain text.
    if block is None or not (block.level > level or promoted and block.level == 0):
        return None
    text = clean_text(block.text)
    if not text or len(text.split()) > 10 or text[-1] in ".!?,;:\"\u201d'":
        return None
    return text


def promote_keyword_headings(blocks: list[Block]) -> list[Block]:
    """Return blocks with one-line "Chapter N"-style paragraphs marked as level-1 headings."""
    return [Block(b.text, 1, b.ids) if b.level == 0 and keyword_heading(b.text) else b for b in blocks]


def _split_level(blocks: list[Block]) -> int | None:
    """Return the heading level that divides the book: the highest one used at least twice."""
    counts: dict[int, int] = {}
    for b in blocks:
        if 1 <= b.level <= MAX_CHAPTER_LEVEL:
            counts[b.level] = counts.get(b.level, 0) + 1
    if not counts:
        return None
    repeated = [lvl for lvl, n in counts.items() if n >= 2]
    return min(repeated) if repeated else min(counts)


def _title_for(blocks: list[Block], i: int, promoted: bool) -> str:
    """Return the chapter title for the heading at i, adding a name line after a bare label."""
    title = clean_text(blocks[i].text)
    if _is_bare(title):
        sub = _subtitle(blocks[i + 1] if i + 1 < len(blocks) else None, blocks[i].level, promoted)
        if sub:
            return f"{title.rstrip(' .:')}: {sub}"
    return title


def split_chapters(blocks: list[Block], fallback_title: str) -> list[Chapter]:
    """Return chapters split at headings, numbered from 1; one chapter when there are none."""
    promoted = not any(1 <= b.level <= MAX_CHAPTER_LEVEL for b in blocks)
    if promoted:
        blocks = promote_keyword_headings(blocks)
    level = _split_level(blocks)
    groups: list[tuple[str | None, list[Block]]] = [(None, [])]
    for i, b in enumerate(blocks):
        if level is not None and b.level == level:
            groups.append((_title_for(blocks, i, promoted), [b]))
        else:
            groups[-1][1].append(b)
    preamble = groups.pop(0)[1]
    if preamble and groups and all(b.level for b in preamble):
        # Only headings before the first chapter (the book's title): read them with chapter 1.
        groups[0] = (groups[0][0], preamble + groups[0][1])
    elif preamble:
        heads = [b for b in preamble if b.level]
        groups.insert(0, (clean_text(heads[0].text) if heads else fallback_title, preamble))
    titled = [(t, clean_paragraphs(b.text for b in bs)) for t, bs in groups]
    # A heading with nothing under it whose title comes back later is a contents listing.
    later: list[set[str]] = []
    seen: set[str] = set()
    for t, _ in reversed(titled):
        later.append(set(seen))
        seen.add((t or "").casefold())
    later.reverse()
    chapters = []
    for (title, paras), after in zip(titled, later):
        if not paras or (len(paras) <= 2 and (title or "").casefold() in after):
            continue
        chapters.append(Chapter(len(chapters) + 1, title or fallback_title, paras))
    return chapters
