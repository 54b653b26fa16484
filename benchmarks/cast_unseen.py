"""The character list --cast auto finds in books nobody here tuned on, for a reader to judge by eye.

    .venv/bin/python -m benchmarks.cast_unseen BOOK.epub [BOOK ...] [--top 25]

Prints, per book, the time of the cast pass, the share of quotations attributed, and the characters
with the most lines (lines, gender, main name, aliases). There is no gold here: the list is read for
junk (a place, a fragment), merges (two people in one) and splits (one person twice). The books used
(Standard Ebooks sources packed as EPUB, cached outside the repository) are named in benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from app.book import load_book
from app.cast import find_cast


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("books", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    for path in args.books:
        book = load_book(path)
        t0 = time.process_time()
        cast = find_cast(book)
        cpu = time.process_time() - t0
        said = sum(1 for q in cast.quotes if q.speaker or q.by_narrator)
        narrator = sum(1 for q in cast.quotes if q.by_narrator)
        print(f"\n{path.name}: {len(cast.quotes)} quotations, {100.0 * said / max(1, len(cast.quotes)):.1f}% "
              f"attributed ({narrator} to the first-person narrator), {len(cast.characters)} characters, "
              f"cast pass {cpu:.2f} s CPU")
        for c in cast.characters[:args.top]:
            aliases = ", ".join(c.aliases[:5])
            print(f"  {c.lines:5d} {c.gender or '?'} {c.name}" + (f"  ({aliases})" if aliases else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
