"""Lines that close a Gutenberg HTML book set as headings: "THE END", "END OF VOL. II.", the printer's imprint."""
from __future__ import annotations

from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.normalize import clean_text
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
    end = _before_closing_matter(blocks, level)
    for k in range(end - 1, -1, -1):
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


def _before_closing_matter(blocks: list[Block], level: int) -> int:
    """Return where the book's closing matter at the chapters' level begins ("Footnotes:", "NOTES", an index after
    "THE END"; round html21), or its end: a closing line stands before the notes as before nothing."""
    end = len(blocks)
    for k in range(len(blocks) - 1, -1, -1):
        b = blocks[k]
        if 0 < b.level < level:
            break
        if b.level == level:
            text = clean_text(b.text)
            if not (is_matter_title(text) or is_apparatus_title(text)):
                break
            end = k
    return end
