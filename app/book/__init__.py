"""Ingest: read a book file into a Book of chapters and paragraphs, and pick chapters."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from app.book.formats import FORMATS, format_names, resolve_format
from app.book.guards import check_chapters, check_text
from app.book.inputfile import MAX_TEXT_BYTES, check_book_file
from app.book.sandbox import read_guarded
from app.book.model import Book, Chapter, Cover, ReadOptions
from app.book.narration.cleanup import person_name, real_title
from app.book.metadata import complete
from app.core.errors import BookNotFound, CorruptBook, EmptyBook, InputError

__all__ = ["Book", "Chapter", "Cover", "ReadOptions", "load_book", "select_chapters", "chapter_spec_is_empty", "SUPPORTED_SUFFIXES", "MAX_TEXT_BYTES"]

#: Suffix -> format key, from the formats table (app/book/formats/table.py).
SUPPORTED_SUFFIXES = {suffix: fmt.key for fmt in FORMATS for suffix in fmt.suffixes}


def load_book(path: Path, *, title: str | None = None, author: str | None = None,
              options: ReadOptions | None = None) -> Book:
    """Return the book at path; title and author override what the file says."""

    options = options or ReadOptions()
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise BookNotFound(f"No such file: {path}", hint="Check the path and try again")
    if path.is_dir():
        raise BookNotFound(f"{path} is a folder, not a book file", hint=f"Pass the book file itself ({format_names()})")
    check_book_file(path, max(f.max_bytes for f in FORMATS))
    fmt = resolve_format(path)
    check_book_file(path, fmt.max_bytes)
    check_text(path, fmt.key)
    try:
        book = read_guarded(fmt, path, options)  # PDF, DOCX, MOBI: in a child under memory and time limits
    except RecursionError:  # a walker of a tree nested thousands deep: the file's shape, not a bug
        raise CorruptBook(f"{path.name} nests its content too deeply to read",
                          hint="Use a clean copy of the book, or convert it again with Calibre") from None
    check_chapters(len(book.chapters), path)
    if not book.chapters:
        raise EmptyBook(f"{path.name} has no readable text", hint="Check that the file is the book itself, not a scan or a cover")
    book = dataclasses.replace(
        book,
        # The file name only when the book names itself nowhere (no metadata, no heading).
        title=title or real_title(book.title, path.stem) or path.stem,
        author=author or person_name(book.author) or "Unknown",
    )

    return complete(book, fmt.key, author_given=bool(author), title_given=bool(title))


_RANGE = re.compile(r"^(\d+)?\s*(-)?\s*(\d+)?$")


def chapter_spec_is_empty(spec: str | None) -> bool:
    """Return True for a --chapters spec naming nothing ("", " , "): refused before any book is read."""
    return not any(p.strip() for p in (spec or "").split(","))


def select_chapters(book: Book, spec: str) -> Book:
    """Return the book with only the chapters a spec like "3-5,9" or "7-" names, in book order."""
    total = len(book.chapters)
    hint = "Run with --list-chapters to see the chapter numbers"
    wanted: set[int] = set()
    parts = [p.strip() for p in (spec or "").split(",")]
    if chapter_spec_is_empty(spec):
        raise InputError("--chapters is empty; give numbers like 3-5,9", hint=hint)
    for part in parts:
        m = _RANGE.match(part)
        if not part or not m or not (m.group(1) or m.group(3)) or (m.group(2) is None and m.group(3)):
            raise InputError(f"--chapters {spec!r}: cannot read {part!r}; use numbers and ranges like 3-5,9", hint=hint)
        lo = int(m.group(1)) if m.group(1) else 1
        hi = (int(m.group(3)) if m.group(3) else total) if m.group(2) else lo
        if lo < 1 or hi < 1:
            raise InputError(f"--chapters {spec!r}: chapters are numbered from 1", hint=hint)
        if lo > hi:
            raise InputError(f"--chapters {spec!r}: range {part!r} runs backwards", hint=hint)
        if hi > total:
            raise InputError(f"--chapters {spec!r}: chapter {hi} does not exist; the book has {total} chapters",
                             hint=hint)
        wanted.update(range(lo, hi + 1))
    return dataclasses.replace(book, chapters=tuple(c for c in book.chapters if c.index in wanted))
