"""Read a FictionBook (FB2, or FB2 in a ZIP) with defusedxml: its section tree as chapters, notes out.

FB2 is one XML file: <description> holds the title, authors, language and the cover's id;
<body> holds <section>s, each with an optional <title>, nested to any depth. The main body's
section tree is the book's own table of contents, so it gives the chapters (fb2sections.py);
only a body with no section at all is split by the shared heading rule. The notes body
(<body name="notes">) and note links (<a type="note">) are not read.
Declared encodings (windows-1251, KOI8-R, UTF-16...) are honoured by the XML parser; a file
that declares none and is not UTF-8 is read as windows-1251, the usual one of FB2 books.
"""
from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from app.book.structure.blocks import Block, split_chapters
from app.book.formats.fb2sections import section_chapters
from app.book.formats.table import book_suffix
from app.book.inputfile import read_book_bytes
from app.book.formats.language import guess_language
from app.book.model import Book, Cover, ReadOptions
from app.book.normalize import clean_text
from app.book.safezip import Limits, SafeZip
from app.core.errors import CorruptBook

#: FB2 files larger than this are refused (a long novel is ~5 MB; pictures are inlined in base64).
MAX_FB2_BYTES = 96 * 1024 * 1024
_HINT = "Use a clean copy of the book"
_DECLARED = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_XLINK = "{http://www.w3.org/1999/xlink}href"
_BLOCK_TAGS = frozenset({"p", "subtitle", "text-author", "v"})


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _fb2_bytes(path: Path) -> bytes:
    if book_suffix(path) == ".fb2.zip" or read_book_bytes(path, MAX_FB2_BYTES)[:4] == b"PK\x03\x04":
        with SafeZip(path, Limits(max_entries=100, max_entry_bytes=MAX_FB2_BYTES,
                                  max_total_bytes=MAX_FB2_BYTES)) as zf:
            inner = [n for n in zf.names() if n.lower().endswith(".fb2")]
            if not inner:
                raise CorruptBook(f"{path.name} holds no .fb2 file", hint=_HINT)
            return zf.read(inner[0])
    return read_book_bytes(path, MAX_FB2_BYTES)


def _parse(data: bytes, name: str) -> ET.Element:
    """Return the FB2's root, entities and DTDs refused, its encoding honoured."""
    if not _DECLARED.match(data) and not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1251", errors="replace")
            data = re.sub(r"^\s*<\?xml[^>]*\?>", "", text, count=1).encode("utf-8")
    try:
        return SafeET.fromstring(data, forbid_dtd=True)
    except DefusedXmlException:
        raise CorruptBook(f"{name} declares a DTD or XML entities, which this tool refuses to expand",
                          hint=_HINT) from None
    except (ET.ParseError, ValueError, LookupError) as exc:
        raise CorruptBook(f"{name} is not readable FB2 XML ({exc})", hint=_HINT) from None


def _inline(el: ET.Element) -> str:
    """Return an element's text with note links (<a type="note">) left out."""
    parts = [el.text or ""]
    stack: list[tuple[ET.Element, bool]] = [(c, False) for c in reversed(list(el))]
    while stack:
        node, closing = stack.pop()
        if closing:
            parts.append(node.tail or "")
            continue
        if _local(node.tag) == "a" and (node.get("type") == "note" or (node.get(_XLINK) or "").startswith("#n")
                                        and (node.text or "").strip().strip("[]{}()*").isdigit()):
            parts.append(node.tail or "")
            continue
        parts.append(node.text or "")
        stack.append((node, True))
        stack.extend((c, False) for c in reversed(list(node)))
    # A note link taken out of "note [1]." leaves "note ." behind.
    return re.sub(r"\s+([.,;:!?])", r"\1", clean_text("".join(parts)))


