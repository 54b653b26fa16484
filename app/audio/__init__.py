"""Stitch synthesized chunks into chapter files and export them with ffmpeg.

wav.py      read and validate WAV headers (no audio held beyond one chunk)
assemble.py ChapterAssembler: trim, convert, pause, stream a chapter to disk
export.py   encode chapters (AAC/MP3) as they finish, mux the M4B by stream copy
ffmpeg.py   find ffmpeg and run it with a log on failure
"""
