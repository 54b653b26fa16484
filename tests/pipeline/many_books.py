"""Small distinct books for the many-books tests, and an independent reader of their M4Bs (ffprobe)."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from tests.audio.loudness_meter import system_tool
from tests.pipeline.helpers import write_txt_book

#: One word per book, so no two books share a sentence (the run lock treats equal text as one book).
SUBJECTS = ("river", "forest", "harbour", "meadow")


def write_books(folder: Path, n: int = 3, *, chapters: int = 2, sentences: int | list[int] = 3) -> list[Path]:
    """Write `n` TXT books of `chapters` chapters of distinct sentences (per book, or one count for all)."""
    folder.mkdir(parents=True, exist_ok=True)
    counts = sentences if isinstance(sentences, list) else [sentences] * n
    books = []
    for i, word in enumerate(SUBJECTS[:n]):
        text = {f"{word.title()} {c}": " ".join(f"In part {c} the {word} passed stone number {s}."
                                                for s in range(counts[i])) for c in range(1, chapters + 1)}
        books.append(write_txt_book(folder, text, name=f"{chr(ord('a') + i)}-{word}.txt"))
    return books


def chapter_titles(book: Path) -> list[str]:
    """Return the chapter titles write_books gave `book`, as the TXT reader names them."""
    word = book.stem.split("-", 1)[1]
    n = len(re.findall(r"^Chapter \d+:", book.read_text(), flags=re.M))
    return [f"Chapter {c}: {word.title()} {c}" for c in range(1, n + 1)]


def ffprobe_chapters(path: Path) -> list[tuple[str, float, float]]:
    """Return (title, start, end) of each chapter as ffprobe reads the file."""
    out = subprocess.run([system_tool("ffprobe"), "-v", "error", "-show_chapters", "-of", "json", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return [(c.get("tags", {}).get("title", ""), float(c["start_time"]), float(c["end_time"]))
            for c in json.loads(out)["chapters"]]


def summary_rows(stderr: str) -> dict[str, str]:
    """Return {book file name: status} from the queue's summary."""
    rows = {}
    for line in stderr.split("\nSummary:", 1)[-1].splitlines()[1:]:
        m = re.match(r"\s+(done|failed|stopped|not started)\s+(\S+):", line)
        if m:
            rows[m.group(2)] = m.group(1)
    return rows


def synthesized_per_book(stderr: str) -> dict[str, int]:
    """Return {book file name: chunks synthesized} from each book's tagged 'done:' line."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(
        r"^\[\d+/\d+ (\S+)\] done: .*?(\d+) chunks synthesized", stderr, flags=re.M)}
