"""A speech tag that brings in someone new ("said a red-haired lad") or tells a person apart by what they
wear ("said the gentleman in the green gaiters", repeated by the book's tags) names a part of its own, not the
scene's named person. Invented text."""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.tags import tag_after


def _said(paragraphs):
    cast = find_cast(Book("Market", "Anon", (Chapter(1, "One", paragraphs),), source=None))
    return cast, {q.text: q.speaker for q in cast.quotes}


#: Two named people in the market; a stranger the tag describes puts in one word, then the talk goes on.
_MARKET = ("Mr. Odrell walked through the market with his sister Nell. Mr. Odrell was looking for a kettle.",
           "“Who mends kettles here?” said Mr. Odrell.",
           "“Not I,” said Nell.",
           "“The tinker by the well does, for a penny,” said a red-haired lad.",
           "“A penny is too much,” said Mr. Odrell.",
           "“Then mend it yourself,” said Nell.")


def test_a_tag_bringing_in_a_described_newcomer_is_a_part_of_its_own():
    cast, said = _said(_MARKET)
    assert said["The tinker by the well does, for a penny,"] == "The red-haired lad"
    assert said["Who mends kettles here?"] == "Mr. Odrell"
    assert said["Then mend it yourself,"] == "Nell"


def test_the_newcomer_tag_reads_its_words_and_leaves_bare_or_age_only_strangers_alone():
    tag = tag_after(", cried a grinning ploughman.")
    assert tag is not None and tag.own and tag.words == "the grinning ploughman"
    # "said a man", "said an old gentleman": as often a named person met anew; several would gather into one part.
    assert tag_after(", said a man.") is None
    assert tag_after(", said an old gentleman.") is None
    assert tag_after(", said a voice.") is None


#: A committee with a named chairman and a member the book only ever calls by his coat.
_COMMITTEE = ("Mr. Harven sat at the head of the committee table. Mr. Harven was the chairman.",
              "“The roof leaks again,” said Mr. Harven.",
              "“Then mend it,” said the gentleman in the green gaiters.",
              "“With what money?” asked Mr. Harven.",
              "“Sell the bell,” said the gentleman in the green gaiters.",
              "“Never,” said Mr. Harven.",
              "“Then let it leak,” said the gentleman in the green gaiters.")


def test_a_description_the_books_tags_repeat_is_a_part_of_its_own():
    cast, said = _said(_COMMITTEE)
    assert said["Then mend it,"] == "The gentleman in the green gaiters"
    assert said["Sell the bell,"] == "The gentleman in the green gaiters"
    assert said["With what money?"] == "Mr. Harven"


def test_a_description_written_once_with_its_detail_is_left_to_the_scene():
    # Once (or twice) it may be a named person met before the book names him: no part is made.
    paragraphs = _COMMITTEE[:3]
    cast, said = _said(paragraphs)
    assert "The gentleman in the green gaiters" not in {c.name for c in cast.characters}


def test_a_manner_phrase_is_no_detail_of_the_person():
    assert tag_after(", said the gentleman in a low voice.").epithet == ""
    assert tag_after(", said the gentleman in the same tone.").epithet == ""
    assert tag_after(", said the gentleman who had spoken first.").epithet == ""
    assert tag_after(", replied the lady who had been a nurse.").epithet == "the lady who had been a nurse"


def test_one_of_several_alike_told_apart_by_a_count_is_a_part_of_its_own():
    tag = tag_after(", said the second footman.")
    assert tag is not None and tag.own and tag.words == "the second footman" and tag.gender == "M"
    assert tag_after(", said the second.") is None  # no noun: left to the turns
