"""Train the plain-text heading classifier (app/book/structure/heading_model.json) on the DEVELOPMENT half.

    .venv/bin/python -m pip install scikit-learn     # training only: the app evaluates the trees itself
    PYTHONPATH=. .venv/bin/python benchmarks/heading_model.py [--splits dev,dev2,dev3,dev4,dev5,dev5h] [--folds 3]
        [--score 3 CONFIG...] [--fresh tests/literature/fetched/dev6.tsv CONFIG...] [--write]

For each development Gutenberg book of the fetched corpus (tests/literature/fetched: the manifest's splits
dev, dev2, dev3 and the draws dev4.tsv, dev5.tsv, dev5h.tsv; the held-out half and the unseen samples are
never opened here), the .txt edition's short paragraphs are labelled by its
HTML twin: truth.py gives the twin's chapter headings, and each is aligned, last to first, with the
latest short paragraph before the one aligned after it whose words name it (alone or with the title
line under it). A book whose truth aligns for fewer than 80% of its headings is left out (the twin and
the text disagree, or the truth is a guess). Features are learned.py's, the rules' verdicts among them.

`--score K CONFIG...` scores every development book end to end with score.py's own score(), out of fold
(book-grouped K-fold: each book read by the model not trained on it): the rules alone, each review setting
(CONFIG, JSON merged into the model), and "chosen in folds" (for each fold the setting that did best on the
other folds' books, so no book chooses its own setting). `--fresh FILE CONFIG...` fits on every development
book and scores a draw no one tuned on (dev6.tsv) with the rules and each setting.
`--folds K` reports, book-grouped K-fold, how the held-back books' lines are classified (the
model's and the rules' precision and recall on heading lines); `--write` then fits on every usable
development book and writes the trees as JSON.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.book.formats.txt import _MIN_MARKUP_HEADINGS, _header_metadata, _markup_headings, decode_text  # noqa: E402
from app.book.narration.gutenberg import split_text  # noqa: E402
from app.book.structure.headings import rule_headings  # noqa: E402
from app.book.structure.learned import FEATURES, MODEL_PATH, features  # noqa: E402
from app.book.structure.lines import clean_line, paragraphs  # noqa: E402
from tests.literature.fetched.cache import MIRRORS, Book, books, materialize  # noqa: E402
from tests.literature.fetched.score import norm_words, title_agrees  # noqa: E402
from tests.literature.fetched.truth import gutenberg_truth  # noqa: E402

#: The development splits read (never "held"); `--splits` chooses among them. The manifest's own splits,
#: then the later draws kept in files of their own (DRAWS).
SPLITS = ["dev", "dev2", "dev3", "dev4", "dev5", "dev5h", "dev6", "dev6h", "dev7", "dev7h", "dev8", "dev8h",
          "dev9", "dev9h", "dev10", "dev10h"]
FETCHED = Path(__file__).resolve().parents[1] / "tests" / "literature" / "fetched"
DRAWS = {name: FETCHED / f"{name}.tsv" for name in SPLITS if name not in ("dev", "dev2", "dev3")}

#: A book is used when this share of its truth headings aligns with its text.
MIN_ALIGNED = 0.8


def _names(text: str, want: str) -> bool:
    """Whether a paragraph's words name a truth heading, and are not a sentence that happens to hold them."""
    return title_agrees(text, want) and len(norm_words(text)) <= 2 * len(norm_words(want)) + 3


def book_rows(txt: Path, html: Path):
    """Return (rows, labels, rule verdicts, aligned share) for one book, or None when the app reads its markup."""
    text = decode_text(txt.read_bytes(), txt.name)
    wrapped = split_text(text)
    if wrapped:
        text = wrapped.body
    _, _, text = _header_metadata(text)
    if _markup_headings(text) >= _MIN_MARKUP_HEADINGS:
        return None  # the app reads its own markup (txt._marked)
    paras = paragraphs(text.split("\n"))
    rules = rule_headings(paras)
    index, rows = features(paras, rules)
    truth = gutenberg_truth(html).chapters
    texts = {j: clean_line(paras[j].text) for j in index}
    short = set(index)
    subs = {c.sub_para: c.para for c in rules.cands if c.sub_para is not None}
    label = set()
    limit = len(paras)
    for want in reversed(truth):
        for pos in range(len(index) - 1, -1, -1):
            j = index[pos]
            if j >= limit:
                continue
            pair = f"{texts[j]} {texts[j + 1]}" if j + 1 in short else ""
            if _names(texts[j], want) or pair and _names(pair, want):
                j = subs.get(j, j)  # the title line under its label: the label is the heading
                label.add(j)
                limit = j
                break
    chosen = {c.para for c in rules.chosen}
    y = [int(j in label) for j in index]
    r = [int(j in chosen) for j in index]
    return rows, y, r, len(label) / max(len(truth), 1)


