"""The text before an office document's first chapter heading, read as its opening chapter.

split_chapters (app/book/blocks.py) leaves a short preamble out: in an e-book that is generated front
matter (a title page repeated, a licence, a contents listing). In a Word or LibreOffice document the
text before the first heading is the author's own: a title page, an abstract, the opening paragraphs.
"""
from __future__ import annotations

from app.book.blocks import Block, split_level
from app.book.cleanup import narration
from app.book.model import Chapter, ReadOptions


def with_opening(blocks: list[Block], chapters: list[Chapter], title: str, options: ReadOptions) -> list[Chapter]:
    """Return the chapters with the text before the first chapter heading as an opening chapter, titled
    like the book, when the split left it out."""
    level = split_level(blocks)
    first = next((i for i, b in enumerate(blocks) if level is not None and b.level == level), None)
    if not first:
        return chapters
    opening = narration(blocks[:first], options)
    if not opening or (chapters and chapters[0].paragraphs[: len(opening)] == opening):
        return chapters
    return [Chapter(n, c.title, c.paragraphs) for n, c in enumerate(
        [Chapter(0, title, opening), *chapters], start=1)]
