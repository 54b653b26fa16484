"""Listening through a server: sglang-omni 0.1.9's POST /v1/audio/transcriptions (Whisper, Qwen3-ASR).

The chunk's WAV bytes go up as a multipart upload (never a path, so a remote
server needs no access to our disk); `verbose_json` answers with the text,
the detected language and segment timings (the route gives no word timings,
so the timing sidecar holds segments only).

ServerTranscriber listens through any server (--asr-url); ManagedTranscriber
starts a listening model of the catalog (catalog.ASR_CATALOG) with the same
lifecycle code as the TTS server, beside it, and stops it with the run.
"""
from __future__ import annotations

import socket
import threading
from pathlib import Path

from app.backends.sglomni.catalog import ModelSpec
from app.core.http import Endpoint, Timeouts, parse_json, safe_url
from app.core.errors import ServerError
from app.listen.transcript import Segment, Transcript
from app.backends.sglomni.server import ManagedServer, ServerState

TRANSCRIPTIONS = "/v1/audio/transcriptions"
#: A chunk is seconds of audio; a transcription that takes longer than this is stuck.
READ_TIMEOUT = 300.0


class ServerTranscriber:
    """A Transcriber backed by a server's transcription route."""

    def __init__(self, url: str, *, model: str | None = None, concurrency: int = 2):
        self.url = url.rstrip("/")
        self.model = model
        self.identity = f"server:{safe_url(self.url)}:{model or 'default'}"
        self._endpoint: Endpoint | None = None
        self._lock = threading.Lock()
        self._concurrency = concurrency

    def _client(self) -> Endpoint:
        with self._lock:
            if self._endpoint is None:
                self._endpoint = Endpoint(self.url, timeouts=Timeouts(read=READ_TIMEOUT),
                                          max_connections=self._concurrency)
            return self._endpoint

    def transcribe(self, wav: Path, *, language: str | None = None) -> Transcript:
        """Upload `wav` and return what the server heard."""
        fields = {"response_format": "verbose_json", "temperature": "0"}
        if self.model:
            fields["model"] = self.model
        if language:
            fields["language"] = language
        with open(wav, "rb") as fh:
            response = self._client().request("POST", TRANSCRIPTIONS, data=fields,
                                              files={"file": ("chunk.wav", fh, "audio/wav")})
        data = parse_json(response, url=self.url + TRANSCRIPTIONS)
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            raise ServerError(f"{safe_url(self.url + TRANSCRIPTIONS)} answered without a transcript text",
                              transient=True)
        segments = tuple(Segment(str(s.get("text", "")).strip(), float(s["start"]), float(s["end"]))
                         for s in data.get("segments") or () if isinstance(s, dict) and "start" in s)
        return Transcript(text=data["text"].strip(), segments=segments, language=data.get("language"),
                          duration=data.get("duration"))

    def close(self) -> None:
        with self._lock:
            if self._endpoint is not None:
                self._endpoint.close()
                self._endpoint = None


def free_loopback_port() -> int:
    """Return a port the kernel has free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ManagedTranscriber(ServerTranscriber):
    """A listening model this tool starts beside the TTS server on first use and stops on close().

    The boot waits for the first take to hear, on the verification pool, so synthesis starts
    at once; the run's chunks queue for their verdicts meanwhile.
    """

    def __init__(self, spec: ModelSpec, *, port: int | None = None, start_timeout: float = 1200.0):
        self.server = ManagedServer(spec, port=port or free_loopback_port(), start_timeout=start_timeout)
        super().__init__(self.server.base_url, model=spec.key)
        # The model decides the verdicts, not the port it happened to get.
        self.identity = f"sglomni-asr:{spec.key}"
        self._boot = threading.Lock()
        self._closed = False

    def transcribe(self, wav: Path, *, language: str | None = None) -> Transcript:
        """Start the listening server if it is not running, then upload `wav` to it."""

        with self._boot:
            if self._closed:
                raise ServerError("The listening server was stopped with the run", transient=False)
            if self.server.state is not ServerState.READY:
                self.server.start()
        return super().transcribe(wav, language=language)

    def close(self) -> None:
        """Close the connection pool and stop the server if this run started it (ending a boot in progress)."""

        self.server.abort.set()  # a boot under way (on the verification pool) stops instead of being waited for
        super().close()
        with self._boot:
            self._closed = True
            if self.server.state is ServerState.READY:
                self.server.stop()
