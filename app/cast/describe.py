"""Descriptions that fit anyone of a kind in speech tags ("said the gentleman", "the girl cried"): resolved by
who is present in the scene, never by gender over the whole book.

The most recent person of that gender the scene holds, whom an age word narrows by the titles the text
gives: "the girl" is no Mrs., "the old lady" no Miss. (Passing over the previous turn's speaker, since a
description often marks a new one, measured worse on PDNC's tuning half: benchmarks/README.md, eighth pass.)

"Said the other" is the one description that always marks a new speaker: whoever of the talk did not speak last.
"""
from __future__ import annotations

from app.cast.person import Person
from app.cast.turns import Said, participants, previous_speaker

#: Nouns for a child or a youth: a married or professional title is no child's.
YOUNG_NOUNS = frozenset("girl boy child lad lass youth".split())
#: Words before a generic noun that say the person is old.
OLD_WORDS = frozenset("old elderly elder aged".split())
_ADULT_TITLES = frozenset("Mrs Mr Sir Lady Lord Dr Madame Monsieur Captain Colonel Major Professor Reverend Rev".split())
_YOUNG_TITLES = frozenset("Miss Master".split())


def fits_age(words: list[str], person: Person) -> bool:
    """Return whether a person's titles allow the age a description gives (words: "old", "lady")."""
    titles = set(person.titles)
    adult, young = bool(titles & _ADULT_TITLES), bool(titles & _YOUNG_TITLES)
    if words[-1] in YOUNG_NOUNS and adult and not young:
        return False
    if words[0] in OLD_WORDS and young and not adult:
        return False
    return True


def resolve_description(words: list[str], gender: str | None, scene: list[Person], named: list[Person],
                        skip: Person) -> Person | None:
    """Return who "the old gentleman" is among the scene's people (most recent first), or None when nobody
    of that gender and age is about. named: the people the quote names (spoken to or about, not the
    speaker); skip: a stand-in never meant (the narrator)."""
    fitting: list[Person] = []
    for person in scene:
        if person is skip or person in fitting or person.gender != gender or person in named:
            continue
        if fits_age(words, person):
            fitting.append(person)
    return fitting[0] if fitting else None


def the_other(gender: str | None, turns: list, history: list[Person], named: list[Person], skip: Person) -> Said | None:
    """Return who "said the other" (or "the other man") is: in a talk between two, the one who did not speak the
    turn before; the talk's other speaker, else the latest one mentioned lately (history: oldest first), of the
    gender given. None when the previous turn's speaker is unknown: "the other" is then no one in particular."""
    previous = previous_speaker(turns)
    if previous is None:
        return None
    # After a turn a tag names, the text settles it as a name would: the ranker leaves it.
    sure = turns[-2].said.method == "explicit"
    for person in participants(turns) + list(reversed(history)):
        if person is previous or person is skip or person in named or (gender and person.gender not in (None, gender)):
            continue
        return Said(person, "anaphoric", 0.75, settled=sure)
    return None
