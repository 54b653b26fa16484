"""How a chapter is encoded, and the book muxed by stream copy.

Chapters are encoded (AAC or MP3) while their chunks arrive (stream.py, with
encode_args() from here); the M4B is then only the finished AAC frames copied
into one file (m4b.py), written once with its index first, so the work after
the last chunk is the rest of one chapter and a copy, never a re-encode.
"""
from __future__ import annotations

import logging
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from app import __version__
from app.core import failpoints
from app.audio import adts, booktags, m4b
from app.audio.m4b import ChapterAudio
from app.audio.adts import is_adts
from app.audio.ffmpeg import run_ffmpeg
from app.book.model import Cover, Metadata
from app.core.errors import Cancelled, OutputError
from app.core.files import temp_tag

log = logging.getLogger(__name__)

#: Bitrates by channel count. Speech needs far less than music: AAC-LC at
#: 64k mono is transparent for a voice, MP3 needs more for the same quality.
AAC_BITRATE = {1: "64k", 2: "96k"}
MP3_BITRATE = {1: "64k", 2: "128k"}
#: ffmpeg's AAC coder. "fast" (constant quantizer) rather than the default "twoloop": ffmpeg's
#: documentation calls it better and much faster from 64 kbit/s a channel, and at our rates it is:
#: Piper speech decoded and compared with the input: 22.05 kHz mono at 64k 37.6 dB SNR against
#: 29.2 dB in 0.4x the CPU; 48 kHz stereo at 96k 40.5 against 27.7 dB in 0.23x (the encode is most
#: of what the CLI adds to synthesis on a small machine, issue 16 P3/P5; benchmarks/README.md).
#: Chapters cached by the other coder are the same format and are kept.
AAC_CODER = "fast"
#: The chapter encodes encode_args makes: AAC ("m4b", for the M4B and read-along timelines), MP3.
ENCODE_KINDS = ("m4b", "mp3")
#: Samples of encoder delay ffmpeg's AAC encoder puts before the first input sample. ADTS
#: cannot say so, so every player of the chapter file (and of the M4B muxed from it) hears
#: the audio this much later than the WAV had it: timings on that timeline add it.
AAC_PRIMING_SAMPLES = 1024
#: Output buffer of the M4B writer: its many small index writes reach the disk in large ones.
WRITE_BUFFER = 1 << 20
#: Cover media types an MP4/ID3 attached picture can carry as-is.
_COPYABLE_COVERS = {"image/jpeg": ".jpg", "image/jpg": ".jpg", "image/png": ".png"}


@dataclass(frozen=True)
class BookMeta:
    """The tags an audiobook carries: the run's title and author line, and what else the book says."""

    title: str
    author: str
    cover: Cover | None = None
    #: The year the tags carry; None: the book's own (details.year).
    year: str | None = None
    #: Subtitle, people, series, publisher, subjects, descriptions, identifiers (app/book/model.py).
    details: Metadata = field(default_factory=Metadata)
    #: Who reads it: --narrator, else the voice (the composer tag / ©wrt, where servers look).
    narrator: str = ""

    def fields(self) -> dict[str, str]:
        """Return the tags by neutral name (app/audio/booktags.py)."""
        return booktags.book_fields(title=self.title, author=self.author, meta=self.details,
                                    year=self.year or "", narrator=self.narrator)

    def fingerprint(self) -> str:
        """Return a short digest of the tags (an MP3 chapter's file key: other tags, another encode)."""
        import hashlib
        import json

        return hashlib.sha256(json.dumps(self.fields(), sort_keys=True).encode()).hexdigest()[:16]


