"""Read an EPUB 2/3 into chapters from its own table of contents, safely.

ebooklib is not used for reading: it parses XML with entity expansion on and
loads every entry into memory. The container is read with SafeZip (size and
path limits) and every XML file with a non-resolving, offline parser.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path


from app.book.structure.blocks import UNLISTED_MIN_WORDS, Block
from app.book.structure.blocks import body_words, narration
from app.book.narration.cleanup import is_matter_title, real_title
from app.book.formats.epubcrypt import refuse_encrypted_text
from app.book.formats.epubnested import located
from app.book.structure.blocks import Document
from app.book.formats.html import html_document
from app.book.model import Book, Chapter, Cover, Metadata, ReadOptions
from app.book.formats.epubopf import colophon_year, is_standard_ebooks, read_opf_metadata
from app.book.normalize import clean_text
from app.book.safezip import Limits, SafeZip, parse_xml, resolve
from app.book.formats.epubtoc import Entry, chapter_entries, children, descendants, local, read_toc
from app.book.structure.lines import is_named_heading, leading_number, numbering_restarts
from app.core.errors import CorruptBook
from app.book.lexicon import book_hints, parse_pls

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
#: Language names --language may give, as primary subtags (codes pass through as they are).
_LANGUAGE_NAMES = {
    "english": "en", "german": "de", "deutsch": "de", "french": "fr", "spanish": "es", "italian": "it",
    "portuguese": "pt", "dutch": "nl", "russian": "ru", "polish": "pl", "chinese": "zh", "japanese": "ja",
    "korean": "ko",
}


@dataclass
class _Package:
    """What the OPF says: metadata, manifest, spine, guide."""

    opf: str
    title: str = ""
    authors: list[str] = field(default_factory=list)
    #: dc:language values in order; the first is the book's.
    languages: list[str] = field(default_factory=list)
    #: manifest id -> (archive name, media type, properties)
    items: dict[str, tuple[str, str, set[str]]] = field(default_factory=dict)
    spine: list[str] = field(default_factory=list)
    ncx_id: str = ""
    cover_id: str = ""
    guide: list[tuple[str, str]] = field(default_factory=list)
    #: Everything else the metadata says (app/book/formats/epubopf.py).
    meta: Metadata = field(default_factory=Metadata)

    @property
    def language(self) -> str:
        return self.languages[0] if self.languages else "en"


def _read_package(zf: SafeZip, book: str) -> _Package:
    """Return the parsed OPF package document."""
    opf = None
    try:
        container = parse_xml(zf.read("META-INF/container.xml"), "META-INF/container.xml", book)
    except CorruptBook:
        # A missing or damaged container.xml is survivable: look for the package document directly.
        container = None
    if container is not None:
        for rf in descendants(container, "rootfile"):
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
    for meta in descendants(root, "metadata")[:1]:
        for el in meta.iter():
            name, text = local(el), clean_text("".join(el.itertext()))
            if name == "title" and text and not pkg.title:
                pkg.title = text
            elif name == "creator" and text:
                pkg.authors.append(text)
            elif name == "language" and text:
                pkg.languages.append(text)
            elif name == "meta" and (el.get("name") or "").lower() == "cover":
                pkg.cover_id = el.get("content") or ""
    for item in descendants(root, "item"):
        name = resolve(opf, item.get("href") or "")
        if item.get("id") and name:
            props = set((item.get("properties") or "").split())
            pkg.items[item.get("id")] = (name, (item.get("media-type") or "").lower(), props)
    for spine in descendants(root, "spine")[:1]:
        pkg.ncx_id = spine.get("toc") or ""
        for ref in children(spine, "itemref"):
            if ref.get("idref") in pkg.items and (ref.get("linear") or "yes").lower() != "no":
                pkg.spine.append(ref.get("idref"))
    for ref in descendants(root, "reference"):
        name = resolve(opf, ref.get("href") or "")
        if name:
            pkg.guide.append(((ref.get("type") or "").lower(), name))
    pkg.meta = read_opf_metadata(root)
    if pkg.meta.authors:
        # Creators in another role (an illustrator, a translator) are not the author line.
        pkg.authors = [p.name for p in pkg.meta.authors]
    if is_standard_ebooks(root) and not pkg.meta.year:
        pkg.meta = replace(pkg.meta, year=_colophon_year(zf, pkg, book))
    return pkg


def _colophon_year(zf: SafeZip, pkg: _Package, book: str) -> str:
    """Return the work's year from a Standard Ebooks colophon page, else ""."""
    for name, media, _ in pkg.items.values():
        if media in _HTML_TYPES and "colophon" in name.rsplit("/", 1)[-1].lower() and zf.has(name):
            try:
                return colophon_year(parse_xml(zf.read(name), name, book))
            except CorruptBook:
                return ""
    return ""


