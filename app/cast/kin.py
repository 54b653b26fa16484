"""Kin descriptions in speech tags ("said her mother", "cried his wife"): the person about whom they fit.

Resolved by who is present in the scene (the people the paragraph, the conversation and the narration lately
name), never by one global alias: "her" is the nearest person of that gender, and "her mother" someone else.
"""
from __future__ import annotations

from app.cast.person import Person

#: Kin a description names ("her mother"): resolved through the one "her" is.
KIN = frozenset("mother father aunt uncle wife husband sister brother son daughter cousin niece nephew".split())
#: Kin of the generation before, or married to the one "her" is: a Mrs. or a Mr., not a Miss.
_ELDERS = frozenset("mother father aunt uncle wife husband".split())
#: "his wife" is Mrs. and his surname.
_SPOUSES = {"wife": "Mrs", "lady": "Mrs", "husband": "Mr"}


def resolve_kin(words: str, gender: str | None, named: list[Person], recent: list[Person],
                skip: Person) -> tuple[Person | None, bool, Person | None] | None:
    """Return who "her mother" or "his uncle" is, whether the text settles it, and whom "her" is.

    named: the people the quote names (most often whom "her" is); recent: the people about, most recent
    first; skip: a stand-in never meant (the narrator). Of that gender, not the one "her" is: of her
    surname and, for a mother, a Mrs. (that settles it), then of her surname, then married."""
    owner, _, noun = words.partition(" ")
    if owner not in ("his", "her") or noun not in KIN or gender is None:
        return None
    owner_gender = "M" if owner == "his" else "F"
    possessor = next((p for p in list(reversed(named)) + recent if p.gender == owner_gender), None)
    candidates: list[Person] = []
    for person in recent:
        if person is skip or person is possessor or person in named or person in candidates:
            continue
        if person.gender == gender:
            candidates.append(person)
    if not candidates:
        return None, False, possessor
    surname = possessor.last if possessor else ""
    married = ("Mrs", "Lady") if gender == "F" else ("Mr", "Sir")
    same = lambda p: bool(surname) and p.last == surname  # noqa: E731
    wed = lambda p: any(t in p.titles for t in married)  # noqa: E731
    single = lambda p: "Miss" in p.titles or "Master" in p.titles  # noqa: E731
    if noun in _ELDERS:
        # "her mother" is a Mrs. of her surname, never a Miss (her sister, or herself under another name).
        tests = (lambda p: same(p) and wed(p), lambda p: same(p) and not single(p), wed, lambda p: not single(p))
    else:
        tests = (same, wed)
    for n, test in enumerate(tests):
        hit = next((p for p in candidates if test(p)), None)
        if hit is not None:
            return hit, n == 0, possessor  # the first test (her surname, and a Mrs. for a mother) settles it
    return candidates[0], False, possessor


def spouse_of(words: str, about: list[Person], lookup, skip: Person) -> tuple[Person | None, Person] | None:
    """Return who "his wife" or "her husband" is (Mrs. or Mr. and the surname of the one "his" or "her" is,
    through lookup(title, names)) and that one; about: the people named, most recent first."""
    owner, _, noun = words.partition(" ")
    if owner not in ("his", "her") or noun not in _SPOUSES:
        return None
    gender = "M" if owner == "his" else "F"
    for person in about:
        if person.gender == gender and person is not skip:
            return (lookup(_SPOUSES[noun], (person.last,)) if person.last else None), person
    return None
