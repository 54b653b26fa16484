"""Train the cast's speaker ranker (app/cast/ranker.py) on PDNC's tuning half and write its model file.

    .venv/bin/python scripts/train_cast_ranker.py            # writes app/cast/data/ranker.json
    .venv/bin/python scripts/train_cast_ranker.py --check    # trains, prints, writes nothing
    .venv/bin/python scripts/train_cast_ranker.py --litbank-weight W   # LitBank's development half too

Each tuning novel (benchmarks/cast_pdnc.py: the first 13 in sorted folder order; the held-out half is
never read here) goes through the app's reader and the cast rules with the ranker off; every turn's
candidates and feature rows are logged (find_cast(log=...)). A turn's label is the gold speaker of its
quotations (PDNC's quotation_info.csv, matched by overlap as the benchmark matches them); a candidate
is that speaker when its names map to the same PDNC character (the benchmark's mapping). The model is a
conditional logit (a softmax over one turn's candidates) whose score is a linear term plus a hidden layer
of HIDDEN tanh units, fitted by full-batch L-BFGS with L2 (numpy; deterministic: a seeded start, a fixed
number of iterations, weights rounded to 5 places), so the same corpus gives the same file.

**LitBank's development half** (`--litbank-weight W`, off by default; round cast29a): the first-person
novels and unnamed speakers PDNC's tuning half lacks. Each dev book (benchmarks/cast_litbank.py's half
rule; the held-out half is never read here) goes through the same logged run; a turn's label is the
LitBank entity most of its quotations' gold says (matched as that benchmark matches them), and a
candidate is that entity when the benchmark's name mapping (`map_character`: proper names and definite
roles of the excerpt) maps it there, or it is the narrator and the entity is the excerpt's "I". Only the
excerpt (the opening) is annotated, so only its turns are labelled. Each LitBank turn weighs W in the
loss against 1 for a PDNC turn (about 400 turns against 17,000).
Round cast29a's out-of-novel check (benchmarks/ranker_cv.py) found no weight that beats PDNC alone by more
than the seed spread, so the shipped file is trained without it.
"""
from __future__ import annotations

import argparse
import json
import sys
import pickle
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.book import load_book  # noqa: E402
from app.cast import find_cast  # noqa: E402
from app.cast.attribution import NARRATOR  # noqa: E402
from app.cast.ranker import FEATURES, Ranker  # noqa: E402
from benchmarks.cast_pdnc import (  # noqa: E402
    CORPUS, _narrator, _predicted_spans, gold_id, map_names, match_gold, read_gold, split,
)

OUT = Path(__file__).resolve().parents[1] / "app" / "cast" / "data" / "ranker.json"
#: Tanh units of the hidden layer (8 and 16 were checked leaving one tuning novel out at a time: 16 best).
HIDDEN = 16
L2 = 1e-3
ITERATIONS = 300
#: The hidden layer's starting weights are drawn from this seed: the same corpus gives the same file.
SEED = 0


def _turn_examples(log: list, quote_gold: dict[int, str], mapping) -> tuple[list[np.ndarray], list[int]]:
    """Return the logged turns whose label is among their candidates, as (feature matrix, gold index).

    A turn's label is the most common gold speaker of its matched quotes; mapping(person) is the gold
    speaker a candidate stands for (None: no one)."""
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
                mapped[id(person)] = mapping(person)
            if mapped[id(person)] == label:
                hits.append(k)
        if hits:
            groups.append(np.array(c.rows, dtype=np.float64))
            answers.append(hits[0])
    return groups, answers


def litbank_examples(key: str) -> tuple[list[np.ndarray], list[int]]:
    """Return one LitBank book's labelled turns (its annotated opening's) as (feature matrix, gold index)."""
    import tempfile

    from benchmarks import cast_litbank as lb

    gold, names, _, narrator = lb.read_gold(key)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{key}.txt"
        path.write_text(lb._git("show", f"HEAD:original/{key}.txt"), encoding="utf-8")
        book = load_book(path)
        log: list = []
        cast = find_cast(book, ranker=None, log=log)
    index = {id(q): i for i, q in enumerate(cast.quotes)}
    quote_gold: dict[int, str] = {}
    for g, q in lb._match(gold, [(lb._letters(q.text), q) for q in cast.quotes]):
        if q is not None:
            quote_gold.setdefault(index[id(q)], g.speaker)
    return _turn_examples(log, quote_gold, lambda person: narrator if person is NARRATOR
                          else lb.map_character(person.names(), names))


