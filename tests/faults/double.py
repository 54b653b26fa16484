"""The sglomni server double with per-request faults for the fault suite.

Runs tests/sglomni/double/server.py (every SGO_DOUBLE_* variable still works)
and adds faults that depend on the request, chosen by environment variables:

  FAULT_LOG=FILE             append every speech request as {"n", "input", "seed", "fault"} JSON
  FAULT_FAIL_EVERY=N         every Nth speech request answers HTTP 500; every other one of those
                             carries upstream's CUDA out-of-memory text
  FAULT_HANG_EVERY=N         every Nth speech request sleeps FAULT_HANG_SECONDS (30) before answering
  FAULT_FORMATS=R/C,R/C,...  answer request n in format n mod len (sample rate / channels)
  FAULT_FLOAT=1              answer 32-bit float WAV
  FAULT_SILENT=first|all     silent audio for a text's first seed, or for every seed
  FAULT_RUNAWAY=WORD         90 s of audio for the first seed of texts containing WORD
  FAULT_BAD_EVERY=N          every Nth answer is (in turn) an HTML page, plain text or a truncated WAV
  FAULT_TRICKLE=first|all    send a WAV header, then one byte every 0.2 s (for a text's first seed, or always)
  FAULT_ENDLESS=first|all    send a WAV of unknown length whose samples never end (no Content-Length)
  FAULT_ABSURD=first|all     a short WAV whose header claims a sample rate of 0xFFFFFFF0
  FAULT_HOLD_AFTER=N         speech requests after the Nth are logged as "held" when they arrive and then
  FAULT_GATE=FILE            wait (at most 120 s) until FILE exists: a pause point a test opens when it is ready
"""
from __future__ import annotations

import io
import json
import os
import sys
import threading
import time
import wave
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from tests.sglomni.double import server as base  # noqa: E402

_lock = threading.Lock()
_count = 0
_first_seed: dict[str, int] = {}


def _env_int(name: str) -> int:
    return int(os.environ.get(name, "0") or 0)


def _log(entry: dict) -> None:
    path = os.environ.get("FAULT_LOG")
    if path:
        with _lock, open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")


def _wav(pcm_float, rate: int, channels: int, *, as_float: bool = False) -> bytes:
    import numpy as np
    frames = np.repeat(np.asarray(pcm_float, dtype=np.float64)[:, None], channels, axis=1)
    if as_float:
        data = frames.astype("<f4").tobytes()
        fmt = (b"fmt " + (16).to_bytes(4, "little") + (3).to_bytes(2, "little") + channels.to_bytes(2, "little")
               + rate.to_bytes(4, "little") + (rate * channels * 4).to_bytes(4, "little")
               + (channels * 4).to_bytes(2, "little") + (32).to_bytes(2, "little"))
        body = b"WAVE" + fmt + b"data" + len(data).to_bytes(4, "little") + data
        return b"RIFF" + len(body).to_bytes(4, "little") + body
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes((np.clip(frames, -1, 1) * 32767).astype("<i2").tobytes())
    return buf.getvalue()


def _tone(words: int, rate: int, seconds_per_word: float = 0.25):
    import numpy as np
    n = int(rate * seconds_per_word * max(1, words))
    return 0.3 * np.sin(2 * np.pi * 220 * np.arange(n) / rate)


_original_speech = base.Handler._speech


def _hold(n: int, text: str, seed) -> None:
    """Hold request `n` at the test's gate (FAULT_HOLD_AFTER, FAULT_GATE), saying first that it arrived."""
    after, gate = _env_int("FAULT_HOLD_AFTER"), os.environ.get("FAULT_GATE")
    if not (after and gate and n > after):
        return
    _log({"n": n, "input": text, "seed": seed, "fault": "held", "t": time.time()})
    deadline = time.monotonic() + 120
    while not Path(gate).exists() and time.monotonic() < deadline:
        time.sleep(0.02)


