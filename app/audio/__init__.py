"""Stitch synthesized chunks into chapter files and export them with ffmpeg.

wav.py      read and validate WAV headers (no audio held beyond one chunk)
assemble.py ChapterAssembler: trim, convert, pause, stream a chapter to a WAV file or to encoders
stream.py   StreamEncoder: encode a chapter while it is stitched (PCM into ffmpeg's stdin)
export.py   encode arguments, chapter files, the M4B mux by stream copy (index reserved up front)
ffmpeg.py   find ffmpeg and run it with a log on failure
"""
