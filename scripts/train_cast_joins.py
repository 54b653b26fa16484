"""Train the cast's pairwise join model (app/cast/pairjoin.py) on PDNC's tuning half and write its file.

    .venv/bin/python scripts/train_cast_joins.py            # cross-validates, writes app/cast/data/pairjoin.json
    .venv/bin/python scripts/train_cast_joins.py --check    # cross-validates, writes nothing

Each tuning novel (benchmarks/cast_pdnc.py: the first 13 in sorted folder order; the held-out half is
never read here) goes through the app's reader and cast with the join off; every candidate pair of speaking
characters is logged with its feature row (find_cast(pair_log=...)). A pair's label comes from PDNC's
character list (character_info.csv: each character's aliases), mapped as the benchmark maps an exported
character (map_names over its name forms): 1 when both map to one PDNC character, 0 when to two; a pair
one side of which maps to no one is left out. The model is a logistic regression with L2, fitted by
Newton's method from zeros for a fixed number of steps (numpy; weights rounded to 5 places), so the same
corpus gives the same file.

The threshold is chosen by grouped out-of-novel cross-validation (whole novels held out; leave-one-out and
SEEDS random 4-fold groupings): the lowest probability at which the held-out folds join no two people
(a merge costs more than a split), plus MARGIN, at least MIN_THRESHOLD.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.book import load_book  # noqa: E402
from app.cast import find_cast  # noqa: E402
from app.cast.pairjoin import FEATURES, TAGGED_EXCHANGES  # noqa: E402
from benchmarks.cast_pdnc import CORPUS, map_names, read_gold, split  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "app" / "cast" / "data" / "pairjoin.json"
L2 = 3.0
STEPS = 50
SEEDS = (0, 1, 2)
#: Never join below this probability, whatever the folds allow.
MIN_THRESHOLD = 0.5
#: Added to the lowest merge-free threshold of the folds: a pair of two people scored just under it in one
#: grouping (0.54 against 0.55), and a merge costs more than a split.
MARGIN = 0.05
GRID = tuple(round(0.05 * k, 2) for k in range(6, 20))


def novel_rows(name: str) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Return one novel's labelled candidate pairs: feature matrix, labels, and a description of each."""
    folder = CORPUS / name
    book = load_book(folder / "novel_text.txt")
    log: list = []
    find_cast(book, joiner=None, pair_log=log)
    _gold, names = read_gold(folder)
    X, y, what = [], [], []
    for big, small, row in log:
        a = map_names([big.name, *big.names()], names)
        b = map_names([small.name, *small.names()], names)
        if a is None or b is None:
            continue
        X.append(row)
        y.append(int(a == b))
        what.append(f"{name}: {big.name} / {small.name} -> {a} / {b}")
    return np.asarray(X, dtype=np.float64).reshape(-1, len(FEATURES)), np.asarray(y, dtype=np.float64), what


def fit(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression with L2 (not on the bias), Newton's method from zeros."""
    w = np.zeros(X.shape[1])
    reg = np.full(X.shape[1], L2)
    reg[0] = 1e-6
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-np.clip(X @ w, -30, 30)))
        grad = X.T @ (p - y) + reg * w
        hess = (X * (p * (1 - p))[:, None]).T @ X + np.diag(reg)
        w = w - np.linalg.solve(hess, grad)
    return np.round(w, 5)


def predict(w: np.ndarray, X: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(X @ w, -30, 30)))


def cross_validate(data: dict[str, tuple], folds: list[list[str]]) -> np.ndarray:
    """Return each pair's out-of-fold probability, in the order of the novels of `data`."""
    out = {}
    for held in folds:
        train = [n for n in data if n not in held]
        w = fit(np.vstack([data[n][0] for n in train]), np.concatenate([data[n][1] for n in train]))
        for n in held:
            out[n] = predict(w, data[n][0])
    return np.concatenate([out[n] for n in data])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="cross-validate and print; write nothing")
    parser.add_argument("--pairs", action="store_true", help="print each pair's out-of-fold probability")
    args = parser.parse_args()
    data = {}
    for name in split("tune"):
        data[name] = novel_rows(name)
        X, y, _ = data[name]
        print(f"{name}: {len(y)} pairs, {int(y.sum())} one person", flush=True)
    y = np.concatenate([d[1] for d in data.values()])
    X = np.vstack([d[0] for d in data.values()])
    # The join never makes what pairjoin.two_people forbids, whatever the model says.
    allowed = (X[:, FEATURES.index("tagged_talk")] < np.log1p(TAGGED_EXCHANGES)) \
        & (X[:, FEATURES.index("and_named")] == 0)
    what = [w for d in data.values() for w in d[2]]
    names = list(data)
    groupings = [("leave one novel out", [[n] for n in names])]
    for seed in SEEDS:
        order = list(np.random.default_rng(seed).permutation(names))
        groupings.append((f"4 folds, seed {seed}", [order[k::4] for k in range(4)]))
    worst_merge_free = MIN_THRESHOLD
    print("\n| grouping | threshold | joined one person | joined two people |\n|---|---|---|---|")
    for label, folds in groupings:
        p = cross_validate(data, folds)
        for t in GRID:
            joined = (p >= t) & allowed
            print(f"| {label} | {t:.2f} | {int((joined & (y == 1)).sum())} of {int(y.sum())} | "
                  f"{int((joined & (y == 0)).sum())} of {int((y == 0).sum())} |")
        merge_free = min((t for t in GRID if not ((p >= t) & allowed & (y == 0)).any()), default=1.0)
        worst_merge_free = max(worst_merge_free, merge_free)
        if args.pairs and label.startswith("leave"):
            for prob, lab, w in sorted(zip(p, y, what), reverse=True):
                if prob >= 0.2:
                    print(f"    {prob:.2f} {int(lab)} {w}")
    w = fit(X, y)
    threshold = round(min(1.0, worst_merge_free + MARGIN), 2)
    model = {"features": list(FEATURES), "weights": [float(v) for v in w], "threshold": threshold,
             "trained_on": "PDNC tuning half (benchmarks/cast_pdnc.py split('tune'))",
             "pairs": int(len(y)), "one_person": int(y.sum())}
    print(f"\nlowest merge-free threshold of the folds {worst_merge_free:.2f}, shipped {threshold:.2f}; weights:")
    for f, v in zip(FEATURES, w):
        print(f"  {f}: {v:+.3f}")
    if not args.check:
        OUT.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
