"""The only module of the app that makes HTTP requests: one client per endpoint.

Every transport failure and every error status leaves this module as one of
the app's own errors (app.core.errors), with a one-line message that says what
went wrong and what to do. Modelled on ollama-python's `_request_raw` and
httpx's explicit `Timeout`/`Limits`.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from app.core.httpguard import Call, Guard
from app.core.redact import redact
from app.core.urls import display_url

from app.core.errors import (
    AudiobookError,
    BackendError,
    BadAudio,
    OutOfMemory,
    Cancelled,
    ServerBusy,
    ServerError,
    ServerUnavailable,
)

#: The seed's remediation for upstream's request-time CUDA OOM (colocated stages, unset pool).
OOM_HINT = (
    "The server's static memory pool leaves too little room for generation: restart it with a "
    "smaller budget, e.g. `sgl-omni serve ... --mem-fraction-static 0.70` (the vendored configs "
    "pin 0.70 for Qwen3-TTS/Voxtral, 0.80 for Higgs), or free GPU memory "
    "held by other processes"
)

_MAX_MESSAGE = 300


def one_line(text: str, limit: int = _MAX_MESSAGE) -> str:
    """Return `text` collapsed to one redacted line of at most `limit` characters."""
    flat = " ".join(redact(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def error_text(body: bytes | str) -> str:
    """Return the human message of an error body (OpenAI envelope, FastAPI detail, or text)."""
    raw = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        data = json.loads(raw)
    except ValueError:
        data = None
    if isinstance(data, dict):
        err = data.get("error")
        if isinstance(err, dict) and err.get("message"):
            return one_line(str(err["message"]))
        if isinstance(err, str) and err:
            return one_line(err)
        detail = data.get("detail")
        if isinstance(detail, str):
            return one_line(detail)
        if detail is not None:
            return one_line(json.dumps(detail))
        if data.get("message"):
            return one_line(str(data["message"]))
    if "<html" in raw[:500].lower():
        title = re.search(r"(?is)<title>(.*?)</title>", raw)
        return one_line(f"an HTML page ({title.group(1).strip() if title else 'no title'})")
    return one_line(raw) or "no message"


#: Error text that means "too much load right now", whatever the status code says.
_BUSY_TEXT = re.compile(r"(?i)queue is full|too many requests|server is busy|overloaded|try again later")

#: What an error answer means for the chunk that got it (the one classification of answers).
BUSY, TRANSIENT, PERMANENT = "busy", "transient", "permanent"


def classify(status: int, message: str) -> str:
    """Return whether an error answer is BUSY (send later), TRANSIENT (retry) or PERMANENT.

    sglang-omni 0.1.9 answers 503 "The request queue is full." when its admission queue
    (--max-queue) is full; 429 is the usual rate limit. Both say "not now", not "failed".
    """
    if status in (429, 503) or (status >= 500 and _BUSY_TEXT.search(message)):
        return BUSY
    if status >= 500 or status in (408, 425):
        return TRANSIENT
    return PERMANENT


def error_for_status(status: int, body: bytes | str, *, url: str) -> BackendError:
    """Return the app error for an HTTP error `status` with `body` from `url`."""
    where = safe_url(url)
    if 300 <= status < 400:
        # Not followed on purpose: a redirect can point a request (and its reference clip) anywhere.
        return ServerError(f"{where} answered with a redirect (HTTP {status}), not audio",
                           status=status, transient=False,
                           hint="Point --api-url at the server's own address (the one it redirects to), "
                                "not at a proxy or login page")
    message = error_text(body)
    if "CUDA out of memory" in message or "OutOfMemoryError" in message:
        return OutOfMemory(f"{where} ran out of GPU memory (HTTP {status}: {message})",
                           status=status, transient=True, hint=OOM_HINT)
    kind = classify(status, message)
    if kind == BUSY:
        return ServerBusy(f"{where} is busy (HTTP {status}: {message})", status=status,
                          hint="Chunks wait their turn; lower --concurrency if other clients need the server")
    if kind == TRANSIENT:
        return ServerError(f"{where} failed (HTTP {status}: {message})", status=status, transient=True,
                           hint="If it persists, check the server log")
    return ServerError(f"{where} refused the request (HTTP {status}: {message})", status=status,
                       transient=False)


def safe_url(url: str | httpx.URL) -> str:
    """Return `url` without credentials, query string or fragment (app.core.urls.display_url)."""
    return display_url(url)


def transport_error(exc: httpx.HTTPError, *, url: str, log_path: Path | None = None) -> BackendError:
    """Return the app error for a transport failure talking to `url`."""
    where = safe_url(url)
    managed = f"; see the server log {log_path}" if log_path else ""
    if isinstance(exc, httpx.ConnectError):
        hint = ("The managed server may have crashed: check its log, then re-run"
                if log_path else "Start the server or fix --api-url, then re-run")
        return ServerUnavailable(f"Cannot connect to the SGLang-Omni server at {where}{managed}",
                                 hint=hint, log_path=log_path)
    if isinstance(exc, httpx.TimeoutException):
        kind = type(exc).__name__
        err = ServerError(f"{where} did not answer in time ({kind}){managed}", transient=True,
                          hint="Raise the request timeout or lower --concurrency if this repeats",
                          log_path=log_path)
        return err
    if isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError,
                        httpx.NetworkError)):
        return ServerUnavailable(f"The connection to {where} broke ({type(exc).__name__}){managed}",
                                 log_path=log_path)
    return ServerError(f"Request to {where} failed: {one_line(str(exc)) or type(exc).__name__}",
                       transient=False, log_path=log_path)


#: Environment variable with the per-request synthesis timeout in seconds.
READ_TIMEOUT_VAR = "AUDIOBOOK_REQUEST_TIMEOUT"


def _env_seconds(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, "") or default)
    except ValueError:
        return default
    return value if value > 0 else default


@dataclass(frozen=True)
class Timeouts:
    """Seconds allowed per phase; synthesis reads are long, everything else short."""

    connect: float = 5.0
    #: Seconds one synthesis request may take; READ_TIMEOUT_VAR overrides it (tests, slow GPUs).
    read: float = field(default_factory=lambda: _env_seconds(READ_TIMEOUT_VAR, 900.0))
    write: float = 60.0
    pool: float = 900.0
    #: Read timeout for control calls (/health, /v1/models, voices).
    control: float = 10.0


class Endpoint:
    """One httpx.Client for one server, safe to share between threads."""

    def __init__(self, base_url: str, *, timeouts: Timeouts = Timeouts(), max_connections: int = 5,
                 log_path: Path | None = None, headers: Mapping[str, str] | None = None):
        self.base_url = base_url.rstrip("/")
        self.timeouts = timeouts
        self.log_path = log_path
        #: Connections open at once; the pool sizes it to the run's in-flight ceiling (endpoints.py).
        self.max_connections = max_connections
        # No keep-alive: each request opens its own connection, so the guard learns the socket
        # of every request and can cut it (a local connect costs ~0.1 ms against seconds of speech).
        limits = httpx.Limits(max_connections=max_connections, max_keepalive_connections=0)
        self.guard = Guard()
        self._client = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(connect=timeouts.connect, read=timeouts.read,
                                  write=timeouts.write, pool=timeouts.pool),
            limits=limits,
            headers=dict(headers or {}),
            trust_env=False,  # a proxy from the environment must not sit between us and 127.0.0.1
        )

    def request(self, method: str, path: str, *, control: bool = False, **kwargs: Any) -> httpx.Response:
        """Send one request and return the 2xx response, or raise the translated app error."""
        url = self.base_url + path
        if control:
            kwargs.setdefault("timeout", httpx.Timeout(self.timeouts.control,
                                                       connect=self.timeouts.connect))
        try:
            response = self._client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise transport_error(exc, url=url, log_path=self.log_path) from None
        except RuntimeError:
            raise self._closed_error(url) from None
        if response.status_code >= 300:  # redirects are not followed (see error_for_status)
            err = error_for_status(response.status_code, response.content, url=url)
            if self.log_path and err.log_path is None:
                err.log_path = self.log_path if response.status_code >= 500 else None
            raise err
        return response

    def _closed_error(self, url: str) -> Exception:
        """Return the error for a request that met this endpoint closed (re-raise anything else)."""
        if not self._client.is_closed:
            raise  # noqa: PLE0704 - called only from an except block: the RuntimeError is not ours
        # A server restart closed this endpoint under a waiting request; retrying on it
        # cannot succeed, so the caller must reconnect (not transient).
        err = ServerUnavailable(f"The connection to {safe_url(url)} was closed for a server restart",
                                log_path=self.log_path)
        err.transient = False
        return err

    def download(self, method: str, path: str, dest: Path, *, max_bytes: int | None = None,
                 seconds: float | None = None, **kwargs: Any) -> int:
        """Send one request and stream its 2xx body into `dest`; return the byte count.

        The body goes to disk in 64 KiB pieces, so a hundred 48 kHz stereo
        answers in flight cost no memory of their own. The answer may hold at
        most `max_bytes` and take at most `seconds` in total (checked while it
        streams; a watchdog cuts a request stuck in a read). Errors are translated
        as in request(); a partial `dest` is left for the caller to delete.
        """
        url = self.base_url + path
        call = self.guard.open(seconds)
        if call.cut:
            self.guard.close(call)
            raise Cancelled("Stopped before sending")
        extensions = {**kwargs.pop("extensions", {}), "trace": call.trace}
        try:
            with self._client.stream(method, path, extensions=extensions, **kwargs) as response:
                if response.status_code >= 300:  # redirects are not followed (see error_for_status)
                    err = error_for_status(response.status_code, _bounded_read(response), url=url)
                    if self.log_path and err.log_path is None and response.status_code >= 500:
                        err.log_path = self.log_path
                    raise err
                written = 0
                with open(dest, "wb") as fh:
                    for piece in response.iter_bytes(1 << 16):
                        fh.write(piece)
                        written += len(piece)
                        if max_bytes is not None and written > max_bytes:
                            raise BadAudio(f"{safe_url(url)} sent more than {max_bytes >> 20} MiB for one "
                                           f"chunk, far more audio than its text can take",
                                           hint="Check the server log; the chunk is sent again")
                        if call.cut or call.over_time():
                            break
                if call.cut or call.over_time():
                    raise self._cut_error(call, url)
                return written
        except httpx.HTTPError as exc:
            if call.cut or call.over_time():
                raise self._cut_error(call, url) from None
            raise transport_error(exc, url=url, log_path=self.log_path) from None
        except RuntimeError:
            raise self._closed_error(url) from None
        finally:
            self.guard.close(call)

    def _cut_error(self, call: Call, url: str) -> Exception:
        """Return the error for a request the guard cut (stopped by the user, or out of time)."""
        if call.cut == "abort" or self.guard.aborted:
            return Cancelled("Stopped: the request was abandoned")
        return ServerError(f"{safe_url(url)} did not finish one chunk within {call.seconds or 0:.0f} s",
                           transient=True, log_path=self.log_path,
                           hint="Raise AUDIOBOOK_REQUEST_TIMEOUT for a slow server, or lower --concurrency")

    def abort(self) -> None:
        """Cut every speech request in flight (the server sees the client go away) and refuse new ones."""
        self.guard.abort()

    def get_json(self, path: str, **kwargs: Any) -> Any:
        """GET `path` and return its JSON body (control timeout)."""
        response = self.request("GET", path, control=True, **kwargs)
        return parse_json(response, url=self.base_url + path)

    def close(self) -> None:
        """Close the pooled connections."""
        self._client.close()

    def __enter__(self) -> "Endpoint":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: Bytes of an error body worth reading: the message is in the first few hundred.
_MAX_ERROR_BODY = 64 << 10


def _bounded_read(response: httpx.Response) -> bytes:
    """Return at most _MAX_ERROR_BODY bytes of an error answer (an endless one must not fill memory)."""
    data = bytearray()
    for piece in response.iter_bytes(1 << 14):
        data += piece
        if len(data) >= _MAX_ERROR_BODY:
            break
    return bytes(data[:_MAX_ERROR_BODY])


def parse_json(response: httpx.Response, *, url: str) -> Any:
    """Return `response`'s JSON body or raise a ServerError naming `url`."""
    try:
        return response.json()
    except ValueError:
        raise ServerError(f"{safe_url(url)} answered with something that is not JSON "
                          f"({error_text(response.content)[:80]})",
                          status=response.status_code, transient=False,
                          hint="Check that the URL points at an sgl-omni server") from None


