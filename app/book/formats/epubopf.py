"""What an EPUB's package document (OPF) says about the book, EPUB 2 and 3, calibre and Standard Ebooks alike.

- People: `dc:creator`/`dc:contributor` with a MARC relator role (`opf:role`, or EPUB 3's
  `<meta property="role" refines="#id">`) and a sort name (`opf:file-as` or `file-as` refines).
  Authors are the `aut` creators (a creator with no role is an author); `trl` translators,
  `edt` editors (a narrator an ebook names did not read this audiobook: not taken).
- Series: calibre's `calibre:series`/`calibre:series_index` first, else an EPUB 3
  `belongs-to-collection` whose `collection-type` is `series` (or unstated) with its
  `group-position`. A `set` collection (Standard Ebooks' "The Guardian's 100 best novels") is a
  reading list, not a series, and is left out.
- The year is the work's: `dc:date opf:event="original-publication"` first; a plain `dc:date` only
  when the package is not Standard Ebooks' (whose `dc:date` is the ebook's release; their
  colophon states the original year, read by `colophon_year`). `dcterms:modified` and
  `opf:event="modification"` never count, nor calibre's "no date" 0101-01-01.
- Descriptions are made plain text (calibre and Standard Ebooks store HTML, escaped or not).
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from lxml import etree

from app.book.model import Metadata, Person
from app.book.normalize import clean_text
from app.book.formats.epubtoc import local

#: MARC relator codes of the people a listener's library files a book by.
AUTHOR, TRANSLATOR, EDITOR = "aut", "trl", "edt"
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
#: calibre writes this year for "no date"; no work is dated from it.
_NO_DATE_YEARS = {"0101", "0100"}
_TAG = re.compile(r"<[^>]+>")
_BLOCK_END = re.compile(r"</(?:p|div|li|h[1-6])\s*>|<br\s*/?>", re.IGNORECASE)
_ISBN_CHARS = re.compile(r"[^0-9Xx]")
#: Standard Ebooks declares its own vocabulary on the package; its dc:date is the ebook's release.
_SE_VOCABULARY = "standardebooks.org/vocab"
_SE_IDENTIFIER = "https://standardebooks.org/ebooks/"


@dataclass
class _Person:
    name: str
    file_as: str = ""
    roles: list[str] = field(default_factory=list)
    creator: bool = True


def plain_text(markup: str) -> str:
    """Return HTML (or already plain) text as plain text, paragraphs kept apart by blank lines."""
    text = html.unescape(markup) if "&lt;" in markup else markup
    text = _BLOCK_END.sub("\n\n", text)
    text = html.unescape(_TAG.sub("", text))
    paragraphs = (clean_text(p) for p in re.split(r"\n\s*\n", text))
    return "\n\n".join(p for p in paragraphs if p)


def work_year(value: str) -> str:
    """Return the four-digit year a date string starts with ("1843" of "1843-12-19"), else ""."""
    m = _YEAR.search(value or "")
    return m.group(1) if m and m.group(1) not in _NO_DATE_YEARS and m.start() <= 1 else ""


def valid_isbn(value: str) -> str:
    """Return the ISBN-10 or ISBN-13 in `value` without hyphens when its check digit holds, else ""."""
    digits = _ISBN_CHARS.sub("", value.split(":")[-1] if value.lower().startswith(("urn:isbn:", "isbn:")) else value)
    if len(digits) == 13 and digits.isdigit():
        total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(digits))
        return digits if total % 10 == 0 else ""
    if len(digits) == 10 and digits[:9].isdigit() and (digits[9].isdigit() or digits[9] in "Xx"):
        total = sum((10 - i) * (10 if d in "Xx" else int(d)) for i, d in enumerate(digits))
        return digits.upper() if total % 11 == 0 else ""
    return ""


def _attr(el: etree._Element, name: str) -> str:
    """Return an attribute by local name whatever its namespace (opf:role, role)."""
    for key, value in el.attrib.items():
        if key == name or key.endswith("}" + name):
            return (value or "").strip()
    return ""


def _text(el: etree._Element) -> str:
    return clean_text("".join(el.itertext()))


def read_opf_metadata(package: etree._Element) -> Metadata:
    """Return the metadata of a parsed OPF package document."""
    metadata = next((el for el in package.iter() if local(el) == "metadata"), None)
    if metadata is None:
        return Metadata()
    refines: dict[str, list[tuple[str, str, str]]] = {}
    named: dict[str, str] = {}
    for el in metadata.iter():
        if local(el) != "meta":
            continue
        target = (el.get("refines") or "").lstrip("#")
        prop = (el.get("property") or "").strip()
        if target and prop:
            refines.setdefault(target, []).append((prop, _text(el) if prop != "se:long-description" else
                                                   "".join(el.itertext()), el.get("id") or ""))
        elif el.get("name"):
            named.setdefault(el.get("name"), (el.get("content") or "").strip())
    elements = [el for el in metadata.iter() if isinstance(el.tag, str)]
    return _Reader(package, elements, refines, named).metadata()


class _Reader:
    def __init__(self, package, elements, refines, named):
        self.package = package
        self.elements = elements
        self.refines = refines
        self.named = named

    def refined(self, el: etree._Element, prop: str) -> list[str]:
        return [v for p, v, _ in self.refines.get(el.get("id") or "", []) if p == prop]

    def all(self, name: str) -> list[etree._Element]:
        return [el for el in self.elements if local(el) == name and _text(el)]

    def properties(self, prop: str) -> list[etree._Element]:
        return [el for el in self.elements if local(el) == "meta" and (el.get("property") or "") == prop
                and not el.get("refines")]

    def metadata(self) -> Metadata:
        people = self.people()
        authors = [p for p in people if AUTHOR in p.roles or (p.creator and not p.roles)]
        main, subtitle, title_sort = self.titles()
        series, index = self.series()
        isbn, url, identifiers = self.identifiers()
        short = next((plain_text(el.text or "".join(el.itertext())) for el in self.all("description")), "")
        long = next((plain_text(v) for el in self.all("description")
                     for v in self.refined(el, "se:long-description")), "")
        return Metadata(
            subtitle=subtitle, title_sort=title_sort,
            authors=tuple(Person(p.name, p.file_as) for p in authors),
            translators=tuple(Person(p.name, p.file_as) for p in people if TRANSLATOR in p.roles),
            editors=tuple(Person(p.name, p.file_as) for p in people if EDITOR in p.roles),
            series=series, series_index=index,
            publisher=next((_text(el) for el in self.all("publisher")), ""),
            year=self.year(),
            language=next((_text(el) for el in self.all("language")), ""),
            subjects=tuple(dict.fromkeys(_text(el) for el in self.all("subject"))),
            genres=tuple(dict.fromkeys(_text(el) for el in self.properties("se:subject") if _text(el))),
            description=short, long_description=long if long != short else "",
            isbn=isbn, url=url, identifiers=identifiers,
            rights=next((_text(el) for el in self.all("rights")), ""),
        )

    def people(self) -> list[_Person]:
        people = []
        for el in self.elements:
            kind = local(el)
            if kind not in ("creator", "contributor") or not _text(el):
                continue
            roles = [r.lower() for r in [_attr(el, "role")] + self.refined(el, "role") if r]
            file_as = _attr(el, "file-as") or next(iter(self.refined(el, "file-as")), "")
            people.append(_Person(_text(el), file_as, roles, kind == "creator"))
        sort = self.named.get("calibre:author_sort", "")
        authors = [p for p in people if AUTHOR in p.roles or (p.creator and not p.roles)]
        if sort and len(authors) == 1 and not authors[0].file_as:
            authors[0].file_as = sort
        return people

    def titles(self) -> tuple[str, str, str]:
        """Return (main title, subtitle, the main title's sort form)."""
        titles = self.all("title")
        if not titles:
            return "", "", ""
        typed = {t: (self.refined(t, "title-type") or [""])[0].lower() for t in titles}
        main = next((t for t in titles if typed[t] == "main"), titles[0])
        subtitle = next((_text(t) for t in titles if typed[t] == "subtitle"), "")
        sort = _attr(main, "file-as") or next(iter(self.refined(main, "file-as")), "") or self.named.get(
            "calibre:title_sort", "")
        return _text(main), subtitle, sort if sort != _text(main) else ""

    def series(self) -> tuple[str, str]:
        name = self.named.get("calibre:series", "")
        if name:
            return clean_text(name), _position(self.named.get("calibre:series_index", ""))
        for el in self.properties("belongs-to-collection"):
            kind = (self.refined(el, "collection-type") or [""])[0].lower()
            if kind in ("series", ""):
                return _text(el), _position((self.refined(el, "group-position") or [""])[0])
        return "", ""

    def identifiers(self) -> tuple[str, str, tuple[tuple[str, str], ...]]:
        found: list[tuple[str, str]] = []
        for el in self.all("identifier"):
            value = _text(el)
            scheme = (_attr(el, "scheme") or (self.refined(el, "identifier-type") or [""])[0]).upper()
            if valid_isbn(value) and (scheme in ("ISBN", "", "15") or value.lower().startswith(("urn:isbn:", "isbn:"))):
                found.append(("ISBN", valid_isbn(value)))
            elif value.lower().startswith(("http://", "https://")):
                found.append(("URL", value))
            elif value.lower().startswith("urn:uuid:") or scheme == "UUID":
                found.append(("UUID", value.split(":")[-1]))
            else:
                found.append((scheme or "ID", value))
        isbn = next((v for s, v in found if s == "ISBN"), "")
        url = next((v for s, v in found if s == "URL"), "")
        return isbn, url, tuple(dict.fromkeys(found))

    def year(self) -> str:
        dates = self.all("date")
        for el in dates:
            if _attr(el, "event").lower() in ("original-publication", "original_publication"):
                return work_year(_text(el))
        if is_standard_ebooks(self.package):
            return ""  # Standard Ebooks' dc:date is the ebook's release: the colophon has the work's year
        modified = {_text(el) for el in self.properties("dcterms:modified")}
        for el in dates:
            # A dc:date that is the file's modification instant dates the ebook, not the work.
            if _attr(el, "event").lower() in ("", "publication", "issued", "created") and _text(el) not in modified:
                year = work_year(_text(el))
                if year:
                    return year
        return ""


def _position(value: str) -> str:
    """Return a series position as people write it: "2" for calibre's "2.0", "1.5" as it is."""
    value = (value or "").strip()
    try:
        number = float(value)
    except ValueError:
        return clean_text(value)
    if number < 0 or number != number or number > 1e6:
        return ""
    return str(int(number)) if number == int(number) else f"{number:g}"


def is_standard_ebooks(package: etree._Element) -> bool:
    """Return whether the package is Standard Ebooks': their vocabulary declared, or their identifier."""
    if _SE_VOCABULARY in (package.get("prefix") or ""):
        return True
    return any(local(el) == "identifier" and _text(el).startswith(_SE_IDENTIFIER) for el in package.iter()
               if isinstance(el.tag, str))


def colophon_year(root: etree._Element) -> str:
    """Return the work's year from a Standard Ebooks colophon ("… was published in <time>1843</time> by …").

    The first paragraph names the book (`se:name.publication.book`) and dates it; a work written
    over years ("written between 1659 and 1669") gets its first year.
    """
    for p in root.iter():
        if local(p) != "p":
            continue
        names_book = any("se:name.publication.book" in " ".join(
            v for k, v in el.attrib.items() if k.endswith("type")) for el in p.iter() if isinstance(el.tag, str))
        if not names_book:
            continue
        for el in p.iter():
            if isinstance(el.tag, str) and local(el) == "time":
                year = work_year(el.get("datetime") or _text(el))
                if year:
                    return year
        return ""
    return ""


__all__ = ["read_opf_metadata", "colophon_year", "is_standard_ebooks", "plain_text", "work_year", "valid_isbn"]
