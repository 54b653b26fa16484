"""The read-along EPUB and captions: everything beyond the audio itself.

The pipeline hands over, per chapter, the chunks it planned, where the
assembler placed each one and the encoded AAC file; this package turns that
into sentence timings (timing.py) and writes each requested output
(epub.py, captions.py), all on the same timeline the M4B uses.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from app.audio.adts import adts_duration
from app.audio.assemble import Placement
from app.audio.export import AAC_PRIMING_SAMPLES
from app.book.chunking import Chunk
from app.book.model import Book
from app.core.errors import OutputError
from app.output.formats import FORMATS, READ_ALONG
from app.output.captions import write_captions
from app.output.epub import write_epub
from app.output.timing import ChapterTiming, MarksFor, time_chapter
from app.output.written import show_written


@dataclass(frozen=True)
class ChapterRender:
    """What the pipeline knows about one finished chapter."""

    index: int
    title: str
    #: (chunk, cache key) in order.
    chunks: Sequence[tuple[Chunk, str]]
    placements: Sequence[Placement]
    sample_rate: int
    #: The chapter's AAC (ADTS) file, the one the M4B is muxed from.
    aac: Path
    #: The chapter's paragraphs as written, when the chunks were a spoken form of them.
    written: tuple[str, ...] | None = None


def chapter_timings(book: Book, chapters: Sequence[ChapterRender], marks_for: MarksFor) -> list[ChapterTiming]:
    """Return each chapter's sentence timings on its encoded file's timeline."""
    timings = []
    for ch in chapters:
        timing = time_chapter(ch.index, ch.title, ch.chunks, ch.placements, duration=adts_duration(ch.aac),
                              offset=AAC_PRIMING_SAMPLES / ch.sample_rate, language=book.language,
                              marks_for=marks_for)
        timings.append(show_written(timing, ch.written, book.language) if ch.written else timing)
    return timings


def write_read_along(book: Book, chapters: Sequence[ChapterRender], outputs: dict[str, Path], *, ffmpeg: str,
                     marks_for: MarksFor, narrator: str = "") -> list[Path]:
    """Write the requested epub/srt/vtt outputs and return their paths."""
    wanted = [fmt for fmt in FORMATS if fmt in READ_ALONG and fmt in outputs]
    if not wanted:
        return []
    timings = chapter_timings(book, chapters, marks_for)
    written = []
    for fmt in wanted:
        out = outputs[fmt]
        if fmt == "epub":
            written.append(write_epub(book, list(zip(timings, [c.aac for c in chapters])), out,
                                      ffmpeg=ffmpeg, narrator=narrator))
            continue
        try:
            written.append(write_captions(timings, out, fmt))
        except OSError as exc:
            raise OutputError(f"Cannot write {out} ({exc.strerror or exc})",
                              hint="Check free disk space, or choose another --output") from None
    return written
