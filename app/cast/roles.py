"""Role nouns tied to people: "Mr. Harding, the warden," makes "said the warden" Mr. Harding's line.

The narration names a person and a part side by side (apposition, either order); a role noun whose
appositions mostly name one person is that person when a speech tag gives only the role. Also: who a
title ("the captain") is in a scene, and the people of parts the book never names.
"""
from __future__ import annotations

import re
from collections import Counter

from app.cast.namedata import TITLES
from app.cast.names import Person, Roster, title_key
from app.cast.unnamed import GENDERED_NOUNS, Described

#: "Mr. Harding, the warden," / "the old warden, Mr. Harding,": a name and a role noun side by side.
#: "Mr. Harding was the warden.", "Mr. Harding had become warden" are the same tie, said outright. Not before ", and": "Mr. Harding, the
#: archdeacon, and the bishop" is a list.
_AFTER_NAME = re.compile(r"^(?:,\s+(?:who\s+was\s+)?the|\s+(?:is|was|became|had\s+become|was\s+(?:appointed|made)|as)"
                         r"(?:\s+the)?)\s+(?:[a-z]+\s+){0,2}?(?P<noun>[a-z]{3,})"
                         r"(?=\s*[.;:!?\u2014]|,(?!\s+(?:and|or|nor)\b)|\s+of\b)")
#: The role first opens a sentence and the name closes the apposition: "The warden, Mr. Harding, said";
#: never "on the lawn, Mr. Harding".
_BEFORE_NAME = re.compile(r"(?:^|[.!?;]\s+)the\s+(?:[a-z]+\s+){0,2}?(?P<noun>[a-z]{3,}),\s+$", re.IGNORECASE)
_THE_NOUN = re.compile(r"\bthe\s+([a-z]{3,})\b(?!\s+of\b)", re.IGNORECASE)
#: A role is tied by co-reference only when the narration writes it in this many paragraphs.
_MIN_TOGETHER = 4
#: Words of a noun phrase that name no part a person plays ("the latter", "the other").
_NOT_ROLES = frozenset("other latter former same first last one rest whole next".split())


def find_roles(texts: list[str], roster: Roster) -> dict[str, Person]:
    """Return each role noun the narration writes in apposition with a name ("Mr. Harding, the warden"),
    with the person it names, when one person has at least two thirds of its appositions."""
    seen: dict[str, Counter] = {}
    #: Per role noun, the people named in each paragraph whose narration writes "the <noun>".
    together: dict[str, Counter] = {}
    uses: Counter = Counter()
    named_in: Counter = Counter()
    paragraphs = 0
    for text in texts:
        here = {id(person) for _, _, person in roster.mentions(text)}
        paragraphs += 1
        named_in.update(here)
        for noun in {m.lower() for m in _THE_NOUN.findall(text)}:
            uses[noun] += 1
            together.setdefault(noun, Counter()).update(here)
        for start, end, person in roster.mentions(text):
            before = _BEFORE_NAME.search(text[max(0, start - 60):start]) if text[end:end + 1] == "," else None
            for m in (_AFTER_NAME.match(text[end:end + 60]), before):
                noun = m and m.group("noun").lower()
                # A title ("the archdeacon") is its holder's already: the attributor asks the scene for it.
                if noun and noun not in _NOT_ROLES | _WORDS_OF_PEOPLE and noun.capitalize() not in TITLES:
                    seen.setdefault(noun, Counter())[id(person)] += 1
    by_id = {id(p): p for p in roster.people}
    roles = {}
    for noun, counts in seen.items():
        (top, n), total = counts.most_common(1)[0], sum(counts.values())
        if n * 3 >= total * 2:
            roles[noun] = by_id[top]
    for noun, counts in together.items():
        if noun in roles or uses[noun] < _MIN_TOGETHER or not counts or noun in _NOT_ROLES | _WORDS_OF_PEOPLE:
            continue
        # Co-reference: "the warden" in paragraph after paragraph that names Mr. Harding, far more often
        # than Mr. Harding is named anywhere, and nobody else near as often.
        (top, n), *rest = counts.most_common(2)
        second = rest[0][1] if rest else 0
        if n >= 0.6 * uses[noun] and n >= 2 * second and n / uses[noun] >= 2 * named_in[top] / max(1, paragraphs):
            roles[noun] = by_id[top]
    return roles


#: Nouns too general to be one person's role ("Mr. Harding, the man who ...").
_WORDS_OF_PEOPLE = frozenset("man woman men women people person girl boy child lady gentleman".split())


