"""Read a PalmDOC book (PalmDB type "TEXtREAd": the first e-book format, a .pdb/.prc/.mobi without a MOBI header).

Its records after the first hold the text, stored as is or in PalmDOC's LZ77 compression; the text is
plain or, as Mobipocket wrote it, HTML opening with an OEB 1 <metadata> block (<dc:Title>, <dc:Creator>).
KindleUnpack needs a MOBI header, so these few lines read the format themselves.
"""
from __future__ import annotations

import dataclasses
import html
import re
import struct
from pathlib import Path

from app.book.formats.html import load_html
from app.book.formats.txt import load_text
from app.book.model import Book, ReadOptions
from app.core.errors import CorruptBook

_HINT = "Convert the book to EPUB with Calibre"
#: A PalmDOC record decompresses to at most 4096 bytes; a little slack for odd writers.
_MAX_RECORD = 8192


def is_palmdoc(head: bytes) -> bool:
    return head[60:68] == b"TEXtREAd"


def _decompress(data: bytes, name: str) -> bytes:
    """PalmDOC's LZ77: literals, runs of 1-8 raw bytes, space + letter pairs, and back references."""
    out = bytearray()
    i = 0
    while i < len(data) and len(out) <= _MAX_RECORD:
        c = data[i]
        i += 1
        if c == 0 or 9 <= c <= 0x7F:
            out.append(c)
        elif c <= 8:
            out += data[i:i + c]
            i += c
        elif c >= 0xC0:
            out += bytes((0x20, c ^ 0x80))
        else:
            if i >= len(data):
                break
            pair = ((c << 8) | data[i]) & 0x3FFF
            i += 1
            distance, length = pair >> 3, (pair & 7) + 3
            if not 0 < distance <= len(out):
                raise CorruptBook(f"{name} is not a readable PalmDOC book (a bad back reference)", hint=_HINT)
            for _ in range(length):
                out.append(out[-distance])
    return bytes(out)


def palmdoc_text(data: bytes, name: str) -> bytes:
    """Return the text records of a PalmDOC file, decompressed."""
    (count,) = struct.unpack(">H", data[76:78])
    if count < 2 or 78 + 8 * count > len(data):
        raise CorruptBook(f"{name} is not a readable PalmDOC book (bad record table)", hint=_HINT)
    offsets = [struct.unpack(">I", data[78 + 8 * n:82 + 8 * n])[0] for n in range(count)] + [len(data)]
    if offsets != sorted(offsets) or offsets[0] + 10 > len(data):
        raise CorruptBook(f"{name} is not a readable PalmDOC book (bad record table)", hint=_HINT)
    compression, _, _, records = struct.unpack(">HHIH", data[offsets[0]:offsets[0] + 10])
    if compression not in (1, 2):
        raise CorruptBook(f"{name} uses a compression PalmDOC does not know ({compression})", hint=_HINT)
    parts = [data[offsets[n]:offsets[n + 1]] for n in range(1, min(records, count - 1) + 1)]
    return b"".join(_decompress(p, name) if compression == 2 else p for p in parts)


def _oeb_field(text: str, field: str) -> str:
    found = re.search(rf"<dc:{field}\b[^>]*>(.*?)</dc:{field}>", text[:16384], re.I | re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split()) if found else ""


def read_palmdoc(path: Path, data: bytes, options: ReadOptions) -> Book:
    """Return the book of a PalmDOC file: its HTML read as HTML (title and author from its OEB metadata), or its text."""
    text = palmdoc_text(data, path.name)
    if not re.match(rb"\s*<(?:html|head|body|metadata)\b", text[:512], re.I):
        return load_text(path, text, options)
    # The metadata block is the OEB package's, not the page's: its words are not the book's.
    head = text.decode("cp1252", errors="replace")
    body = re.sub(rb"(?is)<metadata\b.*?</metadata>|<guide\b.*?</guide>", b"", text, count=2)
    book = load_html(path, body, options)
    title, author = _oeb_field(head, "Title"), _oeb_field(head, "Creator")
    return dataclasses.replace(book, title=title or book.title, author=author or book.author)
