"""Where a run writes, decided and checked before anything is synthesized: the user's files are safe.

- The `--output` suffix decides the format when `--format` is absent (x.mp3 is MP3); a
  suffix that contradicts `--format` is an error naming both.
- A path ending in "/" (or an existing folder) is a folder, created if missing; the book's
  default name goes inside it.
- A partial run (`--chapters`) names its selection in the default name
  ("Title (chapters 2-3).m4b"), so it never replaces the complete book.
- Output never replaces the book itself or an existing file that is not audio of its
  format, and every output is written under a suffix that matches its content.
- The output folder is proven writable (a probe file is created and removed) before
  the run starts, so a bad location costs nothing (exit 3).

Functions take a list of formats where one run may write several, so more formats
plug in without new rules.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from app.book.model import Book
from app.core.errors import InputError, OutputError
from app.output.formats import AUDIO_FORMATS, FOLDER_FORMATS, OUTPUTS, SUFFIX_FORMATS
from app.pipeline.plan import safe_filename



#: Names Windows reserves for devices, whatever the extension ("CON.m4b" opens the console there).
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}
#: Folder names are kept short: a library path is author, series and title folders deep, and
#: Windows without long paths allows 260 characters for all of it.
FOLDER_NAME_BYTES = 120


def safe_name(name: str, fallback: str, limit: int = 255) -> str:
    """Return `name` as a file or folder name every common filesystem takes (the output-name rules,
    plus Windows' device names and a byte limit)."""
    cleaned = safe_filename(name, fallback)
    if len(cleaned.encode("utf-8")) > limit:
        cleaned = cleaned.encode("utf-8")[:limit].decode("utf-8", "ignore").rstrip(" .") or fallback
    if cleaned.split(".")[0].strip().lower() in _RESERVED:
        cleaned = f"{cleaned} (book)"
    return cleaned


def library_path(root: Path, book: Book, *, label: str | None = None, taken: bool = False) -> tuple[Path, str | None]:
    """Return where `book`'s M4B goes in the library at `root`, and a line when that folder held another book.

    `root/Author/[Series/][N - ]Title/Title.m4b` (Audiobookshelf's documented layout: a folder per
    book, the series sequence first and followed by " - "). A folder that holds another book (its
    metadata.opf names another, or it holds files this tool did not file) is never written into:
    this book goes to "Title (file name)" beside it, as two books of one title do in a queue.
    `taken`: the book's own folder is another's even if nothing is written there yet (a queue's).
    """
    from app.output.library import book_key, folder_owner

    meta = book.meta
    author = ", ".join(p.name for p in meta.authors) or book.author or "Unknown Author"
    folders = [safe_name(author, "Unknown Author", FOLDER_NAME_BYTES)]
    if meta.series:
        folders.append(safe_name(meta.series, "Series", FOLDER_NAME_BYTES))
    title = safe_name(f"{book.title} ({label})" if label else book.title, "Untitled", FOLDER_NAME_BYTES)
    base = Path(root).expanduser().joinpath(*folders) / (
        f"{meta.series_index} - {title}" if meta.series and meta.series_index else title)
    key = book_key(book)
    folder, stem = base, safe_name(Path(book.source).stem, "book", FOLDER_NAME_BYTES // 2)
    for n in range(1, 1000):
        if folder_owner(folder) in (None, key) and not (taken and folder == base):
            break
        folder = base.with_name(f"{base.name} ({stem})" if n == 1 else f"{base.name} ({stem} {n})")
    else:
        raise OutputError(f"The library folder {base} and its alternatives hold other books",
                          hint="Give the book another --title, or choose another --library")
    moved = None if folder == base else f"{base} holds another book; this one is filed as {folder}"
    return folder / f"{title}.m4b", moved


def library_primary(root: Path, book: Book, formats: Sequence[str], *, label: str | None = None,
                    taken: bool = False) -> tuple[Path, str | None]:
    """Return the first output's path in the book's --library folder (beside its M4B), and library_path's line."""
    if "m4b" not in formats:
        raise InputError(f"--library files an M4B, but --format is {','.join(formats)}",
                         hint="Add m4b to --format (the other formats are written beside it)")
    if "mp3" in formats:
        raise InputError("--library files one M4B per book; MP3 chapters would be another book in its folder",
                         hint="Drop mp3 from --format, or convert to MP3 with --output instead")
    m4b, moved = library_path(root, book, label=label, taken=taken)
    return (m4b if formats[0] == "m4b" else m4b.with_suffix(_suffix_for(formats[0]))), moved


def is_folder_path(output: Path | str) -> bool:
    """Return whether the user wrote `output` as a folder (a trailing slash) or it is one."""
    text = str(output)
    return text.endswith(("/", os.sep)) or Path(text).expanduser().is_dir()


def choose_formats(requested: Sequence[str] | None, output: Path | None, default: str) -> list[str]:
    """Return the formats to write: --format if given, else the one the --output suffix names, else `default`."""
    named = None
    if output is not None and not is_folder_path(output):
        named = SUFFIX_FORMATS.get(Path(output).suffix.lower())
    if requested:
        # `--output Book.m4b --format epub,vtt` names the stem of the siblings (issue 14); a
        # suffix is a conflict when it is another audio format than those asked (`x.m4b
        # --format mp3`), or a text output that is not asked for (`x.epub --format m4b`).
        audio_asked = any(f in AUDIO_FORMATS for f in requested)
        if named is not None and named not in requested and (named not in AUDIO_FORMATS or audio_asked):
            article = "a" if named == "vtt" else "an"
            raise InputError(f"--output {output} names {article} {named.upper()} file, but --format is "
                             f"{','.join(requested)}",
                             hint=f"Drop --format (the suffix decides), or give --output a "
                                  f"{_suffix_for(requested[0])} name or a folder ending in /")
        return list(requested)
    return [named or default]


def selection_label(book: Book, full: Book) -> str | None:
    """Return "chapters 2-3,5" when `book` holds only some of `full`'s chapters, else None."""
    if len(book.chapters) >= len(full.chapters):
        return None
    numbers = [c.index for c in book.chapters]
    ranges: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        ranges.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    word = "chapter" if len(numbers) == 1 else "chapters"
    return f"{word} {','.join(ranges)}"


def default_name(book: Book, fmt: str, label: str | None = None) -> str:
    """Return the default file (or folder) name for `book` in `fmt`, naming a partial selection."""
    stem = safe_filename(book.title)
    if label:
        stem = f"{stem} ({label})"
    return stem if fmt in FOLDER_FORMATS else f"{stem}{_suffix_for(fmt)}"


def primary_path(output: Path | str | None, first: str) -> Path | str | None:
    """Return `--output` as the path of the first format: a suffix naming another format names only the stem."""
    if output is None or is_folder_path(output):
        return output
    named = SUFFIX_FORMATS.get(Path(output).suffix.lower())
    return Path(output).with_suffix("") if named is not None and named != first else output


def resolve_output(book: Book, output: Path | None, default_dir: Path, fmt: str, *,
                   label: str | None = None) -> Path:
    """Return the file (or, for MP3, the folder) this run writes for `--output` (None: the default)."""
    if output is None:
        return default_dir / default_name(book, fmt, label)
    folder_given = is_folder_path(output)
    output = Path(output).expanduser()
    if folder_given:
        return output / default_name(book, fmt, label)
    suffix = output.suffix.lower()
    if fmt in FOLDER_FORMATS:
        # "x.mp3" names the format: its chapters go to the folder "x" beside it.
        return output.with_suffix("") if SUFFIX_FORMATS.get(suffix) == fmt else output
    if not suffix:
        return output.with_suffix(_suffix_for(fmt))
    if SUFFIX_FORMATS.get(suffix) != fmt:
        raise InputError(f"--output {output}: {fmt.upper()} audio is written to a {_suffix_for(fmt)} file, "
                         f"not {suffix}",
                         hint=f"Use --output {output.with_suffix(_suffix_for(fmt))} or a folder ending in /")
    return output


def check_output(output: Path, fmt: str, *, inputs: Sequence[Path]) -> None:
    """Refuse an output that is one of the run's inputs or an existing file that is not `fmt` audio."""
    never_an_input(output, inputs)
    if fmt in FOLDER_FORMATS:
        if output.exists() and not output.is_dir():
            raise InputError(f"--output {output} is a file, but {fmt.upper()} output is a folder of chapters",
                             hint="Give a folder, e.g. --output out/")
        return
    if output.is_dir():
        raise InputError(f"--output {output} is a folder", hint="End it with / to write the book inside it")
    if output.exists():
        try:
            with open(output, "rb") as fh:
                head = fh.read(12)
        except OSError as exc:
            raise OutputError(f"Cannot read the existing {output} ({exc.strerror})",
                              hint="Choose another with --output") from None
        if head and not OUTPUTS[fmt].looks_like(head):  # an empty file holds nothing to lose
            raise InputError(f"{output} exists and is not {fmt.upper()} audio; it is left untouched",
                             hint="Choose another output name, or move that file away")


def never_an_input(output: Path | str | None, inputs: Sequence[Path]) -> None:
    """Refuse an output path that is one of the run's inputs (the book itself)."""
    if output is None:
        return
    target = Path(output).expanduser().resolve()
    for source in inputs:
        if target == Path(source).expanduser().resolve():
            raise InputError(f"An output is the book being read, the book itself; it would be replaced: {output}",
                             hint="Choose another --output name or folder")


def ensure_writable(folder: Path) -> None:
    """Create `folder` if missing and prove a file can be written in it, or raise OutputError (exit 3)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".audiobook-probe-"):
            pass
    except OSError as exc:
        raise OutputError(f"Cannot write to the output folder {folder} ({exc.strerror or exc})",
                          hint="Choose another with --output") from None


def _suffix_for(fmt: str) -> str:
    return OUTPUTS[fmt].suffix


__all__ = ["library_primary", "library_path", "safe_name", "FOLDER_NAME_BYTES", "SUFFIX_FORMATS", "AUDIO_FORMATS", "FOLDER_FORMATS", "primary_path", "choose_formats", "selection_label", "default_name",
           "resolve_output", "check_output", "never_an_input", "ensure_writable", "is_folder_path"]
