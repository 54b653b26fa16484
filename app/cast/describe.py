"""Descriptions that fit anyone of a kind in speech tags ("said the gentleman", "the girl cried"): resolved by
who is present in the scene, never by gender over the whole book.

A description marks another speaker than the last one (a name or "he" would do for the same person again),
so the previous turn's speaker is taken only when nobody else in the scene fits. An age word narrows it by
the titles the text gives: "the girl" is no Mrs., "the old lady" no Miss.
"""
from __future__ import annotations

from app.cast.person import Person

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
                        previous: Person | None, skip: Person) -> Person | None:
    """Return who "the old gentleman" is among the scene's people (most recent first), or None when nobody
    of that gender and age is about. named: the people the quote names (spoken to or about, not the
    speaker); previous: the previous turn's speaker; skip: a stand-in never meant (the narrator)."""
    fitting: list[Person] = []
    for person in scene:
        if person is skip or person in fitting or person.gender != gender or person in named:
            continue
        if fits_age(words, person):
            fitting.append(person)
    others = [p for p in fitting if p is not previous]
    return (others or fitting or [None])[0]
