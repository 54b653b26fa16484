"""Finished outputs: what a run can write (formats.py), and beyond the audio itself the read-along
EPUB and captions (readalong.py, on top of timing.py, epub.py and captions.py).

Kept empty on purpose: `app.output.formats` is read by `--help` and by every run, and must not
pull in the EPUB writer and its XML stack (a cached M4B re-run imports none of it).
"""
