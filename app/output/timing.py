"""Sentence timings: where each sentence of a chapter is heard in its encoded audio.

The pipeline knows exactly where every chunk's speech starts and ends (the
assembler places it) and what follows it. Inside a chunk a sentence boundary
comes, best first, from:

- ``engine``: the engine spoke sentence by sentence and said where each
  starts (Piper), when its sentences are the book's;
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

import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

from app.audio.assemble import Placement
from app.book.chunking import Chunk, Pause, split_sentences

#: A pause point is matched only to a gap this close to its estimate (seconds, x2).
SNAP_SECONDS = 0.8
#: Costs (seconds of misplacement) of leaving a pause point without a gap (a comma read
#: without a breath) or a gap without a pause point: cheap for a short one (a stop consonant),
#: dear for a long one (a breath is where punctuation was).
SKIP_POINT = 1.0
SKIP_GAP = 0.2
SKIP_GAP_PER_SECOND = 4.0
#: Punctuation after which a narrator may pause inside a sentence.
_CLAUSE_PUNCT = re.compile(r"[,;:\u2014\u2013)](?=\s)")
#: Methods, best first (see the module docstring).
METHODS = ("exact", "engine", "words", "gaps", "proportional")


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


@dataclass(frozen=True)
class ChunkMarks:
    """What is known about timing inside one chunk's own WAV (seconds from its first sample)."""

    #: Where each sentence starts, from an engine that speaks sentence by sentence.
    sentence_starts: tuple[float, ...] | None = None
    #: (word, start, end) from speech recognition of the take.
    words: tuple[tuple[str, float, float], ...] | None = None


MarksFor = Callable[[str], ChunkMarks]


