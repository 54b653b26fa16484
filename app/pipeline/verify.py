"""Hear every chunk: transcribe each take beside synthesis, keep the best, remember the verdict.

A take is transcribed on the verification pool (its own threads, so the TTS
requests in flight never wait for it), scored against its text
(app/listen/score.py), and its word timings are kept beside it in the cache.
The scheduler (app/pipeline/run.py) asks for another take while a chunk is
rejected and takes remain; then settle() keeps the best take under the
chunk's cache key and writes the verdict beside it. Cache files per chunk key:

    KEY.wav / KEY.json        the kept take and its checksum (app/pipeline/cache.py)
    KEY.words.json            its word and segment timings (app/listen/transcript.py)
    KEY.verify.json           the verdict, with the fingerprint of the settings that gave it
    KEY.takeN.*               an earlier take, kept only until the chunk is settled

A re-run trusts a verdict made with the same settings (no re-transcription);
other settings re-check the kept take without re-synthesizing it.
"""
from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from app.core.files import write_bytes_atomic
from app.listen.score import Score, Thresholds, score
from app.listen.transcript import Transcriber
from app.pipeline import events as ev
from app.pipeline.cache import ChunkCache

#: Takes a chunk may get (the first included) before it is reported as failing.
DEFAULT_TAKES = 3
#: Bump when the verdict layout changes, so old verdicts are re-checked.
VERDICT_VERSION = 3  # 2: misheard spans no longer reject a take; 3: heard text in the chunk's spoken form


def take_seed(seed: int, take: int) -> int:
    """Return the seed of a chunk's `take` (0 = its usual seed): another take, another seed."""
    return seed if take == 0 else (seed + take * 104729) & 0x7FFFFFFF


