"""Text drawn inside an included figure: an axis's labels, a diagram's boxes, a plot's legend.

A typesetter includes a figure made elsewhere (a plot, a drawing exported as PDF) as a form XObject, a
drawing of its own placed on the page; the labels inside it are the picture's, which the HTML edition of the
same book shows as an image and a listener cannot follow ("x y plot region mai margin"). The caption and the
text around it are drawn on the page itself. A page with (almost) no text of its own outside its forms is no
page with a figure: some producers draw a whole page (an imposed or included page) as one form, and its text
is the book's (pdf.py reads such a page again with its forms).
"""
from __future__ import annotations

import ctypes
import re

import pypdfium2.raw as raw

#: A picture the producer could not find, printed as its file's path in its place ("[./images/cover.jpg]", as
#: Apache FOP does): a line of that alone is no text.
MISSING_PICTURE = re.compile(r"\[?\s*(?:[\w.~-]*/)*[\w.~-]+\.(?:jpe?g|png|gif|svg|tiff?|eps|bmp|webp)\s*\]?", re.I)
#: A picture's placeholder a converter prints where it could not place the picture: "[IMAGE: alt text]", as
#: pandoc's ms writer does (through groff), also inside a heading's line ("Colophon [IMAGE: a logo]").
PICTURE_PLACEHOLDER = re.compile(r"\s*\[IMAGE: [^\]\n]{0,300}\]")
#: A page whose text outside its forms is shorter than this (a page number) is drawn as forms: read them.
MIN_OWN_CHARS = 20
#: How deep forms nest inside a figure (a plot in a drawing): deeper ones are not looked into.
MAX_DEPTH = 6
#: Pages with more top-level objects than this are not looked into (one object per glyph: no figures there,
#: and the walk would cost more than the page).
MAX_OBJECTS = 20_000


def without_pictures(lines: list) -> list:
    """Return the page's lines without pictures' placeholders and missing pictures' paths (not text)."""
    out = []
    for ln in lines:
        if "[IMAGE: " in ln.text:
            ln.text = PICTURE_PLACEHOLDER.sub("", ln.text).strip()
        if ln.text.strip() and not MISSING_PICTURE.fullmatch(ln.text.strip()):
            out.append(ln)
    return out


def figure_text_objects(page) -> set[int]:
    """Return the addresses of the text objects drawn inside the page's forms (figures, as far as the page's
    own text goes: see MIN_OWN_CHARS)."""
    count = raw.FPDFPage_CountObjects(page)
    if count <= 0 or count > MAX_OBJECTS:
        return set()
    out: set[int] = set()
    for i in range(count):
        obj = raw.FPDFPage_GetObject(page, i)
        if not obj or raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_FORM:
            continue
        _collect(obj, out, 1)
    return out


def _collect(form, out: set[int], depth: int) -> None:
    for k in range(max(0, raw.FPDFFormObj_CountObjects(form))):
        obj = raw.FPDFFormObj_GetObject(form, k)
        if not obj:
            continue
        kind = raw.FPDFPageObj_GetType(obj)
        if kind == raw.FPDF_PAGEOBJ_TEXT:
            out.add(ctypes.cast(obj, ctypes.c_void_p).value or 0)
        elif kind == raw.FPDF_PAGEOBJ_FORM and depth < MAX_DEPTH:
            _collect(obj, out, depth + 1)
