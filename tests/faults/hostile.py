"""Hostile inputs for the fault suite, generated at test time (nothing large is committed)."""
from __future__ import annotations

import zipfile
from pathlib import Path

CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
             'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
             '</rootfiles></container>')


def opf(chapters: list[str], *, title: str = "Hostile Book", cover: tuple[str, str] | None = None,
        doctype: str = "") -> str:
    """Return a minimal EPUB 3 package document listing chapter files `chapters` (and a cover image)."""
    items = "".join(f'<item id="c{i}" href="{name}" media-type="application/xhtml+xml"/>'
                    for i, name in enumerate(chapters))
    spine = "".join(f'<itemref idref="c{i}"/>' for i in range(len(chapters)))
    meta = ""
    if cover:
        items += f'<item id="cover" href="{cover[0]}" media-type="{cover[1]}" properties="cover-image"/>'
        meta = '<meta name="cover" content="cover"/>'
    return (f'<?xml version="1.0" encoding="utf-8"?>{doctype}<package xmlns="http://www.idpf.org/2007/opf" '
            f'version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
            f'<dc:identifier id="id">hostile</dc:identifier><dc:title>{title}</dc:title>'
            f'<dc:creator>Tester</dc:creator><dc:language>en</dc:language>{meta}</metadata>'
            f'<manifest>{items}</manifest><spine>{spine}</spine></package>')


def xhtml(title: str, body: str) -> str:
    return ('<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
            f'<head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>')


def write_epub(path: Path, entries: dict[str, bytes | str], *, package: str | bytes | None = None) -> Path:
    """Write an EPUB whose OEBPS/ entries are `entries` (name -> content) and return its path."""
    chapters = [n for n in entries if n.endswith(".xhtml")]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        zf.writestr("META-INF/container.xml", CONTAINER)
        zf.writestr("OEBPS/content.opf", package if package is not None else opf(chapters))
        for name, data in entries.items():
            zf.writestr(name if name.startswith("META-INF/") else f"OEBPS/{name}", data)
    return path


def prose(sentences: int, word: str = "river") -> str:
    """Return `sentences` short distinct sentences."""
    return " ".join(f"The {word} ran past stone number {i}." for i in range(sentences))
