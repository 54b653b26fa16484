"""A book told by an "I" (issue 31): the narrator's own tagged lines are the narrator's, one voice, and a
later clause's subject ("I was going out, when Tobias met me and said") is no "I".

Synthetic first-person books (names made up here); each rule is seen alone.
"""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast


def _cast(paragraphs: list[str]):
    return find_cast(Book("Test", "Anon", (Chapter(1, "One", tuple(paragraphs)),), source=None))


def _quote(cast, opening: str):
    return next(q for q in cast.quotes if q.text.lstrip("“\"").startswith(opening))


#: A narrator who says "I" often, and two people met often enough to be characters.
_INTRO = ["I walked with Tobias Wrenfield and Mrs. Orla Penhallow to the gate, and I thought my own thoughts.",
          "“Good morning,” said Tobias Wrenfield.", "“Good morning,” said Mrs. Penhallow.",
          "I nodded to them both, for I was tired and my feet ached."] * 3


def test_the_book_is_told_in_the_first_person():
    assert _cast(_INTRO).first_person


def test_a_later_clause_with_its_own_subject_is_not_the_narrators():
    cast = _cast(_INTRO + ["I was going down to the mill, when Tobias met me and said that,",
                           "“The wheel is broken.”",
                           "I was at the window; and Mrs. Penhallow, seeing me there, added,",
                           "“Come down at once.”"])
    wheel = _quote(cast, "The wheel is broken.")
    assert not wheel.by_narrator and wheel.speaker in ("Tobias Wrenfield", "Tobias")
    down = _quote(cast, "Come down at once.")
    assert not down.by_narrator and (down.speaker or "").endswith("Penhallow")


def test_the_narrators_own_tags_are_the_narrators():
    cast = _cast(_INTRO + ["“Is the gate open?” I asked him.", "“It is,” said Tobias.",
                           "“Then let us go,” said I.", "“Not yet,” I replied, and I sat down.",
                           "I turned to Tobias and said, “We are late.”"])
    for opening in ("Is the gate open?", "Then let us go,", "Not yet,", "We are late."):
        quote = _quote(cast, opening)
        assert quote.by_narrator and quote.speaker is None, opening
    assert _quote(cast, "It is,").speaker in ("Tobias Wrenfield", "Tobias")
