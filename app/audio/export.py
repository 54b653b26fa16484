"""How a chapter is encoded, and the book muxed by stream copy.

Chapters are encoded (AAC or MP3) while their chunks arrive (stream.py, with
encode_args() from here); the M4B is then only a concat of finished AAC files
with `-c copy`, written once, so the work after the last chunk is the rest of
one chapter and a remux, never a re-encode.
"""
from __future__ import annotations

import logging
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from app import testhooks
from app.audio.adts import adts_measure, is_adts
from app.audio.ffmpeg import run_ffmpeg
from app.book.model import Cover
from app.errors import OutputError
from app.files import temp_tag

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
#: Cover media types an MP4/ID3 attached picture can carry as-is.
_COPYABLE_COVERS = {"image/jpeg": ".jpg", "image/jpg": ".jpg", "image/png": ".png"}


@dataclass(frozen=True)
class ChapterAudio:
    """One encoded chapter file and the title its marker carries."""

    title: str
    path: Path


@dataclass(frozen=True)
class BookMeta:
    """The tags an audiobook carries."""

    title: str
    author: str
    cover: Cover | None = None
    year: str | None = None


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
    args += _tags(meta, title=title, album=meta.title)
    return args + ["-metadata", f"track={track}/{total}", "-id3v2_version", "3", "-write_id3v1", "1", "-f", "mp3"]


def mux_m4b(chapters: list[ChapterAudio], out: Path, *, meta: BookMeta, ffmpeg: str) -> Path:
    """Concatenate AAC chapter files by stream copy into one M4B with chapter markers and tags."""
    if not chapters:
        raise OutputError("No chapters to put in the audiobook", hint="Check --chapters selects at least one chapter")
    out = Path(out)
    with temp_beside(out) as tmp, cover_file(meta.cover, out.parent, ffmpeg) as cover:
        listing = tmp.with_name(tmp.name + ".concat.txt")
        metadata = tmp.with_name(tmp.name + ".ffmeta.txt")
        streams: list[Path] = []
        try:
            for i, chapter in enumerate(chapters):
                streams.append(_as_adts(chapter.path, tmp, i, ffmpeg))
            measured = [adts_measure(s) for s in streams]
            durations = [seconds for seconds, _ in measured]
            listing.write_text(_concat_list(streams, durations), encoding="utf-8")
            metadata.write_text(_ffmetadata(meta, chapters, durations), encoding="utf-8")
            args = [ffmpeg, "-f", "concat", "-safe", "0", "-i", str(listing), "-i", str(metadata)]
            if cover is not None:
                args += ["-i", str(cover)]
            args += ["-map", "0:a", "-map_metadata", "1", "-map_chapters", "1", "-c:a", "copy", "-bsf:a", "aac_adtstoasc"]
            if cover is not None:
                args += ["-map", "2:v", "-c:v", "copy", "-disposition:v:0", "attached_pic"]
            # A millisecond movie timescale keeps the QuickTime chapter text track's sample durations
            # inside 32 bits; ffmpeg 7+ otherwise picks 1/28,224,000 and drops the track for any
            # chapter over ~152 s (Apple players read only that track). ffmpeg 5-6 default to 1000.
            args += ["-movie_timescale", "1000"]
            reserve = moov_reserve(sum(frames for _, frames in measured), len(chapters), metadata.stat().st_size)
            try:
                run_ffmpeg([*args, "-moov_size", str(reserve), "-f", "ipod", str(tmp)], log_file=None)
            except OutputError as exc:
                if not _reserve_was_short(exc):
                    raise
                # The reserve was short (an estimate): write the index at the end and move it, as before.
                log.warning("The M4B's index outgrew its reserved %d bytes; writing it again with +faststart", reserve)
                run_ffmpeg([*args, "-movflags", "+faststart", "-f", "ipod", str(tmp)], log_file=None)
        finally:
            listing.unlink(missing_ok=True)
            metadata.unlink(missing_ok=True)
            for stream, chapter in zip(streams, chapters):
                if stream != chapter.path:
                    stream.unlink(missing_ok=True)
        testhooks.pause_at("mux")
        os.replace(tmp, out)
    return out


