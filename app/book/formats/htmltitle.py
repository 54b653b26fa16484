"""A Gutenberg HTML title page set in headings: the work's title or subtitle over its by-line."""
from __future__ import annotations

import re

from app.book.structure.blocks import Block, split_level
from app.book.structure.headings import FRONT_MATTER
from app.book.structure.lines import clean_line, is_byline

#: How many words a title page's heading may have under it (the by-line, an imprint, a transcriber's
#: note) before the next heading; a story over its author's name in a collection has its whole text there.
_TITLE_PAGE_WORDS = 60


#: A title page's credit set as a heading: the by-line with its verb ("Translated by Ann Lee", "Illustrated by
#: J. R. Holt", "With Illustrations by ...") or a name with its particles ("by Ana de la Vega", "by Jan van Dam"),
#: which the shared by-line test (capitalised names, for the plain text's lines too) leaves out.
_CREDIT = re.compile(
    r"^(?i:(?:(?:written|illustrated|translated|edited|compiled|selected|arranged|adapted|retold|decorated)"
    r"(?:\s+(?:and|&)\s+\w+)?|(?:with\s+)?(?:illustrations|pictures|drawings|decorations)(?:\s+in\s+colou?r)?)\s+)?"
    r"(?i:by)\s+[A-Z][\w.'\u2019-]*"
    r"(?:\s+(?:[A-Z][\w.'\u2019-]*|(?:de|da|di|du|del|della|des|van|von|der|den|la|le|ten|ter|y)(?=\s+\S)))*[\s.,:]*$")
_PHRASE_WORDS = {"the", "a", "an", "of", "and", "in", "on", "at", "to", "for", "with", "from", "way"}
#: A name has no more words than this ("by Ana de la Vega y Ruiz").
_MAX_NAME_WORDS = 7


def is_credit_line(text: str) -> bool:
    """Return whether a heading is a title page's by-line or credit, never a chapter's name."""
    line = clean_line(text)
    if is_byline(line):
        return True
    if not _CREDIT.match(line):
        return False
    name = re.split(r"\bby\s", line, flags=re.I)[-1].split()
    # A name has none of a phrase's little words ("BY THE SEA", "BY WAY OF THE CAPE" in capitals).
    return len(name) <= _MAX_NAME_WORDS and not any(w.casefold() in _PHRASE_WORDS for w in name)


def without_title_page(blocks: list[Block], bylines: list[bool]) -> list[Block]:
    """Return the blocks with the heading set straight over a by-line heading ("A Tale of the Marsh" over
    "by Ann Lee") read as the title page's text where little follows it before the next heading and no
    heading with text of its own stands before it: the subtitle or genre line of the work, no chapter.
    `bylines` marks the blocks that were by-line headings (already text here)."""
    heads = [k for k, b in enumerate(blocks) if b.level]
    out = list(blocks)
    for k, nxt in zip(heads, heads[1:] + [len(blocks)]):
        own = sum(len(blocks[j].text.split()) for j in range(k + 1, nxt))
        if k + 1 < len(blocks) and bylines[k + 1] and own <= _TITLE_PAGE_WORDS:
            b = blocks[k]
            out[k] = Block(b.text, 0, b.ids, b.kind, b.links)
            continue
        if own > _TITLE_PAGE_WORDS:
            break  # past the title page: a heading over a by-line further on is a piece's, by its author
    return out


#: A title page's, its verso's or a publisher's list's line names a year, a price, a volume, an edition, a
#: publisher or a place of publication ("LANTERN. MDCCCX", "THIRD EDITION", "Boards, $2.25.", "Copyright, 1894").
_IMPRINT = re.compile(
    r"(?:\b1[4-9]\d\d\b|\b20[0-2]\d\b|[$£©]|\b(?:by|edition|editions|press|publish\w*|publications?|printed|printers?|copyright|"
    r"volumes?|vol|london|new york|boston|chicago|philadelphia|edinburgh|author of|translated|edited|compiled|"
    r"illustrated|rights reserved|sons|ltd|limited|inc|company|co)\b\.?)", re.I)
#: A title page is set in short lines: no paragraph of prose (a preface's, an introduction's) among them.
_PROSE_LINE_WORDS = 40
#: Its lines average fewer words than this (a list of a publisher's books: a title, its price).
_MEAN_LINE_WORDS = 10
#: At least this many of its lines (and a quarter of them) name the imprint.
_MIN_IMPRINT_LINES = 2


