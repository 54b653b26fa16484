"""How far apart the Piper timbre variants sound: speaker-embedding distances (Resemblyzer), issue 31.

Two steps, in two venvs: the app's renders (Piper, ffmpeg), a venv of its own scores, because
Resemblyzer needs torch and torch never enters the app's venv.

    .venv/bin/python -m benchmarks.bench_timbres render /tmp/timbres
    ~/.cache/audiobook-bench-venv/bin/python benchmarks/bench_timbres.py score /tmp/timbres

The scoring venv (once): `python3 -m venv ~/.cache/audiobook-bench-venv` and
`~/.cache/audiobook-bench-venv/bin/pip install torch resemblyzer webrtcvad-wheels` (a CPU torch wheel
where the machine has one; Resemblyzer's wheel carries its encoder, nothing is downloaded).

render: each of SENTENCES (none of them heard while the variants were tuned) in the bundled voice as
it is (the narrator), in each variant of app/backends/piper/timbres.toml, and, for comparison, at the
first four speaking rates --cast auto gave characters before the variants (app/cast/voices.py
SPEED_STEPS): what "characters differ by speed alone" sounded like.
score: the cosine distance of Resemblyzer's utterance embeddings (1 - cos), for
- the same voice, two different sentences (how far one speaker drifts by what is said);
- two voices, the same sentence (how far apart the voices are), variants and rates apart.
"""
from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from pathlib import Path

SENTENCES = (
    "We walked along the river until the lamps were lit in the windows of the town.",
    "If you had told me that a week ago, I should have laughed at you.",
    "The letter was short, and it said nothing of the money or of the house.",
    "Nobody in the village could remember a colder spring than that one.",
)
#: The rates compared (the first four of app/cast/voices.py SPEED_STEPS, copied: no app import when scoring).
RATES = (0.86, 1.16, 0.92, 1.08)


def render(folder: Path) -> None:
    from app.audio import timbre as timbre_shift
    from app.audio.ffmpeg import ffmpeg_exe
    from app.backends.base import BackendOptions, VoiceOptions
    from app.backends.piper import timbres
    from app.backends.piper.backend import PiperBackend

    folder.mkdir(parents=True, exist_ok=True)
    piper = PiperBackend(BackendOptions())
    voices = {"narrator": "plain", **{v.name: "timbre" for v in timbres.catalogue()},
              **{f"rate{r:g}": "rate" for r in RATES}}
    for n, sentence in enumerate(SENTENCES):
        plain = folder / f"narrator-{n}.wav"
        piper.synthesize(sentence, 0, plain)
        for v in timbres.catalogue():
            timbre_shift.apply(v.timbre, plain, folder / f"{v.name}-{n}.wav", piper.sample_rate, ffmpeg_exe())
        for rate in RATES:
            piper.synthesize(sentence, 0, folder / f"rate{rate:g}-{n}.wav", VoiceOptions(speed=rate))
    (folder / "voices.json").write_text(json.dumps(voices, indent=1), encoding="utf-8")
    print(f"rendered {len(voices)} voices x {len(SENTENCES)} sentences into {folder}")


def score(folder: Path) -> None:
    import numpy as np
    from resemblyzer import VoiceEncoder, preprocess_wav

    voices = json.loads((folder / "voices.json").read_text(encoding="utf-8"))
    encoder = VoiceEncoder("cpu", verbose=False)
    embed = {(v, n): encoder.embed_utterance(preprocess_wav(folder / f"{v}-{n}.wav"))
             for v in voices for n in range(len(SENTENCES))}

    def distance(a, b) -> float:
        return 1.0 - float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))

    def same_voice(group: list[str]) -> list[float]:
        return [distance(embed[(v, i)], embed[(v, j)]) for v in group
                for i, j in itertools.combinations(range(len(SENTENCES)), 2)]

    def apart(group: list[str]) -> dict[tuple[str, str], float]:
        return {(a, b): statistics.mean(distance(embed[(a, n)], embed[(b, n)]) for n in range(len(SENTENCES)))
                for a, b in itertools.combinations(group, 2)}

    variants = [v for v, kind in voices.items() if kind == "timbre"]
    rates = [v for v, kind in voices.items() if kind == "rate"]
    rows = [("variants (+ narrator)", ["narrator", *variants]), ("variants only", variants),
            ("rates only (before)", rates)]
    print("| voices | n | same voice, two sentences: median | two voices, one sentence: median | closest pair |")
    print("| --- | ---: | ---: | ---: | --- |")
    for label, group in rows:
        pairs = apart(group)
        close = min(pairs, key=pairs.get)
        print(f"| {label} | {len(group)} | {statistics.median(same_voice(group)):.3f} | "
              f"{statistics.median(pairs.values()):.3f} | {close[0]}/{close[1]} {pairs[close]:.3f} |")
    print("\nEach variant against the narrator (mean over sentences):",
          ", ".join(f"{v} {d:.3f}" for (first, v), d in apart(["narrator", *variants]).items()
                    if first == "narrator"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("render", "score"))
    parser.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    (render if args.step == "render" else score)(args.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
