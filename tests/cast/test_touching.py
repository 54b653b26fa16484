"""Who the narration sentence touching a quotation is about (app/cast/touching.py): the ranker's beat features.

"Mara set down her cup. “Not tonight.”": the sentence next to an untagged quote names who acts, most often the
speaker. Invented text; each feature is pinned on a few paragraphs run through the real cast pass.
"""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.person import Person
from app.cast.ranker import FEATURES, candidates
from app.cast.touching import Touching
from app.cast.turns import Said, Turn


def _turns(paragraphs):
    log: list = []
    find_cast(Book("Harbour", "Anon", (Chapter(1, "One", paragraphs),), source=None), ranker=None, log=log)
    return {c.turn.quotes[0]: c.turn for c in log}


def _names(touching: Touching) -> tuple:
    return tuple(p.first if p is not None else None for p in touching)


_TALK = ("“Is the boat in?” said Mara Quint.",
         "“Not yet,” said Tobin Wrede.",
         "Mara set down her cup. “Then we wait.”",
         "“We wait.” Tobin looked out at the rain.",
         "The lamp burned low. Tobin, with a glance at the door, took up his coat.",
         "“I will go and see.”",
         "“Go, then,” she said to the window.")


def test_the_sentence_before_the_quote_in_its_paragraph_names_its_subject():
    turns = _turns(_TALK)
    assert _names(turns[2].touching) == ("Mara", None, None)


def test_the_sentence_after_the_quote_names_its_subject():
    turns = _turns(_TALK)
    assert _names(turns[3].touching) == (None, None, "Tobin")


def test_the_closing_sentence_of_the_narration_paragraph_before_counts_when_the_quote_opens_its_paragraph():
    turns = _turns(_TALK)
    assert _names(turns[4].touching) == (None, "Tobin", None)
    # The paragraph before the next one had quotes: no narration paragraph touches it.
    assert _names(turns[5].touching) == (None, None, None)


def test_a_name_inside_the_sentence_or_a_tag_is_no_subject():
    turns = _turns(("“Is the boat in?” said Mara Quint.", "“Not yet,” said Tobin Wrede.",
                    "The rain fell on Mara and on the harbour. “Still?”",
                    "“Still,” Tobin said."))
    assert _names(turns[2].touching) == (None, None, None)
    assert _names(turns[3].touching) == (None, None, None)  # "Tobin said" is a tag, lower case after the quote


def test_the_ranker_sees_each_touching_subject_and_the_previous_turns():
    mara, tobin = Person(first="Mara", last="Quint"), Person(first="Tobin", last="Wrede")
    conv = [Turn([0], said=Said(mara, "explicit", 0.95), touching=Touching(after=tobin)),
            Turn([1], said=Said(tobin, "turn-taking", 0.6), touching=Touching(before=mara))]
    c = candidates(conv, 1, [conv[1].said], Person(first="I"), False, {}, {}, lambda person: True)
    rows = {person.first: dict(zip(FEATURES, row)) for person, row in zip(c.people, c.rows)}
    assert rows["Mara"]["touch_before"] == 1.0 and rows["Tobin"]["touch_before"] == 0.0
    assert rows["Tobin"]["touch_prev_turn"] == 1.0 and rows["Mara"]["touch_prev_turn"] == 0.0
    assert rows["Mara"]["touch_after"] == rows["Mara"]["touch_previous"] == 0.0