def _reserve_was_short(exc: OutputError) -> bool:
    """Return whether ffmpeg failed because the reserved index room was too small (its log says so)."""
    try:
        with open(exc.log_path, "rb") as fh:
            fh.seek(max(0, os.fstat(fh.fileno()).st_size - 16384))
            return b"reserved_moov_size is too small" in fh.read()
    except (OSError, TypeError):
        return False


def moov_reserve(frames: int, chapters: int, metadata_bytes: int) -> int:
    """Return the bytes to reserve before the audio for the M4B's index (the moov box).

    The index goes first so a player or a web server can start playback
    without reading to the end. ffmpeg's +faststart puts it there by writing
    the whole file a second time after the mux (~25 s for a 10-hour book);
    reserving room up front (-moov_size) writes the file once. The index is
    4 bytes per AAC frame (stsz; 4.01 measured with chunk tables, 0.5-2 h
    books) plus per-chapter entries and the tags: 6 bytes a frame and generous
    fixed room keep it inside; the unused room is a `free` box (~1% of a
    96 kbit/s file). Should a book still outgrow it, the mux is redone with
    +faststart.
    """
    return 6 * frames + 600 * chapters + 2 * metadata_bytes + 256 * 1024


def _tags(meta: BookMeta, *, title: str, album: str) -> list[str]:
    tags = {"title": title, "artist": meta.author, "album_artist": meta.author, "album": album, "genre": "Audiobook"}
    if meta.year:
        tags["date"] = meta.year
    return [a for k, v in tags.items() for a in ("-metadata", f"{k}={v}")]


def _ffmetadata(meta: BookMeta, chapters: list[ChapterAudio], durations: list[float]) -> str:
    """Return an ffmetadata file with book tags and one [CHAPTER] per chapter, in milliseconds."""
    tags = {"title": meta.title, "artist": meta.author, "album_artist": meta.author, "album": meta.title, "genre": "Audiobook"}
    if meta.year:
        tags["date"] = meta.year
    lines = [";FFMETADATA1"] + [f"{k}={_meta_escape(v)}" for k, v in tags.items()]
    start = 0.0
    for chapter, length in zip(chapters, durations):
        end = start + length
        # Round the running sum, not each length, so markers never drift.
        lines += ["[CHAPTER]", "TIMEBASE=1/1000", f"START={round(start * 1000)}", f"END={round(end * 1000)}",
                  f"title={_meta_escape(chapter.title)}"]
        start = end
    return "\n".join(lines) + "\n"


def _meta_escape(value: str) -> str:
    value = " ".join(str(value).split())  # a newline would end the entry
    escaped = re.sub(r"([=;#\\])", r"\\\1", value)
    # ffmpeg's reader continues a line after any backslash, escaped or not, so a title
    # ending in one swallowed the next chapter; a trailing space ends the line (and is invisible).
    return escaped + " " if escaped.endswith("\\") else escaped


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


def _concat_list(streams: list[Path], durations: list[float]) -> str:
    """Return an ffconcat list whose explicit durations make each file start where the last ended."""
    lines = ["ffconcat version 1.0"]
    for stream, length in zip(streams, durations):
        lines += [f"file {_concat_quote(stream)}", f"duration {length:.6f}"]
    return "\n".join(lines) + "\n"


def _concat_quote(path: Path) -> str:
    """Quote a path for an ffconcat file (single quotes, ' written as '\\'')."""
    return "'" + str(Path(path).resolve()).replace("'", "'\\''") + "'"


@contextmanager
def temp_beside(out: Path):
    """Yield a unique temp path beside `out` with its extension; remove it unless it was moved."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"Cannot create {out.parent}: {exc.strerror or exc}", hint="Choose a writable --output folder") from None
    # The tag names this process, so the next run can sweep what a killed one left (app.files).
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
