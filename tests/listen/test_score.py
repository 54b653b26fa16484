"""Scoring a take: the spoken-form normalization and each named problem, as a table."""
from __future__ import annotations

import pytest

from app.listen import score as sc
from app.listen.normalize import normalize
from app.listen.transcript import Transcript

TEXT = "He carried a small lamp and a heavy bag of tools up the stairs."


@pytest.mark.parametrize("text, heard", [
    ("In 1984 Mr. Smith paid $12 for the 3rd print.", "In nineteen eighty-four, Mister Smith paid twelve dollars for the third print."),
    ("The colour of the harbour was grey.", "the color of the harbor was gray"),
    ("It's 50% done & ready.", "It's fifty percent done and ready."),
    ("Chapter 1: The Lighthouse", "Chapter one. The light house."),
    ("Don't stop.", "dont stop"),
    ("He read 3.5 pages.", "He read three point five pages."),
])
def test_spoken_forms_compare_equal(text, heard):
    assert sc.score(text, Transcript(heard)).errors == 0, (normalize(text), normalize(heard))


@pytest.mark.parametrize("heard, problems", [
    (TEXT, ()),
    ("He carried a small lamp and a heavy bag of tools up the stair.", ()),  # one slip is tolerated
    ("He carried a small lamp and a heavy", (sc.MISSING, sc.TRUNCATED)),
    ("He carried a small lamp and a small lamp and a small lamp and a heavy bag of tools up the stairs.",
     (sc.EXTRA, sc.REPEATED)),
    ("He carried a small lamp and a heavy bag bag of tools tools up the stairs stairs stairs.", (sc.EXTRA,)),
    ("", (sc.SILENCE, sc.MISSING)),
    ("He carried", (sc.MISSING, sc.TRUNCATED, sc.SILENCE)),
])
def test_problems_are_named(heard, problems):
    result = sc.score(TEXT, Transcript(heard))
    assert set(result.problems) == set(problems), result
    assert result.ok == (not problems)


def test_another_language_only_when_the_recognizer_is_sure():
    heard = Transcript("Il portait une petite lampe", language="fr", language_probability=0.97)
    assert sc.LANGUAGE in sc.score(TEXT, heard, language="en").problems
    unsure = Transcript(TEXT, language="fr", language_probability=0.4)
    assert sc.score(TEXT, unsure, language="en").ok


def test_error_rate_counts_every_edit():
    result = sc.score("one two three four", Transcript("one three four five"))
    assert (result.errors, result.words) == (2, 4) and result.error_rate == 0.5
