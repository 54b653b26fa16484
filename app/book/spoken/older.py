"""Printing conventions of older books that a voice must not read as printed.

- Note markers ("[1]", "[A]", "[*]") after a word (or "[1]" after a space): the reader's eye jumps to
  the note, the ear never hears the mark. A "Footnotes:" label alone is not said; an editor's "[word]"
  is said without its brackets. A transcriber's "[Illustration: ...]" is no part of the text.
- "&c." is "et cetera".
- "L200", "L5000": the pound sign typed as a capital L before the amount; "50,000 l." after it.
- Elided years: "18--", "187-" (a date the author will not give) read as far as written.
- Angles and positions: "62° 17′ 20″" is degrees, minutes and seconds.
- A letter glued to a number ("A1", "B12"): a name said letter and number ("A one").
- "2dly", "3dly": the older "secondly", "thirdly". "8o.", "12o.": a catalogue's book sizes ("8vo" and
  "12mo" are labels.py's). "25c.": cents, as price lists print them.
These run before the number passes (English only), so no digit survives them half-read.
"""
from __future__ import annotations

import re

from app.book.spoken.languages import Language
from app.book.spoken.numbers import cardinal, ordinal

#: A note's number may carry a letter ("[8a]", "[8b]": two notes added at one place in a later edition).
#: A stray space or stop inside the brackets ("[12 ]", "[12.]") and a small Roman numeral ("[ii]", "[xiv]",
#: an editor's notes numbered apart from the author's) are markers too.
_SMALL_ROMAN = r"(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3}|xi?v|xvi{1,3}|xi?x|xxi{1,3})"
_NOTE_MARK = re.compile(rf"(?<=[^\s\[])\[\s?(?:\d{{1,3}}[a-z]?|[A-Za-z]|[*†‡§]|{_SMALL_ROMAN})\.?\s?\]")
#: The same marker opening a note's own text, where the book prints the note: "[12] See the letter of May ...".
#: A small letter or numeral opens a note as well ("[a] The letter was ...", "[iv] See ..."): a capital follows.
#: A numbered note's text may follow its marker with no space ("[1]This was ...", a capital after it).
_NOTE_OPENING = re.compile(r"^\s*\[(?:\d{1,3}[a-z]?|[A-Z]|[*†‡§])\]\s+(?=\S)|^\s*\[(?:[a-z]|(?:i{1,3}|iv|vi{0,3}|ix|xi{0,3}))\]\s+(?=[A-Z\"“‘])"
                           r"|^\s*\[\d{1,3}\](?=[A-Z\"“‘])")
#: "[12]" after a space, where a transcriber kept the book's marker in the line ("the river [12] was low"):
#: a number or a note sign alone in brackets inside a sentence is a marker too (a letter there is a word).
#: So is a capital letter there ("the river [B] was low": the notes lettered A, B, C), but for "[I]", an
#: editor's pronoun, and a small Roman numeral ("the river [iv] was low").
_SPACED_NOTE = re.compile(rf"(?<=\S)\s\[\s?(?:\d{{1,3}}[a-z]?|[*†‡§]|[A-HJ-Z]|{_SMALL_ROMAN})\.?\s?\](?=[\s,.;:!?)’”\"\u2013\u2014]|--|$)")
#: Superscript figures after a word of three letters or more or after a stop ("the river¹ ran", "ran.²"): a
#: note's marker (after a unit or a letter, "m²", "x²", they are powers, which numbers.py reads).
_SUPERSCRIPT_NOTE = re.compile(r"(?:(?<=[a-z]{3})|(?<=[.,;:!?)’”\"]))[¹²³⁰⁴-⁹]+(?![\w¹²³⁰⁴-⁹])")
#: "Footnote [12]", "see note [3]": the marker named, not marking; its number is said without brackets.
_NAMED_NOTE = re.compile(r"\b((?:foot-?)?notes?|anchors?)\s+\[(\d{1,3})\]", re.I)
#: An editor's insertion: "the west [gate]", "N[ulla]" - the words are the text's, the brackets are not
#: said (lower-case words only: "[Illustration: ...]" and "[Footnote 3: ...]" have their own rules).
_INSERTION = re.compile(rf"\[(?!{_SMALL_ROMAN}\])([a-z][a-z'’ -]{{1,40}})\]|(?<!\S)\[([a-z])\]")
#: A paragraph that is only the label over the notes ("FOOTNOTES:", "Notes."): the notes that follow are
#: read, the label alone is never announced.
_NOTES_LABEL = re.compile(r"^\s*(?:foot-?notes?|end-?notes|notes)\s*[.:]?\s*$", re.I)
#: A paragraph that is only a bracketed number ("[17]", "[009]"): a page number or a note's marker the
#: producer set on a line of its own, never text (a bracketed Roman numeral alone is a section's number,
#: roman.section_number).
_NUMBER_ALONE = re.compile(r"^\s*\[\d{1,4}\]\s*$")
_ILLUSTRATION = re.compile(r"\[(?:Illustration|Ilustration|Illustrations|Frontispiece)\b[^\]]*\]?", re.I)
_ETC = re.compile(r"&\s?c(?:\.|\b)(?P<end>(?=\s*$|\s+[A-Z\"“‘]))?")
_L_POUNDS = re.compile(r"(?<![\w.,£$])L(?=(?:\d{1,3}(?:,\d{3})+|\d{2,})(?:\b|\.\d))")
#: "50,000 l.", "300 l. currency": pounds as the older books abbreviate them, after the amount.
_POUNDS_AFTER = re.compile(r"(?<![\w.,£$])(\d{1,3}(?:,\d{3})+|\d+)\s+l\.(?=[\s,;:)]|$)")
#: "18--", "187-", "18__" (dashes of any kind or underscores standing for the digits withheld).
_ELIDED_YEAR = re.compile(r"(?<![\w.,])(1\d)(\d)?(?:[-‒–—_]{1,3})(?![\w\d-])")
_ANGLE = re.compile(r"(?P<deg>\d+(?:\.\d+|[¼½¾])?)\s?(?:°|deg\b\.?)(?!\s?[CFK]\b)(?:\s?(?P<min>\d+(?:\.\d+)?)\s?[′'](?:\s?(?P<sec>\d+(?:\.\d+)?)\s?[″\"])?)?")
_MINUTES_ONLY = re.compile(r"(?<![\w.,])(?P<min>\d+)\s?′(?:\s?(?P<sec>\d+)\s?″)?")
_GLUED = re.compile(r"(?<![\w.\-/])(?P<letter>[A-Z])(?P<num>\d{1,3})(?![\w.\-/]|,\d)")
#: "_word_", "_l._" and "900_l._": underscores around words (a digit may stand before, as in an amount).
_EMPHASIS = re.compile(r"(?<![A-Za-z_])_(?=[^\s_])([^_\n]{0,300}?[^\s_])_(?![A-Za-z_])")
#: "of Kent,1702–1710": a comma glued to the year after a word (a thousands comma has a digit before it).
_COMMA_YEAR = re.compile(r"(?<=[^\W\d_]),(?=1\d{3}\b)")
#: "2ded", "2ds": the older clerk's "seconded", "seconds" (a motion's).
_SECONDED = re.compile(r"(?<![\w.,])2d(ed|s)\b\.?")
#: "2dly", "3dly", "4thly": "secondly", "thirdly", "fourthly".
_ORDINAL_LY = re.compile(r"(?<![\w.,])(\d{1,2})(?:st|nd|rd|th|d)ly\b")
#: A book's size as catalogues abbreviate it after the year: "8o." octavo, "12o." twelvemo (a stop after).
_FORMAT = re.compile(r"(?<![\w.,])(4|8|12|16|18|24|32)o(?=\.)")
_FORMATS = {4: "quarto", 8: "octavo"}
#: "25c.", "50c. each": cents as a price list prints them (after the amount, a stop after the c).
_CENTS = re.compile(r"(?<![\w.,$])(\d{1,3})c\.(?=[\s;,)]|$)")
_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}


