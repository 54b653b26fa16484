"""Open a book file without trusting what the path points at.

A path named `book.txt` can be a FIFO (reading blocks forever), a device or a
symlink to `/dev/zero` (reading never ends), or simply enormous. Each is
refused with one line before a byte is read, and reads are capped besides, so
a file that grows while it is read cannot exhaust memory either.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from app.core.errors import BookNotFound, CorruptBook, InputError

#: TXT/Markdown/HTML files larger than this are refused (a long novel is ~2 MB).
MAX_TEXT_BYTES = 64 * 1024 * 1024

_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def check_book_file(path: Path, limit: int) -> int:
    """Return the size of the regular file at `path` (symlinks followed); raise InputError otherwise."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise BookNotFound(f"No such file: {path}", hint="Check the path and try again") from None
    except OSError as exc:
        raise BookNotFound(f"Cannot read {path}: {exc.strerror or exc}", hint="Check the file's permissions") from None
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        via = " (through a symlink)" if os.path.islink(path) else ""
        raise InputError(f"{path} is {kind}{via}, not a book file",
                         hint="Pass the .epub, .txt, .md or .html file itself")
    if st.st_size > limit:
        raise CorruptBook(f"{path.name} is {st.st_size:,} bytes, over the {limit:,}-byte limit for this kind of book",
                          hint="Split the book into smaller files")
    return st.st_size


def read_book_bytes(path: Path, limit: int = MAX_TEXT_BYTES) -> bytes:
    """Return the bytes of a regular book file of at most `limit` bytes."""
    check_book_file(path, limit)
    try:
        # O_NONBLOCK: should the path be swapped for a FIFO after the check, open() still returns.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(limit + 1)
    except BlockingIOError:
        raise InputError(f"{path} is not a regular file", hint="Pass the book file itself") from None
    except OSError as exc:
        raise BookNotFound(f"Cannot read {path}: {exc.strerror or exc}", hint="Check the file's permissions") from None
    if data is None or len(data) > limit:
        raise CorruptBook(f"{path.name} is over the {limit:,}-byte limit for this kind of book",
                          hint="Split the book into smaller files")
    return data
