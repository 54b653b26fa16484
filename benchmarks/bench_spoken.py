"""Time the spoken-forms pass (issue 10): synthetic prose of N hours, and digit-dense text.

    .venv/bin/python -m benchmarks.bench_spoken [--hours 10]

Every run, cached or not, re-plans the book and so writes it out again; this
says what that costs.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from app.book import load_book
from app.book.spoken import Speaker
from benchmarks.synthbook import write_book

DENSE = ("Dr. Smith met Henry VIII on 3/4/2021 at 10:30 a.m. and paid $5.50 (45%) for 5 km, etc. "
         "The ship sailed in 1867 with 120 men toward the harbour where the gulls cried above the grey water.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hours", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        book = load_book(write_book(Path(folder) / "book.txt", args.hours))
    start = time.perf_counter()
    Speaker("en").book(book)
    prose = time.perf_counter() - start
    speaker, copies = Speaker("en"), 1000
    start = time.perf_counter()
    for _ in range(copies):
        speaker(DENSE)
    dense = time.perf_counter() - start
    words = len(DENSE.split()) * copies
    print(f"prose: {args.hours:g} h book, {book.words} words in {prose:.2f} s ({book.words / prose:,.0f} words/s)")
    print(f"dense: {words} words with numbers, dates, money in {dense:.2f} s ({words / dense:,.0f} words/s)")


if __name__ == "__main__":
    main()
