"""What one line of a plain-text book says: a chapter's number, a heading word, a title line.

Printed fiction numbers its chapters in Arabic, Roman or spelled numbers ("Chapter the First", "STAVE
ONE", "XXXI"), names its parts above them ("BOOK THE SECOND", "FIRST EPILOGUE") and sets a chapter's title
on the line under its label, in capitals or title case. These are the words; headings.py decides which
lines are chapters, contents.py reads the contents listing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

#: A heading line's own words for chapters and for the parts above them.
CHAPTER_WORDS = (r"chapter|chap\.?|stave|canto|letter|section|lesson|story|tale|adventure|episode|lecture|sermon|"
                 r"essay|sketch|fit|day|night|scene")
PART_WORDS = r"book|part|volume|vol\.|epoch|period|act"
_UNITS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " \
         "sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth " \
            "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split()
_TENS_ORD = "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth".split()
_WORD_NUMBER = (r"(?:(?:" + "|".join(_TENS) + r")[\s-])?(?:" + "|".join(_UNITS + _ORDINALS) + r")|"
                + "|".join(_TENS + _TENS_ORD) + "|last|final")
NUMBER = rf"(?:\d{{1,3}}|[IVXLCDM]{{1,8}}|{_WORD_NUMBER})"
#: "CHAPTER XXXI.", "Chapter the First", "CHAP. II.", "Stave One: Marley's Ghost", "BOOK THE SECOND".
KEYWORD = re.compile(
    rf"^(?P<word>{CHAPTER_WORDS}|{PART_WORDS})\s+(?:the\s+)?(?P<num>{NUMBER})\b(?P<rest>.*)$", re.I)
#: A numeral alone on its line: "IV", "IV.", "12".
NUMERAL = re.compile(r"^(?P<num>[IVXLCDM]{1,8}|\d{1,3})\.?$")
#: A numeral and a name on one line: "I. The Period", "IV. HERO'S STORY", "II: THE TOLL ROAD" (a Roman numeral
#: and a colon; "1: ..." is a verse's or an article's number).
NUMBERED_TITLE = re.compile(r"^(?P<num>[IVXLCDM]{1,8}|\d{1,3})(?:\.|(?<=[IVXLCDM]):)\s+(?P<name>\S.*)$")
#: Headings that name a part of the book rather than number it.
NAMED = re.compile(
    r"^(?:preface|prologue|prelude|epilogue|finale|foreword|introduction|afterword|conclusion|postscript|"
    r"author['\u2019]s\s+preface|introductory|l'envoi|envoi|appendix)\b[\s.:]*(?P<rest>.*)$", re.I)
#: A transcriber's mark of a picture, with its caption or none ("[Illustration]", "[Illustration: The Quay]"): no
#: words of the text, nor a title (round txt21: a part's page with its picture is a label, no chapter of its own).
PICTURE = re.compile(r"^\[(?:Illustration|Frontispiece)\b[^\]]*\]$", re.I)
#: A numbered section's heading ("16.1. Authors"), never a chapter's title line.
_SECTION = re.compile(r"^\d+(?:\.\d+)+\.?\s")
#: "FIRST EPILOGUE: 1813 - 20", "SECOND PART": a part numbered by an ordinal before its word.
ORDINAL_PART = re.compile(
    r"^(?P<num>" + "|".join(_ORDINALS + _TENS_ORD) + r"|last|final)\s+(?P<word>epilogue|part|book|volume|series)\b"
    r"(?P<rest>.*)$", re.I)
CLOSING = re.compile(r"^(?:the\s+end|finis|end)\.?$", re.I)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
#: A heading's title line is short; a longer line is the chapter's first sentence.
_MAX_TITLE_WORDS = 12
_MAX_HEADING_WORDS = 14


@dataclass
class Para:
    """A run of non-blank lines and the blank lines before it."""

    first: int
    lines: list[str]
    gap: int

    @property
    def text(self) -> str:
        return " ".join(ln.strip() for ln in self.lines)

    @property
    def last(self) -> int:
        return self.first + len(self.lines)


@dataclass
class Heading:
    para: int
    kind: str  # "chapter", "part", "named"
    word: str
    number: int | None
    label: str
    subtitle: str = ""
    #: Paragraph index of the subtitle line, when it is a paragraph of its own.
    sub_para: int | None = None


#: The number "Chapter the Last" stands for: after every other, never a restart.
LAST = 10**6


def number_value(text: str) -> int | None:
    """Return the value of an Arabic, Roman or spelled number ("XIV", "14", "fourteenth"), None otherwise."""
    t = text.strip(" .").lower()
    if t.isdigit():
        return int(t)
    if t in ("last", "final"):
        return LAST  # "Chapter the Last": after every other number
    if t and all(c in _ROMAN for c in t):
        total = 0
        for a, b in zip(t, t[1:] + " "):
            v = _ROMAN[a]
            total += -v if b in _ROMAN and _ROMAN[b] > v else v
        return total if total > 0 else None
    words = re.split(r"[\s-]+", t)
    total = 0
    for w in words:
        if w in _UNITS:
            total += _UNITS.index(w) + 1
        elif w in _ORDINALS:
            total += _ORDINALS.index(w) + 1
        elif w in _TENS:
            total += 20 + 10 * _TENS.index(w)
        elif w in _TENS_ORD:
            total += 20 + 10 * _TENS_ORD.index(w)
        else:
            return None
    return total or None


def paragraphs(lines: list[str]) -> list[Para]:
    paras: list[Para] = []
    gap = 0
    for n, line in enumerate(lines):
        if not line.strip():
            gap += 1
        elif paras and gap == 0:
            paras[-1].lines.append(line)
        else:
            paras.append(Para(n, [line], gap if paras else 99))
            gap = 0
    return paras


def clean_line(line: str) -> str:
    """Return a line without the underscores and equals signs Gutenberg uses for italics and bold."""
    return re.sub(r"\s+", " ", re.sub(r"(?<!\w)[_=]+|[_=]+(?!\w)", "", line)).strip()


def keyword_match(text: str) -> re.Match | None:
    m = KEYWORD.match(text) or ORDINAL_PART.match(text)
    if not m or len(text.split()) > _MAX_HEADING_WORDS:
        return None
    rest = m.group("rest").strip()
    # "Chapter 12 began badly." is prose; a heading's rest is empty, set off, or in capitals.
    if rest and rest[0] not in ".:-\u2013\u2014" and not text.isupper():
        return None
    if number_value(m.group("num")) is None:
        return None
    return m


def title_line(para: Para | None) -> str:
    """Return a paragraph's text when it reads as a chapter's title line (short, a name not a sentence)."""
    if para is None or len(para.lines) > 2:
        return ""
    text = clean_line(para.text)
    words = text.split()
    if not words or len(words) > _MAX_TITLE_WORDS or keyword_match(text) or NUMERAL.match(text) or _SECTION.match(text) \
            or PICTURE.match(text):
        return ""
    bare = text.strip("\"'\u201c\u201d\u2018\u2019 ")
    if not bare or bare[-1] in ",;!?" or (bare[-1] == ":" and not text.isupper()):
        return ""
    letters = [c for c in bare if c.isalpha()]
    if not letters:
        return ""
    # Title case leaves the small words in lower case ("Monseigneur in the Country").
    counted = [w for w in words if w.lower() not in SMALL_WORDS] or words
    capitalised = sum(1 for w in counted if w[:1].isupper() or not w[:1].isalpha()) / len(counted)
    # A title is in capitals or title case; "It was night." is a sentence.
    if not bare.isupper() and (capitalised < 0.6 or (bare.endswith(".") and capitalised < 0.8)):
        return ""
    return text.rstrip(" .")


#: Words title case leaves in lower case.
SMALL_WORDS = frozenset("a an and as at but by for in of on or the to with from into upon nor".split())


#: A well-formed Roman numeral in capitals ("XIV", "MDCCC"); "MILL" and "CIVIL" are made of its letters only.
_ROMAN_NUMERAL = re.compile(r"^M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")


def smart_title(text: str) -> str:
    """Return a heading in capitals as title case ("CHAPTER XXXI: THE LAST VOYAGE" -> "Chapter XXXI: The Last Voyage")."""
    if not text.isupper():
        return text
    small = SMALL_WORDS
    out = []
    for n, word in enumerate(text.split()):
        core = word.strip(".,:;!?\"'()\u201c\u201d\u2018\u2019")
        if core and _ROMAN_NUMERAL.match(core) and (len(core) > 1 or core in "IVX"):
            out.append(word)  # a Roman numeral (not "MILL" or "CIVIL", made of its letters)
            continue
        low = word.lower()
        if n and core.lower() in small and not out[-1].endswith((":", ".", "\u2014")) and any(
                ch.isalnum() for ch in out[-1]):
            out.append(low)
        else:
            i = next((k for k, ch in enumerate(low) if ch.isalpha()), 0)
            # "16TH" is "16th": the letters after a number are its suffix, never a capitalised word.
            out.append(low if low[:1].isdigit() else low[:i] + low[i:i + 1].upper() + low[i + 1:])
    return " ".join(out)


def is_named_heading(text: str) -> bool:
    """Return whether a heading names a part of the book of its own ("PREFACE.", "Introduction")."""
    line = clean_line(text)
    m = NAMED.match(line)
    return bool(m) and len(line.split()) <= 6 and not m.group("rest").strip(" .")


_LEADING = re.compile(rf"^(?:(?:{CHAPTER_WORDS})\s+(?:the\s+)?)?(?P<num>{NUMBER})\b", re.I)


def leading_number(title: str) -> int | None:
    """Return the number a chapter title starts with ("Chapter XII", "IV. The Mail", "Stave One"), None otherwise."""
    m = _LEADING.match(title.strip())
    return number_value(m.group("num")) if m else None


def numbering_restarts(titles: list[str]) -> bool:
    """Return whether chapter numbers go back to one partway through ("I" ... "VI", then "I" again)."""
    numbers = [leading_number(t) for t in titles]
    return any(n == 1 and any(numbers[:k]) for k, n in enumerate(numbers))


def join_heading_lines(lines: list[str]) -> str:
    """Return a heading set over lines as one: its label and name set apart ("CHAPTER I: A COLD HARBOUR",
    "PROLOGUE: THE FERRY"), a title broken for the layout joined ("THE TALE OF THE MILLER AND HIS TWO SONS")."""
    lines = [ln.strip() for ln in lines if ln.strip()]
    if len(lines) < 2:
        return " ".join(lines)
    first = clean_line(lines[0]).rstrip(" .:")
    m = keyword_match(first)
    labelled = m and not m.group("rest").strip(" .:") or NUMERAL.match(first) or is_named_heading(first)
    rest = " ".join(lines[1:])
    return f"{lines[0].rstrip(' .:')}: {rest}" if labelled else f"{lines[0]} {rest}"


#: A title page's by-line set as a heading: "BY", "By Ann Lee", "BY J. R. HOLT" (a name, no sentence).
_BYLINE = re.compile(r"^(?:written\s+)?by(?:\s+(?!the\b)[A-Z][\w.'\u2019-]*(?:\s+[A-Z][\w.'\u2019-]*){0,4})?(?:\s+\d{4})?[\s.,:]*$", re.I)


def is_byline(text: str) -> bool:
    """Return whether a heading is a title page's by-line, never a chapter's name ("BY", "By Ann Lee")."""
    line = clean_line(text)
    m = _BYLINE.match(line)
    # The name's words are capitalised ("By the Sea" is a title).
    return bool(m) and all(w[:1].isupper() or w.isdigit() for w in line.split()[1:])
