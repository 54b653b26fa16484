"""A book folder as audiobook servers scan it: the sidecars beside the M4B, and whose folder it is.

The layout is Audiobookshelf's (https://www.audiobookshelf.org/docs#book-directory-structure):
`Author/[Series/][N - ]Title/` holds one book. Beside its audio the scanner reads `desc.txt` (the
description), `reader.txt` (the narrator), a `.opf` file (title, author, narrator, publish year,
publisher, ISBN, description, genres, language, series and volume number) and a cover image
(https://www.audiobookshelf.org/docs#book-additional-metadata). Jellyfin's book libraries read
the same `metadata.opf` and `cover.jpg`.

The OPF also records which book the folder holds (`dc:identifier opf:scheme="audiobook-source"`:
its ISBN, URL or UUID, else a digest of the source file's path), so a later run can tell the same
book (its files are replaced, each atomically) from another one that happens to get the same
folder name (which is then filed elsewhere: the pipeline's outpath.library_path decides where).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from xml.sax.saxutils import escape, quoteattr

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as defused

from app.audio.export import BookMeta, cover_file
from app.audio.ffmpeg import run_ffmpeg
from app.book.model import Book
from app.core.files import temp_tag, write_bytes_atomic

OPF_NAME, DESCRIPTION_NAME, NARRATOR_NAME, COVER_NAME = "metadata.opf", "desc.txt", "reader.txt", "cover.jpg"
#: The identifier scheme that says which book a library folder holds.
KEY_SCHEME = "audiobook-source"
#: An existing metadata.opf larger than this is not one this tool wrote (and is not parsed).
MAX_OPF_BYTES = 1 << 20
_OPF_NS = "http://www.idpf.org/2007/opf"
_DC_NS = "http://purl.org/dc/elements/1.1/"
#: The value folder_owner() gives a folder that holds something this tool did not file.
FOREIGN = "(another book)"


def book_key(book: Book) -> str:
    """Return what identifies the book across runs: its ISBN, URL or UUID, else its source file's path."""
    for scheme in ("ISBN", "URL", "UUID"):
        value = next((v for s, v in book.meta.identifiers if s == scheme), "")
        if value:
            return f"{scheme.lower()}:{value}"
    if book.meta.isbn:
        return f"isbn:{book.meta.isbn}"
    return "file:" + hashlib.sha256(str(Path(book.source).expanduser().resolve()).encode()).hexdigest()[:16]


def folder_owner(folder: Path) -> str | None:
    """Return the key of the book a library folder holds, FOREIGN for something else, None when free."""
    if not folder.is_dir():
        return None if not folder.exists() else FOREIGN
    opf = folder / OPF_NAME
    if opf.is_file():
        try:
            data = opf.read_bytes() if opf.stat().st_size <= MAX_OPF_BYTES else b""
            root = defused.fromstring(data)  # the library is shared ground: its files are untrusted XML
        except (OSError, ValueError, defused.ParseError, DefusedXmlException):
            return FOREIGN
        for el in root.iter(f"{{{_DC_NS}}}identifier"):
            if el.get(f"{{{_OPF_NS}}}scheme") == KEY_SCHEME and (el.text or "").strip():
                return el.text.strip()
        return FOREIGN
    # Left-over temp files of a stopped run are no book; anything else is.
    visible = [p for p in folder.iterdir() if not p.name.startswith(".")]
    return FOREIGN if visible else None


def write_sidecars(folder: Path, meta: BookMeta, key: str, *, ffmpeg: str) -> list[Path]:
    """Write cover.jpg, desc.txt, reader.txt and metadata.opf beside the book's audio; return them.

    Each is written atomically; a sidecar the book has nothing for is removed (a re-run after
    the description was dropped must not keep the old one).
    """
    fields = meta.fields()
    written: list[Path] = []
    texts = {DESCRIPTION_NAME: fields.get("long_description", ""), NARRATOR_NAME: meta.narrator}
    for name, text in texts.items():
        path = folder / name
        if text:
            write_bytes_atomic(path, (text.strip() + "\n").encode("utf-8"))
            written.append(path)
        else:
            path.unlink(missing_ok=True)
    cover = folder / COVER_NAME
    if _write_cover(cover, meta, ffmpeg):
        written.append(cover)
    else:
        cover.unlink(missing_ok=True)
    opf = folder / OPF_NAME
    write_bytes_atomic(opf, opf_document(meta, key))
    written.append(opf)
    return written