def litbank_dev() -> list[str]:
    """The LitBank development half's keys (the benchmark's own rule: never a held-out book)."""
    from benchmarks import cast_litbank as lb

    return lb.half_of(lb.books(10), "dev")


def examples(cache: Path | None, litbank: bool) -> dict[str, tuple[list[np.ndarray], list[int]]]:
    """Return every development book's labelled turns by book ("pdnc/NAME", "litbank/KEY"), in a fixed
    order; cache (a pickle outside the repository) keeps them between runs."""
    out: dict[str, tuple[list[np.ndarray], list[int]]] = {}
    if cache is not None and cache.is_file():
        out = pickle.loads(cache.read_bytes())
    wanted = [f"pdnc/{n}" for n in split("tune")] + ([f"litbank/{k}" for k in litbank_dev()] if litbank else [])
    for book in wanted:
        if book not in out:
            source, name = book.split("/", 1)
            out[book] = novel_examples(name) if source == "pdnc" else litbank_examples(name)
            print(f"{book}: {len(out[book][0])} turns", flush=True)
            if cache is not None:
                cache.write_bytes(pickle.dumps(out))
    return {book: out[book] for book in wanted}


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
    return _turn_examples(log, quote_gold, lambda person: narrator if person is NARRATOR
                          else map_names(person.names(), names))


def _pack(groups: list[np.ndarray], answers: list[int]):
    X = np.concatenate(groups)
    sizes = np.array([len(g) for g in groups])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    owner = np.repeat(np.arange(len(groups)), sizes)
    target = np.zeros(len(X))
    target[starts + np.array(answers)] = 1.0
    return X, starts, owner, target


