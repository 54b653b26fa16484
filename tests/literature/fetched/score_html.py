"""Score only the Gutenberg HTML editions of one half, and keep each book's row for comparing runs.

    PYTHONPATH=. .venv/bin/python tests/literature/fetched/score_html.py dev [--out rows.json] [--titles] [--epub]
    PYTHONPATH=. .venv/bin/python tests/literature/fetched/score_html.py --manifest FILE [--out rows.json] [--epub]
    PYTHONPATH=. .venv/bin/python tests/literature/fetched/score_html.py --diff before.json after.json

The same `score()` as score.py (chapter columns only), without the plain-text editions, so an HTML rule
can be measured in a third of the time; `--diff` lists the books that went right -> wrong or back.
`--epub` scores the half's Standard Ebooks books instead (their truth the entries of `toc.xhtml`, as score.py).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.literature.fetched.cache import books, materialize  # noqa: E402
from tests.literature.fetched.score import score  # noqa: E402
from tests.literature.fetched.truth import Truth, gutenberg_truth  # noqa: E402


def run(split: str | None, show_titles: bool, edition: str = "html") -> list[dict]:
    """Score one edition ("html", "txt" or "epub") of the split's books; a Gutenberg book's truth is its HTML's."""
    from tests.literature.corpus import epub_contents
    rows = []
    for b in books(split):
        if (b.source == "gutenberg") == (edition == "epub"):
            continue
        materialize(b)
        if edition == "epub":
            truth = Truth(epub_contents(b.files["epub"]))
        else:
            truth = gutenberg_truth(b.files["html"])
            if edition == "txt" and not truth.known:  # score.py leaves these out of its .txt figures too
                continue
        r = score(b, edition, b.files[edition], truth, spoken=False)
        r["truth_titles"] = truth.chapters
        r["truth_words"] = truth.words
        rows.append(r)
        if show_titles and not r["exact"]:
            print(f"{b.key:>8} truth={r['truth']:>3} got={r.get('chapters'):>3} {r.get('error', '')}\n"
                  f"{'':>8} got:   {r.get('titles', [])[:10]}\n{'':>8} truth: {truth.chapters[:10]}",
                  flush=True)
    return rows


def summary(rows: list[dict]) -> str:
    n = len(rows)
    exact = sum(1 for r in rows if r["exact"])
    within = sum(1 for r in rows if r["within1"])
    swallow = sum(1 for r in rows if r.get("ok") and not r.get("swallows"))
    edition = rows[0]["edition"].upper() if rows else "HTML"
    return f"{edition} {n} books: exactly right {exact}, within one {within}, no chapter > 3x median {swallow}"


def diff(before: list[dict], after: list[dict]) -> None:
    old = {r["key"]: r for r in before}
    for r in after:
        o = old.get(r["key"])
        if o and o["exact"] != r["exact"]:
            print(f"{r['key']:>8} {'wrong -> RIGHT' if r['exact'] else 'RIGHT -> wrong'} "
                  f"({o['chapters']} -> {r['chapters']} of {r['truth']})")
        elif o and o["chapters"] != r["chapters"]:
            print(f"{r['key']:>8} still {'right' if r['exact'] else 'wrong'}: "
                  f"{o['chapters']} -> {r['chapters']} of {r['truth']}")


def main(argv: list[str], edition: str = "html") -> None:
    if argv and argv[0] == "--diff":
        before, after = (json.loads(Path(p).read_text()) for p in argv[1:3])
        diff(before, after)
        print(summary(before), "->", summary(after), sep="\n")
        return
    split = argv[0] if argv and not argv[0].startswith("--") else "dev"
    if "--manifest" in argv:  # another list in the manifest's form (dev4.tsv, dev5h.tsv): every row of it
        from tests.literature.fetched import cache
        cache.MANIFEST, split = Path(argv[argv.index("--manifest") + 1]), None
    rows = run(split, "--titles" in argv, "epub" if "--epub" in argv else edition)
    if "--out" in argv:
        Path(argv[argv.index("--out") + 1]).write_text(json.dumps(rows, ensure_ascii=False))
    print(summary(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
