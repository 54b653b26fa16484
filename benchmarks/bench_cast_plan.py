"""Time planning a novel with and without a cast (issue 25): finding the cast, cutting speakers, keying.

    python -m benchmarks.bench_cast_plan                      # Pride and Prejudice from the shared corpus
    python -m benchmarks.bench_cast_plan --book BOOK --runs 3

Planning runs through app.convert.prepare on Piper (no synthesis), with --no-cache so
the plan memo does not answer; prints the seconds, chunks, and chunks in a cast voice.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOVEL = ROOT.parent / "shared" / "corpus" / "literature" / "standard-ebooks" / "jane-austen_pride-and-prejudice.epub"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--book", type=Path, default=NOVEL)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    from app.core import settings as settings_mod
    from app.request import ConvertRequest, build_backend
    from app.convert import prepare

    conf = settings_mod.load()
    out = Path(tempfile.mkdtemp()) / "book.m4b"
    for cast in (None, "auto"):
        seconds = []
        for _ in range(args.runs):
            req = ConvertRequest(book=args.book, cast=cast, output=out, no_cache=True)
            start = time.perf_counter()
            plan = prepare(req, conf, lambda options, req=req: build_backend(req, conf, options)).plan
            seconds.append(time.perf_counter() - start)
        voiced = sum(1 for pc in plan.chunks if pc.voice is not None)
        print(f"--cast {cast or '(none)':6}  {statistics.median(seconds):5.2f} s median of {args.runs}  "
              f"{len(plan.chunks)} chunks, {voiced} in a cast voice")


if __name__ == "__main__":
    main()
