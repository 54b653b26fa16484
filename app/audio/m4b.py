"""Write an M4B from ADTS chapter files: index first, written once, in memory that does not grow with the book.

ffmpeg's MP4 muxer keeps an entry per AAC packet until its trailer (~170 MB at
10 hours) and can only put the index first by reserving a guess or rewriting
the file. Here the ADTS frame headers, known before the mux, give every box
size up front: a first walk over them sizes the index, `moov` is written
streamingly (its sample sizes and chunk offsets come from walking the headers
again), then `mdat` gets the raw AAC frames copied a block at a time. Memory
holds one block of a chapter file and a few numbers per chapter.

The timeline is the one the ffmpeg concat mux gave: each chapter is its frames
x 1024 samples, encoder priming included (read-along timings rely on it).
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import BinaryIO

from app.audio import adts, booktags, mp4
from app.audio.adts import AdtsError, AdtsScan
from app.book.model import Cover
from app.core.errors import Cancelled, OutputError

#: Samples one AAC frame decodes to: each frame is one MP4 sample of this duration.
FRAME_SAMPLES = 1024
#: Chapter marks in milliseconds, as the ffmpeg mux wrote them (its movie timescale was set to
#: 1000 so the chapter track's durations fit 32 bits; players expect the same).
MOVIE_TIMESCALE = 1000
#: AAC frames per MP4 chunk: ~11 s at 48 kHz, ~130 KB at 96 kbit/s (4 MiB at most, of the
#: largest frames); the chunk offset table stays small and a player reads a chunk in one go.
FRAMES_PER_CHUNK = 512
AUDIO_TRACK, CHAPTER_TRACK = 1, 2
#: Apple's audiobook brand first (iTunes' own audiobooks carry it; it says "bookmarkable"),
#: then what ffmpeg's ipod muxer writes, so a reader that knows only M4A or ISO files still plays it.
BRANDS = (b"M4B ", 0x200, (b"M4B ", b"M4A ", b"isom", b"iso2"))
#: What a stopped mux says (audio/ does not know the pipeline's line; both say how to go on).
STOPPED = "Stopped while writing the audiobook; run the same command again to resume"


@dataclass(frozen=True)
class ChapterAudio:
    """One encoded chapter file and the title its marker carries."""

    title: str
    path: Path


def write_m4b(out: BinaryIO, chapters: list[ChapterAudio], *, tags: dict[str, str], cover: Cover | None = None,
              stopped: Callable[[], bool] = lambda: False, co64_above: int = 0xFFFFFFFF) -> None:
    """Write the M4B of `chapters` to `out` (a new file, at offset 0).

    `stopped` is asked between blocks (Cancelled when it says yes); `co64_above` is the last
    chunk offset 32-bit offsets may carry (a parameter so a test can cross it with a small book).
    """
    writer = _Writer(chapters, stopped)
    writer.write(out, tags, cover, co64_above)


class _Writer:
    def __init__(self, chapters: list[ChapterAudio], stopped: Callable[[], bool]):
        if not chapters:
            raise OutputError("No chapters to put in the audiobook",
                              hint="Check --chapters selects at least one chapter")
        self.chapters = chapters
        self.stopped = stopped
        self.scans = [self._scan(c) for c in chapters]
        self.format = self.scans[0].format
        for chapter, scan in zip(chapters, self.scans):
            if scan.format != self.format:
                raise _unusable(chapter, f"it is {scan.format.describe()}, the first chapter "
                                         f"{self.format.describe()} (one M4B holds one audio format)")
        self.frames = sum(s.frames for s in self.scans)
        self.payload = sum(s.payload_bytes for s in self.scans)
        self.chunks = -(-self.frames // FRAMES_PER_CHUNK)
        # File offsets of the chapter titles and of the first AAC frame, known once the index is sized.
        self.text_start = self.audio_start = 0

    # -- layout ---------------------------------------------------------------------------
    def write(self, out: BinaryIO, tags: dict[str, str], cover: Cover | None, co64_above: int) -> None:
        marks = self._marks()
        titles = [mp4.text_sample(c.title) for c in self.chapters]
        samples = b"".join(titles)
        ftyp = mp4.ftyp(BRANDS[0], BRANDS[1], BRANDS[2])
        mdat_payload = len(samples) + self.payload
        mdat_header = mp4.header(b"mdat", mdat_payload)
        for large in (False, True):
            moov = self._moov(marks, titles, tags, cover, large)
            text_start = ftyp.size + moov.size + len(mdat_header)
            self.audio_start = text_start + len(samples)
            if large or not mp4.needs_co64(self.audio_start + self.payload, co64_above):
                break
        self.text_start = text_start
        ftyp.write(out)
        moov.write(out)
        out.write(mdat_header)
        out.write(samples)
        written = 0
        for data in self._walk(adts.frame_payloads):
            out.write(data)
            written += len(data)
        self._check(written == self.payload)

    def _marks(self) -> list[int]:
        """Return each chapter's start and the book's end in milliseconds (rounded running sums)."""
        rate, total, marks = self.format.rate, 0, [0]
        for scan in self.scans:
            total += scan.frames * FRAME_SAMPLES
            marks.append((total * MOVIE_TIMESCALE + rate // 2) // rate)
        return marks

    def _moov(self, marks: list[int], titles: list[bytes], tags: dict[str, str], cover: Cover | None,
              large: bool) -> mp4.Box:
        rate = self.format.rate
        audio_samples = self.frames * FRAME_SAMPLES
        # Track durations in the movie timescale round up, as ffmpeg's do: no sample falls outside.
        audio_ms = -(-audio_samples * MOVIE_TIMESCALE // rate)
        return mp4.Box(b"moov", mp4.mvhd(MOVIE_TIMESCALE, max(audio_ms, marks[-1]), CHAPTER_TRACK + 1),
                       self._audio_trak(audio_samples, audio_ms, large),
                       self._chapter_trak(marks, titles),
                       mp4.udta(self._ilst(tags, cover), [(m * 10_000, c.title) for m, c in zip(marks, self.chapters)]))

    def _audio_trak(self, audio_samples: int, audio_ms: int, large: bool) -> mp4.Box:
        fmt = self.format
        avg = self.payload * 8 * fmt.rate // audio_samples
        # Full chunks, then the last one's remainder.
        last = self.frames - (self.chunks - 1) * FRAMES_PER_CHUNK
        runs = [(1, FRAMES_PER_CHUNK)] if self.chunks > 1 else []
        if last != FRAMES_PER_CHUNK or not runs:
            runs.append((self.chunks, last))
        stbl = mp4.Box(b"stbl",
                       mp4.stsd_mp4a(channels=fmt.channels, rate=fmt.rate, asc=fmt.audio_specific_config(),
                                     avg_bitrate=avg, max_bitrate=max(avg, *(s.peak_bitrate for s in self.scans)),
                                     es_id=AUDIO_TRACK),
                       mp4.stts([(self.frames, FRAME_SAMPLES)]),
                       mp4.stsc(runs),
                       mp4.stsz(self.frames, self._write_sizes),
                       mp4.chunk_offsets(self.chunks, self._write_offsets, large=large),
                       *mp4.roll_groups(self.frames))
        minf = mp4.Box(b"minf", mp4.smhd(), mp4.dinf(), stbl)
        mdia = mp4.Box(b"mdia", mp4.mdhd(fmt.rate, audio_samples, mp4.LANG_UND), mp4.hdlr(b"soun", "SoundHandler"),
                       minf)
        return mp4.Box(b"trak", mp4.tkhd(AUDIO_TRACK, audio_ms, enabled=True, alternate_group=1, volume=0x100),
                       mp4.edts(audio_ms), mp4.tref_chapters(CHAPTER_TRACK), mdia)

    def _chapter_trak(self, marks: list[int], titles: list[bytes]) -> mp4.Box:
        """Return the QuickTime chapter text track (the list Apple's players read): a title sample a chapter."""
        durations = [end - start for start, end in zip(marks, marks[1:])]
        sizes = b"".join(struct.pack(">I", len(t)) for t in titles)
        stbl = mp4.Box(b"stbl", mp4.stsd_text(), mp4.stts([(1, d) for d in durations]),
                       mp4.stsc([(1, len(titles))]),
                       mp4.full(b"stsz", 0, 0, struct.pack(">II", 0, len(titles)), sizes),
                       mp4.chunk_offsets(1, lambda out, large: out.write(
                           struct.pack(">Q" if large else ">I", self.text_start)), large=False))
        minf = mp4.Box(b"minf", mp4.gmhd_text(), mp4.dinf(), stbl)
        mdia = mp4.Box(b"mdia", mp4.mdhd(MOVIE_TIMESCALE, marks[-1], mp4.LANG_MAC_ENGLISH),
                       mp4.hdlr(b"text", "SubtitleHandler"), minf)
        return mp4.Box(b"trak", mp4.tkhd(CHAPTER_TRACK, marks[-1], enabled=False, alternate_group=0, volume=0),
                       mp4.edts(marks[-1]), mdia)

    @staticmethod
    def _ilst(tags: dict[str, str], cover: Cover | None) -> mp4.Box:
        """Return the iTunes tags: text atoms, `stik` (an audiobook), freeform atoms, the cover."""
        items, freeform = booktags.mp4_tags(tags)
        kind = b"png" if cover is not None and cover.media_type.lower() == "image/png" else b"jpeg"
        return mp4.ilst(items, (kind, cover.data) if cover is not None else None,
                        freeform=freeform, media_kind=booktags.MEDIA_KIND_AUDIOBOOK)

    # -- the streamed tables and the audio -------------------------------------------------
    def _write_sizes(self, out: BinaryIO) -> None:
        count = 0
        for sizes in self._walk(adts.frame_sizes):
            out.write(struct.pack(f">{len(sizes)}I", *sizes))
            count += len(sizes)
        self._check(count == self.frames)

    def _write_offsets(self, out: BinaryIO, large: bool) -> None:
        code = "Q" if large else "I"
        pos, frame, count = self.audio_start, 0, 0
        for sizes in self._walk(adts.frame_sizes):
            starts = list(accumulate(sizes, initial=pos))  # each frame's offset, then the block's end
            # Every FRAMES_PER_CHUNK-th frame of the book starts a chunk.
            batch = starts[-frame % FRAMES_PER_CHUNK:len(sizes):FRAMES_PER_CHUNK]
            out.write(struct.pack(f">{len(batch)}{code}", *batch))
            count += len(batch)
            pos = starts[-1]
            frame += len(sizes)
        self._check(count == self.chunks and frame == self.frames)

    def _walk(self, walker: Callable[[Path], Iterator]) -> Iterator:
        """Yield what `walker` yields for each chapter file in order, asking `stopped` between blocks."""
        for chapter in self.chapters:
            with _reading(chapter):
                for item in walker(chapter.path):
                    if self.stopped():
                        raise Cancelled(STOPPED)
                    yield item

    def _scan(self, chapter: ChapterAudio) -> AdtsScan:
        if self.stopped():
            raise Cancelled(STOPPED)
        with _reading(chapter):
            return adts.scan(chapter.path)

    def _check(self, ok: bool) -> None:
        # The index was sized from the first walk: a chapter file that changed since would make it lie.
        if not ok:
            raise OutputError("A chapter file changed while the audiobook was being written",
                              hint="Run the same command again, with no other run writing to the same work folder")


@contextmanager
def _reading(chapter: ChapterAudio):
    """Turn a chapter file that cannot be read or copied into one line naming it."""
    try:
        yield
    except AdtsError as exc:
        raise _unusable(chapter, str(exc)) from None
    except OSError as exc:
        raise OutputError(f"Cannot read chapter file {chapter.path}: {exc.strerror or exc}",
                          hint="Check the work folder is readable and run the same command again") from None


def _unusable(chapter: ChapterAudio, why: str) -> OutputError:
    # A chapter file is the run's own encode: without it the next run encodes that chapter
    # again from its cached chunks, where --no-cache would synthesize the whole book again.
    return OutputError(f"Chapter file {chapter.path} ('{chapter.title}') cannot go into the M4B: {why}",
                       hint="Delete that file and run the same command again: the chapter is encoded anew")
