"""Render Markdown to the HTML the ingest reads.

Code blocks stay <pre> blocks, so `--code` decides for them as for any book
(by default one short spoken note, so a listener knows something was there:
read aloud, a block is symbols one by one, "open paren, x, equals ...").
Inline `code` stays: it is usually a word or a name. Tables are GitHub-flavoured
Markdown, not CommonMark: they are enabled so that a table is read row by row.
"""
from __future__ import annotations

from markdown_it import MarkdownIt

from app.book.cleanup import CODE_MENTION

#: What a listener hears in place of a code block (with the default --code mention).
CODE_BLOCK_NOTE = CODE_MENTION


def render_markdown(text: str) -> str:
    """Return the HTML of a Markdown text (CommonMark with tables, raw HTML allowed)."""
    return MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