@dataclass(frozen=True)
class VerifySettings:
    """How takes are heard and judged."""

    transcriber: Transcriber
    thresholds: Thresholds = field(default_factory=Thresholds)
    max_takes: int = DEFAULT_TAKES
    #: ISO code of the book's language, to catch a take in another language.
    language: str | None = None
    #: Transcriptions at once; one keeps a CPU recognizer off the cores synthesis needs.
    workers: int = 1

    def fingerprint(self) -> str:
        """Return a short hash of everything that decides a verdict."""
        raw = json.dumps({"v": VERDICT_VERSION, "asr": self.transcriber.identity,
                          "thresholds": asdict(self.thresholds), "takes": self.max_takes,
                          "language": self.language}, sort_keys=True)
        return hashlib.sha256(raw.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Check:
    """One heard take."""

    take: int
    seed: int
    score: Score


@dataclass(frozen=True)
class Verdict:
    """A settled chunk: the kept take and how every take scored."""

    accepted: bool
    take: int
    seed: int
    score: dict
    takes: list[dict]

    @property
    def rerendered(self) -> bool:
        return len(self.takes) > 1


class Verifier:
    """The verification pool and the chunk's takes in the cache."""

    def __init__(self, settings: VerifySettings, cache: ChunkCache):
        self.settings = settings
        self.cache = cache
        self.fingerprint = settings.fingerprint()
        self._pool = cf.ThreadPoolExecutor(max_workers=max(1, settings.workers), thread_name_prefix="verify")
        self._checks: dict[str, list[Check]] = {}

    def close(self) -> None:
        """Stop the pool; a transcription under way finishes, queued ones are dropped."""
        self._pool.shutdown(wait=True, cancel_futures=True)

    # -- hearing -----------------------------------------------------------------------

    def submit(self, key: str, text: str, take: int, seed: int) -> cf.Future[Check]:
        """Transcribe and score the chunk's current take on the pool."""
        return self._pool.submit(self._check, key, text, take, seed)

    def _check(self, key: str, text: str, take: int, seed: int) -> Check:
        heard = self.settings.transcriber.transcribe(self.cache.path_for(key), language=self.settings.language)
        write_bytes_atomic(self.cache.sidecar(key, "words.json"),
                           json.dumps(heard.timings(), ensure_ascii=False).encode())
        verdict = score(text, heard, language=self.settings.language, thresholds=self.settings.thresholds)
        return Check(take, seed, verdict)

    # -- takes ---------------------------------------------------------------------------

    def record(self, key: str, check: Check) -> bool:
        """Remember a heard take; return whether another take should be rendered."""
        self._checks.setdefault(key, []).append(check)
        if check.score.ok or len(self._checks[key]) >= self.settings.max_takes:
            return False
        self._stash(key, check.take)
        return True

    def next_take(self, key: str) -> int:
        """Return the number of the chunk's next take."""
        return max(c.take for c in self._checks[key]) + 1

    def _stash(self, key: str, take: int) -> None:
        """Move the current take aside so the next one can be rendered under the chunk's key."""
        for name, path in self._files(key).items():
            if path.exists():
                os.replace(path, self.cache.sidecar(key, f"take{take}.{name}"))

    def _files(self, key: str) -> dict[str, Path]:
        return {"wav": self.cache.path_for(key), "json": self.cache.sidecar(key, "json"),
                "words.json": self.cache.sidecar(key, "words.json")}

    def settle(self, key: str) -> Verdict:
        """Keep the best take under the chunk's key, drop the others, write and return the verdict."""
        checks = self._checks.pop(key)
        # Said right first, then the least said wrong; the plain word error breaks ties.
        best = min(checks, key=lambda c: (not c.score.ok, c.score.wrong_rate, c.score.error_rate, c.take))
        current = checks[-1].take
        if best.take != current:
            for name, path in self._files(key).items():
                kept = self.cache.sidecar(key, f"take{best.take}.{name}")
                if kept.exists():
                    os.replace(kept, path)
        for c in checks:
            for name in self._files(key):
                self.cache.sidecar(key, f"take{c.take}.{name}").unlink(missing_ok=True)
        verdict = Verdict(best.score.ok, best.take, best.seed, best.score.as_dict(),
                          [{"take": c.take, "seed": c.seed, **c.score.as_dict()} for c in checks])
        write_bytes_atomic(self.cache.sidecar(key, "verify.json"), json.dumps(
            {"fingerprint": self.fingerprint, **asdict(verdict)}, ensure_ascii=False).encode())
        return verdict

    def kept_take(self, key: str, seed: int) -> tuple[int, int]:
        """Return (take, seed) of the chunk's cached take, whatever settings judged it."""
        try:
            data = json.loads(self.cache.sidecar(key, "verify.json").read_text())
            return int(data["take"]), int(data["seed"])
        except (OSError, ValueError, KeyError, TypeError):
            return 0, seed

    def stored(self, key: str) -> Verdict | None:
        """Return the chunk's verdict if it was made with these settings, else None."""
        try:
            data = json.loads(self.cache.sidecar(key, "verify.json").read_text())
            if data.pop("fingerprint") != self.fingerprint:
                return None
            return Verdict(**data)
        except (OSError, ValueError, KeyError, TypeError):
            return None


class Listening:
    """The scheduler's side of verification: takes being heard, and which take each chunk is on."""

    def __init__(self, settings: VerifySettings, cache: ChunkCache, report, emit: ev.Listener):
        self.verifier = Verifier(settings, cache)
        self.report = report
        self.emit = emit
        #: Transcriptions under way, by future.
        self.hearing: dict[cf.Future, object] = {}
        self._takes: dict[str, int] = {}

    def take(self, pc) -> int:
        """Return the take the chunk is on (0 for its first)."""
        return self._takes.get(pc.key, 0)

    def hear(self, pc, *, recheck: bool = False) -> None:
        """Start hearing the chunk's current take (a cached one when `recheck`)."""
        if recheck:
            take, seed = self.verifier.kept_take(pc.key, pc.seed)
            self._takes[pc.key] = take
        else:
            take = self.take(pc)
            seed = take_seed(pc.seed, take)
        self.hearing[self.verifier.submit(pc.key, pc.text, take, seed)] = pc

    def heard(self, fut: cf.Future, todo) -> object | None:
        """Judge a heard take: return the chunk when settled, else queue its next take first and return None."""
        pc = self.hearing.pop(fut)
        check = fut.result()  # a listener that fails (server gone) ends the run like a backend would
        if self.verifier.record(pc.key, check):
            take = self._takes[pc.key] = self.verifier.next_take(pc.key)
            self.emit(ev.Message(f"Chapter {pc.chunk.chapter_index}, chunk {pc.chunk.index + 1} was said wrong "
                                 f"({', '.join(check.score.problems)}): rendering take {take + 1}"))
            todo.appendleft(pc)  # first in line: its chapter waits for it
            return None
        self.report.add_verdict(pc, self.verifier.settle(pc.key))
        return pc

    def trusted(self, pc) -> bool:
        """Return whether the cached chunk has a verdict made with these settings (and report it)."""
        verdict = self.verifier.stored(pc.key)
        if verdict is None:
            return False
        self.report.add_verdict(pc, verdict)
        return True

    def close(self) -> None:
        self.verifier.close()
