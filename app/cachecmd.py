"""`audiobook.py cache` (size per book) and `audiobook.py cache prune` (free what no book needs)."""
from __future__ import annotations

import sys

from app.pipeline import cacheinfo

USAGE = "usage: audiobook.py cache [prune]"


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB"


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE + "\n  cache        show the cache's size per book\n"
                      "  cache prune  remove leftovers of killed runs, books whose file is gone, "
                      "and chunks no book needs")
        return 0
    if argv == ["prune"]:
        done = cacheinfo.prune()
        print(f"Removed {done.leftovers} leftover file(s), {done.books} book folder(s) whose book is gone "
              f"and {done.chunks} chunk(s) no book needs: {_mb(done.freed)} freed.")
        if done.kept_reason:
            print(f"Kept unlisted chunks: {done.kept_reason}.")
        return 0
    if argv:
        print(USAGE, file=sys.stderr)
        return 2
    report = cacheinfo.usage()
    if not report.books and not report.orphan_chunks and not report.leftover_files:
        print("The cache is empty.")
        return 0
    for book in sorted(report.books, key=lambda b: -(b.chunk_bytes + b.work_bytes)):
        print(f"{_mb(book.chunk_bytes + book.work_bytes):>12}  {book.title}  "
              f"({book.chunks} chunks, {_mb(book.work_bytes)} encoded)  {book.source}")
    if report.orphan_chunks:
        print(f"{_mb(report.orphan_bytes):>12}  {report.orphan_chunks} chunk(s) no book needs")
    if report.leftover_files:
        print(f"{_mb(report.leftover_bytes):>12}  {report.leftover_files} leftover file(s) of interrupted runs")
    print(f"{_mb(report.total_bytes):>12}  total; 'audiobook.py cache prune' frees "
          f"{_mb(report.orphan_bytes + report.leftover_bytes)}"
          + (" (more once every book has run with this version)" if report.unrecorded else ""))
    return 0
