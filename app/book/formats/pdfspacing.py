"""Word spaces a typesetter made by moving the pen, with no space character and none that PDFium adds.

Ghostscript's ps2pdf (groff's PDFs through pdfroff, other PostScript turned into PDF) sets a line's pieces
with character spacing: "(eh) Tj" at 2.9 Tc is "e", a word space's gap, "h". PDFium marks no space there,
so the words run together ("befor" + "eh" + "orses" is read "beforehorses"). The glyphs' advance boxes say
what the marks do not: inside a word they abut (a kern moves a letter by a few hundredths of the size), a
word space leaves a gap of a fifth of the size or more. Letter-spaced text (a heading set "S T A V E" by
tracking) has such gaps after every letter: a gap wider than the one before it by far is the word space.
"""
from __future__ import annotations

import ctypes

import pypdfium2.raw as raw

#: A gap between two glyphs' advance boxes at least this many font sizes is a word space.
WORD_GAP = 0.15
#: Inside a word the boxes abut: the gap before the last letter under this many sizes.
LETTER_GAP = 0.05


class PenSpaces:
    """One page's characters' indices, to measure the advance gap between the last two and the next."""

    def __init__(self) -> None:
        self.box = raw.FS_RECTF()
        #: PDFium indices of the line's last two characters read (not generated), newest last.
        self.last: list[int] = []

    def _loose(self, textpage, index: int) -> tuple[float, float]:
        raw.FPDFText_GetLooseCharBox(textpage, index, ctypes.byref(self.box))
        return self.box.left, self.box.right

    def wants_space(self, textpage, index: int, x0: float, base: float, size: float, chars: list) -> bool:
        """Return whether a word space goes before character `index` (its ink's left x0 on baseline base),
        the line's characters so far being `chars` (the layout's tuples: ch, x0, x1, base, size, font)."""
        last = self.last
        if not chars or chars[-1][0] == " ":
            last.clear()  # a new line or a word's start: no letter before to compare with
        ok = (bool(last) and chars[-1][0] != " " and abs(base - chars[-1][3]) <= size * 0.2
              and x0 - chars[-1][2] > size * WORD_GAP * 0.5)
        if ok:
            prev = self._loose(textpage, last[-1])
            gap = self._loose(textpage, index)[0] - prev[1]
            ok = size * WORD_GAP <= gap <= size * 1.6
            if ok and len(last) == 2:  # letter-spaced: the letters before were as far apart
                ok = prev[0] - self._loose(textpage, last[0])[1] < size * LETTER_GAP
        if ok:
            last.clear()  # the next word starts here
        last.append(index)
        del last[:-2]
        return ok

    @staticmethod
    def swallowed(origin: float, base: float, size: float, chars: list) -> bool:
        """Return whether the line's last character, a space the file holds, takes no room: the next
        character's origin (the pen's place) is back where the letter before the space ended, over the space.
        Ghostscript writes a groff italic word so ("T", "r", a space the pen backs over, "out"): "Trout"."""
        if len(chars) < 2 or chars[-1][0] != " " or chars[-2][0] == " ":
            return False
        space, letter = chars[-1], chars[-2]
        width = space[2] - space[1]
        if width <= 0 or abs(base - letter[3]) > size * 0.2:
            return False
        return origin < space[1] + width * 0.5 and abs(origin - letter[2]) <= size * 0.15

