"""Render Markdown to the HTML the ingest reads.

Code blocks stay <pre> blocks, so `--code` decides for them as for any book
(by default one short spoken note, so a listener knows something was there:
read aloud, a block is symbols one by one, "open paren, x, equals ...").
Inline `code` stays: it is usually a word or a name. Tables are GitHub-flavoured
Markdown, not CommonMark: they are enabled so that a table is read row by row.
"""
from __future__ import annotations

import re

from markdown_it import MarkdownIt

from app.core.errors import CorruptBook

#: A quotation marked with its speaker by --export-text: `[“Hello,”]{speaker="Hartley"}` (pandoc's
#: bracketed span with an attribute); brackets inside are escaped, so the first unescaped "]" ends it.
SPEAKER_MARK = re.compile(r'(?<!\\)\[((?:\\.|[^\\\]\n])*)\]\{speaker="([^"\n]*)"\}')
_ESCAPED = re.compile(r"\\(.)")


def strip_speaker_marks(text: str) -> str:
    """Return Markdown with every speaker mark replaced by the text it marks."""
    return SPEAKER_MARK.sub(lambda m: m.group(1), text)


def speaker_marks(text: str) -> list[tuple[str, str]]:
    """Return (the marked text as it reads, the speaker) of every speaker mark, in document order."""
    return [(" ".join(_ESCAPED.sub(r"\1", m.group(1)).split()), m.group(2).strip())
            for m in SPEAKER_MARK.finditer(text)]


#: Block nesting markdown-it follows (a list item is two levels: the list and the item). Its
#: CommonMark preset stops at 20 and silently drops everything after the block that reaches it;
#: 200 (100 nested lists) stays well inside Python's recursion limit. A document that reaches it
#: is refused in one line, never read in part.
MAX_NESTING = 200


def render_markdown(text: str) -> str:
    """Return the HTML of a Markdown text (CommonMark with tables, raw HTML allowed), speaker marks read as text."""
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    md.options["maxNesting"] = MAX_NESTING
    tokens = md.parse(strip_speaker_marks(text))
    if any(t.level >= MAX_NESTING - 1 for t in tokens):
        raise CorruptBook(f"The Markdown nests lists or block quotes more than {MAX_NESTING // 2} levels deep, "
                          "past which its parser drops the rest of the text",
                          hint="Flatten the nesting (or convert the file to HTML) and try again")
    return md.renderer.render(tokens, md.options, {})
