"""A first-person narrator's part ("said my aunt") takes the name the narration gives it in a sentence of its
own ("Her name was Nell", "my aunt's name was Nell"); invented text, each rule seen alone."""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.owned import part_names

#: A narrator who says "I" often, an aunt named once in a sentence of her own, and a tagged line of hers.
_AUNT = ["I walked to the mill with my aunt, and I thought my own thoughts; I was tired and my feet ached.",
         "I loved my aunt dearly, and the miller thought well of her. Her name was Nell, but he called her Dove.",
         "I sat down on the bank, and I listened to the water.",
         "“Mind the weir,” said my aunt.",
         "I said nothing, for I was tired."] * 2


def _cast(paragraphs):
    return find_cast(Book("Mill", "Anon", (Chapter(1, "One", tuple(paragraphs)),), source=None))


def test_a_part_the_narration_names_in_a_sentence_of_its_own_speaks_under_that_name():
    cast = _cast(_AUNT)
    assert cast.first_person
    speakers = {q.speaker for q in cast.quotes if q.text.startswith("Mind the weir")}
    assert speakers == {"Nell"}


def test_a_name_the_roster_lacks_becomes_the_parts_main_name():
    # "Nell" written once is no character of the roster's: the part "my aunt" is made, and named Nell.
    once = _AUNT[:5] + [p.replace(" Her name was Nell, but he called her Dove.", "") for p in _AUNT[5:]]
    cast = _cast(once)
    nell = next(c for c in cast.characters if c.name == "Nell")
    assert "My aunt" in nell.aliases
    assert {q.speaker for q in cast.quotes if q.text.startswith("Mind the weir")} == {"Nell"}


def test_the_pronoun_must_fit_the_part_and_no_one_else_be_named_between():
    assert part_names(["I loved my aunt dearly. Her name was Nell."]) == {"aunt": "Nell"}
    assert part_names(["I loved my aunt's name: my aunt's name was Nell."]) == {"aunt": "Nell"}
    assert part_names(["I loved my aunt dearly. His name was Tam."]) == {}  # "his" is no aunt
    assert part_names(["My aunt met a girl at Aldmoor. Her name was Wren."]) == {}  # someone else between


def test_without_a_naming_sentence_the_part_keeps_its_description():
    cast = _cast([p.replace(" Her name was Nell, but he called her Dove.", "") for p in _AUNT])
    speakers = {q.speaker for q in cast.quotes if q.text.startswith("Mind the weir")}
    assert speakers == {"My aunt"}
