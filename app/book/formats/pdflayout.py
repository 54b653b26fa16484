"""A PDF page as lines of text with their layout (PDFium's characters through pypdfium2).

One page at a time: its characters become lines (text, box, font size, bold, monospace), the
superscript note markers are dropped on the way, marked-content artifacts (a tagged PDF's
running heads and page numbers) are skipped, and pages in columns are put in reading order (pdfcolumns.py).
Nothing of the page is kept once its lines are built, so memory stays flat in page count.
"""
from __future__ import annotations

import ctypes
import re
from collections import Counter
from dataclasses import dataclass

import pypdfium2.raw as raw

from app.book.formats.pdfcolumns import in_reading_order
from app.book.formats.pdfleak import without_converter_leaks
from app.book.formats.pdfscaled import SCALED, ScaledRuns, text_scale
from app.book.formats.pdfspacing import PEN_SPACE, PenSpaces

#: A superscript run that is a note marker: digits, letters a-z, symbols.
_MARKER = re.compile(r"^[\[(]?(?:\d{1,3}|[a-z]|[*\u2020\u2021\u00a7\u00b6#]+)[\])]?,?$")
#: Characters per page past which a page is skipped (vector art drawn as glyphs, a hostile file).
MAX_PAGE_CHARS = 200_000
#: Monospace font names: TeX's typewriter faces (cmtt, t1xtt, tcxtt, NimbusMonL, qcr) and the usual others.
_MONO_NAME = re.compile(r"mono|courier|typewriter|cursor|consol|menlo|cousine|fixed|^(?:cm|lm|ec|t1x|tcx|t1|sf|p)\w*tt|"
                        r"nimbusmon|^qcr|^pcr")
#: Note markers some producers write as superscript characters rather than raised small digits.
_SUPERSCRIPT_DIGITS = frozenset("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
#: A gap wider than this many font sizes between two words parts table cells.
CELL_GAP = 1.6
CELL = "\x00"
#: TeX's f-ligatures where a font has no Unicode map: PDFium gives the glyph's code, a control character that the
#: text's cleaning drops ("4.2.35 gure( le)" for "figure(file)"). T1 (EC, cm-super: dvips and Ghostscript) sets
#: ff fi fl ffi ffl at 27-31 in every face. OT1's 11-15 are not taken: its typewriter face has other signs
#: there (Texinfo prints French guillemets with them).
_TEX_LIGATURES = {27: "ff", 28: "fi", 29: "fl", 30: "ffi", 31: "ffl"}
#: PDFium's code for a hyphen it saw at a line's end (the soft hyphen of the source).
_SOFT_HYPHENS = ("\x02", "\u00ad")


@dataclass(slots=True)
class Line:
    """One line of text on a page, in top-down page coordinates (points)."""

    text: str
    x0: float
    x1: float
    #: Distance of the baseline from the page's top.
    base: float
    size: float
    bold: bool
    mono: bool
    page: int
    #: A note marker (superscript) stood at the line's start: a footnote's own first line.
    marked: bool = False
    #: The line's column: 0 for a full-width line or a one-column page, else 1, 2, 3... from the left.
    column: int = 0
    #: A table row (cells set apart by wide gaps), read as "a; b; c" and never joined to another line.
    row: bool = False
    #: The two parts of a line set apart by a wide gap (a running head's chapter and section), else ().
    pieces: tuple[str, ...] = ()
    #: Where the gap between those two parts lies across the page (its left and right x), else ().
    gap: tuple[float, ...] = ()

    @property
    def top(self) -> float:
        return self.base - self.size

    @property
    def width(self) -> float:
        return self.x1 - self.x0


@dataclass(frozen=True, slots=True)
class _Font:
    """What the characters of one text object share: its font's style, its size, artifact or not."""

    bold: bool
    mono: bool
    artifact: bool
    size: float = 0.0
    #: Drawn invisible: a scan's OCR layer.
    invisible: bool = False
    #: Drawn through a matrix that scales it (a browser engine's page): PDFium's line marks misplace.
    scaled: bool = False


#: FPDFText_GetTextObject returning the object's address as an int: a cache key without a ctypes cast
#: per character (the typed binding is used once per object).
_text_object_address = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)(
    ctypes.cast(raw.FPDFText_GetTextObject, ctypes.c_void_p).value)


