"""Word spaces a typesetter made by moving the pen, with no space character and none that PDFium adds.

Ghostscript's ps2pdf (groff's PDFs through pdfroff, other PostScript turned into PDF) sets a line's pieces
with character spacing: "(eb) Tj" at 2.9 Tc is "e", a word space's gap, "b". PDFium marks no space there,
so the words run together ("th" + "eb" + "oat" is read "theboat"). The glyphs' advance boxes say
what the marks do not: inside a word they abut (a kern moves a letter by a few hundredths of the size), a
word space leaves a gap of 0.15 of the size or more. Letter-spaced text (a heading set "W I N T E R" by
tracking) has such gaps after every letter: three letters or more in a row, each alone between them, are one word.
"""
from __future__ import annotations

import ctypes

import pypdfium2.raw as raw

#: A gap between two glyphs' advance boxes at least this many font sizes is a word space.
WORD_GAP = 0.15
#: The space put where the pen left a word's gap, until the line is whole (letter-spaced runs are undone).
PEN_SPACE = "\x01"
#: This many letters in a row, each alone between such gaps, are one letter-spaced word.
SPACED_LETTERS = 3


class PenSpaces:
    """One page's characters' indices, to measure the advance gap between the last and the next."""

    def __init__(self) -> None:
        self.box = raw.FS_RECTF()
        #: PDFium index of the line's last character read (not generated), or -1.
        self.last = -1
        #: A pen space was put in the line being read (settle it when the line is whole).
        self.made = False

    def _loose(self, textpage, index: int) -> tuple[float, float]:
        raw.FPDFText_GetLooseCharBox(textpage, index, ctypes.byref(self.box))
        return self.box.left, self.box.right

    def wants_space(self, textpage, index: int, x0: float, base: float, size: float, chars: list) -> bool:
        """Return whether a word space goes before character `index` (its ink's left x0 on baseline base),
        the line's characters so far being `chars` (the layout's tuples: ch, x0, x1, base, size, font)."""
        last = self.last  # the layout sets it to each character read, after this call
        if last < 0 or not chars or chars[-1][0] in (" ", PEN_SPACE) or abs(base - chars[-1][3]) > size * 0.2 \
                or x0 - chars[-1][2] <= size * 0.1:
            return False
        gap = self._loose(textpage, index)[0] - self._loose(textpage, last)[1]
        return size * WORD_GAP <= gap <= size * 1.6

    @staticmethod
    def swallowed(origin: float, base: float, size: float, chars: list) -> bool:
        """Return whether the line's last character, a space the file holds, takes no room: the next
        character's origin (the pen's place) is back where the letter before the space ended, over the space.
        Ghostscript writes a groff italic word so ("To", a space the pen backs over, "wer"): "Tower"."""
        if len(chars) < 2 or chars[-1][0] != " " or chars[-2][0] == " ":
            return False
        space, letter = chars[-1], chars[-2]
        width = space[2] - space[1]
        if width <= 0 or abs(base - letter[3]) > size * 0.2:
            return False
        return origin < space[1] + width * 0.5 and abs(origin - letter[2]) <= size * 0.15


def settle(chars: list) -> None:
    """Make the pen's spaces of a whole line word spaces, but inside a letter-spaced run ("W I N T E R": three
    letters or more in a row, each alone between them), which is one word."""
    # The line's words: (first index, last index, the separator after it: " ", PEN_SPACE or "").
    words: list[tuple[int, int, str]] = []
    start = 0
    for k, c in enumerate(chars + [(" ",)]):
        if c[0] in (" ", PEN_SPACE):
            if k > start:
                words.append((start, k - 1, c[0] if k < len(chars) else ""))
            start = k + 1
    drop: set[int] = set()
    run: list[tuple[int, int, str]] = []
    for w in words + [(0, -1, "")]:
        if w[0] == w[1] and (not run or run[-1][2] == PEN_SPACE):
            run.append(w)
            continue
        if len(run) >= SPACED_LETTERS:
            drop.update(r[1] + 1 for r in run[:-1])
        run = [w] if w[0] == w[1] else []
    chars[:] = [(" ", *c[1:]) if c[0] == PEN_SPACE else c for k, c in enumerate(chars) if k not in drop]