def _non_narration(doc: Document, name: str, marked: set[str], listed: set[str]) -> bool:
    """Return whether a spine document is cover, contents, copyright, index or similar."""
    if name in marked or doc.types & NON_NARRATION:
        return True
    heading = next((clean_text(b.text) for b in doc.blocks if b.level), "")
    if _NON_NARRATION_TITLE.match(doc.title.strip(" .:")) or _NON_NARRATION_TITLE.match(heading.strip(" .:")):
        return True
    if name in listed:
        # A page the TOC lists as a chapter is never dropped for a copyright line in its footer.
        return False
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


def _primary(language: str) -> str:
    """Return a language's primary subtag ("de" for "de-AT" or "German"), lower case."""
    code = language.strip().lower().replace("_", "-").split("-")[0]
    return _LANGUAGE_NAMES.get(code, code)


def _in_language(order: list[str], docs: dict[str, Document], language: str) -> list[str]:
    """Return the spine documents in the book's language when the spine holds several translations."""
    wanted = _primary(language)
    marked = {n: _primary(docs[n].language) for n in order if docs[n].language}
    if len(set(marked.values())) < 2 or wanted not in marked.values():
        return order
    return [n for n in order if marked.get(n, wanted) == wanted]


def read_epub(
    path: Path, limits: Limits | None = None, options: ReadOptions | None = None, kindle: bool = False
) -> Book:
    """Return the narrated chapters of an EPUB, with metadata and cover; `kindle`: the EPUB a Kindle book
    unpacks to, whose chapters are its table of contents' own (epubnested.located)."""
    options = options or ReadOptions()
    book = path.name
    with SafeZip(path, limits) as zf:
        pkg = _read_package(zf, book)
        refuse_encrypted_text(zf, {pkg.opf, *(name for name, media, _ in pkg.items.values()
                                              if media in _HTML_TYPES or media.endswith("ncx+xml"))}, book)
        entries, landmarks, nav = read_toc(zf, pkg.items, pkg.ncx_id, book)
        entries = chapter_entries(entries)
        marked = set() if options.include_matter else {
            name for kind, name in landmarks + pkg.guide if kind in NON_NARRATION
        }
        listed = {e.name for e in entries if not _matter_entry(e.title)}
        docs: dict[str, Document] = {}
        order: list[str] = []
        for idref in pkg.spine:
            name, media, _ = pkg.items[idref]
            if media not in _HTML_TYPES or name in docs or not zf.has(name) or name == nav:
                continue
            doc = html_document(zf.read(name), f"{book}: {name}")
            docs[name] = doc
            if options.include_matter or not _non_narration(doc, name, marked, listed):
                order.append(name)
        order = _in_language(order, docs, options.language or pkg.language)
        title = real_title(pkg.title, path.stem) or next(
            (h for h in (_heading(docs[n]) for n in docs) if h), ""
        )
        chapters = (_toc_chapters(entries, docs, order, options, title, kindle)
                    or _spine_chapters(docs, order, options))
        cover = _cover(zf, pkg)
        hints = _pronunciation_hints(zf, pkg, docs.values())
    return Book(
        title=title, author=", ".join(pkg.authors), chapters=tuple(chapters), source=path,
        language=pkg.language, cover=cover, lexicon=hints, meta=pkg.meta,
    )


def _pronunciation_hints(zf: SafeZip, pkg: _Package, docs) -> tuple[tuple[str, str, str], ...]:
    """Return the book's PLS lexicons and ssml:ph marks (EPUB 3 text-to-speech enhancements)."""

    pls = {}
    for name, media, _ in pkg.items.values():
        if media == "application/pls+xml" and zf.has(name):
            pls.update(parse_pls(zf.read(name), name))
    return book_hints(pls, {word: ipa for doc in docs for word, ipa in doc.phonemes.items()})


