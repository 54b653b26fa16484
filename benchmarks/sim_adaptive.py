"""The in-flight controller against the deterministic server model, in virtual time (issue 16).

For each server model and book length, prints the best fixed pool, fixed 96 per worker, and the
adaptive limit as the app starts it (`limit_for`: sizing from 64 of a 96 ceiling per worker), with
adaptive / best. The first rows are the issue's goal (calibrated and stock profiles at 20-1500
chunks); the rest check that the choice behaves elsewhere: answers whose speed varies, uniform and
widely mixed chunk lengths, other batch sizes, and two workers behind sglang-omni's router. The
client loop (`simulate()`, below) sends as the pipeline's scheduler does and hands each answer back
with the limiter's send ticket; tests/pipeline/test_adaptive.py asserts the table.

    .venv/bin/python -m benchmarks.sim_adaptive
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, replace

from app.pipeline.adaptive import AdaptiveLimit, FixedLimit, InFlightLimit
from benchmarks.loadgen_model import BatchServerModel, ModelParams, RouterModel

@dataclass
class SimResult:
    wall: float
    audio: float
    errors: int
    limits: list[tuple[float, int]]  # (time, limit) after each completion
    finish_order: list[int]

    @property
    def rtf(self) -> float:
        return self.audio / self.wall

    def mean_limit(self, after: float) -> float:
        tail = [lim for t, lim in self.limits if t >= after]
        return sum(tail) / len(tail)


def book_chunks(n: int, seed: int = 7) -> list[float]:
    """Return audio seconds of `n` chunks: mostly 6-14 s sentences groups, some long, some short."""
    rng = random.Random(seed)
    return [rng.choice((2.0, 5.0, 8.0, 10.0, 12.0, 20.0)) * rng.uniform(0.8, 1.2) for _ in range(n)]


def simulate(limit: InFlightLimit | None, chunks: list[float], params: ModelParams = ModelParams(),
             retry_after: float = 1.0, make_limit=None, workers: int = 1) -> SimResult:
    """Run a closed-loop client keeping `limit.limit` requests in the model; virtual time throughout.

    With `workers` > 1 the model is that many servers behind sglang-omni's router (least_request).
    """
    model = RouterModel(params, workers) if workers > 1 else BatchServerModel(params)
    if make_limit is not None:
        limit = make_limit(lambda: model.now)
    todo = deque(enumerate(chunks))
    in_flight: dict[int, tuple[int, float, float]] = {}  # server id -> (chunk, sent at, audio)
    retry: list[tuple[float, int, float]] = []
    tickets: dict[int, float] = {}  # server id -> the limiter's send ticket, as the scheduler keeps it
    errors, audio, limits, order = 0, 0.0, [], []
    while todo or in_flight or retry:
        for item in [r for r in retry if r[0] <= model.now]:
            retry.remove(item)
            todo.appendleft((item[1], item[2]))
        while todo and len(in_flight) < limit.limit:
            idx, secs = todo.popleft()
            rid = model.submit(secs)
            if rid is None:  # 503 queue full: retry this chunk later
                errors += 1
                limit.on_error()
                retry.append((model.now + retry_after, idx, secs))
                break
            in_flight[rid] = (idx, model.now, secs)
            tickets[rid] = limit.on_sent(len(in_flight))
        nxt = model.next_event()
        if retry:
            nxt = min(nxt, min(r[0] for r in retry))
        for rid, secs in model.advance(nxt):
            idx, sent, _ = in_flight.pop(rid)
            limit.on_done(model.now - sent, secs, len(in_flight) + 1, sent_at=tickets.pop(rid))
            audio += secs
            limits.append((model.now, limit.limit))
            order.append(idx)
    return SimResult(model.now, audio, errors, limits, order)


#: Fixed pools tried per worker; the best of them is the yardstick.
POOLS = (8, 12, 16, 20, 24, 32, 48, 64, 80, 96)
#: The app's ceiling per worker (app/backends/sglomni/backend.py DEFAULT_CONCURRENCY).
CEILING = 96
CALIBRATED = ModelParams()
STOCK = replace(ModelParams(), max_running=16, graph_bs=16)


@dataclass(frozen=True)
class Case:
    name: str
    params: ModelParams
    chunks: int
    workers: int = 1
    book: str = "mixed"  # mixed (2-24 s), uniform (10 s each), wide (1-40 s)


GOAL = [Case(name, params, n) for name, params in (("calibrated", CALIBRATED), ("stock 16/16", STOCK))
        for n in (20, 200, 420, 1500)]
ROBUSTNESS = [
    Case("calibrated, jitter 0.3", replace(CALIBRATED, service_jitter=0.3), 420),
    Case("stock, jitter 0.3", replace(STOCK, service_jitter=0.3), 420),
    Case("stock, jitter 0.3", replace(STOCK, service_jitter=0.3), 200),
    Case("stock, uniform 10 s", STOCK, 200, book="uniform"),
    Case("stock, wide 1-40 s", STOCK, 200, book="wide"),
    Case("calibrated, wide 1-40 s", CALIBRATED, 200, book="wide"),
    Case("32 running, graphs 32", replace(CALIBRATED, max_running=32, graph_bs=32), 420),
    Case("8 running, graphs 8", replace(CALIBRATED, max_running=8, graph_bs=8), 420),
    Case("64 running, graphs 16", replace(CALIBRATED, graph_bs=16), 420),
    Case("router, 2 x stock", STOCK, 420, workers=2),
    Case("router, 2 x calibrated", CALIBRATED, 420, workers=2),
]


def book_for(case: Case) -> list[float]:
    """Return the audio seconds of the case's chunks."""
    if case.book == "uniform":
        return [10.0] * case.chunks
    if case.book == "wide":
        rng = random.Random(11)
        return [rng.uniform(1.0, 40.0) for _ in range(case.chunks)]
    return book_chunks(case.chunks)


def run(case: Case) -> dict:
    """Return the case's fixed pools, the best of them, and the adaptive run (with what it sized)."""
    book = book_for(case)
    fixed = {k * case.workers: simulate(FixedLimit(k * case.workers), book, case.params, workers=case.workers).rtf
             for k in POOLS}
    best = max(fixed, key=fixed.get)
    made: list[AdaptiveLimit] = []

    def make(clock):
        made.append(AdaptiveLimit(CEILING * case.workers, clock=clock, sizing=True))
        return made[0]

    ad = simulate(None, book, case.params, make_limit=make, workers=case.workers)
    return {"fixed": fixed, "best": best, "adaptive": ad, "running": made[0].running}


def main() -> None:
    print("| server model | book | best fixed pool | fixed 96/worker | adaptive | adaptive / best | sized at |")
    print("|---|---|---|---|---|---|---|")
    for case in GOAL + ROBUSTNESS:
        r = run(case)
        fixed, best, ad = r["fixed"], r["best"], r["adaptive"]
        book = f"{case.chunks} chunks" + ("" if case.book == "mixed" else f" ({case.book})")
        print(f"| {case.name} | {book} | {fixed[best]:.2f}x ({best}) | {fixed[CEILING * case.workers]:.2f}x | "
              f"{ad.rtf:.2f}x | {ad.rtf / fixed[best]:.3f} | {r['running'] or '-'} |", flush=True)


if __name__ == "__main__":
    main()
