"""One person's names while a book's names are grouped: their forms, titles, gender votes, main name."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from app.cast.namedata import ABBREVIATED, EITHER_NAMES, FEMALE_NAMES, MALE_NAMES, SHORT_FOR, TITLES


def form_text(title: str | None, tokens: tuple[str, ...]) -> str:
    """Return how a name form is written: "Mr. Harlow", "Miss Harlow", "Ellen Harlow"."""
    name = " ".join(tokens)
    if not title:
        return name
    return f"{title}{'.' if title in ABBREVIATED else ''} {name}"


@dataclass
class Person:
    """One person's names while they are grouped."""

    forms: Counter = field(default_factory=Counter)
    first: str = ""
    last: str = ""
    titles: Counter = field(default_factory=Counter)
    votes: Counter = field(default_factory=Counter)

    @property
    def count(self) -> int:
        return sum(self.forms.values())

    @property
    def gender(self) -> str | None:
        male = self.votes["M"] + 5 * sum(n for t, n in self.titles.items() if TITLES.get(t) == "M")
        female = self.votes["F"] + 5 * sum(n for t, n in self.titles.items() if TITLES.get(t) == "F")
        given = {tokens[0] for (title, tokens) in self.forms if len(tokens) >= 2 or not title}
        male += 3 * sum(1 for g in given if g in MALE_NAMES) * max(1, self.count // 10)
        female += 3 * sum(1 for g in given if g in FEMALE_NAMES) * max(1, self.count // 10)
        if male == female or max(male, female) < 2:
            return None
        if min(male, female) * 3 > max(male, female):
            return None
        return "M" if male > female else "F"

    @property
    def has_given_name(self) -> bool:
        """A known given name among this person's names ("Wenna", "Tom"): a person, not a place."""
        return any(tok in FEMALE_NAMES or tok in MALE_NAMES or tok in EITHER_NAMES or tok in SHORT_FOR
                   for (_, tokens) in self.forms for tok in tokens[:1])

    @property
    def name(self) -> str:
        """The main name: the most used full name, else the most used titled one, else the most used."""
        def rank(form: tuple[str | None, tuple[str, ...]]):
            title, tokens = form
            return (len(tokens) >= 2 and self.forms[form] >= 2, self.forms[form])
        return form_text(*max(self.forms, key=rank))

    def names(self) -> list[str]:
        """Every written form, most used first."""
        return [form_text(*f) for f, _ in self.forms.most_common()]
