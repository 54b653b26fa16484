"""Hostile EPUBs: entity expansion, zip path traversal, zip bombs, DRM."""
from __future__ import annotations

import re
import time
import zipfile

import pytest

from app.book import load_book
from app.book.formats.epub import read_epub
from app.book.safezip import Limits
from app.core.errors import CorruptBook

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
"""
EXTERNAL = b"""<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>"""


def _one_line(exc: pytest.ExceptionInfo) -> str:
    line = exc.value.one_line()
    assert "\n" not in line and exc.value.hint
    return line


def _with_doctype(data: bytes, doctype: bytes, entity: bytes) -> bytes:
    """Return an XML document with a hostile DOCTYPE and an entity reference in its first text."""
    body = re.sub(rb"^<\?xml[^>]*\?>", b"", data)
    body = body.replace(b"Dawn came early.", entity).replace(b"<dc:title>Old Format", b"<dc:title>" + entity)
    body = body.replace(b"<text>First Light", b"<text>" + entity)
    return doctype.replace(b"lolz", body.split(b"<", 2)[1].split()[0]) + body


@pytest.mark.parametrize("target", ["OEBPS/content.opf", "OEBPS/toc.ncx", "OEBPS/text/a.html"])
@pytest.mark.parametrize("doctype,entity", [(BILLION_LAUGHS, b"&lol9;"), (EXTERNAL, b"&xxe;")],
                         ids=["billion-laughs", "external-entity"])
def test_entity_declarations_are_refused(epub2_builder, epub2_parts, tmp_path, target, doctype, entity):
    hostile = _with_doctype(epub2_parts[target], doctype, entity)
    assert entity in hostile
    path = epub2_builder(tmp_path / "bomb.epub", extra={target: hostile})
    start = time.perf_counter()
    with pytest.raises(CorruptBook) as exc:
        load_book(path)
    assert time.perf_counter() - start < 10  # refused up front, not after expanding (loaded-machine margin)
    assert "entities" in _one_line(exc) and target in exc.value.message


@pytest.mark.parametrize("name", ["../evil.txt", "/etc/evil", "OEBPS/../../evil", "C:/evil", "..\\evil"])
def test_zip_path_traversal_names_are_refused(epub2_builder, tmp_path, name):
    path = epub2_builder(tmp_path / "trav.epub", extra={name: b"x"})
    with pytest.raises(CorruptBook) as exc:
        load_book(path)
    assert "unsafe path" in _one_line(exc)


def test_oversized_entry_is_refused_at_the_real_limit(epub2_builder, tmp_path):
    # A 65 MiB chapter of spaces compresses to ~64 KB: a small zip bomb over the default 64 MiB per-entry limit.
    big = b"<html><body><p>" + b" " * (65 * 1024 * 1024) + b"</p></body></html>"
    path = epub2_builder(tmp_path / "bomb.epub", extra={"OEBPS/text/a.html": big})
    assert path.stat().st_size < 1024 * 1024
    with pytest.raises(CorruptBook) as exc:
        load_book(path)
    assert "zip bomb" in _one_line(exc) and "a.html" in exc.value.message


def test_entry_whose_header_lies_about_its_size_is_refused(epub2_builder, tmp_path):
    path = epub2_builder(tmp_path / "liar.epub", extra={"OEBPS/text/a.html": b"<p>" + b"x" * 5000 + b"</p>"})
    # Rewrite the declared sizes (local header and central directory) to claim 10 bytes.
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("OEBPS/text/a.html")
    struct_size = info.file_size.to_bytes(4, "little")
    assert data.count(struct_size) >= 2
    data = data.replace(struct_size, (10).to_bytes(4, "little"))
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptBook) as exc:
        load_book(path)
    assert "a.html" in _one_line(exc)


def test_total_declared_size_and_entry_count_limits(epub2_builder, tmp_path):
    path = epub2_builder(tmp_path / "many.epub", extra={f"OEBPS/pad/{i}.txt": b"y" * 100 for i in range(30)})
    with pytest.raises(CorruptBook, match="zip entries"):
        read_epub(path, Limits(max_entries=20))
    with pytest.raises(CorruptBook, match="zip bomb"):
        read_epub(path, Limits(max_total_bytes=2000))
    assert read_epub(path).chapters  # the same book is fine within the default limits


def test_drm_encrypted_book_is_refused(epub2_builder, tmp_path):
    enc = (b'<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
           b'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData>'
           b'<enc:CipherReference URI="OEBPS/text/a.html"/></enc:CipherData></enc:EncryptedData></encryption>')
    path = epub2_builder(tmp_path / "drm.epub", extra={"META-INF/encryption.xml": enc})
    with pytest.raises(CorruptBook) as exc:
        load_book(path)
    assert "DRM" in _one_line(exc)


def test_truncated_epub_is_corrupt(book_files, tmp_path):
    data = book_files["epub3"].read_bytes()
    path = tmp_path / "cut.epub"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptBook) as exc:
        load_book(path)
    assert "EPUB" in _one_line(exc)
