"""A scan's OCR layer: its headings told from its misread sizes, its chapter numbers from its misread letters.

An OCR engine measures each line's size from the picture, so sizes are whole points and noisy: a
heading set larger in print may come out at the body's size, a line of tall letters inside a
paragraph at a heading's. And it misreads a Roman numeral's letters ("IIT" for III, "Vv" for V,
"Ix" for IX) or drops one ("VII" where VIII stood). What is measured here is the page's geometry
(a heading stands apart, no line close over or under it) and the chapter numbers' sequence.
"""
from __future__ import annotations

import dataclasses
import re
from collections import Counter

from app.book.formats.pdfstyle import OCR_HEADING_STEP, Style
from app.book.narration.cleanup import is_apparatus_title, is_matter_title
from app.book.structure.lines import CHAPTER_WORDS, is_named_heading

#: A heading stands apart: no other line over or under it within this many body sizes.
OCR_HEADING_GAP = 1.5
#: A page's top and bottom share where its number may stand: a number there is never made a heading.
EDGE_ZONE = 0.12
#: Letters an OCR engine reads for a Roman numeral's own ("T", "l", "1", "|" for I; lower case for upper).
_OCR_ROMAN = str.maketrans({"T": "I", "t": "I", "l": "I", "1": "I", "|": "I", "!": "I", "i": "I",
                            "v": "V", "x": "X", "c": "C", "L": "L", "d": "D", "m": "M"})
#: A chapter's number as an OCR engine may read it: Roman letters and their look-alikes, or digits; alone,
#: or after "Chapter" as misread ("CHAPTEE", "Cliapter", "CHAP'TER") or abbreviated ("CHAP.", as older books
#: set it), and then maybe the chapter's title.
_HEAD = re.compile(r"^(?:(?P<word>[A-Za-z'\u2019]{5,9}(?=\s)|[A-Za-z]{3,5}\.)\s*)?(?P<num>[IVXLCDMivxlcdmTt1|!]{1,8}|\d{1,3})"
                   r"(?P<punct>[.:]?)(?:\s+(?P<rest>\S.*))?$")
#: A line that opens with a quotation mark or ends a sentence (a heading may end in a full stop: "PREFACE.").
_SENTENCE = re.compile(r"^[\"\u201c\u2018']|[,;!?\u201d]$")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
#: The other words books number their chapters with ("Stave I", "Canto IV", "Letter XII"), read as printed:
#: five letters or more, as _HEAD's word (a short one, "Day", "Fit", is too often a line's first word).
_OTHER_CHAPTER_WORDS = frozenset(w for w in CHAPTER_WORDS.split("|") if w.isalpha() and len(w) >= 5) - {"chapter"}


def _reads_as_sentence(text: str) -> bool:
    """Return whether a line reads as a sentence: a quotation, a clause's end, or a full stop after five words
    or more in lower case or after a line opening in lower case (a heading's full stop ends a few words,
    "PREFACE.", or a line in capitals, "THE MILL ON THE WEIR.")."""
    return bool(_SENTENCE.search(text)) or text.endswith(".") and (
        len(text.split()) >= 5 and text != text.upper() or text[:1].islower())


def _isolated(ln, lines, reach: float, heads: set[float]) -> bool:
    """Return whether no body line stands within `reach` over or under a line, overlapping it across."""
    return not any(o is not ln and round(o.size * 2) / 2 not in heads and abs(o.base - ln.base) < reach
                   and o.x0 < ln.x1 and ln.x0 < o.x1 for o in lines)


#: Words of a line that reads as a paragraph's full line, never a heading's.
PROSE_LINE_WORDS = 8


