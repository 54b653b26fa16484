"""Write what will be spoken as Markdown the converter reads back as the same book.

Each chapter is a level-1 heading followed by its paragraphs. The heading is
the chapter's first spoken paragraph when that paragraph is its heading (the
usual case), so re-reading the file speaks exactly the same words. A chapter
whose title is not spoken (an EPUB chapter named only by its table of
contents) gets its title as the heading, and the re-read book says it.
Markdown syntax in the text is escaped so that it stays text.

A quotation whose speaker is known is marked as a bracketed span with its speaker
(pandoc's syntax): `[“What is his name?”]{speaker="Mrs. Wrenfield"}`. Reading the file back
(app/book/formats/mdrender.py) speaks the text without the marks and takes each mark's speaker
as that line's: correct a name, or add or delete a mark, and convert the .md.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping, Sequence

from app.book.model import Book, Chapter
from app.core.errors import OutputError
from app.core.files import write_bytes_atomic

#: A line start Markdown would read as a heading, quote, list, rule or table.
_LINE_START = re.compile(r"^(\s*)([#>+=|-]|\d+[.)](?=\s|$)|\*)")
#: Characters Markdown reads inline: emphasis, code, links, HTML, entities, escapes.
_INLINE = re.compile(r"([\\`*_\[\]<>&~])")


def escape(text: str) -> str:
    """Return text that a CommonMark reader shows exactly as written."""
    text = _INLINE.sub(r"\\\1", text)
    m = _LINE_START.match(text)
    if m:
        marker = m.group(2)
        escaped = marker[:-1] + "\\" + marker[-1] if marker[-1] in ".)" else "\\" + marker
        text = m.group(1) + escaped + text[m.end():]
    return text


#: Pieces of one paragraph: (text, speaker or None, whitespace before it), by (chapter index, paragraph).
Speakers = Mapping[tuple[int, int], Sequence[tuple[str, str | None, bool]]]


def _heading_and_body(chapter: Chapter, spoken_title: str) -> tuple[str, int]:
    """Return the chapter's heading line and the index of the first paragraph that follows it."""
    first = chapter.paragraphs[0]
    if first == spoken_title or len(first.split()) <= 12 and not first.rstrip().endswith((".", "!", "?", ",")):
        return first, 1
    return spoken_title or chapter.title, 0


def speaker_mark(text: str, speaker: str) -> str:
    """Return `text` (already escaped) marked as said by `speaker`."""
    return f'[{text}]{{speaker="{speaker.replace(chr(34), chr(0x201D))}"}}'


def _marked(pieces: Sequence[tuple[str, str | None, bool]]) -> str:
    """Return a paragraph's pieces escaped, each quotation with a known speaker marked."""
    out = ""
    for n, (text, speaker, spaced) in enumerate(pieces):
        # Only the paragraph's start is a line start Markdown could misread; inside it, inline escapes do.
        piece = escape(text) if n == 0 else _INLINE.sub(r"\\\1", text)
        out += (" " if out and spaced else "") + (speaker_mark(piece, speaker) if speaker else piece)
    return out


def to_markdown(book: Book, spoken_titles: dict[int, str] | None = None, speakers: Speakers | None = None) -> str:
    """Return the book as Markdown: front matter with title and author, then one heading a chapter."""
    titles = spoken_titles or {}
    marks = speakers or {}
    lines = ["---", f"title: {book.title}", f"author: {book.author}", f"language: {book.language}", "---", ""]
    for chapter in book.chapters:
        heading, first = _heading_and_body(chapter, titles.get(chapter.index, chapter.title))
        lines += [f"# {escape(heading)}", ""]
        for n in range(first, len(chapter.paragraphs)):
            pieces = marks.get((chapter.index, n))
            lines += [_marked(pieces) if pieces else escape(chapter.paragraphs[n]), ""]
    return "\n".join(lines)


def write_markdown(book: Book, path: Path, spoken_titles: dict[int, str] | None = None,
                   speakers: Speakers | None = None) -> Path:
    """Write the book as Markdown to `path` atomically and return it."""
    path = Path(path).expanduser()
    try:
        write_bytes_atomic(path, to_markdown(book, spoken_titles, speakers).encode("utf-8"))
    except OSError as exc:
        raise OutputError(f"Cannot write {path}: {exc.strerror or exc}", hint="Choose a writable path for --export-text") from None
    return path
