"""Read finished media with ffprobe, an independent reader (not the app's own ffmetadata parser)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

#: Samples per AAC frame: an ADTS file's exact length is its frames x 1024 / rate.
AAC_FRAME_SAMPLES = 1024


def _ffprobe(*args: str) -> dict:
    exe = shutil.which("ffprobe")
    assert exe, "ffprobe is not installed: run bash scripts/system-deps.sh"
    out = subprocess.run([exe, "-v", "error", *args, "-of", "json"], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    return json.loads(out)


def read_chapters(path: Path) -> list[tuple[str, float, float]]:
    """Return (title, start_s, end_s) for each chapter marker of a media file."""
    data = _ffprobe("-show_chapters", str(path))
    return [(c.get("tags", {}).get("title", ""), float(c["start_time"]), float(c["end_time"]))
            for c in data.get("chapters", [])]


def media_duration(path: Path) -> float:
    """Return a media file's length in seconds; an ADTS stream's from its frame count (ffprobe only
    estimates it from the bitrate)."""
    if Path(path).suffix.lower() == ".aac":
        data = _ffprobe("-count_packets", "-select_streams", "a:0",
                        "-show_entries", "stream=nb_read_packets,sample_rate", str(path))
        stream = data["streams"][0]
        return int(stream["nb_read_packets"]) * AAC_FRAME_SAMPLES / int(stream["sample_rate"])
    return float(_ffprobe("-show_entries", "format=duration", str(path))["format"]["duration"])


__all__ = ["read_chapters", "media_duration"]
