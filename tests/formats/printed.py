"""The office reference's text as printed: what the page shows that pandoc's reader leaves out, put where pandoc
reads it (tests/formats/references.py's `pandoc_reference(path, printed=True)`), without app/book.

pandoc (2.17) is the reference's reader, and it drops text that Word and LibreOffice print and a book's reader
says: a text box's or a shape's paragraphs (a pull quote, a sidebar, a cover page's title, WordArt), ODF fields'
shown text (an author's name, a file name, a text input: pandoc reads the field as nothing), a table's header rows
and the lists inside table cells (ODT). And it reads what an audiobook leaves out by design, as the PDF tables do:
a table of contents (Word's TOC field or its contents control: the entries, with the control's "Contents"
heading). So the reference is pandoc's reading of a copy of the file with those changed in its XML:

- a text box's (or shape's) paragraphs and tables are moved after the paragraph that anchors it, in order,
  the drawing taken out (its DrawingML choice and VML fallback both); one anchored to the page (an ODT frame
  outside any paragraph) stands where it is, its paragraphs in its place;
- an ODF field is replaced by the text it shows, but a template's placeholder prompt ("<Click here>"), a mail
  merge's empty slot ("<Surname>", a database field with no record) and text (or a paragraph) hidden by its
  condition;
- ODT: header rows are rows of their table; a list or a table inside a table cell is its paragraphs;
- ODT: a section's paragraphs are read where it stands (pandoc read none), a hidden section's not;
- ODT: comments (office:annotation) are out before pandoc reads: pandoc leaves them out too, but one inside a
  span took the span's words with it;
- a caption set after its table (Word's Caption style, LibreOffice's Table or Caption styles) is read after it, as
  printed: pandoc moved it before the table;
- DOCX: a simple field (w:fldSimple) is the runs it shows (pandoc read none of a document property's);
- DOCX: a bidirectional embedding (w:dir, w:bdo) is the runs it holds, in the body and the notes (pandoc read none);
- a group of text boxes (a diagram) gives every box's paragraphs, not the first box's alone;
- DOCX: a table without its column grid (w:tblGrid, which the format requires; a generated file may lack it)
  gets one, as Word would write it: pandoc read no word of such a table;
- DOCX: a table of contents (a TOC field's result, a content control of the "Table of Contents" gallery) is out.

Each rule is a convention of the format, not of a file; `printed_copy` returns the path unchanged when none
applies, so a file without any of these reads exactly as before.
The DOCX rules are in printed_docx.py, the ODT ones here.
"""
from __future__ import annotations

import re
import tempfile
import zipfile
from pathlib import Path

from lxml import etree

from tests.formats.printed_docx import MC, W, _docx, _docx_bidi  # noqa: F401 - W, MC: the tests' names

T = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
TB = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)

#: ODF fields (ODF 1.2 part 1, chapter 7) whose shown text pandoc does not read, or may not: each is its text.
_FIELDS = frozenset(T + n for n in (
    "date time page-number page-continuation page-count paragraph-count word-count character-count table-count "
    "image-count object-count sender-firstname sender-lastname sender-initials sender-title sender-position "
    "sender-email sender-phone-private sender-fax sender-company sender-phone-work sender-street sender-city "
    "sender-postal-code sender-country sender-state-or-province author-name author-initials chapter file-name "
    "template-name sheet-name variable-get variable-set variable-input user-field-get user-field-input sequence "
    "expression text-input initial-creator creation-date creation-time description user-defined print-time "
    "print-date printed-by title subject keywords editing-cycles editing-duration modification-time "
    "modification-date creator measure table-formula execute-macro dde-connection conditional-text hidden-text "
    "bibliography-mark database-display database-name database-row-number".split()))
#: Block elements a text box holds (DOCX, ODT) that can stand after a paragraph.
_ODF_BLOCKS = frozenset((f"{T}p", f"{T}h", f"{T}list", f"{TB}table", f"{T}section"))


def printed_copy(path: Path) -> tuple[Path, tempfile.TemporaryDirectory | None]:
    """Return (a copy of the office file with the module's rules applied, its temporary directory to clean up),
    or (path, None) when no rule changes it."""
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        part = "word/document.xml" if "word/document.xml" in names else "content.xml"
        if part not in names:
            return path, None
        root = etree.fromstring(zf.read(part), _PARSER)
        changed = _docx(root) if part.startswith("word/") else _odt(root)
        roots = {part: root}
        if part.startswith("word/"):
            # The notes' parts: a bidirectional run's text (w:dir, w:bdo) is read there as in the body.
            for notes in ("word/footnotes.xml", "word/endnotes.xml"):
                if notes in names:
                    roots[notes] = etree.fromstring(zf.read(notes), _PARSER)
                    if _docx_bidi(roots[notes]):
                        changed = True
                    else:
                        del roots[notes]
        if not changed:
            return path, None
        tmp = tempfile.TemporaryDirectory(prefix="printed-")
        out = Path(tmp.name) / path.name
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in zf.infolist():
                data = etree.tostring(roots[info.filename], xml_declaration=True, encoding="UTF-8", standalone=True) \
                    if info.filename in roots else zf.read(info.filename)
                # The ODF mimetype stays first and stored, as the format asks.
                dst.writestr(info, data, compress_type=zipfile.ZIP_STORED if info.filename == "mimetype"
                             else zipfile.ZIP_DEFLATED)
    return out, tmp


# ----------------------------------------------------------------------------------------------- ODT

