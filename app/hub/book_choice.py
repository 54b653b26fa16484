"""Choosing a book in the hub: where the file browser opens, which files it takes, the chapter list as --chapters."""
from __future__ import annotations

from pathlib import Path

from app.book.formats import book_suffix, format_names, is_book_name

#: The checkout (or installed tree) this app runs from: a place for code, not books.
SOURCE_ROOT = Path(__file__).resolve().parents[2]
#: What the file browser and the form say the tool reads (from the formats table).
KINDS = format_names()


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return False
    return True


def browse_start(typed: str, *, cwd: Path, home: Path, source_root: Path = SOURCE_ROOT) -> Path:
    """Return the folder the file browser opens in.

    The folder of the book already in the field, else the current folder, else home.
    A folder inside the app's own source tree is passed over (running `python audiobook.py hub`
    from the checkout must not open the browser among its code and `.git`), unless the user
    started the hub from inside it, below its root (then that folder is where they keep books).
    """
    def acceptable(folder: Path) -> bool:
        if not folder.is_dir():
            return False
        if not _inside(folder, source_root):
            return True
        return folder.resolve() == cwd.resolve() and cwd.resolve() != source_root.resolve()

    candidates: list[Path] = []
    if typed.strip():
        candidates.append(Path(typed.strip()).expanduser().parent)
    candidates += [cwd, home]
    return next((folder for folder in candidates if acceptable(folder)), home)


def unsupported_reason(path: Path) -> str | None:
    """Return one line saying why `path` cannot be converted, or None when it looks like a book file."""
    if path.is_dir():
        return f"{path.name} is a folder; choose a book file ({KINDS})."
    if not is_book_name(path):
        shown = book_suffix(path) or "no suffix"
        return f"{path.name}: {shown} is not a format this tool reads; choose a file in one of these formats: {KINDS}."
    return None


def chapter_spec(selected: list[int], every: list[int]) -> str | None:
    """Return the --chapters spec ("1-3,5") for the selected chapter numbers; None when all are selected."""
    chosen = sorted(set(selected))
    if chosen == sorted(every):
        return None
    runs: list[list[int]] = []
    for number in chosen:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ",".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
