"""The shipped ranker is the mean of a few fits (scripts/train_cast_ranker.py `average`), written as one model of
the same form: its score of any candidate is the mean of the fits' scores, so app/cast/ranker.py needs nothing new.
Invented weights; no corpus."""
from __future__ import annotations

import numpy as np

from app.cast.ranker import FEATURES, Ranker
from scripts.train_cast_ranker import average


def _model(seed: int, hidden: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = len(FEATURES)
    return {"u": np.round(rng.normal(0, 1, n), 5), "W": np.round(rng.normal(0, 1, (n, hidden)), 5),
            "c": np.round(rng.normal(0, 1, hidden), 5), "out": np.round(rng.normal(0, 1, hidden), 5)}


def _ranker(m: dict[str, np.ndarray]) -> Ranker:
    return Ranker(list(m["u"]), 0.0, {"weights": m["W"].tolist(), "bias": list(m["c"]), "out": list(m["out"])})


def test_the_average_of_fits_scores_each_candidate_by_the_mean_of_their_scores():
    models = [_model(1), _model(2), _model(3)]
    rows = np.random.default_rng(9).integers(0, 2, (5, len(FEATURES))).astype(float).tolist()
    mean = sum(_ranker(m).scores(rows) for m in models) / len(models)
    together = average(models)
    assert together["W"].shape == (len(FEATURES), 9)
    assert np.allclose(_ranker(together).scores(rows), mean, atol=1e-3)
    # Not the first fit alone: the fits disagree on some candidate.
    assert not np.allclose(_ranker(models[0]).scores(rows), mean, atol=1e-3)
