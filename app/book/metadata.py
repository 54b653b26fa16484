"""The book's metadata for every input format: what the readers leave out, read here, and made whole.

EPUB metadata is the package's (app/book/formats/epubopf.py, called by the EPUB reader). For the other
formats this module reads the head of the file once more (at most HEAD_BYTES, the same way the
readers open it) for what their readers do not take:

- plain text and HTML: a Project Gutenberg header ("Title:", "Author:", "Translator:",
  "Editor:", "Release Date: … [EBook #9198]", "Language: English", "Original publication: …
  1902"), and the year on the title page after it ("Copyright, 1902", a line that is only a year);
  the release date is Gutenberg's, never the work's year;
- HTML: `<meta>` tags (`description`, `keywords`, Dublin Core `DC.*`/`dcterms.*`) and `<html lang>`;
- Markdown: its YAML front matter, with pandoc's names (`subtitle`, `author`, `translator`,
  `editor`, `date`, `lang`, `publisher`, `rights`, `subject`/`keywords`/`tags`, `description`/
  `abstract`, `identifier`/`isbn`, `series`/`belongs-to-collection`, `series-index`/`group-position`).

`complete()` then fills what every format shares from the Book itself (the author line, its
language), so a reader that fills only title, author and language still gives whole metadata.
"""
from __future__ import annotations

import dataclasses
import datetime
import html
import os
import re
from pathlib import Path

from app.book.narration import gutenberg
from app.book.model import Book, Metadata, Person
from app.book.normalize import clean_text
from app.book.formats.epubopf import plain_text, valid_isbn, work_year
from app.book.formats.html import decode_markup
from app.book.formats.txt import decode_text

#: Bytes of a text, Markdown or HTML file read for its metadata: a Gutenberg header and title
#: page, front matter or an HTML head sit well inside this.
HEAD_BYTES = 256 * 1024
#: Lines after the START marker that make the title page (its year, its copyright line).
_TITLE_PAGE_LINES = 80
_EBOOK_NUMBER = re.compile(r"\[\s*e-?book\s*#\s*(\d+)\s*\]", re.IGNORECASE)
_ANY_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")
_COPYRIGHT_YEAR = re.compile(r"^\W*copyright\W+(?:by\s+)?(?:\D{0,40}?)(1[5-9]\d{2}|20\d{2})\b", re.IGNORECASE)
_BARE_YEAR = re.compile(r"^\W*(1[5-9]\d{2}|20\d{2})\W*$")
_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
#: Between the people of a credit line ("A and B", "A; B", "A & B"); commas only inside each part.
_PEOPLE_SPLIT = re.compile(r"\s*(?:;|&|\band\b)\s*")
_NAME_SPLIT = re.compile(r"\s*,\s*(?=[A-Z][^,]*\s)\s*")
_TAGS = re.compile(r"<[^>]*>")


def people(value: str) -> tuple[Person, ...]:
    """Return the people a credit line names ("A and B", "A; B", "A, B"), each once.

    A catalogue's "Austen, Jane, 1775-1817" (Gutenberg's dc.creator) or "Dickens, Charles" is one
    person written surname first: gutenberg.catalogue_form reads it, as the Gutenberg readers do.
    """
    value = clean_text(value)
    found: dict[str, Person] = {}
    for part in _PEOPLE_SPLIT.split(value) if value else ():
        name, file_as = gutenberg.catalogue_form(part)
        if file_as:
            found.setdefault(name, Person(name, file_as))
            continue
        for n in _NAME_SPLIT.split(name):
            n = n.strip(" .,") if n.strip().endswith(",") else n.strip(" ,")
            if n:
                found.setdefault(n, Person(n))
    return tuple(found.values())


# -- plain text and Gutenberg ------------------------------------------------------------------

