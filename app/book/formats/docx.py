"""Read a Word document (DOCX) with python-docx: headings by outline level or style, notes after their paragraph.

Only the document body is walked, in order: headers, footers and comments live in parts of their
own and are never read, nor are tracked deletions or field codes. A footnote or endnote is read
after the paragraph that refers to it (from word/footnotes.xml and word/endnotes.xml); the text
before the first chapter heading (a title page, the opening) is the first chapter. A heading is a
paragraph with an outline level (its own or its style's, up the `basedOn` chain) or a heading style by name, in the languages Word localises them to
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
from app.book.formats.docxhidden import drop_hidden_runs, hidden_styles, vanish
from app.book.formats.docxpackage import open_word
from app.book.formats.docxtoc import ContentsField
from app.book.formats.language import guess_language
from app.book.formats.notemark import NOTE_MARK, note_gap
from app.book.formats.opening import with_opening
from app.book.formats.placeholder import is_placeholder, is_placeholder_author, names_document
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


def outline_value(text: str | None) -> int:
    """Return a w:outlineLvl value (0-8), 9 (body text) for anything that is not a plain ASCII integer."""
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() else 9


def _style_outline(style) -> int | None:
    """Return the outline level (0-8) a style or one it is based on sets, None when none does."""
    seen = 0
    while style is not None and seen < 20:
        ppr = style.element.find(f"{W}pPr")
        lvl = ppr.find(f"{W}outlineLvl") if ppr is not None else None
        if lvl is not None:
            value = outline_value(lvl.get(f"{W}val"))
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


def _paragraph_style(p_element, doc, cache: dict):
    """Return a paragraph's style, looked up once per style id. python-docx's Paragraph.style scans every
    style of styles.xml for the default one on each paragraph without w:pStyle: a template of thousands
    of styles made a 700-word document take two minutes."""
    from docx.enum.style import WD_STYLE_TYPE

    style_id = p_element.style
    if style_id not in cache:
        cache[style_id] = doc.part.get_style(style_id, WD_STYLE_TYPE.PARAGRAPH)
    return cache[style_id]


def _level(p_element, style, cache: dict) -> int:
    """Return the paragraph's heading level from its outline level, else its style (0: body)."""
    ppr = p_element.pPr
    lvl = ppr.find(f"{W}outlineLvl") if ppr is not None else None
    if lvl is not None:
        value = outline_value(lvl.get(f"{W}val"))
        return value + 1 if value < 9 else 0
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


MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
#: Elements whose text is never spoken: tracked deletions and moves away, field codes, and the fallback
#: copy (VML) of a drawing whose mc:Choice (a DrawingML text box) is read already; and a ruby's
#: reading aid (w:rt, the small text over its base), which says the base's sound again.
_UNSPOKEN = frozenset({f"{W}del", f"{W}moveFrom", f"{W}delText", f"{W}instrText", f"{MC}Fallback",
                       f"{W}rPr", f"{W}pPr", f"{W}rt"})
_TEXT_BOX = f"{W}txbxContent"
_NOTE_REFERENCE = frozenset({f"{W}footnoteReference", f"{W}endnoteReference"})


def _visible_text(p_element, notes: list[str] | None = None, boxes: list | None = None) -> str:
    """Return a paragraph's text: runs, hyperlinks, content controls, field results and text boxes, tabs
    and breaks as spaces; hidden runs, deletions, field codes and drawing fallbacks out. The ids of the
    footnotes and endnotes it refers to are added to `notes` ("f3", "e1"); with `boxes`, the paragraphs
    of a text box anchored in it (a pull quote, a sidebar) go there with their own notes' ids, to be read
    after it and its notes, not inside its sentence or its heading's title."""
    parts: list[str] = []
    stack = [p_element]
    while stack:
        node = stack.pop()
        tag = node.tag
        if not isinstance(tag, str) or tag in _UNSPOKEN:
            continue
        if tag == _TEXT_BOX and boxes is not None:
            for p in node.iter(f"{W}p"):
                box_notes: list[str] = []
                text = clean_text(_visible_text(p, box_notes))
                if text:
                    boxes.append((text, box_notes))
                elif notes is not None:
                    notes.extend(box_notes)
            continue
        if tag == f"{W}r":
            rpr = node.find(f"{W}rPr")
            if vanish(rpr):  # w:vanish w:val="0" shows the run
                continue
        if tag == f"{W}t":
            parts.append(node.text or "")
        elif tag in (f"{W}tab", f"{W}br", f"{W}cr"):
            parts.append(" ")
        elif tag == f"{W}noBreakHyphen":  # a hyphen printed as one ("well-known"), kept on its line
            parts.append("-")
        elif tag in _NOTE_REFERENCE:
            parts.append(NOTE_MARK)
            if notes is not None:
                notes.append(("f" if tag == f"{W}footnoteReference" else "e") + (node.get(f"{W}id") or ""))
        else:
            stack.extend(reversed(node))
    return note_gap("".join(parts))


