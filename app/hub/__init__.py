"""The terminal UI (Textual): `python audiobook.py hub`."""
