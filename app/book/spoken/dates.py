"""Dates and clock times as a listener hears them: "March fourth, twenty twenty-one", "ten thirty"."""
from __future__ import annotations

import re

from app.book.spoken.languages import Language
from app.book.spoken.numbers import cardinal, ordinal, year


def _date(day: int, month: int, yr: int | None, lang: Language) -> str | None:
    """Return a date in words, or None when it is not a real calendar date."""
    if not (1 <= month <= 12 and 1 <= day <= 31) or not lang.months:
        return None
    words = lang.date_pattern.format(day=ordinal(day, lang), month=lang.months[month - 1],
                                     year=year(yr, lang) if yr is not None else "")
    return words.rstrip(" ,")


def _full_year(text: str) -> int:
    """Return a year from two or four digits ("21" -> 2021, "98" -> 1998)."""
    value = int(text)
    if len(text) == 2:
        value += 2000 if value < 50 else 1900
    return value


def numeric_dates(text: str, lang: Language) -> str:
    """Return text with 3/4/2021, 03.04.2021 and 2021-04-03 read as dates."""
    if not lang.months:
        return text

    def iso(m: re.Match) -> str:
        return _date(int(m[3]), int(m[2]), int(m[1]), lang) or m[0]

    text = re.sub(r"(?<![\w./-])(\d{4})-(\d{2})-(\d{2})(?![\w/-]|\.\d)", iso, text)

    def slashed(m: re.Match) -> str:
        a, b = int(m[1]), int(m[2])
        # The book's convention, unless the numbers only fit the other one (13/4 is day first anywhere).
        day_first = lang.day_first if a <= 12 and b <= 12 else a > 12
        day, month = (a, b) if day_first else (b, a)
        return _date(day, month, _full_year(m[3]), lang) or m[0]

    text = re.sub(r"(?<![\w./])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\w/]|\.\d)", slashed, text)

    def dotted(m: re.Match) -> str:
        return _date(int(m[1]), int(m[2]), _full_year(m[3]), lang) or m[0]

    text = re.sub(r"(?<![\w.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?![\w]|\.\d)", dotted, text)
    if lang.code == "de":
        # "am 24.12." without a year.
        text = re.sub(r"(?<![\w.])(\d{1,2})\.(\d{1,2})\.(?!\d)",
                      lambda m: _date(int(m[1]), int(m[2]), None, lang) or m[0], text)
    return _german_case(text, lang) if lang.code == "de" else text


def _german_case(text: str, lang: Language) -> str:
    """Return German dates with the dative ending after "am", "vom", "zum": "am dritten April"."""
    months = "|".join(lang.months)
    return re.sub(rf"\b((?:[Aa]m|[Vv]om|[Zz]um|[Bb]is zum|[Ss]eit dem|[Dd]em|[Dd]en|[Dd]es)\s\w+te)(?=\s(?:{months})\b)",
                  r"\1n", text)


def written_dates(text: str, lang: Language) -> str:
    """Return text with "April 3, 2021", "3 April 2021" and "3. April 2021" read with an ordinal day."""
    if not lang.months:
        return text
    # Diaries and letters set the date line in capitals: "APRIL 3.", "MAY 20, 18--".
    months = "|".join((*lang.months, *(name.upper() for name in lang.months)))
    index = {name: i + 1 for i, name in enumerate(lang.months)}
    index.update({name.upper(): i + 1 for i, name in enumerate(lang.months)})

    def month_day(m: re.Match) -> str:
        yr = int(m["year"]) if m["year"] else None
        return _date(int(m["day"]), index[m["month"]], yr, lang) or m[0]

    if lang.code == "de":
        text = re.sub(rf"\b(?P<day>\d{{1,2}})\.\s?(?P<month>{months})(?:\s(?P<year>\d{{4}}))?\b", month_day, text)
        return _german_case(text, lang)
    text = re.sub(rf"\b(?P<month>{months})\s(?P<day>\d{{1,2}})(?:st|nd|rd|th|d)?(?:,?\s(?P<year>\d{{4}}))?\b(?!:|,\d{{3}})",
                  month_day, text)  # "in May 3,400 men": a number after the month, no day
    # "on the 5th of May" keeps its own "the": the day is not given a second one.
    return re.sub(rf"(?:\b(?P<the>[Tt]he)\s)?(?<![£$€\w.,])(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s(?:of\s)?(?P<month>{months})"
                  rf"(?:,?\s(?P<year>\d{{4}}))?\b", lambda m: _day_of(m, index, lang), text)


def _day_of(m: re.Match, index: dict[str, int], lang: Language) -> str:
    """Return "3 April 2021" as "the third of April, twenty twenty-one"."""
    day, month = int(m["day"]), index[m["month"]]
    if not 1 <= day <= 31:
        return m[0]
    words = f"{m['the'] or 'the'} {ordinal(day, lang)} of {lang.months[month - 1]}"
    return f"{words} {year(int(m['year']), lang)}" if m["year"] else words


def times(text: str, lang: Language) -> str:
    """Return text with clock times (10:30, 9:05 p.m., 14:00 Uhr) read out."""
    if not lang.n2w or not lang.time_pattern:
        return text

    def say(m: re.Match) -> str:
        hour, minute = int(m["h"]), int(m["m"])
        if hour > 24 or minute > 59:
            return m[0]
        if minute == 0:
            words = lang.time_full_hour.format(hour=cardinal(hour, lang))
        else:
            mins = cardinal(minute, lang)
            if minute < 10 and lang.minute_prefix:
                mins = f"{lang.minute_prefix} {mins}"
            words = lang.time_pattern.format(hour=cardinal(hour, lang), minute=mins)
        suffix = m["ampm"]
        if suffix:
            if minute == 0 and lang.code == "en":
                words = cardinal(hour, lang)
            words += " " + " ".join(suffix.replace(".", "").lower())
            if suffix.endswith(".") and re.match(r"\s+[A-Z]|\s*$", m.string[m.end():]):
                words += "."  # "at 9 p.m. Then": the abbreviation's stop also ended the sentence
        return words

    if lang.code == "en":
        # "10am", "5 p.m.": an hour without minutes.
        text = re.sub(r"(?<![\w:.])(?P<h>1[0-2]|0?[1-9])\s?(?P<ampm>[ap])\.?m\b\.?",
                      lambda m: f"{cardinal(int(m['h']), lang)} {m['ampm'].lower()} m"
                      + ("." if m[0].endswith(".") and re.match(r"\s+[A-Z]|\s*$", m.string[m.end():]) else ""),
                      text, flags=re.IGNORECASE)
    def with_seconds(m: re.Match) -> str:
        hour, minute, second = int(m[1]), int(m[2]), int(m[3])
        if hour > 24 or minute > 59 or second > 60:
            return m[0]
        return " ".join(cardinal(n, lang) for n in (hour, minute, second))

    text = re.sub(r"(?<![\w:.])(\d{1,2}):(\d{2}):(\d{2})(?![\d:])", with_seconds, text)
    pattern = r"(?<![\w:.])(?P<h>\d{1,2}):(?P<m>\d{2})(?![\d:])(?:\s?(?P<ampm>[ap]\.?m\.?|[AP]\.?M\.?)(?![\w]))?"
    if lang.code == "de":
        pattern += r"(?:\s?Uhr\b)?"
    return re.sub(pattern, say, text)
