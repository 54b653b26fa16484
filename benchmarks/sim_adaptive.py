"""The in-flight controller against the deterministic server model, in virtual time (issue 16).

For the calibrated (64 running) and the stock (16 running) model and books of 20-1500 chunks, prints
the best fixed pool among 16-96, fixed 96, and the adaptive limit as the app starts it (at the
ceiling, 96), with adaptive / best. The client loop is `simulate()` of tests/pipeline/test_adaptive.py.

    .venv/bin/python -m benchmarks.sim_adaptive
"""
from __future__ import annotations

from dataclasses import replace

from app.pipeline.adaptive import AdaptiveLimit, FixedLimit
from benchmarks.loadgen_model import ModelParams
from tests.pipeline.test_adaptive import book_chunks, simulate

POOLS = (16, 24, 32, 48, 64, 96)


def main() -> None:
    stock = replace(ModelParams(), max_running=16, graph_bs=16)
    for name, params, sizes in (("calibrated", ModelParams(), (20, 200, 420)), ("stock 16/16", stock, (20, 200, 420, 1500))):
        for n in sizes:
            book = book_chunks(n)
            fixed = {k: simulate(FixedLimit(k), book, params).rtf for k in POOLS}
            best = max(fixed, key=fixed.get)
            ad = simulate(None, book, params, make_limit=lambda clock: AdaptiveLimit(96, clock=clock, start=96))
            print(f"{name:12} {n:5} chunks  best fixed {best:3} {fixed[best]:6.2f}x  fixed96 {fixed[96]:6.2f}x  "
                  f"adaptive {ad.rtf:6.2f}x = {ad.rtf / fixed[best]:.3f} of best, ends at {ad.limits[-1][1]}", flush=True)


if __name__ == "__main__":
    main()
