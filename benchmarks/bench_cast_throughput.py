"""Issue 25's speed goal: a cast book keeps the server's throughput (>= 0.97x the same book in one voice).

Starts the load generator (a real process on 127.0.0.1) reporting the Qwen3-TTS 0.6B
CustomVoice model (preset voices, so `--cast auto` gives each character one), and converts
the same chapters of a real book end to end through the real CLI, once with the run's one
voice and once with `--cast auto`, interleaved `--repeat` times against the one server (each
run with a fresh AUDIOBOOK_HOME, so nothing is cached). Prints, per run and as medians: audio
seconds per wall second (in model time: audio / (wall x time scale)), requests, and mean words
per request (the server's audio x its 2.6 words per second / requests: the load generator
models a request's audio from its words, with +-10% jitter that averages out), then the ratio
cast / one voice of the medians.

    .venv/bin/python -m benchmarks.bench_cast_throughput --chapters 1-8 --repeat 3 --time-scale 4
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
from benchmarks.loadgen_server import WORDS_PER_SECOND

BOOK = runcli.ROOT.parent / "shared/corpus/literature/standard-ebooks/jane-austen_pride-and-prejudice.epub"
MODEL = "qwen3_tts_0_6b_customvoice"
#: What a sgl-omni server with these weights reports in /v1/models (the catalog's model_path).
SERVED_ID = "Qwen/Qwen3-TTS-12Hz-0.6B-CustomVoice"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--book", default=str(BOOK))
    ap.add_argument("--chapters", default="1-8", help="the CLI's --chapters")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--time-scale", type=float, default=4.0)
    ap.add_argument("--port", type=int, default=8741)
    ap.add_argument("--cli", default="", help="extra CLI flags for every run")
    ap.add_argument("--loadgen", default="", help="extra load generator flags, e.g. '--max-running 16'")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-cast-"))
    print(runcli.machine(), flush=True)
    url = f"http://127.0.0.1:{args.port}"
    server = runcli.start_loadgen(args.port, args.time_scale, "--model-name", SERVED_ID,
                                  *shlex.split(args.loadgen))
    modes = {"one voice": [], "cast auto": ["--cast", "auto"]}
    results: dict[str, list[dict]] = {m: [] for m in modes}
    try:
        for rep in range(args.repeat):
            for mode, extra in modes.items():
                tag = mode.replace(" ", "-")
                cli = [args.book, "--chapters", args.chapters, "--backend", "sglomni", "--model", MODEL,
                       "--api-url", url, "--output", str(tmp / f"{tag}-{rep}.m4b"),
                       # The load generator speaks noise: hearing it is bench_verify's subject.
                       "--no-verify", *extra, *shlex.split(args.cli)]
                before = runcli.stats(args.port)
                run = runcli.run_cli(cli, tmp / f"home-{tag}-{rep}")
                after = runcli.stats(args.port)
                if run.returncode != 0:
                    raise SystemExit(f"{mode} failed:\n" + "\n".join(s for _, s in run.lines[-30:]))
                audio = after["audio"] - before["audio"]
                requests = after["requests"] - before["requests"]
                r = {"wall_s": round(run.wall, 2), "audio_s": round(audio, 1),
                     "rate": round(audio / (run.wall * args.time_scale), 2),
                     "requests": requests, "words_per_request": round(audio * WORDS_PER_SECOND / max(1, requests), 1),
                     # Start-up, reading, the cast pass and planning: the wall time before the first chunk's line.
                     "to_first_chunk_s": round(run.first("chunks ") or -1.0, 2),
                     # The CLI tree's CPU seconds: per-request work on the client (HTTP, WAV, the meter) grows with requests.
                     "client_cpu_s": round(run.cpu, 1),
                     "refused": after["refused"] - before["refused"], "load1": round(os.getloadavg()[0], 2)}
                results[mode].append(r)
                print(mode, rep, json.dumps(r), flush=True)
                time.sleep(1)
    finally:
        runcli.stop(server)
    med = {m: {k: statistics.median(r[k] for r in rs) for k in ("rate", "wall_s", "to_first_chunk_s", "client_cpu_s", "requests", "words_per_request")}
           for m, rs in results.items()}
    summary = {"median": med,
               "cast/one voice (rate)": round(med["cast auto"]["rate"] / med["one voice"]["rate"], 3),
               "cast/one voice (requests)": round(med["cast auto"]["requests"] / med["one voice"]["requests"], 3)}
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