def _write_cover(path: Path, meta: BookMeta, ffmpeg: str) -> bool:
    """Write the cover as a JPEG (converted when it is another picture); False when the book has none."""
    with cover_file(meta.cover, path.parent, ffmpeg) as picture:
        if picture is None:
            return False
        if picture.suffix == ".jpg":
            write_bytes_atomic(path, picture.read_bytes())
            return True
        tmp = path.with_name(f".{path.stem}.{temp_tag()}.jpg")
        try:
            run_ffmpeg([ffmpeg, "-v", "error", "-y", "-i", str(picture), "-frames:v", "1", "-q:v", "2", str(tmp)])
            write_bytes_atomic(path, tmp.read_bytes())
            return True
        finally:
            tmp.unlink(missing_ok=True)


def opf_document(meta: BookMeta, key: str) -> bytes:
    """Return an OPF 2.0 package of the book's metadata in the form Audiobookshelf's scanner parses.

    Its parser (server/utils/parsers/parseOpfMetadata.js) wants the `metadata` element unprefixed,
    `opf:role`/`opf:file-as` on `dc:creator`, `opf:scheme="ISBN"` identifiers, the year before the
    first "-" of `dc:date`, and `calibre:series` directly followed by `calibre:series_index`. Written
    as text: a serializer given the OPF namespace as default and as `opf:` prefixes the elements.
    """
    d = meta.details
    fields = meta.fields()
    lines: list[str] = []

    def dc(name: str, text: str, **attrs: str) -> None:
        if text:
            extra = "".join(f" {('opf:' + k) if k in ('role', 'file-as', 'scheme') else k}={quoteattr(v)}"
                            for k, v in attrs.items() if v)
            lines.append(f"    <dc:{name}{extra}>{escape(text)}</dc:{name}>")

    dc("title", meta.title, **{"file-as": d.title_sort})
    dc("subtitle", d.subtitle)  # not Dublin Core, but what Audiobookshelf's OPF parser reads
    for person in d.authors:
        dc("creator", person.name, role="aut", **{"file-as": person.sort_name})
    if not d.authors:
        dc("creator", meta.author, role="aut")
    dc("creator", meta.narrator, role="nrt")
    for person in d.translators:
        dc("contributor", person.name, role="trl", **{"file-as": person.sort_name})
    for person in d.editors:
        dc("contributor", person.name, role="edt", **{"file-as": person.sort_name})
    dc("date", fields.get("date", ""))
    dc("publisher", d.publisher)
    dc("language", d.language)
    for genre in fields.get("genre", "").split("; "):
        dc("subject", genre)
    dc("description", fields.get("long_description", ""))
    dc("rights", d.rights)
    dc("identifier", d.isbn, scheme="ISBN")
    dc("identifier", d.url, scheme="URI")
    dc("identifier", key, id="source", scheme=KEY_SCHEME)
    if d.series:
        lines.append(f'    <meta name="calibre:series" content={quoteattr(d.series)}/>')
        if d.series_index:
            lines.append(f'    <meta name="calibre:series_index" content={quoteattr(d.series_index)}/>')
    text = "\n".join([
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<package xmlns="{_OPF_NS}" version="2.0" unique-identifier="source">',
        f'  <metadata xmlns:dc="{_DC_NS}" xmlns:opf="{_OPF_NS}">',
        *lines,
        "  </metadata>",
        "</package>",
        "",
    ])
    return text.encode("utf-8")


__all__ = ["book_key", "folder_owner", "write_sidecars", "opf_document", "FOREIGN", "OPF_NAME",
           "DESCRIPTION_NAME", "NARRATOR_NAME", "COVER_NAME", "KEY_SCHEME"]
