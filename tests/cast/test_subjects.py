"""A speech tag's bare "he"/"she" is the person the narration just made the subject of its sentences (a name,
or a description the book ties to someone), not a man named since in a lesser place. Invented text."""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.person import Person
from app.cast.subjects import Subjects


def _said(paragraphs):
    cast = find_cast(Book("Surgery", "Anon", (Chapter(1, "One", paragraphs),), source=None), ranker=None)
    return {q.text: q.speaker for q in cast.quotes}


#: The doctor is the subject of the narration; the farmer is named after him, as the one spoken to.
_VISIT = ("Dr. Vale drove out to the farm after supper.",
          "“Good evening, Dr. Vale,” said Tobias Wren at the gate.",
          "“Evening, Tobias,” said Dr. Vale.",
          "The doctor crossed the yard. He wanted a word with Tobias Wren, who was stacking wood by the shed.",
          "“Is the boy still feverish?” he asked.")


def test_a_he_after_a_description_that_names_the_scenes_doctor_is_the_doctor():
    said = _said(_VISIT)
    assert said["Is the boy still feverish?"] == "Dr. Vale"


def test_a_man_named_as_the_subject_before_an_object_speaks_through_the_he():
    paragraphs = ("“Good morning,” said Tobias Wren.", "“Morning,” said Jasper Quell.",
                  "Jasper looked at the sky for a long while, then at Tobias, then at the field.",
                  "“Rain by noon,” he said.")
    said = _said(paragraphs)
    assert said["Rain by noon,"] == "Jasper Quell"


def _person(first: str, gender: str) -> Person:
    person = Person(first=first, last="")
    person.forms[(None, (first,))] = 1
    person.votes[gender] += 10
    return person


def test_the_subject_is_kept_only_for_its_own_paragraph_and_the_narration_right_after():
    jasper = _person("Jasper", "M")
    subjects = Subjects()
    mentions = lambda text: [(text.find("Jasper"), text.find("Jasper") + 6, jasper)] if "Jasper" in text else []  # noqa: E731
    subjects.next_paragraph(False)
    subjects.note("Jasper looked at Tobias. He frowned.", mentions, lambda words, noun: None)
    assert subjects.latest("M") is jasper
    assert subjects.latest("F") is None
    subjects.next_paragraph(True)  # a quote paragraph right after the narration: still his
    assert subjects.latest("M") is jasper
    subjects.next_paragraph(True)  # a turn later the conversation's turns decide
    assert subjects.latest("M") is None


def test_a_possessive_or_an_object_is_no_subject():
    jasper = _person("Jasper", "M")
    subjects = Subjects()
    mentions = lambda text: [(text.find("Jasper"), text.find("Jasper") + 6, jasper)] if "Jasper" in text else []  # noqa: E731
    subjects.next_paragraph(False)
    subjects.note("Jasper's dog barked. The rain fell on Jasper.", mentions, lambda words, noun: None)
    assert subjects.latest("M") is None
