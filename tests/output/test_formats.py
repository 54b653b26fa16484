"""--format lists and the sibling outputs of one run."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import ConfigError
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