def _shapes(features: int, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    return [("u", (features,)), ("W", (features, hidden)), ("c", (hidden,)), ("out", (hidden,))]


def _unpack(theta: np.ndarray, features: int, hidden: int) -> dict[str, np.ndarray]:
    parts, at = {}, 0
    for key, shape in _shapes(features, hidden):
        size = int(np.prod(shape))
        parts[key] = theta[at:at + size].reshape(shape)
        at += size
    return parts


def _loss(theta: np.ndarray, X, starts, owner, target, hidden: int = HIDDEN, l2: float = L2,
          weight: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """Return the turns' mean negative log-likelihood (softmax per turn) plus L2, and its gradient.

    weight: each turn's weight (None: all 1, the mean over turns); the loss is then the weighted mean."""
    n = len(starts)
    P = _unpack(theta, X.shape[1], hidden)
    H = np.tanh(X @ P["W"] + P["c"])
    z = X @ P["u"] + H @ P["out"]
    z = z - np.maximum.reduceat(z, starts)[owner]
    e = np.exp(z)
    total = np.add.reduceat(e, starts)
    if weight is None:
        loss = -(z[target == 1].sum() - np.log(total).sum()) / n + 0.5 * l2 * theta @ theta
        g = (e / total[owner] - target) / n
    else:
        mass = weight.sum()
        loss = -(weight @ z[target == 1] - weight @ np.log(total)) / mass + 0.5 * l2 * theta @ theta
        g = weight[owner] * (e / total[owner] - target) / mass
    dH = np.outer(g, P["out"]) * (1 - H * H)
    grad = np.concatenate([X.T @ g, (X.T @ dH).ravel(), dH.sum(0), H.T @ g])
    return float(loss), grad + l2 * theta


def _lbfgs(f, x: np.ndarray, iterations: int, memory: int = 10) -> np.ndarray:
    """Minimise f (value, gradient) from x: limited-memory BFGS with a backtracking line search."""
    value, grad = f(x)
    pairs: list[tuple[np.ndarray, np.ndarray, float]] = []
    for _ in range(iterations):
        q = grad.copy()
        alphas = []
        for s, y, rho in reversed(pairs):
            alpha = rho * (s @ q)
            alphas.append(alpha)
            q -= alpha * y
        if pairs:
            s, y, _ = pairs[-1]
            q *= (s @ y) / (y @ y)
        for (s, y, rho), alpha in zip(pairs, reversed(alphas)):
            q += s * (alpha - rho * (y @ q))
        direction = -q
        if direction @ grad >= 0:
            direction, pairs = -grad, []
        step = 1.0
        while True:
            new_x = x + step * direction
            new_value, new_grad = f(new_x)
            if new_value <= value + 1e-4 * step * (direction @ grad) or step < 1e-10:
                break
            step *= 0.5
        s, y = new_x - x, new_grad - grad
        if s @ y > 1e-12:
            pairs = (pairs + [(s, y, 1.0 / (s @ y))])[-memory:]
        x, value, grad = new_x, new_value, new_grad
        if np.abs(grad).max() < 1e-6:
            break
    return x


def fit(groups: list[np.ndarray], answers: list[int], weights: list[float] | None = None, *, hidden: int = HIDDEN,
        l2: float = L2, iterations: int = ITERATIONS, seed: int = SEED) -> dict[str, np.ndarray]:
    """Return the model (linear weights u, hidden layer W and c, its output weights out) fitted to the turns.

    weights: each turn's weight in the loss (None: all equal, as the shipped file is trained)."""
    X, starts, owner, target = _pack(groups, answers)
    features = X.shape[1]
    rng = np.random.default_rng(seed)
    theta = np.concatenate([np.zeros(features), rng.normal(0.0, 0.1, features * hidden), np.zeros(hidden),
                            rng.normal(0.0, 0.1, hidden)])
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    theta = _lbfgs(lambda t: _loss(t, X, starts, owner, target, hidden, l2, w), theta, iterations)
    return {k: np.round(v, 5) for k, v in _unpack(theta, features, hidden).items()}


def _ranker(model: dict[str, np.ndarray]) -> Ranker:
    return Ranker(list(model["u"]), 0.0, {"weights": model["W"].tolist(), "bias": list(model["c"]),
                                          "out": list(model["out"])})


def accuracy(groups, answers, ranker) -> float:
    right = sum(int(ranker.choose(g)[0] == a) for g, a in zip(groups, answers))
    return 100.0 * right / max(1, len(groups))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="train and print, write nothing")
    parser.add_argument("--litbank-weight", type=float, default=0.0,
                        help="also train on LitBank's development half, each turn weighing this much (0: off)")
    parser.add_argument("--cache", type=Path, help="a pickle (outside the repository) keeping the logged turns")
    args = parser.parse_args()
    books = examples(args.cache, args.litbank_weight > 0)
    groups, answers, weights = [], [], []
    for book, (g, a) in books.items():
        groups += g
        answers += a
        weights += [args.litbank_weight if book.startswith("litbank/") else 1.0] * len(g)
    model = fit(groups, answers, weights if args.litbank_weight > 0 else None)
    rule = [0.0] * len(FEATURES)
    rule[FEATURES.index("rule")] = 1.0
    print(f"{len(groups)} turns with the gold speaker among the candidates; training accuracy "
          f"{accuracy(groups, answers, _ranker(model)):.1f}% (the rules' choice: "
          f"{accuracy(groups, answers, Ranker(rule, 0.0)):.1f}%)")
    for name, weight in sorted(zip(FEATURES, model["u"]), key=lambda kv: -abs(kv[1])):
        print(f"  {name:16s} {weight:+.3f}")
    if not args.check:
        OUT.write_text(json.dumps({
            "about": "Speaker ranker of app/cast/ranker.py: softmax over a turn's candidates; trained by "
                     "scripts/train_cast_ranker.py on PDNC's tuning half (the first 13 novels in sorted order)"
                     + (f" and LitBank's development half (each turn weighing {args.litbank_weight:g}; "
                        "benchmarks/cast_litbank.py's half rule)." if args.litbank_weight > 0 else "."),
            "features": list(FEATURES), "weights": [float(x) for x in model["u"]], "bias": 0.0,
            "hidden": {"weights": [[float(x) for x in row] for row in model["W"]],
                       "bias": [float(x) for x in model["c"]], "out": [float(x) for x in model["out"]]},
            "turns": len(groups)}, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