def manifest_books(path: Path) -> list[Book]:
    """Every Gutenberg row of a draw file in the manifest's form (dev4.tsv ...; never an unseen sample)."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    return [Book(*r) for r in rows if r[1] == "gutenberg"]


def at_hand(b: Book) -> bool:
    """Whether a book can be read here: cached already, or its repository mirrored (a fresh machine has
    only the mirrors fetched this session; the others are passed over, never cloned)."""
    owner, name = b.repo.split("/")
    return all(p.is_file() for p in b.files.values()) or (MIRRORS / f"{owner}+{name}" / "repo").is_dir()


def dev_books() -> list[Book]:
    """The development Gutenberg books of every split asked for that are at hand, each once."""
    out, seen = [], set()
    for split in SPLITS:
        if split == "held" or split.startswith("unseen"):
            continue
        got = manifest_books(DRAWS[split]) if split in DRAWS else [b for b in books(split) if b.source == "gutenberg"]
        for b in got:
            if b.key not in seen and at_hand(b):
                seen.add(b.key)
                out.append(b)
    return out


#: The seed that deals the books into folds (`--seed`): several seeds tell a setting's gain from the deal's luck.
SEED = [17]


def fold_of(keys: list[str], k: int) -> dict[str, int]:
    """Book-grouped folds: the books shuffled by a fixed seed, then dealt out in turn."""
    order = sorted(keys)
    random.Random(SEED[0]).shuffle(order)
    return {key: n % k for n, key in enumerate(order)}


def collect():
    data = []
    for b in dev_books():
        materialize(b)
        got = book_rows(b.files["txt"], b.files["html"])
        if got is None:
            print(f"{b.key:>8}: marks its headings itself, left out")
            continue
        rows, y, r, share = got
        used = share >= MIN_ALIGNED and sum(y) >= 2
        print(f"{b.key:>8}: {len(rows):5} short paragraphs, {sum(y):4} headings aligned ({share:.0%})"
              f"{'' if used else ', left out'}")
        if used:
            data.append((b.key, rows, y, r))
    return data


def _bins(x, most: int = 32):
    """Each feature's candidate thresholds (midpoints between quantiles of its values) and the rows binned by
    them: a row's value is <= threshold[k] exactly when its bin is <= k, so a split is a cut between bins."""
    import numpy as np
    thresholds, binned = [], np.zeros(x.shape, dtype=np.int16)
    for f in range(x.shape[1]):
        values = np.unique(x[:, f])
        if len(values) > most:
            values = np.unique(np.quantile(x[:, f], np.linspace(0, 1, most + 1)))
        cut = (values[:-1] + values[1:]) / 2
        thresholds.append(cut)
        binned[:, f] = np.searchsorted(cut, x[:, f], side="left")
    return thresholds, binned


def _tree(binned, thresholds, grad, hess, rows, depth: int, min_leaf: int = 20) -> dict:
    """One regression tree on the gradients (squared error, as scikit-learn's gradient boosting fits them),
    its leaves set by a Newton step; in learned.py's form (feature, threshold, left, right, value)."""
    import numpy as np
    tree = {"feature": [], "threshold": [], "left": [], "right": [], "value": []}

    def node(at, level: int) -> int:
        me = len(tree["feature"])
        for key in tree:
            tree[key].append(-1 if key in ("feature", "left", "right") else 0.0)
        g = grad[at]
        best = None
        if level < depth and len(at) >= 2 * min_leaf:
            total, n = g.sum(), len(at)
            for f, cut in enumerate(thresholds):
                if not len(cut):
                    continue
                b = binned[at, f]
                sums = np.cumsum(np.bincount(b, weights=g, minlength=len(cut) + 1))[:-1]
                counts = np.cumsum(np.bincount(b, minlength=len(cut) + 1))[:-1]
                ok = (counts >= min_leaf) & (n - counts >= min_leaf)
                if not ok.any():
                    continue
                gain = np.where(ok, sums ** 2 / np.maximum(counts, 1)
                                + (total - sums) ** 2 / np.maximum(n - counts, 1) - total ** 2 / n, -1.0)
                k = int(gain.argmax())
                if gain[k] > 1e-12 and (best is None or gain[k] > best[0]):
                    best = (gain[k], f, k)
        if best is None:
            tree["value"][me] = round(float(g.sum() / max(hess[at].sum(), 1e-9)), 6)
            return me
        _, f, k = best
        left = binned[at, f] <= k
        tree["feature"][me], tree["threshold"][me] = f, round(float(thresholds[f][k]), 6)
        tree["left"][me] = node(at[left], level + 1)
        tree["right"][me] = node(at[~left], level + 1)
        return me

    node(rows, 0)
    return tree


