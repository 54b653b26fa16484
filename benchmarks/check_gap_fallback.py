"""Check the read-along gap fallback against Piper's own sentence starts.

After a Piper run of BOOK with HOME as the app home (e.g. bench_readalong --home HOME), every
chunk of several sentences has both: Piper's sentence starts (chunk cache meta) and the quiet
gaps the assembler found (chapter sidecar). This places each inner boundary both ways and
prints the differences.

    AUDIOBOOK_HOME=HOME .venv/bin/python -m benchmarks.check_gap_fallback BOOK [--chunk-size N]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from app.core import paths
from app.backends import BackendOptions, VoiceOptions, create_backend
from app.book import load_book
from app.book.chunking import split_sentences
from app.output import timing
from app.pipeline.cache import ChunkCache
from app.pipeline.chapter_files import read_sidecar
from app.pipeline.plan import make_plan
from app.pipeline.workdir import book_work_dir


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("book", type=Path)
    ap.add_argument("--chunk-size", type=int, default=60)
    args = ap.parse_args()
    book = load_book(args.book)
    backend = create_backend("piper", BackendOptions(model=None, voice=VoiceOptions()))
    plan = make_plan(book, backend.identity(), chunk_size=args.chunk_size, fmt="m4b", output=Path("unused.m4b"))
    cache, work = ChunkCache(paths.cache_dir()), book_work_dir(book.source)
    diffs = []
    for planned in plan.chapters:
        record = read_sidecar(work / "chapters" / f"{planned.artifact_key('m4b', '')}.aac", planned.chapter.title)
        if record is None:
            raise SystemExit(f"chapter {planned.chapter.index} is not converted in this home; run the CLI first")
        for pc, placed in zip(planned.chunks, record.placements):
            texts = split_sentences(pc.text, book.language)
            starts, _ = cache.marks(pc.key)
            if len(texts) < 2 or not starts or len(starts) != len(texts):
                continue
            truth, _ = timing._boundaries(texts, placed, timing.ChunkMarks(sentence_starts=starts))
            guess, methods = timing._from_gaps(texts, placed)
            for a, b, how in zip(truth[1:-1], guess[1:-1], methods):
                diffs.append(abs(a - b))
                print(f"piper {a:8.3f}  fallback {b:8.3f}  ({how})")
    if diffs:
        print(f"{len(diffs)} boundaries; within 0.05 s: {sum(d <= 0.05 for d in diffs)}; "
              f"within 0.3 s: {sum(d <= 0.3 for d in diffs)}; max {max(diffs):.3f} s")


if __name__ == "__main__":
    main()
