"""List bullets, emphasis marks, abbreviations and symbols: never "asterisk", always "Doctor"."""
from __future__ import annotations

import functools
import re

from app.book.spoken.languages import Language

#: A list bullet or task box opening a paragraph: "* item", "• item", "- [ ] item".
_BULLET = re.compile(r"^\s*(?:[*\u2022\u25e6\u25aa\u2023\u2043\u00b7+\-\u2013\u2014]\s+)?(?:\[[ xX]\]\s+)?(?=\S)")
#: A bullet standing between items of a list run into one line: "apples * pears".
_INLINE_BULLET = re.compile(r"\s+[*\u2022\u25e6\u25aa\u2023]\s+")
#: Markdown emphasis left in plain text: *word*, **word**, _word_, `code`.
_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,3}|_{1,2}|`+)(?=\S)(.+?)(?<=\S)\1(?![\w*])")


def bullets(text: str) -> str:
    """Return a paragraph without list bullets and emphasis marks."""
    text = _BULLET.sub("", text, count=1)
    text = _INLINE_BULLET.sub(", ", text)
    text = _EMPHASIS.sub(r"\2", text)
    # A lone asterisk (a footnote mark, a star rating) is never read as "asterisk".
    return re.sub(r"\*+", "", text)


@functools.lru_cache(maxsize=16)
def _abbreviation_re(keys: tuple[str, ...]) -> re.Pattern:
    alternatives = "|".join(re.escape(k).replace(r"\ ", r"\s?") for k in sorted(keys, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?!\w)")


def abbreviations(text: str, lang: Language) -> str:
    """Return text with abbreviations written out; "etc." still ends a sentence where it did."""
    if lang.code == "en":
        # "St. Paul" is a saint, "Mill St." a street.
        text = re.sub(r"(?<![\w.])St\.(?=\s+[A-Z])", "Saint", text)
        text = re.sub(r"(?<=\w) St\.", " Street", text)
        # A place and its county, British style: "Ashwell, co. Hertford" (lower-case "co.", after a
        # named place and a comma; "& Co." is a company). Its stop still ends a sentence that ends there.
        text = re.sub(r"\b([A-Z][a-z]+, )co\.(?:(?=\s+[A-Z])|(\s*$))",
                      lambda m: f"{m[1]}county" + ("." if m[2] is not None else ""), text)
        # A doctor of laws: "LL.D." is said by its letters ("L L D"), no Roman fifty fifty.
        text = re.sub(r"\bLL\.\s?([BDM])\.", r"L L \1.", text)
        # British style writes titles without the stop: "Mr Smith", "Dr Who", "St Ives".
        text = re.sub(r"\b(Mr|Mrs|Ms|Dr|St)\b(?=\s+[A-Z])",
                      lambda m: {"St": "Saint"}.get(m[1]) or lang.abbreviations[m[1] + "."], text)
    if lang.symbols.get("#"):
        text = re.sub(r"(?<![\w#&])#\s?(?=\d)", lang.symbols["#"] + " ", text)
    if lang.number_labels:
        labels = _abbreviation_re(tuple(lang.number_labels))
        text = re.sub(rf"{labels.pattern}(?=\s?(?:\d|[IVXLC]+\b))",
                      lambda m: lang.number_labels[_key(m[0], lang.number_labels)] + " ", text)
        text = re.sub(r"  +", " ", text)
    if not lang.abbreviations:
        return text
    table = lang.abbreviations

    def say(m: re.Match) -> str:
        key = _key(m[0], table)
        words = table[key]
        rest = m.string[m.end():]
        if key in lang.sentence_final and re.match(r"\s*$|\s+[A-ZÄÖÜ\"\u201c]", rest):
            words += "."
        return words

    return _abbreviation_re(tuple(table)).sub(say, text)


def _key(found: str, table: dict[str, str]) -> str:
    """Return the table key a match stands for ("z.B." and "z. B." alike)."""
    if found in table:
        return found
    squeezed = found.replace(" ", "")
    return next(k for k in table if k.replace(" ", "") == squeezed)


def symbols(text: str, lang: Language) -> str:
    """Return text with standalone symbols read as words and typographic noise removed."""
    words = lang.symbols
    if words:
        text = re.sub(r"§§\s?", f"{words['§§']} ", text)
        text = re.sub(r"§\s?", f"{words['§']} ", text)
        text = re.sub(r"(?<=\s)[~\u2248](?=\s?\w)", f"{words['~']} ", text)
        text = re.sub(r"(?<=\w)\s?[\u00d7]\s?(?=\w)", f" {words['×']} ", text)
        for symbol in ("&", "+", "=", "<", ">", "@"):
            # Only a symbol standing free between words; "C++" and "a=b" stay as printed.
            text = re.sub(rf"(?<=\s){re.escape(symbol)}(?=\s)", words[symbol], text)
    # "x²", "10 m³": a power after a letter or digit (English words; other languages keep the sign).
    if lang.code == "en":
        text = re.sub(r"(?<=\w)\u00b2", " squared", text)
        text = re.sub(r"(?<=\w)\u00b3", " cubed", text)
        # A sign left without its number (a table of symbols, "′; minute of arc"): named, never silent.
        text = re.sub(r"\s?\u00b0", " degrees", re.sub(r"\u2033", "double prime", re.sub(r"\u2032", "prime", text)))
    # "and/or", "input/output"; a path like /usr/bin stays as printed.
    text = re.sub(r"(?<![\w/.])([A-Za-z]+)/([A-Za-z]+)(?![\w/])", r"\1 \2", text)
    # "--" as a typed dash between words is a pause; "--install" (a command option) stays as printed.
    text = re.sub(r"(?<=\w)--(?=\w)|\s+--\s+|\s*[\u2192|]\s*", ", ", text)
    text = re.sub(r"[\^\\_]+", " ", text)
    return re.sub(r"\s{2,}", " ", text).strip()
