""""Said the other" in a talk between two is the one who did not speak the turn before, not whoever the book
names most. Invented text."""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.tags import tag_after


def _said(paragraphs):
    cast = find_cast(Book("Crossing", "Anon", (Chapter(1, "One", paragraphs),), source=None))
    return {q.text: q.speaker for q in cast.quotes}


#: A named drover and a carter who talk at a ford; the carter's lines after the first are "said the other", one
#: of them in a paragraph whose narration is about the drover.
_FORD = ("Bram Tolley led his cattle down to the ford at noon. Bram Tolley was tired, and the river was high. "
         "On the far bank a carter sat on his wagon and watched the water.",
         "“Can a wagon cross here?” asked Bram Tolley.",
         "“Not today,” said the carter.",
         "“Then I wait too,” said Bram Tolley.",
         "Bram Tolley frowned at the water. “Wait with me, then,” said the other.",
         "“Gladly,” said Bram Tolley.",
         "“We can share my bread,” the other man said.")


def test_said_the_other_is_who_did_not_speak_last():
    said = _said(_FORD)
    assert said["Not today,"] == "The carter"
    assert said["Wait with me, then,"] == "The carter"
    assert said["We can share my bread,"] == "The carter"
    assert said["Gladly,"] == "Bram Tolley"


def test_the_other_tag_reads_a_bare_or_gendered_other():
    tag = tag_after(", said the other.")
    assert tag is not None and tag.kind == "other" and tag.gender is None
    tag = tag_after(", the other woman said.")
    assert tag is not None and tag.kind == "other" and tag.gender == "F"
    # "the other clerk" is a part told apart by its noun, not the talk's other speaker.
    tag = tag_after(", said the other clerk.")
    assert tag is None or tag.kind != "other"
