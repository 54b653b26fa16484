"""Bounds on a book's shape, checked where no parser can enforce them.

- A TXT or Markdown file with a line longer than MAX_LINE_BYTES (a 50 MB book on one line) is
  refused before it is parsed: every stage after reading (paragraphs, sentences, spoken forms)
  works a line at a time, and one such line held the run at a gigabyte for minutes.
- A book of more than MAX_CHAPTERS chapters is refused after reading: no player lists that many
  markers, and exporting or converting them runs for hours. A Markdown file of more than
  MAX_HEADINGS ATX headings ("# ...", 100,000 of them) is refused before markdown-it parses it
  (that alone took a minute on a loaded machine).
The scan reads the file in pieces, so it needs no more memory than one piece.
"""
from __future__ import annotations

import re
from pathlib import Path

from app.core.errors import CorruptBook

MB = 1024 * 1024
#: Longest line of a TXT or Markdown book (the planner's test reads an 8 MB one).
MAX_LINE_BYTES = 10 * MB
#: Most chapters one book may have (the longest books seen have a few thousand).
MAX_CHAPTERS = 5_000
#: Most ATX headings a Markdown book may have before it is parsed.
MAX_HEADINGS = 20_000
_LINE_FORMATS = frozenset({"text", "markdown"})
_ATX = re.compile(rb"^ {0,3}#{1,6}(?:[ \t]|$)", re.M)
_PIECE = MB


def text_shape(path: Path, stop_after: int) -> tuple[int, int]:
    """Return (the longest run of bytes without a line break, the ATX heading lines), read in pieces;
    the scan stops once the run is over stop_after."""
    longest = run = headings = 0
    with open(path, "rb") as fh:
        while piece := fh.read(_PIECE):
            headings += len(_ATX.findall(piece))
            parts = piece.replace(b"\r", b"\n").split(b"\n")
            if len(parts) == 1:
                run += len(piece)
            else:
                longest = max(longest, run + len(parts[0]), *(len(p) for p in parts[1:-1]))
                run = len(parts[-1])
            longest = max(longest, run)
            if longest > stop_after:
                break
    return longest, headings


def check_text(path: Path, fmt_key: str) -> None:
    """Refuse a TXT or Markdown book with a line over MAX_LINE_BYTES, or Markdown with over MAX_HEADINGS headings."""
    if fmt_key not in _LINE_FORMATS:
        return
    longest, headings = text_shape(path, MAX_LINE_BYTES)
    if longest > MAX_LINE_BYTES:
        raise CorruptBook(f"{path.name} has a line of over {MAX_LINE_BYTES // MB} MB with no line break "
                          f"(the limit for one line)",
                          hint="Break it into paragraphs (e.g. 'fold -s -w 2000 book.txt > folded.txt') and try again")
    if fmt_key == "markdown" and headings > MAX_HEADINGS:
        raise CorruptBook(f"{path.name} has {headings:,} headings (limit {MAX_HEADINGS:,}): a heading every few lines",
                          hint="Use fewer headings (merge the short sections) or split the book into several files")


def check_chapters(count: int, path: Path) -> None:
    """Refuse a book of more than MAX_CHAPTERS chapters."""
    if count > MAX_CHAPTERS:
        raise CorruptBook(f"{path.name} has {count:,} chapters (limit {MAX_CHAPTERS:,}): a heading every few lines",
                          hint="Use fewer headings (merge the short sections) or split the book into several files")
