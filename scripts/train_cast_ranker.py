"""Train the cast's speaker ranker (app/cast/ranker.py) on PDNC's tuning half and write its model file.

    .venv/bin/python scripts/train_cast_ranker.py            # writes app/cast/data/ranker.json
    .venv/bin/python scripts/train_cast_ranker.py --check    # trains, prints, writes nothing

Each tuning novel (benchmarks/cast_pdnc.py: the first 13 in sorted folder order; the held-out half is
never read here) goes through the app's reader and the cast rules with the ranker off; every turn's
candidates and feature rows are logged (find_cast(log=...)). A turn's label is the gold speaker of its
quotations (PDNC's quotation_info.csv, matched by overlap as the benchmark matches them); a candidate
is that speaker when its names map to the same PDNC character (the benchmark's mapping). The model is a
conditional logit (a softmax over one turn's candidates), fitted by full-batch gradient descent with L2
(numpy; deterministic: zero start, fixed steps), so the same corpus gives the same file.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.book import load_book  # noqa: E402
from app.cast import find_cast  # noqa: E402
from app.cast.attribution import NARRATOR  # noqa: E402
from app.cast.ranker import FEATURES  # noqa: E402
from benchmarks.cast_pdnc import (  # noqa: E402
    CORPUS, _narrator, _predicted_spans, gold_id, map_names, match_gold, read_gold, split,
)

OUT = Path(__file__).resolve().parents[1] / "app" / "cast" / "data" / "ranker.json"
STEPS = 3000
RATE = 1.0
L2 = 1e-3


def novel_examples(name: str) -> tuple[list[np.ndarray], list[int]]:
    """Return one novel's turns as (feature matrix, index of the gold candidate)."""
    folder = CORPUS / name
    raw = (folder / "novel_text.txt").read_text(encoding="utf-8")
    book = load_book(folder / "novel_text.txt")
    log: list = []
    cast = find_cast(book, ranker=None, log=log)
    gold, names = read_gold(folder)
    narrator = gold_id(_narrator(gold) or "", names)
    quote_gold: dict[int, str] = {}
    for g, best in match_gold(_predicted_spans(raw, book, cast), gold):
        gid = gold_id(g.speaker, names)
        if best is not None and gid is not None:
            quote_gold.setdefault(best, gid)
    mapped: dict[int, str | None] = {}
    groups, answers = [], []
    for c in log:
        labels = Counter(quote_gold[i] for i in c.turn.quotes if i in quote_gold)
        if not labels or not c.people:
            continue
        label = labels.most_common(1)[0][0]
        hits = []
        for k, person in enumerate(c.people):
            if id(person) not in mapped:
                mapped[id(person)] = narrator if person is NARRATOR else map_names(person.names(), names)
            if mapped[id(person)] == label:
                hits.append(k)
        if hits:
            groups.append(np.array(c.rows, dtype=np.float64))
            answers.append(hits[0])
    return groups, answers


def fit(groups: list[np.ndarray], answers: list[int]) -> np.ndarray:
    X = np.concatenate(groups)
    sizes = np.array([len(g) for g in groups])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    owner = np.repeat(np.arange(len(groups)), sizes)
    target = np.zeros(len(X))
    target[starts + np.array(answers)] = 1.0
    w = np.zeros(X.shape[1])
    for _ in range(STEPS):
        z = X @ w
        z = z - np.maximum.reduceat(z, starts)[owner]
        e = np.exp(z)
        p = e / np.add.reduceat(e, starts)[owner]
        grad = X.T @ (p - target) / len(groups) + L2 * w
        w -= RATE * grad
    return w


def accuracy(groups, answers, w) -> float:
    right = sum(int(np.argmax(g @ w) == a) for g, a in zip(groups, answers))
    return 100.0 * right / max(1, len(groups))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="train and print, write nothing")
    args = parser.parse_args()
    groups, answers = [], []
    for name in split("tune"):
        g, a = novel_examples(name)
        groups += g
        answers += a
        print(f"{name}: {len(g)} turns", flush=True)
    w = fit(groups, answers)
    rule = np.zeros(len(FEATURES))
    rule[FEATURES.index("rule")] = 1.0
    print(f"{len(groups)} turns with the gold speaker among the candidates; training accuracy "
          f"{accuracy(groups, answers, w):.1f}% (the rules' choice: {accuracy(groups, answers, rule):.1f}%)")
    for name, weight in sorted(zip(FEATURES, w), key=lambda kv: -abs(kv[1])):
        print(f"  {name:16s} {weight:+.3f}")
    if not args.check:
        OUT.write_text(json.dumps({
            "about": "Speaker ranker of app/cast/ranker.py: softmax over a turn's candidates; trained by "
                     "scripts/train_cast_ranker.py on PDNC's tuning half (the first 13 novels in sorted order).",
            "features": list(FEATURES), "weights": [round(float(x), 5) for x in w], "bias": 0.0,
            "turns": len(groups)}, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