def _in_prose_run(ln, lines, reach: float) -> bool:
    """Return whether a long line has another long line within `reach` over or under it: a paragraph that the
    OCR read large as a whole (every line at a heading's size), where no body line stands near to tell it."""
    return len(ln.text.split()) >= PROSE_LINE_WORDS and any(
        o is not ln and len(o.text.split()) >= PROSE_LINE_WORDS and abs(o.base - ln.base) < reach
        and o.x0 < ln.x1 and ln.x0 < o.x1 for o in lines)


def settle_ocr_sizes(pages, style: Style) -> None:
    """Give the OCR layer's lines the sizes their place on the page says, in place.

    A line of a heading's size that a body line stands close over or under is inside a paragraph
    (a size misread from tall letters), as is one opening in lower case (a piece of a sentence):
    body size. A bare chapter number standing apart in a book whose headings are chapter numbers is
    a heading, whatever size was read: the numbers' own size. Measured on the page's geometry, not on
    the lines' order: an OCR engine gives a page's lines block by block.
    """
    heads = set(style.heading_sizes)
    reach = style.body * OCR_HEADING_GAP
    numbers: Counter = Counter()
    for page in pages:
        settled = [ln for ln in page.lines if round(ln.size * 2) / 2 in heads
                   and (not _isolated(ln, page.lines, reach, heads) or ln.text[:1].islower()
                        or _in_prose_run(ln, page.lines, reach))]
        for ln in settled:
            ln.size = style.body
        numbers.update(round(ln.size * 2) / 2 for ln in page.lines
                       if round(ln.size * 2) / 2 in heads and is_chapter_number(ln.text))
    # Chapter numbers standing apart at a smaller size than the numbers' (or at any, where none was read
    # large): mid-page, where no page number stands.
    apart = [ln for page in pages for ln in page.lines
             if ln.size >= style.body * 0.7 and is_chapter_number(ln.text) and _isolated(ln, page.lines, reach, heads)
             and page.height * EDGE_ZONE < ln.base < page.height * (1 - EDGE_ZONE)]
    if numbers and numbers.most_common(1)[0][1] >= 3:
        size = numbers.most_common(1)[0][0]
    elif len(apart) >= 3:
        # No heading size holds them: the OCR read every chapter's number at about the body's size.
        size = style.body + OCR_HEADING_STEP
        style.heading_sizes = sorted({*style.heading_sizes, size}, reverse=True)[:5]
        if size not in style.heading_sizes:
            return
    else:
        return
    for ln in apart:
        if ln.size < size:
            ln.size = size
    # A listing's heading standing apart ("CONTENTS.", "LIST OF ILLUSTRATIONS."), read at the body's size as
    # the chapter numbers may be: a heading of their level, so the listing under it is matter, not the text
    # of the preface before it. So is a part the book names alone on its line ("PREFACE.", "Epilogue").
    for page in pages:
        for ln in page.lines:
            if (ln.size < size and len(ln.text.split()) <= 6 and _isolated(ln, page.lines, reach, heads)
                    and (is_matter_title(ln.text) or is_apparatus_title(ln.text) or is_named_heading(ln.text))):
                ln.size = size
    _listed_headings(pages, size, reach, heads)
    _restore_lost_numbers(pages, style.body, size)
    _one_title_size(pages, style, size)


#: A chapter's opening leaves a blank over its number at least this many body sizes deep.
OPENING_BLANK = 2.5


