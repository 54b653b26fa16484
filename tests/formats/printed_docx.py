"""The office reference as printed, DOCX's rules (tests/formats/printed.py says what and why): text boxes,
simple fields, bidirectional runs, column grids, captions after their tables in; a table of contents out."""
from __future__ import annotations

import re

from lxml import etree

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
#: Block elements a text box holds that can stand after a paragraph.
_W_BLOCKS = frozenset((f"{W}p", f"{W}tbl", f"{W}sdt", f"{W}customXml"))

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
