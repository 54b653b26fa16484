"""The text before an office document's first chapter heading, read as its opening chapter.

split_chapters (app/book/structure/blocks.py) leaves a short preamble out: in an e-book that is generated front
matter (a title page repeated, a licence, a contents listing). In a Word or LibreOffice document the
text before the first heading is the author's own: a title page, an abstract, the opening paragraphs.
"""
from __future__ import annotations

from app.book.structure.blocks import Block, split_level
from app.book.structure.blocks import narration
from app.book.model import Chapter, ReadOptions


#: An opening shorter than this is a title page, read with the first chapter rather than as one.
TITLE_PAGE_WORDS = 30


def with_opening(blocks: list[Block], chapters: list[Chapter], title: str, options: ReadOptions,
                 author: str = "") -> list[Chapter]:
    """Return the chapters with the text before the first chapter heading as an opening chapter, titled
    like the book, when the split left it out. A title page that only names the book and its author
    says what the audiobook's own title and author say, and is not read twice."""
    level = split_level(blocks, outline=True)
    first = next((i for i, b in enumerate(blocks) if level is not None and b.level == level), None)
    if not first:
        return chapters
    said = {t.casefold() for t in (title, author) if t}
    opening = tuple(p for p in narration(blocks[:first], options) if p.casefold() not in said)
    # The split may have kept a long opening itself, as a chapter headed by its first line (the title
    # page's title): then it is there already, and is not read twice.
    kept = tuple(p for p in chapters[0].paragraphs if p.casefold() not in said) if chapters else ()
    if not opening or kept[: len(opening)] == opening:
        return chapters
    if chapters and sum(len(p.split()) for p in opening) < TITLE_PAGE_WORDS:
        # A title page (title, author, date): read at the start of the first chapter, not a chapter.
        first_chapter = chapters[0]
        return [Chapter(first_chapter.index, first_chapter.title, opening + first_chapter.paragraphs), *chapters[1:]]
    return [Chapter(n, c.title, c.paragraphs) for n, c in enumerate(
        [Chapter(0, title, opening), *chapters], start=1)]