def _restore_lost_numbers(pages, body: float, size: float) -> None:
    """Put back a chapter number the OCR lost, in place: where the numbers read go from n to n + 2, the one
    between stood in the deepest blank between them, as a chapter's opening leaves one (the engine read the
    text under it, not the number). Nothing is put back where no blank is that deep."""
    heads = [(n, ln) for n, page in enumerate(pages) for ln in page.lines
             if ln.size >= size and is_chapter_number(ln.text, loose=True)]  # "Vv": a number misread, not lost
    values = [_value(ln.text) for _, ln in heads]
    for k in range(len(heads) - 1):
        (pa, a), (pb, b) = heads[k], heads[k + 1]
        va, vb = values[k], values[k + 1]
        # Only where the numbers around go up too: a number read twice ("XLII", "XLII", "XLIV") is a misread
        # one, which the sequence repairs, not one lost.
        if va is None or vb != va + 2 or (k and (values[k - 1] or 0) >= va) or (
                k + 2 < len(heads) and (values[k + 2] or 0) <= vb):
            continue
        best = None
        for n in range(pa, pb + 1):
            lines = sorted(pages[n].lines, key=lambda x: x.base)
            for prev, nxt in zip(lines, lines[1:]):
                if (n == pa and prev.base < a.base) or (n == pb and nxt.base > b.base) or a in (prev, nxt) \
                        or b in (prev, nxt) or not all(pages[n].height * EDGE_ZONE < x.base < pages[n].height
                                                       * (1 - EDGE_ZONE) for x in (prev, nxt)):
                    continue  # a page's head or foot (its number) is no chapter's text
                depth = nxt.top - prev.base
                if depth >= OPENING_BLANK * body and (best is None or depth > best[0]):
                    best = (depth, n, prev, nxt)
        if best is None:
            continue
        _, n, prev, nxt = best
        m = _parse(a.text)
        word = m.group("word") or ""
        text = f"{word + ' ' if word else ''}{str(va + 1) if m.group('num').isdigit() else to_roman(va + 1)}{m.group('punct')}"
        line = dataclasses.replace(a, text=text, base=(prev.base + nxt.top) / 2 + a.size / 2, page=pages[n].index,
                                   pieces=(), gap=())
        pages[n].lines.insert(pages[n].lines.index(nxt), line)


def _entry_key(text: str) -> str:
    """A contents entry or a heading as compared: its letters and numerals in lower case, a page number off."""
    return " ".join(re.findall(r"[^\W_]+", re.sub(r"[\s.]*\d+\s*$", "", text).casefold()))


def _listed_headings(pages, size: float, reach: float, heads: set[float]) -> None:
    """Give a line standing apart mid-page that a contents listing names, as printed, the chapter numbers'
    size, in place: a chapter headed by a name ("The Mill at Night.", "PREFACE.") read at the body's size.

    The listing is the lines under a line "CONTENTS", on its page and the pages after it
    that hold no paragraph (no full line of prose)."""
    listed: set[str] = set()
    used: set[int] = set()
    for n, page in enumerate(pages):
        start = next((k for k, ln in enumerate(page.lines) if _entry_key(ln.text) in {"contents", "table of contents"}),
                     None)
        if start is None:
            continue
        run = [page.lines[start + 1:]] + [p.lines for p in pages[n + 1:n + 4]]
        for k, lines in enumerate(run):
            if k and any(len(ln.text.split()) >= PROSE_LINE_WORDS for ln in lines):
                break
            listed.update(_entry_key(ln.text) for ln in lines if len(ln.text.split()) < PROSE_LINE_WORDS)
            used.add(n + k)
        break
    listed.discard("")
    if not listed:
        return
    for n, page in enumerate(pages):
        if n in used:
            continue
        for ln in page.lines:
            if (ln.size < size and _entry_key(ln.text) in listed and _isolated(ln, page.lines, reach, heads)
                    and page.height * EDGE_ZONE < ln.base < page.height * (1 - EDGE_ZONE)):
                ln.size = size


def _one_title_size(pages, style: Style, numbers: float) -> None:
    """Set the lines of the sizes above the chapter numbers' that no two lines share to one size, in place.

    A title page's lines ("THE MILL", "BY", "ANN WRITER") come out of the OCR each at its own whole point,
    and each such size is a heading level of its own: the chapters fall to the fourth level or below,
    where no book is divided. Printed, they are one or two sizes; read, one level, above the chapters."""
    counts = Counter(round(ln.size * 2) / 2 for page in pages for ln in page.lines)
    single = [s for s in style.heading_sizes if s > numbers and counts[s] < 2]
    if len(single) < 2:
        return
    top = max(single)
    for page in pages:
        for ln in page.lines:
            if round(ln.size * 2) / 2 in single:
                ln.size = top
    style.heading_sizes = [s for s in style.heading_sizes if s not in single or s == top]


