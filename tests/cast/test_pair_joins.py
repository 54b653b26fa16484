"""One person, one character, learned (issue 31): the pairwise join model of app/cast/pairjoin.py.

Invented books (names made up here): two names of one person that the name rules leave apart are joined by
the shipped model; two people who answer each other under their own speech tags, or whom one sentence
names side by side, are never joined, whatever a model says.
"""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.pairjoin import FEATURES, PairModel


def _cast(paragraphs: list[str], **kw):
    return find_cast(Book("Test", "Anon", (Chapter(1, "One", tuple(paragraphs)),), source=None), **kw)


def _names(cast, word: str) -> list[set[str]]:
    return [{c.name, *c.aliases} for c in cast.characters if word in c.name or any(word in a for a in c.aliases)]


#: A model that would join every candidate pair: only pairjoin.two_people can keep two people apart.
_JOIN_ALL = PairModel([0.0] * len(FEATURES), threshold=0.0)


def _daughter_and_mother() -> list[str]:
    # "Miss Pym" beside a "Mrs. Pym": the name rules leave the young woman's title apart from her full name.
    paras = ["Miss Orla Pym was the younger of the house. She kept the books."]
    for i in range(8):
        paras += [f"Orla Pym walked to the window, {i}. She looked out.", "“It rains again,” said Miss Orla Pym.",
                  "“So it does,” said Rufus Dace. He laughed.", "“I am tired of it,” said Miss Pym. She sighed.",
                  "“Then stay in,” said Rufus Dace."]
    for i in range(3):
        paras += [f"Mrs. Pym sat by the fire, {i}. She knitted. Rufus Dace came in.", "“Good evening,” said Mrs. Pym.",
                  "“Good evening, madam,” said Rufus Dace."]
    return paras


def test_a_title_and_the_full_name_written_with_it_are_one_person_when_the_rules_leave_them_apart():
    paras = _daughter_and_mother()
    assert len(_names(_cast(paras, joiner=None), "Pym")) == 3  # the rules alone: Orla Pym, Miss Pym, Mrs. Pym
    pym = _names(_cast(paras), "Pym")
    assert {"Orla Pym", "Miss Pym"} <= next(n for n in pym if "Orla Pym" in n)
    assert any(n == {"Mrs. Pym"} for n in pym)  # the mother stays herself


def _father_and_son() -> list[str]:
    # A cousin of the surname keeps the name rules from giving "Mr. Pellow" to Rufus: the pair is the model's.
    paras = ["Jasper Pellow, a cousin, came by once. He left.", "Jasper Pellow wrote a letter. He signed it."]
    for i in range(8):
        paras += [f"Rufus Pellow walked to the window, {i}. He looked out.", "“It rains again, father,” said Rufus Pellow.",
                  "“So it does, Rufus,” said Mr. Pellow. He laughed.", "“I am tired of it,” said Rufus Pellow. He sighed.",
                  "“Then stay in,” said Mr. Pellow."]
    return paras


def test_two_people_who_answer_each_other_under_their_own_tags_are_never_joined():
    assert len(_names(_cast(_father_and_son()), "Pellow")) == 2
    assert len(_names(_cast(_father_and_son(), joiner=_JOIN_ALL), "Pellow")) == 2


def test_two_names_written_side_by_side_are_two_people():
    # The same book, but the narration names the two side by side: "Miss Pym" is an elder sister.
    paras = _daughter_and_mother() + ["Miss Pym and Orla walked to church together."]
    pym = _names(_cast(paras), "Pym")
    assert len(pym) == 3 and not any({"Orla Pym", "Miss Pym"} <= n for n in pym)
    assert not any({"Orla Pym", "Miss Pym"} <= n for n in _names(_cast(paras, joiner=_JOIN_ALL), "Pym"))
