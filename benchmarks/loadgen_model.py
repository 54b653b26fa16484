"""A continuous-batching TTS server as a discrete-event model on an explicit clock.

Used by the load generator (driven by the wall clock) and by unit tests
(driven by a virtual clock), so both see the same server. Calibrated to the
MOSS-TTS-Local A100 guide, section 7.3:

- a request waits in a queue until one of `max_running` batch slots frees,
  then prefills, then decodes one codec frame per step together with every
  other running request;
- a decode step costs about the same at any batch size up to the CUDA-graph
  batch size (`graph_step_ms` + a small per-sequence slope, so a single
  stream runs near the ~1x of the guide's serial loop) and the eager
  ~22 ms/frame beyond it;
- finished frames go through a vocoder stage of `vocoder_batch` slots;
- each waiting request beyond `queue_free` adds scheduler work to every step
  (the guide's "queue thrash" that makes 128 in flight slower than 96);
- with `max_queued` > 0, requests beyond running + queued are refused (503).

With the defaults the aggregate realtime factor is ~1x at 1 in flight, ~31x
at 64, ~35x at 96 (the peak) and ~30x at 128, the guide's curve.
"""
from __future__ import annotations

import heapq
import itertools
import random
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ModelParams:
    """Server parameters; defaults are the guide's +MRR+graphs configuration."""

    max_running: int = 64
    graph_bs: int = 64
    graph_step_ms: float = 3.9
    graph_step_ms_per_seq: float = 0.06
    eager_step_ms: float = 22.0
    frames_per_audio_second: float = 230.0
    prefill_ms: float = 40.0
    vocoder_batch: int = 16
    vocoder_ms: float = 100.0
    vocoder_ms_per_audio_second: float = 130.0
    queue_free: int = 32
    thrash_ms_per_waiting: float = 0.06
    max_queued: int = 0
    #: Each request's decode work times a factor drawn from [1 - j, 1 + j] (seeded): answers whose
    #: seconds per audio second vary, as prompts, references and batch neighbours make them vary.
    service_jitter: float = 0.0

    def step_seconds(self, batch: int, waiting: int) -> float:
        """Return the wall time of one decode step for `batch` running and `waiting` queued requests."""
        if batch <= self.graph_bs:
            ms = self.graph_step_ms + self.graph_step_ms_per_seq * batch
        else:
            ms = self.eager_step_ms
        ms += self.thrash_ms_per_waiting * max(0, waiting - self.queue_free)
        return ms / 1000.0


@dataclass
class _Request:
    rid: int
    audio_seconds: float
    frames_left: float
    phase: str = "queued"


@dataclass
class BatchServerModel:
    """The server's state; call submit() and advance(now) with one monotonic clock."""

    params: ModelParams = field(default_factory=ModelParams)
    now: float = 0.0

    def __post_init__(self) -> None:
        self._ids = itertools.count()
        self._queue: deque[_Request] = deque()
        self._decoding: dict[int, _Request] = {}
        self._prefilling = 0
        self._vocoder_busy = 0
        self._vocoder_wait: deque[_Request] = deque()
        self._timers: list[tuple[float, int, str, _Request]] = []
        self._seq = itertools.count()
        self.finished_audio = 0.0
        self._rng = random.Random(0)

    # -- inputs ---------------------------------------------------------------

    @property
    def in_system(self) -> int:
        return (len(self._queue) + self._prefilling + len(self._decoding) + self._vocoder_busy
                + len(self._vocoder_wait))

    def submit(self, audio_seconds: float) -> int | None:
        """Accept a request for `audio_seconds` of speech; return its id, or None when the queue is full."""
        p = self.params
        if p.max_queued > 0 and len(self._queue) >= p.max_queued and self._running() >= p.max_running:
            return None
        frames = audio_seconds * p.frames_per_audio_second
        if p.service_jitter:
            frames *= self._rng.uniform(1 - p.service_jitter, 1 + p.service_jitter)
        req = _Request(next(self._ids), audio_seconds, max(1.0, frames))
        self._queue.append(req)
        self._admit()
        return req.rid

    # -- the clock ------------------------------------------------------------

    def next_event(self) -> float:
        """Return the model time of the next internal event (inf when idle)."""
        t = self._timers[0][0] if self._timers else float("inf")
        if self._decoding:
            step = self.params.step_seconds(len(self._decoding), len(self._queue))
            least = min(r.frames_left for r in self._decoding.values())
            t = min(t, self.now + least * step)
        return t

    def advance(self, until: float) -> list[tuple[int, float]]:
        """Run the model to time `until`; return (id, audio seconds) of requests that finished."""
        done: list[tuple[int, float]] = []
        while True:
            t = self.next_event()
            if t > until:
                self._decode(until - self.now)
                self.now = max(self.now, until)
                return done
            self._decode(t - self.now)
            self.now = t
            self._fire(done)

    # -- internals ------------------------------------------------------------

    def _running(self) -> int:
        return self._prefilling + len(self._decoding)

    def _admit(self) -> None:
        while self._queue and self._running() < self.params.max_running:
            req = self._queue.popleft()
            req.phase = "prefill"
            self._prefilling += 1
            self._timer(self.now + self.params.prefill_ms / 1000.0, "prefilled", req)

    def _timer(self, when: float, kind: str, req: _Request) -> None:
        heapq.heappush(self._timers, (when, next(self._seq), kind, req))

    def _decode(self, dt: float) -> None:
        if dt <= 0 or not self._decoding:
            return
        steps = dt / self.params.step_seconds(len(self._decoding), len(self._queue))
        for req in self._decoding.values():
            req.frames_left -= steps

    def _fire(self, done: list[tuple[int, float]]) -> None:
        eps = 1e-9
        for rid in [rid for rid, r in self._decoding.items() if r.frames_left <= eps]:
            req = self._decoding.pop(rid)
            self._vocoder_wait.append(req)
        while self._timers and self._timers[0][0] <= self.now + eps:
            _, _, kind, req = heapq.heappop(self._timers)
            if kind == "prefilled":
                self._prefilling -= 1
                req.phase = "decode"
                self._decoding[req.rid] = req
            elif kind == "vocoded":
                self._vocoder_busy -= 1
                self.finished_audio += req.audio_seconds
                done.append((req.rid, req.audio_seconds))
        p = self.params
        while self._vocoder_wait and self._vocoder_busy < p.vocoder_batch:
            req = self._vocoder_wait.popleft()
            self._vocoder_busy += 1
            cost = (p.vocoder_ms + p.vocoder_ms_per_audio_second * req.audio_seconds) / 1000.0
            self._timer(self.now + cost, "vocoded", req)
        self._admit()


