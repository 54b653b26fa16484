"""The command line's face for many books: `audiobook.py a.epub b.txt --output DIR/` or a folder.

It checks the options that only make sense for one book, shows each book's
progress as plain lines tagged with the book, and prints one summary at the end:
per book its output, length and problem, on stderr; the finished outputs' paths
on stdout, one a line, as a single run prints its one path. The queue itself is
app/batch.py.
"""
from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import Callable, TextIO

from app.batch import BookResult, QueueStop, convert_many, find_books, worst_exit
from app.request import ConvertRequest
from app.core.errors import InputError
from app.pipeline import outpath
from app.progress import ConsoleProgress, hms

#: Options that describe one book, refused for a queue: (attribute, flag).
ONE_BOOK_OPTIONS = (("title", "--title"), ("author", "--author"), ("chapters", "--chapters"),
                    ("list_chapters", "--list-chapters"), ("export_text", "--export-text"),
                    ("series_index", "--series-index"), ("year", "--year"))

#: One lock for every book's lines: two books' progress never share a line.
_LINES = threading.Lock()


class TaggedLines:
    """A text stream that writes each whole line to `stream` after `tag` (plain progress only)."""

    def __init__(self, stream: TextIO, tag: str):
        self.stream = stream
        self.tag = tag
        self._partial = ""

    def write(self, text: str) -> int:
        self._partial += text
        *lines, self._partial = self._partial.split("\n")
        if lines:
            with _LINES:
                self.stream.write("".join(f"{self.tag}{line}\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return False


def run_many(args: argparse.Namespace, request_for: Callable[[Path], ConvertRequest],
             watch_signals: Callable[[QueueStop], None]) -> int:
    """Convert the books named by `args.book` as one queue; return the worst book's exit code."""
    for attr, flag in ONE_BOOK_OPTIONS:
        if getattr(args, attr, None):
            raise InputError(f"{flag} describes one book, but {len(args.book)} books or a folder were given",
                             hint="Convert that book on its own, or leave the option out")
    if args.output is not None and not outpath.is_folder_path(args.output):
        raise InputError(f"--output {args.output} names one file, but several books make several outputs",
                         hint="Give a folder ending in /, e.g. --output audiobooks/")
    books = find_books(list(args.book))
    stop = QueueStop()
    watch_signals(stop)

    def listener_for(i: int, n: int, book: Path) -> ConsoleProgress:
        return ConsoleProgress(TaggedLines(sys.stderr, f"[{i + 1}/{n} {book.name}] "), force_plain=True)

    results = convert_many([request_for(book) for book in books], listener_for=listener_for, stop=stop)
    print_summary(results)
    return worst_exit(results)


def print_summary(results: list[BookResult], out: TextIO | None = None, err: TextIO | None = None) -> None:
    """Print one line per book on `err`, and each finished output's path on `out`."""
    out, err = out or sys.stdout, err or sys.stderr
    done = sum(r.status == "done" for r in results)
    print(f"\nSummary: {done} of {len(results)} books converted", file=err)
    for r in results:
        if r.status == "done":
            what = f"{r.output} ({hms(r.audio_seconds)} of audio)"
        else:
            what = r.problem or ("run the same command again to resume" if r.status == "stopped" else "")
        problem = f"; {r.problem}" if r.status == "done" and r.problem else ""
        print(f"  {r.status:<11} {r.book.name}: {what}{problem}".rstrip(), file=err)
    for r in results:
        if r.status == "done":
            print(r.output, file=out)
    out.flush()


__all__ = ["run_many", "print_summary", "TaggedLines"]
