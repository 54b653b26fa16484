"""Render Markdown to the HTML the ingest reads, with code blocks left unread.

A fenced or indented code block read aloud is symbols one by one ("open
paren, x, equals ..."), minutes of noise in a technical book. Each block
becomes one short spoken note instead, so a listener knows something was
there. (Inline `code` stays: it is usually a word or a name.)
"""
from __future__ import annotations

from markdown_it import MarkdownIt

#: What a listener hears in place of a code block.
CODE_BLOCK_NOTE = "Code example omitted."


def _note(*_args) -> str:
    return f"<p>{CODE_BLOCK_NOTE}</p>\n"


def render_markdown(text: str) -> str:
    """Return the HTML of a Markdown text (CommonMark, raw HTML allowed), code blocks replaced by a note."""
    md = MarkdownIt("commonmark", {"html": True})
    md.add_render_rule("fence", _note)
    md.add_render_rule("code_block", _note)
    return md.render(text)
