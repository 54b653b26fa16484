"""The people a first-person narrator calls "my <noun>": "my brother Ansel", "Ansel, my brother".

In a book told by an "I", "said my brother" is a person of the story whom the narration may name once beside
the description. Tied by the narration's own words, never by a global alias: the person written most often
beside "my brother" is the one "said my brother" names.
"""
from __future__ import annotations

import re
from typing import Callable

from app.cast.person import Person

#: "my father", "our master": a description owned by the first-person narrator (and those with them).
NARRATORS_OWN = ("my", "our")
_MY_NOUN_BEFORE = re.compile(r"\b[Mm]y\s+([a-z]+),?\s+$")
_MY_NOUN_AFTER = re.compile(r"^,\s+my\s+([a-z]+)\b")
#: How far before or after a name the description may stand (characters).
_REACH = 30


class NarratorsOwn:
    """Per noun ("brother"), the people the narration writes beside "my <noun>", with how often."""

    def __init__(self) -> None:
        self._owned: dict[str, dict[int, list]] = {}

    def note(self, text: str, mentions: Callable[[str], list[tuple[int, int, Person]]]) -> None:
        """Note the people `text` writes beside "my <noun>" (`mentions` gives each name's span and person)."""
        if "my " not in text and "our " not in text:
            return
        for start, end, person in mentions(text):
            m = _MY_NOUN_BEFORE.search(text[max(0, start - _REACH):start]) or _MY_NOUN_AFTER.match(text[end:end + _REACH])
            if m:
                owned = self._owned.setdefault(m.group(1).lower(), {})
                owned[id(person)] = [person, owned.get(id(person), [person, 0])[1] + 1]

    def person(self, noun: str) -> Person | None:
        """Return the person most often written beside "my <noun>", or None."""
        owned = self._owned.get(noun)
        return max(owned.values(), key=lambda pc: pc[1])[0] if owned else None
