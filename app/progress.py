"""Draw run progress on the console: a bar on a terminal, plain lines otherwise."""
from __future__ import annotations

import math
import sys
import time
from typing import TextIO

from app.pipeline import events as ev
from app.core.plural import plural
from app.core.redact import redact


def hms(seconds: float) -> str:
    """Return seconds as h:mm:ss."""
    seconds = int(round(max(0.0, seconds)))
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


class SmoothedRate:
    """Chunks per second, smoothed so the ETA drawn from it does not swing with every burst.

    Chunks finish in bursts (several requests in flight, short and long
    chunks), so a rate from the last few chunks swings by half and more. Chunks
    are counted over windows of at least WINDOW seconds; each window's rate is
    blended in with the weight of its share of the time so far (a plain mean
    while the run is young) but at least that of an exponential average with
    time constant TAU (so the rate follows a server that really got slower).
    """

    #: Shortest span a rate is measured over, seconds.
    WINDOW = 2.0
    #: Time constant of the exponential average, seconds: a change of speed shows fully after about this long.
    TAU = 90.0

    def __init__(self, started: float) -> None:
        self.started = started
        self.rate: float | None = None
        self._window_start = started
        self._pending = 0

    def add(self, now: float, chunks: int = 1) -> None:
        """Count `chunks` finished at `now` (time.monotonic() seconds)."""
        self._pending += chunks
        span = now - self._window_start
        if span < self.WINDOW:
            return
        measured = self._pending / span
        weight = max(span / max(now - self.started, span), 1 - math.exp(-span / self.TAU))
        self.rate = measured if self.rate is None else self.rate + weight * (measured - self.rate)
        self._window_start, self._pending = now, 0


class RunStats:
    """Counts a run's events into the figures users want: done, audio, realtime factor, ETA."""

    def __init__(self) -> None:
        self.total = 0
        self.done = 0
        self.cached = 0
        self.audio = 0.0
        self.synth_audio = 0.0
        self.started = time.monotonic()
        self.speed = SmoothedRate(self.started)

    def on(self, event: ev.Event) -> None:
        if isinstance(event, ev.RunStarted):
            self.total = event.total_chunks
            self.started = time.monotonic()
            self.speed = SmoothedRate(self.started)
        elif isinstance(event, ev.ChunkDone):
            self.done += 1
            self.audio += event.audio_seconds
            if event.cached:
                self.cached += 1
            else:
                self.synth_audio += event.audio_seconds
                self.speed.add(time.monotonic())

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    @property
    def realtime_factor(self) -> float:
        """Audio seconds synthesized per wall second (cached chunks excluded)."""
        return self.synth_audio / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Return the seconds left at the smoothed rate, or None until a rate is measured."""
        remaining = self.total - self.done
        if remaining <= 0:
            return 0.0
        rate = self.speed.rate
        return remaining / rate if rate else None


class ConsoleProgress:
    """An event listener that shows a rich progress bar, or log lines when not a TTY."""

    def __init__(self, stream: TextIO | None = None, *, force_plain: bool = False):
        self.stream = stream or sys.stderr
        self.stats = RunStats()
        self.plain = force_plain or not self.stream.isatty()
        self._progress = None
        self._task = None
        self._last_line = 0.0

    def __call__(self, event: ev.Event) -> None:
        self.stats.on(event)
        if self.plain:
            self._plain(event)
        else:
            self._rich(event)

    def _describe(self) -> str:
        s = self.stats
        eta = "--:--:--" if s.eta is None else hms(s.eta)
        return f"audio {hms(s.audio)}  {s.realtime_factor:5.1f}x realtime  ETA {eta}"

    def _plain(self, event: ev.Event) -> None:
        s = self.stats
        line = None
        if isinstance(event, ev.RunStarted):
            line = (f"Converting: {plural(event.chapters, 'chapter')}, {plural(event.total_chunks, 'chunk')} "
                    f"({event.cached_chunks:,} already done) on {event.backend}, {event.concurrency:,} at a time")
        elif isinstance(event, ev.ChunkDone) and not event.cached:
            now = time.monotonic()
            if now - self._last_line >= 5 or s.done == s.total:
                self._last_line = now
                line = f"chunks {s.done}/{s.total}  {self._describe()}"
        elif isinstance(event, ev.ChapterDone):
            line = f"chapter {event.chapter_index} done: {event.title} ({hms(event.audio_seconds)})"
        elif isinstance(event, ev.Muxing):
            line = f"writing the {event.output.suffix.lstrip('.') or 'output'} file"
        elif isinstance(event, ev.RunFinished):
            # No path here: the command prints it once, on stdout, when the run has finished.
            line = (f"done: {hms(event.audio_seconds)} of audio, "
                    f"{plural(event.synthesized_chunks, 'chunk')} synthesized in {hms(event.wall_seconds)}")
        elif isinstance(event, ev.Message):
            line = redact(event.text)
        if line:
            print(line, file=self.stream, flush=True)

    def _rich(self, event: ev.Event) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        if isinstance(event, ev.RunStarted):
            self._progress = Progress(
                TextColumn("[bold]chunks"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.description}"),
                console=Console(file=self.stream), transient=False,
            )
            self._progress.start()
            self._task = self._progress.add_task(self._describe(), total=event.total_chunks)
        elif isinstance(event, ev.ChunkDone) and self._progress:
            self._progress.update(self._task, advance=1, description=self._describe())
        elif isinstance(event, (ev.ChapterDone, ev.Message, ev.Muxing)) and self._progress:
            if isinstance(event, ev.ChapterDone):
                self._progress.console.print(f"chapter {event.chapter_index} done: {event.title}")
            elif isinstance(event, ev.Muxing):
                self._progress.update(self._task, description=self._describe() + "  muxing…")
            else:
                self._progress.console.print(redact(event.text))
        elif isinstance(event, ev.RunFinished):
            self.close()
            print(f"Done: {hms(event.audio_seconds)} of audio", file=self.stream)
        elif isinstance(event, ev.Message):
            print(redact(event.text), file=self.stream)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