def plain_emphasis(text: str) -> str:
    """Return text without a plain-text edition's italics marks: "_l._", "900_l._", "_Ibid._" are read as
    the words they mark (a name_with_underscores, glued to letters on both sides, stays)."""
    return _EMPHASIS.sub(r"\1", text) if "_" in text else text


def notes_and_illustrations(text: str) -> str:
    """Return text without note markers and transcribers' illustration captions."""
    if _NOTES_LABEL.match(text) or _NUMBER_ALONE.match(text):
        return ""
    text = _ILLUSTRATION.sub("", text)
    text = _NOTE_OPENING.sub("", text)
    text = _NAMED_NOTE.sub(r"\1 \2", text)
    text = _SPACED_NOTE.sub("", text)
    text = _SUPERSCRIPT_NOTE.sub("", text)
    text = _INSERTION.sub(lambda m: m[1] or m[2], text)
    return _NOTE_MARK.sub("", text)


def older_forms(text: str, lang: Language) -> str:
    """Return text with "&c.", "L200", elided years, angles and "A1" written out (English)."""
    if lang.code != "en":
        return text

    def etc(m: re.Match) -> str:
        return "et cetera." if m["end"] is not None and m[0].endswith(".") else "et cetera"

    text = _ETC.sub(etc, text)
    text = _COMMA_YEAR.sub(", ", text)
    text = _SECONDED.sub(lambda m: "second" + m[1] + ("." if m[0].endswith(".") and re.match(
        r"\s*$|\s+[A-Z]", m.string[m.end():]) else ""), text)
    text = _L_POUNDS.sub("£", text)
    text = _ORDINAL_LY.sub(lambda m: ordinal(int(m[1]), lang) + "ly", text)

    def book_format(m: re.Match) -> str:
        size = int(m[1])
        return _FORMATS.get(size) or f"{cardinal(size, lang)}mo"

    text = _FORMAT.sub(book_format, text)
    text = _CENTS.sub(lambda m: f"{m[1]} {'cent' if m[1] == '1' else 'cents'}" + (
        "." if re.match(r"\s*$|\s+[A-Z]", m.string[m.end():]) else ""), text)
    # The abbreviation's stop also ended the sentence where the next word is capitalised or nothing follows.
    text = _POUNDS_AFTER.sub(lambda m: f"£{m[1]}" + ("." if re.match(r"\s*$|\s+[A-Z]", m.string[m.end():]) else ""),
                             text)

    def elided(m: re.Match) -> str:
        century = cardinal(int(m[1]), lang)
        return f"{century} {_TENS[int(m[2])]}—" if m[2] and int(m[2]) in _TENS else f"{century} hundred and—"

    text = _ELIDED_YEAR.sub(elided, text)

    def unit(value: str, one: str, many: str) -> str:
        return f"{value} {one if value == '1' else many}"

    def angle(m: re.Match) -> str:
        said = unit(m["deg"], "degree", "degrees")
        if m["min"]:
            said += " " + unit(m["min"], "minute", "minutes")
        if m["sec"]:
            said += " " + unit(m["sec"], "second", "seconds")
        return said

    text = _ANGLE.sub(angle, text)
    text = _MINUTES_ONLY.sub(lambda m: unit(m["min"], "minute", "minutes")
                             + (" " + unit(m["sec"], "second", "seconds") if m["sec"] else ""), text)
    return _GLUED.sub(lambda m: f"{m['letter']} {m['num']}", text)
