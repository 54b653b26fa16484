"""The literature measurements behind tests/literature/README.md (not a test: run it by hand).

    python -m tests.literature.measure_speech text              # per title: chunks, lone-punctuation chunks, written numbers left
    python -m tests.literature.measure_speech hear OUT.json     # two chapter openings per title: Piper, then tiny.en per chunk
    python -m tests.literature.measure_speech score OUT.json    # how many of those takes verification would render again

Run from the worktree's root. With AUDIOBOOK_APP=/path/to/another/checkout, `text` and `score` import
that checkout's app (its spoken forms, chunker and scorer) on the same books and the same transcripts:
the "before" column of the README.
"""
from __future__ import annotations

import collections
import dataclasses
import json
import os
import re
import sys
from pathlib import Path

if os.environ.get("AUDIOBOOK_APP"):
    sys.path.insert(0, os.environ["AUDIOBOOK_APP"])  # measure another checkout's app (see above)

from tests.literature.corpus import ROOT, TITLES  # noqa: E402

#: Chunk size of the bundled Piper voice.
CHUNK_WORDS = 30
#: A token with a digit, a vulgar fraction or a currency sign: a number left as written.
_WRITTEN = re.compile(r"[\d\u00bc-\u00be\u2150-\u215e£$€¥]")


def text() -> None:
    import app
    from app.book import load_book
    from app.book.chunking import chunk_chapter
    from app.book.spoken import Speaker

    print(f"app: {Path(app.__file__).parent}")
    for title in TITLES:
        book = load_book(title.file)
        speaker = Speaker(book.language or "en")
        chunks = lone = written = 0
        for chapter in book.chapters:
            spoken = tuple(p for p in map(speaker, chapter.paragraphs) if any(c.isalnum() for c in p))
            for chunk in chunk_chapter(dataclasses.replace(chapter, paragraphs=spoken), CHUNK_WORDS):
                chunks += 1
                lone += not any(c.isalnum() for c in chunk.text)
                written += sum(bool(_WRITTEN.search(t)) for t in chunk.text.split())
        print(f"{title.key}: {chunks} chunks, {lone} without a word, {written} written numbers left")


def hear(out: Path) -> None:
    from app.book import load_book
    from app.book.chunking import chunk_chapter
    from app.book.model import Chapter
    from app.book.spoken import Speaker
    from app.listen.local import LocalWhisper
    from tests.literature.test_heard import _body, _opening, _pick, _QuietPiper

    piper, ear, heard = _QuietPiper(), LocalWhisper(), []
    wav = out.with_suffix(".wav")
    for title in TITLES:
        if title.file.suffix == ".txt":
            continue  # plain-text chapters are the book-structure work's; the HTML edition is heard
        book = load_book(title.file)
        speaker = Speaker(book.language, hints=book.lexicon)
        for chapter in dict.fromkeys((_pick(book), book.chapters[min(len(book.chapters) - 1, 5)])):
            spoken = tuple(map(speaker, _opening(_body(chapter), 150)))
            for chunk in chunk_chapter(Chapter(chapter.index, chapter.title, spoken), CHUNK_WORDS):
                piper.synthesize(chunk.text, 0, wav)
                heard.append({"title": title.key, "chapter": chapter.index, "text": chunk.text,
                              "heard": ear.transcribe(wav, language="en").text})
        print(title.key, len(heard), flush=True)
    out.write_text(json.dumps(heard, ensure_ascii=False, indent=1), encoding="utf-8")


def score(path: Path) -> None:
    import app
    from app.listen.score import score as judge
    from app.listen.transcript import Transcript

    print(f"app: {Path(app.__file__).parent}")
    rejected, total = collections.Counter(), collections.Counter()
    for take in json.loads(path.read_text(encoding="utf-8")):
        total[take["title"]] += 1
        verdict = judge(take["text"], Transcript(take["heard"]), language="en")
        if not verdict.ok:
            rejected[take["title"]] += 1
            print(f"  {verdict.problems}: {take['text']!r} heard {take['heard']!r}")
    for key in total:
        print(f"{key}: {rejected[key]} of {total[key]} rendered again")
    print(f"all: {sum(rejected.values())} of {sum(total.values())}")


if __name__ == "__main__":
    if not ROOT.is_dir():
        sys.exit(f"the literature corpus is not at {ROOT}")
    command, *rest = sys.argv[1:] or ["text"]
    {"text": lambda: text(), "hear": lambda: hear(Path(rest[0])), "score": lambda: score(Path(rest[0]))}[command]()
