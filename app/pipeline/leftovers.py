"""What a killed run leaves behind, and the record of what each book needs from the cache.

kill -9 mid-run can leave temp chunk WAVs (and download parts) in the cache,
a stitched chapter WAV in the book's work folder, and a full-size `.part`
output and a `.cover` picture beside the output. Temp names carry the
owning process id (app.core.files.temp_tag), so a later run sweeps exactly the
files whose owner is gone, never a live run's. Each run also records the
chunk keys its book needs (`book.json` in the work folder), which is what
`audiobook.py cache prune` keeps.
"""
from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from app.core.files import is_stale_temp, write_bytes_atomic

log = logging.getLogger(__name__)

#: The record of a book's run in its work folder.
MANIFEST = "book.json"
#: Work-folder temp files (stitched chapter WAVs, assembler parts) are stale after this long
#: when nothing holds the book's lock to prove it (cache prune runs beside live runs).
WORK_STALE_SECONDS = 3600


@dataclass(frozen=True)
class Manifest:
    """What one book's latest run needed."""

    source: str
    title: str
    output: str
    keys: frozenset[str]


def write_manifest(work_dir: Path, *, source: Path, title: str, output: Path, keys: list[str]) -> None:
    """Record the chunk keys the book's run needs (before it renders any)."""
    data = {"source": str(Path(source).resolve()), "title": title, "output": str(output),
            "keys": sorted(set(keys))}
    write_bytes_atomic(work_dir / MANIFEST, json.dumps(data).encode("utf-8"))


def read_manifest(work_dir: Path) -> Manifest | None:
    """Return a work folder's manifest, or None when it has none (or an unreadable one)."""
    try:
        data = json.loads((work_dir / MANIFEST).read_text(encoding="utf-8"))
        return Manifest(str(data["source"]), str(data.get("title", "")), str(data.get("output", "")),
                        frozenset(str(k) for k in data["keys"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def output_leftovers(folder: Path) -> list[Path]:
    """Return `.part` outputs and `.cover` pictures in an output folder whose run is gone."""
    if not folder.is_dir():
        return []
    found = []
    for p in folder.glob(".*"):
        if (".part" in p.name or p.name.startswith(".cover.")) and p.is_file() and is_stale_temp(p):
            found.append(p)
    return found


def work_leftovers(work_dir: Path, *, locked: bool) -> list[Path]:
    """Return stitched chapter WAVs and parts in a book's work folder that no run is using.

    With the book's lock held (`locked`), every one is a leftover; otherwise only old ones.
    """
    chapters = work_dir / "chapters"
    if not chapters.is_dir():
        return []
    now = time.time()
    found = []
    for p in chapters.iterdir():
        if p.is_file() and (p.suffix == ".wav" or ".part" in p.name or p.name.endswith(".tmp")):
            if locked or now - p.stat().st_mtime > WORK_STALE_SECONDS:
                found.append(p)
    return found


def remove(files: list[Path]) -> int:
    """Delete `files` and return the bytes freed; a file that vanished or resists is skipped."""
    freed = 0
    for p in files:
        try:
            size = p.stat().st_size
            p.unlink()
            freed += size
        except OSError as exc:
            log.debug("could not remove leftover %s: %s", p, exc)
    return freed