class RouterModel:
    """Several server models behind one address, routed as sglang-omni's router does.

    `sgl-omni-router-py --policy least_request` sends each request to the worker with the
    fewest requests outstanding, round robin among ties (sglang_omni_router selector.py).
    Same interface as BatchServerModel, one clock for all workers.
    """

    def __init__(self, params: ModelParams, workers: int):
        self.workers = [BatchServerModel(params) for _ in range(max(1, workers))]
        self._ids = itertools.count()
        self._route: dict[tuple[int, int], int] = {}  # (worker, its id) -> router id
        self._rr = 0

    @property
    def now(self) -> float:
        return self.workers[0].now

    @property
    def finished_audio(self) -> float:
        return sum(w.finished_audio for w in self.workers)

    def submit(self, audio_seconds: float) -> int | None:
        """Route a request to the least loaded worker; return its id, or None when that one is full."""
        least = min(w.in_system for w in self.workers)
        ties = [i for i, w in enumerate(self.workers) if w.in_system == least]
        index = ties[self._rr % len(ties)]
        self._rr += 1
        rid = self.workers[index].submit(audio_seconds)
        if rid is None:
            return None
        router_id = next(self._ids)
        self._route[(index, rid)] = router_id
        return router_id

    def next_event(self) -> float:
        return min(w.next_event() for w in self.workers)

    def advance(self, until: float) -> list[tuple[int, float]]:
        done = []
        for index, worker in enumerate(self.workers):
            for rid, audio in worker.advance(until):
                done.append((self._route.pop((index, rid)), audio))
        return done


def steady_rtf(in_flight: int, params: ModelParams = ModelParams(), *, requests: int = 1200,
               clip_seconds: tuple[float, ...] = (4.0, 14.0)) -> float:
    """Return the aggregate realtime factor of a closed loop keeping `in_flight` requests in the model."""
    model = BatchServerModel(params)
    clips = itertools.cycle(clip_seconds)
    sent = 0
    for _ in range(in_flight):
        model.submit(next(clips))
        sent += 1
    finished = 0
    warm = requests // 5
    t_warm = a_warm = 0.0
    while finished < requests:
        for _rid, _audio in model.advance(model.next_event()):
            finished += 1
            if finished == warm:
                t_warm, a_warm = model.now, model.finished_audio
            if sent < requests + in_flight:
                model.submit(next(clips))
                sent += 1
    return (model.finished_audio - a_warm) / (model.now - t_warm)


if __name__ == "__main__":
    for n in (1, 16, 32, 48, 64, 80, 96, 112, 128, 160):
        print(n, round(steady_rtf(n), 1))
