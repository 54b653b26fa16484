"""Read an EPUB 2/3 into chapters from its own table of contents, safely.

ebooklib is not used for reading: it parses XML with entity expansion on and
loads every entry into memory. The container is read with SafeZip (size and
path limits) and every XML file with a non-resolving, offline parser.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree

from app.book.blocks import Block
from app.book.encryption import refuse_encrypted_text
from app.book.html import Document, html_document, parse_html
from app.book.model import Book, Chapter, Cover
from app.book.normalize import clean_paragraphs, clean_text
from app.book.safezip import Limits, SafeZip, parse_xml, resolve
from app.errors import CorruptBook

_HINT = "Use a clean copy of the book, or convert it again with Calibre"
_HTML_TYPES = ("application/xhtml+xml", "text/html", "application/xml", "text/xml")
#: Landmark, guide and epub:type values of pages that are not narration.
NON_NARRATION = frozenset(
    "cover cover-image toc contents index copyright-page copyright colophon imprint loi lot "
    "titlepage title-page halftitlepage halftitle frontispiece footnotes endnotes rearnotes "
    "notes landmarks page-list bibliography glossary".split()
)
#: TOC labels or page titles of pages that are not narration.
_NON_NARRATION_TITLE = re.compile(
    r"^(?:cover|front cover|back cover|title page|title|half[- ]title|contents|table of contents|toc|"
    r"copyright|copyright page|copyrights|index|colophon|imprint|also by\b.*|other books by\b.*|"
    r"list of (?:illustrations|figures|tables|maps)|illustrations|(?:foot|end)?notes|"
    r"about the publisher|newsletter|landmarks|page list)$",
    re.IGNORECASE,
)
_COPYRIGHT_TEXT = re.compile(r"all rights reserved|\bISBN\b|\bcopyright\s*(?:©|\(c\)|\d{4})", re.IGNORECASE)
#: Front matter not in the TOC is kept only when it is this long (a real unlisted prologue).
_UNLISTED_MIN_WORDS = 300


@dataclass
class _Entry:
    """One table-of-contents entry."""

    title: str
    name: str
    fragment: str
    depth: int


@dataclass
class _Package:
    """What the OPF says: metadata, manifest, spine, guide."""

    opf: str
    title: str = ""
    authors: list[str] = field(default_factory=list)
    language: str = "en"
    #: manifest id -> (archive name, media type, properties)
    items: dict[str, tuple[str, str, set[str]]] = field(default_factory=dict)
    spine: list[str] = field(default_factory=list)
    ncx_id: str = ""
    cover_id: str = ""
    guide: list[tuple[str, str]] = field(default_factory=list)


def _local(el: etree._Element) -> str:
    tag = el.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(el: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in el if _local(c) == name]


def _descendants(el: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in el.iter() if _local(c) == name]


def _split_href(base: str, href: str) -> tuple[str | None, str]:
    """Return (archive name, fragment) for an href found in the document at base."""
    return resolve(base, href), unquote(urlsplit(href).fragment)


def _read_package(zf: SafeZip, book: str) -> _Package:
    """Return the parsed OPF package document."""
    opf = None
    try:
        container = parse_xml(zf.read("META-INF/container.xml"), "META-INF/container.xml", book)
    except CorruptBook:
        # A missing or damaged container.xml is survivable: look for the package document directly.
        container = None
    if container is not None:
        for rf in _descendants(container, "rootfile"):
            path = rf.get("full-path") or ""
            if path.endswith(".opf") and zf.has(path):
                opf = path
                break
    if opf is None:
        opf = next((n for n in zf.names() if n.lower().endswith(".opf")), None)
    if opf is None:
        raise CorruptBook(f"{book} has no package document (.opf); it is not an EPUB", hint=_HINT)
    root = parse_xml(zf.read(opf), opf, book)
    pkg = _Package(opf)
    for meta in _descendants(root, "metadata")[:1]:
        for el in meta.iter():
            name, text = _local(el), clean_text("".join(el.itertext()))
            if name == "title" and text and not pkg.title:
                pkg.title = text
            elif name == "creator" and text:
                pkg.authors.append(text)
            elif name == "language" and text and pkg.language == "en":
                pkg.language = text
            elif name == "meta" and (el.get("name") or "").lower() == "cover":
                pkg.cover_id = el.get("content") or ""
    for item in _descendants(root, "item"):
        name = resolve(opf, item.get("href") or "")
        if item.get("id") and name:
            props = set((item.get("properties") or "").split())
            pkg.items[item.get("id")] = (name, (item.get("media-type") or "").lower(), props)
    for spine in _descendants(root, "spine")[:1]:
        pkg.ncx_id = spine.get("toc") or ""
        for ref in _children(spine, "itemref"):
            if ref.get("idref") in pkg.items and (ref.get("linear") or "yes").lower() != "no":
                pkg.spine.append(ref.get("idref"))
    for ref in _descendants(root, "reference"):
        name = resolve(opf, ref.get("href") or "")
        if name:
            pkg.guide.append(((ref.get("type") or "").lower(), name))
    return pkg


def _nav_entries(root: etree._Element, base: str) -> tuple[list[_Entry], list[tuple[str, str]]]:
    """Return the TOC entries and (type, name) landmarks of an EPUB 3 navigation document."""
    entries: list[_Entry] = []
    landmarks: list[tuple[str, str]] = []
    navs = [n for n in root.iter("nav")]
    toc = next((n for n in navs if "toc" in (n.get("epub:type") or "").split()), navs[0] if navs else None)
    for nav in navs:
        if "landmarks" in (nav.get("epub:type") or "").split():
            for a in nav.iter("a"):
                name, _ = _split_href(base, a.get("href") or "")
                if name:
                    for t in (a.get("epub:type") or "").lower().split():
                        landmarks.append((t, name))

    def walk(ol: etree._Element, depth: int) -> None:
        for li in ol:
            if not isinstance(li.tag, str) or li.tag != "li":
                continue
            link = next((c for c in li if c.tag in ("a", "span")), None)
            if link is not None and link.tag == "a" and link.get("href"):
                name, frag = _split_href(base, link.get("href"))
                if name:
                    entries.append(_Entry(clean_text(link.text_content()), name, frag, depth))
            for sub in li:
                if sub.tag == "ol":
                    walk(sub, depth + 1)

    if toc is not None:
        for ol in toc.iter("ol"):
            walk(ol, 1)
            break
    return entries, landmarks


def _ncx_entries(root: etree._Element, base: str) -> list[_Entry]:
    """Return the TOC entries of an EPUB 2 NCX document."""
    entries: list[_Entry] = []

    def walk(parent: etree._Element, depth: int) -> None:
        for point in _children(parent, "navPoint"):
            label = next(iter(_descendants(point, "text")), None)
            content = next(iter(_children(point, "content")), None)
            if content is not None and content.get("src"):
                name, frag = _split_href(base, content.get("src"))
                if name:
                    title = clean_text("".join(label.itertext())) if label is not None else ""
                    entries.append(_Entry(title, name, frag, depth))
            walk(point, depth + 1)

    for nav_map in _descendants(root, "navMap")[:1]:
        walk(nav_map, 1)
    return entries


def _toc(zf: SafeZip, pkg: _Package, book: str) -> tuple[list[_Entry], list[tuple[str, str]], str | None]:
    """Return the TOC entries, landmarks and the nav document's name (EPUB 3 nav, else NCX)."""
    nav = next((v[0] for v in pkg.items.values() if "nav" in v[2]), None)
    if nav and zf.has(nav):
        entries, landmarks = _nav_entries(parse_html(zf.read(nav), f"{book}: {nav}"), nav)
        if entries:
            return entries, landmarks, nav
    else:
        landmarks = []
    ncx = pkg.items.get(pkg.ncx_id) or next(
        (v for v in pkg.items.values() if v[1] == "application/x-dtbncx+xml"), None
    )
    if ncx and zf.has(ncx[0]):
        return _ncx_entries(parse_xml(zf.read(ncx[0]), ncx[0], book), ncx[0]), landmarks, nav
    return [], landmarks, nav