def _rows(tbl):
    """Yield a table's rows (w:tr), also those wrapped in content controls or custom XML."""
    return _children(tbl, f"{W}tr")


def _cells(tr):
    """Yield a row's cells (w:tc), also those wrapped in content controls or custom XML."""
    return _children(tr, f"{W}tc")


def _children(el, tag: str):
    stack = list(reversed(list(el)))
    while stack:
        child = stack.pop()
        if child.tag == tag:
            yield child
        elif child.tag in (f"{W}sdt", f"{W}sdtContent", f"{W}customXml"):
            stack.extend(reversed(list(child)))


def _cell_text(tc, refs: list[str], depth: int = 0) -> str:
    """Return a table cell's text: its paragraphs, content controls and nested tables, in order."""
    parts: list[str] = []
    for child in tc:
        if child.tag == f"{W}p":
            parts.append(_visible_text(child, refs))
        elif child.tag == f"{W}sdt" and depth < 20:
            content = child.find(f"{W}sdtContent")
            if content is not None:
                parts.append(_cell_text(content, refs, depth + 1))
        elif child.tag == f"{W}tbl" and depth < 20:
            for tr in child.iter(f"{W}tr"):
                if tr.getparent() is child:
                    parts.extend(_cell_text(cell, refs, depth + 1) for cell in tr if cell.tag == f"{W}tc")
    return " ".join(parts)


def _note_texts(zf: SafeZip, names: set[str], hidden: set[str] = frozenset()) -> dict[str, str]:
    """Return {"f3": text, "e1": text} of the document's footnotes and endnotes (separators out)."""
    out: dict[str, str] = {}
    for prefix, part, tag in (("f", "word/footnotes.xml", "footnote"), ("e", "word/endnotes.xml", "endnote")):
        if part not in names:
            continue
        root = etree.fromstring(zf.read(part), etree.XMLParser(resolve_entities=False, no_network=True,
                                                                huge_tree=False))
        drop_hidden_runs(root, hidden)
        for note in root.iter(f"{W}{tag}"):
            if note.get(f"{W}type") in ("separator", "continuationSeparator", "continuationNotice"):
                continue
            text = clean_text(" ".join(_visible_text(p) for p in note.iter(f"{W}p")))
            if text:
                out[prefix + (note.get(f"{W}id") or "")] = text
    return out