class FontCache:
    """Font traits per text object (bold, monospace, artifact), looked up once per object."""

    def __init__(self) -> None:
        self._objects: dict[int, _Font] = {}
        self._fonts: dict[int, tuple[bool, bool]] = {}
        #: Text objects looked up, of them invisible (a scan's OCR layer); spaces held, made up after words (pdfspacing).
        self.seen = self.invisible = self.spaces = self.word_gaps = 0
        #: The page's text objects drawn inside a figure (pdffigure.py): not read, as artifacts are not.
        self.figures: set[int] = set()
        self._buf = ctypes.create_string_buffer(256)
        self._matrix = raw.FS_MATRIX()

    def traits(self, textpage, handle: int, index: int) -> _Font:
        """Return the traits of the text object character `index` belongs to (`handle`: the page's address)."""
        key = _text_object_address(handle, index) or 0
        found = self._objects.get(key)
        if found is None:
            obj = raw.FPDFText_GetTextObject(textpage, index)
            # One text object has one font, size and matrix: its first character's size is every one's.
            scale = text_scale(textpage, index, self._matrix)
            size = raw.FPDFText_GetFontSize(textpage, index) * scale
            scaled = abs(scale - 1) > SCALED
            found = self._objects[key] = self._read(obj, size, key in self.figures, scaled) if key else _Font(
                False, False, False, size, scaled=scaled)
        return found

    def _read(self, obj, size: float, figure: bool = False, scaled: bool = False) -> _Font:
        font = raw.FPDFTextObj_GetFont(obj)
        fkey = ctypes.cast(font, ctypes.c_void_p).value or 0
        self.seen += 1
        if raw.FPDFTextObj_GetTextRenderMode(obj) == raw.FPDF_TEXTRENDERMODE_INVISIBLE:
            self.invisible += 1
            # A scan's text layer (OCR: Tesseract's GlyphLessFont is fixed-pitch) is drawn invisible over
            # the page's picture: its font says nothing of the print's style, never code nor bold.
            return _Font(False, False, figure or _is_artifact(obj), size, invisible=True, scaled=scaled)
        style = self._fonts.get(fkey)
        if style is None:
            style = self._fonts[fkey] = self._style(font) if fkey else (False, False)
        return _Font(style[0], style[1], figure or _is_artifact(obj), size, scaled=scaled)

    def _style(self, font) -> tuple[bool, bool]:
        n = raw.FPDFFont_GetBaseFontName(font, self._buf, len(self._buf))
        name = self._buf.raw[: max(0, min(n, len(self._buf)) - 1)].decode("latin-1", "replace").lower()
        flags = raw.FPDFFont_GetFlags(font)
        weight = raw.FPDFFont_GetWeight(font)
        bold = weight >= 600 or bool(flags & (1 << 18)) or any(
            k in name for k in ("bold", "black", "heavy", "semibold", "demi", "cmbx", "-bd", "sfbx"))
        name = name.split("+", 1)[-1]  # "ABCDEF+" marks a subset, not the font
        mono = bool(flags & 1) or bool(_MONO_NAME.search(name))
        return bold, mono

    def forget_page(self) -> None:
        """Drop the per-object entries: object handles are only valid while their page is open."""
        self._objects.clear()
        self.figures = set()


def _is_artifact(obj) -> bool:
    """Return whether a page object is marked content /Artifact (headers, footers, page numbers)."""
    count = raw.FPDFPageObj_CountMarks(obj)
    if count <= 0:
        return False
    # PDFium writes the name as UTF-16 into an FPDF_WCHAR (unsigned short) buffer, its length in bytes.
    buf = (ctypes.c_ushort * 32)()
    out = ctypes.c_ulong(0)
    for i in range(min(count, 16)):
        mark = raw.FPDFPageObj_GetMark(obj, i)
        if mark and raw.FPDFPageObjMark_GetName(mark, buf, ctypes.sizeof(buf), ctypes.byref(out)):
            name = bytes(buf)[: max(0, min(out.value, ctypes.sizeof(buf)) - 2)]
            if name.decode("utf-16-le", "replace") == "Artifact":
                return True
    return False


