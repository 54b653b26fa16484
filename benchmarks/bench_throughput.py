"""Benchmark 1: whole-book conversion, adaptive vs a fixed 96-in-flight pool vs serial, side by side.

Starts the load generator (time-scaled), writes a synthetic book, converts it through
app.convert.convert() with the benchmark HTTP backend (benchmarks/httpbackend.py), each mode
in its own process with a fresh AUDIOBOOK_HOME, and prints realtime factors in model time.

    .venv/bin/python -m benchmarks.bench_throughput --hours 1 --serial-hours 0.05 --time-scale 3
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import httpx

from app import proc

ROOT = Path(__file__).resolve().parents[1]


def child(args: argparse.Namespace) -> None:
    from app import backends
    from app.convert import ConvertRequest, convert

    backends.REGISTRY["loadgen"] = "benchmarks.httpbackend:create"
    started = time.monotonic()
    out = convert(ConvertRequest(book=Path(args.book), output=Path(args.out), backend="loadgen",
                                 api_urls=(args.url,), concurrency=args.concurrency or None))
    print(json.dumps({"wall": time.monotonic() - started, "out": str(out)}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hours", type=float, default=1.0)
    ap.add_argument("--serial-hours", type=float, default=0.05)
    ap.add_argument("--time-scale", type=float, default=3.0)
    ap.add_argument("--port", type=int, default=8732)
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--book"), ap.add_argument("--out"), ap.add_argument("--url")
    ap.add_argument("--concurrency", type=int, default=0)
    args = ap.parse_args()
    if args.child:
        return child(args)
    from benchmarks.synthbook import write_book

    tmp = Path(tempfile.mkdtemp(prefix="bench1-"))
    book = write_book(tmp / "book.txt", args.hours)
    small = write_book(tmp / "small.txt", args.serial_hours, chapters=3)
    url = f"http://127.0.0.1:{args.port}"
    server = proc.spawn([sys.executable, "-m", "benchmarks.loadgen_server", "--port", str(args.port),
                         "--time-scale", str(args.time_scale), "--max-seconds", "3000"], new_session=True)
    try:
        for _ in range(100):
            try:
                httpx.get(url + "/health", timeout=1, trust_env=False)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        results = {}
        for mode, conc, src in (("adaptive", 0, book), ("fixed96", 96, book), ("serial", 1, small)):
            home = tmp / f"home-{mode}"
            home.mkdir()
            before = httpx.get(url + "/stats", trust_env=False).json()
            r = proc.run([sys.executable, "-m", "benchmarks.bench_throughput", "--child", "--book", str(src),
                          "--out", str(tmp / f"{mode}.m4b"), "--url", url, "--concurrency", str(conc)],
                         env={"AUDIOBOOK_HOME": str(home)}, cwd=ROOT, timeout=3000)
            after = httpx.get(url + "/stats", trust_env=False).json()
            if r.returncode != 0:
                raise SystemExit(f"{mode} failed:\n{r.stdout.decode()[-3000:]}\n{(r.stderr or b'').decode()[-3000:]}")
            wall = json.loads(r.stdout.decode().strip().splitlines()[-1])["wall"]
            audio = after["audio"] - before["audio"]
            results[mode] = {"wall_s": round(wall, 2), "audio_s": round(audio, 1),
                             "rtf_model": round(audio / (wall * args.time_scale), 2),
                             "refused": after["refused"] - before["refused"]}
            print(mode, results[mode], flush=True)
        a, f, s = (results[m]["rtf_model"] for m in ("adaptive", "fixed96", "serial"))
        print(json.dumps({"adaptive/fixed96": round(a / f, 3), "adaptive/serial": round(a / s, 1), **results}))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
