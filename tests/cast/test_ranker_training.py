"""The ranker's training script: how a logged turn becomes a labelled example, and its weighted fit.

Invented turns and feature rows only (no corpus): the label mapping any gold source goes through
(PDNC's names or LitBank's entities), and the per-source weight of round cast29a.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from benchmarks.ranker_cv import load_trainer


@dataclass
class _Turn:
    quotes: list[int]


@dataclass
class _Logged:
    turn: _Turn
    people: list[str]
    rows: list[list[float]] = field(default_factory=list)


def _rows(n: int) -> list[list[float]]:
    from app.cast.ranker import FEATURES

    return [[float(k == j) for j in range(len(FEATURES))] for k in range(n)]


def test_a_turn_is_labelled_by_its_quotes_majority_and_the_candidate_that_maps_there():
    trainer = load_trainer()
    log = [
        # Two of three quotes say "ent-b": the label; the second candidate maps to it.
        _Logged(_Turn([0, 1, 2]), ["Ilsa", "the stranger", "I"], _rows(3)),
        # No gold on its quotes: no example.
        _Logged(_Turn([3]), ["Ilsa"], _rows(1)),
        # The gold speaker is none of the candidates: no example.
        _Logged(_Turn([4]), ["Ilsa"], _rows(1)),
        # The narrator's line: the "I" candidate stands for the excerpt's narrator entity.
        _Logged(_Turn([5]), ["Ilsa", "I"], _rows(2)),
    ]
    quote_gold = {0: "ent-b", 1: "ent-a", 2: "ent-b", 4: "ent-c", 5: "ent-narrator"}
    mapping = {"Ilsa": "ent-a", "the stranger": "ent-b", "I": "ent-narrator"}.get
    groups, answers = trainer._turn_examples(log, quote_gold, mapping)
    assert answers == [1, 1]
    assert [g.shape for g in groups] == [(3, len(_rows(1)[0])), (2, len(_rows(1)[0]))]


def _toy(seed: int):
    """Invented turns: candidate 0 is right when feature 0 is set, except in the "other" source, where the
    candidate with feature 1 is."""
    rng = np.random.default_rng(seed)
    groups, answers = [], []
    for t in range(60):
        rows = rng.integers(0, 2, size=(4, len(_rows(1)[0]))).astype(float)
        rows[:, :2] = 0.0
        if t < 40:
            rows[0, 0] = 1.0
            answers.append(0)
        else:
            rows[2, 1] = 1.0
            rows[1, 0] = 1.0
            answers.append(2)
        groups.append(rows)
    return groups, answers


def test_the_fit_is_deterministic_and_equal_weights_are_the_unweighted_fit():
    trainer = load_trainer()
    groups, answers = _toy(0)
    a = trainer.fit(groups, answers, hidden=3, iterations=20)
    b = trainer.fit(groups, answers, hidden=3, iterations=20)
    c = trainer.fit(groups, answers, [1.0] * len(groups), hidden=3, iterations=20)
    for key in a:
        assert np.array_equal(a[key], b[key])
        assert np.allclose(a[key], c[key], atol=2e-5)


def test_a_heavier_source_pulls_the_fit_its_way():
    trainer = load_trainer()
    groups, answers = _toy(1)
    light = [1.0] * 40 + [0.05] * 20
    heavy = [1.0] * 40 + [20.0] * 20
    u_light = trainer.fit(groups, answers, light, hidden=2, iterations=40)["u"]
    u_heavy = trainer.fit(groups, answers, heavy, hidden=2, iterations=40)["u"]
    # Feature 1 marks the heavier source's answers: its weight rises with that source's weight.
    assert u_heavy[1] > u_light[1] + 0.1
