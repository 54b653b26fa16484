"""Bring a chunk's text and what a recognizer heard to one comparable form.

Both sides go through the same steps, so "12" and "twelve", "Colour," and
"color", "Mr." and "mister" compare equal: case folded, numbers read as words
(num2words), symbols spelled out, punctuation dropped, British spellings and
common abbreviations mapped to one form.
"""
from __future__ import annotations

import re
import unicodedata

from num2words import num2words

#: One spelling per word, applied to both sides (recognizers write American English).
VARIANTS: dict[str, str] = {
    "colour": "color", "colours": "colors", "favour": "favor", "favourite": "favorite",
    "honour": "honor", "neighbour": "neighbor", "neighbours": "neighbors", "labour": "labor",
    "humour": "humor", "harbour": "harbor", "behaviour": "behavior", "grey": "gray",
    "centre": "center", "theatre": "theater", "metre": "meter", "litre": "liter",
    "realise": "realize", "realised": "realized", "recognise": "recognize", "recognised": "recognized",
    "travelled": "traveled", "travelling": "traveling", "jewellery": "jewelry", "cheque": "check",
    "plough": "plow", "defence": "defense", "offence": "offense", "towards": "toward",
    "ok": "okay", "mr": "mister", "mrs": "missus", "dr": "doctor", "st": "saint",
}
#: Symbols a narrator says as words.
SYMBOLS: dict[str, str] = {"&": " and ", "%": " percent ", "+": " plus ", "@": " at ", "=": " equals "}

_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(st|nd|rd|th)?\b", re.IGNORECASE)
_CURRENCY = re.compile(r"[$£€](\d+(?:[.,]\d+)*)")
_NOT_WORD = re.compile(r"[^a-z0-9' ]+")


def _spell_number(match: re.Match[str]) -> str:
    whole, fraction, suffix = match.group(1).replace(",", ""), match.group(2), match.group(3)
    value = int(whole)
    if suffix:
        return f" {num2words(value, to='ordinal')} "
    if fraction is not None:
        return f" {num2words(value)} point {' '.join(num2words(int(d)) for d in fraction)} "
    if 1100 <= value <= 2099 and len(whole) == 4 and value % 100 != 0:
        return f" {num2words(value, to='year')} "  # "1984" is read "nineteen eighty-four"
    return f" {num2words(value)} "


def normalize(text: str) -> list[str]:
    """Return the words of `text` in the comparable form."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    text = _CURRENCY.sub(lambda m: f" {m.group(1)} dollars ", text)
    for symbol, spoken in SYMBOLS.items():
        text = text.replace(symbol, spoken)
    text = _NUMBER.sub(_spell_number, text)
    text = text.lower().replace("-", " ")
    text = _NOT_WORD.sub(" ", text)
    words = []
    for raw in text.split():
        word = raw.strip("'").replace("'", "")  # "don't" and "dont" compare equal
        if word:
            words.append(VARIANTS.get(word, word))
    return words
