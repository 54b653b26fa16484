"""Fractions and mixed numbers: "4½" -> "four and a half", "¾" -> "three quarters", "2 1/4" -> "two and a quarter".

Older books write them with the vulgar-fraction characters (½, ¼, ¾, ⅓, ⅛ ...) or
with a fraction slash (U+2044, Standard Ebooks' "1⁄2"), glued to the whole number
("12½ cents", "8½d."). English only: other languages keep num2words' numbers and
leave the fraction to the voice.
"""
from __future__ import annotations

import re
import unicodedata

from app.book.spoken.languages import Language
from app.book.spoken.numbers import cardinal, ordinal

#: The vulgar-fraction characters, as (numerator, denominator).
_VULGAR: dict[str, tuple[int, int]] = {
    "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5), "⅗": (3, 5),
    "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅐": (1, 7), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8),
    "⅑": (1, 9), "⅒": (1, 10),
}
#: The characters, for regex classes.
VULGAR = "".join(_VULGAR)
#: English names of the denominators said as words of their own (singular, plural).
_NAMES_EN = {2: ("half", "halves"), 4: ("quarter", "quarters")}
#: Anything these rules read: a vulgar fraction, a fraction slash, or a slash between digits.
_ANY_FRACTION = re.compile(rf"[{VULGAR}\u2044]|\d/\d")
#: A fraction set in superscript and subscript digits around the fraction slash ("⁷⁄₂₀").
_SET_FRACTION = re.compile("([\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+)\u2044([\u2080-\u2089]+)")
_PLAIN = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u2080\u2081\u2082"
                       "\u2083\u2084\u2085\u2086\u2087\u2088\u2089", "01234567890123456789")
#: Largest denominator read as a fraction ("5/8"); "3/40" is more likely a label or a date part.
MAX_DENOMINATOR = 16


def fraction_words(top: int, bottom: int, lang: Language, *, mixed: bool = False) -> str:
    """Return a proper fraction in words: "three quarters", "one third"; "a half" after a whole number."""
    one, many = _NAMES_EN.get(bottom) or (ordinal(bottom, lang), ordinal(bottom, lang) + "s")
    if top == 1:
        return f"and a {one}" if mixed else f"one {one}"
    words = f"{cardinal(top, lang)} {many}"
    return f"and {words}" if mixed else words


def vulgar_words(char: str, lang: Language, *, mixed: bool = False) -> str:
    """Return a vulgar-fraction character in words ("¾" -> "three quarters")."""
    top, bottom = _VULGAR.get(char) or _from_unicode(char)
    return fraction_words(top, bottom, lang, mixed=mixed)


def _from_unicode(char: str) -> tuple[int, int]:
    value = unicodedata.numeric(char)
    for bottom in range(2, 11):
        if abs(value * bottom - round(value * bottom)) < 1e-9:
            return round(value * bottom), bottom
    return 1, 2


def fractions(text: str, lang: Language) -> str:
    """Return text with vulgar fractions, fraction-slash fractions and mixed numbers written out."""
    if lang.code != "en" or not _ANY_FRACTION.search(text):
        return text  # most paragraphs: one quick scan instead of three patterns tried at every character

    symbols = "".join(re.escape(c) for c in lang.currencies if len(c) == 1)
    # "2³⁄₈ in.": a mixed number set with superscript and subscript digits, the same as "2 3⁄8".
    text = _SET_FRACTION.sub(lambda m: (" " if m.start() and m.string[m.start() - 1].isdigit() else "")
                             + m[1].translate(_PLAIN) + "\u2044" + m[2].translate(_PLAIN), text)

    def percent(m: re.Match) -> str:
        return f" {lang.percent}" if m["pct"] else ""

    def glued(m: re.Match) -> str:
        whole = f"{cardinal(int(m['whole'].replace(',', '')), lang)} " if m["whole"] else ""
        said = whole + vulgar_words(m["frac"], lang, mixed=bool(whole)) + percent(m)
        if m["cur"]:
            return f"{said} {lang.currencies[m['cur']][1]}"  # "£4½": four and a half pounds
        return said

    def slashed(m: re.Match) -> str:
        top, bottom = int(m["top"]), int(m["bottom"])
        # The fraction slash says "fraction" (a "7⁄20" is one); a plain "/" may be a label or a date.
        if not 0 < top < bottom <= (100 if "\u2044" in m[0] else MAX_DENOMINATOR):
            return m[0]
        whole = f"{cardinal(int(m['whole']), lang)} " if m["whole"] else ""
        said = whole + fraction_words(top, bottom, lang, mixed=bool(whole)) + percent(m)
        return f"{said} {lang.currencies[m['cur']][1]}" if m["cur"] else said

    cur = rf"(?:(?P<cur>[{symbols}])\s?(?=\d))?"
    # "2 1/4" and "1⁄2": a whole number then a proper fraction; plain "3/4" is numbers.fractions' (or a date's).
    text = re.sub(rf"(?<![\w./,{symbols}]){cur}(?:(?P<whole>\d+)[\s\u2009\u202f-])?(?P<top>\d{{1,2}})\u2044"
                  rf"(?P<bottom>\d{{1,2}})(?![\w/\u2044]|\.\d)(?P<pct>\s?%)?", slashed, text)
    text = re.sub(rf"(?<![\w./,{symbols}]){cur}(?P<whole>\d+) (?P<top>\d{{1,2}})/(?P<bottom>\d{{1,2}})"
                  rf"(?![\w/]|\.\d)(?P<pct>\s?%)?", slashed, text)
    # Then the characters: "4½", "£4½" (after the slashes, so "1⁄2 ½" keeps both).
    return re.sub(rf"(?<![\w.,{symbols}])(?:(?P<cur>[{symbols}])\s?(?=\d))?"
                  rf"(?P<whole>\d{{1,3}}(?:,\d{{3}})+|\d+)?[\s\u2009\u202f]?(?P<frac>[{VULGAR}])"
                  rf"(?P<pct>\s?%)?", glued, text)