def page_lines(textpage, page_index: int, page_height: float, fonts: FontCache) -> list[Line]:
    """Return the page's lines in reading order."""
    textpage = textpage.raw if hasattr(textpage, "raw") else textpage  # the handle: no wrapper per call
    handle = ctypes.cast(textpage, ctypes.c_void_p).value
    count = raw.FPDFText_CountChars(textpage)
    if count <= 0 or count > MAX_PAGE_CHARS:
        return []
    ox, oy = ctypes.c_double(), ctypes.c_double()
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    lines: list[Line] = []
    chars: list[tuple[str, float, float, float, float, _Font]] = []
    scaled = ScaledRuns()
    pen = PenSpaces()

    def close() -> None:
        pen.settle_line(chars, fonts)  # the pen's and PDFium's spaces of a letter-spaced run (pdfspacing.py)
        _close(chars, lines, page_index)

    for i in range(count):
        code = raw.FPDFText_GetUnicode(textpage, i)
        ch = _TEX_LIGATURES.get(code) or (chr(code) if 0 < code < 0x110000 else "")
        if ch in ("\r", "\n") or not ch:
            if ch == "\n" and chars:
                if chars[-1][5].scaled and raw.FPDFText_IsGenerated(textpage, i) == 1:
                    scaled.pending = True
                else:
                    close()
            continue
        if ch == " " and raw.FPDFText_IsGenerated(textpage, i) == 1:
            if chars:
                prev = chars[-1]
                chars.append((" ", prev[2], prev[2], prev[3], prev[4], prev[5]))
                fonts.word_gaps += pen.make_up(chars)
            continue
        fonts.spaces += ch == " "
        font = fonts.traits(textpage, handle, i)
        if font.artifact:
            continue
        size = font.size
        raw.FPDFText_GetCharOrigin(textpage, i, ox, oy)
        base = page_height - oy.value
        if font.scaled:  # a browser engine's page (pdfscaled.py): PDFium's marks misplace its breaks
            left.value, right.value = scaled.place(textpage, i, _text_object_address(handle, i) or 0, ch, base,
                                                   size, chars, close)
        else:
            raw.FPDFText_GetCharBox(textpage, i, left, right, bottom, top)
        if chars and abs(base - chars[-1][3]) > max(size, chars[-1][4]) * 0.6 and chars[-1][0] != " ":
            close()  # a new line PDFium did not mark
        elif (font.invisible or font.scaled) and chars and chars[-1][0] == " " and ch != " ":
            # An OCR layer (Tesseract's) ends every word with a space and may have no line break marked
            # between printed lines: the baseline moved from the last letter's is a new line, or a
            # paragraph comes as one line and a piece of its first line that the engine set apart goes
            # before it ("ran down to the river" / "The gate stood open all that winter, and the path ...").
            # Scaled text likewise: PDFium marks a space, not a break, between a browser engine's lines.
            last = next((c for c in reversed(chars) if c[0] != " "), None)
            if last is not None and abs(base - last[3]) > max(size, last[4]) * 0.6:
                close()
        elif ch == " " or not chars or font.invisible:
            pass
        elif chars[-1][0] == " ":
            if pen.swallowed(ox.value, base, size, chars):
                chars.pop()
        elif not font.scaled and left.value - chars[-1][2] > size * 0.1 \
                and pen.wants_space(textpage, i, left.value, base, size, chars):
            chars.append((PEN_SPACE, chars[-1][2], chars[-1][2], chars[-1][3], chars[-1][4], chars[-1][5]))
            pen.made = True
        if ch != " ":
            pen.last = i
        chars.append((ch, left.value, right.value, base, size, font))
    if chars:
        close()
    return in_reading_order(_without_stray_markers(lines))


def _without_stray_markers(lines: list[Line]) -> list[Line]:
    """Return the lines without note markers that came out as lines of their own.

    A raised small "1" after a line's last word may reach PDFium as a line by itself: a marker
    in smaller type whose baseline lies within the height of the line before it. A footnote's own
    marker may come the same way just before its first line (Sphinx's LaTeX sets it so): that
    line is then marked as a note's start.
    """
    out: list[Line] = []
    for n, ln in enumerate(lines):
        prev = out[-1] if out else None
        if (prev is not None and _MARKER.match(ln.text) and ln.size < prev.size * 0.85
                and prev.base - prev.size <= ln.base <= prev.base + 1):
            continue
        nxt = lines[n + 1] if n + 1 < len(lines) else None
        if (nxt is not None and _MARKER.match(ln.text) and ln.size < nxt.size * 0.85
                and nxt.base - nxt.size <= ln.base <= nxt.base + 1 and ln.x1 <= nxt.x0 + 1):
            nxt.marked = True
            continue
        out.append(ln)
    return out


