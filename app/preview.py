"""`--preview "text"`: a few seconds of the chosen backend, voice and speed, before a whole book.

The sentence goes through the same spoken forms as a book (numbers, dates,
the lexicon) and the same backend a conversion would build, so what is heard
is what the book will sound like. The WAV is written beside the audiobooks
(or to -o FILE.wav) and played when a command-line player is found.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import wave
from pathlib import Path

from app.core import proc
from app.core import settings as settings_mod
from app.backends.base import VoiceOptions
from app.book.model import Book
from app.request import ConvertRequest, build_backend, speaker_for
from app.core.errors import InputError, environment_error
from app.core.files import temp_tag

#: Longest preview text: a preview is a sentence or two, a book is converted as a book.
MAX_PREVIEW_CHARS = 600

#: Players tried in order, each with the arguments that play a WAV once and exit.
PLAYERS = (("ffplay", ("-nodisp", "-autoexit", "-loglevel", "error")), ("pw-play", ()), ("paplay", ()),
           ("aplay", ("-q",)), ("afplay", ()))


def preview(req: ConvertRequest, text: str, conf: settings_mod.Settings | None = None,
            voice: VoiceOptions | None = None) -> Path:
    """Speak `text` into a WAV, play it on a terminal with a player, and return the WAV's path.

    `voice` (a cast's role, app/castview.py) replaces the run's voice for it.
    """
    conf = conf or settings_mod.load()
    text = " ".join(text.split())
    if not text:
        raise InputError("--preview needs some text to say", hint='e.g. --preview "It was a dark and stormy night."')
    if len(text) > MAX_PREVIEW_CHARS:
        raise InputError(f"--preview takes up to {MAX_PREVIEW_CHARS} characters, not {len(text)}",
                         hint="Put longer text in a .txt file and convert it")
    backend = build_backend(req, conf)  # a refused voice or speed leaves nothing behind
    sample = Book(title="Preview", author="", chapters=(), source=Path("preview.txt"), language=req.language or "en")
    spoken = speaker_for(req, sample, backend)(text)
    out = _output(req, conf)
    tmp = out.with_name(f".{out.name}.{temp_tag()}.wav")
    try:
        with backend:
            if voice is None:
                backend.synthesize(spoken, 0, tmp)
            else:
                backend.synthesize(spoken, 0, tmp, voice=voice)
        os.replace(tmp, out)
    except OSError as exc:
        raise environment_error(exc) or exc from exc
    finally:
        tmp.unlink(missing_ok=True)
    _play(out)
    return out


def _output(req: ConvertRequest, conf: settings_mod.Settings) -> Path:
    """Return where the preview goes: -o FILE.wav, else preview.wav in the output folder."""
    if req.output is None:
        folder = conf.resolved_output_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return folder / "preview.wav"
    out = Path(req.output).expanduser()
    if str(req.output).endswith("/") or out.is_dir():
        out.mkdir(parents=True, exist_ok=True)
        return out / "preview.wav"
    if out.suffix.lower() != ".wav":
        raise InputError(f"--preview writes a WAV file, not {out.name}", hint="Pass -o NAME.wav, or omit -o")
    out.parent.mkdir(parents=True, exist_ok=True)
    return out


def _play(wav: Path) -> None:
    """Play `wav` with the first player found, only when a person is at a terminal to hear it."""
    if not (sys.stdin and sys.stdin.isatty() and sys.stderr.isatty()):
        return
    for name, args in PLAYERS:
        exe = shutil.which(name)
        if exe:
            with wave.open(str(wav), "rb") as w:
                seconds = w.getnframes() / w.getframerate()
            print(f"playing with {name} (Ctrl-C stops it)", file=sys.stderr)
            try:
                proc.run([exe, *args, str(wav)], timeout=seconds + 15)
            except subprocess.TimeoutExpired:
                pass  # a player that hangs (no sound server) must not hang the command
            return
    print("no audio player found (ffplay, pw-play, paplay, aplay): open the WAV to hear it", file=sys.stderr)