def _parse(text: str):
    """Return a chapter-number line's match ("XIV", "CHAPTEE XI. THE FLOOD"), or None: a number after no
    word stands alone (a title may open with "I")."""
    m = _HEAD.match(text.strip())
    if m is None or (m.group("word") and not _chapter_word(m.group("word"))) or (m.group("rest") and not m.group("word")):
        return None
    return m


def is_chapter_number(text: str, loose: bool = False) -> bool:
    """Return whether a line is a chapter's number as an OCR engine may read it ("XIV", "Ix", "Chapter 1l",
    "CHAPTEE II. THE FLOOD"); `loose`: or Roman letters that make no numeral ("Vv"), where the sequence
    around says which."""
    m = _parse(text)
    return bool(m and (m.group("num").isdigit() or _roman(m.group("num")) is not None or loose))


def _chapter_word(word: str) -> bool:
    """Return whether a word is "chapter" misread by at most two letters, "chap." by at most one, or another
    word books number chapters with ("Stave") as printed."""
    word = word.casefold().replace("'", "").replace("\u2019", "")
    if word in _OTHER_CHAPTER_WORDS:
        return True
    if word.endswith("."):  # "CIIAP." is the H read as two I's
        return _distance(word[:-1].replace("ii", "h"), "chap") <= 1
    return _distance(word, "chapter") <= 2


def _distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def _roman(text: str) -> int | None:
    """Return a Roman numeral's value, its OCR look-alike letters read as the numeral's ("LIT" = 53), or None."""
    s = text.strip().rstrip(".").translate(_OCR_ROMAN).upper()
    if not s or any(ch not in _ROMAN_VALUES for ch in s):
        return None
    total = 0
    for ch, nxt in zip(s, s[1:] + " "):
        v = _ROMAN_VALUES[ch]
        total += -v if nxt != " " and _ROMAN_VALUES[nxt] > v else v
    return total if to_roman(total) == s else None