def time_chapter(
    index: int,
    title: str,
    chunks: Sequence[tuple[Chunk, str]],
    placements: Sequence[Placement],
    *,
    duration: float,
    offset: float = 0.0,
    language: str = "en",
    marks_for: MarksFor = lambda key: ChunkMarks(),
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
        bounds, methods = _boundaries(texts, placed, marks_for(key))
        for method in ["exact", *methods]:  # the chunk's start is exact; then each inner boundary
            timing.methods[method] = timing.methods.get(method, 0) + 1
        for text, (a, b) in zip(texts, zip(bounds, bounds[1:])):
            n = len(timing.sentences)
            timing.sentences.append(Sentence(f"c{index:02d}-s{n + 1:04d}", paragraph, chunk.index, text,
                                             _clamp(a + offset, duration), _clamp(b + offset, duration)))
        if chunk.pause_after is not Pause.SENTENCE:
            paragraph += 1
    return timing


def _boundaries(texts: list[str], placed: Placement, marks: ChunkMarks) -> tuple[list[float], list[str]]:
    """Return len(texts)+1 times from the chunk's speech start to its end, and each inner one's method."""
    start, end = placed.start, placed.end
    if len(texts) == 1:
        return [start, end], []

    def chapter_time(t: float) -> float:  # chunk-WAV seconds -> chapter seconds, inside the speech
        return min(end, max(start, t - placed.lead_trim + start))

    starts = marks.sentence_starts
    if starts and len(starts) == len(texts):
        return [start, *(chapter_time(t) for t in starts[1:]), end], ["engine"] * (len(texts) - 1)
    counts = [len(t.split()) for t in texts]
    words = marks.words
    if words and len(words) == sum(counts):
        inner, i = [], 0
        for n in counts[:-1]:
            i += n
            inner.append(chapter_time(words[i][1]))
        return [start, *inner, end], ["words"] * len(inner)
    return _from_gaps(texts, placed)


def _pause_points(texts: list[str]) -> tuple[list[float], list[int]]:
    """Return where a reader may pause (fractions of the chunk's characters) and which are sentence ends.

    Punctuation inside a sentence (a comma, a dash) often leaves a gap too;
    counting those lets the gaps be matched in order instead of guessed.
    """
    joined = " ".join(texts)
    total = len(joined) or 1
    points: list[float] = []
    ends: list[int] = []
    pos = 0
    for k, text in enumerate(texts):
        for m in _CLAUSE_PUNCT.finditer(text):
            points.append((pos + m.end()) / total)
        pos += len(text) + 1
        if k < len(texts) - 1:
            ends.append(len(points))
            points.append(pos / total)
    return points, ends


def _from_gaps(texts: list[str], placed: Placement) -> tuple[list[float], list[str]]:
    """Return sentence boundaries from the chunk's quiet gaps matched in order to its pause points."""
    start, end = placed.start, placed.end
    points, ends = _pause_points(texts)
    estimates = [start + (end - start) * f for f in points]
    gaps = [g for g in placed.gaps if start < g[0] and g[1] < end]
    match = _align(estimates, gaps)
    # Anchors: matched pause points at their gap; the rest placed between neighbouring anchors by length.
    anchors = [(0.0, start)] + [(points[i], _gap_boundary(gaps[j])) for i, j in sorted(match.items())] + [(1.0, end)]
    bounds = [start]
    methods = []
    for i in ends:
        if i in match:
            bounds.append(_gap_boundary(gaps[match[i]]))
            methods.append("gaps")
        else:
            bounds.append(_interpolate(anchors, points[i]))
            methods.append("proportional")
    bounds.append(end)
    for k in range(1, len(bounds)):  # keep order whatever the estimates did
        bounds[k] = max(bounds[k], bounds[k - 1])
    return bounds, methods


def _align(estimates: list[float], gaps: list[tuple[float, float]]) -> dict[int, int]:
    """Match pause points to gaps in order, minimizing distance; either side may go unmatched."""
    m, n = len(estimates), len(gaps)
    inf = float("inf")
    cost = [[inf] * (n + 1) for _ in range(m + 1)]
    step = [[""] * (n + 1) for _ in range(m + 1)]
    cost[0][0] = 0.0
    for i in range(m + 1):
        for j in range(n + 1):
            here = cost[i][j]
            if here == inf:
                continue
            if i < m and here + SKIP_POINT < cost[i + 1][j]:
                cost[i + 1][j], step[i + 1][j] = here + SKIP_POINT, "p"
            skip = SKIP_GAP + SKIP_GAP_PER_SECOND * (gaps[j][1] - gaps[j][0]) if j < n else 0.0
            if j < n and here + skip < cost[i][j + 1]:
                cost[i][j + 1], step[i][j + 1] = here + skip, "g"
            if i < m and j < n:
                d = abs(estimates[i] - (gaps[j][0] + gaps[j][1]) / 2)
                if d <= SNAP_SECONDS * 2 and here + d < cost[i + 1][j + 1]:
                    cost[i + 1][j + 1], step[i + 1][j + 1] = here + d, "m"
    match: dict[int, int] = {}
    i, j = m, n
    while i or j:
        move = step[i][j]
        if move == "m":
            i, j = i - 1, j - 1
            match[i] = j
        elif move == "p":
            i -= 1
        else:
            j -= 1
    return match


def _gap_boundary(gap: tuple[float, float]) -> float:
    # The next sentence starts a little before its first sound, so nothing of it is clipped.
    return max(gap[0], gap[1] - 0.05)


def _interpolate(anchors: list[tuple[float, float]], f: float) -> float:
    for (f0, t0), (f1, t1) in zip(anchors, anchors[1:]):
        if f0 <= f <= f1:
            return t0 if f1 == f0 else t0 + (t1 - t0) * (f - f0) / (f1 - f0)
    return anchors[-1][1]


def _clamp(t: float, duration: float) -> float:
    return round(min(max(0.0, t), duration), 3)


def _fold(text: str) -> str:
    return re.sub(r"\W+", " ", text).strip().casefold()
