"""What hearing every chunk costs a run's throughput (issue 13).

The real CLI against the load generator (calibrated to the MOSS-TTS-Local guide, ~35x realtime at
its best concurrency), side by side and interleaved: `--no-verify`, then `--verify` listening
through the load generator's transcription route (a GPU ASR beside the TTS model, --asr-rtf),
and optionally `--verify` with the local CPU faster-whisper (`--local`), which shows why a GPU
server should listen on the GPU. Medians of `--repeat` runs; each run prints the 1-minute load.

    .venv/bin/python -m benchmarks.bench_verify --minutes 20 --repeat 3 [--local]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import runcli
from benchmarks.synthbook import write_book


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=20.0, help="book length in minutes of speech")
    ap.add_argument("--time-scale", type=float, default=1.0)
    ap.add_argument("--asr-rtf", type=float, default=150.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--port", type=int, default=8741)
    ap.add_argument("--local", action="store_true", help="also measure --verify with local faster-whisper")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-verify-"))
    book = write_book(tmp / "book.txt", args.minutes / 60, chapters=4)
    url = f"http://127.0.0.1:{args.port}"
    print(runcli.machine(), flush=True)
    server = runcli.start_loadgen(args.port, args.time_scale, "--asr-rtf", str(args.asr_rtf))
    modes = {"off": ["--no-verify"], "server": ["--verify", "--asr-url", url]}
    if args.local:
        modes["local"] = ["--verify"]
    results: dict[str, list[dict]] = {m: [] for m in modes}
    try:
        for rep in range(args.repeat):
            for mode, flags in modes.items():
                cli = [str(book), "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", url,
                       "--output", str(tmp / f"{mode}-{rep}.m4b"), *flags]
                before = runcli.stats(args.port)
                run = runcli.run_cli(cli, tmp / f"home-{mode}-{rep}")
                after = runcli.stats(args.port)
                if run.returncode not in (0, 4):
                    raise SystemExit(f"{mode} failed:\n" + "\n".join(s for _, s in run.lines[-20:]))
                audio = after["audio"] - before["audio"]
                r = {"wall_s": round(run.wall, 2), "audio_s": round(audio, 1),
                     "rtf": round(audio / (run.wall * args.time_scale), 2),
                     "transcriptions": after["transcriptions"] - before["transcriptions"],
                     "client_cpu": round(run.cpu_share, 2), "load1": round(os.getloadavg()[0], 2),
                     "exit": run.returncode}
                results[mode].append(r)
                print(mode, rep, json.dumps(r), flush=True)
                time.sleep(1)
    finally:
        runcli.stop(server)
    med = {m: statistics.median(r["rtf"] for r in rs) for m, rs in results.items()}
    summary = {"median_rtf": med, **{f"{m}/off": round(med[m] / med["off"], 3) for m in med if m != "off"}}
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
