"""The resume cache: one WAV per finished chunk, keyed by all that shaped it.

A chunk's key hashes its normalized text, its seed and the backend's
identity (backend, model, voice, parameters), so any change renders it again
and nothing else. Each WAV has a sidecar with its SHA-256: a corrupted entry
(a crash mid-copy, a bad disk) is detected on read and rendered again.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from app.core.files import is_stale_temp, temp_tag
from app.core.files import sha256_file as file_sha256

#: Bump when the cache layout or key recipe changes, so old entries are not reused.
CACHE_VERSION = 1
#: A chunk's timing sidecar larger than this is not one (a chunk is seconds of speech).
_MAX_SIDECAR_BYTES = 4 * 1024 * 1024


def _floats(items) -> tuple[float, ...]:
    return tuple(float(x) for x in items)


def _words(items) -> tuple[tuple[str, float, float], ...]:
    return tuple((str(w["word"]), float(w["start"]), float(w["end"])) for w in items)


def normalize_text(text: str) -> str:
    """Return `text` with whitespace folded, so re-wrapping a paragraph keeps its key."""
    return " ".join(text.split())


def chunk_key(text: str, seed: int, identity: dict[str, Any]) -> str:
    """Return the cache key of one chunk."""
    payload = json.dumps(
        {"v": CACHE_VERSION, "text": normalize_text(text), "seed": seed, "identity": identity},
        sort_keys=True, ensure_ascii=False, default=str,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def chunk_seed(text: str) -> int:
    """Return the seed for a chunk: fixed by its text, so a re-render sounds the same."""
    digest = hashlib.sha256(normalize_text(text).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class ChunkCache:
    """Finished chunks on disk under `root/chunks/ab/abcdef....wav`."""

    def __init__(self, root: Path):
        self.root = root / "chunks"

    def path_for(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.wav"

    def _meta_path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def sidecar(self, key: str, name: str) -> Path:
        """Return the path of a file kept beside the chunk (`key.NAME`: timings, verdict, other takes)."""
        return self.root / key[:2] / f"{key}.{name}"

    def get(self, key: str) -> Path | None:
        """Return the chunk's WAV if present and intact; drop a corrupted entry."""
        wav, meta = self.path_for(key), self._meta_path(key)
        if not wav.exists() or not meta.exists():
            return None
        if not wav.is_file():  # a folder where the chunk should be: put() reports it when it writes
            return None
        try:
            expected = json.loads(meta.read_text())["sha256"]
        except (OSError, ValueError, KeyError, TypeError):  # TypeError: a sidecar of the wrong JSON type
            expected = None
        if expected != file_sha256(wav):
            self.discard(key)
            return None
        return wav

    def has(self, key: str) -> bool:
        """Return whether an entry exists (without verifying it; used for planning)."""
        return self.path_for(key).is_file() and self._meta_path(key).exists()

    def temp_path(self, key: str) -> Path:
        """Return a unique temp name beside the final one, for a backend to write to."""
        folder = self.path_for(key).parent
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f".{key}.{temp_tag()}.tmp.wav"

    def put(self, key: str, tmp_wav: Path, **info: Any) -> Path:
        """Move a finished temp WAV into the cache atomically and return its path."""
        wav, meta = self.path_for(key), self._meta_path(key)
        digest = file_sha256(tmp_wav)
        meta_tmp = meta.with_name(f".{meta.name}.{temp_tag()}.tmp")
        try:
            meta_tmp.write_text(json.dumps({"sha256": digest, **info}, default=str))
            os.replace(tmp_wav, wav)
            os.replace(meta_tmp, meta)
        finally:
            for leftover in (tmp_wav, meta_tmp):
                if leftover.exists():
                    leftover.unlink()
        return wav

    def keys(self) -> dict[str, int]:
        """Return every cached key with the bytes of its WAV."""
        found: dict[str, int] = {}
        for wav in self.root.glob("??/*.wav"):
            if not wav.name.startswith(".") and wav.is_file():
                found[wav.stem] = wav.stat().st_size
        return found

    def leftovers(self) -> list[Path]:
        """Return temp files of runs that are gone (killed mid-write): WAVs, sidecars, download parts."""
        if not self.root.is_dir():
            return []
        return [p for p in self.root.glob("??/.*") if p.is_file() and is_stale_temp(p)]

    def marks(self, key: str) -> tuple[tuple[float, ...] | None, tuple[tuple[str, float, float], ...] | None]:
        """Return the timing known inside a chunk: sentence starts (engine) and word timestamps (verification).

        Word timestamps live in `<key>.words.json` ({"words": [{"word", "start", "end"}, ...]} or the
        bare list); either is None when absent or unreadable, and read-along timing falls back.
        """
        return self._read_small(self._meta_path(key), "sentence_starts", _floats), \
            self._read_small(self._meta_path(key).with_suffix(".words.json"), "words", _words)

    @staticmethod
    def _read_small(path: Path, field: str, convert):
        try:
            if path.stat().st_size > _MAX_SIDECAR_BYTES:  # a chunk is seconds of speech; refuse nonsense
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
            items = data.get(field) if isinstance(data, dict) else data
            return convert(items) if items else None
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def discard(self, key: str) -> None:
        for p in (self.path_for(key), self._meta_path(key), *self.path_for(key).parent.glob(f"{key}.*")):
            try:
                p.unlink()
            except FileNotFoundError:
                pass