def _predict_tree(tree: dict, x):
    import numpy as np
    node = np.zeros(len(x), dtype=int)
    feature, threshold = np.array(tree["feature"]), np.array(tree["threshold"])
    left, right, value = np.array(tree["left"]), np.array(tree["right"]), np.array(tree["value"])
    while True:
        inner = np.flatnonzero(feature[node] >= 0)
        if not len(inner):
            return value[node]
        at = node[inner]
        go_left = x[inner, feature[at]] <= threshold[at]
        node[inner] = np.where(go_left, left[at], right[at])


def fit(data, trees: int = 60, depth: int = 3, rate: float = 0.2, subsample: float = 0.8, seed: int = 32) -> dict:
    """Gradient-boosted trees on the log-loss, in numpy (no scikit-learn needed): the rounds before's settings
    (60 trees of depth 3, rate 0.2, four rows in five per tree), returned in learned.py's JSON form."""
    import numpy as np
    x = np.array([row for _, rows, _, _ in data for row in rows], dtype=float)
    y = np.array([v for _, _, ys, _ in data for v in ys], dtype=float)
    thresholds, binned = _bins(x)
    prior = min(max(float(y.mean()), 1e-6), 1 - 1e-6)
    bias = float(np.log(prior / (1 - prior)))
    raw = np.full(len(y), bias)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(trees):
        p = 1 / (1 + np.exp(-raw))
        rows = np.flatnonzero(rng.random(len(y)) < subsample)
        tree = _tree(binned, thresholds, y - p, p * (1 - p), rows, depth)
        out.append(tree)
        raw += rate * _predict_tree(tree, x)
    return {"features": list(FEATURES), "bias": round(bias, 6), "rate": rate, "add": 0.97, "drop": 0.03,
            "rules_stand": True, "trees": out,
            "trained_on": f"tests/literature/fetched development splits {', '.join(SPLITS)}, Gutenberg .txt editions"}


def predict(model: dict, rows) -> list[int]:
    import numpy as np
    x = np.array(rows, dtype=float)
    raw = model["bias"] + sum(model["rate"] * _predict_tree(t, x) for t in model["trees"])
    return [int(v > 0) for v in raw]


def export(model: dict) -> dict:
    return model


def folds(data, k: int) -> None:
    tp = fp = fn = rtp = rfp = rfn = 0
    fold = fold_of([key for key, *_ in data], k)
    for f in range(k):
        model = fit([d for d in data if fold[d[0]] != f])
        for _, rows, y, r in (d for d in data if fold[d[0]] == f):
            p = predict(model, rows)
            for got, want, rule in zip(p, y, r):
                tp += got and want
                fp += got and not want
                fn += want and not got
                rtp += rule and want
                rfp += rule and not want
                rfn += want and not rule
    print(f"\n{k}-fold by book, heading lines: model precision {tp / max(tp + fp, 1):.3f} recall {tp / max(tp + fn, 1):.3f}"
          f"; rules precision {rtp / max(rtp + rfp, 1):.3f} recall {rtp / max(rtp + rfn, 1):.3f}")


class _Reviewer:
    """Score one book with the rules and with each review setting, running the reader again only where a
    setting changes the headings the rules chose (most books: none does, and the rules' row stands)."""

    def __init__(self):
        import app.book.formats.txt as txt_reader
        import app.book.structure.headings as headings
        self.txt_reader, self.headings = txt_reader, headings
        self.seen: list[str] = []
        self.read: dict[str, tuple] = {}

    def _rules(self, text: str) -> str:
        self.seen.append(text)
        return self.headings.mark_headings(text)

    def _changes(self, model: dict) -> bool:
        from app.book.structure.learned import review
        for text in self.seen:
            if text not in self.read:
                paras = paragraphs(text.split("\n"))
                self.read[text] = (paras, rule_headings(paras))
            paras, rules = self.read[text]
            if [c.para for c in review(paras, rules, model)] != [c.para for c in rules.chosen]:
                return True
        return False

    def book(self, b, truth, models: list[dict]) -> list[dict]:
        from tests.literature.fetched.score import score
        self.seen, self.read = [], {}
        self.txt_reader.mark_headings = self._rules
        base = score(b, "txt", b.files["txt"], truth, spoken=False)
        out = [base]
        for model in models:
            if not self._changes(model):
                out.append(base)
                continue
            self.txt_reader.mark_headings = (
                lambda text, model=model: self.headings.mark_headings(text, learned=True, model=model))
            out.append(score(b, "txt", b.files["txt"], truth, spoken=False))
        self.txt_reader.mark_headings = self.headings.mark_headings
        return out


