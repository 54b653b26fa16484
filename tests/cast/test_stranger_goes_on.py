"""A stranger who spoke under "said the stranger" is the "the man said" of the next few paragraphs, not the
named man (or animal) the narration in between is about. Invented text."""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast


def _said(paragraphs):
    cast = find_cast(Book("Quay", "Anon", (Chapter(1, "One", paragraphs),), source=None))
    return {q.text: q.speaker for q in cast.quotes}


#: The stranger speaks once by that word; a long narration about the named ferryman follows; then "the man said".
_QUAY = ("Osric Penhallow kept the ferry at the quay. Osric Penhallow knew every boat on the river.",
         "“Take me over before the tide turns,” the stranger said, and dropped a coin in the boat.",
         "“Sit in the stern, then,” said Osric Penhallow.",
         "Osric Penhallow pushed off and rowed hard against the tide, and Osric Penhallow felt the boat drag at "
         "every stroke, for the river was high with the rain of three days, and Osric Penhallow swore at the "
         "current. He bent to the oars again. He watched the far bank come slowly nearer through the rain.",
         "“You row well for an old one,” the man said, pulling his hood down over his face.")


def test_the_man_after_a_stranger_spoke_is_the_stranger():
    said = _said(_QUAY)
    assert said["Take me over before the tide turns,"] == "The stranger"
    assert said["Sit in the stern, then,"] == "Osric Penhallow"
    assert said["You row well for an old one,"] == "The stranger"
