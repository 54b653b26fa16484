"""The per-book report: what was heard, what was rendered again, what still fails, how loud.

Written beside the output as `<output>.report.json` (for an MP3 folder `Book`,
`Book.report.json` beside it), summarized in one line at the end of the run. A
chunk that still sounds wrong after its last take is stitched (its best take,
so the book stays whole) but never silently: it is listed here, and the run
ends with UnverifiedChunks (exit 4) naming the report.
"""
from __future__ import annotations

import json
import threading
from pathlib import Path

from app.audio.master import ChapterLoudness, Target
from app.book.model import Chapter
from app.core.errors import UnverifiedChunks
from app.core.files import write_bytes_atomic
from app.pipeline.plan import PlannedChunk, RunPlan
from app.pipeline.verify import Verdict, VerifySettings
from app.core.plural import plural

#: Bump when the report's layout changes (documented in app/docs/verification.md).
REPORT_VERSION = 1


def report_path(output: Path, fmt: str) -> Path:
    """Return where the report of `output` goes."""
    # Beside the output, never inside an MP3 folder: that folder holds only the book's chapters.
    return output.with_name(output.name + ".report.json") if fmt == "mp3" else output.with_suffix(".report.json")


class RunReport:
    """Collects verdicts and chapter loudness during a run (thread-safe), then writes them."""

    def __init__(self, plan: RunPlan, verify: VerifySettings | None, master: Target | None):
        self.plan = plan
        self.verify = verify
        self.master = master
        self._verdicts: dict[tuple[int, int], tuple[PlannedChunk, Verdict]] = {}
        self._loudness: dict[int, tuple[str, ChapterLoudness]] = {}
        self._lock = threading.Lock()

    def add_verdict(self, pc: PlannedChunk, verdict: Verdict) -> None:
        with self._lock:
            self._verdicts[(pc.chunk.chapter_index, pc.chunk.index)] = (pc, verdict)

    def add_loudness(self, chapter: Chapter, loudness: ChapterLoudness) -> None:
        with self._lock:
            self._loudness[chapter.index] = (chapter.title, loudness)

    # -- contents --------------------------------------------------------------------------

    @staticmethod
    def _entry(pc: PlannedChunk, v: Verdict) -> dict:
        return {"chapter": pc.chunk.chapter_index, "chunk": pc.chunk.index + 1, "text": pc.text,
                "heard": v.score.get("heard", ""), "score": v.score.get("error_rate"),
                "problems": v.score.get("problems", []), "takes": len(v.takes), "kept_take": v.take + 1}

    def failing(self) -> list[dict]:
        return [self._entry(pc, v) for (_, _), (pc, v) in sorted(self._verdicts.items()) if not v.accepted]

    def rerendered(self) -> list[dict]:
        return [{**self._entry(pc, v), "take_scores": [t.get("error_rate") for t in v.takes]}
                for (_, _), (pc, v) in sorted(self._verdicts.items()) if v.rerendered]

    def as_dict(self, output: Path) -> dict:
        verification = None
        if self.verify is not None:
            verification = {"listener": self.verify.transcriber.identity, "max_takes": self.verify.max_takes,
                            "max_error": self.verify.thresholds.max_error,
                            "chunks_checked": len(self._verdicts),
                            "rerendered": self.rerendered(), "failing": self.failing()}
        return {
            "version": REPORT_VERSION, "book": self.plan.book.title, "output": str(output),
            "verification": verification,
            "mastering": None if self.master is None else {
                "target_lufs": self.master.lufs, "true_peak_ceiling_dbtp": self.master.true_peak},
            "chapters": [{"index": i, "title": title, **loud.as_dict()}
                         for i, (title, loud) in sorted(self._loudness.items())],
        }

    # -- at the end ------------------------------------------------------------------------

    def write(self, output: Path) -> Path:
        """Write the report beside `output` and return its path."""
        path = report_path(output, self.plan.fmt)
        write_bytes_atomic(path, json.dumps(self.as_dict(output), indent=2, ensure_ascii=False).encode())
        return path

    def summary(self, path: Path) -> str:
        """Return the run's one-line verdict."""
        parts = []
        if self.verify is not None:
            failing, again = self.failing(), self.rerendered()
            parts.append(f"verified {len(self._verdicts)} chunks, {len(again)} rendered again, "
                         f"{len(failing)} still wrong")
        else:
            parts.append("not verified")
        if self._loudness:
            values = [loud for _, loud in self._loudness.values()]
            parts.append(f"chapters at {min(v.integrated for v in values):.1f} to "
                         f"{max(v.integrated for v in values):.1f} LUFS, true peak ≤ "
                         f"{max(v.true_peak for v in values):.1f} dBTP")
        return f"Report: {'; '.join(parts)} ({path})"

    def raise_if_failing(self, output: Path, path: Path) -> None:
        """Raise UnverifiedChunks when some chunk still sounds wrong."""
        failing = self.failing()
        if not failing:
            return
        first = failing[0]
        raise UnverifiedChunks(
            f"{plural(len(failing), 'chunk')} still {'sounds' if len(failing) == 1 else 'sound'} wrong after every take (first: chapter {first['chapter']}, "
            f"chunk {first['chunk']}: {', '.join(first['problems'])}); {output} was written with their best "
            f"takes, listed in {path}",
            hint="Listen to them, edit the text or raise the takes with --verify-takes, then run again")
