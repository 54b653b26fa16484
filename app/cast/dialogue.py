"""Find the quotations in a book's paragraphs: the marks the book uses, nested quotes, continued speeches.

The book's own convention is read first (double or single quotes, curly or straight, guillemets either way,
German low-high quotes, dialogue dashes), then each paragraph is scanned with it: marks of the other kind are
then part of the quoted text (a nested quote) or apostrophes, never a quotation of their own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from app.cast.dashes import dash_quotes, dialogue_dashes, opening_dash, spoken_text

#: A quotation convention: which characters open and which close a quotation.
@dataclass(frozen=True)
class Marks:
    name: str
    openers: str
    closers: str
    #: Straight marks both open and close: the side is told from the neighbours.
    straight: str = ""
    #: Single quotes: a closing mark between letters is an apostrophe.
    apostrophes: bool = False


DOUBLE = Marks("double", "\u201c", "\u201d", straight='"')
SINGLE = Marks("single", "\u2018", "\u2019", straight="'", apostrophes=True)
GUILLEMETS = Marks("guillemets", "\u00ab", "\u00bb")
GUILLEMETS_REVERSED = Marks("guillemets-reversed", "\u00bb", "\u00ab")
LOW_HIGH = Marks("low-high", "\u201e", "\u201c\u201d")


@dataclass(frozen=True)
class RawQuote:
    """A quotation as found in one paragraph, before anyone is said to speak it."""

    paragraph: int
    start: int
    end: int
    text: str
    #: The closing mark was found in this paragraph (else the speech runs on into the next).
    closed: bool = True
    #: It continues the speech of the previous paragraph's unclosed quotation.
    continues: bool = False


#: Words that introduce a text read or written, not spoken ("the note ran thus:").
_WRITTEN = re.compile(
    r"\b(?:wrote|writes|written|write|reads?|ran|runs|inscribed|inscription|printed|engraved|headed|"
    r"as follows|in these words|words were|was written|the (?:note|letter|card|telegram|paper|notice) said)\b[^.!?\"\u201c\u201d]*[:,.]?\s*$",
    re.IGNORECASE)
#: A speech verb in the narration before a quote outweighs the "written" words ("she read it aloud, saying").
_SPOKEN_NEAR = re.compile(r"\b(?:said|says|say|saying|cried|asked|answered|replied|exclaimed|spoke|aloud|called|sang|sung)\b",
                          re.IGNORECASE)
_WORD = re.compile(r"\w+")
_TERMINAL = ".,!?;:\u2014\u2013-\u2026"
#: How far past a doubtful single mark a closing one is looked for (a speech is rarely longer).
_LOOKAHEAD = 3000


#: A book writes its dialogue with dashes when its dash-led paragraphs ("—Go away", "--Go away") are at least
#: this share of its quote-led ones. A book set with quotation marks has next to none (at most 1 in 1,410 on
#: PDNC's tuning half and LitBank's development half, 34 books); a book with no quotation marks has only
#: dashes; a French book opens a conversation with guillemets and marks each further turn with a dash (tens
#: of percent). Then a dash-led paragraph with no opening quotation mark in it is a line of dialogue.
#: (Paragraphs led by "--" count only when some carry a speech tag: dashes.dialogue_dashes.)
_DASH_SHARE = 0.1


def detect_marks(paragraphs: Sequence[str]) -> tuple[Marks, bool]:
    """Return the book's quotation marks and whether it writes dialogue with dashes.

    Dialogue opens paragraphs, so the mark most paragraphs open with is the book's (an outer quote's mark,
    never the nested one's); marks counted anywhere decide only when no paragraph opens with one.
    """
    sample = paragraphs[:4000]
    opening = {DOUBLE: 0, SINGLE: 0, GUILLEMETS: 0, GUILLEMETS_REVERSED: 0, LOW_HIGH: 0}
    dash_led: list[str] = []
    for p in sample:
        first = p[:1]
        if first in "\u201c\"":
            opening[DOUBLE] += 1
        elif first in "\u2018'" and p[1:2].strip() and not p[1:2].isdigit():
            opening[SINGLE] += 1
        elif first == "\u00ab":
            opening[GUILLEMETS] += 1
        elif first == "\u00bb":
            opening[GUILLEMETS_REVERSED] += 1
        elif first == "\u201e":
            opening[LOW_HIGH] += 1
        elif opening_dash(p):
            dash_led.append(p)
    dash_paras = dialogue_dashes(dash_led)
    quoted = sum(opening.values())
    if quoted:
        marks = max(opening, key=lambda m: (opening[m], m is DOUBLE))
    else:
        text = "\n".join(sample)
        double = text.count("\u201c") + text.count("\u201d") + text.count('"')
        single = len(re.findall(r"(?:^|(?<=[\s(\u2014]))[\u2018'](?=\w)", text, re.M))
        guil = text.count("\u00ab") + text.count("\u00bb")
        low = text.count("\u201e")
        if low and low * 2 >= double:
            marks = LOW_HIGH
        elif guil > max(double, single):
            first = min((i for i in (text.find("\u00ab"), text.find("\u00bb")) if i >= 0), default=-1)
            marks = GUILLEMETS if first < 0 or text[first] == "\u00ab" else GUILLEMETS_REVERSED
        elif single > 2 * double:
            marks = SINGLE
        else:
            marks = DOUBLE
    return marks, dash_paras > 0 and dash_paras >= _DASH_SHARE * quoted


def _opens_straight(text: str, i: int) -> bool:
    """Return whether a straight mark at i opens a quotation (it sits before a word, after a space)."""
    before = text[i - 1] if i else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return (before.isspace() or before in "([{\u2014\u2013-/") and not after.isspace()


def _closing_single(text: str, i: int, marks: Marks) -> bool:
    """Return whether a single closing mark ends the quotation rather than being an apostrophe."""
    after = text[i + 1] if i + 1 < len(text) else " "
    before = text[i - 1] if i else " "
    if after.isalnum():
        return False  # don't, Harlow's
    if not before.isalnum():
        return True  # "Yes,' she said" or "--'"
    # After a letter: a plural possessive or dropped g ("girls' room", "goin' home") unless no later mark
    # can close the quotation before the next one opens.
    for j in range(i + 1, min(len(text), i + _LOOKAHEAD)):
        ch = text[j]
        if ch in marks.openers or (ch in marks.straight and _opens_straight(text, j)):
            return True
        if ch in marks.closers or ch in marks.straight:
            nxt = text[j + 1] if j + 1 < len(text) else " "
            if not nxt.isalnum() and not text[j - 1].isalnum():
                return False
    return True


def _scan(text: str, marks: Marks) -> list[tuple[int, int, bool]]:
    """Return (start, end, closed) of each quotation in a paragraph; end is past the closing mark."""
    found: list[tuple[int, int, bool]] = []
    start = -1
    for i, ch in enumerate(text):
        if ch not in marks.openers and ch not in marks.closers and ch not in marks.straight:
            continue
        if start < 0:
            if ch in marks.openers or (ch in marks.straight and _opens_straight(text, i)):
                start = i
            continue
        if ch in marks.openers and ch not in marks.closers:
            if marks.apostrophes:
                continue  # a nested quote of the same kind is rare; an opening mark here is text
            found.append((start, i, False))  # a missing closing mark: the new quotation starts here
            start = i
            continue
        if marks.apostrophes and not _closing_single(text, i, marks):
            continue
        if ch in marks.straight and marks.apostrophes and text[i - 1:i].isalnum() and text[i + 1:i + 2].isalnum():
            continue
        found.append((start, i + 1, True))
        start = -1
    if start >= 0:
        found.append((start, len(text), False))
    return found


def _is_dialogue(text: str, start: int, end: int, inner: str, preceding: str) -> bool:
    """Return whether a quotation is speech: not a scare-quoted word, not a text read or written."""
    words = _WORD.findall(inner)
    if not words:
        return False
    before = text[:start].rstrip()
    if _WRITTEN.search(before[-120:]) and not _SPOKEN_NEAR.search(before[-120:]):
        return False
    if start == 0 and preceding.rstrip().endswith(":") and _WRITTEN.search(preceding[-160:]) \
            and not _SPOKEN_NEAR.search(preceding[-160:]):
        return False
    # A short quoted phrase inside a sentence is a word or a title, not a line: 'the word "gentleman" was'.
    if len(words) <= 4 and before and before[-1].isalnum() and inner.rstrip()[-1:] not in _TERMINAL:
        last = before.rsplit(None, 1)[-1].lower()
        if not _SPOKEN_NEAR.fullmatch(last):
            return False
    return True


def find_quotes(paragraphs: Sequence[str], convention: tuple[Marks, bool] | None = None) -> list[RawQuote]:
    """Return every quotation of the paragraphs (one chapter's), in order.

    convention is detect_marks() of the whole book, so that a chapter without dialogue is not misread.
    """
    marks, dashes = convention or detect_marks(paragraphs)
    quotes: list[RawQuote] = []
    open_speech = False
    for n, text in enumerate(paragraphs):
        dash_led = dashes and opening_dash(text) and not any(ch in text for ch in marks.openers)
        spans = dash_quotes(text) if dash_led else _scan(text, marks)
        preceding = paragraphs[n - 1] if n else ""
        continued = open_speech
        open_speech = False
        for start, end, closed in spans:
            if dash_led:
                inner = spoken_text(text, start, end)
            else:
                inner = text[start + 1:end - 1 if closed else end].strip()
            if not _is_dialogue(text, start, end, inner, preceding):
                continued = False
                continue
            quotes.append(RawQuote(n, start, end, inner, closed, continued and start == 0))
            continued = False
            open_speech = not closed and end == len(text)
    return quotes
