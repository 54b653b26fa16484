"""Text drawn through a scaling matrix: a browser engine's page (wkhtmltopdf draws CSS pixels at 0.375).

The size in the font operator is in text space; the printed size is it times the matrix's scale. PDFium
measures such text's advance with the unscaled size, so it breaks a line at every run of glyphs the engine
placed ("S" / "WIG" / "Declaratio" / "n"), marks a space instead of a break between printed lines, and no
space where a run in another font starts a little apart ("called" + "example.c"). The runs' places say
what PDFium's marks do not: this module reads them.
"""
from __future__ import annotations

import ctypes
import math

import pypdfium2.raw as raw

#: A matrix scaling text by more than this (either way) is a scaled page.
SCALED = 0.02


def text_scale(textpage, index: int, matrix) -> float:
    """Return how much the character's matrix scales its font's size up or down the page.

    The vertical axis only: a scan's OCR layer squeezes its words horizontally to fit the picture's
    (Tesseract's Tz), which changes no line's height.
    """
    if not raw.FPDFText_GetMatrix(textpage, index, ctypes.byref(matrix)):
        return 1.0
    scale = math.hypot(matrix.c, matrix.d)
    return scale if scale > 0.01 else 1.0


class ScaledRuns:
    """One page's scaled characters: their advance boxes, the run each belongs to, a break held back."""

    def __init__(self) -> None:
        self.loose = raw.FS_RECTF()
        self.last_run = 0
        #: A line break PDFium marked in scaled text, decided at the next character.
        self.pending = False

    def place(self, textpage, index: int, run: int, ch: str, base: float, size: float, chars: list,
              close) -> tuple[float, float]:
        """Return the character's left and right (its advance's box: the engine's runs abut there, where
        their ink leaves gaps), after closing the line or adding a word space the runs' places call for."""
        raw.FPDFText_GetLooseCharBox(textpage, index, ctypes.byref(self.loose))
        x0, x1 = self.loose.left, self.loose.right
        if self.pending and ch != " ":
            self.pending = False
            last = next((c for c in reversed(chars) if c[0] != " "), None)
            gap = x0 - last[2] if last is not None else 0.0
            if last is None or abs(base - last[3]) > max(size, last[4]) * 0.2 or not -size * 0.2 <= gap <= size:
                close()  # a real break: another baseline, or back to the line's start
            elif gap >= size * 0.25 and chars[-1][0] != " ":
                chars.append((" ", last[2], last[2], last[3], last[4], last[5]))  # a word space's gap
        if chars and chars[-1][0] != " " and ch != " " and run != self.last_run \
                and abs(base - chars[-1][3]) <= size * 0.2 and size * 0.04 <= x0 - chars[-1][2] <= size:
            # A run in another font or colour (code, a link) set a little apart, less than a space's width.
            chars.append((" ", chars[-1][2], chars[-1][2], chars[-1][3], chars[-1][4], chars[-1][5]))
        self.last_run = run
        return x0, x1
