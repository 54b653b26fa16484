"""What the cache holds per book, and pruning what no book needs (`audiobook.py cache [prune]`).

A book "needs" the chunks its latest run planned (its manifest, written
before any chunk is rendered, so an unfinished book keeps what a resume
will use). Pruning removes leftovers of killed runs, the work folders of
books whose file is gone, and chunks no manifest names. Work folders
written before manifests existed name nothing; while one is present, no
chunk is pruned (it might be that book's), and the report says so.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from app.core import paths
from app.pipeline import leftovers
from app.pipeline.cache import ChunkCache
from app.core.plural import plural


@dataclass
class BookUsage:
    """One book's share of the cache."""

    title: str
    source: str
    work_dir: Path
    chunks: int = 0
    chunk_bytes: int = 0
    work_bytes: int = 0
    #: The book's latest run wrote its output (its chapters are encoded; a re-run needs no chunk).
    finished: bool = False


@dataclass
class Usage:
    """The cache, book by book."""

    books: list[BookUsage] = field(default_factory=list)
    #: Chunks no book's manifest names, and their bytes.
    orphan_chunks: int = 0
    orphan_bytes: int = 0
    leftover_files: int = 0
    leftover_bytes: int = 0
    #: Work folders without a manifest (from before manifests were written).
    unrecorded: list[Path] = field(default_factory=list)

    @property
    def total_bytes(self) -> int:
        return (sum(b.chunk_bytes + b.work_bytes for b in self.books) + self.orphan_bytes
                + self.leftover_bytes)


def _tree_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def _finished(work: Path, manifest: leftovers.Manifest) -> bool:
    """Return whether the book's latest run wrote its output: the output is newer than the run's record.

    The record is written when a run starts, the output when it ends; a run that
    was stopped (or is running now) left the record newer, and its resume needs
    the chunks.
    """
    if not manifest.output:
        return False
    try:
        return Path(manifest.output).stat().st_mtime >= (work / leftovers.MANIFEST).stat().st_mtime
    except OSError:
        return False


def _work_dirs() -> list[Path]:
    root = paths.work_dir()
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and p.name != "locks")


def _leftovers(cache: ChunkCache) -> list[Path]:
    """Return every leftover the cache and the default output folder hold."""
    found = cache.leftovers() + leftovers.output_leftovers(paths.output_dir())
    for work in _work_dirs():
        found += leftovers.work_leftovers(work, locked=False)
        manifest = leftovers.read_manifest(work)
        if manifest and manifest.output:
            folder = Path(manifest.output).parent
            if folder != paths.output_dir():
                found += leftovers.output_leftovers(folder)
    return list(dict.fromkeys(found))


def usage(cache: ChunkCache | None = None) -> Usage:
    """Return the cache's size per book, the chunks no book needs and the leftovers."""
    cache = cache or ChunkCache(paths.cache_dir())
    present = cache.keys()
    report = Usage()
    named: set[str] = set()
    for work in _work_dirs():
        manifest = leftovers.read_manifest(work)
        if manifest is None:
            report.unrecorded.append(work)
            report.books.append(BookUsage(work.name, "(not recorded)", work, work_bytes=_tree_bytes(work)))
            continue
        mine = manifest.keys & present.keys()
        named |= manifest.keys
        report.books.append(BookUsage(manifest.title or Path(manifest.source).stem, manifest.source, work,
                                      len(mine), sum(present[k] for k in mine), _tree_bytes(work),
                                      _finished(work, manifest)))
    orphans = set(present) - named
    report.orphan_chunks, report.orphan_bytes = len(orphans), sum(present[k] for k in orphans)
    found = _leftovers(cache)
    report.leftover_files = len(found)
    report.leftover_bytes = sum(p.stat().st_size for p in found if p.exists())
    return report


@dataclass
class Pruned:
    chunks: int = 0
    books: int = 0
    leftovers: int = 0
    freed: int = 0
    #: Finished books whose chunks were let go (prune(finished=True)).
    finished: int = 0
    #: Why chunks were kept although no manifest names them ("" when none were).
    kept_reason: str = ""


def prune(cache: ChunkCache | None = None, *, finished: bool = False) -> Pruned:
    """Remove leftovers, work folders of books whose file is gone, and chunks no book needs.

    With `finished`, the chunks of finished books go too: their encoded chapters
    stay, so the same command writes the book again without synthesis; another
    loudness, verification or output kind would synthesize those chapters again.
    """
    cache = cache or ChunkCache(paths.cache_dir())
    result = Pruned()
    found = _leftovers(cache)
    result.leftovers = len(found)
    result.freed += leftovers.remove(found)
    named: set[str] = set()
    unrecorded = 0
    for work in _work_dirs():
        manifest = leftovers.read_manifest(work)
        if manifest is None:
            unrecorded += 1
            continue
        if not Path(manifest.source).exists():
            result.freed += _tree_bytes(work)
            shutil.rmtree(work, ignore_errors=True)
            result.books += 1
            continue
        if finished and _finished(work, manifest):
            result.finished += 1
            continue
        named |= manifest.keys
    if unrecorded:
        result.kept_reason = (f"{plural(unrecorded, 'book folder')} from an older version, without a chunk list; "
                              "convert those books once (cached chunks make it quick), then prune again")
        return result
    for key, size in cache.keys().items():
        if key not in named:
            cache.discard(key)
            result.chunks += 1
            result.freed += size
    return result
