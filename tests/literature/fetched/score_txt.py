"""Score only the Gutenberg plain-text editions of one half, and keep each book's row for comparing runs.

    PYTHONPATH=. .venv/bin/python tests/literature/fetched/score_txt.py dev [--out rows.json] [--titles]
    PYTHONPATH=. .venv/bin/python tests/literature/fetched/score_txt.py --manifest FILE [--out rows.json]
    PYTHONPATH=. .venv/bin/python tests/literature/fetched/score_txt.py --diff before.json after.json

The same `score()` as score.py (chapter columns only) against the same truth (the HTML edition's headings),
without the HTML editions, so a .txt rule can be measured in half the time; `--diff` is score_html.py's.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.literature.fetched.cache import books, materialize  # noqa: E402
from tests.literature.fetched.score import score  # noqa: E402
from tests.literature.fetched.score_html import diff, summary  # noqa: E402
from tests.literature.fetched.truth import gutenberg_truth  # noqa: E402


def run(split: str | None, show_titles: bool) -> list[dict]:
    rows = []
    for b in books(split):
        if b.source != "gutenberg":
            continue
        materialize(b)
        truth = gutenberg_truth(b.files["html"])
        if not truth.known:  # score.py leaves these out of its figures too
            continue
        r = score(b, "txt", b.files["txt"], truth, spoken=False)
        r["truth_titles"] = truth.chapters
        r["truth_words"] = truth.words
        rows.append(r)
        if show_titles and not r["exact"]:
            print(f"{b.key:>8} truth={r['truth']:>3} got={r.get('chapters'):>3} {r.get('error', '')}\n"
                  f"{'':>8} got:   {r.get('titles', [])[:10]}\n{'':>8} truth: {truth.chapters[:10]}",
                  flush=True)
    return rows


def main(argv: list[str]) -> None:
    if argv and argv[0] == "--diff":
        before, after = (json.loads(Path(p).read_text()) for p in argv[1:3])
        diff(before, after)
        print(summary(before), "->", summary(after), sep="\n")
        return
    split = argv[0] if argv and not argv[0].startswith("--") else "dev"
    if "--manifest" in argv:  # another list in the manifest's form (dev4.tsv, dev5h.tsv): every row of it
        from tests.literature.fetched import cache
        cache.MANIFEST, split = Path(argv[argv.index("--manifest") + 1]), None
    rows = run(split, "--titles" in argv)
    if "--out" in argv:
        Path(argv[argv.index("--out") + 1]).write_text(json.dumps(rows, ensure_ascii=False))
    print(summary(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
