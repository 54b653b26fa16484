"""A conversation's speakers decided together (app/cast/runs.py): the run, not each turn on its own.

Invented turns: each turn's candidates are ids with the log-probabilities a ranker might give them.
"""
from __future__ import annotations

import math

import numpy as np

from app.cast.runs import decode

ODA, BRAM, CASS = 1, 2, 3


def _lp(*probabilities: float) -> np.ndarray:
    return np.array([math.log(p) for p in probabilities])


def test_a_turn_the_ranker_gives_to_the_speaker_before_goes_to_the_other_of_the_pair():
    # Oda (tagged) / Bram / [the ranker leans to Bram again, barely] / Bram
    emissions = [_lp(0.9, 0.1), _lp(0.2, 0.8), _lp(0.45, 0.55), _lp(0.3, 0.7)]
    people = [[ODA, BRAM]] * 4
    path = decode(emissions, people, [0, None, None, None], [False] * 4)
    assert [people[t][k] for t, k in enumerate(path)] == [ODA, BRAM, ODA, BRAM]
    # Turn by turn, the third turn would be Bram's again: the run's parity is what moved it.
    assert int(np.argmax(emissions[2])) == 1


def test_a_sure_score_still_wins_over_the_alternation():
    # Someone goes on in a new paragraph, and the ranker is sure of it: the decoder keeps it.
    emissions = [_lp(0.9, 0.1), _lp(0.05, 0.95), _lp(0.05, 0.95)]
    people = [[ODA, BRAM]] * 3
    path = decode(emissions, people, [None] * 3, [False] * 3)
    assert [people[t][k] for t, k in enumerate(path)] == [ODA, BRAM, BRAM]


def test_a_tagged_turn_keeps_its_speaker_whatever_the_scores():
    emissions = [_lp(0.1, 0.9), _lp(0.55, 0.45)]
    people = [[ODA, BRAM], [ODA, BRAM]]
    path = decode(emissions, people, [0, None], [False, False])
    assert people[0][path[0]] == ODA
    assert people[1][path[1]] == BRAM  # Oda spoke the tagged turn: the next, a near thing, is the other one's


def test_a_paragraph_that_continues_the_speech_is_not_held_against_the_same_speaker():
    # Oda (tagged) / a paragraph the ranker gives to Oda, 60 to 40 / a toss-up.
    emissions = [_lp(0.9, 0.1), _lp(0.6, 0.4), _lp(0.5, 0.5)]
    people = [[ODA, BRAM]] * 3
    continuing = decode(emissions, people, [0, None, None], [False, True, False])
    new_turn = decode(emissions, people, [0, None, None], [False, False, False])
    assert [people[t][k] for t, k in enumerate(continuing)] == [ODA, ODA, BRAM]
    assert [people[t][k] for t, k in enumerate(new_turn)] == [ODA, BRAM, ODA]


def test_the_candidates_differ_from_turn_to_turn():
    # A third person is a candidate of the middle turn only; the same ids are the same people throughout.
    emissions = [_lp(1.0), _lp(0.4, 0.35, 0.25), _lp(0.5, 0.5)]
    people = [[ODA], [ODA, CASS, BRAM], [BRAM, ODA]]
    path = decode(emissions, people, [None] * 3, [False] * 3)
    chosen = [people[t][k] for t, k in enumerate(path)]
    assert chosen[0] == ODA and chosen[1] != ODA
    assert len(path) == 3


def test_no_turns_and_one_turn():
    assert decode([], [], [], []) == []
    assert decode([_lp(0.3, 0.7)], [[ODA, BRAM]], [None], [False]) == [1]
