"""Choose how many requests to keep in flight from what the run measures.

A continuous-batching TTS server gets faster in aggregate as more requests
are in flight, up to a knee (its batch is full and a small queue hides the
gaps between requests); past it, more requests only add latency, and far past
it throughput falls (queue thrash) or the server answers 503 "queue full".
The guide measured the knee at ~96 in flight for MOSS-TTS-Local tuned to 64
running requests, but it moves with the model, the GPU, the chunk sizes and
other clients, so the client finds it instead of asking the user.

Goodput is estimated with Little's law over the completions of requests sent
under the current limit: G = in-flight x sum(audio seconds) / sum(latency).
Unlike counting audio finished per wall second, this does not depend on which
chunks happen to finish inside a window, so a few dozen completions give a
steady figure. The controller probes one step above and one step below the
best level in turn, moving when a probe is better; it cuts the limit
multiplicatively when the backend reports transient server errors or when
latency per audio second balloons. `--concurrency N` pins the limit (FixedLimit).

Where it starts matters most on short books, which end before any search
pays. A run (`limit_for`) sends two thirds of the ceiling to the idle server
(64 of 96: fills the guide's tuned server, queues only 48 on a stock one),
reads from the first answers how many the server runs at once
(app/pipeline/sizing.py: requests that waited show it), and moves to 1.5x that
(the guide's knee: 96 for 64 running; 24 for a stock 16), or to the ceiling
when none waited. On the server model this reaches 0.97x or more of the best
fixed pool on both profiles at every book length (benchmarks/sim_adaptive.py),
where starting at the ceiling lost a quarter on a stock server: a queue of 80
slows its every step by half for as long as the queue lasts. Without sizing
(the controller alone) it starts at `start` and doubles while goodput keeps
rising (slow start).
"""
from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from app.pipeline.sizing import RunningEstimate

if TYPE_CHECKING:
    from app.backends.base import Backend

log = logging.getLogger(__name__)


class InFlightLimit(Protocol):
    """What the pipeline's submit loop asks of a limit."""

    @property
    def limit(self) -> int: ...

    def on_sent(self, in_flight: int) -> float: ...

    def on_done(self, latency: float, audio_seconds: float, in_flight: int,
                sent_at: float | None = None) -> None: ...

    def on_error(self, count: int = 1) -> None: ...


class FixedLimit:
    """A limit that never moves (a pinned --concurrency, or a local backend)."""

    def __init__(self, limit: int):
        self._limit = max(1, int(limit))

    @property
    def limit(self) -> int:
        return self._limit

    def on_sent(self, in_flight: int) -> float:
        """Ignore a request sent: the limit is fixed."""
        return 0.0

    def on_done(self, latency: float, audio_seconds: float, in_flight: int,
                sent_at: float | None = None) -> None:
        """Ignore a completion: the limit is fixed."""

    def on_error(self, count: int = 1) -> None:
        """Ignore an error: the limit is fixed."""


@dataclass(frozen=True)
class AdaptiveConfig:
    """Tuning of the adaptive controller; the defaults suit TTS servers."""

    #: First limit; a stock sgl-omni server runs 16 at once and queues the rest, so 32 overloads none.
    start: int = 32
    min_limit: int = 1
    #: Requests in an epoch's cohort: max(min_samples, limit * epoch_fraction), sent once the
    #: requests of the previous limit have finished, measured when all of the cohort has.
    min_samples: int = 8
    epoch_fraction: float = 0.5
    old_fraction: float = 0.25
    #: Slow start keeps doubling while goodput gains at least this share of the proportional gain.
    slow_start_gain: float = 0.25
    #: A probe wins when it beats the best goodput by this much (up) or loses less than `keep` (down).
    probe_step: float = 0.125
    improve: float = 0.01
    keep: float = 0.01
    #: Multiplicative decrease on transient errors or ballooning latency.
    backoff: float = 0.7
    #: Latency per audio second this many times the best level's counts as ballooning.
    balloon: float = 2.0
    #: Epochs after a backoff during which probes stay below the level that failed.
    ceiling_epochs: int = 8
    #: Weight of a new measurement in a level's running goodput.
    smoothing: float = 0.5
    #: Probes stay above this share of the ceiling until sizing has shown what the server runs
    #: (then above that). Only busy answers and errors cut below it.
    floor_fraction: float = 0.25
    #: Sizing (limit_for): the first requests, this share of the ceiling, go to the idle server at
    #: once: 64 of 96, the guide's tuned server's batch, which fills it, while a stock server
    #: (16 running) queues only 48 of them (at 96 its queue alone slows every step by half).
    sizing_start: float = 2 / 3
    #: Sizing: requests in flight per request the server runs at once, once the run has shown how
    #: many that is: the guide's knee, 96 in flight for 64 running (a stock 16: 24).
    headroom: float = 1.5


