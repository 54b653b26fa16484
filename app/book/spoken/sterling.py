"""Pre-decimal British money: "£5 10s. 6d." -> "five pounds, ten shillings and six pence".

Older books (Dickens, Austen, Pepys, Gutenberg's Victorian novels) price things in
pounds, shillings and pence: "2s. 6d.", "18d.", "8½d.", "£12 10s. 0d.", or with a
trailing "l." for pounds ("5l. 10s."). The amounts are read as words, each part with
its unit; a zero part is left out ("10s. 0d." is "ten shillings"). A lone "10s"
without its stop is a decade ("the 1860s" never gets here: years run later and
four digits are not shillings), so shillings and pence need their stop unless
another part follows.
"""
from __future__ import annotations

import re

from app.book.spoken.fractions import VULGAR, vulgar_words
from app.book.spoken.languages import Language
from app.book.spoken.numbers import cardinal, ordinal

#: "£5", "£1,200" or "5l." (the older way of writing pounds, only before shillings or pence).
_POUNDS = r"(?:£\s?(?P<pounds>\d{1,3}(?:,\d{3})+|\d+)|(?P<lpounds>\d{1,3}(?:,\d{3})+|\d+)l\.)"
_SHILLINGS = r"(?P<shillings>\d{1,3})s\.?"
_PENCE = rf"(?P<pence>\d{{1,3}}[{VULGAR}]?|[{VULGAR}])d\.?"
#: One amount: any of the three parts, in order, each after the one before it (all optional here;
#: `sterling` leaves a match with no part alone).
_AMOUNT = re.compile(
    rf"(?<![\w£$€.,])(?=[£\d{VULGAR}])"
    rf"(?:{_POUNDS}(?:\s+(?=\d|[{VULGAR}]))?)?"
    rf"(?:{_SHILLINGS}(?:\s+(?=\d|[{VULGAR}]))?)?"
    rf"(?:{_PENCE})?(?![\w£$€])"
)
#: An amount of two parts or more set with a space before each letter ("3 l. 15 s.", "2 s. 3 d.").
_SPACED = re.compile(
    rf"(?<![\w.,£$])(?:\d[\d,]* ?l\.\s+\d{{1,3}} ?s\.(?:\s+(?:\d{{1,3}}[{VULGAR}]?|[{VULGAR}]) ?d\.)?"
    rf"|(?:\d[\d,]* ?l\.\s+)?\d{{1,3}} ?s\.\s+(?:\d{{1,3}}[{VULGAR}]?|[{VULGAR}]) ?d\.)"
)
#: Words before "10s." that make it a decade, not shillings ("in the early 90s.").
_DECADE_BEFORE = frozenset("the early late mid".split())
_MONTHS = frozenset("January February March April May June July August September October November December".split())


def _unit(value_words: str, one: str, many: str, singular: bool) -> str:
    return f"{value_words} {one if singular else many}"


def _pence(written: str, lang: Language) -> str | None:
    """Return "six pence", "one penny", "eight and a half pence", "a halfpenny"; None for none."""
    whole, frac = written.rstrip(VULGAR), written[len(written.rstrip(VULGAR)):]
    if not whole:
        return {"½": "a halfpenny", "¼": "a farthing", "¾": "three farthings"}.get(frac) or \
            f"{vulgar_words(frac, lang)} of a penny"
    number = int(whole)
    if frac:
        return f"{cardinal(number, lang)} {vulgar_words(frac, lang, mixed=True)} pence"
    if number == 0:
        return None
    return _unit(cardinal(number, lang), "penny", "pence", number == 1)


def _ending(words: str, m: re.Match, has_stop: bool, found: str) -> str:
    """Return the words with the stop kept where the abbreviation's stop also ended the sentence."""
    if has_stop and re.match(r"\s*$|\s+[A-Z\"\u201c\u2018]", m.string[m.end():]):
        words += "."  # "gave 18d. Then"
    return words + m[0][len(found):]


def _old_ordinal(m: re.Match) -> bool:
    """Return whether "2d." or "3d." is the older way of writing "2nd", "3rd" ("the 3d. of May")."""
    written = m["pence"]
    if not written.isdigit() or int(written) % 10 not in (2, 3) or int(written) % 100 in (12, 13):
        return False
    before = m.string[:m.start()].rstrip().rsplit(None, 1)
    # "the 3d. of May", "May 22d.": a day of the month, not pence.
    return (bool(before) and (before[-1].lower() == "the" or before[-1].strip(",").capitalize() in _MONTHS)) or bool(
        re.match(r"\s+of\b", m.string[m.end():]))


def sterling(text: str, lang: Language) -> str:
    """Return text with pounds, shillings and pence amounts written out (English only)."""
    if lang.code != "en":
        return text

    def say(m: re.Match) -> str:
        found = m[0].rstrip()
        if not found:
            return m[0]
        has_stop = found.endswith(".")
        only_one = sum(bool(m[g]) for g in ("pounds", "lpounds", "shillings", "pence")) == 1
        if only_one and m["shillings"] and not has_stop:
            return m[0]  # "10s" alone: a decade or a plural, not money
        if only_one and m["shillings"] and int(m["shillings"]) % 10 == 0 and int(m["shillings"]) >= 20:
            before = m.string[:m.start()].rstrip().rsplit(None, 1)
            if before and before[-1].lower().strip("(\"'\u201c") in _DECADE_BEFORE:
                return m[0]  # "in the 90s.": a decade ("the 36s." and "the 10s." are sums)
        if only_one and m["pounds"]:
            return m[0]  # "£5" alone (or "£5.50") is for the general money rule
        if only_one and m["pence"] and _old_ordinal(m):
            return _ending(ordinal(int(m["pence"]), lang), m, has_stop, found)  # "the 3d of May": the third
        if only_one and m["pence"] and not has_stop and (not m["pence"].isdigit() or int(m["pence"]) % 10 in (2, 3)):
            return m[0]  # "3d" is three-D, "2d" two-D or second ("4d per man" is pence)
        parts = []
        pounds = m["pounds"] or m["lpounds"]
        if pounds:  # "£1,200", "40,000l."
            value = int(pounds.replace(",", ""))
            parts.append(_unit(cardinal(value, lang), "pound", "pounds", value == 1))
        if m["shillings"]:
            value = int(m["shillings"])
            if value or not parts:
                parts.append(_unit(cardinal(value, lang), "shilling", "shillings", value == 1))
        if m["pence"]:
            said = _pence(m["pence"], lang)
            if said:
                parts.append(said)
            elif not parts:
                parts.append("no pence")
        words = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" {lang.and_word} {parts[-1]}"
        return _ending(words, m, has_stop, found)

    # A plain-text edition's italics taken off leave the letters apart: "12 s . 4 d .", "40,000 l ." and
    # "2 s. 3 d.": the same amount once its parts are joined (a lone "5 s." may be seconds and stays).
    text = re.sub(r"(?<=\d) ?([lsd]) \.(?=\s|$|[,;:)])", r"\1.", text)
    text = _SPACED.sub(lambda m: re.sub(rf"(?<=[\d{VULGAR}]) (?=[lsd]\.)", "", m[0]), text)
    # The column heads of an account: "£ s. d." (or "l. s. d.").
    text = re.sub(r"(?<![\w£])(?:£|l\.)\s?s\.\s?d\.", "pounds, shillings and pence", text)
    return _AMOUNT.sub(say, text)
