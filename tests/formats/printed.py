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
"""
from __future__ import annotations

import re
import tempfile
import zipfile
from pathlib import Path

from lxml import etree

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
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
_W_BLOCKS = frozenset((f"{W}p", f"{W}tbl", f"{W}sdt", f"{W}customXml"))
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


# ----------------------------------------------------------------------------------------------- DOCX

def _docx(root) -> bool:
    changed = _docx_contents(root)
    changed |= _docx_boxes(root)
    changed |= _docx_grids(root)
    changed |= _docx_captions(root)
    changed |= _docx_simple_fields(root)
    changed |= _docx_bidi(root)
    return changed


def _docx_bidi(root) -> bool:
    """A bidirectional embedding or override (w:dir, w:bdo: Word 2010's markup for a run of the other direction,
    an English name in an Arabic sentence) shows its runs, which pandoc dropped: they stand in its place."""
    changed = False
    for el in list(root.iter(f"{W}dir", f"{W}bdo")):
        for child in list(el):
            el.addprevious(child)
        el.getparent().remove(el)
        changed = True
    return changed


def _docx_captions(root) -> bool:
    """A caption set after its table (Word's Caption style) is read there: pandoc moved it before the table."""
    changed = False
    for tbl in root.iter(f"{W}tbl"):
        nxt = tbl.getnext()
        style = nxt.find(f"{W}pPr/{W}pStyle") if nxt is not None and nxt.tag == f"{W}p" else None
        if style is not None and re.search(r"caption", style.get(f"{W}val") or "", re.I):
            style.getparent().remove(style)
            changed = True
    return changed


def _docx_simple_fields(root) -> bool:
    """A simple field (w:fldSimple: a document property, a date, an author) shows its runs, which pandoc dropped:
    they stand in its place (a TOC's are gone already)."""
    changed = False
    for fld in list(root.iter(f"{W}fldSimple")):
        for child in list(fld):
            fld.addprevious(child)
        fld.getparent().remove(fld)
        changed = True
    return changed


def _docx_grids(root) -> bool:
    """Give a table without its column grid (w:tblGrid, which the format requires and Word always writes; a
    generated file may lack it) one column per cell of its widest row: pandoc read no word of such a table."""
    changed = False
    for tbl in root.iter(f"{W}tbl"):
        if tbl.find(f"{W}tblGrid") is not None:
            continue
        width = max((len(tr.findall(f"{W}tc")) for tr in tbl.findall(f"{W}tr")), default=0)
        grid = etree.Element(f"{W}tblGrid")
        for _ in range(max(width, 1)):
            etree.SubElement(grid, f"{W}gridCol").set(f"{W}w", "2000")
        pr = tbl.find(f"{W}tblPr")
        if pr is not None:
            pr.addnext(grid)
        else:
            tbl.insert(0, grid)
        changed = True
    return changed


def _docx_boxes(root) -> bool:
    """Move each text box's blocks after the paragraph anchoring it (outer boxes first; a box in a box comes
    out on the next pass, its anchor then a body paragraph)."""
    changed = False
    for _ in range(10):
        moved = False
        after: dict = {}
        holders: list = []
        for box in list(root.iter(f"{W}txbxContent")):
            if any(a.tag in (f"{W}txbxContent", f"{MC}Fallback") for a in box.iterancestors()):
                continue
            anchor = next((a for a in box.iterancestors() if a.tag == f"{W}p"), None)
            if anchor is None or anchor.getparent() is None:
                continue
            # The drawing's outermost container within the anchor's run: its AlternateContent, else the
            # w:drawing or w:pict itself.
            holder = None
            for a in box.iterancestors():
                if a is anchor:
                    break
                if a.tag in (f"{MC}AlternateContent", f"{W}drawing", f"{W}pict", f"{W}object"):
                    holder = a
            blocks = [b for b in box if b.tag in _W_BLOCKS]
            spot = after.get(anchor, anchor)  # a paragraph's second box after its first
            for b in blocks:
                spot.addnext(b)
                spot = b
            after[anchor] = spot
            if holder is not None:
                holders.append(holder)
            moved = changed = True
        # The drawings go once every box of the pass is out: a group's (a diagram's) boxes share one holder,
        # and taking it out with the first box took the others' text with it.
        for holder in holders:
            if holder.getparent() is not None:
                holder.getparent().remove(holder)
        if not moved:
            break
    return changed


def _docx_contents(root) -> bool:
    """Take out a table of contents: a content control of the "Table of Contents" gallery, and the paragraphs
    from a TOC field's start to its end (its entries)."""
    changed = False
    for sdt in list(root.iter(f"{W}sdt")):
        gallery = sdt.find(f".//{W}docPartGallery")
        if gallery is not None and "table of contents" in (gallery.get(f"{W}val") or "").lower() \
                and sdt.getparent() is not None:
            sdt.getparent().remove(sdt)
            changed = True
    body = root.find(f"{W}body")
    if body is None:
        return changed
    for fld in list(root.iter(f"{W}fldSimple")):
        if re.match(r"\s*TOC\b", fld.get(f"{W}instr") or "") and fld.getparent() is not None:
            fld.getparent().remove(fld)
            changed = True
    paras = [p for p in body.iter(f"{W}p")]
    doomed: list = []
    i = 0
    while i < len(paras):
        p = paras[i]
        codes = "".join(t.text or "" for t in p.iter(f"{W}instrText"))
        if re.match(r"\s*TOC\b", codes):
            # From this paragraph to the one holding the field's end (depth counted over nested fields).
            depth, j = 0, i
            started = False
            while j < len(paras):
                for ch in paras[j].iter(f"{W}fldChar", f"{W}instrText"):
                    kind = ch.get(f"{W}fldCharType")
                    if not started and ch.tag == f"{W}instrText" and re.match(r"\s*TOC\b", ch.text or ""):
                        started, depth = True, 1
                    elif started and kind == "begin":
                        depth += 1
                    elif started and kind == "end":
                        depth -= 1
                if started and depth <= 0:
                    break
                j += 1
            doomed.extend(paras[i:j + 1])
            i = j + 1
            continue
        i += 1
    for p in doomed:
        if p.getparent() is not None:
            p.getparent().remove(p)
            changed = True
    return changed


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