def _non_narration(doc: Document, name: str, marked: set[str]) -> bool:
    """Return whether a spine document is cover, contents, copyright, index or similar."""
    if name in marked or doc.types & NON_NARRATION:
        return True
    heading = next((clean_text(b.text) for b in doc.blocks if b.level), "")
    if _NON_NARRATION_TITLE.match(doc.title.strip(" .:")) or _NON_NARRATION_TITLE.match(heading.strip(" .:")):
        return True
    words = sum(len(b.text.split()) for b in doc.blocks)
    return words < 400 and any(_COPYRIGHT_TEXT.search(b.text) for b in doc.blocks)


def _cover(zf: SafeZip, pkg: _Package) -> Cover | None:
    """Return the cover image named by the manifest (EPUB 3 property, else EPUB 2 meta)."""
    item = next((v for v in pkg.items.values() if "cover-image" in v[2]), None) or pkg.items.get(pkg.cover_id)
    if item is None:
        item = next(
            (v for k, v in pkg.items.items() if v[1].startswith("image/") and "cover" in (k + v[0]).lower()), None
        )
    if item is None or not item[1].startswith("image/") or not zf.has(item[0]):
        return None
    data = zf.read(item[0])
    return Cover(data, item[1]) if data else None


def _find(blocks: list[Block], fragment: str) -> int:
    """Return the index of the block where an anchor starts (0 when it is not found)."""
    if fragment:
        for i, b in enumerate(blocks):
            if fragment in b.ids:
                return i
    return 0


