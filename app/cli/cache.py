"""`audiobook.py cache` (size per book) and `audiobook.py cache prune` (free what no book needs)."""
from __future__ import annotations

import argparse

from app.pipeline import cacheinfo
from app.core.plural import plural
from app.cli.suggest import SuggestingParser


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB"


def _parser() -> SuggestingParser:
    p = SuggestingParser(
        prog="audiobook.py cache", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Show the chunk cache's size per book, or free what no book needs.\n\n"
                    "A book needs the chunks its latest run planned, so a stopped run resumes and a\n"
                    "re-run with another format synthesizes nothing; chunks of an earlier voice,\n"
                    "speed or chunk size are what prune frees. A finished book needs only its encoded\n"
                    "chapters to be written again: prune --finished frees its chunks too.",
        epilog="examples:\n  audiobook.py cache\n  audiobook.py cache prune\n  audiobook.py cache prune --finished")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    prune = sub.add_parser("prune", help="remove leftovers of killed runs, books whose file is gone, and chunks "
                                         "no book needs")
    prune.add_argument("--finished", action="store_true",
                       help="also remove the chunks of finished books (their encoded chapters stay: the same "
                            "command writes the book again without synthesis; another --loudness or format "
                            "kind synthesizes it again)")
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.command == "prune":
        done = cacheinfo.prune(finished=args.finished)
        needs = "no unfinished book needs" if args.finished else "no book needs"
        print(f"Removed {plural(done.leftovers, 'leftover file')}, "
              f"{plural(done.books, 'book folder')} whose book is gone "
              f"and {plural(done.chunks, 'chunk')} {needs}: {_mb(done.freed)} freed.")
        if done.kept_reason:
            print(f"Kept unlisted chunks: {done.kept_reason}.")
        return 0
    report = cacheinfo.usage()
    if not report.books and not report.orphan_chunks and not report.leftover_files:
        print("The cache is empty.")
        return 0
    for book in sorted(report.books, key=lambda b: -(b.chunk_bytes + b.work_bytes)):
        print(f"{_mb(book.chunk_bytes + book.work_bytes):>12}  {book.title}  "
              f"({plural(book.chunks, 'chunk')}, {_mb(book.work_bytes)} encoded"
              f"{', finished' if book.finished else ''})  {book.source}")
    if report.orphan_chunks:
        print(f"{_mb(report.orphan_bytes):>12}  {plural(report.orphan_chunks, 'chunk')} no book needs")
    if report.leftover_files:
        print(f"{_mb(report.leftover_bytes):>12}  {plural(report.leftover_files, 'leftover file')} "
              f"of interrupted runs")
    print(f"{_mb(report.total_bytes):>12}  total; 'audiobook.py cache prune' frees "
          f"{_mb(report.orphan_bytes + report.leftover_bytes)}"
          + (" (more once every book has run with this version)" if report.unrecorded else ""))
    finished = sum(b.chunk_bytes for b in report.books if b.finished)
    if finished:
        print(f"{_mb(finished):>12}  in chunks of finished books; 'audiobook.py cache prune --finished' "
              f"frees them too (their encoded chapters stay)")
    return 0