def titled_in_scene(word: str, scene: list[Person], roster: Roster, skip: Person) -> Person | None:
    """Return who "the captain" is: the person of that title in the scene (`scene`: those named lately, then
    those taking part), else the one person of the book with it; never one global alias when several have it."""
    title = title_key(word.capitalize())
    # The one named lately first: a captain just named in the narration is the one speaking.
    for person in scene:
        if person is not skip and title in person.titles:
            return person
    holders = sorted((p for p in roster.people if title in p.titles), key=lambda p: -p.count)
    if len(holders) == 1 or (len(holders) > 1 and holders[0].count >= 3 * holders[1].count):
        return holders[0]  # nobody of that title in the scene: the one the book mostly means by it
    return None if holders else roster.by_title(word)


#: Nouns of a part of no gender that may be anyone ("the stranger"): the book may go on calling them "the man".
#: Not "the man" itself: a described man is the newcomer app/cast/unnamed.py tracks.
_ANYONE = frozenset("stranger newcomer visitor traveller traveler".split())
#: How many pieces of narration after a stranger spoke "said the man" is still that stranger.
_LATELY = 12


class Parts:
    """The people of parts with no name ("the surgeon", "my father"), made the first time the part speaks."""

    def __init__(self, roster: Roster) -> None:
        self.roster = roster
        self._by_words: dict[str, Person] = {}
        #: Where each part last spoke, by piece of narration (app/cast/unnamed.py counts them).
        self._spoke: dict[str, int] = {}
        #: Whom the narration describes lately ("The old lady looked up."), for a "she" with nobody else about.
        self._described = Described(roster.newcomers)

    def note(self, text: str) -> None:
        """Note the people a piece of narration describes (in book order: app/cast/unnamed.py)."""
        self._described.note(text)

    def described(self, gender: str | None, speakers: set[int]) -> list[Person]:
        """Return the one the narration just described, of that gender (the newcomer the book names soon, else
        a part made of the description: "The old lady"), or []; a part made now joins `speakers`."""
        return self._made(self._described.part(gender), gender, speakers)

    def brought(self, words: str, gender: str | None, speakers: set[int]) -> Person | None:
        """Return whom "said the man" means right after the narration brought in "a white man" (unnamed.py), else
        a stranger who spoke a few paragraphs ago ("said the stranger" ... "the man said"): the book calls a person it
        has named by the name, and one it has not by whatever noun fits."""
        noun = words.split()[-1]
        return next(iter(self._made(self._described.brought(noun, gender), gender, speakers)), None) or \
            (self._lately(gender) if noun in GENDERED_NOUNS else None)

    def _lately(self, gender: str | None) -> Person | None:
        """Return the part described as anyone of a kind ("the stranger") that spoke last, when it spoke
        within _LATELY pieces of narration and may be of that gender."""
        if not self._spoke:
            return None
        words, piece = max(self._spoke.items(), key=lambda kv: kv[1])
        person = self._by_words[words]
        if self._described.pieces - piece > _LATELY or words.split()[-1] not in _ANYONE or \
                person.gender not in (None, gender):
            return None
        return person

    def _made(self, found: Person | str | None, gender: str | None, speakers: set[int]) -> list[Person]:
        if found is None or isinstance(found, Person):
            return [found] if found else []
        person, made = self.person(found, gender)
        if made:
            speakers.add(id(person))
        return [person]

    def subject(self, words: str, noun: str, scene: list[Person], speakers: set[int], skip: Person) -> Person | None:
        """Return whom a sentence's subject "the <words>" names now (app/cast/subjects.py): the person the book
        ties the role to, the one of that title in the scene, a part that has spoken, or the newcomer just
        brought in ("a tall man came in. The man sat down."); None when it names nobody known."""
        found = self._by_words.get("the " + words)
        if found is None and noun.capitalize() in TITLES:
            # Only the one of that title in the scene: a book's other doctor is no subject here.
            title = title_key(noun.capitalize())
            return next((p for p in scene if p is not skip and title in p.titles), None)
        found = found or self.roster.by_role(noun)
        if found is None and noun in GENDERED_NOUNS:
            found = next(iter(self._made(self._described.brought(noun, GENDERED_NOUNS[noun]), GENDERED_NOUNS[noun],
                                         speakers)), None)
        return found

    def newcomer(self, words: str, gender: str | None) -> tuple[Person, bool]:
        """Return the part a tag brings in ("said a sleepy-faced carpenter") and whether it was made now; the
        next "said the carpenter" or lone "he said" of the scene is that part (app/cast/unnamed.py)."""
        self._described.introduce(words, gender)
        return self.person(words, gender)

    def person(self, words: str, gender: str | None) -> tuple[Person, bool]:
        """Return the part's person and whether it was made now (then it is in the roster)."""
        self._spoke[words] = self._described.pieces
        person = self._by_words.get(words)
        if person is not None:
            return person, False
        person = Person(first="", last="")
        person.forms[(None, (words[0].upper() + words[1:],))] = 1
        if gender:
            person.votes[gender] += 10
        self._by_words[words] = person
        self.roster.people.append(person)
        return person, True