def to_roman(n: int) -> str:
    out = []
    for v, s in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                 (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= v:
            out.append(s)
            n -= v
    return "".join(out)


def _value(text: str) -> int | None:
    m = _parse(text)
    num = m.group("num") if m else ""
    return int(num) if num.isdigit() else _roman(num) if num else None


def _written(text: str, n: int) -> str:
    """Return a chapter number's line with the number the sequence says, "Chapter" spelt, the rest as read."""
    m = _parse(text)
    word = m.group("word") or ""
    new = str(n) if m.group("num").isdigit() else to_roman(n)
    if word.endswith("."):  # an abbreviation stays one, spelt: "CHAP. III."
        word = "CHAP. " if word.isupper() else "Chap. "
    elif word.casefold() in _OTHER_CHAPTER_WORDS:
        word = f"{word} "  # read right: only "chapter" is spelt anew from its misreadings
    elif word:
        word = "CHAPTER " if word.isupper() else "Chapter "
    rest = f" {m.group('rest')}" if m.group("rest") else ""
    return f"{word}{new}{m.group('punct')}{rest}"


def repair_numbers(blocks) -> None:
    """Set each chapter-number heading to the number its place in the sequence says, in place, where what
    was read is no number or breaks the sequence its neighbours keep ("VII", "VII", "IX": the second is
    VIII). Only where most headings at a level are chapter numbers."""
    levels = Counter(b.level for b in blocks if b.level and is_chapter_number(b.text))
    if not levels:
        return
    level, count = levels.most_common(1)[0]
    heads = [b for b in blocks if b.level == level]
    # The parts a book names ("Preface", "Contents", "Colophon") head their own text at that level: they
    # say nothing of whether the other headings are numbers.
    named = sum(1 for b in heads if is_matter_title(b.text) or is_apparatus_title(b.text) or is_named_heading(b.text))
    if count < 3 or count < (len(heads) - named) * 0.6:
        return
    # Where most headings are numbers, one that is not and reads as a sentence (a quotation, a letter's
    # closing set apart: "“Yours, ever.”", a clause ending in a comma) is a line of the text the OCR read
    # large; a heading's own full stop ("PREFACE.", "HISTORICAL NOTES.") does not make it one.
    for b in heads:
        if not is_chapter_number(b.text) and _reads_as_sentence(b.text.strip()):
            b.level = 0
    numbered = [b for b in heads if is_chapter_number(b.text, loose=True)]
    values = [_value(b.text) for b in numbered]
    for k, b in enumerate(numbered):
        before = values[k - 1] if k else 0
        after = values[k + 1] if k + 1 < len(values) else None
        if before is None:
            continue
        if values[k] == before + 1:
            b.text = _written(b.text, values[k])  # its letters as the numeral's ("IIT" = III)
            continue
        # The number the sequence says, where the next keeps to it (or this is the last).
        if after is None or after == before + 2:
            values[k] = before + 1
            b.text = _written(b.text, before + 1)


#: Pieces of one printed line an OCR engine gave apart: their baselines within this share of their size,
#: the gap between them at most this many sizes (wider is a gutter between columns).
_SAME_BASE, _PIECE_GAP = 0.3, 2.0


def _into_gaps(lines: list) -> list:
    """Return the lines with each piece that fits a gap of another line on its baseline put there, in place:
    the engine gave a line's middle words apart ("The hill was" ... "steep and" ... "dark with pines")."""
    hosts = [o for o in lines if o.gap and o.pieces]
    if not hosts:
        return lines
    out = []
    for ln in lines:
        host = next((o for o in hosts if o is not ln and o.gap and not ln.gap and not ln.row
                     and abs(o.base - ln.base) <= _SAME_BASE * max(o.size, ln.size)
                     and o.gap[0] - ln.size <= ln.x0 and ln.x1 <= o.gap[1] + ln.size), None)
        if host is None:
            out.append(ln)
            continue
        host.text = f"{host.pieces[0]} {ln.text} {host.pieces[1]}"
        host.pieces, host.gap = (), ()
    return out


def reorder_ocr_lines(pages) -> None:
    """Put a one-column OCR page's lines top down, in place, each printed line's pieces joined left to right.

    An OCR engine lays out a page in blocks of its own: a line's first words may come as a block of
    their own, before the rest of that line and the line under it ("As the boat" / "left the bank" /
    "drifted on, the ferryman..."). The page's geometry, not that order, is the reading order."""
    for page in pages:
        if len(page.lines) < 2 or any(ln.column for ln in page.lines):
            continue  # two columns were found: their order is in_reading_order's
        lines = _into_gaps(page.lines)
        out = []
        for ln in sorted(lines, key=lambda x: (x.base, x.x0)):
            same = next((o for o in reversed(out[-4:]) if abs(o.base - ln.base) <= _SAME_BASE * max(o.size, ln.size)
                         and not o.row and not ln.row and (ln.x0 >= o.x1 or ln.x1 <= o.x0)
                         and min(abs(ln.x0 - o.x1), abs(o.x0 - ln.x1)) <= _PIECE_GAP * max(o.size, ln.size)), None)
            if same is None:
                out.append(ln)
                continue
            left, right = (same, ln) if same.x0 <= ln.x0 else (ln, same)
            if len(ln.text) > len(same.text):
                same.size = ln.size  # the line's size is its longer piece's
            same.text = f"{left.text} {right.text}"
            same.x0, same.x1 = min(same.x0, ln.x0), max(same.x1, ln.x1)
            same.pieces = ()
        page.lines = out
