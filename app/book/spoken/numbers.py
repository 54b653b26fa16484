"""Numbers as words: money, percentages, units, ordinals, years, ranges, decimals and cardinals.

num2words does the words; the rules here only find numbers in running text
and decide which reading fits (a year, an amount, a plain count).
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from num2words import num2words

from app.book.spoken.languages import Language

#: Numbers with more digits than this are read digit by digit (IDs, not quantities).
_MAX_DIGITS = 15
_SCALES = r"million|billion|trillion|thousand|Millionen|Million|Milliarden|Milliarde|Mio\.|Mrd\.|Tsd\."
_YEAR_BEFORE = frozenset(
    "in since by from of until till to year years circa c. ca. around before after during between and or "
    "summer winter spring autumn fall early late mid the im seit bis von vor nach um jahr jahre jahres ab "
    "anno zwischen und oder sommer winter frühjahr herbst anfang ende mitte".split()
)
_ERA = r"(?:BC|AD|BCE|CE|v\. ?Chr\.|n\. ?Chr\.)"


def number_re(lang: Language) -> str:
    """Return a regex (no groups) for a number as the language writes it: 1,234.5 or 1.234,5."""
    if lang.code == "de":
        return r"\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:,\d+)?"
    return r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"


def parse(text: str, lang: Language) -> Decimal | None:
    """Return the value of a number matched by number_re, or None when it is too long to be a quantity."""
    if lang.code == "de":
        text = text.replace(".", "").replace(",", ".")
    else:
        text = text.replace(",", "")
    if len(text.split(".")[0]) > _MAX_DIGITS:
        return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def _words(value, lang: Language, to: str = "cardinal") -> str:
    """Return num2words' words without the commas it puts between thousands.

    A language module without years or ordinals falls back to the cardinal,
    and one without even that leaves the digits for the voice.
    """
    try:
        return num2words(value, lang=lang.n2w, to=to).replace(",", "")
    except (NotImplementedError, OverflowError, ValueError, TypeError, KeyError, IndexError):
        return _words(value, lang) if to != "cardinal" else str(value)


def cardinal(value: Decimal | int, lang: Language) -> str:
    """Return a number as words: "three point one four", "one thousand two hundred"."""
    if isinstance(value, Decimal) and value == value.to_integral_value() and "." not in str(value):
        value = int(value)
    if isinstance(value, Decimal):
        # num2words reads a float's binary noise; read the digits after the point one by one instead.
        # format "f": str() writes a small value in exponent form ("6E-7"), which has no point to split at.
        whole, _, frac = format(abs(value), "f").partition(".")
        sign = f"{lang.minus} " if value < 0 else ""
        point = _words(1.5, lang).split()[1] if lang.n2w else "."
        return f"{sign}{_words(int(whole), lang)} {point} " + " ".join(_words(int(d), lang) for d in frac)
    return _words(value, lang)


def ordinal(value: int, lang: Language) -> str:
    return _words(value, lang, "ordinal")


def year(value: int, lang: Language) -> str:
    return _words(value, lang, "year")


def _count(value: Decimal, lang: Language) -> str:
    """Return a number that counts a following noun ("one meter", German "ein Meter")."""
    if value == 1 and lang.one_before_noun:
        return lang.one_before_noun
    return cardinal(value, lang)


def _sub(pattern: str, repl, text: str, flags: int = 0) -> str:
    return re.sub(pattern, repl, text, flags=flags)


def money(text: str, lang: Language) -> str:
    """Return text with amounts like $5.50, £3, €1.5 million and 5,50 € written out."""
    if not lang.currencies:
        return text
    symbols = "|".join(re.escape(s) for s in sorted(lang.currencies, key=len, reverse=True))
    num = number_re(lang)

    def say(cur: str, amount: str, scale: str | None) -> str | None:
        value = parse(amount, lang)
        if value is None:
            return None
        one, many, cent, cents = lang.currencies[cur]
        if scale:
            return f"{cardinal(value, lang)} {scale.rstrip('.')} {many}"
        whole, frac = int(value), int((value - int(value)) * 100)
        words = f"{_count(Decimal(whole), lang)} {one if whole == 1 else many}"
        if frac and not whole:
            return f"{_count(Decimal(frac), lang)} {cent if frac == 1 else cents}"  # "$.90": ninety cents
        if frac:
            words += f" {lang.and_word} {_count(Decimal(frac), lang)} {cent if frac == 1 else cents}"
        return words

    def before(m: re.Match) -> str:
        return say(m["cur"], m["num"], m["scale"]) or m[0]

    def after(m: re.Match) -> str:
        return say(m["cur"], m["num"], m["scale"]) or m[0]

    # "$.90", a price in cents written with the point alone.
    text = _sub(rf"(?<![\w$£€])(?P<cur>{symbols})\.(?P<num>\d\d)(?![\w.,]?\d)",
                lambda m: say(m["cur"], "0." + m["num"], None) or m[0], text)
    text = _sub(rf"(?<![\w$£€])(?P<cur>{symbols})\s?(?P<num>{num})(?:\s(?P<scale>{_SCALES}))?(?!\d)", before, text)
    return _sub(rf"(?<![\w.,])(?P<num>{num})(?:\s(?P<scale>{_SCALES}))?\s?(?P<cur>{symbols})(?![\w$£€])", after, text)


def percent(text: str, lang: Language) -> str:
    """Return text with 45% and 4,5 % written out."""
    num = number_re(lang)

    def say(m: re.Match) -> str:
        value = parse(m["num"], lang)
        return m[0] if value is None else f"{m['sign'] and lang.minus + ' ' or ''}{cardinal(value, lang)} {lang.percent}"

    return _sub(rf"(?<![\w.,])(?P<sign>[-−])?(?P<num>{num})\s?%", say, text)


def units(text: str, lang: Language) -> str:
    """Return text with measures like 5 km, 20 °C and 60 km/h written out."""
    if not lang.units:
        return text
    ordered = sorted(lang.units, key=len, reverse=True)
    long_names = "|".join(re.escape(u) for u in ordered if len(u) > 1 or not u.isalpha())
    short_names = "|".join(re.escape(u) for u in ordered if len(u) == 1 and u.isalpha())
    num = number_re(lang)

    def say(m: re.Match) -> str:
        value = parse(m["num"], lang)
        if value is None:
            return m[0]
        one, many = lang.units[m["unit"]]
        return f"{_count(value, lang)} {one if value == 1 else many}"

    text = _sub(rf"(?<![\w.,])(?P<num>{num})\s?(?P<unit>{long_names})(?![\w/])", say, text)
    # A one-letter unit needs its space: "1860s" is a decade, "5 s" five seconds.
    return _sub(rf"(?<![\w.,])(?P<num>{num})\s(?P<unit>{short_names})(?![\w/])", say, text)


def ordinals(text: str, lang: Language) -> str:
    """Return text with 1st, 22nd (English) or "am 3." before a word (German) written out."""
    if lang.code == "en":
        # Older books count and divide with ordinals too: "2ndly" (secondly), "8ths", "3rds".
        text = _sub(r"\b(\d{1,9})(?:st|nd|rd|th)(s|ly)\b",
                    lambda m: _ordinal_plural(ordinal(int(m[1]), lang), m[2]), text)
        # Headings and title pages set ordinals in capitals: "17TH", "THE 2ND".
        text = _sub(r"\b(\d{1,9})(?:st|nd|rd|th|ST|ND|RD|TH)\b", lambda m: ordinal(int(m[1]), lang), text)
        # The older ordinals "2d", "3d", "22d" ("the 3d regiment"); "3D" (capital) is three-D, and
        # "3d." with its stop was settled by the sterling pass (pence, or an ordinal after "the").
        return _sub(r"(?<![\w.,£])(\d{0,8}[23])d\b(?!\.)",
                    lambda m: m[0] if int(m[1]) % 100 in (12, 13) else ordinal(int(m[1]), lang), text)
    if lang.code == "de":
        def say(m: re.Match) -> str:
            word = ordinal(int(m[2]), lang)
            # Dative and genitive articles take the -en ending: "am dritten", "des dritten".
            if m[1].lower() in ("am", "im", "zum", "vom", "beim", "dem", "den", "des", "zur"):
                word += "n"
            return f"{m[1]} {word} "

        return _sub(r"\b(der|die|das|dem|den|des|am|im|zum|zur|vom|beim|ab)\s(\d{1,4})\.\s(?=\w)", say, text,
                    flags=re.IGNORECASE)
    return text


def _ordinal_plural(word: str, suffix: str) -> str:
    """Return "eighths" for ("eighth", "s") and "secondly" for ("second", "ly")."""
    if suffix == "ly":
        return word + "ly"
    return word[:-1] + "ies" if word.endswith("y") else word + "s"


def _is_year_context(text: str, start: int, end: int, lang: Language) -> bool:
    """Return whether a four-digit number reads as a year where it stands."""
    before = text[:start].rstrip().rsplit(None, 1)
    prev = before[-1].lower().strip("(\"'\u201c") if before else ""
    after = text[end:]
    if prev in _YEAR_BEFORE or prev.rstrip(".,") in _YEAR_BEFORE:
        return True
    if re.match(rf"\s?{_ERA}", after):
        return True
    if bool(re.match(r"\s+(?:and|to|or|und|bis|oder)\b", after)):
        return True
    if lang.code == "de":
        # German capitalizes nouns: "1867 Soldaten" counts, "1867 geboren" is a year.
        return not re.match(r"\s*[A-ZÄÖÜ]", after)
    # "He died 1867." and "(1867)": nothing counted follows it.
    return not re.match(r"\s*[A-Za-z]", after)


def years(text: str, lang: Language) -> str:
    """Return text with years and decades (1867, 1860s, 1990-1995) read as years."""
    if not lang.n2w:
        return text

    def decade(m: re.Match) -> str:
        words = year(int(m[1]), lang)
        return words[:-1] + "ies" if words.endswith("y") else words + "s"

    if lang.code == "de":
        text = _sub(r"\b(1[1-9]\d0|20[0-9]0)er\b", lambda m: year(int(m[1]), lang) + "er", text)
    if lang.code == "en":
        text = _sub(r"\b(1[1-9]\d0|20[0-9]0)'?s\b", decade, text)
        text = _sub(r"(?<![\w.,])['\u2019]?([2-9]0)'?s\b", lambda m: cardinal(int(m[1]), lang)[:-1] + "ies", text)
    range_word = lang.range_word

    def span(m: re.Match) -> str:
        return f"{year(int(m[1]), lang)} {range_word} {year(int(m[2]), lang)}"

    text = _sub(r"(?<![\w.,])(1[1-9]\d\d|20\d\d)\s?[-\u2013\u2014]\s?(1[1-9]\d\d|20\d\d)(?![\w.,]\d)", span, text)

    def single(m: re.Match) -> str:
        if not _is_year_context(m.string, m.start(), m.end(), lang):
            return m[0]
        return year(int(m[0]), lang)

    text = _sub(r"(?<![\w.,$£€#])(?<!\d-)(?:1[1-9]\d\d|20\d\d)(?![\w.,]?\d)", single, text)
    # A four-digit number in a name is said in pairs, like a year: "ISO-8859" -> "ISO-eighty-eight fifty-nine".
    return _sub(r"(?<=[A-Za-z]-)[1-9]\d{3}(?![\w.,]?\d)", lambda m: year(int(m[0]), lang), text)


def ranges(text: str, lang: Language) -> str:
    """Return text with 3-5 and 10–20 read as "three to five"."""
    num = number_re(lang)

    def say(m: re.Match) -> str:
        a, b = parse(m["a"], lang), parse(m["b"], lang)
        if a is None or b is None:
            return m[0]
        return f"{cardinal(a, lang)} {lang.range_word} {cardinal(b, lang)}"

    text = _sub(rf"(?<![\w.,])(?P<a>{num})\s?\u2013\s?(?P<b>{num})(?![\w.,]?\d)", say, text)

    def hyphen(m: re.Match) -> str:
        # A hyphen is a range only when it counts upwards (3-5); "Figure 3-1" and "555-1234" are labels.
        a, b = parse(m["a"], lang), parse(m["b"], lang)
        counts_up = a is not None and b is not None and a < b and len(m["b"]) <= 4
        # Same width (10-20) or a one-digit start (3-12); "555-1234" is a phone number.
        return say(m) if counts_up and (len(m["a"]) == len(m["b"]) or len(m["a"]) == 1) else m[0]

    return _sub(rf"(?<![\w.,-])(?P<a>{num})-(?P<b>{num})(?![\w.,-]?\d)", hyphen, text)


#: English names of the common fractions' denominators (singular, plural).
_FRACTIONS_EN = {2: ("half", "halves"), 4: ("quarter", "quarters")}


def fractions(text: str, lang: Language) -> str:
    """Return text with simple proper fractions (1/2, 3/4, 5/8) read: "one half", "three quarters"."""
    if lang.code != "en":
        return text

    def say(m: re.Match) -> str:
        top, bottom = int(m[1]), int(m[2])
        if not 0 < top < bottom <= 16:
            return m[0]
        one, many = _FRACTIONS_EN.get(bottom) or (ordinal(bottom, lang), ordinal(bottom, lang) + "s")
        return f"{cardinal(top, lang)} {one if top == 1 else many}"

    return _sub(r"(?<![\w/.])(\d{1,2})/(\d{1,2})(?![\w/]|\.\d)", say, text)


def multipliers(text: str, lang: Language) -> str:
    """Return "4x4" as "four by four" and "1.5x" as "one point five times" (English)."""
    if lang.code != "en":
        return text
    num = number_re(lang)
    # "680x0" (a processor family) is a name, not a size.
    text = _sub(rf"(?<![\w.,])({num})\s?[x\u00d7]\s?({num})(?![\w.,]?\d)",
                lambda m: f"{m[1]} by {m[2]}" if m[2].strip("0") else m[0], text)
    return _sub(rf"(?<![\w.,])({num})x\b", lambda m: f"{m[1]} times", text)


def plain(text: str, lang: Language) -> str:
    """Return text with the remaining numbers read: versions, negatives, decimals, cardinals."""
    if not lang.n2w:
        return text
    point = lang.dot or _words(1.5, lang).split()[1]

    def version(m: re.Match) -> str:
        if lang.code == "de" and re.fullmatch(r"\d{1,3}(?:\.\d{3})+", m[0]):
            return m[0]  # 1.234.567: German thousands, read below
        return f" {point} ".join(cardinal(int(p), lang) for p in m[0].split("."))

    # German writes decimals with a comma, so 2.0 is a version there, as 1.2.3 is everywhere.
    dots = r"(?:\.\d+)+" if lang.code == "de" else r"(?:\.\d+){2,}"
    text = _sub(rf"(?<![\w.])\d+{dots}(?![\w.]?\d)", version, text)
    # A leading zero makes a code, not a quantity: "0123" is read digit by digit.
    text = _sub(r"(?<![\w.,])0\d+(?![\w.,]?\d)", lambda m: " ".join(cardinal(int(d), lang) for d in m[0]), text)
    num = number_re(lang)
    # A decimal written without its zero: ".62" (a calibre, a batting average) is "point six two".
    text = _sub(r"(?<![\w.,])\.(\d+)(?![\w.,]?\d)",
                lambda m: f"{_words(1.5, lang).split()[1]} " + " ".join(cardinal(int(d), lang) for d in m[1]), text)

    def say(m: re.Match) -> str:
        value = parse(m["num"], lang)
        if value is None or re.fullmatch(r"\d{7,}", m["num"]):
            # An unseparated run of seven or more digits is an identifier: read it digit by digit.
            return " ".join(cardinal(int(d), lang) for d in re.sub(r"\D", "", m["num"]))
        words = cardinal(value, lang)
        return f"{lang.minus} {words}" if m["sign"] else words

    # A number glued to letters ("MP3", "3D", "H.264") is a name: the voice reads it as printed.
    return _sub(rf"(?:(?<![\w-])(?P<sign>[-\u2212])(?=\d))?(?<![\w.,])(?P<num>{num})(?![\w])", say, text)


def leftover(text: str, lang: Language) -> str:
    """Return text with every digit the passes before left said: a number glued to letters ("MP3", "K7QRZ",
    "12QT", "214a") or to a stray mark (",00") is a name or a code, said as its letters and numbers
    ("MP three", "K seven QRZ"); a run of five digits or more, or one with a leading zero, digit by digit."""
    if not lang.n2w or not re.search(r"\d", text):
        return text

    def say(m: re.Match) -> str:
        run = m[0]
        words = (" ".join(cardinal(int(d), lang) for d in run) if len(run) > 4 or (run[0] == "0" and len(run) > 1)
                 else cardinal(int(run), lang))
        before = " " if m.start() and (m.string[m.start() - 1].isalpha() or m.string[m.start() - 1] in ".,:;") else ""
        after = " " if m.end() < len(m.string) and m.string[m.end()].isalpha() else ""
        return f"{before}{words}{after}"

    return re.sub(r"\d+", say, text)

