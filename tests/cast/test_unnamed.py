"""Someone the narration describes but never names speaks through a bare "she said"; "said one of the boys" is
a member of a group. Neither is the scene's named person. Invented text."""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast
from app.cast.tags import tag_after, tag_before
from app.cast.unnamed import Described

#: A woman the narration describes calls a named boy; nobody names her, and no other woman is about.
_CALLING = ("“BARNABY!”",
            "No answer came from the garden.",
            "The old lady put down her knitting and looked about the kitchen over her spectacles.",
            "“Where has that boy got to now?” she said.",
            "Barnaby crept out from behind the dresser, his hands sticky with honey.",
            "“I was only looking for the cat,” said Barnaby.",
            "“Looking for the honey, more like,” she said.")


def _said(paragraphs):
    cast = find_cast(Book("Kitchen", "Anon", (Chapter(1, "One", paragraphs),), source=None))
    return cast, {q.text: q.speaker for q in cast.quotes}


def test_a_she_with_no_woman_about_is_the_woman_the_narration_just_described():
    cast, said = _said(_CALLING)
    assert said["Where has that boy got to now?"] == "The old lady"
    assert said["Looking for the honey, more like,"] == "The old lady"
    assert said["I was only looking for the cat,"] == "Barnaby"


def test_a_named_woman_about_takes_the_she_as_before():
    # With a named woman in the scene, the description is hers to be: no part is made.
    paragraphs = ("Mrs. Quill came into the kitchen. Mrs. Quill was tired.",) + _CALLING[1:]
    cast, said = _said(paragraphs)
    assert said["Where has that boy got to now?"] == "Mrs. Quill"
    assert "The old lady" not in {c.name for c in cast.characters}


def test_a_description_is_the_scenes_only_for_a_few_pieces_of_narration():
    described = Described()
    described.note("A tall, thin man stood at the gate.")
    assert described.part("M") == "the tall thin man"
    assert described.part("F") is None
    for _ in range(5):
        described.note("The rain went on.")
    assert described.part("M") is None


def test_a_group_word_a_possessive_or_a_kind_is_no_one_described():
    described = Described()
    described.note("The other man left; the man's hat stayed, and a man of letters is rare.")
    assert described.part("M") is None
    described.note("A woman servant drew the curtains.")
    assert described.part("F") == "the woman servant"


def test_a_newcomer_the_book_names_a_few_paragraphs_on_is_the_one_described():
    from app.cast.person import Person
    ada = Person(first="Ada", last="Pell")
    ada.votes["F"] += 10
    described = Described([(3, ada)])
    described.note("A young woman stood in the doorway.")
    assert described.part("F") is ada


def test_one_of_a_group_is_a_part_of_its_own():
    tag = tag_after(" said one of the boys.")
    assert (tag.kind, tag.words, tag.gender) == ("role", "one of the boys", "M")
    assert tag_before("Then one of the students asked, ").words == "one of the students"
    assert tag_after(" said one of them.") is None


def test_said_one_of_the_group_is_not_the_scenes_named_person():
    paragraphs = ("Odo and the other boys sat on the wall above the river.",
                  "“The ice will hold,” said Odo.",
                  "“It never holds in March,” said one of the boys.",
                  "“It held last year.”")
    cast, said = _said(paragraphs)
    assert said["It never holds in March,"] == "One of the boys"
    assert said["The ice will hold,"] == "Odo"


def test_said_the_man_right_after_the_narration_brought_in_a_man_is_that_newcomer():
    paragraphs = ("Mr. Wrede sat by his fire at the edge of the dunes, and Mr. Wrede listened to the wind.",
                  "Out of the dark came a tall man leading a mule.",
                  "“Evening,” the man called. “May I share your fire?”",
                  "“Sit down,” said Mr. Wrede.")
    cast, said = _said(paragraphs)
    assert said["Evening,"] == "The tall man"
    assert said["Sit down,"] == "Mr. Wrede"


def test_said_the_man_with_no_man_brought_in_is_the_man_of_the_scene():
    paragraphs = ("Mr. Wrede sat by his fire at the edge of the dunes, and Mr. Wrede listened to the wind.",
                  "The wind dropped at last.",
                  "“Evening,” the man called. “Cold night.”")
    cast, said = _said(paragraphs)
    assert said["Evening,"] == "Mr. Wrede"


def test_our_guide_in_a_tag_is_a_part_of_its_own():
    # "said our guide", "my companion told us": someone the teller goes with, never named; not a kin word
    # ("my sister-in-law" is left to the kin rules).
    tag = tag_before("Our guide told us that the ford was near -- but ")
    assert (tag.kind, tag.words) == ("role", "our guide")
    assert tag_after(" said my companion.").words == "my companion"
    assert tag_after(" said my sister-in-law.") is None
