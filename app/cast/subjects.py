"""Who the narration is about just before a line: the subject of its latest sentences, per gender.

English narration keeps one person as the subject of its sentences and goes on with "he" or "she" ("The
vicar folded his letter. He looked out at the rain."); a speech tag's bare "he said" right after is that
person, even when another man was named since in a lesser place ("... to thank Brannock, who stood mending
a net"). The subject may be a name or a description the book ties to someone: a role ("the doctor" of the
one Dr. of the scene, "the warden" of an apposition), a part that has spoken ("said the guide" before), or
the newcomer the narration has just brought in ("a tall man came in. The man sat down."). Only the sentence
openings count (a name that opens a sentence is its subject), and only the narration of the line's own
paragraph and of the narration paragraph right before it: a conversation's older narration is the turns'.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable

from app.cast.person import Person

#: A sentence's opening: the start of a piece of narration, or after its end mark (and a closing quote mark).
_SENTENCE = re.compile(r"(?:^|(?<=[.!?;])['\"\u2019\u201d]?\s+)(?=\S)")
#: Words that may come before a sentence's subject ("Then the doctor turned", "But she ...").
_OPENERS = re.compile(r"(?:(?:And|But|Then|Now|So|Presently|Suddenly|Here|At\s+last|At\s+once|At\s+this)\b,?\s+)?")
#: "The doctor", "the old guide": a definite article, at most two lower-case words, a noun, then a verb-like
#: word (not "the doctor's", not "the doctor of", not a list "the doctor and").
_THE_NOUN = re.compile(r"[Tt]he\s+((?:[a-z]+\s+){0,2}?)([a-z]{3,})"
                       r"(?=\s+(?!of\b|and\b|or\b|who\b|whom\b|whose\b)[a-z]+)")
_PRONOUN = re.compile(r"([Hh]e|[Ss]he)\b")
#: Words that end a noun phrase rather than describe its noun.
_NOT_DESCRIBING = frozenset("other same first last next each every any no some such of in on at to for from by with "
                            "and or but as his her their its my our your this that".split())


class Subjects:
    """The latest sentence subject of each gender in the narration, and in which paragraph it was written."""

    def __init__(self) -> None:
        #: Per gender: (paragraph number, person, whether the sentence names or describes them rather than
        #: going on with "he") of the latest sentence whose subject was that person.
        self._latest: dict[str, tuple[int, Person, bool]] = {}
        self._paragraph = 0
        #: Whether the paragraph before the current one was narration alone.
        self._after_narration = False
        self._narration_only = True
        #: The subject of the sentence just noted when its gender is not known, for the "he" or "she" after it.
        self._open: Person | None = None
        self._here: Person | None = None

    def next_paragraph(self, has_quotes: bool) -> None:
        """Start the next paragraph of the book (call before noting its narration)."""
        self._after_narration = self._narration_only
        self._narration_only = not has_quotes
        self._paragraph += 1
        self._open = None

    def note(self, text: str, mentions: Callable[[str], Iterable[tuple[int, int, Person]]],
             describe: Callable[[str, str], Person | None]) -> None:
        """Note the subjects of a piece of narration's sentences (in book order).

        mentions: the names in a text, (start, end, person); describe: the person a definite description
        ("the", its words, its noun) names now, or None.
        """
        names = {start: (end, person) for start, end, person in mentions(text)}
        for m in _SENTENCE.finditer(text):
            at = _OPENERS.match(text, m.end()).end()
            hit = names.get(at)
            person = None
            if hit is not None:
                end, person = hit
                person = None if text.startswith(("'s", "\u2019s"), end) else person
            elif (pronoun := _PRONOUN.match(text, at)) is not None:
                # "He went to the door.": the same man goes on being the subject; a subject of no known
                # gender ("The doctor crossed the yard.") is the "he" of the sentence right after.
                gender = "M" if pronoun.group(1).lower() == "he" else "F"
                if self._open is not None:
                    self._latest[gender], self._open = (self._paragraph, self._open, True), None
                elif gender in self._latest and self._latest[gender][0] >= self._paragraph - 1:
                    self._latest[gender] = (self._paragraph, self._latest[gender][1], False)
                continue
            elif (the := _THE_NOUN.match(text, at)) is not None and not set(the.group(1).split()) & _NOT_DESCRIBING:
                person = describe(the.group(1) + the.group(2), the.group(2))
            self._open = None
            if person is not None and person.gender:
                self._latest[person.gender] = (self._paragraph, person, True)
            elif person is not None and hit is None:
                self._open = person  # "The doctor", never a name of no known gender (a town's may open a sentence)

    def latest(self, gender: str | None) -> Person | None:
        """Return the person of that gender the narration of this paragraph, or of the narration paragraph
        right before it, last made the subject of a sentence; None when it made nobody so."""
        found = self._latest.get(gender) if gender else None
        self._here = None
        if found is None:
            return None
        where, person, direct = found
        if where == self._paragraph and direct:
            self._here = person
        if where == self._paragraph or (where == self._paragraph - 1 and self._after_narration):
            return person
        return None

    def settles(self, person: Person | None) -> bool:
        """Return whether the latest answer was that person, named or described as a sentence's subject in the
        line's own paragraph ("The vicar sat down. “Well?” he said."): the text says who, as a name
        would. A subject only carried on by "he" is not settled: a long paragraph's "he" may be another man."""
        return person is not None and person is self._here
