"""Read a Kindle book (MOBI, AZW, AZW3/KF8) by unpacking it to the EPUB or HTML inside, read as those.

The `mobi` package (KindleUnpack's code, GPL-3.0) unpacks into a private temporary folder that
is removed afterwards: a KF8 book (AZW3, or the KF8 half of a joint MOBI) gives its EPUB, an
old MOBI its HTML, a Print Replica its PDF; each is then read by the reader of that format.
An old MOBI unpacks to an OPF package (book.html, content.opf with the book's title and author, toc.ncx
with its own table of contents): that folder is zipped as an EPUB and read as one, so the title, author
and chapters are the book's own, not guessed from the HTML's headings. Either EPUB is read as a Kindle
book's (epub.read_epub's `kindle`): its NCX's entries are the chapters, their sub-entries in a chapter's
own file its sections, whatever an EPUB's rule for a label over its divisions would make of them.
A DRM-protected book is refused from its header before anything is unpacked.
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import struct
import tempfile
import zipfile
from pathlib import Path

from app.book.inputfile import read_book_bytes
from app.book.model import Book, ReadOptions
from app.core.errors import CorruptBook, ProtectedBook
from app.book.formats.epub import read_epub
from app.book.formats.palmdoc import is_palmdoc, read_palmdoc
from app.book.formats.table import FORMATS

_HINT = "Use a clean copy of the book, or convert it with Calibre"


def _encryption(head: bytes, name: str) -> int:
    """Return the MOBI header's encryption type (0: none) from the PalmDB header and record 0."""
    if len(head) < 86:
        raise CorruptBook(f"{name} is not a readable MOBI (too short)", hint=_HINT)
    (records,) = struct.unpack(">H", head[76:78])
    (first,) = struct.unpack(">I", head[78:82])
    if records < 1 or first + 16 > len(head):
        raise CorruptBook(f"{name} is not a readable MOBI (bad record table)", hint=_HINT)
    (kind,) = struct.unpack(">H", head[first + 12:first + 14])
    return kind


_CONTAINER = (
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
    '<rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles>'
    "</container>"
)


def _package_as_epub(folder: Path) -> list[Path]:
    """Zip an unpacked old MOBI (its content.opf beside book.html and toc.ncx) as an EPUB; [] without an OPF."""
    if not (folder / "content.opf").is_file():
        return []
    out = folder.parent / "mobi7.epub"
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        zf.writestr("META-INF/container.xml", _CONTAINER)
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                zf.write(file, file.relative_to(folder).as_posix(), compress_type=zipfile.ZIP_DEFLATED)
    return [out]


def read_mobi(path: Path, options: ReadOptions) -> Book:
    """Return the narrated chapters of a Kindle book, read from the EPUB, HTML or PDF it unpacks to."""

    data = read_book_bytes(path, 512 * 1024 * 1024)
    head = data[:64 * 1024]
    if len(head) >= 86 and is_palmdoc(head):
        return read_palmdoc(path, data, options)
    del data
    if _encryption(head, path.name) != 0:
        raise ProtectedBook(f"{path.name} is DRM-protected (its text is encrypted)", hint="Convert a DRM-free copy")
    from loguru import logger
    from mobi.kindleunpack import unpackBook

    logger.disable("mobi")  # its progress lines are not the user's business
    with tempfile.TemporaryDirectory(prefix="audiobook-mobi-") as tmp:
        try:
            # KindleUnpack prints as it goes; stdout is where the CLI prints the finished book's path.
            with contextlib.redirect_stdout(io.StringIO()):
                unpackBook(str(path), tmp, epubver="A")
        except Exception as exc:  # noqa: BLE001 - KindleUnpack raises bare Exceptions on damaged books
            if "encrypt" in str(exc).lower():
                raise ProtectedBook(f"{path.name} is DRM-protected", hint="Convert a DRM-free copy") from None
            raise CorruptBook(f"{path.name} is not a readable Kindle book ({exc})", hint=_HINT) from None
        root = Path(tmp)
        found = (sorted((root / "mobi8").glob("*.epub")) + _package_as_epub(root / "mobi7")
                 + sorted((root / "mobi7").glob("*.html"))
                 + sorted(root.glob("*.pdf")))
        if not found:
            raise CorruptBook(f"{path.name} unpacked to no readable book", hint=_HINT)
        inner = found[0]
        if inner.suffix.lower() == ".epub":
            # Read as the Kindle book it is: its NCX's entries are its chapters, their sub-entries sections.
            book = read_epub(inner, options=options, kindle=True)
        else:
            fmt = next(f for f in FORMATS if inner.suffix.lower() in f.suffixes)
            book = fmt.read(inner, options)
    return dataclasses.replace(book, source=path)
