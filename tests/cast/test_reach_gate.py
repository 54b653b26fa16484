"""The reach rules (a closing "X went on.", a quote paragraph's tail, a lead-in's main-clause subject) hand a
quote only to someone already a person by other evidence: they never make a place or a thing a character.

Synthetic books (names made up here); the PDNC and LitBank benchmarks measure the gate.
"""
from __future__ import annotations

from app.book.model import Book, Chapter
from app.cast import find_cast


def _cast(paragraphs: list[str]):
    return find_cast(Book("Test", "Anon", (Chapter(1, "One", tuple(paragraphs)),), source=None))


def _speaker_of(cast, opening: str) -> str | None:
    return next(q for q in cast.quotes if q.text.lstrip("“\"").startswith(opening)).speaker


#: Two people met often enough to be characters, beside a river the narration names.
_INTRO = ["Mrs. Orla Penhallow and Tobias Wrenfield walked along the Gorsey, and Mrs. Penhallow laughed.",
          "“Good morning,” said Tobias Wrenfield.", "“Good morning,” said Mrs. Penhallow.",
          "They crossed the Gorsey at the mill, where the Gorsey ran fast and brown."] * 2


def _names(cast) -> list[str]:
    return [c.name for c in cast.characters]


def test_a_closing_sentence_whose_subject_is_a_thing_hands_no_quote_over():
    cast = _cast(_INTRO + ["The sky darkened over the fields. The Gorsey, swollen by the rain, went on.",
                           "“We must be over the bridge before dark.”"])
    assert not any("Gorsey" in n for n in _names(cast))
    assert "Gorsey" not in (_speaker_of(cast, "We must be over") or "")


def test_a_lead_in_names_no_place_after_a_preposition_as_its_speaker():
    cast = _cast(_INTRO + ["She remembered how he had sighed at the mill; how after that he had leant over the rail "
                           "by the Gorsey and said to her: “I shall stay here.”"])
    assert not any("Gorsey" in n for n in _names(cast))


def test_a_person_going_on_to_speak_still_gets_the_next_quote():
    cast = _cast(_INTRO + ["The sky darkened over the fields. Tobias Wrenfield, with a glance at her, went on.",
                           "“We must be over the bridge before dark.”"])
    assert (_speaker_of(cast, "We must be over") or "").startswith("Tobias")


def test_a_quote_paragraphs_tail_hands_a_person_the_next_quote():
    cast = _cast(_INTRO + ["“Go,” said Mrs. Penhallow; and Tobias Wrenfield, looking up, replied:",
                           "“Not without you.”"])
    assert (_speaker_of(cast, "Not without") or "").startswith("Tobias")


def test_a_reach_rule_makes_no_part_a_character():
    # A quote paragraph's tail naming a part with no name ("the drover, looking up, replied:") reaches into the
    # next paragraph: a reach rule hands a quote only to a named person already vouched for, never makes a
    # part; the quote is left to the turns.
    cast = _cast(_INTRO + ["“Go,” said Mrs. Penhallow; and the drover, looking up, replied:", "“Not without you.”"])
    assert not any("drover" in n.lower() for n in _names(cast))


def test_a_named_persons_tag_still_reaches_past_its_sentence():
    cast = _cast(_INTRO + ["“Stand back,” said Mrs. Penhallow. “The gate is shut.” Tobias answered her and stood aside."])
    assert (_speaker_of(cast, "The gate is shut") or "").endswith("Penhallow")
