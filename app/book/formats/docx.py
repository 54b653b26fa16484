"""Read a Word document (DOCX) with python-docx: headings by outline level or style, notes and page frames out.

Only the document body is walked, in order: headers and footers live in parts of their own and
are never read; footnote and endnote references are runs without text, and the notes' own parts
are never opened. A heading is a paragraph with an outline level (its own or its style's, up the
`basedOn` chain) or a heading style by name, in the languages Word localises them to
("Überschrift 1", "Titre 2", "Kop 3"). Lists are read item by item, tables row by row, a table
of contents field is skipped. The ZIP container is checked against zip bombs before python-docx
reads it.
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

from lxml import etree

from app.book.structure.blocks import Block, split_chapters
from app.book.formats.language import guess_language
from app.book.model import Book, ReadOptions
from app.book.normalize import clean_text
from app.book.safezip import Limits, SafeZip
from app.core.errors import CorruptBook

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
#: Heading style names as Word localises them: "Heading 1", "Überschrift 1", "Titre 1", "Kop 1"...
_HEADING_STYLE = re.compile(
    r"^(?:heading|überschrift|berschrift|titre|título|titulo|titolo|kop|rubrik|overskrift|otsikko|nagłówek|"
    r"naglowek|nadpis|címsor|cimsor|başlık|заголовок|标题|見出し)\s*(\d)$", re.I)
_TITLE_STYLE = re.compile(r"^(?:title|titel|titre|título|titolo|tytuł|название|标题)$", re.I)
_TOC_STYLE = re.compile(r"^(?:toc|verzeichnis|inhaltsverzeichnis|table des matières)\s*\d*$|^toc heading$", re.I)
#: Paragraph styles of code: pandoc's "Source Code", Word's "HTML Preformatted" and "Plain Text", "Code", "Listing".
_CODE_STYLE = re.compile(r"source ?code|preformatted|^plain ?text$|^code\b|verbatim|listing", re.I)
_HINT = "Open and save it again in Word or LibreOffice, or use a clean copy"


def _style_outline(style) -> int | None:
    """Return the outline level (0-8) a style or one it is based on sets, None when none does."""
    seen = 0
    while style is not None and seen < 20:
        ppr = style.element.find(f"{W}pPr")
        lvl = ppr.find(f"{W}outlineLvl") if ppr is not None else None
        if lvl is not None:
            value = int(lvl.get(f"{W}val", "9"))
            return value if value < 9 else None
        style = style.base_style
        seen += 1
    return None


def _style_level(style) -> int:
    """Return the heading level a style gives its paragraphs (0: body text)."""
    seen = 0
    while style is not None and seen < 20:
        for name in (style.name or "", style.style_id or ""):
            m = _HEADING_STYLE.match(name.strip())
            if m:
                return int(m.group(1))
        style = style.base_style
        seen += 1
    return 0


def _level(paragraph, cache: dict) -> int:
    """Return the paragraph's heading level from its outline level, else its style (0: body)."""
    ppr = paragraph._p.pPr
    lvl = ppr.find(f"{W}outlineLvl") if ppr is not None else None
    if lvl is not None:
        value = int(lvl.get(f"{W}val", "9"))
        return value + 1 if value < 9 else 0
    style = paragraph.style
    key = style.style_id if style is not None else ""
    if key not in cache:
        outline = _style_outline(style)
        cache[key] = outline + 1 if outline is not None else _style_level(style)
    return cache[key]


def _is_code_style(style) -> bool:
    """Return whether a paragraph style, or one it is based on, is a code style."""
    seen = 0
    while style is not None and seen < 20:
        if any(_CODE_STYLE.search(name or "") for name in (style.name, style.style_id)):
            return True
        style = style.base_style
        seen += 1
    return False


def _visible_text(p_element) -> str:
    """Return a paragraph's text: runs and hyperlinks, tabs and breaks as spaces, hidden runs and deletions out."""
    parts: list[str] = []
    for node in p_element.iter(f"{W}t", f"{W}tab", f"{W}br", f"{W}cr", f"{W}delText", f"{W}instrText"):
        tag = node.tag
        if tag in (f"{W}delText", f"{W}instrText"):
            continue
        run = node.getparent()
        rpr = run.find(f"{W}rPr") if run is not None else None
        if rpr is not None and rpr.find(f"{W}vanish") is not None:
            continue
        parts.append(node.text or "" if tag == f"{W}t" else " ")
    return "".join(parts)


def _blocks(doc) -> tuple[list[Block], str]:
    """Return the body's blocks in order, and the text of a Title-styled paragraph."""
    from docx.table import Table

    blocks: list[Block] = []
    title = ""
    cache: dict = {}
    body = doc.element.body
    stack = list(reversed(list(body)))
    while stack:
        el = stack.pop()
        tag = el.tag
        if tag == f"{W}sdt":
            # A content control: a table of contents is skipped, anything else read as its content.
            gallery = el.find(f".//{W}docPartGallery")
            if gallery is not None and "table of contents" in (gallery.get(f"{W}val") or "").lower():
                continue
            content = el.find(f"{W}sdtContent")
            if content is not None:
                stack.extend(reversed(list(content)))
            continue
        if tag == f"{W}tbl":
            for row in Table(el, doc).rows:
                cells: list[str] = []
                for cell in row.cells:
                    text = clean_text(" ".join(_visible_text(p._p) for p in cell.paragraphs))
                    if text and (not cells or cells[-1] != text):  # merged cells repeat themselves
                        cells.append(text)
                if cells:
                    blocks.append(Block("; ".join(cells)))
            continue
        if tag != f"{W}p":
            continue
        from docx.text.paragraph import Paragraph

        para = Paragraph(el, doc)
        text = clean_text(_visible_text(el))
        if not text:
            continue
        style_name = (para.style.name if para.style is not None else "") or ""
        if _TOC_STYLE.match(style_name.strip()):
            continue
        if _TITLE_STYLE.match(style_name.strip()):
            title = title or text
            continue
        level = min(6, _level(para, cache))
        kind = "code" if not level and _is_code_style(para.style) else "text"
        blocks.append(Block(text, level, set(), kind))
    return blocks, title


def read_docx(path: Path, options: ReadOptions) -> Book:
    """Return the narrated chapters of a DOCX, with title, author and language from its properties."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    with SafeZip(path, Limits(max_entries=5_000, max_total_bytes=512 * 1024 * 1024)) as zf:
        names = set(zf.names())
        if "EncryptedPackage" in names or "word/document.xml" not in names:
            raise CorruptBook(f"{path.name} is not a readable DOCX (no word/document.xml)", hint=_HINT)
    try:
        doc = docx.Document(str(path))
    except PackageNotFoundError as exc:
        raise CorruptBook(f"{path.name} is not a readable DOCX ({exc})", hint=_HINT) from None
    except (zipfile.BadZipFile, KeyError, ValueError, etree.XMLSyntaxError) as exc:
        raise CorruptBook(f"{path.name} is not a readable DOCX ({exc})", hint=_HINT) from None
    blocks, styled_title = _blocks(doc)
    props = doc.core_properties
    title = clean_text(props.title or "") or styled_title
    author = clean_text(props.author or "")
    language = options.language or clean_text(props.language or "").split("-")[0].lower() or guess_language(
        b.text for b in blocks if not b.level)
    chapters = split_chapters(blocks, title or path.stem, options)
    return Book(title=title, author=author, chapters=tuple(chapters), source=path, language=language)

