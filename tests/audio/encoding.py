"""Encode a chapter WAV file with the app's own encode arguments (the file counterpart of app/audio/stream.py).

The app encodes chapters only as streams; tests that need an encoded chapter
from a WAV they wrote use this, the same ffmpeg arguments on a file input.
"""
from __future__ import annotations

from pathlib import Path

from app.audio.export import BookMeta, cover_file, encode_args
from app.audio.ffmpeg import run_ffmpeg
from app.audio.wav import read_info


def encode_chapter(wav: Path, out: Path, *, fmt: str, meta: BookMeta, title: str, track: int, total: int,
                   ffmpeg: str, audio_filter: str | None = None) -> Path:
    """Encode one chapter WAV to AAC (ADTS for .aac, else MP4) or a tagged MP3 and return `out`."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with cover_file(meta.cover if fmt == "mp3" else None, out.parent, ffmpeg) as cover:
        run_ffmpeg([ffmpeg, "-i", str(wav), *encode_args(fmt, out, channels=min(read_info(wav).channels, 2), meta=meta,
                                                         title=title, track=track, total=total, cover=cover,
                                                         audio_filter=audio_filter), str(out)])
    return out
