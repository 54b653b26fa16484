"""Time reading and planning a hostile single-paragraph book (issue 17).

    python -m benchmarks.bench_planning --megabytes 2 --wrap      # hard-wrapped at 70 columns
    python -m benchmarks.bench_planning --megabytes 50            # one line

Before issue 17 a 2 MB hard-wrapped text took 57 s before "Converting" (quadratic
line joining and sentence windows) and a 50 MB one-line text never got there.
The text is prose with an abbreviation every 50 sentences, so pysbd still has work.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import textwrap
import time
from pathlib import Path

WORDS = "the harbour light turned slowly over grey water while gulls cried above the stone pier".split()


def paragraph(megabytes: float) -> str:
    """Return one paragraph of about `megabytes` MB of sentences."""
    parts, size, i = [], 0, 0
    while size < megabytes * 1e6:
        s = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(8 + i % 17)).capitalize()
        s += " Mr. Smith agreed." if i % 50 == 0 else "."
        parts.append(s)
        size += len(s) + 1
        i += 1
    return " ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--megabytes", type=float, default=2.0)
    ap.add_argument("--wrap", action="store_true", help="hard-wrap at 70 columns (one paragraph still)")
    ap.add_argument("--chunk-size", type=int, default=40)
    args = ap.parse_args()
    from app.book import load_book
    from app.pipeline.plan import make_plan

    text = paragraph(args.megabytes)
    if args.wrap:
        text = "\n".join(textwrap.wrap(text, 70))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "wall.txt"
        path.write_text("Chapter 1: The Wall\n\n" + text + "\n", encoding="utf-8")
        started = time.monotonic()
        book = load_book(path)
        loaded = time.monotonic()
        plan = make_plan(book, {}, chunk_size=args.chunk_size, fmt="m4b", output=Path(tmp) / "wall.m4b")
        done = time.monotonic()
    print(f"{args.megabytes:g} MB "
          f"{'hard-wrapped' if args.wrap else 'one line'}: read {loaded - started:.1f} s, "
          f"plan {done - loaded:.1f} s ({len(plan.chunks)} chunks), load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