def _blocks(body: ET.Element, options: ReadOptions, start: int = 0) -> list[Block]:
    """Return a body's blocks: section titles as headings at their depth, paragraphs, stanzas, table rows.

    Text outside every section after the first one (a colophon some converters leave in the body,
    where FB2 allows none) is back matter: read only with the matter. `start`: the depth of the
    element's children (1 for a section's, whose own title is then a level-1 heading).
    """
    blocks: list[Block] = []
    # (element, section depth); iterative, so deep nesting cannot overflow the stack.
    stack: list[tuple[ET.Element, int]] = [(c, start) for c in reversed(list(body))]
    sections = 0
    while stack:
        el, depth = stack.pop()
        tag = _local(el.tag)
        if depth == 0 and sections and tag != "section" and not options.include_matter:
            continue
        if tag == "section":
            sections += depth == 0
            stack.extend((c, depth + 1) for c in reversed(list(el)))
        elif tag == "title":
            text = clean_text(" ".join(_inline(p) for p in el if _local(p.tag) == "p"))
            if text and depth:
                blocks.append(Block(text, min(6, depth)))
        elif tag == "stanza":
            lines = [_inline(v) for v in el if _local(v.tag) == "v"]
            text = clean_text(" ".join(line for line in lines if line))
            if text:
                blocks.append(Block(text))
        elif tag == "tr":
            row = "; ".join(t for t in (_inline(c) for c in el) if t)
            if row:
                blocks.append(Block(row))
        elif tag in _BLOCK_TAGS:
            text = _inline(el)
            if text:
                blocks.append(Block(text))
        elif tag in ("epigraph", "cite", "poem", "table", "annotation"):
            stack.extend((c, depth) for c in reversed(list(el)))
    return blocks


def _person(el: ET.Element | None) -> str:
    if el is None:
        return ""
    parts = [clean_text(c.text or "") for c in el if _local(c.tag) in ("first-name", "middle-name", "last-name")]
    return " ".join(p for p in parts if p) or clean_text(" ".join(el.itertext()))


def _child(el: ET.Element | None, name: str) -> ET.Element | None:
    if el is None:
        return None
    return next((c for c in el if _local(c.tag) == name), None)


def _cover(root: ET.Element, info: ET.Element | None) -> Cover | None:
    image = _child(_child(info, "coverpage"), "image")
    ref = (image.get(_XLINK) or "").lstrip("#") if image is not None else ""
    if not ref:
        return None
    for binary in root:
        if _local(binary.tag) == "binary" and binary.get("id") == ref:
            try:
                data = base64.b64decode("".join((binary.text or "").split()), validate=False)
            except (binascii.Error, ValueError):
                return None
            media = binary.get("content-type") or "image/jpeg"
            return Cover(data, media) if media in ("image/jpeg", "image/png") and data else None
    return None


def read_fb2(path: Path, options: ReadOptions) -> Book:
    """Return the narrated chapters of an FB2 book, with title, authors, language and cover."""
    root = _parse(_fb2_bytes(path), path.name)
    if _local(root.tag) != "FictionBook":
        raise CorruptBook(f"{path.name} is not a FictionBook (its root is <{_local(root.tag)}>)", hint=_HINT)
    info = _child(_child(root, "description"), "title-info")
    title_el = _child(info, "book-title")
    title = clean_text(" ".join(title_el.itertext())) if title_el is not None else ""
    authors = [_person(a) for a in (info if info is not None else []) if _local(a.tag) == "author"]
    lang = clean_text((_child(info, "lang").text or "") if _child(info, "lang") is not None else "")
    bodies = [b for b in root if _local(b.tag) == "body" and (b.get("name") or "") not in ("notes", "comments")]
    chapters = section_chapters(bodies, title or path.stem, options, _blocks, _inline)
    if chapters is None:  # no section at all (FB2 requires one): the shared heading rule
        chapters = split_chapters([blk for body in bodies for blk in _blocks(body, options)], title or path.stem,
                                  options)
    return Book(title=title, author=", ".join(a for a in authors if a), chapters=tuple(chapters), source=path,
                language=options.language or lang.split("-")[0].lower()
                or guess_language(p for c in chapters for p in c.paragraphs), cover=_cover(root, info))
