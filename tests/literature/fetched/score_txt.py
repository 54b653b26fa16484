"""Score only the Gutenberg plain-text editions of one half, and keep each book's row for comparing runs.

    PYTHONPATH=. .venv/bin/python tests/literature/fetched/score_txt.py dev [--out rows.json] [--titles]
    PYTHONPATH=. .venv/bin/python tests/literature/fetched/score_txt.py --manifest FILE [--out rows.json]
    PYTHONPATH=. .venv/bin/python tests/literature/fetched/score_txt.py --diff before.json after.json

The same `score()` as score.py (chapter columns only) against the same truth (the HTML edition's headings),
without the HTML editions, so a .txt rule can be measured in half the time; `--diff` is score_html.py's.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.literature.fetched.score_html import main  # noqa: E402

if __name__ == "__main__":
    main(sys.argv[1:], edition="txt")
