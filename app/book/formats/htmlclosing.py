"""Lines that close a Gutenberg HTML book set as headings: "THE END", "END OF VOL. II.", the printer's imprint."""
from __future__ import annotations

from app.book.structure.blocks import Block, body_words, split_level


def without_closing_headings(blocks: list[Block]) -> list[Block]:
    """Return the blocks with the headings at the chapters' level that end the book with no words under them
    read as the last chapter's closing lines (text): "THE END", "END OF VOL. II.", "LANTERN: THE MILL PRESS",
    set as headings like the chapters. Each was read as a last chapter made of its title alone. Not where no
    chapter before them has text (a book of headings only)."""
    level = split_level(blocks)
    if level is None:
        return blocks
    out = list(blocks)
    end = len(blocks)
    for k in range(len(blocks) - 1, -1, -1):
        b = blocks[k]
        if not b.level:
            if body_words(blocks[k:k + 1]):
                break
            continue
        if b.level < level:
            break
        if b.level == level:
            if body_words(blocks[k + 1:end]) or not body_words(blocks[:k]):
                break
            out[k] = Block(b.text, 0, b.ids, b.kind, b.links)
            end = k
    return out
