"""Train the plain-text heading classifier (app/book/structure/heading_model.json) on the DEVELOPMENT half.

    .venv/bin/python -m pip install scikit-learn     # training only: the app evaluates the trees itself
    PYTHONPATH=. .venv/bin/python benchmarks/heading_model.py [--splits dev,dev2,dev3] [--folds 2] [--write]

For each development Gutenberg book of the fetched corpus (tests/literature/fetched, manifest split
"dev"; the held-out half is never opened here), the .txt edition's short paragraphs are labelled by its
HTML twin: truth.py gives the twin's chapter headings, and each is aligned, last to first, with the
latest short paragraph before the one aligned after it whose words name it (alone or with the title
line under it). A book whose truth aligns for fewer than 80% of its headings is left out (the twin and
the text disagree, or the truth is a guess). Features are learned.py's, the rules' verdicts among them.

`--folds K` first reports, book-grouped K-fold, how the held-back books' lines are classified (the
model's and the rules' precision and recall on heading lines); `--write` then fits on every usable
development book and writes the trees as JSON.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.book.formats.txt import _has_markup_headings, _header_metadata, decode_text  # noqa: E402
from app.book.narration.gutenberg import split_text  # noqa: E402
from app.book.structure.headings import rule_headings  # noqa: E402
from app.book.structure.learned import FEATURES, MODEL_PATH, features  # noqa: E402
from app.book.structure.lines import clean_line, paragraphs  # noqa: E402
from tests.literature.fetched.cache import books, materialize  # noqa: E402
from tests.literature.fetched.score import norm_words, title_agrees  # noqa: E402
from tests.literature.fetched.truth import gutenberg_truth  # noqa: E402

#: The development splits read (never "held"); `--splits` chooses among them.
SPLITS = ["dev"]

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
    if _has_markup_headings(text):
        return None
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


def collect():
    data = []
    for b in (b for split in SPLITS for b in books(split)):
        if b.source != "gutenberg":
            continue
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


def fit(data):
    from sklearn.ensemble import GradientBoostingClassifier
    x = [row for _, rows, _, _ in data for row in rows]
    y = [v for _, _, ys, _ in data for v in ys]
    clf = GradientBoostingClassifier(n_estimators=60, max_depth=3, learning_rate=0.2, subsample=0.8,
                                     random_state=32)
    clf.fit(x, y)
    return clf


def export(clf) -> dict:
    import numpy as np
    trees = []
    for est in clf.estimators_[:, 0]:
        t = est.tree_
        trees.append({"feature": [int(f) if f >= 0 else -1 for f in t.feature],
                      "threshold": [round(float(v), 6) for v in t.threshold],
                      "left": [int(v) for v in t.children_left], "right": [int(v) for v in t.children_right],
                      "value": [round(float(v[0][0]), 6) for v in t.value]})
    bias = float(clf._raw_predict_init(np.zeros((1, len(FEATURES))))[0][0])
    return {"features": list(FEATURES), "bias": round(bias, 6), "rate": clf.learning_rate, "add": 0.97, "drop": 0.03, "rules_stand": True,
            "trees": trees, "trained_on": f"tests/literature/fetched manifest splits {', '.join(SPLITS)}, Gutenberg .txt editions"}


def folds(data, k: int) -> None:
    tp = fp = fn = rtp = rfp = rfn = 0
    for f in range(k):
        train = [d for n, d in enumerate(data) if n % k != f]
        test = [d for n, d in enumerate(data) if n % k == f]
        clf = fit(train)
        for _, rows, y, r in test:
            p = clf.predict(rows)
            for got, want, rule in zip(p, y, r):
                tp += got and want
                fp += got and not want
                fn += want and not got
                rtp += rule and want
                rfp += rule and not want
                rfn += want and not rule
    print(f"\n{k}-fold by book, heading lines: model precision {tp / max(tp + fp, 1):.3f} recall {tp / max(tp + fn, 1):.3f}"
          f"; rules precision {rtp / max(rtp + rfp, 1):.3f} recall {rtp / max(rtp + rfn, 1):.3f}")


def score_dev(data, k: int, configs: list[dict]) -> None:
    """Score the development .txt editions as score.py does, with the rules alone and with each review
    setting, each book by the fold model that was not trained on it (book-grouped K-fold), so the figure is
    not the model's memory of its own training books."""
    import app.book.formats.txt as txt_reader
    import app.book.structure.headings as headings
    import app.book.structure.learned as learned
    from tests.literature.fetched.score import score
    keys = [key for key, *_ in data]
    models = [export(fit([d for n, d in enumerate(data) if n % k != f])) for f in range(k)]
    fold_of = {key: n % k for n, key in enumerate(keys)}
    names = ["rules"] + [json.dumps(c) for c in configs]
    totals = {name: [0, 0] for name in names}
    count = 0
    for b in (b for split in SPLITS for b in books(split)):
        if b.source != "gutenberg":
            continue
        truth = gutenberg_truth(b.files["html"])
        if not truth.known:
            continue  # its HTML sets no heading: score.py leaves it out too
        line = []
        for name in names:
            model = None if name == "rules" else {**models[fold_of.get(b.key, 0)], **json.loads(name)}
            learned.load_model = (lambda model=model: model)
            # The reader calls mark_headings without the review (it ships off): turn it on for the configs.
            txt_reader.mark_headings = (lambda text, on=model is not None: headings.mark_headings(text, learned=on))
            r = score(b, "txt", b.files["txt"], truth, spoken=False)
            totals[name][0] += r["exact"]
            totals[name][1] += r["within1"]
            line.append(f"{r.get('chapters', 0):>3} {'exact' if r['exact'] else '     '}")
        count += 1
        print(f"{b.key:>8} truth {len(truth.chapters):>3}  " + "  ".join(line), flush=True)
    for name, (exact, within) in totals.items():
        print(f"{name}: exactly right {exact}/{count}, within one chapter {within}/{count}")


def main(argv: list[str]) -> None:
    if "--splits" in argv:
        SPLITS[:] = [s for s in argv[argv.index("--splits") + 1].split(",") if s != "held"]
    data = collect()
    print(f"\n{len(data)} development books used")
    if "--score" in argv:
        configs = [json.loads(c) for c in argv[argv.index("--score") + 2:] if c.startswith("{")]
        score_dev(data, int(argv[argv.index("--score") + 1]), configs or [{}])
    if "--folds" in argv:
        folds(data, int(argv[argv.index("--folds") + 1]))
    if "--write" in argv:
        model = export(fit(data))
        MODEL_PATH.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {MODEL_PATH} ({MODEL_PATH.stat().st_size} bytes, {len(model['trees'])} trees)")


if __name__ == "__main__":
    main(sys.argv[1:])
