"""The table's doors to the readers that live beside this package (EPUB, TXT, Markdown, HTML)."""
from __future__ import annotations

from pathlib import Path

from app.book.inputfile import read_book_bytes
from app.book.model import Book, ReadOptions


def read_epub(path: Path, options: ReadOptions) -> Book:
    from app.book.formats.epub import read_epub as read

    return read(path, options=options)


def read_text(path: Path, options: ReadOptions) -> Book:
    from app.book.formats.txt import load_text

    return load_text(path, read_book_bytes(path), options)


def read_markdown(path: Path, options: ReadOptions) -> Book:
    from app.book.formats.txt import load_markdown

    return load_markdown(path, read_book_bytes(path), options)


def read_html(path: Path, options: ReadOptions) -> Book:
    from app.book.formats.html import load_html

    return load_html(path, read_book_bytes(path), options)
