"""A load generator that answers like a continuous-batching sgl-omni TTS server.

Speaks /health, /v1/models and /v1/audio/speech (WAV) on 127.0.0.1 only;
timing comes from benchmarks.loadgen_model (calibrated to the MOSS-TTS-Local
A100 guide, section 7.3), with --time-scale compressing wall time so a
10-hour book takes minutes. Bodies are real 16-bit WAV of the modelled
duration (quiet noise, not silence). POST /v1/audio/transcriptions answers
like a GPU ASR model served beside the TTS one (sglang-omni's Whisper
pipeline): after audio_seconds / --asr-rtf wall seconds (scaled like the TTS
model), with the text whose speech it served for those exact bytes. Run:

    python -m benchmarks.loadgen_server --port 8731 [--time-scale 10] [--max-queued 0]
"""
from __future__ import annotations

import argparse
import asyncio
import email.parser
import hashlib
import json
import random
import struct
import time
from dataclasses import fields

from benchmarks.loadgen_model import BatchServerModel, ModelParams

WORDS_PER_SECOND = 2.6


def wav_header(frames: int, rate: int, channels: int) -> bytes:
    """Return a 44-byte PCM16 WAV header for `frames` frames."""
    data = frames * channels * 2
    return (b"RIFF" + struct.pack("<I", 36 + data) + b"WAVEfmt " +
            struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * channels * 2, channels * 2, 16) +
            b"data" + struct.pack("<I", data))


