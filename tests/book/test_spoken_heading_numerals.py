"""Roman numerals and bracketed numbers in a heading's place, said as numbers (issue 32): a heading's number
joined to its name by a hyphen, announced after a colon and a dash, or set in brackets as a section's
number; the pronoun "I" and words of numeral letters left as they are."""
from __future__ import annotations

import pytest

from app.book.spoken import speak


@pytest.mark.parametrize(("src", "want"), [
    # The hyphen stands for the dash between a chapter's number and its name.
    ("VIII-A FERRY ON THE WEIR", "Eight\u2014A FERRY ON THE WEIR"),
    ("II-HOW THE FERRYMAN CROSSED", "Two\u2014HOW THE FERRYMAN CROSSED"),
    ("IV-At the Mill", "Four\u2014At the Mill"),
    ("V-THE FLOOD", "Five\u2014THE FLOOD"),
    # A numbered piece with a letter keeps its letter.
    ("XII-B", "Twelve-B"),
    ("VIII-A.", "Eight-A."),
])
def test_heading_numeral_joined_to_its_name_by_a_hyphen(src, want):
    assert speak(src) == want


@pytest.mark.parametrize(("src", "want"), [
    ("Further Questions: I.\u2014Tides", "Further Questions: One.\u2014Tides"),
    ("LISTS OF THE MILLER'S PAPERS: I.\u2014LETTERS", "LISTS OF THE MILLER'S PAPERS: One.\u2014LETTERS"),
    ("Part Three: I.--Works on the Weir", "Part Three: One.--Works on the Weir"),
    ("Part Three: I\u2014Works on the Weir", "Part Three: One\u2014Works on the Weir"),
])
def test_first_part_announced_after_a_colon_and_a_dash(src, want):
    assert speak(src) == want


@pytest.mark.parametrize(("src", "want"), [
    ("[iv]", "Four"),
    ("[ix]", "Nine"),
    ("[xiv] Songs of the Ferry", "Fourteen. Songs of the Ferry"),
    ("[xxii] A Charm called the Ferryman's Rope, or the Procession of the Thousand Reeds",
     "Twenty-Two. A Charm called the Ferryman's Rope, or the Procession of the Thousand Reeds"),
    ("[lx] The Weir", "Sixty. The Weir"),
])
def test_bracketed_numeral_set_as_a_sections_heading_is_said_as_its_number(src, want):
    assert speak(src) == want


@pytest.mark.parametrize(("src", "want"), [
    ("[iv] See the second chapter.", "See the second chapter."),  # a note's own text: its marker left out
    ("the river [xiv] was low", "the river was low"),
    ("as the miller wrote: [12]--the tide was low", "as the miller wrote:--the tide was low"),
    ("the river [3]\u2014and the sea", "the river\u2014and the sea"),
    ("[c] The letter was kept.", "The letter was kept."),
])
def test_note_marks_are_still_left_out(src, want):
    assert speak(src) == want


@pytest.mark.parametrize("src", [
    "I\u2014I don't know.", "I\u2014we thought so.", "I\u2014", "He said: I\u2014I cannot.", "I-I CAN'T",
    "X-RAY WORK", "MIX-UP AT THE FAIR", "XL-SIZE COATS", "I.e. the mill",
    "[I]",
])
def test_pronoun_and_words_of_numeral_letters_stay(src):
    assert speak(src) == src


@pytest.mark.parametrize(("src", "want"), [("CIVIL-WAR DAYS", "Civil-WAR DAYS"), ("DID-DO", "Did-DO")])
def test_words_of_numeral_letters_before_a_hyphen_are_words(src, want):
    """No numeral ("CIVIL" is none; "DID" has a "D"): the word is said as a word, as "VIVID" is."""
    assert speak(src) == want


@pytest.mark.parametrize(("src", "want"), [
    ("The Quiet Hours, I: O the light on the weir", "The Quiet Hours, One: O the light on the weir"),
    ("The Quiet Hours, XVI: I drown my whole heart in the long slow river and the night over the ferry",
     "The Quiet Hours, Sixteen: I drown my whole heart in the long slow river and the night over the ferry"),
    ("Part First: The Mill, I: Divisions of the Wheel", "Part First: The Mill, One: Divisions of the Wheel"),
])
def test_piece_number_after_its_series_name_and_a_comma(src, want):
    assert speak(src) == want


@pytest.mark.parametrize("src", ["Yes, I: that is so.", "He said, I: no more.", "Then came the end of it, I: That was all."])
def test_pronoun_before_a_colon_stays(src):
    assert speak(src) == src


@pytest.mark.parametrize(("src", "want"), [
    ("THE TRIAL OF HENRY VIII.", "THE TRIAL OF HENRY the Eighth."),
    ("DEATH OF CHARLES I.", "DEATH OF CHARLES the First."),
    ("THE REIGN OF CHARLES I OF SPAIN", "THE REIGN OF CHARLES the First OF SPAIN"),
    ("CHARLES I SAW HIM GO", "CHARLES I SAW HIM GO"),  # the pronoun, in capitals
])
def test_regnal_number_after_a_name_in_capitals(src, want):
    assert speak(src) == want


@pytest.mark.parametrize(("src", "want"), [("[2]", ""), ("[009]", ""), ("the river [2] was low", "the river was low")])
def test_bracketed_number_alone_is_a_page_or_note_number_left_out(src, want):
    assert speak(src) == want


def test_bracketed_section_number_before_a_bracketed_letter():
    assert speak("[v] (b) Keeping of the Weir") == "Five. (b) Keeping of the Weir"


@pytest.mark.parametrize(("src", "want"), [
    ("INDEX TO CHAPS. I.-XXXIX.", "INDEX TO CHAPS. One to Thirty-Nine."),
    ("I.-The Ferry", "One.-The Ferry"),
])
def test_numeral_keeping_its_stop_before_a_hyphen(src, want):
    assert speak(src) == want
