"""Action beats: who the narration next to a quotation is about, when no speech word says who speaks.

"Mara set down her cup. “Not tonight.”" / "“Not tonight.” Mara set down her cup." / a narration paragraph closing
"Mara, with a glance at the door, took up the subject again." before a paragraph that opens with the quote: the
sentence touching the quotation has a named person as its subject, and that person speaks. Only a person the book
already vouches for (a given name, a title, an earlier speech tag) is taken: a beat never makes a character.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable

from app.cast.names import Person, sentence_start

Mentions = Callable[[str], Iterable[tuple[int, int, Person]]]
#: Words that may open a beat sentence before its subject ("But Mara ...", "Here Mara ...", "Then, Mara ...").
_OPENER = re.compile(r"(?:(?:and|but|then|here|now|so|presently|meanwhile|still|at last|at length|shortly afterwards)"
                     r"\b[\s,]*)*", re.I)
#: A sentence ends at . ! ? (a closing quote mark or bracket may follow) and the next one starts after a space.
_END = re.compile(r"[.!?][\"'\u201d\u2019)]*\s+")
#: "He turned away." opening a sentence of the paragraph (the paragraph's beat when no one is named).
_PRONOUN_BEAT = re.compile(r"(?:^\s*|[.!?]\s+)(He|She|I)\s+[a-z]+")


def _subject(sentence: str, mentions: Mentions, personal: Callable[[Person], bool]) -> Person | None:
    """Return the named person who opens the sentence (after an opener such as "But"), else None."""
    for start, _, person in mentions(sentence):
        lead = sentence[:start].strip(" \t\n,\u2014-_")
        if _OPENER.fullmatch(lead) and personal(person):
            return person
        return None
    return None


def closing_subject(text: str, mentions: Mentions, personal: Callable[[Person], bool]) -> Person | None:
    """Return the named subject of text's last sentence: the narration right before a quotation."""
    body = text.rstrip()
    if not body or body[-1] not in ".!?\u2014-":
        return None  # "Mara said," or "Mara answered:" are tags, and a clause running into the quote is no beat
    cuts = [m.end() for m in _END.finditer(body[:-1])]
    return _subject(body[cuts[-1] if cuts else 0:], mentions, personal)


def opening_subject(text: str, mentions: Mentions, personal: Callable[[Person], bool]) -> Person | None:
    """Return the named subject of text's first sentence, when it starts right after the quotation."""
    body = text.lstrip()
    if not body or not body[0].isupper():
        return None  # "“No,” Mara said" is a tag; lower case continues the quote's sentence
    m = _END.search(body)
    return _subject(body[:m.end()] if m else body, mentions, personal)


def paragraph_beat(pieces: list[str], mentions: Mentions, personal: Callable[[Person], bool],
                   by_gender: Callable[[str], Person | None], narrator: Person | None) -> Person | None:
    """Return the person the paragraph's narration is about: the first named at a sentence's start, else the
    person a sentence-opening "He"/"She" is ("She turned away.": the woman of the talk, as a tag's "she" would be);
    narrator stands for a first-person "I" (None when the book is not told in the first person)."""
    for piece in pieces:
        for start, _, person in mentions(piece):
            if (sentence_start(piece, start) or start < 3) and personal(person):
                return person
    for piece in pieces:
        m = _PRONOUN_BEAT.search(piece)
        if m and m.group(1) == "I":
            if narrator is not None:
                return narrator
            continue
        if m:
            return by_gender("M" if m.group(1) == "He" else "F")
    return None
