"""Word spaces a typesetter made by moving the pen, with no space character and none that PDFium adds.

Ghostscript's ps2pdf (groff's PDFs through pdfroff, other PostScript turned into PDF) sets a line's pieces
with character spacing: "(eb) Tj" at 2.9 Tc is "e", a word space's gap, "b". PDFium marks no space there,
so the words run together ("th" + "eb" + "oat" is read "theboat"). The glyphs' advance boxes say
what the marks do not: inside a word they abut (a kern moves a letter by a few hundredths of the size), a
word space leaves a gap of 0.15 of the size or more. Letter-spaced text (a heading set "W I N T E R" by
tracking) has such gaps after every letter: three letters or more in a row, each alone between them, are one word.

Where the file spaces its words with space characters (Word, LibreOffice, a browser), PDFium makes up a space in
every gap wider than a letter's: text set with expanded character spacing (Word's "Expanded by 3 pt", CSS
letter-spacing, a spaced-out emphasis) comes as "e x p a n d e d". Such a run of letters each alone between
made-up spaces is read as its words: the gap after most letters is the tracking; a word's gap is wider by a
space's width.
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
#: Space characters the file must have held (and more than the spaces PDFium made up after words) before made-up
#: spaces between letters are taken for tracking: a TeX PDF holds none (every word space is made up), and its
#: "x y z" are words.
SPACED_TEXT = 3
#: A gap in a tracked run wider than the tracking by this many font sizes is a word's.
TRACKED_WORD_GAP = 0.2
#: Tracking is no wider than this many font sizes (wider: a table's letters in columns, "A  B  C").
MAX_TRACKING = 0.6


class PenSpaces:
    """One page's characters' indices, to measure the advance gap between the last and the next."""

    def __init__(self) -> None:
        self.box = raw.FS_RECTF()
        #: PDFium index of the line's last character read (not generated), or -1.
        self.last = -1
        #: A pen space was put in the line being read (settle it when the line is whole).
        self.made = False
        #: PDFium made up a space in the line being read.
        self.made_up = False

    def make_up(self, chars: list) -> int:
        """Note a space PDFium made up, just put last in `chars`; return 1 where it follows a word of two
        characters or more (a word space the file did not hold), else 0."""
        self.made_up = True
        return int(len(chars) >= 3 and chars[-2][0] != " " and chars[-3][0] != " ")

    def settle_line(self, chars: list, fonts) -> None:
        """Settle a whole line's spaces and start anew. `fonts` (pdflayout's FontCache) counts the space characters
        the file held so far and the spaces made up after words: a file that spaces its words with characters
        holds more of the first."""
        if self.made:
            settle(chars)
        if self.made_up and fonts.spaces >= SPACED_TEXT and fonts.word_gaps <= fonts.spaces:
            tracked(chars)
        self.made = self.made_up = False

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


def tracked(chars: list) -> None:
    """Take out the spaces PDFium made up inside letter-spaced words (a made-up space has no width: the layout
    puts it at the last letter's right edge); a space in a wider gap, a word's, stays."""
    made = {k for k, c in enumerate(chars) if c[0] == " " and c[1] == c[2]}
    if not made:
        return
    drop: set[int] = set()
    k = 0
    while k < len(chars):
        # A run: a letter alone, then (a made-up space, a letter alone) again and again.
        run = [k]
        while _alone(chars, run[-1]) and run[-1] + 2 < len(chars) and run[-1] + 1 in made \
                and _alone(chars, run[-1] + 2):
            run.append(run[-1] + 2)
        letters = sum(chars[j][0].isalpha() for j in run)
        if len(run) >= SPACED_LETTERS and _alone(chars, k) and letters * 3 >= len(run) * 2:
            size = max(chars[j][4] for j in run)
            gaps = [chars[b][1] - chars[a][2] for a, b in zip(run, run[1:])]
            tracking = sorted(gaps)[len(gaps) // 2]
            if 0 < tracking <= size * MAX_TRACKING:
                drop.update(a + 1 for a, g in zip(run, gaps) if g < tracking + size * TRACKED_WORD_GAP)
        k = run[-1] + 1
    if drop:
        chars[:] = [c for j, c in enumerate(chars) if j not in drop]


def _alone(chars: list, k: int) -> bool:
    """Return whether character k stands alone between spaces (or the line's ends)."""
    return chars[k][0] != " " and (k == 0 or chars[k - 1][0] == " ") and (k + 1 == len(chars) or chars[k + 1][0] == " ")
