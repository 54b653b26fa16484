"""Someone the narration describes but never names ("The old lady pulled her spectacles down"), who then
speaks through a bare "she said".

English prose brings a person in by a description before (or without ever) giving a name: "a white man
came out of the dark", "the old lady looked over her spectacles". When a tag's "he" or "she" finds nobody
of that gender in the scene, the person meant is the one the narration just described, not a named person
of the other gender or of no known gender. The description is a part of its own ("The old lady"), as "said
the nurse" is (app/cast/roles.py, Parts); it is used only when the scene holds nobody else of that gender,
so a described named person ("the young lady" for a heroine already about) is left to the usual rules.
A description is often the way a newcomer enters before the narration names them ("a man stood at the door
... Brandt, for it was he"): when the book first names a person of that gender a few paragraphs on, the
description is that person, not a part of its own.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, NamedTuple

from app.cast.person import Person

#: Nouns for a person whose gender the word itself gives. General English, no book's words.
GENDERED_NOUNS = {
    "man": "M", "gentleman": "M", "boy": "M", "fellow": "M", "lad": "M", "youth": "M",
    "woman": "F", "lady": "F", "girl": "F", "lass": "F", "maid": "F",
}
#: A second noun that makes the gendered one an adjective: "a woman servant" is not "the woman" who
#: lies in the next room.
_SECOND_NOUNS = "servant friend neighbour neighbor visitor passenger stranger doctor teacher cousin".split()
#: "the old lady", "a tall, thin man", "a woman servant": an article, at most two lower-case words (with a
#: comma between), the noun, and maybe a second noun. Not "the man's" (whose, not who), not "a man of
#: letters" (a kind, not a person here).
_DESCRIBED = re.compile(r"\b([Tt]he|[Aa]n?)\s+((?:[a-z]+,?\s+){0,2}?)(" + "|".join(GENDERED_NOUNS) +
                        r")\b(?:\s+(" + "|".join(_SECOND_NOUNS) + r")\b)?(?!['\u2019]s\b|\s+of\b|-)")
#: Words before the noun that make it no one person ("the other man", "every woman", "the first boy").
_NOT_ONE = frozenset("other same first last next each every any no some such dead".split())
#: Words that end a noun phrase rather than describe its noun ("the house the girl", "the capacities of man").
_FUNCTION_WORDS = frozenset("the a an of in on at to for from by with and or but as his her their its my our "
                            "your this that these those which who whom whose was were is are had has".split())
#: How many narration pieces after it a description is still the scene's (a scene is a few paragraphs).
_REACH = 3
#: How many pieces of narration on the book may first name the person a description brought in (a piece:
#: a narration paragraph, or the narration before, between or after a paragraph's quotations).
_NAMED_WITHIN = 30


def first_named(paragraphs: Iterable[tuple[str, int]],
                mentions: Callable[[str], Iterable[tuple[int, int, Person]]]) -> list[tuple[int, Person]]:
    """Return each person with where the book first names them, in book order: the number of pieces of
    narration before that paragraph (paragraphs: each text with its pieces, one more than its quotations)."""
    seen: set[int] = set()
    out: list[tuple[int, Person]] = []
    at = 0
    for text, pieces in paragraphs:
        for _, _, person in mentions(text):
            if id(person) not in seen:
                seen.add(id(person))
                out.append((at, person))
        at += pieces
    return out


class _Seen(NamedTuple):
    """Where a description of someone was last written, and its words."""
    piece: int
    words: str
    #: Brought in by a speech tag ("said a little hump-backed man"): the part has spoken already.
    spoken: bool = False


class Described:
    """The latest person of each gender the narration described, and how many pieces ago."""

    def __init__(self, newcomers: list[tuple[int, Person]] | None = None) -> None:
        #: Who the book first names where, by piece of narration (first_named).
        self._newcomers = newcomers or []
        self._pieces = 0
        self._latest: dict[str, _Seen] = {}
        #: Where each description was first written: one the book has used for long is a known person's.
        self._first: dict[str, int] = {}
        #: Per noun, the latest person an indefinite description brought in ("a white man"): whom a tag's
        #: "said the man" right after means.
        self._brought: dict[str, _Seen] = {}

    def note(self, text: str) -> None:
        """Note the descriptions of people in a piece of narration (in book order)."""
        self._pieces += 1
        for m in _DESCRIBED.finditer(text):
            words = m.group(2).replace(",", " ").split()
            if set(words) & (_NOT_ONE | _FUNCTION_WORDS):
                continue
            noun = m.group(3)
            part = " ".join(["the", *words, noun] + ([m.group(4)] if m.group(4) else []))
            first = self._first.setdefault(part, self._pieces)
            if m.group(1).lower() != "the" or self._pieces - first <= _REACH:
                # "a man" brings someone in; "the girl" does so only where the book first writes it.
                self._latest[GENDERED_NOUNS[noun]] = _Seen(self._pieces, part)
            if m.group(1).lower() != "the":
                self._brought[noun] = _Seen(self._pieces, part)

    @property
    def pieces(self) -> int:
        """How many pieces of narration have been noted."""
        return self._pieces

    def introduce(self, words: str, gender: str | None) -> None:
        """Note a part a speech tag just brought in ("said a little hump-backed man"): the "said the man" or
        the "he said" of the next few pieces is that part, not a newcomer the book names later."""
        noun = words.split()[-1]
        self._brought[noun] = _Seen(self._pieces, words, spoken=True)
        if gender:
            self._latest[gender] = _Seen(self._pieces, words, spoken=True)

    def part(self, gender: str | None) -> Person | str | None:
        """Return the person of that gender the narration described lately: the newcomer the book names a
        few paragraphs on, else the description's words ("the old lady")."""
        return self._resolve(self._latest.get(gender) if gender else None, gender)

    def brought(self, noun: str, gender: str | None) -> Person | str | None:
        """Return whom "said the man" means when the narration has just brought in "a white man": that
        newcomer (named soon, or the description's words), never a man named earlier in the scene."""
        return self._resolve(self._brought.get(noun), gender)

    def _resolve(self, found: _Seen | None, gender: str | None) -> Person | str | None:
        if found is None or self._pieces - found.piece > _REACH:
            return None
        if found.spoken:
            return found.words  # a part a tag brought in: it has spoken already
        for n, person in self._newcomers:
            if n > self._pieces + _NAMED_WITHIN:
                break
            if n >= self._pieces and person.gender == gender:
                return person
        return found.words