def encode_args(fmt: str, out: Path, *, channels: int, meta: BookMeta, title: str, track: int, total: int,
                cover: Path | None, audio_filter: str | None) -> list[str]:
    """Return ffmpeg's arguments after the audio input (input 0) up to the output path, for one chapter encode.

    The file and the streamed encode (app/audio/stream.py) both use these, so both write the same chapter.
    """
    if fmt not in ENCODE_KINDS:
        raise OutputError(f"Unknown chapter encoding '{fmt}'", hint=f"Use one of: {', '.join(ENCODE_KINDS)}")
    args = ["-i", str(cover)] if cover is not None and fmt == "mp3" else []
    if audio_filter:
        args += ["-af", audio_filter]  # an output option: after every input
    if fmt == "m4b":
        muxer = "adts" if Path(out).suffix.lower() == ".aac" else "ipod"
        return args + ["-map", "0:a", "-c:a", "aac", "-aac_coder", AAC_CODER, "-b:a", AAC_BITRATE[channels],
                       "-metadata", f"title={title}", "-f", muxer]
    args += ["-map", "0:a", "-c:a", "libmp3lame", "-b:a", MP3_BITRATE[channels]]
    if cover is not None:
        args += ["-map", "1:v", "-c:v", "copy", "-disposition:v:0", "attached_pic",
                 "-metadata:s:v", "title=Album cover", "-metadata:s:v", "comment=Cover (front)"]
    # ID3v2.4 (UTF-8 frames, TDRC); the ID3v1 tail is for the oldest players (it holds 30 Latin-1 characters).
    tags = booktags.id3_tags({**meta.fields(), "title": _one_line(title)}, track=track, total=total)
    args += [a for k, v in tags.items() for a in ("-metadata", f"{k}={v}")]
    return args + ["-id3v2_version", "4", "-write_id3v1", "1", "-f", "mp3"]


def mux_m4b(chapters: list[ChapterAudio], out: Path, *, meta: BookMeta, ffmpeg: str,
            cancel: threading.Event | None = None) -> Path:
    """Write the chapters' AAC by stream copy into one M4B with both chapter lists, tags and the cover.

    The writer is our own (app/audio/m4b.py): index first, the file written once, in memory that
    does not grow with the book. ffmpeg only remuxes MP4/M4A chapter files to ADTS and checks
    the cover. `cancel`, when set, stops the mux between blocks; the good output stays.
    """
    if not chapters:
        raise OutputError("No chapters to put in the audiobook", hint="Check --chapters selects at least one chapter")
    out = Path(out)
    with temp_beside(out) as tmp, cover_file(meta.cover, out.parent, ffmpeg) as cover:
        streams: list[Path] = []
        try:
            for i, chapter in enumerate(chapters):
                streams.append(_as_adts(chapter.path, tmp, i, ffmpeg))
            _conformed(streams, chapters, tmp, ffmpeg)
            parts = [ChapterAudio(_one_line(c.title), s) for c, s in zip(chapters, streams)]
            # cover_file() gives a JPEG or PNG file that ffmpeg decodes cleanly.
            picture = Cover(cover.read_bytes(), "image/png" if cover.suffix == ".png" else "image/jpeg") if cover else None
            tags = {**meta.fields(), "encoder": f"audiobook {__version__}"}
            try:
                with open(tmp, "wb", buffering=WRITE_BUFFER) as fh:
                    m4b.write_m4b(fh, parts, tags=tags, cover=picture,
                                  stopped=cancel.is_set if cancel is not None else (lambda: False))
            except OSError as exc:
                raise OutputError(f"Cannot write {out}: {exc.strerror or exc}",
                                  hint="Check free disk space and that the output folder is writable") from None
        finally:
            for stream, chapter in zip(streams, chapters):
                if stream != chapter.path:
                    stream.unlink(missing_ok=True)
        failpoints.pause_at("mux", cancel)
        if cancel is not None and cancel.is_set():  # stopped at the last moment: the output is left as it was
            raise Cancelled(m4b.STOPPED)
        os.replace(tmp, out)
    return out


def _one_line(value: str) -> str:
    """Return `value` on one line: players show a title or a tag as a single line."""
    return " ".join(str(value).split())


