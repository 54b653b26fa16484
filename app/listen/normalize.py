"""Bring a chunk's text and what a recognizer heard to one comparable form.

The spoken form comes from the code that made the chunk's text (app/book/spoken):
"$3.50", "1984", "Dr.", "5th" are read by the same rules on both sides, so what
the narrator was asked to say and what Whisper wrote for it meet as the same words.
There are no number rules here. On top of that, tolerance for how a recognizer
writes what it heard: a number it wrote in another notation than the book's
("10.30" for "ten thirty", "3.50" for "three dollars and fifty cents") is read the
way that fits the chunk's words, and a word the chunk has as printed ("co.")
is not expanded; hyphens, case, punctuation, apostrophes and British spellings
are folded away.
"""
from __future__ import annotations

import functools
import re
import unicodedata

from app.book.spoken import Speaker
from app.book.spoken.numbers import cardinal, year

#: One spelling per word, applied to both sides (recognizers write American English).
VARIANTS: dict[str, str] = {
    "colour": "color", "colours": "colors", "favour": "favor", "favourite": "favorite",
    "honour": "honor", "neighbour": "neighbor", "neighbours": "neighbors", "labour": "labor",
    "humour": "humor", "harbour": "harbor", "behaviour": "behavior", "grey": "gray",
    "centre": "center", "theatre": "theater", "metre": "meter", "litre": "liter",
    "realise": "realize", "realised": "realized", "recognise": "recognize", "recognised": "recognized",
    "travelled": "traveled", "travelling": "traveling", "jewellery": "jewelry", "cheque": "check",
    "plough": "plow", "defence": "defense", "offence": "offense", "towards": "toward",
    "ok": "okay", "whilst": "while", "amongst": "among",
}
#: Symbols left glued to words after the spoken form ("R&D", "50%" heard without a space).
SYMBOLS: dict[str, str] = {"&": " and ", "%": " percent ", "+": " plus ", "@": " at ", "=": " equals "}

#: A number as a recognizer writes it: "$3.50", "10.30", "1,200", "5th", "1984".
_HEARD_NUMBER = r"(?<![\w.,:])[$£€]?\d[\d,.:]*(?:st|nd|rd|th)?(?![\w])"


@functools.lru_cache(maxsize=8)
def _heard_number(months: tuple[str, ...]) -> re.Pattern:
    """Return the pattern of a heard number, with the month after it when there is one ("5 May")."""
    if not months:
        return re.compile(_HEARD_NUMBER)
    # With the "the" before it too, so that "the 5th of May" is read whole, with one "the".
    return re.compile(rf"(?:\b[Tt]he\s)?{_HEARD_NUMBER}(?:\s(?:of\s)?(?:{'|'.join(months)})\b)?")
#: A short word with a full stop, which the spoken form may expand ("Co." -> "Company").
_HEARD_ABBREVIATION = re.compile(r"\b([A-Za-z]{1,5})\.")
#: Readings an abbreviation has besides its usual one, chosen by the text's context on the book's side
#: ("Ashwell, co. Hertford" is a county; "Mill St." a street): a heard "Co." may stand for either.
OTHER_READINGS: dict[str, tuple[str, ...]] = {
    "co": ("county",), "st": ("street", "saint"), "dr": ("drive",), "mt": ("mount", "mountain"),
}
_PER_CENT = re.compile(r"\bper\s+cent\b")
_NOT_WORD = re.compile(r"[^\w' ]+")


@functools.lru_cache(maxsize=8)
def _speaker(language: str | None) -> Speaker:
    # No lexicon: the chunk's text has the user's words in it already; links are read as a narrator does.
    return Speaker(language or "en")


def _readings(token: str, speaker: Speaker) -> list[str]:
    """Return the ways a heard number may have been said, the book's own reading first."""
    said = [speaker(token)]
    lang = speaker.language
    digits = token.lstrip("$£€")
    if re.fullmatch(r"\d{1,2}[.:]\d{2}", digits):
        said.append(speaker(digits.replace(".", ":")))  # a clock time written with a point
    if re.fullmatch(r"\d+(?:\.\d{1,2})?", digits) and digits == token and lang.currencies:
        said.extend(speaker(f"{symbol}{digits}") for symbol in list(lang.currencies)[:4])  # money heard bare
    fraction = {"5": "½", "25": "¼", "75": "¾"}.get(digits.partition(".")[2]) if "." in digits else None
    if fraction and re.fullmatch(r"\d+\.\d+", digits):
        said.append(speaker(digits.partition(".")[0] + fraction))  # "4.5" heard for "four and a half"
    if re.fullmatch(r"\d{4}", digits):
        said.extend([year(int(digits), lang), cardinal(int(digits), lang)])
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+", digits):
        said.append(cardinal(int(digits.replace(",", "")), lang))
    return said


def _fold(text: str) -> list[str]:
    """Return the words of spoken-form text folded for comparison (case, hyphens, punctuation, spelling)."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    for symbol, spoken in SYMBOLS.items():
        text = text.replace(symbol, spoken)
    text = _NOT_WORD.sub(" ", text.lower().replace("-", " ").replace("_", " "))
    text = _PER_CENT.sub("percent", text)  # the older spelling, and the recognizer's "%"
    words = []
    for raw in text.split():
        # "don't" and "dont" compare equal; "Emma's" heard "Emma" is forgiven by its sounds (score.py).
        word = raw.strip("'").replace("'", "")
        if word:
            words.append(VARIANTS.get(word, word))
    return words


def normalize(text: str, language: str | None = None, *, like: list[str] | None = None) -> list[str]:
    """Return the words of `text` in the comparable form.

    `like` is the other side's words: a heard number is then read the way that shares the
    most words with them (the book's own reading when none fits better).
    """
    speaker = _speaker(language)
    if like:
        vocabulary, joined = set(like), f" {' '.join(like)} "

        def fit(m: re.Match) -> str:
            readings = _readings(m[0], speaker)
            return max(readings, key=lambda r: _fits(_fold(r), vocabulary, joined))

        text = _heard_number(speaker.language.months).sub(fit, text)
        # A word the chunk has as printed stays so: "co." in the text, heard "Co.", is not "Company".
        text = _HEARD_ABBREVIATION.sub(lambda m: _abbreviation(m, vocabulary), text)
    return _fold(speaker(text))


def _abbreviation(m: re.Match, vocabulary: set[str]) -> str:
    """Return a heard abbreviation as the chunk has it: as printed, or in the reading the chunk uses."""
    if m[1].lower() in vocabulary:
        return m[1]
    other = next((r for r in OTHER_READINGS.get(m[1].lower(), ()) if r in vocabulary), None)
    return other or m[0]


def _fits(words: list[str], vocabulary: set[str], joined: str) -> tuple[bool, float, int]:
    """Return how well a reading fits the other side's words: said there as a whole, else the share
    of its words found there, then how many ("ten thirty" beats "ten dollars and thirty cents")."""
    found = sum(w in vocabulary for w in words)
    whole = bool(words) and f" {' '.join(words)} " in joined
    return (whole, found / len(words) if words else 0.0, found)
