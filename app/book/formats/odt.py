"""Read an OpenDocument text (ODT) from its content.xml: text:h outline levels, notes after their paragraph.

The container is read with SafeZip (zip-bomb and path limits) and content.xml with the same
non-resolving, offline parser as EPUB's XML (entity declarations refused). Page headers and
footers live in styles.xml, which is never read; nor are comments (office:annotation), the tables of
contents and indexes, and tracked deletions. Notes (text:note, footnotes and endnotes alike) are read
after the paragraph that refers to them; the text before the first chapter heading is the opening.
"""
from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from app.book.structure.blocks import Block, split_chapters
from app.book.formats.language import guess_language
from app.book.formats.notemark import NOTE_MARK, note_gap
from app.book.formats.opening import with_opening
from app.book.formats.placeholder import is_placeholder, is_placeholder_author, names_document
from app.book.model import Book, ReadOptions
from app.book.normalize import clean_text
from app.book.safezip import Limits, SafeZip, parse_xml
from app.core.errors import CorruptBook, ProtectedBook

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
DC = "http://purl.org/dc/elements/1.1/"
META = "urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
MANIFEST = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"
#: Drawing elements (draw:frame + draw:text-box, draw:custom-shape, ...) hold a text box's paragraphs.
_DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
_T = f"{{{TEXT}}}"
#: Elements whose content is never narration (a ruby's reading aid says its base's sound again; a
#: placeholder field is a template's prompt to whoever fills it in, "<Click to enter a name>", not text).
_SKIP = frozenset(f"{_T}{n}" for n in (
    "table-of-content", "alphabetical-index", "illustration-index", "table-index", "object-index",
    "user-index", "bibliography", "tracked-changes", "sequence-decls", "variable-decls", "user-field-decls",
    "note-ref", "ruby-text", "placeholder",
)) | {f"{{{OFFICE}}}annotation", f"{{{OFFICE}}}forms"}
#: Database fields show a record's value; with no record loaded, LibreOffice shows the column's name in
#: angle brackets ("<Surname>"), a mail-merge slot that says nothing.
_DATABASE = frozenset(f"{_T}{n}" for n in ("database-display", "database-name"))
#: Cross-references: read as the text they show ("see A header"), as the printed page reads,
#: but not when they show a page number or "above"/"below", which point nowhere in a reading.
_REFS = frozenset(f"{_T}{n}" for n in ("bookmark-ref", "reference-ref", "sequence-ref"))
_PAGE_FORMATS = frozenset(("page", "direction"))
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
#: Paragraph styles of code: "Preformatted Text" (pandoc's and LibreOffice's), "Source Code", "Listing".
_CODE_STYLE = re.compile(r"preformatted|source.?code|source.?text|^code\b|verbatim|listing", re.I)
_HINT = "Open and save it again in LibreOffice, or use a clean copy"


def _drop_hidden(office_text: etree._Element, hidden: set[str]) -> None:
    """Remove what is not printed: a hidden section (text:display="none"), any paragraph or span of a
    hidden style and hidden-text fields set to hide, keeping the text that follows a removed span."""
    doomed = [el for el in office_text.iter()
              if isinstance(el.tag, str) and ((el.tag == f"{_T}section" and el.get(f"{_T}display") == "none")
                                              or (hidden and el.get(f"{_T}style-name") in hidden))]
    # A hidden-text field whose condition hides it, and a paragraph that a hidden-paragraph field hides
    # (text:is-hidden="true": the state LibreOffice saved), are not printed either.
    for field in office_text.iter(f"{_T}hidden-text", f"{_T}hidden-paragraph"):
        if field.get(f"{_T}is-hidden") == "true":
            doomed.append(field if field.tag == f"{_T}hidden-text" else next(
                (a for a in field.iterancestors() if a.tag in (f"{_T}p", f"{_T}h")), field))
    for el in doomed:
        parent = el.getparent()
        if parent is None:
            continue
        if el.tail:
            prev = el.getprevious()
            if prev is not None:
                prev.tail = (prev.tail or "") + el.tail
            else:
                parent.text = (parent.text or "") + el.tail
        parent.remove(el)


