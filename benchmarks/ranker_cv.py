"""Out-of-novel check of the cast's speaker ranker: grouped cross-validation over the development books.

    .venv/bin/python -m benchmarks.ranker_cv --cache /tmp/x.pkl [--folds 4] [--seeds 0 1 2] \
        [--config lb=0] [--config lb=10,hidden=16,l2=0.001,iter=300] ...

The books are PDNC's tuning half and LitBank's development half (never a held-out book), their turns
logged and labelled by scripts/train_cast_ranker.py (`examples`: the rules' fill as features, the gold
speaker's candidate as the answer; --cache keeps them). For each seed the books are dealt into --folds
folds (PDNC's and LitBank's dealt separately, so every fold holds both kinds), each fold is left out in
turn, the model is fitted on the other folds' books (the seed also draws the hidden layer's start) and
scored on the left-out books' turns: the share whose gold candidate the model ranks first. Per turn,
not end to end: a turn's features are the rules' fill, not the ranker's own choices before it.

A configuration: lb (LitBank turn weight; 0 = PDNC only, main's training), hidden, l2, iter, and bar (a
scoring rule, see `right`; 0 = none). Printed:
each seed's PDNC and LitBank figure, then their mean and spread (max - min) over the seeds, beside the
rules' own choice and the shipped model (app/cast/data/ranker.json; in sample on PDNC, out on LitBank).
Round cast29a's rule: a configuration is a candidate only when its out-of-novel mean beats main's
training (lb=0 at the shipped hidden/l2/iter) by more than the seed spread.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import numpy as np

from app.cast.ranker import FEATURES, Ranker

_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "train_cast_ranker.py"


def load_trainer():
    """The training script as a module (scripts/ is no package); the tests load it the same way."""
    spec = importlib.util.spec_from_file_location("train_cast_ranker", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse_config(text: str, trainer) -> dict:
    """Return a configuration from "lb=10,hidden=16,l2=0.001,iter=300" (missing keys: the script's)."""
    config = {"lb": 0.0, "hidden": trainer.HIDDEN, "l2": trainer.L2, "iter": trainer.ITERATIONS, "bar": 0.0}
    for part in filter(None, text.split(",")):
        key, value = part.split("=")
        if key not in config:
            raise ValueError(f"unknown key {key!r} in {text!r}")
        config[key] = type(config[key])(float(value)) if key != "l2" else float(value)
    return config


def folds(books: list[str], count: int, seed: int) -> list[list[str]]:
    """Deal the books into count folds, each source shuffled by seed and dealt in turn."""
    rng = np.random.default_rng(seed)
    out: list[list[str]] = [[] for _ in range(count)]
    at = 0
    for source in ("pdnc/", "litbank/"):
        mine = [b for b in books if b.startswith(source)]
        for k in rng.permutation(len(mine)):
            out[at % count].append(mine[k])
            at += 1
    return out


def right(ranker: Ranker, groups, answers, bar: float = 0.0) -> int:
    """Return the turns whose gold candidate is chosen. bar: where the rules chose the narrator or a part (a
    person with no name) and the model another, the rules' choice stays unless the model's probability
    reaches bar (0: the model always decides, as the app does today)."""
    rule, narrator, role = (FEATURES.index(k) for k in ("rule", "narrator", "role"))
    got = 0
    for g, a in zip(groups, answers):
        best, probability = ranker.choose(g)
        if bar > 0 and g[:, rule].any():
            mine = int(np.argmax(g[:, rule]))
            if best != mine and probability < bar and (g[mine, narrator] or g[mine, role]):
                best = mine
        got += int(best == a)
    return got


def run(books: dict, config: dict, fold_count: int, seed: int, trainer) -> dict[str, int]:
    """Return the left-out turns ranked right, by source, over every fold of one seed."""
    got = {"pdnc/": 0, "litbank/": 0}
    for fold in folds(list(books), fold_count, seed):
        groups, answers, weights = [], [], []
        for book, (g, a) in books.items():
            w = config["lb"] if book.startswith("litbank/") else 1.0
            if book in fold or w <= 0:
                continue
            groups += g
            answers += a
            weights += [w] * len(g)
        model = trainer.fit(groups, answers, weights, hidden=config["hidden"], l2=config["l2"],
                            iterations=config["iter"], seed=seed)
        ranker = trainer._ranker(model)
        for book in fold:
            g, a = books[book]
            got["litbank/" if book.startswith("litbank/") else "pdnc/"] += right(ranker, g, a, config["bar"])
    return got


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, required=True, help="the logged turns (train_cast_ranker --cache)")
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--config", action="append", default=[], help="lb=W,hidden=H,l2=X,iter=N (repeatable)")
    args = parser.parse_args(argv)
    trainer = load_trainer()
    books = trainer.examples(args.cache, True)
    total = {s: sum(len(a) for b, (g, a) in books.items() if b.startswith(s)) for s in ("pdnc/", "litbank/")}
    print(f"{len(books)} books; labelled turns: PDNC {total['pdnc/']}, LitBank {total['litbank/']}")
    rule = [0.0] * len(FEATURES)
    rule[FEATURES.index("rule")] = 1.0
    for label, ranker in (("rules' choice", Ranker(rule, 0.0)), ("shipped ranker.json", Ranker.shipped())):
        got = {s: sum(right(ranker, g, a) for b, (g, a) in books.items() if b.startswith(s)) for s in total}
        print(f"| {label} | {100.0 * got['pdnc/'] / total['pdnc/']:.2f} | {got['litbank/']} "
              f"({100.0 * got['litbank/'] / total['litbank/']:.1f} %) |", flush=True)
    print("\n| config | seed | PDNC left out % | LitBank left out (right) |\n|---|---|---|---|")
    for text in args.config or ["lb=0"]:
        config = parse_config(text, trainer)
        pdnc, lit = [], []
        for seed in args.seeds:
            got = run(books, config, args.folds, seed, trainer)
            pdnc.append(100.0 * got["pdnc/"] / total["pdnc/"])
            lit.append(got["litbank/"])
            print(f"| {text} | {seed} | {pdnc[-1]:.2f} | {lit[-1]} |", flush=True)
        print(f"| **{text}** | mean (spread) | **{np.mean(pdnc):.2f}** ({max(pdnc) - min(pdnc):.2f}) | "
              f"**{np.mean(lit):.1f}** ({max(lit) - min(lit)}) |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