def gutenberg_metadata(text: str) -> Metadata:
    """Return what a Project Gutenberg header and the title page after it say; empty for other texts.

    The header is found and read by app/book/narration/gutenberg.py, the same rules the text and HTML readers cut it by.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    # HTML's text keeps its markup's indentation: the markers are looked for on the line's own words.
    start = gutenberg.header_end([line.strip() for line in lines])
    if not start:
        return Metadata()
    header = "\n".join(lines[:start])
    fields = gutenberg.header_fields(header)
    number = next((m.group(1) for m in [_EBOOK_NUMBER.search(header)] if m), "")
    url = f"https://www.gutenberg.org/ebooks/{number}" if number else ""
    year = ""
    if "original publication" in fields:
        years = _ANY_YEAR.findall(fields["original publication"])
        year = years[-1] if years else ""
    year = year or _title_page_year(lines[start:start + _TITLE_PAGE_LINES])
    return Metadata(
        subtitle=clean_text(fields.get("subtitle", "")),
        authors=people(fields.get("author", "")),
        translators=people(fields.get("translator", "")),
        editors=people(fields.get("editor", "")),
        year=year,
        language=gutenberg.language_code(fields.get("language", "")),
        url=url,
        identifiers=(("URL", url),) if url else (),
    )


def _title_page_year(lines: list[str]) -> str:
    """Return the year of a title page: its copyright line, else a line that is only a year."""
    for line in lines:
        m = _COPYRIGHT_YEAR.match(line.strip().strip("_*"))
        if m:
            return m.group(1)
    for line in lines:
        m = _BARE_YEAR.match(line.strip())
        if m:
            return m.group(1)
    return ""


# -- HTML ---------------------------------------------------------------------------------------

_META = re.compile(r"<meta\b([^>]*)>", re.IGNORECASE)
_ATTR = re.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_HTML_LANG = re.compile(r"<html\b[^>]*?\blang\s*=\s*[\"']?([A-Za-z0-9_-]+)", re.IGNORECASE)
_BODY_BREAKS = re.compile(r"<(?:br|/p|/div|/pre|/h\d|/li|/tr)\b[^>]*>", re.IGNORECASE)


def html_metadata(markup: str) -> Metadata:
    """Return what an HTML file's head says (meta tags, lang), then a Gutenberg header in its text."""
    head = markup.split("</head>", 1)[0] if "</head>" in markup.lower() else markup[:HEAD_BYTES // 4]
    tags: dict[str, list[str]] = {}
    for m in _META.finditer(head):
        attrs = {a.group(1).lower(): html.unescape(a.group(2) or a.group(3) or a.group(4) or "")
                 for a in _ATTR.finditer(m.group(1))}
        name = (attrs.get("name") or attrs.get("property") or "").lower()
        if name and attrs.get("content", "").strip():
            tags.setdefault(name, []).append(clean_text(attrs["content"]))

    def first(*names: str) -> str:
        return next((tags[n][0] for n in names if tags.get(n)), "")

    subjects = [s for n in ("dc.subject", "dcterms.subject", "keywords") for v in tags.get(n, [])
                for s in (v.split(",") if n == "keywords" else [v]) if s.strip()]
    identifiers = [v for n in ("dc.identifier", "dcterms.identifier") for v in tags.get(n, [])]
    isbn = next((valid_isbn(v) for v in identifiers if valid_isbn(v)), "")
    url = next((v for v in identifiers if v.startswith(("http://", "https://"))), "")
    lang = _HTML_LANG.search(head)
    own = Metadata(
        publisher=first("dc.publisher", "dcterms.publisher"),
        year=work_year(first("dcterms.issued", "dc.date.issued", "dcterms.created", "dc.date")),
        language=first("dc.language", "dcterms.language") or (lang.group(1) if lang else ""),
        subjects=tuple(dict.fromkeys(clean_text(s) for s in subjects)),
        description=plain_text(first("description", "dc.description", "dcterms.description", "og:description")),
        isbn=isbn, url=url,
        identifiers=tuple(dict.fromkeys([("ISBN", isbn)] * bool(isbn) + [("URL", url)] * bool(url))),
        rights=first("dc.rights", "dcterms.rights"),
        authors=people(first("author", "dc.creator", "dcterms.creator")),
    )
    body = html.unescape(_TAGS.sub("", _BODY_BREAKS.sub("\n", markup)))
    return merged(own, gutenberg_metadata(body))


# -- Markdown -----------------------------------------------------------------------------------

def markdown_metadata(text: str) -> Metadata:
    """Return what a Markdown file's YAML front matter says (pandoc's metadata names)."""
    m = _FRONT_MATTER.match(text)
    if not m:
        return Metadata()
    import yaml

    try:
        data = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        return Metadata()  # the reader takes what its "title:" lines say; a broken block adds nothing
    if not isinstance(data, dict):
        return Metadata()
    data = {str(k).lower(): v for k, v in data.items()}

    def text_of(*keys: str) -> str:
        for key in keys:
            value = data.get(key)
            if isinstance(value, (datetime.date, datetime.datetime)):
                return value.isoformat()  # YAML reads "date: 2003-05-01" as a date
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                return clean_text(str(value))
            if isinstance(value, list) and value and isinstance(value[0], (str, int, float)):
                return clean_text(str(value[0]))
            if isinstance(value, dict) and isinstance(value.get("text"), str):
                return clean_text(value["text"])
        return ""

    def list_of(*keys: str) -> tuple[str, ...]:
        out: list[str] = []
        for key in keys:
            value = data.get(key)
            items = value if isinstance(value, list) else ([value] if value not in (None, "") else [])
            for item in items:
                if isinstance(item, dict):
                    item = item.get("text") or item.get("name") or ""
                if isinstance(item, (str, int, float)) and not isinstance(item, bool):
                    out.extend(s.strip() for s in (str(item).split(",") if key == "keywords" else [str(item)]))
        return tuple(dict.fromkeys(clean_text(s) for s in out if s and s.strip()))

    def persons(*keys: str) -> tuple[Person, ...]:
        found: list[Person] = []
        for name in list_of(*keys):
            found.extend(people(name))
        return tuple(found)

    identifier = text_of("isbn") or text_of("identifier")
    isbn = valid_isbn(identifier)
    url = text_of("url") or (identifier if identifier.startswith(("http://", "https://")) else "")
    return Metadata(
        subtitle=text_of("subtitle"),
        authors=persons("author", "authors", "creator"),
        translators=persons("translator", "translators"),
        editors=persons("editor", "editors"),
        series=text_of("series", "belongs-to-collection"),
        series_index=text_of("series-index", "series_index", "group-position"),
        publisher=text_of("publisher"),
        year=work_year(text_of("original-date", "year", "date")),
        language=text_of("lang", "language"),
        subjects=list_of("subject", "subjects", "keywords", "tags"),
        genres=list_of("genre", "genres"),
        description=plain_text(text_of("description", "abstract", "summary")),
        isbn=isbn, url=url,
        identifiers=tuple([("ISBN", isbn)] * bool(isbn) + [("URL", url)] * bool(url)),
        rights=text_of("rights", "copyright", "license"),
    )


# -- merging and completing ---------------------------------------------------------------------

def merged(first: Metadata, second: Metadata) -> Metadata:
    """Return `first` with its empty fields taken from `second`."""
    return dataclasses.replace(first, **{
        f.name: getattr(second, f.name) for f in dataclasses.fields(Metadata)
        if not getattr(first, f.name) and getattr(second, f.name)})


def read_head(path: Path, limit: int = HEAD_BYTES) -> bytes:
    """Return the first `limit` bytes of the book file (opened as the readers open it: never blocking)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            return fh.read(limit) or b""
    except OSError:
        return b""  # the reader already read the file; metadata is a bonus, never the reason a book fails


def source_metadata(path: Path, kind: str) -> Metadata:
    """Return the metadata in the head of a text, Markdown or HTML file (empty for other kinds)."""
    if kind not in ("text", "markdown", "html"):
        return Metadata()

    data = read_head(path)
    if not data:
        return Metadata()
    try:
        text = decode_markup(data, path.name) if kind == "html" else decode_text(data, path.name)
    except Exception:  # noqa: BLE001 - a head cut inside a character or binary junk: nothing to add
        return Metadata()
    if kind == "html":
        return html_metadata(text)
    return markdown_metadata(text) if kind == "markdown" else gutenberg_metadata(text)


def complete(book: Book, kind: str, *, author_given: bool = False, title_given: bool = False) -> Book:
    """Return `book` with metadata from its file's head (non-EPUB) and its own author line and language.

    `author_given`: the author line came from --author, so the people in it are the authors;
    `title_given`: the title came from --title, so the book's sort form of its own title is not its.
    """
    found = source_metadata(book.source, kind)
    meta = merged(book.meta, found)
    if found.authors and not author_given:
        # Front matter's author list or a header the reader did not take ("Author:" in a Gutenberg
        # HTML's <pre>) is structured: it makes the author line ("[A, B]" is YAML for A and B), unless
        # the reader's line names the same people already ("Jane Austen" stays, never the
        # catalogue's "Austen, Jane, 1775-1817" form of her).
        read = people(book.author) if book.author and book.author != "Unknown" else ()
        if {p.name.casefold() for p in read} != {p.name.casefold() for p in found.authors}:
            book = dataclasses.replace(book, author=", ".join(p.name for p in found.authors))
        meta = dataclasses.replace(meta, authors=found.authors)
    line = people(book.author) if book.author and book.author != "Unknown" else ()
    names = {p.name.casefold() for p in meta.authors}
    if line and (author_given or not meta.authors or not {p.name.casefold() for p in line} <= names):
        # The author line is what the run says everywhere: the people in the tags are the same.
        known = {p.name.casefold(): p for p in meta.authors}
        meta = dataclasses.replace(meta, authors=tuple(known.get(p.name.casefold(), p) for p in line))
    if title_given and meta.title_sort:
        meta = dataclasses.replace(meta, title_sort="")
    if not meta.language and book.language:
        meta = dataclasses.replace(meta, language=book.language)
    return dataclasses.replace(book, meta=meta)


__all__ = ["complete", "gutenberg_metadata", "html_metadata", "markdown_metadata", "merged", "people",
           "source_metadata"]