def _close(chars: list, lines: list[Line], page: int) -> None:
    """Turn the characters of one line into a Line (note markers out) and start the next."""
    sizes = Counter(c[4] for c in chars if c[0] != " ")
    if not sizes:
        chars.clear()
        return
    size = sizes.most_common(1)[0][0]
    bases = sorted(c[3] for c in chars if c[0] != " " and c[4] == size)
    size = round(size, 1)
    base = bases[len(bases) // 2]
    out: list[str] = []
    marked = False
    last_x1: float | None = None
    gaps: list[tuple[float, float]] = []
    i = checked = 0
    while i < len(chars):
        ch, _x0, _x1, cbase, csize, _f = chars[i]
        if ch in _SUPERSCRIPT_DIGITS:
            j = i
            while j < len(chars) and chars[j][0] in _SUPERSCRIPT_DIGITS:
                j += 1
            if not "".join(out).strip():
                marked = True
            i = j
            continue
        if i >= checked and ch != " " and csize < size * 0.85 and base - cbase > size * 0.2:
            j = i
            while j < len(chars) and chars[j][0] != " " and chars[j][4] < size * 0.85 and base - chars[j][3] > size * 0.2:
                j += 1
            run = "".join(c[0] for c in chars[i:j])
            if _MARKER.match(run):
                if not "".join(out).strip():
                    marked = True
                i = j
                continue
            # Not a marker: the run is text, read whole; its tail is never looked at as a marker of its
            # own (an OCR word set smaller and higher lost its last letter, taken for a note's "t").
            checked = j
        if ch != " " and last_x1 is not None and chars[i][1] - last_x1 > size * CELL_GAP:
            out.append(CELL)  # a wide gap between words: a table's column, or a tab stop
            gaps.append((last_x1, chars[i][1]))
        if ch != " ":
            last_x1 = chars[i][2]
        out.append(ch)
        i += 1
    text = "".join(out).strip()
    cells = [c.strip() for c in text.split(CELL)]
    # Three cells or more is a table row, read "a; b; c"; fewer is a tab stop, read as a space.
    row = len([c for c in cells if c]) >= 3
    text = "; ".join(c for c in cells if c) if row else " ".join(c for c in cells if c)
    text = without_converter_leaks(text)
    body = [c for c in chars if c[0] != " "]
    if text:
        bold = sum(1 for c in body if c[5].bold) > len(body) / 2
        mono = sum(1 for c in body if c[5].mono) > len(body) * 0.8
        x0 = min(c[1] for c in body)
        x1 = max(c[2] for c in body)
        parts = tuple(c for c in cells if c)
        if len(parts) == 2 and (category := _DEF_CATEGORY.match(parts[1])):
            # A definition's header (Texinfo): "int frob (int x)   [Function]", the category flush right,
            # said first as the HTML edition prints it: "Function: int frob (int x)".
            text, parts = f"{category.group(1)}: {parts[0]}", ()
        lines.append(Line(text, x0, x1, base, size, bold, mono, page, marked, row=row and not mono,
                          pieces=parts if len(parts) == 2 else (),
                          gap=gaps[0] if len(parts) == 2 and len(gaps) == 1 else ()))
    chars.clear()


#: A definition's category set apart at a line's right end, in brackets: "[Function]", "[Data type]",
#: "[User Option]", "[Special Form]" (Texinfo's @deffn and @deftypefn headers in its PDF).
_DEF_CATEGORY = re.compile(r"^\[([A-Z][A-Za-z-]*(?: [A-Za-z-]+){0,2})\]$")


def soft_hyphen_end(text: str) -> bool:
    """Return whether a line ends with a hyphen the typesetter added (never one of the text)."""
    return text.endswith(_SOFT_HYPHENS)