def _speech(self, p: dict):
    global _count
    text = p.get("input") if isinstance(p.get("input"), str) else ""
    seed = p.get("seed")
    with _lock:
        _count += 1
        n = _count
        first = _first_seed.setdefault(text, seed) == seed
    m = self.state.model
    words = len(text.split())
    fault = None
    _hold(n, text, seed)
    try:
        every = _env_int("FAULT_HANG_EVERY")
        if every and n % every == 0:
            _log({"n": n, "input": text, "seed": seed, "fault": "hang", "t": time.time()})
            fault = "hang-answered"
            time.sleep(float(os.environ.get("FAULT_HANG_SECONDS", "30")))
            return self._send(200, _wav(_tone(words, m.rate), m.rate, m.channels), "audio/wav")
        every = _env_int("FAULT_FAIL_EVERY")
        if every and n % every == 0:
            oom = (n // every) % 2 == 1
            fault = "oom" if oom else "500"
            message = base.OOM_TEXT if oom else "Error generating speech: engine step failed"
            return self._json(500, base.error_payload(message, error_type="server_error", code=None))
        every = _env_int("FAULT_BAD_EVERY")
        if every and n % every == 0:
            fault = ("html", "text", "truncated")[(n // every) % 3]
            if fault == "html":
                return self._send(502, b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
                                  "text/html")
            if fault == "text":
                return self._send(200, b"upstream connect error", "text/plain")
            return self._send(200, _wav(_tone(words, m.rate), m.rate, m.channels)[:300], "audio/wav")
        for mode in ("TRICKLE", "ENDLESS", "ABSURD"):
            chosen = os.environ.get(f"FAULT_{mode}")
            if chosen == "all" or (chosen == "first" and first):
                fault = mode.lower()
                _log({"n": n, "input": text, "seed": seed, "fault": f"{fault}-started", "t": time.time()})
                return getattr(self, f"_fault_{fault}")(words, m.rate, m.channels)
        runaway = os.environ.get("FAULT_RUNAWAY")
        if runaway and runaway in text and first:
            fault = "runaway"
            return self._send(200, _wav(_tone(360, m.rate), m.rate, m.channels), "audio/wav")
        silent = os.environ.get("FAULT_SILENT")
        if silent == "all" or (silent == "first" and first):
            fault = "silent"
            return self._send(200, _wav(_tone(words, m.rate) * 0, m.rate, m.channels), "audio/wav")
        formats = os.environ.get("FAULT_FORMATS")
        if formats or os.environ.get("FAULT_FLOAT") == "1":
            choices = [tuple(int(x) for x in f.split("/")) for f in (formats or f"{m.rate}/{m.channels}").split(",")]
            rate, channels = choices[n % len(choices)]
            fault = f"{rate}/{channels}" + ("/float" if os.environ.get("FAULT_FLOAT") == "1" else "")
            return self._send(200, _wav(_tone(words, rate), rate, channels,
                                        as_float=os.environ.get("FAULT_FLOAT") == "1"), "audio/wav")
        return _original_speech(self, p)
    finally:
        if getattr(self, "queue_full", False):
            fault, self.queue_full = "queue-full", False
        _log({"n": n, "input": text, "seed": seed, "fault": fault, "t": time.time()})


def _wav_head(rate: int, channels: int, data_size: int) -> bytes:
    fmt = (b"fmt " + (16).to_bytes(4, "little") + (1).to_bytes(2, "little") + channels.to_bytes(2, "little")
           + rate.to_bytes(4, "little") + ((rate * channels * 2) & 0xFFFFFFFF).to_bytes(4, "little")
           + (channels * 2).to_bytes(2, "little") + (16).to_bytes(2, "little"))
    return b"RIFF" + (0xFFFFFFFF).to_bytes(4, "little") + b"WAVE" + fmt + b"data" + data_size.to_bytes(4, "little")


def _fault_trickle(self, words: int, rate: int, channels: int):
    """Promise a whole WAV, then send it a byte at a time: each byte restarts a read timeout."""
    body = _wav(_tone(words, rate), rate, channels)
    self.send_response(200)
    self.send_header("Content-Type", "audio/wav")
    self.send_header("Content-Length", str(len(body)))
    self.end_headers()
    try:
        for i in range(len(body)):
            self.wfile.write(body[i:i + 1])
            self.wfile.flush()
            time.sleep(0.2)
    except OSError:
        pass  # the client cut the request


def _fault_endless(self, words: int, rate: int, channels: int):
    """Stream samples of an unknown-length WAV until the client goes away."""
    self.send_response(200)
    self.send_header("Content-Type", "audio/wav")
    self.send_header("Connection", "close")
    self.end_headers()
    self.close_connection = True
    block = _wav(_tone(words, rate), rate, channels)[44:] or b"\x00\x10" * 4096
    try:
        self.wfile.write(_wav_head(rate, channels, 0xFFFFFFFF))
        while True:
            self.wfile.write(block)
    except OSError:
        pass


def _fault_absurd(self, words: int, rate: int, channels: int):
    """A short WAV whose header claims a sample rate no audio has."""
    samples = _wav(_tone(1, rate), rate, channels)[44:][:4000]
    body = _wav_head(0xFFFFFFF0, channels, len(samples)) + samples
    return self._send(200, body, "audio/wav")


base.Handler._speech = _speech
base.Handler._fault_trickle = _fault_trickle
base.Handler._fault_endless = _fault_endless
base.Handler._fault_absurd = _fault_absurd

if __name__ == "__main__":
    sys.exit(base.main())
