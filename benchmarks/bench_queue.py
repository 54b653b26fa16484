"""Many books: books/hour for N short books as one queue against one long book of the same length.

Writes `--books` short synthetic books of `--hours / --books` hours each and one book of `--hours`
hours (same words per second, same chapter count in total), starts the load generator, and runs
the real CLI, interleaved `--repeat` times, each with a fresh AUDIOBOOK_HOME:

- queue: `audiobook.py SHORT_FOLDER/ --output OUT/ --backend sglomni --api-url ...` (one process)
- one:   `audiobook.py LONG.txt --output OUT/long.m4b ...`
- loop (with --modes ...,loop): the short books one CLI process after another, as a shell loop
  without the queue would convert them (the server drains at every book boundary)

Prints each run's wall time, audio produced at the server, model-time realtime factor and load,
then the ratio of medians: queue/one by throughput (the goal is >= 0.95) and by wall time.

    .venv/bin/python -m benchmarks.bench_queue --books 10 --hours 0.3 --time-scale 0.5 --repeat 3
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import runcli
from benchmarks.synthbook import write_book


def _server_args(url: str, extra: str) -> list[str]:
    # The load generator speaks noise: verification would only hear noise (bench_verify measures it).
    return ["--backend", "sglomni", "--model", "moss_tts_local", "--api-url", url, "--no-verify", *shlex.split(extra)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--books", type=int, default=10)
    ap.add_argument("--hours", type=float, default=0.3, help="total length of the short books = the long book")
    ap.add_argument("--time-scale", type=float, default=0.5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--port", type=int, default=8733)
    ap.add_argument("--modes", default="queue,one", help="any of queue, one, loop")
    ap.add_argument("--cli", default="", help="extra CLI flags for every run, e.g. '--no-master'")
    ap.add_argument("--chapters", type=int, default=3, help="chapters per book (each is one encode)")
    ap.add_argument("--loadgen", default="", help="extra load generator flags")
    args = ap.parse_args()
    modes = args.modes.split(",")

    tmp = Path(tempfile.mkdtemp(prefix="benchq-"))
    shelf = tmp / "shelf"
    shelf.mkdir()
    per_book_chapters = args.chapters
    shorts = [write_book(shelf / f"book{i:02d}.txt", args.hours / args.books, chapters=per_book_chapters, seed=100 + i)
              for i in range(args.books)]
    long = write_book(tmp / "long.txt", args.hours, chapters=per_book_chapters * args.books, seed=7)
    print(runcli.machine(), flush=True)
    print(f"{args.books} books of {args.hours / args.books * 60:.1f} min vs one of {args.hours * 60:.0f} min, "
          f"time-scale {args.time_scale}", flush=True)
    url = f"http://127.0.0.1:{args.port}"
    server = runcli.start_loadgen(args.port, args.time_scale, *shlex.split(args.loadgen))
    results: dict[str, list[dict]] = {}
    try:
        for rep in range(args.repeat):
            for mode in modes:
                home = tmp / f"home-{mode}-{rep}"
                out = tmp / f"out-{mode}-{rep}"
                before = runcli.stats(args.port)
                started = time.monotonic()
                if mode == "queue":
                    runs = [runcli.run_cli([str(shelf), "--output", f"{out}/", *_server_args(url, args.cli)], home)]
                elif mode == "one":
                    runs = [runcli.run_cli([str(long), "--output", str(out / "long.m4b"), *_server_args(url, args.cli)], home)]
                else:  # loop: one process per book, one after another
                    runs = [runcli.run_cli([str(b), "--output", f"{out}/", *_server_args(url, args.cli)], home) for b in shorts]
                wall = time.monotonic() - started
                after = runcli.stats(args.port)
                failed = [r for r in runs if r.returncode != 0]
                if failed:
                    raise SystemExit(f"{mode} failed:\n" + "\n".join(s for _, s in failed[0].lines[-30:]))
                audio = after["audio"] - before["audio"]
                # Synthesis ends at the last chunk line of any book (the queue tags lines "[i/n book] ").
                offset, last_chunk = 0.0, None
                for x in runs:
                    ends = [t for t, line in x.lines if line.startswith("chunks ") or "] chunks " in line]
                    if ends:
                        last_chunk = offset + max(ends)
                    offset += x.wall
                r = {"wall_s": round(wall, 2), "audio_s": round(audio, 1),
                     "rtf_model": round(audio / (wall * args.time_scale), 2),
                     # The long book counts as `--books` books: it holds as many words.
                     "books_per_hour": round(args.books * 3600 / wall, 1),
                     "requests": after["requests"] - before["requests"],
                     "last_chunk_s": round(last_chunk, 2) if last_chunk else None,
                     "rtf_synthesis": round(audio / (last_chunk * args.time_scale), 2) if last_chunk else None,
                     "client_cpu": round(sum(x.cpu for x in runs) / wall, 2),
                     "load1": round(os.getloadavg()[0], 2)}
                results.setdefault(mode, []).append(r)
                print(mode, rep, json.dumps(r), flush=True)
                time.sleep(1)
    finally:
        runcli.stop(server)
    med = {m: statistics.median(r["rtf_model"] for r in rs) for m, rs in results.items()}
    synth = {m: statistics.median(r["rtf_synthesis"] for r in rs) for m, rs in results.items()
             if all(r["rtf_synthesis"] for r in rs)}
    walls = {m: statistics.median(r["wall_s"] for r in rs) for m, rs in results.items()}
    summary: dict = {"median_rtf": med, "median_rtf_synthesis": synth, "median_wall": walls}
    for other in ("one", "loop"):
        if "queue" in med and other in med:
            summary[f"queue/{other} (throughput)"] = round(med["queue"] / med[other], 3)
            summary[f"{other}/queue (wall)"] = round(walls[other] / walls["queue"], 3)
        if "queue" in synth and other in synth:
            summary[f"queue/{other} (synthesis)"] = round(synth["queue"] / synth[other], 3)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
