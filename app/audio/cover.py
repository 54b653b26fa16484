"""`--cover IMAGE`: a picture of the user's for the audiobook's cover, checked before any synthesis."""
from __future__ import annotations

import tempfile
from pathlib import Path

from app.audio.ffmpeg import run_ffmpeg
from app.book.model import Cover
from app.core.errors import InputError, OutputError

#: Largest cover accepted: players show a few hundred pixels, and the M4B carries it whole.
MAX_COVER_BYTES = 20 * 1024 * 1024

#: Leading bytes of the picture types players show, and the type each is declared as.
_SIGNATURES = (
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
)

_HINT = "Pass a JPEG or PNG picture (a WebP, GIF or BMP is converted to PNG), or drop --cover to keep the book's own"


def read_cover(path: Path, ffmpeg: str) -> Cover:
    """Return the picture at `path` as a Cover; raise InputError in one line when it is not a readable image."""
    path = Path(path).expanduser()
    try:
        if not path.is_file():
            raise InputError(f"Cover {path} is not a file", hint=_HINT)
        size = path.stat().st_size
        if size > MAX_COVER_BYTES:
            raise InputError(f"Cover {path} is {size / 1e6:.0f} MB, over the {MAX_COVER_BYTES // 2**20} MiB a cover may be",
                             hint="Scale it down, e.g. to 1400x1400 pixels")
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"Cannot read the cover {path} ({exc.strerror or exc})", hint=_HINT) from None
    if not data:
        raise InputError(f"Cover {path} is empty", hint=_HINT)
    png = _decoded_png(path, ffmpeg)
    media_type = next((kind for magic, kind in _SIGNATURES if data.startswith(magic)), None)
    # A WebP, GIF or BMP goes in as the PNG ffmpeg made of it: the M4B and the EPUB both take PNG.
    return Cover(data=data, media_type=media_type) if media_type else Cover(data=png, media_type="image/png")


def _decoded_png(path: Path, ffmpeg: str) -> bytes:
    """Return the picture as PNG bytes; raise InputError unless ffmpeg decodes all of it without an error."""
    with tempfile.TemporaryDirectory(prefix="audiobook-cover-") as folder:
        try:
            # Errors fatal: a truncated JPEG decodes "with warnings" otherwise, and the cover
            # would be left out at the mux, after the whole book was synthesized.
            run_ffmpeg([ffmpeg, "-v", "error", "-err_detect", "explode", "-xerror", "-i", str(path),
                        "-frames:v", "1", "-f", "image2", "-c:v", "png", str(Path(folder) / "probe.png")])
        except OutputError:
            raise InputError(f"Cover {path} is not a picture ffmpeg can read", hint=_HINT) from None
        png = Path(folder) / "probe.png"
        if not png.is_file() or png.stat().st_size == 0:
            raise InputError(f"Cover {path} holds no picture", hint=_HINT)
        return png.read_bytes()