def _conformed(streams: list[Path], chapters: list[ChapterAudio], tmp: Path, ffmpeg: str) -> list[Path]:
    """Return the streams with every chapter in the first one's rate and channels (re-encoded beside `tmp`).

    An M4B has one audio format, and each chapter takes the one of its first chunk: a server that
    answers some chunks at another rate (or a book resumed against another server or model) gives
    chapters that differ. They are converted here, the only place that sees them all, rather than
    refused after hours of synthesis. Rare, and a second AAC generation for those chapters only.
    """
    want = adts.stream_format(streams[0])
    if want is None:
        return streams  # the writer names the unreadable file
    out = streams  # replaced in place, so the caller's cleanup sees every temp file made here
    for i, (stream, chapter) in enumerate(zip(list(streams), chapters)):
        have = adts.stream_format(stream)
        if i == 0 or have is None or (have.rate, have.channels) == (want.rate, want.channels):
            continue
        log.warning("Chapter '%s' is %s, the book %s: converting it for the M4B", chapter.title,
                    have.describe(), want.describe())
        converted = tmp.with_name(f"{tmp.name}.{i}.conformed.aac")
        try:
            run_ffmpeg([ffmpeg, "-i", str(stream), "-map", "0:a:0", "-ar", str(want.rate), "-ac", str(want.channels),
                        "-c:a", "aac", "-aac_coder", AAC_CODER, "-b:a", AAC_BITRATE[min(want.channels, 2)],
                        "-f", "adts", str(converted)])
        except BaseException:
            converted.unlink(missing_ok=True)
            raise
        if stream != chapter.path:
            stream.unlink(missing_ok=True)  # a remuxed temp: the converted one replaces it
        out[i] = converted
    return out


def _as_adts(path: Path, tmp: Path, index: int, ffmpeg: str) -> Path:
    """Return the chapter as an ADTS stream, remuxing (stream copy) an MP4/M4A one beside `tmp`.

    Concatenating MP4s by copy leaves each file's 1024-sample AAC priming
    packet overlapping the previous file (non-monotonic DTS, drifting
    markers); ADTS files carry every packet and butt together exactly.
    """
    if is_adts(path):
        return path
    stream = tmp.with_name(f"{tmp.name}.{index}.aac")
    try:
        run_ffmpeg([ffmpeg, "-i", str(path), "-map", "0:a:0", "-c:a", "copy", "-f", "adts", str(stream)])
    except BaseException:
        stream.unlink(missing_ok=True)
        raise
    return stream


@contextmanager
def temp_beside(out: Path):
    """Yield a unique temp path beside `out` with its extension; remove it unless it was moved."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"Cannot create {out.parent}: {exc.strerror or exc}", hint="Choose a writable --output folder") from None
    # The tag names this process, so the next run can sweep what a killed one left (app.core.files).
    tmp = out.with_name(f".{out.stem}.{temp_tag()}.part{out.suffix}")
    try:
        yield tmp
    finally:
        tmp.unlink(missing_ok=True)


#: Leading bytes of the image types an MP4/ID3 attached picture can carry as-is.
_MAGIC = {".jpg": b"\xff\xd8\xff", ".png": b"\x89PNG\r\n\x1a\n"}


@contextmanager
def cover_file(cover: Cover | None, folder: Path, ffmpeg: str):
    """Yield a JPEG/PNG file of the cover that ffmpeg decodes cleanly, or None.

    A book's declared media type can lie (a WebP or a truncated JPEG labelled
    image/jpeg), and a cover ffmpeg cannot copy fails the mux after hours of
    synthesis. So every cover is decoded first with errors fatal: one that
    decodes and is what it claims is copied as-is, any other readable image is
    converted to PNG, and one that does not decode is left out with a warning.
    """
    if cover is None or not cover.data:
        yield None
        return
    suffix = _COPYABLE_COVERS.get(cover.media_type.lower())
    token = temp_tag()
    raw = folder / f".cover.{token}.img"
    png = folder / f".cover.{token}.png"
    try:
        raw.write_bytes(cover.data)
        try:
            run_ffmpeg([ffmpeg, "-v", "error", "-err_detect", "explode", "-xerror", "-i", str(raw),
                        "-frames:v", "1", "-f", "image2", "-c:v", "png", str(png)])
            if not png.is_file() or png.stat().st_size == 0:
                raise OutputError("ffmpeg wrote no picture")
        except OutputError as exc:
            # A cover ffmpeg cannot read (SVG, a truncated JPEG) must not cost the user the book.
            log.warning("Leaving out the book's cover (declared %s): it is not a readable image (%s)",
                        cover.media_type or "without a type", exc.message)
            yield None
            return
        if suffix is not None and cover.data.startswith(_MAGIC[suffix]):
            copy = raw.with_suffix(suffix)
            os.replace(raw, copy)
            raw = copy
            yield copy
            return
        yield png
    finally:
        raw.unlink(missing_ok=True)
        png.unlink(missing_ok=True)
