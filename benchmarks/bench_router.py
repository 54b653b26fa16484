"""Scale-out: two servers behind sglang-omni's own router vs the same two as two --api-urls vs one.

Starts two load generators (each the same modelled server) and `sgl-omni-router-py` from the
sglang-omni 0.1.9 wheel (the conformance venv: `bash tests/conformance/env.sh` prints it) in front
of both, then converts one synthetic book through the real CLI, interleaved `--repeat` times, each
with a fresh AUDIOBOOK_HOME:

- one:       --api-url SERVER_A
- two-urls:  --api-url SERVER_A --api-url SERVER_B   (the client's own pool spreads the requests)
- router:    --api-url ROUTER                        (the router spreads them; the client sees one server)
- router-2x: --api-url ROUTER --concurrency 2 x the per-server ceiling (what the client would need
             to know to fill two servers behind one address)

Throughput is the realtime factor in model time, the audio both servers produced per wall second;
the ratios of medians against `one` are the figures. No balancer of our own: the router is upstream's.

    .venv/bin/python -m benchmarks.bench_router --hours 0.2 --time-scale 0.5 --repeat 2
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

from app.core import proc
from benchmarks import runcli
from benchmarks.synthbook import write_book

#: The client's ceiling per server (app/backends/sglomni: the guide's knee), for router-2x.
PER_SERVER = 96


def conformance_venv() -> Path:
    """Return the conformance venv (built once, cached), where sgl-omni-router-py lives."""
    out = subprocess.run(["bash", str(runcli.ROOT / "tests" / "conformance" / "env.sh")], capture_output=True,
                         text=True, check=True, timeout=3600)
    return Path(out.stdout.strip().splitlines()[-1])


def start_router(port: int, workers: list[str], log: Path) -> subprocess.Popen:
    """Start sgl-omni-router-py on 127.0.0.1:`port` in front of `workers`; return once it is ready."""
    exe = conformance_venv() / "bin" / "sgl-omni-router-py"
    fh = open(log, "wb")
    router = proc.spawn([str(exe), "--host", "127.0.0.1", "--port", str(port), "--worker-urls", *workers,
                         "--policy", "least_request", "--health-check-interval-secs", "2",
                         "--log-level", "warning"], stdout=fh, new_session=True)
    fh.close()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if router.poll() is not None:
            raise SystemExit(f"the router exited with {router.returncode}: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2, trust_env=False).status_code == 200:
                return router
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    runcli.stop(router)
    raise SystemExit(f"the router never answered /v1/models: {log.read_text()[-2000:]}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hours", type=float, default=0.2)
    ap.add_argument("--time-scale", type=float, default=0.5)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--port", type=int, default=8751, help="first of four ports: server A, B, router")
    ap.add_argument("--modes", default="one,two-urls,router,router-2x")
    ap.add_argument("--cli", default="", help="extra CLI flags for every run, e.g. '--no-master'")
    ap.add_argument("--chapters", type=int, default=3, help="chapters per book (each is one encode)")
    ap.add_argument("--loadgen", default="", help="extra load generator flags (both servers)")
    args = ap.parse_args()
    modes = args.modes.split(",")

    tmp = Path(tempfile.mkdtemp(prefix="benchr-"))
    book = write_book(tmp / "book.txt", args.hours, chapters=args.chapters)
    print(runcli.machine(), flush=True)
    ports = [args.port, args.port + 1]
    urls = [f"http://127.0.0.1:{p}" for p in ports]
    servers = [runcli.start_loadgen(p, args.time_scale, *shlex.split(args.loadgen)) for p in ports]
    router_url = f"http://127.0.0.1:{args.port + 2}"
    router = None
    results: dict[str, list[dict]] = {}
    try:
        router = start_router(args.port + 2, urls, tmp / "router.log")
        flags = {"one": ["--api-url", urls[0]],
                 "two-urls": ["--api-url", urls[0], "--api-url", urls[1]],
                 "router": ["--api-url", router_url],
                 "router-2x": ["--api-url", router_url, "--concurrency", str(2 * PER_SERVER)]}
        for rep in range(args.repeat):
            for mode in modes:
                cli = [str(book), "--backend", "sglomni", "--model", "moss_tts_local", *flags[mode],
                       "--output", str(tmp / f"{mode}-{rep}.m4b"), "--no-verify", *shlex.split(args.cli)]
                before = [runcli.stats(p) for p in ports]
                run = runcli.run_cli(cli, tmp / f"home-{mode}-{rep}")
                after = [runcli.stats(p) for p in ports]
                if run.returncode != 0:
                    raise SystemExit(f"{mode} failed:\n" + "\n".join(s for _, s in run.lines[-30:]))
                audio = [a["audio"] - b["audio"] for a, b in zip(after, before)]
                r = {"wall_s": round(run.wall, 2), "audio_s": round(sum(audio), 1),
                     "rtf_model": round(sum(audio) / (run.wall * args.time_scale), 2),
                     "share_a": round(audio[0] / sum(audio), 2) if sum(audio) else None,
                     "requests": sum(a["requests"] - b["requests"] for a, b in zip(after, before)),
                     "client_cpu": round(run.cpu_share, 2), "load1": round(os.getloadavg()[0], 2),
                     **(run.tail() or {})}
                # Synthesis alone (to the last chunk): the encoders' share of a loaded 2-core client is
                # the same in every mode and would hide the servers' difference.
                if r.get("last_chunk_s"):
                    r["rtf_synthesis"] = round(sum(audio) / (r["last_chunk_s"] * args.time_scale), 2)
                results.setdefault(mode, []).append(r)
                print(mode, rep, json.dumps(r), flush=True)
                time.sleep(1)
    finally:
        if router is not None:
            runcli.stop(router)
        for s in servers:
            runcli.stop(s)
    summary: dict = {}
    for key in ("rtf_model", "rtf_synthesis"):
        med = {m: statistics.median(r[key] for r in rs) for m, rs in results.items() if all(key in r for r in rs)}
        summary[f"median {key}"] = med
        for m in med:
            if m != "one" and "one" in med:
                summary[f"{m}/one ({key})"] = round(med[m] / med["one"], 3)
        if "two-urls" in med and "router" in med:
            summary[f"router/two-urls ({key})"] = round(med["router"] / med["two-urls"], 3)
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
