"""Bound the --clone reference clip before any request carries it.

A clip goes into every speech request as base64 when the server cannot take
it as an uploaded voice (a remote server without the voices API, a router):
a 10-minute clip was 38 MB per request, 1.66 GB of memory at 16 in flight.
Models clone from a few seconds of speech, and sglang-omni itself refuses
uploads over 30 s, so a longer clip is refused with one line rather than
trimmed: the transcript has to match the audio exactly, and a trimmed clip
would clone from a part the user did not choose.
"""
from __future__ import annotations

from pathlib import Path

from app.audio import wav as wavinfo
from app.core.errors import BadAudio, InputError

#: Upstream's MAX_REFERENCE_AUDIO_SECONDS (serve/speech_voices.py).
MAX_CLIP_SECONDS = 30.0
#: Bytes of a clip of any format: 30 s of 48 kHz stereo 16-bit PCM, with a little room.
MAX_CLIP_BYTES = 6 * 1024 * 1024

_HINT = ("Cut 10-20 s of clean speech from it, e.g. "
         "`ffmpeg -i {clip} -ss 0 -t 20 -ac 1 -ar 24000 voices/short.wav`, and pass that with --clone")


def check_clip(clip: Path) -> None:
    """Raise InputError when the reference clip is longer or larger than a request should carry."""
    clip = Path(clip)
    size = clip.stat().st_size
    hint = _HINT.format(clip=clip)
    try:
        info = wavinfo.read_info(clip)
        seconds = info.frames / info.sample_rate
    except (BadAudio, ZeroDivisionError):
        seconds = None  # MP3, FLAC, ...: only the size can be judged here
    if seconds is not None and seconds > MAX_CLIP_SECONDS:
        raise InputError(f"Reference clip {clip.name} is {seconds:.0f} s long; voice cloning uses at most "
                         f"{MAX_CLIP_SECONDS:.0f} s (it goes into every request)", hint=hint)
    if size > MAX_CLIP_BYTES:
        raise InputError(f"Reference clip {clip.name} is {size / 1e6:.1f} MB; at most "
                         f"{MAX_CLIP_BYTES / 1e6:.1f} MB can go into every request", hint=hint)