def _text(el: etree._Element, notes: list[str] | None = None, boxes: list[str] | None = None) -> str:
    """Return an inline run of text: spans and links read, text:s/tab/line-break as spaces; a note's
    text (footnote or endnote) goes to `notes`, a text box's paragraphs (each followed by its own notes) to
    `boxes` (to `notes` without it), to be read after its paragraph: its notes, then its boxes."""
    parts: list[str] = [el.text or ""]
    stack: list[tuple[etree._Element, bool]] = [(child, False) for child in reversed(el)]
    while stack:
        node, closing = stack.pop()
        if closing:
            parts.append(node.tail or "")
            continue
        tag = node.tag if isinstance(node.tag, str) else ""
        if tag in _SKIP or not tag or (tag in _REFS and node.get(f"{_T}reference-format") in _PAGE_FORMATS) or (
                tag in _DATABASE and re.fullmatch(r"\s*<[^<>]*>\s*", "".join(node.itertext()))):
            parts.append(node.tail or "")
            continue
        if tag == f"{_T}note":
            body = node.find(f"{_T}note-body")
            if notes is not None and body is not None:
                text = clean_text(" ".join(_text(p) for p in body.iter(f"{_T}p", f"{_T}h")))
                if text:
                    notes.append(text)
            parts.append(NOTE_MARK + (node.tail or ""))
            continue
        if tag.startswith(_DRAW) and notes is not None:
            # A text box anchored in a paragraph or heading (a pull quote, a sidebar) is read after
            # it as paragraphs of its own, never inside its sentence or its title.
            target = boxes if boxes is not None else notes
            for p in _paragraphs(node):
                inner: list[str] = []
                text = clean_text(_text(p, inner))
                if text:
                    target.append(text)
                target.extend(inner)
            parts.append(node.tail or "")
            continue
        if tag in (f"{_T}s", f"{_T}tab", f"{_T}line-break"):
            parts.append(" ")
        else:
            parts.append(node.text or "")
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node))
    return note_gap("".join(parts))


def _paragraphs(el: etree._Element) -> list[etree._Element]:
    """Return the paragraphs and headings inside el, in order, none from a comment, note or index."""
    out: list[etree._Element] = []
    stack = list(reversed(el))
    while stack:
        node = stack.pop()
        tag = node.tag if isinstance(node.tag, str) else ""
        if not tag or tag in _SKIP or tag == f"{_T}note":
            continue
        if tag in (f"{_T}p", f"{_T}h"):
            out.append(node)
        else:
            stack.extend(reversed(node))
    return out


def code_styles(*roots: etree._Element) -> set[str]:
    """Return the paragraph style names that are code, or inherit from one (automatic styles included)."""
    return _styles_where(roots, lambda name, st: bool(_CODE_STYLE.search(name.replace("_20_", " "))))


def hidden_styles(*roots: etree._Element) -> set[str]:
    """Return the style names whose text is hidden (text:display="none" in their text properties, LibreOffice's
    "Hidden" character attribute, Word's vanish), or that inherit it: such text is not printed, nor read."""
    def hidden(name: str, st) -> bool:
        props = st.find(f"{{{STYLE}}}text-properties") if st is not None else None
        return props is not None and props.get(f"{_T}display") == "none"
    return _styles_where(roots, hidden)


def _styles_where(roots, test) -> set[str]:
    parents: dict[str, str] = {}
    elements: dict[str, etree._Element] = {}
    for root in roots:
        for st in root.iter(f"{{{STYLE}}}style"):
            name = st.get(f"{{{STYLE}}}name") or ""
            parents[name] = st.get(f"{{{STYLE}}}parent-style-name") or ""
            elements[name] = st
    found: set[str] = set()
    for name in parents:
        seen, cur = 0, name
        while cur and seen < 20:
            if test(cur, elements.get(cur)):
                found.add(name)
                break
            cur, seen = parents.get(cur, ""), seen + 1
    return found