def probe_json(base_url: str, path: str, *, timeout: float = 2.0) -> tuple[int, Any] | None:
    """GET `base_url+path` once; return (status, JSON or None), or None when nothing answers.

    Used by readiness polling and discovery, where an error is an answer, not a failure.
    """
    try:
        with httpx.Client(timeout=timeout, trust_env=False) as client:
            response = client.get(base_url.rstrip("/") + path)
    except httpx.HTTPError:
        return None
    try:
        return response.status_code, response.json()
    except ValueError:
        return response.status_code, None


@dataclass(frozen=True)
class Health:
    """What one GET /health said: nothing (`answered` False), or a status and its JSON body."""

    answered: bool
    body: Any = None

    @property
    def healthy(self) -> bool:
        """Return whether the server is ready for requests."""
        return is_healthy(self.body)

    @property
    def state(self) -> str:
        """Return the status word for messages: "healthy", "starting", ..., or why there is none."""
        if not self.answered:
            return "not answering"
        if isinstance(self.body, dict) and self.body.get("status"):
            return str(self.body["status"])
        return "no JSON status"


def is_healthy(body: Any) -> bool:
    """Return whether a /health body says "healthy" (the one parser of /health).

    The JSON `status` field decides, never a substring: "healthy" is inside "unhealthy".
    """
    return isinstance(body, dict) and body.get("status") == "healthy"


def probe_health(base_url: str, *, timeout: float = 2.0) -> Health:
    """GET `base_url`/health once and return what it said (any status code is an answer)."""
    answer = probe_json(base_url, "/health", timeout=timeout)
    return Health(answered=answer is not None, body=answer[1] if answer else None)


__all__ = [
    "Health", "is_healthy", "probe_health", "AudiobookError", "Endpoint", "classify", "BUSY", "TRANSIENT", "PERMANENT", "Timeouts", "OOM_HINT", "error_for_status", "error_text",
    "transport_error", "probe_json", "parse_json", "redact", "one_line", "safe_url",
]
