"""The run lock: one run per book and per output at a time, whatever path names them.

The lock used to live in the book's work folder, named after the path it
was given, so a symlink or a copy of the same book started a second run
writing the same output. Now a run holds two locks: one keyed by the book's
content (a copy, a symlink or a hard link of it is the same book) and one
keyed by the resolved output path (two different books cannot write one file).
"""
from __future__ import annotations

import hashlib
from contextlib import ExitStack, contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from app.core import paths
from app.core.errors import LockedError
from app.core.files import sha256_file


def locks_dir() -> Path:
    """Return the folder of run locks (beside the per-book work folders)."""
    return paths.work_dir() / "locks"


def book_digest(source: Path) -> str:
    """Return the identity of a book: the SHA-256 of its content."""
    return sha256_file(Path(source).resolve())


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:24]


@contextmanager
def hold(source: Path, output: Path):
    """Hold the book's and the output's locks for the body; raise LockedError if another run has either."""
    folder = paths.ensure(locks_dir())
    wanted = [
        (folder / f"book-{book_digest(source)[:24]}.lock",
         f"Another run is converting {Path(source).name} (or a copy of it) right now"),
        (folder / f"output-{_key(str(Path(output).expanduser().resolve()))}.lock",
         f"Another run is writing {Path(output).name} right now"),
    ]
    with ExitStack() as stack:
        for path, message in wanted:
            lock = FileLock(str(path))
            try:
                lock.acquire(timeout=0)
            except Timeout:
                raise LockedError(message, hint="Wait for it to finish, or stop it; two runs of one book "
                                                "would interleave their files") from None
            stack.callback(lock.release)
        yield
