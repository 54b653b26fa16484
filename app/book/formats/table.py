"""The formats table: suffix and sniffed signature -> reader, and the one rule that picks a reader."""
from __future__ import annotations

import importlib
import os
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.errors import CorruptBook, InputError, ProtectedBook, UnsupportedFormat
from app.book.zipstream import stream_member  # bounded whatever the zip method (zipfile bounds only deflate)

if TYPE_CHECKING:
    from app.book.model import Book, ReadOptions

MB = 1024 * 1024
#: Bytes read from a file's start to tell its kind (MOBI's type sits at 60, a PDF may start late).
HEAD_BYTES = 1024


@dataclass(frozen=True)
class Format:
    """One kind of book file: how it is named, how it is recognised, who reads it."""

    key: str
    #: What the help, the hub and the README call it.
    name: str
    #: File name endings, lower case, the first one shown in lists.
    suffixes: tuple[str, ...]
    #: "module:function" of a reader taking (path, options) and returning a Book.
    reader: str
    #: Files larger than this are refused before a byte is read.
    max_bytes: int
    #: Whether the format has a binary signature that overrides a lying suffix.
    binary: bool = False

    def read(self, path: Path, options: ReadOptions) -> Book:
        """Return the book at path, read by this format's reader (every reader takes `options` by name)."""
        module, _, func = self.reader.partition(":")
        reader: Callable[[Path, ReadOptions], Book] = getattr(importlib.import_module(module), func)
        return reader(path, options=options)


#: Every format read, in the order lists show them.
FORMATS: tuple[Format, ...] = (
    Format("epub", "EPUB", (".epub",), "app.book.formats.epub:read_epub", 2048 * MB, binary=True),
    Format("pdf", "PDF", (".pdf",), "app.book.formats.pdf:read_pdf", 1024 * MB, binary=True),
    Format("docx", "DOCX", (".docx",), "app.book.formats.docx:read_docx", 512 * MB, binary=True),
    Format("odt", "ODT", (".odt",), "app.book.formats.odt:read_odt", 512 * MB, binary=True),
    Format("fb2", "FB2", (".fb2", ".fb2.zip"), "app.book.formats.fb2:read_fb2", 256 * MB),
    Format("mobi", "MOBI/AZW3", (".mobi", ".azw3", ".azw"), "app.book.formats.mobi:read_mobi", 512 * MB,
           binary=True),
    Format("text", "TXT", (".txt",), "app.book.formats.txt:read_text", 64 * MB),
    Format("markdown", "Markdown", (".md", ".markdown"), "app.book.formats.txt:read_markdown", 64 * MB),
    Format("html", "HTML", (".html", ".htm", ".xhtml"), "app.book.formats.html:read_html", 64 * MB),
)
_BY_KEY = {f.key: f for f in FORMATS}


def format_names() -> str:
    """Return the formats as a sentence's list: "EPUB, PDF, ..., Markdown or HTML"."""
    names = [f.name for f in FORMATS]
    return ", ".join(names[:-1]) + " or " + names[-1]


def suffix_list() -> str:
    """Return every suffix read, comma-separated (".epub, .pdf, ...")."""
    return ", ".join(s for f in FORMATS for s in f.suffixes)


def book_suffix(path: Path) -> str:
    """Return the suffix that names the file's format (".fb2.zip" counts whole), lower case."""
    name = path.name.lower()
    for fmt in FORMATS:
        for suffix in fmt.suffixes:
            if suffix.count(".") > 1 and name.endswith(suffix):
                return suffix
    return path.suffix.lower()


def _by_suffix(path: Path) -> Format | None:
    suffix = book_suffix(path)
    return next((f for f in FORMATS if suffix in f.suffixes), None)


def is_book_name(path: Path) -> bool:
    """Return whether the file's name is one a format of the table reads."""
    return _by_suffix(path) is not None


def _zip_kind(path: Path) -> str | None:
    """Return the format of a ZIP container from its directory and `mimetype` entry (nothing unpacked)."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
            mimetype = b""
            if "mimetype" in names and zf.getinfo("mimetype").file_size <= 200:
                mimetype = stream_member(path, zf.getinfo("mimetype"), 200).strip()
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, RuntimeError, EOFError, InputError):
        return None
    if mimetype == b"application/epub+zip" or "META-INF/container.xml" in names and mimetype == b"":
        return "epub"
    if mimetype.startswith(b"application/vnd.oasis.opendocument.text"):
        return "odt"
    if "word/document.xml" in names:
        return "docx"
    if any(n.lower().endswith(".fb2") for n in names):
        return "fb2"
    return None


def sniff(path: Path, head: bytes) -> str | None:
    """Return the format key the file's own bytes name, or None when they name none."""
    if b"%PDF-" in head[:HEAD_BYTES]:
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        return _zip_kind(path) or "zip"
    if head[60:68] in (b"BOOKMOBI", b"TEXtREAd"):
        return "mobi"
    if head[60:64] == b"TPZ0" or head.startswith(b"TPZ"):
        return "topaz"
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "ole"  # an old .doc, or a password-protected DOCX/ODT (encrypted into an OLE container)
    if b"<FictionBook" in head:
        return "fb2"
    return None


def _head(path: Path) -> bytes:
    try:
        # O_NONBLOCK: inputfile.check_book_file has refused FIFOs and devices; this keeps a swap harmless.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            return fh.read(HEAD_BYTES) or b""
    except OSError:
        return b""


def resolve_format(path: Path) -> Format:
    """Return the format to read the file as: its signature's, else its suffix's; raise when neither fits."""
    named = _by_suffix(path)
    found = sniff(path, _head(path))
    if found == "topaz":
        raise UnsupportedFormat(f"{path.name} is an Amazon Topaz book, a format that cannot be read",
                                hint="Download the book again as AZW3 or MOBI, or convert it with Calibre")
    if found == "ole" and named is not None and named.key in ("docx", "odt"):
        raise ProtectedBook(f"{path.name} is password-protected (or an old Word .doc renamed)",
                            hint="Save an unprotected copy as DOCX or ODT and convert that")
    if found in _BY_KEY and (named is None or named.binary or found != named.key and _BY_KEY[found].binary):
        return _BY_KEY[found]
    if named is None:
        raise UnsupportedFormat(
            f"{path.name}: unsupported format {book_suffix(path) or '(no suffix)'!r}; supported: {suffix_list()}",
            hint="Convert the book to EPUB (e.g. with Calibre) or rename a plain-text file to .txt",
        )
    if found == "zip" and named.key in ("pdf", "mobi", "text", "markdown", "html"):
        raise CorruptBook(f"{path.name} is not a readable {named.name} file: it is a ZIP archive of another kind",
                          hint="Use a clean copy of the book")
    # No signature, or a damaged one: the format's own reader says what is wrong with it.
    return named
