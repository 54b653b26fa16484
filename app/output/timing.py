"""Sentence timings: where each sentence of a chapter is heard in its encoded audio.

The pipeline knows exactly where every chunk's speech starts and ends (the
assembler places it) and what follows it. Inside a chunk a sentence boundary
comes, best first, from:

- ``words``: word timestamps kept beside the cached chunk (verification's
  sidecar, ``<key>.words.json``), mapped through the chunk's head trim;
- ``gaps``: a proportional estimate (by characters) moved to the nearest quiet
  gap the assembler found in the chunk's audio: a narrator breathes between
  sentences, so a boundary sits in a gap;
- ``proportional``: the estimate alone, when the chunk has no usable gap.

Each chapter reports the methods it used, so a reader (and the EPUB metadata)
can tell exact timing from estimated timing.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from app.audio.assemble import Placement
from app.book.chunking import Chunk, Pause, split_sentences

#: A boundary estimate only moves to a gap this close (seconds); further means the gap is another boundary.
SNAP_SECONDS = 0.8
#: Methods, best first (see the module docstring).
METHODS = ("exact", "words", "gaps", "proportional")


@dataclass(frozen=True)
class Sentence:
    """One narrated sentence (or clause of an over-long one) and its clip in the chapter audio."""

    #: Unique in the book, usable as an XML id and a caption id: "c03-s0012".
    id: str
    #: 0-based paragraph within the chapter (chunks never cross paragraphs).
    paragraph: int
    #: Position of the chunk that speaks it (the sentence -> chunk mapping).
    chunk: int
    text: str
    start: float
    end: float


@dataclass
class ChapterTiming:
    """One chapter's sentences on its encoded audio's own timeline."""

    index: int
    title: str
    #: Length of the encoded chapter file, seconds (what the M4B gives the chapter).
    duration: float
    sentences: list[Sentence] = field(default_factory=list)
    #: How the boundaries inside chunks were found, by method: counts.
    methods: dict[str, int] = field(default_factory=dict)

    @property
    def title_spoken(self) -> bool:
        """Return whether the chapter's first paragraph is its title (read aloud as a heading)."""
        first = [s.text for s in self.sentences if s.paragraph == 0]
        return _fold(" ".join(first)) == _fold(self.title)


WordsFor = Callable[[str], "list[tuple[str, float, float]] | None"]


def time_chapter(
    index: int,
    title: str,
    chunks: Sequence[tuple[Chunk, str]],
    placements: Sequence[Placement],
    *,
    duration: float,
    offset: float = 0.0,
    language: str = "en",
    words_for: WordsFor = lambda key: None,
) -> ChapterTiming:
    """Return the chapter's sentence timings.

    `chunks` are (chunk, cache key) in order, `placements` where the assembler
    put each; `offset` shifts every time onto the encoded file (the encoder's
    priming), `duration` is that file's length.
    """
    timing = ChapterTiming(index, title, duration)
    paragraph = 0
    for (chunk, key), placed in zip(chunks, placements):
        texts = split_sentences(chunk.text, language) or [chunk.text]
        bounds, method = _boundaries(texts, placed, words_for(key))
        timing.methods["exact"] = timing.methods.get("exact", 0) + 1
        if len(texts) > 1:
            timing.methods[method] = timing.methods.get(method, 0) + len(texts) - 1
        for text, (a, b) in zip(texts, zip(bounds, bounds[1:])):
            n = len(timing.sentences)
            timing.sentences.append(Sentence(f"c{index:02d}-s{n + 1:04d}", paragraph, chunk.index, text,
                                             _clamp(a + offset, duration), _clamp(b + offset, duration)))
        if chunk.pause_after is not Pause.SENTENCE:
            paragraph += 1
    return timing


def _boundaries(texts: list[str], placed: Placement, words) -> tuple[list[float], str]:
    """Return len(texts)+1 times from the chunk's speech start to its end, and the method used."""
    start, end = placed.start, placed.end
    if len(texts) == 1:
        return [start, end], "exact"
    counts = [len(t.split()) for t in texts]
    if words and len(words) == sum(counts):
        inner, i = [], 0
        for n in counts[:-1]:
            i += n
            inner.append(min(end, max(start, words[i][1] - placed.lead_trim + start)))
        return [start, *inner, end], "words"
    weights = [len(t) for t in texts]
    total = sum(weights) or 1
    estimates, acc = [], 0
    for w in weights[:-1]:
        acc += w
        estimates.append(start + (end - start) * acc / total)
    snapped, used = _snap(estimates, placed.gaps)
    return [start, *snapped, end], "gaps" if used else "proportional"


def _snap(estimates: list[float], gaps: Sequence[tuple[float, float]]) -> tuple[list[float], bool]:
    """Move each estimate to the middle of the nearest unused gap within SNAP_SECONDS, keeping order."""
    out: list[float] = []
    used = False
    floor = -1.0
    free = list(gaps)
    for est in estimates:
        near = [g for g in free if g[0] > floor and abs((g[0] + g[1]) / 2 - est) <= SNAP_SECONDS]
        if near:
            # The longest nearby gap: a sentence end is a longer breath than a comma.
            best = max(near, key=lambda g: (g[1] - g[0]) - 0.25 * abs((g[0] + g[1]) / 2 - est))
            free.remove(best)
            # Start the next sentence a little before its first sound, so nothing is clipped.
            value = max(best[0], best[1] - 0.05)
            used = True
        else:
            value = est
        value = max(value, floor)
        out.append(value)
        floor = value
    return out, used


def load_words(cache_root: Path) -> WordsFor:
    """Return a lookup of a chunk's word timestamps from its sidecar, or None when it has none."""
    def words_for(key: str):
        path = cache_root / "chunks" / key[:2] / f"{key}.words.json"
        try:
            if path.stat().st_size > 4 * 1024 * 1024:  # a chunk is seconds of speech; refuse nonsense
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        items = data.get("words", []) if isinstance(data, dict) else data
        try:
            return [(str(w["word"]), float(w["start"]), float(w["end"])) for w in items]
        except (KeyError, TypeError, ValueError):
            return None
    return words_for


def _clamp(t: float, duration: float) -> float:
    return round(min(max(0.0, t), duration), 3)


def _fold(text: str) -> str:
    return re.sub(r"\W+", " ", text).strip().casefold()