def _table(names: list[str], results: dict[str, list[dict]], keys: list[str]) -> None:
    for n, name in enumerate(names):
        rows = [results[key][n] for key in keys]
        print(f"{name}: exactly right {sum(r['exact'] for r in rows)}/{len(rows)}, "
              f"within one chapter {sum(r['within1'] for r in rows)}/{len(rows)}")


def score_dev(data, k: int, configs: list[dict]) -> None:
    """Score the development .txt editions as score.py does, with the rules alone and with each review
    setting, each book by the fold model that was not trained on it (book-grouped K-fold), so the figure is
    not the model's memory of its own training books; then "chosen in folds": each fold's books read with the
    setting that did best (exactly right, then within one) on the other folds' books."""
    every = [b for b in dev_books()]
    fold = fold_of([b.key for b in every], k)
    models = [export(fit([d for d in data if fold[d[0]] != f])) for f in range(k)]
    names = ["rules"] + [json.dumps(c) for c in configs]
    results: dict[str, list[dict]] = {}
    reviewer = _Reviewer()
    for b in every:
        materialize(b)
        truth = gutenberg_truth(b.files["html"])
        if not truth.known:
            continue  # its HTML sets no heading: score.py leaves it out too
        got = reviewer.book(b, truth, [{**models[fold[b.key]], **c} for c in configs])
        results[b.key] = got
        print(f"{b.key:>8} fold {fold[b.key]} truth {len(truth.chapters):>3}  "
              + "  ".join(f"{r.get('chapters', 0):>3} {'exact' if r['exact'] else '     '}" for r in got), flush=True)
    keys = list(results)
    _table(names, results, keys)
    exact = within = 0
    for f in range(k):
        others = [key for key in keys if fold[key] != f]
        best = max(range(len(names)), key=lambda n: (sum(results[key][n]["exact"] for key in others),
                                                       sum(results[key][n]["within1"] for key in others), -n))
        mine = [results[key][best] for key in keys if fold[key] == f]
        exact += sum(r["exact"] for r in mine)
        within += sum(r["within1"] for r in mine)
        print(f"fold {f}: chosen on the other folds: {names[best]}")
    print(f"chosen in folds: exactly right {exact}/{len(keys)}, within one chapter {within}/{len(keys)}")
    for n, name in enumerate(names[1:], 1):
        moved = [(key, results[key][0]["exact"], results[key][n]["exact"]) for key in keys
                 if results[key][0]["exact"] != results[key][n]["exact"]]
        print(f"{name}: right->wrong {[key for key, a, _ in moved if a]}, wrong->right {[key for key, a, _ in moved if not a]}")
    return results


def score_fresh(data, path: Path, configs: list[dict]) -> None:
    """Fit on every development book and score a draw no one tuned on: the rules, then each setting."""
    model = export(fit(data))
    names = ["rules"] + [json.dumps(c) for c in configs]
    results: dict[str, list[dict]] = {}
    reviewer = _Reviewer()
    for b in manifest_books(path):
        materialize(b)
        truth = gutenberg_truth(b.files["html"])
        if not truth.known:
            continue
        results[b.key] = got = reviewer.book(b, truth, [{**model, **c} for c in configs])
        print(f"{b.key:>8} truth {len(truth.chapters):>3}  "
              + "  ".join(f"{r.get('chapters', 0):>3} {'exact' if r['exact'] else '     '}" for r in got), flush=True)
    _table(names, results, list(results))


def _configs(argv: list[str], flag: str) -> list[dict]:
    at = argv.index(flag) + 2
    out = []
    while at < len(argv) and argv[at].startswith("{"):
        out.append(json.loads(argv[at]))
        at += 1
    return out or [{}]


def main(argv: list[str]) -> None:
    if "--seed" in argv:
        SEED[0] = int(argv[argv.index("--seed") + 1])
    if "--splits" in argv:
        SPLITS[:] = [s for s in argv[argv.index("--splits") + 1].split(",") if s != "held"]
    data = collect()
    print(f"\n{len(data)} development books used")
    if "--score" in argv:
        score_dev(data, int(argv[argv.index("--score") + 1]), _configs(argv, "--score"))
    if "--fresh" in argv:
        score_fresh(data, Path(argv[argv.index("--fresh") + 1]), _configs(argv, "--fresh"))
    if "--folds" in argv:
        folds(data, int(argv[argv.index("--folds") + 1]))
    if "--write" in argv:
        model = export(fit(data))
        MODEL_PATH.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_PATH} ({MODEL_PATH.stat().st_size} bytes, {len(model['trees'])} trees)")


if __name__ == "__main__":
    main(sys.argv[1:])
