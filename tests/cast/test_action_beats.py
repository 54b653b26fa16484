"""An action beat names the speaker: with no speech word, the narration sentence touching a quotation is about
the person who says it ("Tam looked at the fire. Then Mara set down her cup. “Not tonight.”"). Invented text."""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast


def _said(paragraphs):
    cast = find_cast(Book("Inn", "Anon", (Chapter(1, "One", paragraphs),), source=None))
    return {q.text: q.speaker for q in cast.quotes}


#: Two named people at an inn's table; the last line has no tag, only the beats around it.
_TABLE = ("Mara Quellin and Tam Orrick sat by the fire of the inn. Mara Quellin was tired, and Tam Orrick was not.",
          "“Shall we ride on tonight?” asked Tam.",
          "“The road is long,” said Mara.",
          "“It is dry, though,” said Tam.",
          "Tam looked at the fire for a while. Then Mara set down her cup. “Not tonight.”")


def test_the_sentence_right_before_the_quote_names_its_speaker():
    said = _said(_TABLE)
    mara, tam = said["The road is long,"], said["It is dry, though,"]
    assert mara != tam
    assert said["Not tonight."] == mara  # not Tam, whom the paragraph names first, nor the turns' alternation