def _matter_entry(title: str) -> bool:
    """Return whether a TOC label names a page that is not narration (contents, licence, index)."""
    return bool(_NON_NARRATION_TITLE.match(title.strip(" .:"))) or is_matter_title(title)


def _toc_chapters(
    entries: list[Entry], docs: dict[str, Document], order: list[str], options: ReadOptions, book_title: str,
    kindle: bool = False,
) -> list[Chapter]:
    """Return chapters spanning from each TOC entry to the next, in spine order."""
    starts: dict[tuple[int, int], Entry] = {}
    for pos, e in sorted(located(entries, docs, order, kindle), key=lambda x: x[0]):
        starts.setdefault(pos, e)
    if not starts:
        return []
    bounds = sorted(starts)
    spans: list[tuple[str, list[Block], bool]] = []
    first = bounds[0]
    for i in range(first[0]):
        spans.append(("", docs[order[i]].blocks, False))
    if first[1] > 0:
        spans.append(("", docs[order[first[0]]].blocks[: first[1]], False))
    for k, start in enumerate(bounds):
        end = bounds[k + 1] if k + 1 < len(bounds) else (len(order), 0)
        blocks: list[Block] = []
        for i in range(start[0], min(end[0], len(order) - 1) + 1):
            doc_blocks = docs[order[i]].blocks
            lo = start[1] if i == start[0] else 0
            hi = end[1] if i == end[0] else len(doc_blocks)
            blocks.extend(doc_blocks[lo:hi])
        spans.append((starts[start].title, blocks, True))
    return _numbered(_fold_parts(spans, options, book_title))


def _fold_parts(
    spans: list[tuple[str, list[Block], bool]], options: ReadOptions, book_title: str
) -> list[tuple[str, tuple[str, ...]]]:
    """Return (title, paragraphs): unlisted front pages only when long, part-title pages in the next title."""
    out: list[tuple[str, tuple[str, ...]]] = []
    prefix = part = ""
    # Where each part numbers its chapters from one, every chapter names its part ("Book the Second, I: ...").
    restarts = numbering_restarts([t for t, bs, listed in spans if listed and body_words(bs)])
    for n, (title, blocks, listed) in enumerate(spans):
        if listed and _matter_entry(title) and not options.include_matter:
            continue
        if not listed:
            if options.include_matter or body_words(blocks) >= UNLISTED_MIN_WORDS:
                out.append((_heading(Document(blocks)), narration(blocks, options)))
            continue
        if not body_words(blocks) and n + 1 < len(spans):
            # A page that is only a title ("Part II: Customizing") names the chapters that follow it.
            if title and clean_text(title).casefold() != book_title.casefold():
                prefix = f"{prefix}: {title}" if prefix else title
            continue
        if prefix:
            part = prefix if restarts and leading_number(title) else ""
            full = (f"{prefix}, {title}" if part else f"{prefix}: {title}") if title else prefix
            prefix = ""
        elif part and title and not is_named_heading(title) and not _matter_entry(title):
            full = f"{part}, {title}"
        else:
            full, part = title, ""
        out.append((full or _heading(Document(blocks)), narration(blocks, options)))
    return out


def _heading(doc: Document) -> str:
    """Return a document's first heading, else its <title>."""
    return next((clean_text(b.text) for b in doc.blocks if b.level), "") or doc.title


def _spine_chapters(docs: dict[str, Document], order: list[str], options: ReadOptions) -> list[Chapter]:
    """Return one chapter per narrated spine document (no usable TOC)."""
    return _numbered([(_heading(docs[n]), narration(docs[n].blocks, options)) for n in order])


def _numbered(chapters: list[tuple[str, tuple[str, ...]]]) -> list[Chapter]:
    """Return the non-empty chapters numbered from 1, untitled ones named by number."""
    out: list[Chapter] = []
    for title, paras in chapters:
        if paras:
            n = len(out) + 1
            out.append(Chapter(n, title or f"Chapter {n}", paras))
    return out
