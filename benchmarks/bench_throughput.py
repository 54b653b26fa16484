"""Benchmark 1: whole-book conversion through the real CLI, adaptive vs --concurrency 96 vs serial.

Starts the load generator, writes a synthetic book, and runs `audiobook.py BOOK --backend sglomni
--model moss_tts_local --api-url ...` (each run with a fresh AUDIOBOOK_HOME) with no concurrency
flag, with --concurrency 96, and with --concurrency 1 on a shorter book, interleaved `--repeat`
times, all against one server. Prints the realtime factor in model time (audio seconds the server
produced / (wall seconds x time scale)), the client tree's and the server's CPU use, and ratios of
medians.

    .venv/bin/python -m benchmarks.bench_throughput --hours 1 --serial-hours 0.02 --time-scale 1
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



def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hours", type=float, default=1.0)
    ap.add_argument("--serial-hours", type=float, default=0.02)
    ap.add_argument("--time-scale", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--port", type=int, default=8732)
    ap.add_argument("--entry", default=str(runcli.ROOT / "audiobook.py"),
                    help="CLI script to run (a what-if wrapper such as benchmarks/whatif_cohort_fix.py)")
    ap.add_argument("--modes", default="adaptive,fixed,serial", help="any of adaptive, fixed, serial")
    ap.add_argument("--fixed", default="96",
                    help="the fixed pool(s) to compare with (--concurrency N), comma-separated: 16,32,64")
    ap.add_argument("--cli", default="", help="extra CLI flags for every run, e.g. '--no-master'")
    ap.add_argument("--chapters", type=int, default=30, help="chapters of the book (each is one encode)")
    ap.add_argument("--loadgen", default="", help="extra load generator flags, e.g. '--max-running 16'")
    args = ap.parse_args()
    pools = [int(n) for n in args.fixed.split(",")]
    fixed_modes = [f"fixed{n}" for n in pools]
    modes = (("adaptive", None), *((f"fixed{n}", n) for n in pools), ("serial", 1))
    wanted = set()
    for m in args.modes.split(","):
        wanted |= set(fixed_modes) if m == "fixed" else {m}

    tmp = Path(tempfile.mkdtemp(prefix="bench1-"))
    book = write_book(tmp / "book.txt", args.hours, chapters=args.chapters)
    small = write_book(tmp / "small.txt", args.serial_hours, chapters=3)
    print(runcli.machine(), flush=True)
    url = f"http://127.0.0.1:{args.port}"
    server = runcli.start_loadgen(args.port, args.time_scale, *shlex.split(args.loadgen))
    results: dict[str, list[dict]] = {}
    try:
        for rep in range(args.repeat):
            for mode, conc in modes:
                if mode not in wanted:
                    continue
                src = small if mode == "serial" else book
                cli = [str(src), "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", url,
                       "--output", str(tmp / f"{mode}-{rep}.m4b"),
                       # The load generator speaks noise: hearing it is bench_verify's subject, not this one's.
                       "--no-verify", *shlex.split(args.cli)]
                if conc:
                    cli += ["--concurrency", str(conc)]
                before, s_cpu0 = runcli.stats(args.port), runcli.proc_cpu(server.pid)
                with runcli.InFlightSampler(args.port) as sampler:
                    run = runcli.run_cli(cli, tmp / f"home-{mode}-{rep}", entry=Path(args.entry))
                after, s_cpu1 = runcli.stats(args.port), runcli.proc_cpu(server.pid)
                if run.returncode != 0:
                    raise SystemExit(f"{mode} failed:\n" + "\n".join(s for _, s in run.lines[-30:]))
                audio = after["audio"] - before["audio"]
                r = {"wall_s": round(run.wall, 2), "audio_s": round(audio, 1),
                     "rtf_model": round(audio / (run.wall * args.time_scale), 2),
                     "client_cpu": round(run.cpu_share, 2),
                     "server_cpu": round((s_cpu1 - s_cpu0) / run.wall, 2),
                     "requests": after["requests"] - before["requests"],
                     "refused": after["refused"] - before["refused"], "load1": round(os.getloadavg()[0], 2),
                     **sampler.summary(),
                     **(run.tail() or {})}
                results.setdefault(mode, []).append(r)
                print(mode, rep, json.dumps(r), flush=True)
                time.sleep(1)
    finally:
        runcli.stop(server)
    med = {m: statistics.median(r["rtf_model"] for r in rs) for m, rs in results.items()}
    summary = {"median_rtf": med}
    fixed_med = {m: med[m] for m in fixed_modes if m in med}
    if fixed_med:
        best = max(fixed_med, key=fixed_med.__getitem__)
        summary["best fixed"] = best
    if "adaptive" in med:
        last = {m: statistics.median(r["last_chunk_s"] for r in rs if "last_chunk_s" in r)
                for m, rs in results.items() if any("last_chunk_s" in r for r in rs)}
        walls = {m: statistics.median(r["wall_s"] for r in rs) for m, rs in results.items()}
        for fixed in fixed_med:
            summary[f"adaptive/{fixed} (RTF)"] = round(med["adaptive"] / med[fixed], 3)
            summary[f"wall {fixed}/adaptive"] = round(walls[fixed] / walls["adaptive"], 3)
            if fixed in last and "adaptive" in last:
                summary[f"last chunk {fixed}/adaptive"] = round(last[fixed] / last["adaptive"], 3)
    if "adaptive" in med and "serial" in med:
        summary["adaptive/serial"] = round(med["adaptive"] / med["serial"], 1)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
