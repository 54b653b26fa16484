"""The M4B as ffmpeg's own MP4 muxer writes it: the reference the app's writer is checked against.

This is how the app muxed before it wrote MP4 boxes itself (concat demuxer over
the ADTS chapter files, stream copy, ffmetadata chapters in milliseconds, the
`ipod` muxer): an independent writer of the same inputs.
"""
from __future__ import annotations

import re
from pathlib import Path

from app.audio.ffmpeg import ffmpeg_exe, run_ffmpeg
from tests.media import AAC_FRAME_SAMPLES


def ffmpeg_m4b(chapters: list[tuple[str, Path]], out: Path, *, tags: dict[str, str], cover: Path | None,
               rate: int, frames: list[int]) -> Path:
    """Mux ADTS `chapters` ((title, path), each `frames[i]` AAC frames at `rate`) into `out` with ffmpeg."""
    ff = ffmpeg_exe()
    lengths = [n * AAC_FRAME_SAMPLES / rate for n in frames]
    listing = out.with_suffix(".ffconcat")
    lines = ["ffconcat version 1.0"]
    for (_, path), length in zip(chapters, lengths):
        lines += ["file '" + str(Path(path).resolve()).replace("'", "'\\''") + "'", f"duration {length:.6f}"]
    listing.write_text("\n".join(lines) + "\n", encoding="utf-8")
    meta = out.with_suffix(".ffmeta")
    lines = [";FFMETADATA1"] + [f"{k}={_escape(v)}" for k, v in tags.items()]
    start = 0.0
    for (title, _), length in zip(chapters, lengths):
        lines += ["[CHAPTER]", "TIMEBASE=1/1000", f"START={round(start * 1000)}",
                  f"END={round((start + length) * 1000)}", f"title={_escape(title)}"]
        start += length
    meta.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = [ff, "-f", "concat", "-safe", "0", "-i", str(listing), "-i", str(meta)]
    if cover is not None:
        args += ["-i", str(cover)]
    args += ["-map", "0:a", "-map_metadata", "1", "-map_chapters", "1", "-c:a", "copy", "-bsf:a", "aac_adtstoasc"]
    if cover is not None:
        args += ["-map", "2:v", "-c:v", "copy", "-disposition:v:0", "attached_pic"]
    run_ffmpeg([*args, "-movie_timescale", "1000", "-f", "ipod", str(out)])
    return out


def _escape(value: str) -> str:
    return re.sub(r"([=;#\\\n])", r"\\\1", value)
