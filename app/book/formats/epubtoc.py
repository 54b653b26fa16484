"""An EPUB's table of contents: the EPUB 3 navigation document, else the EPUB 2 NCX.

The TOC is the book's own word on what its chapters are and what they are
called; page-list and landmarks navs are not the TOC.
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from lxml import etree

from app.book.formats.html import parse_html
from app.book.normalize import clean_text
from app.book.safezip import SafeZip, parse_xml, resolve

#: nav epub:type values of navigation documents' other lists, which are not the table of contents.
_NOT_TOC_NAVS = frozenset(("page-list", "landmarks", "loi", "lot", "lov", "loa"))


@dataclass
class Entry:
    """One table-of-contents entry."""

    title: str
    name: str
    fragment: str
    depth: int


def local(el: etree._Element) -> str:
    """Return an element's tag without its namespace ("" for comments)."""
    tag = el.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def children(el: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in el if local(c) == name]


def descendants(el: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in el.iter() if local(c) == name]


def split_href(base: str, href: str) -> tuple[str | None, str]:
    """Return (archive name, fragment) for an href found in the document at base."""
    return resolve(base, href), unquote(urlsplit(href).fragment)


def _nav_entries(root: etree._Element, base: str) -> tuple[list[Entry], list[tuple[str, str]]]:
    """Return the TOC entries and (type, name) landmarks of an EPUB 3 navigation document."""
    entries: list[Entry] = []
    landmarks: list[tuple[str, str]] = []
    navs = [n for n in root.iter("nav")]
    others = [n for n in navs if not _NOT_TOC_NAVS & set((n.get("epub:type") or "").split())]
    toc = next((n for n in navs if "toc" in (n.get("epub:type") or "").split()), others[0] if others else None)
    for nav in navs:
        if "landmarks" in (nav.get("epub:type") or "").split():
            for a in nav.iter("a"):
                name, _ = split_href(base, a.get("href") or "")
                if name:
                    for t in (a.get("epub:type") or "").lower().split():
                        landmarks.append((t, name))

    def walk(ol: etree._Element, depth: int, group: str = "") -> None:
        for li in ol:
            if not isinstance(li.tag, str) or li.tag != "li":
                continue
            link = next((c for c in li if c.tag in ("a", "span")), None)
            label = ""
            if link is not None and link.tag == "a" and link.get("href"):
                name, frag = split_href(base, link.get("href"))
                if name:
                    title = clean_text(link.text_content())
                    entries.append(Entry(f"{group}: {title}" if group else title, name, frag, depth))
            elif link is not None:
                # An unlinked group label (<span>, an author's name over their stories): its linked
                # children are the chapters, at the label's own depth, titled under the label.
                label = clean_text(link.text_content())
            for sub in li:
                if sub.tag == "ol":
                    if label:
                        walk(sub, depth, f"{group}: {label}" if group else label)
                    else:
                        walk(sub, depth + 1, group)

    if toc is not None:
        for ol in toc.iter("ol"):
            walk(ol, 1)
            break
    return entries, landmarks


def _ncx_entries(root: etree._Element, base: str) -> list[Entry]:
    """Return the TOC entries of an EPUB 2 NCX document."""
    entries: list[Entry] = []

    def walk(parent: etree._Element, depth: int) -> None:
        for point in children(parent, "navPoint"):
            label = next(iter(descendants(point, "text")), None)
            content = next(iter(children(point, "content")), None)
            if content is not None and content.get("src"):
                name, frag = split_href(base, content.get("src"))
                if name:
                    title = clean_text("".join(label.itertext())) if label is not None else ""
                    entries.append(Entry(title, name, frag, depth))
            walk(point, depth + 1)

    for nav_map in descendants(root, "navMap")[:1]:
        walk(nav_map, 1)
    return entries


def read_toc(
    zf: SafeZip, items: dict[str, tuple[str, str, set[str]]], ncx_id: str, book: str
) -> tuple[list[Entry], list[tuple[str, str]], str | None]:
    """Return the TOC entries, landmarks and the nav document's name (EPUB 3 nav, else NCX)."""
    nav = next((v[0] for v in items.values() if "nav" in v[2]), None)
    if nav and zf.has(nav):
        entries, landmarks = _nav_entries(parse_html(zf.read(nav), f"{book}: {nav}"), nav)
        if entries:
            return entries, landmarks, nav
    else:
        landmarks = []
    ncx = items.get(ncx_id) or next(
        (v for v in items.values() if v[1] == "application/x-dtbncx+xml"), None
    )
    if ncx and zf.has(ncx[0]):
        return _ncx_entries(parse_xml(zf.read(ncx[0]), ncx[0], book), ncx[0]), landmarks, nav
    return [], landmarks, nav


def chapter_entries(entries: list[Entry]) -> list[Entry]:
    """Return the entries with a lone top-level entry (the book's own title) replaced by its children."""
    while True:
        top = [e for e in entries if e.depth == 1]
        if len(top) != 1 or len(entries) < 2 or entries[0] is not top[0]:
            return entries
        entries = [Entry(e.title, e.name, e.fragment, e.depth - 1) for e in entries[1:]]