def read_epub(path: Path, limits: Limits | None = None) -> Book:
    """Return the narrated chapters of an EPUB, with metadata and cover."""
    book = path.name
    with SafeZip(path, limits) as zf:
        pkg = _read_package(zf, book)
        refuse_encrypted_text(zf, {pkg.opf, *(name for name, media, _ in pkg.items.values()
                                              if media in _HTML_TYPES or media.endswith("ncx+xml"))}, book)
        entries, landmarks, nav = _toc(zf, pkg, book)
        marked = {name for kind, name in landmarks + pkg.guide if kind in NON_NARRATION}
        if nav:
            marked.add(nav)
        docs: dict[str, Document] = {}
        order: list[str] = []
        for idref in pkg.spine:
            name, media, _ = pkg.items[idref]
            if media not in _HTML_TYPES or name in docs or not zf.has(name):
                continue
            doc = html_document(zf.read(name), f"{book}: {name}")
            docs[name] = doc
            if not _non_narration(doc, name, marked):
                order.append(name)
        chapters = _toc_chapters(entries, docs, order) or _spine_chapters(docs, order)
        cover = _cover(zf, pkg)
        hints = _pronunciation_hints(zf, pkg, docs.values())
    return Book(
        title=pkg.title, author=", ".join(pkg.authors), chapters=tuple(chapters), source=path,
        language=pkg.language, cover=cover, lexicon=hints,
    )


def _pronunciation_hints(zf: SafeZip, pkg: _Package, docs) -> tuple[tuple[str, str, str], ...]:
    """Return the book's PLS lexicons and ssml:ph marks (EPUB 3 text-to-speech enhancements)."""
    from app.book.lexicon import book_hints, parse_pls

    pls = {}
    for name, media, _ in pkg.items.values():
        if media == "application/pls+xml" and zf.has(name):
            pls.update(parse_pls(zf.read(name), name))
    return book_hints(pls, {word: ipa for doc in docs for word, ipa in doc.phonemes.items()})


def _usable_entries(
    entries: list[_Entry], docs: dict[str, Document], order: list[str]
) -> list[tuple[tuple[int, int] | None, _Entry]]:
    """Return TOC entries in reading order, with same-file sub-entries folded into their parent."""
    position = {name: i for i, name in enumerate(order)}
    kept: list[_Entry] = []
    parents: dict[int, _Entry] = {}
    for e in entries:
        parents[e.depth] = e
        parent = parents.get(e.depth - 1)
        if e.name not in docs:
            continue
        # A section anchor inside its chapter's own file is not a chapter of its own.
        if parent is not None and e.depth > 1 and parent.name == e.name and e.fragment:
            continue
        kept.append(e)
    located: list[tuple[tuple[int, int] | None, _Entry]] = []
    for e in kept:
        if e.name in position:
            located.append(((position[e.name], _find(docs[e.name].blocks, e.fragment)), e))
        else:
            located.append((None, e))
    return located


def _toc_chapters(entries: list[_Entry], docs: dict[str, Document], order: list[str]) -> list[Chapter]:
    """Return chapters spanning from each TOC entry to the next, in spine order."""
    located = [(pos, e) for pos, e in _usable_entries(entries, docs, order) if pos is not None]
    if not located:
        return []
    starts: dict[tuple[int, int], _Entry] = {}
    for pos, e in sorted(located, key=lambda x: x[0]):
        starts.setdefault(pos, e)
    bounds = sorted(starts)
    chapters: list[tuple[str, tuple[str, ...]]] = []
    first = bounds[0]
    for i in range(first[0]):
        doc = docs[order[i]]
        paras = clean_paragraphs(b.text for b in doc.blocks)
        if sum(len(p.split()) for p in paras) >= _UNLISTED_MIN_WORDS:
            chapters.append((_doc_title(doc, ""), paras))
    if first[1] > 0:
        pre = docs[order[first[0]]].blocks[: first[1]]
        paras = clean_paragraphs(b.text for b in pre)
        if sum(len(p.split()) for p in paras) >= _UNLISTED_MIN_WORDS:
            chapters.append((_doc_title(Document(pre), ""), paras))
    for k, start in enumerate(bounds):
        end = bounds[k + 1] if k + 1 < len(bounds) else (len(order), 0)
        blocks: list[Block] = []
        for i in range(start[0], min(end[0], len(order) - 1) + 1):
            doc_blocks = docs[order[i]].blocks
            lo = start[1] if i == start[0] else 0
            hi = end[1] if i == end[0] else len(doc_blocks)
            blocks.extend(doc_blocks[lo:hi])
        entry = starts[start]
        if _NON_NARRATION_TITLE.match(entry.title.strip(" .:")):
            continue
        chapters.append((entry.title or _doc_title(Document(blocks), ""), clean_paragraphs(b.text for b in blocks)))
    return _numbered(chapters)


def _doc_title(doc: Document, fallback: str) -> str:
    """Return a document's first heading, else its <title>, else the fallback."""
    heading = next((clean_text(b.text) for b in doc.blocks if b.level), "")
    return heading or doc.title or fallback


def _spine_chapters(docs: dict[str, Document], order: list[str]) -> list[Chapter]:
    """Return one chapter per narrated spine document (no usable TOC)."""
    return _numbered([(_doc_title(docs[n], ""), clean_paragraphs(b.text for b in docs[n].blocks)) for n in order])


def _numbered(chapters: list[tuple[str, tuple[str, ...]]]) -> list[Chapter]:
    """Return the non-empty chapters numbered from 1, untitled ones named by number."""
    out: list[Chapter] = []
    for title, paras in chapters:
        if paras:
            n = len(out) + 1
            out.append(Chapter(n, title or f"Chapter {n}", paras))
    return out
