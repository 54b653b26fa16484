"""The people a first-person narrator calls "my <noun>": "my brother Ansel", "Ansel, my brother".

In a book told by an "I", "said my brother" is a person of the story whom the narration may name once beside
the description. Tied by the narration's own words, never by a global alias: the person written most often
beside "my brother" is the one "said my brother" names. The narration may also name the part in a sentence
of its own ("I loved my aunt. Her name was Nell.", "my aunt's name was Nell"): that name is the part's.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Callable, Iterable

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


#: "Her name was Nell", "my aunt's name was Nell": the narration gives a part its name.
_NAME_WAS = re.compile(r"\b(?:([Hh]er|[Hh]is)|[Mm]y\s+([a-z]+)['\u2019]s)\s+name\s+(?:was|is)\s+[\"\u201c\u2018]?([A-Z][a-z]+)\b")
_MY_NOUN = re.compile(r"\b[Mm]y\s+([a-z]+)\b")
#: A capitalised word inside a sentence (not "I"): someone else named between "my aunt" and "Her name".
_OTHER_NAME = re.compile(r"(?<![.!?\u201d\"]\s)(?<!^)\b(?!I\b)[A-Z][a-z]*")
#: The parts "her" / "his" may stand for, by the pronoun.
_PARTS = {"F": frozenset("mother sister aunt grandmother wife daughter mistress nurse".split()),
          "M": frozenset("father brother uncle grandfather husband son master".split())}
#: How far before "Her name was" the part may stand (characters, inside one paragraph).
_NAME_REACH = 300


def part_names(texts: Iterable[str]) -> dict[str, str]:
    """Return, per noun ("aunt"), the name the narration gives "my <noun>" most often."""
    found: dict[str, Counter] = {}
    for text in texts:
        for m in _NAME_WAS.finditer(text) if "name" in text else ():
            noun = m.group(2)
            if noun is None:
                before = text[max(0, m.start() - _NAME_REACH):m.start()]
                parts = _PARTS["F" if m.group(1).lower() == "her" else "M"]
                mine = [n for n in _MY_NOUN.finditer(before) if n.group(1) in parts]
                # The nearest part of the pronoun's gender, with no one else named since.
                if not mine or _OTHER_NAME.search(before[mine[-1].end():].strip()):
                    continue
                noun = mine[-1].group(1)
            found.setdefault(noun, Counter())[m.group(3)] += 1
    return {noun: names.most_common(1)[0][0] for noun, names in found.items()}


def name_part(person: Person, name: str | None) -> Person:
    """Give a part made for "my <noun>" the name the narration gives it, as its main name."""
    if name and (None, (name,)) not in person.forms:
        person.forms[(None, (name,))] = max(person.forms.values(), default=0) + 1
    return person