class LoadServer:
    def __init__(self, params: ModelParams, scale: float, rate: int, channels: int, model_name: str):
        self.model = BatchServerModel(params)
        self.scale = scale
        self.rate, self.channels = rate, channels
        self.model_name = model_name
        self.t0 = time.monotonic()
        self.waiters: dict[int, asyncio.Future[None]] = {}
        self.wake = asyncio.Event()
        rng = random.Random(1)
        # Ten seconds of quiet noise, sliced for every answer: cheap and never silent.
        self.noise = struct.pack(f"<{rate * channels * 10}h",
                                 *(rng.randint(-2000, 2000) for _ in range(rate * channels * 10)))
        self.requests = 0
        self.refused = 0
        #: Text of every answer by the SHA-256 of its body, so a transcription can "hear" it.
        self.said: dict[str, str] = {}
        self.asr_rtf = 0.0
        self.transcriptions = 0

    def model_now(self) -> float:
        return (time.monotonic() - self.t0) * self.scale

    def tick(self) -> None:
        """Run the model to now and answer every request it finished."""
        for rid, _ in self.model.advance(self.model_now()):
            fut = self.waiters.pop(rid, None)
            if fut and not fut.done():
                fut.set_result(None)

    async def clock(self) -> None:
        while True:
            self.tick()
            wait = (self.model.next_event() - self.model_now()) / self.scale
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), timeout=min(max(wait, 0.0005), 0.05))
            except asyncio.TimeoutError:
                pass

    def body(self, seconds: float) -> bytes:
        frames = max(1, int(seconds * self.rate))
        need = frames * self.channels * 2
        out = bytearray(wav_header(frames, self.rate, self.channels))
        while need > 0:
            piece = self.noise[:need]
            out += piece
            need -= len(piece)
        return bytes(out)

    async def speech(self, payload: dict) -> tuple[int, bytes, str]:
        text = str(payload.get("input", ""))
        words = max(1, len(text.split()))
        jitter = random.Random(int(payload.get("seed", 0))).uniform(0.9, 1.1)
        seconds = words / WORDS_PER_SECOND * jitter
        self.tick()
        rid = self.model.submit(seconds)
        self.requests += 1
        if rid is None:
            self.refused += 1
            err = {"error": {"message": "The request queue is full.", "type": "server_error", "code": None}}
            return 503, json.dumps(err).encode(), "application/json"
        fut = asyncio.get_running_loop().create_future()
        self.waiters[rid] = fut
        self.wake.set()
        await fut
        body = self.body(seconds)
        self.said[hashlib.sha256(body).hexdigest()] = text
        return 200, body, "audio/wav"

    async def transcription(self, content_type: str, raw: bytes) -> tuple[int, bytes, str]:
        msg = email.parser.BytesParser().parsebytes(
            b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw)
        audio = next((part.get_payload(decode=True) for part in (msg.get_payload() if msg.is_multipart() else [])
                      if part.get_param("name", header="content-disposition") == "file"), None)
        if not audio:
            return 422, b'{"detail": "file is required"}', "application/json"
        frames = max(0, len(audio) - 44) // (2 * self.channels)
        seconds = frames / self.rate
        self.transcriptions += 1
        await asyncio.sleep(seconds / self.asr_rtf / self.scale if self.asr_rtf > 0 else 0)
        text = self.said.get(hashlib.sha256(audio).hexdigest(), "")
        answer = {"task": "transcribe", "language": "en", "duration": seconds, "text": text,
                  "segments": [{"id": 0, "start": 0.0, "end": seconds, "text": text}]}
        return 200, json.dumps(answer).encode(), "application/json"

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                method, path, _ = line.decode("latin-1").split(" ", 2)
                headers = {}
                while True:
                    h = await reader.readline()
                    if h in (b"\r\n", b"\n", b""):
                        break
                    k, _, v = h.decode("latin-1").partition(":")
                    headers[k.strip().lower()] = v.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0") or 0))
                if path.split("?")[0] == "/v1/audio/transcriptions" and method == "POST":
                    status, out, ctype = await self.transcription(headers.get("content-type", ""), body)
                else:
                    status, out, ctype = await self.route(method, path.split("?")[0], body)
                writer.write(f"HTTP/1.1 {status} X\r\nContent-Type: {ctype}\r\nContent-Length: {len(out)}\r\n"
                             f"Connection: keep-alive\r\n\r\n".encode() + out)
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            return
        finally:
            writer.close()

    async def route(self, method: str, path: str, body: bytes) -> tuple[int, bytes, str]:
        if path == "/health":
            return 200, json.dumps({"status": "healthy", "running": True,
                                    "in_system": self.model.in_system}).encode(), "application/json"
        if path == "/v1/models":
            card = {"id": self.model_name, "object": "model", "created": 0, "owned_by": "loadgen",
                    "root": self.model_name}
            return 200, json.dumps({"object": "list", "data": [card]}).encode(), "application/json"
        if path == "/stats":
            return 200, json.dumps({"requests": self.requests, "refused": self.refused,
                                    "transcriptions": self.transcriptions,
                                    "audio": self.model.finished_audio,
                                    "model_seconds": self.model_now()}).encode(), "application/json"
        if path == "/v1/audio/speech" and method == "POST":
            try:
                payload = json.loads(body or b"{}")
            except ValueError:
                return 400, b'{"error": {"message": "bad JSON"}}', "application/json"
            return await self.speech(payload)
        return 404, b'{"detail": "Not Found"}', "application/json"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=8731)
    ap.add_argument("--time-scale", type=float, default=1.0, help="model seconds per wall second")
    ap.add_argument("--sample-rate", type=int, default=48000)
    ap.add_argument("--channels", type=int, default=2)
    ap.add_argument("--model-name", default="moss-tts-local")
    ap.add_argument("--max-seconds", type=float, default=3600.0, help="exit after this many wall seconds")
    ap.add_argument("--asr-rtf", type=float, default=150.0,
                    help="realtime factor of one transcription (GPU Whisper: ~100-300x); 0 answers at once")
    for f in fields(ModelParams):
        ap.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default)
    return ap.parse_args(argv)


async def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    params = ModelParams(**{f.name: getattr(args, f.name) for f in fields(ModelParams)})
    app = LoadServer(params, args.time_scale, args.sample_rate, args.channels, args.model_name)
    app.asr_rtf = args.asr_rtf
    server = await asyncio.start_server(app.handle, "127.0.0.1", args.port, limit=1 << 20)
    clock = asyncio.create_task(app.clock())
    print(f"loadgen listening on http://127.0.0.1:{args.port}", flush=True)
    try:
        await asyncio.wait_for(server.serve_forever(), timeout=args.max_seconds)
    except asyncio.TimeoutError:
        pass
    finally:
        clock.cancel()


if __name__ == "__main__":
    asyncio.run(main())
