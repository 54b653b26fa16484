"""Characters found in a book: names grouped into people, their gender, and the first-person narrator."""
from __future__ import annotations

import pytest

from app.book import load_book
from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.names import find_people
from tests.cast.corpus import PDNC, PRIDE, require


@pytest.fixture(scope="module")
def pride():
    """The Standard Ebooks Pride and Prejudice, read by the app's EPUB reader, and its cast."""
    book = load_book(require(PRIDE))
    return book, find_cast(book)


def _character(cast, name):
    hits = [c for c in cast.characters if c.name == name or name in c.aliases]
    assert len(hits) == 1, f"{name!r} is in {len(hits)} characters"
    return hits[0]


def test_names_and_aliases_of_one_person_are_one_character(pride):
    _, cast = pride
    elizabeth = _character(cast, "Elizabeth")
    assert {"Elizabeth", "Lizzy"} <= {elizabeth.name, *elizabeth.aliases}
    assert elizabeth.gender == "F"
    # The heroine speaks more than anyone else in the book.
    assert cast.characters[0] is elizabeth


def test_mr_and_mrs_of_one_surname_are_two_characters(pride):
    _, cast = pride
    mr, mrs = _character(cast, "Mr. Bennet"), _character(cast, "Mrs. Bennet")
    assert mr is not mrs
    assert (mr.gender, mrs.gender) == ("M", "F")
    assert "Mrs. Bennet" not in mr.aliases and "Mr. Bennet" not in mrs.aliases


def test_a_rank_before_a_surname_is_not_a_first_name(pride):
    _, cast = pride
    # Colonel Fitzwilliam is Darcy's cousin, not Fitzwilliam Darcy.
    assert _character(cast, "Colonel Fitzwilliam") is not _character(cast, "Mr. Darcy")
    assert _character(cast, "Mr. Darcy").gender == "M"


def test_characters_are_sorted_by_lines_and_count_them(pride):
    _, cast = pride
    lines = [c.lines for c in cast.characters]
    assert lines == sorted(lines, reverse=True) and lines[-1] >= 1
    spoken = sum(1 for q in cast.quotes if q.speaker is not None)
    assert sum(lines) == spoken
    names = {c.name for c in cast.characters}
    assert all(q.speaker in names for q in cast.quotes if q.speaker is not None)


def test_third_person_narration_is_not_first_person(pride):
    _, cast = pride
    assert cast.first_person is False
    assert not any(q.by_narrator for q in cast.quotes)


def test_a_diminutive_and_a_title_join_the_full_name():
    # Passages in the manner of the corpus: a full name, then the short forms a novel uses for her.
    texts = ["Elizabeth Bennet was sitting by the fire when Mr. Darcy came in.",
             "“Lizzy,” said her father, “you must not mind it.” Elizabeth laughed, and she went out.",
             "Mr. Bennet looked up; he was reading. Mrs. Bennet said nothing, for she was tired.",
             "Elizabeth smiled at Lizzy’s name, and Mr. Darcy bowed; he said nothing."]
    roster = find_people(texts)
    liz = roster.lookup(None, ("Lizzy",))
    assert liz is not None and liz is roster.lookup(None, ("Elizabeth",)) is roster.lookup(None, ("Elizabeth", "Bennet"))
    assert roster.lookup("Mr", ("Bennet",)) is not roster.lookup("Mrs", ("Bennet",))
    assert liz.gender == "F" and roster.lookup("Mr", ("Darcy",)).gender == "M"


@pytest.fixture(scope="module")
def sign_of_four():
    """The Sign of the Four (PDNC's text, held out from tuning), told by Dr. Watson in the first person."""
    book = load_book(require(PDNC / "TheSignOfTheFour" / "novel_text.txt"))
    return book, find_cast(book)


def test_a_first_person_narrator_is_the_narrator_not_a_character_named_i(sign_of_four):
    book, cast = sign_of_four
    assert cast.first_person is True
    assert not any(c.name in ("I", "Me", "My") or "I" in c.aliases for c in cast.characters)
    paragraphs = {(ch.index, n): p for ch in book.chapters for n, p in enumerate(ch.paragraphs)}
    said_i = [q for q in cast.quotes if paragraphs[(q.chapter, q.paragraph)][q.end:q.end + 8].startswith(" said I")]
    assert len(said_i) >= 10
    assert all(q.by_narrator and q.speaker is None and q.method == "explicit" for q in said_i)
    holmes = _character(cast, "Holmes")
    assert holmes is cast.characters[0] and holmes.gender == "M"


def test_a_book_without_dialogue_has_no_cast():
    book = Book("Notes", "Anon", (Chapter(1, "One", ("The rain fell on the town all night.",
                                                     "In the morning the river was high.")),), source=None)
    cast = find_cast(book)
    assert (cast.characters, cast.quotes) == ((), ())


def test_a_name_a_speech_tag_shows_speaking_is_a_character_even_written_once():
    # Whitcombe, Maud and Larkin are each written once, only in a tag, in all three word orders; Blackmoor
    # is written once too but in no tag, and "Then" opens its tag's sentence.
    paragraphs = ("Hartley stood by the window. Hartley watched the street below.",
                  "“Someone is coming,” said Hartley.",
                  "“How can you tell?” said Whitcombe.",
                  "“Open the door.” Then Larkin said it again.",
                  "A tall woman came in from the rain, and spoke of the mill at Blackmoor.",
                  "“Please, I need your help,” whispered Maud.")
    cast = find_cast(Book("Visit", "Anon", (Chapter(1, "One", paragraphs),), source=None))
    said = {q.text: (q.speaker, q.method) for q in cast.quotes}
    assert said["How can you tell?"] == ("Whitcombe", "explicit")
    assert said["Please, I need your help,"] == ("Maud", "explicit")
    assert said["Open the door."] == ("Larkin", "explicit")
    assert said["Someone is coming,"] == ("Hartley", "explicit")
    assert {c.name for c in cast.characters} == {"Hartley", "Whitcombe", "Maud", "Larkin"}
    roster = find_people(list(paragraphs))  # without the tags: once is not enough
    assert roster.lookup(None, ("Whitcombe",)) is None and roster.lookup(None, ("Blackmoor",)) is None
