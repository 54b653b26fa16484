"""How often verification catches a take said wrong, and how often it rejects a clean one (issue 13).

Sentences drawn at random (seeded) from real books are said by the test double's speech (real
Piper, one take per seed, tests/sglomni/double/server.py) four ways: as written, and with each of
the double's garbles (half skipped, a phrase said three times, silence for the second half). The
bundled tiny.en hears every take once; each transcript is then scored twice side by side, with the
echo rule (a phrase heard twice in a row is a repeat) and without it, so the two columns differ
only by that rule.

    .venv/bin/python -m benchmarks.bench_garbles BOOK [BOOK ...] [--sentences 40] [--seed 7]
"""
from __future__ import annotations

import argparse
import random
import re
import tempfile
from pathlib import Path

from app.book import load_book
from app.book.spoken import speak
from app.listen import score as sc
from app.listen.local import LocalWhisper
from tests.sglomni.double.server import Speaker
from tests.sglomni.double.shaping import GARBLES, shape

RATE = 24000
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def sentences(book: Path, count: int, rng: random.Random) -> list[str]:
    """Return `count` spoken sentences of 6-40 words drawn from the book's chapters."""
    found = [s for chapter in load_book(book).chapters for paragraph in chapter.paragraphs
             for s in SENTENCE_END.split(paragraph) if 6 <= len(s.split()) <= 40]
    return [speak(s) for s in rng.sample(found, min(count, len(found)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("books", nargs="+", type=Path)
    parser.add_argument("--sentences", type=int, default=40, help="per book")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    asr = LocalWhisper()
    kinds = ("clean", *GARBLES)
    flagged = {rule: {k: 0 for k in kinds} for rule in ("with echo rule", "without")}
    total = 0
    echoes = sc._echoes
    with tempfile.TemporaryDirectory() as folder:
        wav = Path(folder) / "take.wav"
        for book in args.books:
            for text in sentences(book, args.sentences, rng):
                total += 1
                for kind in kinds:
                    said, silence = (text, 0.0) if kind == "clean" else shape(text, kind)
                    wav.write_bytes(Speaker.wav(said, RATE, 1, silence_after=silence, seed=rng.randrange(5)))
                    heard = asr.transcribe(wav, language="en")
                    for rule in flagged:
                        sc._echoes = echoes if rule == "with echo rule" else (lambda words, longest=4: {})
                        flagged[rule][kind] += not sc.score(text, heard, language="en").ok
                    sc._echoes = echoes
    print(f"{total} sentences from {len(args.books)} book(s), seed {args.seed}")
    print("| rule | clean takes rejected | " + " | ".join(f"{g} caught" for g in GARBLES) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in GARBLES) + " |")
    for rule, counts in flagged.items():
        print(f"| {rule} | {counts['clean']}/{total} | " + " | ".join(f"{counts[g]}/{total}" for g in GARBLES) + " |")


if __name__ == "__main__":
    main()
