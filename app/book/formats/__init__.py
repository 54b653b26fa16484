"""Every format the tool reads, in one table: suffixes, a signature sniffed from the file, a reader.

`--help`, the hub's file browser, the folder scan of a queue and the README's format list all
come from FORMATS. A file is read by what it is, not by what it is called: a binary signature
(PDF, ZIP container, MOBI) wins over the suffix, so a PDF named `.epub` is read as a PDF, and a
`.pdf` whose bytes are no PDF is refused by them. Text formats (TXT, Markdown, HTML, FB2) carry
no reliable signature and are read as their suffix says.
"""
from __future__ import annotations

from app.book.formats.table import (
    FORMATS,
    Format,
    book_suffix,
    format_names,
    is_book_name,
    resolve_format,
    suffix_list,
)

__all__ = ["FORMATS", "Format", "book_suffix", "format_names", "is_book_name", "resolve_format", "suffix_list"]
