"""A word a book makes a speech tag's subject again and again is a name, even where the book writes it in lower case."""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast

#: "moss" grows on every wall of this story, and Moss is also the gardener who talks.
_MOSS = ("The moss on the north wall was thick, and moss covered the old steps. Nobody had scraped the moss away.",
         "“The roses want cutting,” said Moss.",
         "Adela looked at the roses and shook her head.",
         "“Not this week,” said Adela.",
         "“Then next week,” said Moss.",
         "“Next week, then.”",
         "“And the moss?” said Moss.",
         "“Leave the moss,” said Adela.")


def _said(paragraphs):
    cast = find_cast(Book("Garden", "Anon", (Chapter(1, "One", paragraphs),), source=None))
    return cast, {q.text: q.speaker for q in cast.quotes}


def test_a_word_three_speech_tags_make_speak_is_a_name_though_the_book_writes_it_in_lower_case():
    cast, said = _said(_MOSS)
    assert said["The roses want cutting,"] == "Moss"
    assert said["And the moss?"] == "Moss"
    assert "Moss" in {c.name for c in cast.characters}


def test_two_tags_are_not_enough_against_the_lower_case_word():
    paragraphs = tuple(p for p in _MOSS if p != "“And the moss?” said Moss.")
    cast, said = _said(paragraphs)
    assert "Moss" not in {c.name for c in cast.characters}
    assert said["The roses want cutting,"] != "Moss"


def test_a_name_with_an_article_does_not_count_as_a_tag_of_the_bare_word():
    # "said the Moss" three times is a part with an article, never the bare name "Moss".
    paragraphs = tuple(p.replace("said Moss", "said the Moss") for p in _MOSS)
    cast, _ = _said(paragraphs)
    assert "Moss" not in {c.name for c in cast.characters}
