"""--format lists and the sibling outputs of one run."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.core.errors import ConfigError
from app.output.formats import parse_formats, sibling_outputs


@pytest.mark.parametrize("spec, expected", [
    (None, ("m4b",)),
    ("m4b", ("m4b",)),
    ("m4b,epub,vtt", ("m4b", "epub", "vtt")),
    (" EPUB , .vtt ", ("epub", "vtt")),
    ("vtt,vtt,srt", ("vtt", "srt")),
    ("mp3,epub", ("mp3", "epub")),
])
def test_parse_formats(spec, expected):
    assert parse_formats(spec) == expected


def test_the_settings_default_applies_without_the_option():
    assert parse_formats(None, "mp3,srt") == ("mp3", "srt")


@pytest.mark.parametrize("spec, says", [
    ("m4b,flac", "'flac'"), ("m4b,,vtt", "empty entry"), (",", "empty"), ("pdf", "Valid formats: m4b, mp3, epub"),
])
def test_bad_format_lists_name_the_problem(spec, says):
    with pytest.raises(ConfigError) as err:
        parse_formats(spec)
    assert says in err.value.one_line() and err.value.exit_code == 2


def test_outputs_are_siblings_with_one_stem():
    out = sibling_outputs(Path("/d/Book.m4b"), ("m4b", "mp3", "epub", "srt", "vtt"))
    assert out == {"m4b": Path("/d/Book.m4b"), "mp3": Path("/d/Book"), "epub": Path("/d/Book.epub"),
                   "srt": Path("/d/Book.srt"), "vtt": Path("/d/Book.vtt")}
    # An --output naming one of the outputs, or a folder-like stem, gives the same siblings.
    assert sibling_outputs(Path("/d/Book.epub"), ("epub", "vtt"))["vtt"] == Path("/d/Book.vtt")
    assert sibling_outputs(Path("/d/My.Book"), ("mp3", "vtt")) == {"mp3": Path("/d/My.Book"),
                                                                 "vtt": Path("/d/My.Book.vtt")}


# --- one table: every list of formats is derived from app/output/formats.py ----------------------

def test_help_and_outpath_list_exactly_the_table():
    import subprocess
    import sys

    from app.output.formats import FORMATS, OUTPUTS
    from app.pipeline import outpath

    root = Path(__file__).resolve().parents[2]
    shown = subprocess.run([sys.executable, str(root / "audiobook.py"), "--help"], capture_output=True,
                           text=True, timeout=60).stdout
    help_text = " ".join(shown.split())
    for name, fmt in OUTPUTS.items():
        assert f"{name} ({fmt.short})" in help_text, name
    assert {outpath.SUFFIX_FORMATS[fmt.suffix] for fmt in OUTPUTS.values()} == set(FORMATS)


def test_no_other_module_writes_the_format_list():
    """A literal naming three or more formats outside formats.py is a second copy of the list."""
    import ast

    from app.output.formats import FORMATS

    app_dir = Path(__file__).resolve().parents[2] / "app"
    copies = []
    for path in app_dir.rglob("*.py"):
        if path.name == "formats.py" or "envs" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
                items = node.keys if isinstance(node, ast.Dict) else node.elts
                named = {i.value for i in items if isinstance(i, ast.Constant) and i.value in FORMATS}
                if len(named) >= 3:
                    copies.append(f"{path.relative_to(app_dir)}:{node.lineno}")
    assert copies == []


def test_the_readme_format_row_names_every_format_and_no_other():
    import re

    from app.output.formats import FORMATS

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| `--format LIST`"))
    named = re.findall(r"`(\w+)` \(", row) + re.findall(r", `(\w+)`(?:,| \()", row)
    assert set(named) == set(FORMATS), (named, row)
    usage = next(line for line in readme.splitlines() if "[--format " in line)
    assert re.search(r"\[--format ([\w,]+)\]", usage).group(1).split(",") == list(FORMATS)
