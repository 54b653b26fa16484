"""People, not capitalised words: a word the book writes after "a" or "an" is a kind of person (issue 31).

Invented text; the test fails with the rule switched off, the guard passes either way.
"""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.names import find_people


def _cast(paragraphs: list[str]):
    return find_cast(Book("Test", "Anon", (Chapter(1, "One", tuple(paragraphs)),), source=None))


def test_a_word_written_after_an_indefinite_article_is_no_character():
    paras = ["Old Hal Brenner sat by the fire, and then old Hal Brenner slept.",
             "He fought like a Zembran, and swore like a Zembran too.",
             "“Nobody but a Zembran would eat that,” said Hal Brenner.",
             "Even so, Zembran cooks were the best, the old men said.",
             "“You are a Zembran at heart,” he went on.",
             "“Zembran or not, I'm hungry,” he said."]
    names = {n for p in find_people(paras).people for n in p.names()}
    assert "Zembran" not in names and "Hal Brenner" in names


def test_a_kind_before_a_given_name_stays_in_that_persons_name():
    # "Zembran Tom" is a man's name, though "a Zembran" is a kind.
    paras = ["He was a Zembran, a Zembran to the bone.",
             "“Hand me the rope,” said Zembran Tom.",
             "“Here,” said Hal Brenner.",
             "“Thanks,” said Zembran Tom."]
    cast = _cast(paras)
    assert any(c.name == "Zembran Tom" for c in cast.characters)
