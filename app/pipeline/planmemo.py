"""Remember how each chapter was planned, so a re-run plans only the chapters that changed.

Planning puts every paragraph in spoken form (numbers, dates, lexicon) and cuts it into
chunks: seconds for a long book, and all of it wasted when every chunk is already
cached. The memo keeps, per chapter, its spoken paragraphs and its chunks (text and the
pause after), under a key of everything they are made from: the chapter as written, the
speaker's language, lexicon and link mode, the chunk size, and a fingerprint of the
planning code itself (so a better reading of numbers after an upgrade re-plans, and
re-renders what it changes). Cache keys and seeds are not stored: they are recomputed
from the chunk texts and the backend's identity, as on a first run.

One JSON file per book in its work folder, written atomically, holding only the
entries the last plan used; a missing, damaged or foreign file is no memo.
"""
from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.book.chunking import Chunk, Pause
from app.book.model import Chapter
from app.core.files import write_bytes_atomic

log = logging.getLogger(__name__)

#: Bump when the memo's layout changes.
MEMO_VERSION = 1
#: File name in the book's work folder.
MEMO_NAME = "plan-memo.json"
#: The code a chapter's spoken form and chunks come from: any change to it re-plans.
PLANNING_CODE = ("app/book/spoken", "app/book/chunking.py", "app/book/normalize.py", "app/pipeline/plan.py",
                 "app/pipeline/planmemo.py", "app/cast/segments.py", "app/cast/delivery.py")
#: Largest memo read (a 10-hour book's is about 4 MB): a bigger file is not ours.
MAX_MEMO_BYTES = 256 * 1024 * 1024


@cache
def code_fingerprint() -> str:
    """Return a hash of the planning code's source files (read once per process)."""
    root = Path(__file__).resolve().parents[2]
    h = hashlib.sha256()
    for rel in PLANNING_CODE:
        place = root / rel
        for path in sorted(place.rglob("*.py")) if place.is_dir() else [place]:
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class PlannedText:
    """A chapter's plan without keys: its spoken paragraphs and its chunks."""

    paragraphs: tuple[str, ...]
    chunks: tuple[Chunk, ...]


def _text_or_none(value) -> str | None:
    return None if value is None else str(value)


class PlanMemo:
    """The chapter plans of one book's last run, looked up by what they are made from."""

    def __init__(self, path: Path | None):
        self.path = path
        self._old = self._read() if path is not None else {}
        self._new: dict[str, dict] = {}

    @classmethod
    def disabled(cls) -> "PlanMemo":
        """Return a memo that remembers nothing (plans everything)."""
        return cls(None)

    def key(self, chapter: Chapter, speaker_identity: dict, chunk_size: int) -> str:
        """Return the memo key of `chapter` planned by this speaker at this chunk size."""
        raw = json.dumps({"v": MEMO_VERSION, "code": code_fingerprint(), "speaker": speaker_identity,
                          "chunk_size": chunk_size, "index": chapter.index, "title": chapter.title,
                          "paragraphs": chapter.paragraphs}, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()

    def get(self, key: str, chapter_index: int) -> PlannedText | None:
        """Return the remembered plan for `key`, or None; a hit is kept for the next save."""
        entry = self._old.get(key)
        if entry is None:
            return None
        try:
            # [text, pause] and, in a cast's chapters, [text, pause, speaker, direction].
            chunks = tuple(Chunk(chapter_index, i, str(text), Pause(pause), *map(_text_or_none, cast))
                           for i, (text, pause, *cast) in enumerate(entry["chunks"]))
            planned = PlannedText(tuple(str(p) for p in entry["paragraphs"]), chunks)
        except (KeyError, TypeError, ValueError):
            return None  # a damaged entry: plan the chapter again
        self._new[key] = entry
        return planned

    def put(self, key: str, planned: PlannedText) -> None:
        """Remember a chapter planned in this run."""
        self._new[key] = {"paragraphs": list(planned.paragraphs),
                          "chunks": [[c.text, c.pause_after.value] + ([c.speaker, c.direction] if c.speaker else [])
                                     for c in planned.chunks]}

    def save(self) -> None:
        """Write the entries this plan used (nothing if they are what the file already holds)."""
        if self.path is None or self._new == self._old:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_bytes_atomic(self.path, json.dumps({"v": MEMO_VERSION, "chapters": self._new},
                                                     ensure_ascii=False).encode("utf-8"))
        except OSError as exc:  # a memo is an optimisation: never fail a run for it
            log.info("could not write the plan memo %s (%s)", self.path, exc)

    def _read(self) -> dict[str, dict]:
        try:
            if self.path.stat().st_size > MAX_MEMO_BYTES:
                return {}
            data = json.loads(self.path.read_bytes())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("v") != MEMO_VERSION or not isinstance(data.get("chapters"), dict):
            return {}
        return data["chapters"]


__all__ = ["PlanMemo", "PlannedText", "code_fingerprint", "MEMO_NAME"]
