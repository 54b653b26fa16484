"""Numbers with a letter: house numbers ("12B" -> "twelve B"), book sizes ("12mo"), labels ("1.E.8").

A number glued to letters is otherwise a name, said as its letters and its number
("MP three", numbers.leftover); these two shapes are read as a listener says them. A capital after the
digits is a house, flat or room letter (or a unit a voice says as its letter anyway:
"4K", "3D"); the printers' sizes are the old words for a sheet folded so many times.
"""
from __future__ import annotations

import re

from app.book.spoken.languages import Language
from app.book.spoken.numbers import cardinal

#: Capitalized words before "9:5" that are no book of scripture ("At 9:5", "By 3:1").
_NOT_BOOKS = frozenset("At By In On To From Of And Or The About Until Till After Before Since Was Is Are Score "
                       "Odds Ratio".split())
#: Book sizes said with their Latin names; the others are the number with "-mo" ("twelvemo").
_SIZES = {"4to": "quarto", "8vo": "octavo"}


def _verse(m: re.Match, lang: Language) -> str:
    """Return "two, verse four" for 2:4 and "three, verses sixteen to eighteen" for 3:16-18."""
    chapter, verse = cardinal(int(m[2]), lang), cardinal(int(m[3]), lang)
    if m[4]:
        return f"{chapter}, verses {verse} {lang.range_word} {cardinal(int(m[4]), lang)}"
    return f"{chapter}, verse {verse}"


def labels(text: str, lang: Language) -> str:
    """Return text with lettered house and room numbers and book sizes read (English)."""
    if lang.code != "en":
        return text

    def size(m: re.Match) -> str:
        return _SIZES.get(m[0].lower()) or f"{cardinal(int(m[1]), lang)}mo"

    text = re.sub(r"(?<![\w.,])(?:4to|8vo|(\d{1,2})mo)\b", size, text, flags=re.IGNORECASE)
    # A section label of numbers and capitals: "1.E.8" -> "one E eight" (a version "1.2.3" is plain's).
    text = re.sub(r"(?<![\w.])\d+(?:\.(?:[A-Z]|\d+))*\.[A-Z](?:\.(?:[A-Z]|\d+))*(?![\w]|\.\w)",
                  lambda m: " ".join(cardinal(int(p), lang) if p.isdigit() else p for p in m[0].split(".")), text)
    # Chapter and verse after a book's name ("Ecclesiastes 2:4", "Psalm 127:2"; "John 3:16" was read
    # as a clock time already, as people say it); elsewhere a colon between numbers is a ratio ("2:1").
    text = re.sub(r"\b([A-Z][a-z]+\.? )(\d{1,3}):(\d{1,3})(?:[-\u2013](\d{1,3}))?(?![\w:])",
                  lambda m: m[0] if m[1].strip() in _NOT_BOOKS else m[1] + _verse(m, lang), text)
    text = re.sub(r"(?<![\w.:])(\d{1,3}):(\d{1,3})(?![\w:]|\.\d)",
                  lambda m: f"{cardinal(int(m[1]), lang)} to {cardinal(int(m[2]), lang)}", text)
    # "14a Mill Street", "7b Quay Row": a house's letter in lower case, before the street's name.
    text = re.sub(r"(?<![\w.,/-])(\d{1,4})([ab])(?=\s+[A-Z][a-z])",
                  lambda m: f"{cardinal(int(m[1]), lang)} {m[2].upper()}", text)
    # "12B", "221B": one capital after up to four digits, not a part of a longer name ("12B-3", "4K60").
    return re.sub(r"(?<![\w.,/-])(\d{1,4})([A-Z])(?![\w-]|[.,]\d)",
                  lambda m: f"{cardinal(int(m[1]), lang)} {m[2]}", text)
