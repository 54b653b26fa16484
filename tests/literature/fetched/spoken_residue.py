"""Count and show what the Speaker leaves of the spoken-text classes score.py counts (a benchmark, not a test).

    PYTHONPATH=. .venv/bin/python tests/literature/fetched/spoken_residue.py dev [--examples N] [--edition html]

The same classes as score.py's spoken columns (digits, "&c.", degree/prime signs, bracketed note marks,
Roman numerals in a chapter's first paragraph), plus "[Illustration" and a "Footnotes" paragraph read alone,
over every paragraph of every chapter as `load_book` gives it, each hit shown with the words around it, so
the commonest residue can be named as a class (a digit after "No.", an ordinal "2d", a page number ...).
"""
from __future__ import annotations

import collections
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.literature.fetched.cache import books, materialize  # noqa: E402
from tests.literature.fetched.score import _HEADING_ROMAN, _SPOKEN_BAD  # noqa: E402

_EXTRA = {
    "illustration": re.compile(r"\[\s*illustration", re.I),
    "footnotes alone": re.compile(r"^\s*(?:foot-?notes|notes)[.:]?\s*$", re.I),
}


def main(argv: list[str]) -> None:
    from app.book import load_book
    from app.book.spoken import Speaker
    split = argv[0] if argv and argv[0] in ("dev", "dev2", "dev3", "held") else "dev"
    if "--manifest" in argv:  # another list in the manifest's form (dev4.tsv, dev5h.tsv): every row of it
        from tests.literature.fetched import cache
        cache.MANIFEST, split = Path(argv[argv.index("--manifest") + 1]), None
    examples = int(argv[argv.index("--examples") + 1]) if "--examples" in argv else 3
    only = argv[argv.index("--edition") + 1] if "--edition" in argv else None
    speaker = Speaker("en")
    totals: dict[tuple[str, str], int] = collections.Counter()
    shown: dict[str, list[str]] = collections.defaultdict(list)
    started = time.monotonic()
    for b in books(split):
        materialize(b)
        for edition, path in b.files.items():
            if only and edition != only:
                continue
            try:
                loaded = load_book(path)
            except Exception as exc:  # noqa: BLE001 - a crash is a finding
                print(f"{b.key} {edition}: {type(exc).__name__}: {exc}"[:200])
                continue
            per_book = collections.Counter()
            for c in loaded.chapters:
                for n, p in enumerate(c.paragraphs):
                    said = speaker(p)
                    hits = [(k, m) for k, rx in {**_SPOKEN_BAD, **_EXTRA}.items() for m in rx.finditer(said)]
                    if n == 0 and (m := _HEADING_ROMAN.search(said)):
                        hits.append(("roman heading", m))
                    for k, m in hits:
                        per_book[k] += 1
                        totals[(edition, k)] += 1
                        if len(shown[k]) < examples * 40 and per_book[k] <= examples:
                            a, z = max(0, m.start() - 50), m.end() + 30
                            shown[k].append(f"{b.key}/{edition}: …{said[a:z]}…".replace("\n", " "))
            if per_book:
                print(f"{b.key:>30} {edition:>4} " + " ".join(f"{k}={v}" for k, v in sorted(per_book.items())),
                      flush=True)
    print(f"\nsplit {split}; {time.monotonic() - started:.0f} s")
    kinds = sorted({k for _, k in totals})
    for edition in ("txt", "html", "epub"):
        print(f"{edition:>5}: " + ", ".join(f"{k} {totals[(edition, k)]}" for k in kinds))
    for k in kinds:
        print(f"\n== {k}")
        for line in shown[k]:
            print("  ", line)


if __name__ == "__main__":
    main(sys.argv[1:])
