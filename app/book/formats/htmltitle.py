"""A Gutenberg HTML title page set in headings: the work's title or subtitle over its by-line."""
from __future__ import annotations

from app.book.structure.blocks import Block

#: How many words a title page's heading may have under it (the by-line, an imprint, a transcriber's
#: note) before the next heading; a story over its author's name in a collection has its whole text there.
_TITLE_PAGE_WORDS = 60


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
