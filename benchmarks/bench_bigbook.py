"""Benchmarks 2-4: peak RSS, tail share and cached re-run of a synthetic 10-hour book through the CLI.

Starts the load generator (48 kHz stereo WAV), writes a `--hours` book, converts it once with
`audiobook.py BOOK --backend sglomni --model moss_tts_local --api-url ...` (no concurrency flag)
while polling the CLI's process tree (Python process VmHWM, each ffmpeg child's VmHWM, largest
tree RSS sum), takes the tail from the progress lines (last 'chunks' line -> 'done:'), then runs
the same command `--reruns` times against the filled cache and times each.

    .venv/bin/python -m benchmarks.bench_bigbook --hours 10 --time-scale 1 --reruns 3
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path

from benchmarks import runcli
from benchmarks.synthbook import write_book


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hours", type=float, default=10.0)
    ap.add_argument("--time-scale", type=float, default=1.0)
    ap.add_argument("--reruns", type=int, default=3)
    ap.add_argument("--port", type=int, default=8733)
    ap.add_argument("--concurrency", type=int, default=0, help="pin in-flight requests (0: adaptive default)")
    ap.add_argument("--cli-args", default="", help="more CLI flags, one string (e.g. \"--no-master\")")
    ap.add_argument("--keep", action="store_true", help="keep the temp folder (cache is ~7 GB for 10 h)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench2-"))
    book = write_book(tmp / "book.txt", args.hours)
    print(runcli.machine(), flush=True)
    url = f"http://127.0.0.1:{args.port}"
    home = tmp / "home"
    cli = [str(book), "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", url,
           # The load generator speaks noise: nothing to hear (verification, on by default for server
           # models since issue 13, would retake every chunk on the CPU recognizer).
           "--output", str(tmp / "book.m4b"), "--no-verify"] + (["--concurrency", str(args.concurrency)] if args.concurrency else []) + args.cli_args.split()
    server = runcli.start_loadgen(args.port, args.time_scale, max_seconds=7200)
    try:
        before = runcli.stats(args.port)
        with runcli.InFlightSampler(args.port, period=5) as sampler:
            run = runcli.run_cli(cli, home, timeout=7200, poll=0.2)
        after = runcli.stats(args.port)
        if run.returncode != 0:
            raise SystemExit("first run failed:\n" + "\n".join(s for _, s in run.lines[-30:]))
        audio = after["audio"] - before["audio"]
        first = {"wall_s": round(run.wall, 1), "audio_s": round(audio, 1),
                 "rtf_wall": round(audio / run.wall, 2), "client_cpu": round(run.cpu_share, 2),
                 "python_hwm_mb": round(run.main_hwm_mb, 1), "ffmpeg_hwm_mb": round(run.ffmpeg_hwm_mb, 1),
                 "ffmpeg_children": run.ffmpeg_count, "tree_peak_mb": round(run.tree_peak_mb, 1),
                 "load1": round(os.getloadavg()[0], 2), **sampler.summary(), **(run.tail() or {})}
        print("first", json.dumps(first), flush=True)
        reruns = []
        for i in range(args.reruns):
            r = runcli.run_cli(cli, home, timeout=600)
            if r.returncode != 0:
                raise SystemExit("re-run failed:\n" + "\n".join(s for _, s in r.lines[-30:]))
            reruns.append(r.wall)
            print("rerun", i, json.dumps({"wall_s": round(r.wall, 2), "python_hwm_mb": round(r.main_hwm_mb, 1),
                                          "ffmpeg_hwm_mb": round(r.ffmpeg_hwm_mb, 1),
                                          "to_converting_s": round(r.first("Converting") or -1, 2),
                                          "to_writing_s": round(r.first("writing ") or -1, 2),
                                          "requests": runcli.stats(args.port)["requests"] - after["requests"]}),
                  flush=True)
        print(json.dumps({"peak_python_mb": first["python_hwm_mb"], "peak_tree_mb": first["tree_peak_mb"],
                          "tail_share": first.get("tail_share"),
                          "rerun_median_s": round(statistics.median(reruns), 2) if reruns else None}))
    finally:
        runcli.stop(server)
        if not args.keep:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