def is_title_page(lines: list[str]) -> bool:
    """Return whether the text under a heading is a title page, its verso or a publisher's list: short lines
    only, a few of them naming a year, a price, an edition, a publisher or a place. A poem's short lines name
    none of these; a preface has paragraphs of prose."""
    lines = without_mottoes(lines)
    words = [len(t.split()) for t in lines]
    if not lines or max(words) >= _PROSE_LINE_WORDS or sum(words) >= _MEAN_LINE_WORDS * len(lines):
        return False
    imprint = sum(1 for t in lines if _IMPRINT.search(t))
    return imprint >= _MIN_IMPRINT_LINES and 4 * imprint >= len(lines)


#: A motto opens with a quotation mark; its author's name follows it after a dash or on a line of its own.
_QUOTED = re.compile(r"^\s*[\"“‘']")
_SIGNED = re.compile(r"[\"”’'][.,]?\s*[—–-]+\s*(?:[A-Z][\w.']*,?\s*){1,5}\W*$")
_ATTRIBUTION = re.compile(r"^\W*(?:[A-Z][\w.'’]*,?\s*){1,5}\W*$")


def without_mottoes(lines: list[str]) -> list[str]:
    """Return a title page's lines without its mottoes: a quotation set under the title, signed by its author
    ('"The mill ..." --Lee.', or the name on a line of its own), is no prose of the book's though it runs long."""
    out: list[str] = []
    skip_name = False
    for n, line in enumerate(lines):
        if skip_name:
            skip_name = False
            if _ATTRIBUTION.match(line) and len(line.split()) <= 5:
                continue
        if _QUOTED.match(line):
            if _SIGNED.search(line):
                continue
            nxt = lines[n + 1] if n + 1 < len(lines) else ""
            if _ATTRIBUTION.match(nxt) and len(nxt.split()) <= 5:
                skip_name = True
                continue
        out.append(line)
    return out


#: How many of the book's title's first words a title page opening with it must repeat.
_TITLE_OPENING_WORDS = 3


def names_title(lines: list[str], title: str) -> bool:
    """Return whether a title page's lines open with the book's own title: its first words (three, or all of a
    shorter title's), in order, whatever the headings and line breaks it is set in ("THE" / "PRIVATE LIBRARY")."""
    book = re.findall(r"\w+", title.casefold())
    page = re.findall(r"\w+", " ".join(lines).casefold())
    n = min(_TITLE_OPENING_WORDS, len(book))
    return n >= 2 and page[:n] == book[:n]


def holds_title(lines: list[str], title: str) -> bool:
    """Return whether the lines hold the book's title: its first words (three, or all of a shorter title's of two
    words or more), in order, anywhere among them (under an institution's or a series' name)."""
    book = re.findall(r"\w+", title.casefold())
    page = re.findall(r"\w+", " ".join(lines).casefold())
    n = min(_TITLE_OPENING_WORDS, len(book))
    return n >= 2 and any(page[k:k + n] == book[:n] for k in range(len(page) - n + 1))


#: The verso's notice of copyright and performing rights ("Caution: Professionals and amateurs are hereby warned
#: that ..., being fully protected under the copyright laws ...", "The acting rights ... are controlled by ..."): a
#: paragraph of the title page's, however long.
_RIGHTS_NOTICE = re.compile(r"\b(?:copyright\w*|royalt(?:y|ies)|rights)\b", re.I)


def without_headless_title_page(blocks: list[Block]) -> list[Block]:
    """Return the blocks with the text before the book's first heading headed as front matter where it is a title
    page, its verso or a publisher's list (short lines naming years, publishers, places, prices; `is_title_page`),
    its notices of rights aside. Set under no heading at all, it was read as a first chapter named by the book's
    title. Text of another kind there (a poem, a preface in prose) stays as it was."""
    first = next((i for i, b in enumerate(blocks) if b.level), None)
    level = split_level(blocks)
    if not first or level is None or blocks[first].level < level:
        return blocks  # (a heading above the chapters next, the book's title over its opening, has rules of its own)
    lines = [b.text for b in blocks[:first] if b.text.strip() and not _RIGHTS_NOTICE.search(b.text)]
    if not lines or not is_title_page(lines):
        return blocks
    return [Block(FRONT_MATTER, level)] + blocks
