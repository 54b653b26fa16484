"""A reference clip on the wire (a loopback path or a data URI), the voices routes, the WAV check.

The speech client (client.py) and the cast's uploaded clips (reference.py) both build on these.
"""
from __future__ import annotations

import base64
import ipaddress
import mimetypes
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.audio.wav import WavInfo, validate_wav_bytes
from app.core.errors import BackendError
from app.core.http import Endpoint, parse_json

#: The media type of a clip by its suffix.
AUDIO_TYPES = {".wav": "audio/wav", ".flac": "audio/flac", ".mp3": "audio/mpeg",
                ".ogg": "audio/ogg", ".m4a": "audio/mp4"}


def is_loopback(base_url: str) -> bool:
    """Return whether `base_url` points at this machine (so it can read our local files)."""
    host = (urlsplit(base_url).hostname or "").strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def reference_value(clip: Path, *, loopback: bool) -> str:
    """Return the `ref_audio` for `clip`: its absolute path for a loopback server, else a data URI."""
    clip = Path(clip).expanduser().resolve()
    if not clip.is_file():
        raise BackendError(f"Reference clip {clip} does not exist",
                           hint="Put 10-20 s of clean speech in voices/ and pass --clone voices/NAME.wav")
    if loopback:
        return str(clip)
    media = AUDIO_TYPES.get(clip.suffix.lower()) or mimetypes.guess_type(clip.name)[0] or "audio/wav"
    return f"data:{media};base64,{base64.b64encode(clip.read_bytes()).decode('ascii')}"


def check_wav(data: bytes) -> WavInfo:
    """Return the WAV's format, or raise BadAudio for anything that is not complete WAV audio."""
    return validate_wav_bytes(data)


def list_voices(endpoint: Endpoint) -> dict[str, Any]:
    """Return GET /v1/audio/voices: {"voices": [...], "uploaded_voices": [...], "cache_stats": {...}}."""
    return endpoint.get_json("/v1/audio/voices")


def upload_voice(endpoint: Endpoint, name: str, clip: Path, *, consent: str = "owner",
                 ref_text: str | None = None, speaker_description: str | None = None) -> dict[str, Any]:
    """Upload `clip` as voice `name` (multipart POST /v1/audio/voices) and return its metadata."""
    clip = Path(clip)
    media = AUDIO_TYPES.get(clip.suffix.lower(), "audio/wav")
    form = {"name": name, "consent": consent}
    if ref_text:
        form["ref_text"] = ref_text
    if speaker_description:
        form["speaker_description"] = speaker_description
    response = endpoint.request("POST", "/v1/audio/voices", control=True, data=form,
                                files={"audio_sample": (clip.name, clip.read_bytes(), media)})
    return parse_json(response, url=endpoint.base_url + "/v1/audio/voices")
