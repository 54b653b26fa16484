"""Dialogue set with a leading dash and no quotation marks ("—Go away, he said." / "--Go away, he said.").

Invented text: each line opens with a dash, the tag follows after a comma, a question mark or a second dash;
a book set with quotation marks keeps its few dash-led paragraphs as narration.
"""
from __future__ import annotations

import pytest

from app.book import load_book
from app.cast import find_cast
from app.cast.dialogue import detect_marks, find_quotes

DASH_BOOK = """Chapter One

The lamps were lit early in the harbour office, and the clerk had gone home.

{d}Is the boat in yet? asked Tamsin Orrel.

{d}Not before dark, said Jory Penhale. The wind is against her.

Tamsin sat down by the stove and warmed her hands.

{d}Then we wait {d} said Tamsin {d} and we say nothing to anyone.

{d}I was going to tell the harbourmaster {d} but never mind.

Jory shrugged and went back to his ledger.
"""


@pytest.mark.parametrize("dash", ["\u2014", "--"], ids=["em-dash", "double-hyphen"])
def test_a_dash_led_paragraph_is_a_line_with_its_speaker_from_the_tag(tmp_path, dash):
    path = tmp_path / "harbour.txt"
    path.write_text(DASH_BOOK.format(d=dash), encoding="utf-8")
    cast = find_cast(load_book(path), ranker=None)
    # The character is named as the cast chooses ("Tamsin" or "Tamsin Orrel"): its given name is checked.
    lines = [(q.text, q.speaker and q.speaker.split()[0], q.method) for q in cast.quotes]
    assert lines[:5] == [
        ("Is the boat in yet?", "Tamsin", "explicit"),
        ("Not before dark,", "Jory", "explicit"),
        # The speech goes on after a short tag's clause, as it would after a closing quotation mark.
        ("The wind is against her.", "Jory", "explicit"),
        ("Then we wait", "Tamsin", "explicit"),
        ("and we say nothing to anyone.", "Tamsin", "explicit"),
    ]
    # A dash inside a speech with no tag after it cuts the speech, not into narration.
    assert lines[5][0] == f"I was going to tell the harbourmaster {dash} but never mind."
    # The tag is narration: the spoken spans hold the speech only.
    chapter = load_book(path).chapters[0]
    quote = cast.quotes[1]
    text = chapter.paragraphs[quote.paragraph]
    assert text[quote.end:].lstrip().startswith("said Jory Penhale.")
    assert "said" not in text[quote.start:quote.end]


#: A book set with quotation marks; a paragraph now and then opens with a dash that is no line of dialogue.
QUOTED_BOOK = (["The lamps were lit early in the harbour office.",
                "\u201cIs the boat in yet?\u201d asked Tamsin.",
                "\u201cNot before dark,\u201d said Jory.",
                "\u2014and that was all the clerk wrote, said the note on the door."]
               + ["\u201cThen we wait,\u201d said Tamsin.", "\u201cWe always wait,\u201d said Jory."] * 20
               + ["--or so the story went, said the old men on the quay."])


def test_a_book_with_quotation_marks_keeps_its_few_dash_led_paragraphs_as_narration():
    marks, dashes = detect_marks(QUOTED_BOOK)
    assert marks.name == "double" and dashes is False
    quotes = find_quotes(QUOTED_BOOK, (marks, dashes))
    assert {QUOTED_BOOK[q.paragraph][:1] for q in quotes} == {"\u201c"}
    assert [q.text for q in quotes[:4]] == ["Is the boat in yet?", "Not before dark,", "Then we wait,", "We always wait,"]


def test_a_book_with_no_quotation_marks_and_dash_led_paragraphs_writes_dialogue_with_dashes():
    paragraphs = ["The office was cold.", "--Is the boat in? asked Tamsin.", "--No, said Jory.", "---- ----",
                  # A dash after the tag's clause goes on narrating when an "and" follows it.
                  "--Lock it, said Jory--and he slammed the ledger shut.",
                  "--Then go home, said Tamsin--now, before the rain."]
    marks, dashes = detect_marks(paragraphs)
    assert dashes is True
    assert [q.text for q in find_quotes(paragraphs, (marks, dashes))] == [
        "Is the boat in?", "No,", "Lock it,", "Then go home,", "now, before the rain."]


def test_an_index_with_ditto_double_hyphens_is_no_dialogue():
    # A typewriter's "--" repeats the heading word of an index or a dictionary: no tag, no speech.
    paragraphs = ["Harbour, the old, 12.", "-- dues of, 40.", "-- master of the, 41, 57.", "-- lights, 88."] * 5
    marks, dashes = detect_marks(paragraphs)
    assert dashes is False
    assert find_quotes(paragraphs, (marks, dashes)) == []