def _odt(root) -> bool:
    text = root.find(f".//{OFFICE}body/{OFFICE}text")
    if text is None:
        return False
    # Comments are not the text (pandoc's reading leaves them out too; one in a span lost the span's words).
    changed = False
    for note in list(text.iter(f"{OFFICE}annotation", f"{OFFICE}annotation-end")):
        _remove_keep_tail(note)
        changed = True
    # A section (a region of the page: columns, a protected part) is its paragraphs; pandoc 2.17 read none of
    # them. One set to hide (text:display="none") is not printed: out.
    for section in list(text.iter(f"{T}section")):
        if section.get(f"{T}display") == "none":
            _remove_keep_tail(section)
        else:
            for child in list(section):
                section.addprevious(child)
            _remove_keep_tail(section)
        changed = True
    changed |= _odt_boxes(text)
    changed |= _odt_captions(root, text)
    changed |= _odt_fields(text)
    changed |= _odt_tables(text)
    return changed


def _box_blocks(shape) -> list:
    """Return the blocks a drawing holds: a frame's text box's, or a shape's own paragraphs."""
    out = []
    for child in shape:
        if child.tag in _ODF_BLOCKS:
            out.append(child)
        elif child.tag == f"{DRAW}text-box":
            out.extend(b for b in child if b.tag in _ODF_BLOCKS)
    return out


def _odt_boxes(text) -> bool:
    changed = False
    for _ in range(10):
        moved = False
        after: dict = {}
        for shape in list(text.iter(f"{DRAW}*")):
            if shape.getparent() is None or not _box_blocks(shape):
                continue
            if any(a.tag.startswith(DRAW) for a in shape.iterancestors() if isinstance(a.tag, str)):
                continue  # an inner drawing: out with its outer one, on the next pass
            anchor = next((a for a in shape.iterancestors() if a.tag in (f"{T}p", f"{T}h")), None)
            # After its paragraph; a page's or a section's frame (no paragraph): where it stands.
            spot = shape if anchor is None else after.get(anchor, anchor)
            for b in _box_blocks(shape):
                spot.addnext(b)
                spot = b
            if anchor is not None:
                after[anchor] = spot
            _remove_keep_tail(shape)
            moved = changed = True
        if not moved:
            break
    return changed


def _remove_keep_tail(el) -> None:
    parent = el.getparent()
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


#: LibreOffice's caption paragraph styles (by the caption's category).
_CAPTION_STYLES = frozenset(("Table", "Caption", "Illustration", "Figure", "Drawing"))
STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"


def _odt_captions(root, text) -> bool:
    """A caption set after its table (a paragraph of a caption style, or an automatic style based on one) is read
    there: pandoc moved it before the table. It is given the default style, which pandoc reads where it stands."""
    parents = {st.get(f"{STYLE}name"): st.get(f"{STYLE}parent-style-name") for st in root.iter(f"{STYLE}style")}
    changed = False
    for table in text.iter(f"{TB}table"):
        nxt = table.getnext()
        name = nxt.get(f"{T}style-name") if nxt is not None and nxt.tag == f"{T}p" else None
        if name is not None and (name in _CAPTION_STYLES or parents.get(name) in _CAPTION_STYLES):
            nxt.set(f"{T}style-name", "Standard")
            changed = True
    return changed


def _odt_fields(text) -> bool:
    changed = False
    for field in list(text.iter(f"{T}hidden-paragraph")):
        # A paragraph its hidden-paragraph field hides (the state saved) is not printed.
        para = next((a for a in field.iterancestors() if a.tag in (f"{T}p", f"{T}h")), None)
        if field.get(f"{T}is-hidden") == "true" and para is not None and para.getparent() is not None:
            _remove_keep_tail(para)
            changed = True
    for field in list(text.iter(*_FIELDS, f"{T}placeholder")):
        if field.getparent() is None:
            continue
        shown = "".join(field.itertext())
        if field.tag == f"{T}placeholder" or (field.tag == f"{T}hidden-text" and field.get(f"{T}is-hidden") == "true") or (
                field.tag in (f"{T}database-display", f"{T}database-name") and re.fullmatch(r"\s*<[^<>]*>\s*", shown)):
            shown = ""
        # The field becomes its shown text, in the run of text around it.
        tail = field.tail or ""
        field.tail = None
        prev = field.getprevious()
        parent = field.getparent()
        if prev is not None:
            prev.tail = (prev.tail or "") + shown + tail
        else:
            parent.text = (parent.text or "") + shown + tail
        parent.remove(field)
        changed = True
    return changed


def _above(el, top, tag):
    """Return el's nearest ancestor below `top` with this tag, None when there is none."""
    for a in el.iterancestors():
        if a is top:
            return None
        if a.tag == tag:
            return a
    return None


def _inside_list(p, top) -> bool:
    return _above(p, top, f"{T}list") is not None


def _odt_tables(text) -> bool:
    changed = False
    for head in list(text.iter(f"{TB}table-header-rows")):
        parent = head.getparent()
        i = parent.index(head)
        for n, row in enumerate(list(head)):
            parent.insert(i + n, row)
        parent.remove(head)
        changed = True
    for cell in list(text.iter(f"{TB}table-cell")):
        for inner in [c for c in cell if c.tag == f"{TB}table"]:
            # A table in a cell: its cells' paragraphs, row by row, in the outer cell.
            spot = inner
            for p in [p for p in inner.iter(f"{T}p", f"{T}h") if not _inside_list(p, inner)]:
                spot.addnext(p)
                spot = p
            cell.remove(inner)
            changed = True
        for lst in [c for c in cell if c.tag == f"{T}list"]:
            # Its items' paragraphs, nested lists' too, in order (a table inside an item stays out of reach).
            paras = [p for p in lst.iter(f"{T}p", f"{T}h") if _above(p, lst, f"{TB}table") is None]
            spot = lst
            for p in paras:
                spot.addnext(p)
                spot = p
            cell.remove(lst)
            changed = True
    return changed