def _blocks(office_text: etree._Element, code: set[str] = frozenset()) -> list[Block]:
    """Return the document's blocks in order: headings by outline level, paragraphs, list items, table rows."""
    blocks: list[Block] = []
    stack: list[etree._Element] = list(reversed(office_text))
    while stack:
        el = stack.pop()
        tag = el.tag if isinstance(el.tag, str) else ""
        if not tag or tag in _SKIP:
            continue
        notes: list[str] = []
        boxes: list[str] = []
        if tag == f"{_T}h":
            text = clean_text(_text(el, notes, boxes))
            if text:
                level = el.get(f"{_T}outline-level") or "1"
                blocks.append(Block(text, min(6, max(1, int(level) if level.isascii() and level.isdigit() else 1))))
        elif tag == f"{_T}p":
            text = clean_text(_text(el, notes, boxes))
            if text:
                kind = "code" if el.get(f"{_T}style-name") in code else "text"
                blocks.append(Block(text, 0, set(), kind))
        elif tag == f"{{{TABLE}}}table-row":
            cells = [clean_text(_text(p, notes)) for cell in el for p in _paragraphs(cell)]
            row = "; ".join(c for c in cells if c)
            if row:
                blocks.append(Block(row))
        else:
            # Lists, sections, tables, frames and text boxes: read what they hold, in order.
            stack.extend(reversed(el))
        # A footnote or endnote is read where a book's reader reads it: after its paragraph; a text box
        # anchored there (a sidebar) after those.
        blocks.extend(Block(n) for n in notes + boxes)
    return blocks


def _meta(zf: SafeZip, book: str) -> tuple[str, str, str]:
    if not zf.has("meta.xml"):
        return "", "", ""
    root = parse_xml(zf.read("meta.xml"), "meta.xml", book)

    def first(*tags: str) -> str:
        for tag in tags:
            el = root.find(f".//{tag}")
            if el is not None and clean_text(el.text or ""):
                return clean_text(el.text or "")
        return ""

    return (first(f"{{{DC}}}title"), first(f"{{{DC}}}creator", f"{{{META}}}initial-creator"),
            first(f"{{{DC}}}language"))


def read_odt(path: Path, options: ReadOptions) -> Book:
    """Return the narrated chapters of an ODT, with title, author and language from meta.xml."""
    book = path.name
    with SafeZip(path, Limits(max_entries=5_000, max_total_bytes=512 * 1024 * 1024)) as zf:
        if zf.has("META-INF/manifest.xml"):
            manifest = parse_xml(zf.read("META-INF/manifest.xml"), "META-INF/manifest.xml", book)
            for entry in manifest.iter(f"{{{MANIFEST}}}file-entry"):
                if entry.get(f"{{{MANIFEST}}}full-path") == "content.xml" and len(entry):
                    raise ProtectedBook(f"{book} is password-protected (its content is encrypted)",
                                        hint="Save an unprotected copy and convert that")
        if not zf.has("content.xml"):
            raise CorruptBook(f"{book} is not a readable ODT (no content.xml)", hint=_HINT)
        root = parse_xml(zf.read("content.xml"), "content.xml", book)
        # styles.xml only for its style names (its page headers and footers are never read).
        styles = parse_xml(zf.read("styles.xml"), "styles.xml", book) if zf.has("styles.xml") else root
        title, author, language = _meta(zf, book)
    office_text = root.find(f".//{{{OFFICE}}}body/{{{OFFICE}}}text")
    if office_text is None:
        raise CorruptBook(f"{book} is not a text document (no office:text; a spreadsheet or drawing?)", hint=_HINT)
    _drop_hidden(office_text, hidden_styles(styles, root))
    blocks = _blocks(office_text, code_styles(styles, root))
    if is_placeholder(title, path.stem):
        # The top heading names the document when it heads all of it; one of several is a chapter's title.
        tops = [b.text for b in blocks if b.level == 1]
        title = tops[0] if len(tops) == 1 and names_document(tops[0]) else ""
    if is_placeholder_author(author):
        author = ""
    # The document's outline says its chapters: the highest heading level repeated (structure/blocks.py).
    chapters = with_opening(blocks, split_chapters(blocks, title or path.stem, options, outline=True),
                            title or path.stem, options, author)
    return Book(title=title, author=author, chapters=tuple(chapters), source=path,
                language=options.language or language.split("-")[0].lower()
                or guess_language(b.text for b in blocks if not b.level))
