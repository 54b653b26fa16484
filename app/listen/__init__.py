"""Listening: speech recognition for verification and clone transcripts, and scoring a take.

    transcript.py   Transcript / Word: what a recognizer heard, with word timings
    local.py        faster-whisper on the CPU (tiny.en from a PyPI wheel by default)
    clip.py         a --clone clip's transcript, cached beside the clip
    normalize.py    text and transcript brought to one comparable form
    score.py        a take's transcript against its text: error rate and named problems

A server's /v1/audio/transcriptions route is spoken to by the sglomni backend
(app/backends/sglomni/asr.py, the one HTTP module's user); it returns the same
Transcript. Nothing here imports the pipeline, a backend or a face.
"""