class AdaptiveLimit:
    """A goodput-seeking in-flight limit bounded by `max_limit`; thread-safe."""

    def __init__(self, max_limit: int, config: AdaptiveConfig = AdaptiveConfig(),
                 clock: Callable[[], float] = time.monotonic, *, start: int | None = None,
                 sizing: bool = False):
        self.cfg = config
        self.max_limit = max(1, int(max_limit))
        self._clock = clock
        self._lock = threading.Lock()
        if sizing and start is None:
            start = math.ceil(self.max_limit * config.sizing_start)
        self._limit = self._clamp(config.start if start is None else start)
        #: Watches the first answers for the server's running capacity; None once decided.
        self._sizing: RunningEstimate | None = RunningEstimate() if sizing else None
        #: What the run showed the server runs at once (None until it showed).
        self.running: int | None = None
        self._last_ticket = -math.inf
        #: Below this the search does not go on its own (cuts on errors may); sizing raises it.
        self._floor = max(config.min_limit, math.ceil(self.max_limit * config.floor_fraction))
        # Nothing to climb to from the ceiling; sizing replaces the climb.
        self._slow_start = not sizing and self._limit < self.max_limit
        self._goodput: dict[int, float] = {}
        self._ratio: dict[int, float] = {}
        self._best = self._limit
        self._probe_up = True
        self._ceiling = self.max_limit
        self._ceiling_left = 0
        self._last_cut = -math.inf
        self._outstanding = 0
        self._new_epoch()
        #: (limit, goodput estimate, seconds per audio second) per finished epoch, for logs and tests.
        self.history: list[tuple[int, float, float]] = []

    # -- what the loop asks ---------------------------------------------------

    @property
    def limit(self) -> int:
        return self._limit

    def on_sent(self, in_flight: int) -> float:
        """Record one request sent, with `in_flight` requests outstanding counting it.

        Return the send time on this limiter's clock: hand it back to on_done()
        as `sent_at`, so a completion is matched to its cohort exactly (rebuilding
        it as now - latency drifts by microseconds and can drop the last one).
        """
        with self._lock:
            # Unique tickets: a burst sent within one clock tick still tells its send order apart.
            now = self._last_ticket = max(self._clock(), self._last_ticket + 1e-9)
            self._outstanding += 1
            if self._sizing is not None:
                self._sizing.sent(now)
            # The cohort opens once most requests sent under the previous limit have finished
            # (waiting for the very last, often a long chunk, would only slow the search).
            if self._old > self._limit * self.cfg.old_fraction or self._cohort_full():
                return now
            self._sent += 1
            if self._sent == 1:
                self._cohort_from = now
            self._cohort_to = now
        return now

    def on_done(self, latency: float, audio_seconds: float, in_flight: int,
                sent_at: float | None = None) -> None:
        """Record one completed request: wall seconds it took, audio it produced, requests in flight."""
        now = self._clock()
        with self._lock:
            self._outstanding = max(0, self._outstanding - 1)
            if sent_at is None:
                sent_at = now - latency
            if self._sizing is not None:
                self._sizing.answered(sent_at, latency, audio_seconds)
                running = self._sizing.running()
                if running is not None:
                    self._sized(running)
                elif self._sizing.exhausted():
                    log.info("the first answers did not show how many requests the server runs at once;"
                             " probing from %d in flight", self._limit)
                    self._sizing = None
                    self._new_epoch()
                return
            if sent_at < self._epoch_start - 1e-9:
                self._old = max(0, self._old - 1)
                return
            if not self._sent or not self._cohort_from - 1e-9 <= sent_at <= self._cohort_to + 1e-9:
                return
            self._n += 1
            self._done_in_flight += max(1, in_flight)
            self._audio += max(audio_seconds, 0.0)
            self._latency += max(latency, 1e-6)
            if self._cohort_full() and self._n >= self._sent and self._audio > 0:
                self._finish_epoch(now)

    def _cohort_full(self) -> bool:
        return self._sent >= max(self.cfg.min_samples, math.ceil(self._limit * self.cfg.epoch_fraction))

    def on_error(self, count: int = 1) -> None:
        """Record `count` transient server errors (5xx, 503 queue full, timeouts): back off."""
        if count <= 0:
            return
        now = self._clock()
        with self._lock:
            self._cut(now)

    # -- decisions ------------------------------------------------------------

    def _finish_epoch(self, now: float) -> None:
        level = self._limit
        in_flight = self._done_in_flight / self._n
        ratio = self._latency / self._audio  # wall seconds per audio second, per request
        goodput = in_flight / ratio
        self.history.append((level, goodput, ratio))
        best_ratio = self._ratio.get(self._best)
        if (not self._slow_start and best_ratio is not None and level <= self._best
                and ratio > self.cfg.balloon * best_ratio):
            self._cut(now)
            return
        self._record(level, goodput, ratio)
        if self._slow_start:
            self._step_slow_start(level, goodput)
        else:
            self._step_probe(level, goodput)
        if self._ceiling_left > 0:
            self._ceiling_left -= 1
            if self._ceiling_left == 0:
                self._ceiling = self.max_limit
        self._new_epoch()

    def _sized(self, running: int) -> None:
        """Move to `headroom` times what the server runs at once (the ceiling if it ran all sent)."""
        assert self._sizing is not None
        sent = self._sizing.sent_at_once
        self._sizing = None
        self.running = running
        target = self.max_limit if running >= sent else math.ceil(running * self.cfg.headroom)
        # Fewer in flight than the server runs leaves batch slots empty: the probes stay above.
        self._floor = max(self.cfg.min_limit, min(running, self.max_limit))
        self._best = self._clamp(target)
        self._set(self._best)
        log.info("the server runs about %d requests at once (%d sent to it idle); %d in flight from now",
                 running, sent, self._limit)
        self._new_epoch()

    def _step_slow_start(self, level: int, goodput: float) -> None:
        previous = [lv for lv in self._goodput if lv < level]
        if previous:
            prev = max(previous)
            expected = self.cfg.slow_start_gain * (level / prev - 1)
            if goodput < self._goodput[prev] * (1 + expected):
                self._slow_start = False
                self._best = max(self._goodput, key=self._goodput.__getitem__)
                self._set(self._best)
                return
        self._best = max(self._goodput, key=self._goodput.__getitem__)
        if level >= min(self.max_limit, self._ceiling):
            self._slow_start = False
            self._set(self._best)
            return
        self._set(level * 2)

    def _step_probe(self, level: int, goodput: float) -> None:
        best_g = self._goodput.get(self._best, 0.0)
        if level > self._best and goodput > best_g * (1 + self.cfg.improve):
            self._best = level
        elif level < self._best and goodput >= best_g * (1 - self.cfg.keep):
            # As good with fewer requests: less latency, less server memory.
            self._best = level
        if level != self._best:
            self._set(self._best)  # refresh the best level between probes
            return
        step = max(1, round(self._best * self.cfg.probe_step))
        target = self._best + step if self._probe_up else max(self._floor, self._best - step)
        self._probe_up = not self._probe_up
        self._set(target)
        if self._limit == self._best:  # clamped: try the other side next time
            self._set(self._best - step if target > self._best else self._best + step)

    def _cut(self, now: float) -> None:
        # One cut per round trip: a burst of 503s is one overload, not many.
        if now - self._last_cut < self._round_trip():
            return
        self._last_cut = now
        self._sizing = None  # busy answers say more than the estimate could
        failed = self._limit
        self._ceiling = max(self.cfg.min_limit, math.floor(failed * 0.9))
        self._ceiling_left = self.cfg.ceiling_epochs
        self._slow_start = False
        self._best = self._clamp(math.floor(failed * self.cfg.backoff))
        # Goodput measured at or above the failing level is no longer trusted.
        for lv in [lv for lv in self._goodput if lv >= failed]:
            del self._goodput[lv]
            self._ratio.pop(lv, None)
        self._set(self._best)
        self._new_epoch()

    # -- helpers --------------------------------------------------------------

    def _record(self, level: int, goodput: float, ratio: float) -> None:
        a = self.cfg.smoothing
        old = self._goodput.get(level)
        self._goodput[level] = goodput if old is None else (1 - a) * old + a * goodput
        old_r = self._ratio.get(level)
        self._ratio[level] = ratio if old_r is None else (1 - a) * old_r + a * ratio

    def _round_trip(self) -> float:
        if self._n:
            return self._latency / self._n
        return self._last_latency

    def _set(self, level: int) -> None:
        self._limit = self._clamp(min(level, self._ceiling))

    def _clamp(self, level: int) -> int:
        return max(self.cfg.min_limit, min(self.max_limit, int(level)))

    def _new_epoch(self) -> None:
        if getattr(self, "_n", 0):
            self._last_latency = self._latency / self._n
        elif not hasattr(self, "_last_latency"):
            self._last_latency = 0.0
        self._epoch_start = self._clock()
        # Requests still out from the previous epoch; the cohort waits for them (on_done counts down).
        self._old = self._outstanding
        self._cohort_from = math.inf
        self._cohort_to = -math.inf
        self._sent = 0
        self._done_in_flight = 0
        self._n = 0
        self._audio = 0.0
        self._latency = 0.0


def limit_for(backend: Backend) -> InFlightLimit:
    """Return the in-flight limit for `backend`: adaptive below its concurrency, or fixed.

    The adaptive limit sizes itself from the first answers (two thirds of the backend's
    ceiling sent at once; sglomni: 64 of 96 per server), then probes around 1.5x what the
    server showed it runs at once and cuts on busy answers or ballooning latency. A search
    that climbs from 32 spent a 0.5 h book under 64 in flight (benchmark 1b); one that starts
    at the ceiling spent a short book on a stock server queueing 80 (issue 16).
    """
    maximum = max(1, int(backend.concurrency))
    if backend.adaptive and maximum > 1:
        return AdaptiveLimit(maximum, sizing=True)
    return FixedLimit(maximum)


__all__ = ["InFlightLimit", "FixedLimit", "AdaptiveConfig", "AdaptiveLimit", "limit_for"]