def _blocks(doc, note_texts: dict[str, str] | None = None) -> tuple[list[Block], str]:
    """Return the body's blocks in order, and the text of a Title-styled paragraph.

    A footnote or endnote is read as a book's reader reads it: after the paragraph (or table row) that
    refers to it, as a paragraph of its own."""
    blocks: list[Block] = []
    title = ""
    cache: dict = {}
    styles: dict = {}
    note_texts = note_texts or {}

    def add_notes(refs: list[str], boxes: list = ()) -> None:
        # The paragraph's notes, then the text boxes anchored in it, each with its own notes after it.
        for ref in dict.fromkeys(refs):
            if ref in note_texts:
                blocks.append(Block(note_texts[ref]))
        for text, box_refs in boxes:
            blocks.append(Block(text))
            add_notes(box_refs)
    cap = ""
    body = doc.element.body
    contents = ContentsField.for_body(body)
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
            # Rows and cells straight from the XML: python-docx's grid (row.cells) follows vMerge and
            # gridSpan, and fails on a merge in the top row, recurses on a 3,000-row merge chain and
            # allocates a billion-cell grid for gridSpan="1000000000". A merged cell's continuation
            # is empty in the XML, so each text is read once; two cells that say the same ("Yes", "Yes")
            # are two cells, both read.
            for row in _rows(el):
                cells: list[str] = []
                refs: list[str] = []
                for tc in _cells(row):
                    text = clean_text(_cell_text(tc, refs))
                    if text:
                        cells.append(text)
                if cells:
                    blocks.append(Block("; ".join(cells)))
                add_notes(refs)
            continue
        if tag != f"{W}p" or contents.listing(el):  # a TOC field's entries are a listing, not text
            continue
        refs: list[str] = []
        boxes: list = []
        text = clean_text(_visible_text(el, refs, boxes))
        if not text:
            add_notes(refs, boxes)
            continue
        frame = el.find(f"{W}pPr/{W}framePr")
        if frame is not None and frame.get(f"{W}dropCap") in ("drop", "margin") and not refs and not boxes:
            # A drop cap is its own framed paragraph ("D") before the rest of its word ("rop cap."):
            # it is read as the first letters of the next paragraph.
            cap += text
            continue
        if cap:
            text, cap = clean_text(cap + text), ""
        style = _paragraph_style(el, doc, styles)
        style_name = (style.name if style is not None else "") or ""
        if _TOC_STYLE.match(style_name.strip()):
            continue
        if _TITLE_STYLE.match(style_name.strip()):
            # The title page is read as it stands: the title is also its first line.
            title = title or text
            blocks.append(Block(text))
            add_notes(refs, boxes)
            continue
        level = min(6, _level(el, style, cache))
        kind = "code" if not level and _is_code_style(style) else "text"
        blocks.append(Block(text, level, set(), kind))
        add_notes(refs, boxes)
    if cap:
        blocks.append(Block(cap))
    return blocks, title


def read_docx(path: Path, options: ReadOptions) -> Book:
    """Return the narrated chapters of a DOCX, with title, author and language from its properties."""
    from docx.opc.exceptions import PackageNotFoundError

    with SafeZip(path, Limits(max_entries=5_000, max_total_bytes=512 * 1024 * 1024)) as zf:
        names = set(zf.names())
        if "EncryptedPackage" in names or "word/document.xml" not in names:
            raise CorruptBook(f"{path.name} is not a readable DOCX (no word/document.xml)", hint=_HINT)
        # python-docx opens the zip itself, with zipfile's unbounded bzip2/LZMA: inflate every
        # member through the caps first (and refuse encrypted or unboundable ones).
        zf.verify_all()
        try:
            styles = (etree.fromstring(zf.read("word/styles.xml"), etree.XMLParser(
                resolve_entities=False, no_network=True, huge_tree=False)) if "word/styles.xml" in names else None)
            hidden = hidden_styles(styles)
            note_texts = _note_texts(zf, names, hidden)
            content_types = zf.read("[Content_Types].xml") if "[Content_Types].xml" in names else None
        except etree.XMLSyntaxError as exc:
            raise CorruptBook(f"{path.name} is not a readable DOCX ({exc})", hint=_HINT) from None
    try:
        doc = open_word(path, content_types)
    except PackageNotFoundError as exc:
        raise CorruptBook(f"{path.name} is not a readable DOCX ({exc})", hint=_HINT) from None
    except (zipfile.BadZipFile, KeyError, ValueError, etree.XMLSyntaxError) as exc:
        raise CorruptBook(f"{path.name} is not a readable DOCX ({exc})", hint=_HINT) from None
    drop_hidden_runs(doc.element.body, hidden)  # what Word does not print is not read
    blocks, styled_title = _blocks(doc, note_texts)
    props = doc.core_properties
    # The file's properties, unless they are a program's placeholders ("Document1", "User"): then the
    # title page's Title-styled paragraph, and no author rather than the machine's account name.
    title = clean_text(props.title or "")
    if is_placeholder(title, path.stem):
        title = styled_title if names_document(styled_title) else ""
    author = clean_text(props.author or "")
    if is_placeholder_author(author):
        author = ""
    language = options.language or clean_text(props.language or "").split("-")[0].lower() or guess_language(
        b.text for b in blocks if not b.level)
    # The document's outline says its chapters: the highest heading level repeated (structure/blocks.py).
    chapters = with_opening(blocks, split_chapters(blocks, title or path.stem, options, outline=True),
                            title or path.stem, options, author)
    return Book(title=title, author=author, chapters=tuple(chapters), source=path, language=language)

