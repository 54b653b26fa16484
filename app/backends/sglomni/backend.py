"""The sglomni Backend: a catalog model on a managed or external sgl-omni server."""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.backends.base import Backend, BackendOptions, Delivery, VoiceOffer, VoiceOptions
from app.backends.sglomni import catalog, client, policy, reference, requests, server
from app.backends.sglomni.procgroup import group_alive
from app.listen import clip as clip_transcript
from app.backends.sglomni.clipcheck import check_clip
from app.backends.sglomni.endpoints import EndpointPool
from app.core.http import Endpoint, Timeouts
from app.core.errors import ConfigError, InputError, ServerUnavailable
from app.core.files import sha256_file
from app.core import paths

log = logging.getLogger(__name__)

#: In-flight requests: the guide's measured peak (section 7.3: ~96 in flight for 64 running).
DEFAULT_CONCURRENCY = 96
#: Restarts of a managed server that died mid-run, per backend lifetime.
MAX_RESTARTS = 3
#: Seconds a managed server whose request just broke may take to finish dying: a killed process's
#: sockets close while it is still exiting, so the request fails before the process is gone.
DEATH_GRACE_SECONDS = 3.0


class SglomniBackend(Backend):
    """Speaks through `POST /v1/audio/speech` on one sgl-omni server per model."""

    name = "sglomni"
    cuts_in_flight = True

    def __init__(self, options: BackendOptions, *, timeouts: Timeouts = Timeouts()):
        #: Resolved once by app.options (command line or hub form, then settings, then defaults).
        self.options = options
        self.spec = catalog.get(options.model or policy.served_model(options))
        if not options.api_urls:
            server.check_bind_host(options.host, options.source("host"))  # before any install or boot
        self.voice = options.voice
        for warning in requests.check_options(self.spec, self.voice):
            log.warning("%s", warning)
        self.timeouts = timeouts
        self.handle: policy.ServerHandle | None = None
        #: The servers this run speaks to (one unless --api-url is repeated).
        self._client: EndpointPool | None = None
        self._lock = threading.Lock()
        if self.voice.clone is not None and not Path(self.voice.clone).is_file():
            raise InputError(f"Reference clip {self.voice.clone} does not exist",
                             hint="Put 10-20 s of clean speech in voices/ and pass --clone voices/NAME.wav")
        if self.voice.clone is not None:
            check_clip(Path(self.voice.clone))
        self._clone_sha = sha256_file(Path(self.voice.clone)) if self.voice.clone else None
        self._transcript: str | None = None
        self._transcript_done = False
        #: A cast's clips: (sha256, transcript) by clip path, resolved once.
        self._cast_clips: dict[Path, tuple[str, str | None]] = {}
        self._generation = 0
        self.restarts = 0
        #: Set by abort(): a dead server is not restarted for a run the user stopped.
        self._aborted = False
        #: Set by abort(): a managed server still booting is stopped instead of waited for.
        self._boot_abort = threading.Event()

    # -- what the pipeline asks ------------------------------------------------------------
    @property
    def default_chunk_size(self) -> int:
        return self.spec.default_chunk_size

    @property
    def max_chunk_words(self) -> int | None:
        return self.spec.max_chunk_words

    @property
    def adaptive(self) -> bool:
        """Return True unless --concurrency pins the in-flight count (then it is exact)."""
        return not self.options.concurrency

    @property
    def concurrency(self) -> int:
        pool = self._client
        return self.ceiling(pool.workers if pool else max(1, len(self.options.api_urls)))

    def ceiling(self, workers: int) -> int:
        """Return the in-flight ceiling for `workers` GPUs-worth of servers (router workers counted).

        --concurrency pins it; else a ceiling per GPU-worth: several --api-url or a router's workers add up.
        """
        return self.options.concurrency or DEFAULT_CONCURRENCY * workers

    @property
    def profile(self) -> str | None:
        return server.pick_profile(self.spec, self.options)

    def transcript(self) -> str | None:
        """Return the clone clip's transcript, resolving it once (Whisper may run)."""
        if not self._transcript_done:
            self._transcript = client.resolve_transcript(self.voice, whisper_model=self.voice.whisper_model)
            if self.voice.clone is not None:
                # Before any request: Qwen3-TTS Base answers a clip without ref_text with a 400.
                requests.require_transcript(self.spec, self._transcript,
                                            can_transcribe=clip_transcript.can_transcribe())
            self._transcript_done = True
        return self._transcript

    def identity(self) -> dict[str, Any]:
        return {
            "backend": self.name,
            "model": self.spec.key,
            "model_path": self.spec.model_path,
            "voice": self.voice.voice,
            "instructions": self.voice.instructions,
            "clone_sha256": self._clone_sha,
            "transcript": self.transcript(),
            "language": self.voice.language,
            "request_extras": dict(self.spec.request_extras),
            "params": dict(self.voice.params),
            "profile": self.profile,
        }

    @property
    def run_voice(self) -> VoiceOptions:
        return self.voice

    def identity_for(self, voice: VoiceOptions) -> dict[str, Any]:
        """Return the identity of a chunk spoken in `voice` (a cast's role); the run's own voice: identity()."""
        if voice == self.voice:
            return self.identity()
        clip_sha, transcript = self._clip(voice)
        return {**self.identity(), "voice": voice.voice, "instructions": voice.instructions,
                "clone_sha256": clip_sha, "transcript": transcript}

    def _clip(self, voice: VoiceOptions) -> tuple[str | None, str | None]:
        """Return the sha256 and transcript of `voice`'s clip (transcribed once), or (None, None)."""
        if voice.clone is None:
            return None, None
        clip = Path(voice.clone).resolve()
        if self.voice.clone is not None and clip == Path(self.voice.clone).resolve():
            return self._clone_sha, self.transcript()
        if clip not in self._cast_clips:
            check_clip(clip)
            transcript = client.resolve_transcript(voice, whisper_model=self.voice.whisper_model)
            requests.require_transcript(self.spec, transcript, can_transcribe=clip_transcript.can_transcribe())
            self._cast_clips[clip] = (sha256_file(clip), transcript)
        return self._cast_clips[clip]

    def check_voice(self, voice: VoiceOptions, role: str) -> list[str]:
        """Refuse, in one line naming `role`, what this model cannot honour; return warnings."""
        try:
            warnings = requests.check_options(self.spec, voice)
            name = voice.voice
            if name and name != self.voice.voice:
                takes = self.spec.request.voice == catalog.TAKES
                if not takes and self.spec.key not in reference.UPLOADED_VOICE_MODELS:
                    raise ConfigError(f"{self.spec.key} takes no preset voice ('{name}')",
                                      hint="Give it instructions or a clone clip, as the model takes")
                if takes and self.spec.preset_voices and name.casefold() not in \
                        {v.casefold() for v in self.spec.preset_voices}:
                    raise ConfigError(f"{self.spec.key} has no preset voice '{name}'",
                                      hint=f"Its voices: {', '.join(self.spec.preset_voices)}")
            if voice.timbre:
                raise ConfigError(f"{self.spec.key} takes no timbre ('{voice.timbre}')",
                                  hint="Drop timbre: it is Piper's; give a preset voice or instructions")
            if voice.speed not in (None, 1.0):
                raise ConfigError(f"{self.spec.key} takes no speaking rate (speed)",
                                  hint="Drop speed: it is Piper's; a server voice keeps its rate")
            self.identity_for(voice)
        except ConfigError as exc:
            raise ConfigError(f"{role}: {exc.message}", hint=exc.hint) from None
        return [f"{role}: {w}" for w in warnings]

    def deliver(self, voice: VoiceOptions, delivery: Delivery) -> VoiceOptions | None:
        """Return `voice` with the tag's delivery added to its instructions, for a model that reads them."""
        if self.spec.request.instructions not in (catalog.TAKES, catalog.REQUIRED):
            return None
        words = delivery.words
        return replace(voice, instructions=f"{voice.instructions} {words}" if voice.instructions else words)

    def voice_offer(self) -> VoiceOffer:
        """Return the model's presets (with gender), whether it designs voices, and clips it could clone."""

        takes_instructions = self.spec.request.instructions in (catalog.TAKES, catalog.REQUIRED)
        presets = tuple((name, None, self.spec.preset_genders.get(name)) for name in self.spec.preset_voices
                        if name in self.spec.preset_genders or not self.spec.preset_genders)
        # A model that speaks without a clip and reads instructions designs a voice from them.
        needs_clip = self.spec.reference_required or self.spec.request.references == catalog.REQUIRED
        design = "design" in self.spec.capabilities or (takes_instructions and not presets and not needs_clip)
        clips: tuple[Path, ...] = ()
        if not presets and not design and "clone" in self.spec.capabilities:
            try:
                clips = tuple(sorted(paths.voices_dir().glob("*.wav")))
            except OSError:
                clips = ()
        narrator = self.voice.voice if self.voice.voice not in (None, "default") else self.spec.default_preset
        return VoiceOffer(presets=presets, design=design, clips=clips, narrator_voice=narrator,
                          directions=takes_instructions)

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        """Find or boot the server and prepare the request client."""
        with self._lock:
            if self._client is not None:
                return
            if len(self.options.api_urls) > 1:
                self._connect_many()
                return
            handle = policy.ensure_server(self.spec, self.options, abort=self._boot_abort)
            try:
                self._connect(handle)
            except BaseException:
                handle.stop()
                raise
            self.handle = handle

    def _connect(self, handle: policy.ServerHandle) -> None:
        self._client = self._open_pool([(handle.base_url, handle.log_path)])

    def _connect_many(self) -> None:
        """Check every --api-url server (the model each hosts) and open the pool over them."""
        servers, down, first_error = [], set(), None
        for url in dict.fromkeys(u.rstrip("/") for u in self.options.api_urls):
            try:
                handle = self._check_server(url)
            except ServerUnavailable as exc:
                # A server still booting or down joins later through the pool's /health probes.
                log.warning("%s; continuing with the other servers", exc.message)
                down.add(url)
                first_error = first_error or exc
                handle = None
            servers.append((url, handle.log_path if handle else None))
        if len(down) == len(servers):
            assert first_error is not None
            raise first_error
        self._client = self._open_pool(servers, down=down)
        self.handle = None

    def _check_server(self, url: str) -> policy.ServerHandle:
        """Return the handle of external server `url` after checking it hosts this run's model."""
        return policy.ensure_server(self.spec, replace(self.options, api_urls=(url,)))

    def _open_pool(self, servers: list, *, down: set[str] = frozenset()) -> EndpointPool:
        clip, transcript = (Path(self.voice.clone), self.transcript()) if self.voice.clone else (None, None)

        def make_endpoint(url: str, log_path: Path | None, connections: int) -> Endpoint:
            return Endpoint(url, timeouts=self.timeouts, max_connections=connections, log_path=log_path)

        def make_speech(endpoint: Endpoint, ref: reference.Reference | None) -> client.SpeechClient:
            return client.SpeechClient(endpoint, self.spec, self.voice, ref_audio=ref.ref_audio if ref else None,
                                       ref_text=ref.ref_text if ref else None, voice_name=ref.voice if ref else None)

        def prepare(endpoint: Endpoint, health: Any) -> reference.Reference | None:
            if clip is None:
                return None
            assert self._clone_sha is not None
            return reference.prepare(endpoint, self.spec, clip, self._clone_sha, transcript, health=health)

        def fallback(url: str) -> reference.Reference | None:
            return reference.inline(clip, transcript, base_url=url) if clip is not None else None

        return EndpointPool.open(servers, make_endpoint=make_endpoint, make_speech=make_speech, prepare=prepare,
                                 ceiling=self.ceiling, check=self._check_server, fallback=fallback, down=down)

    def abort(self) -> None:
        """Cut every request in flight now (a second Ctrl-C), or a boot in progress; stop() still runs afterwards."""
        self._aborted = True
        self._boot_abort.set()
        pool = self._client
        if pool is not None:
            pool.abort()

    def stop(self) -> None:
        """Close connections and stop the server only if this backend started it."""
        with self._lock:
            if self._client is not None:
                self._client.close()
            self._client = None
            handle, self.handle = self.handle, None
        if handle is not None:
            handle.stop()

    def status_label(self) -> str:
        """Return the model as shown in status lines, e.g. 'zonos2 (bf16 fallback)'."""
        if self.handle is not None:
            return self.handle.label
        if self.options.api_urls:
            return self.spec.key  # an external server's config is its own, not this GPU's choice
        return server.config_for(self.spec, self.profile)[1]

    def describe(self) -> str:
        """Return the run header's name: the backend and the model as launched."""
        return f"{self.name} {self.status_label()}"

    def _managed_server_died(self) -> bool:
        """Return whether the server we started is gone, giving a process in mid-exit a moment."""
        handle = self.handle
        if not (handle is not None and handle.started_by_us and handle.server is not None
                and handle.server.pid is not None):
            return False
        deadline = time.monotonic() + DEATH_GRACE_SECONDS
        while group_alive(handle.server.pid):
            if self._aborted or time.monotonic() >= deadline:
                return False  # alive: the broken request was the server's answer, not its death
            time.sleep(0.05)
        return True

    def restart(self, generation: int) -> None:
        """Restart the managed server once per failure `generation` (bounded by MAX_RESTARTS)."""
        with self._lock:
            if generation != self._generation:
                return  # another thread already restarted it
            if self.restarts >= MAX_RESTARTS:
                raise ServerUnavailable(f"The managed server died {self.restarts + 1} times during this run",
                                        log_path=self.handle.log_path if self.handle else None,
                                        hint="Check the server log; finished chunks are kept, re-run to resume")
            self.restarts += 1
            # Bump first: a thread whose request fails on the closing client must see the
            # restart at once and wait for it (start() takes the lock), not report an error.
            self._generation += 1
            log.warning("the managed sgl-omni server died; restarting it (%d/%d)", self.restarts, MAX_RESTARTS)
            old, self.handle = self.handle, None
            if self._client is not None:
                self._client.close()
            self._client = None
            if old is not None:
                old.stop()
            handle = policy.ensure_server(self.spec, self.options, abort=self._boot_abort)
            self._connect(handle)
            self.handle = handle

    # -- work ------------------------------------------------------------------------------
    def synthesize(self, text: str, seed: int, out_path: Path, voice: VoiceOptions | None = None) -> None:
        if voice is not None:
            if voice == self.voice:
                voice = None
            elif voice.clone is not None and not voice.transcription:
                voice = replace(voice, transcription=self._clip(voice)[1])
        while True:
            generation, speech = self._generation, self._client
            if speech is None:  # not started yet, or another thread is restarting the server
                self.start()
                continue
            try:
                speech.synthesize(text, seed, Path(out_path), voice=voice)
                return
            except ServerUnavailable:
                if generation != self._generation:
                    continue  # another thread restarted the server meanwhile: use the new client
                if self._aborted or not self._managed_server_died():
                    raise
            self.restart(generation)


def create(options: BackendOptions) -> Backend:
    """Return an sglomni backend for `options` (the registry's factory)."""
    return SglomniBackend(options)
