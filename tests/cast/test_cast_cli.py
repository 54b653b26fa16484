"""--export-cast and --cast from the command line: what is written, and bad input in one line."""
from __future__ import annotations

import json

from tests.cast.conftest import QUOTES


def test_export_cast_writes_the_issue_shape_in_book_order_and_exits(run_cli, story, tmp_path):
    out = tmp_path / "cast.json"
    done = run_cli(story, "--export-cast", out)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert all(set(q) >= {"chapter", "text", "speaker", "method", "confidence"} and q["chapter"] == 1
               for q in data["quotes"])
    # Each quotation as printed, without its marks, in book order (an interrupted one may be one entry or two).
    at = 0
    for text, speaker in QUOTES:
        found = next(i for i in range(at, len(data["quotes"])) if text in data["quotes"][i]["text"])
        assert '"' not in data["quotes"][found]["text"]
        assert data["quotes"][found]["speaker"] == speaker  # each line has an explicit `said NAME` tag
        at = found
    names = {c["name"] for c in data["characters"]}
    assert {"Hartley", "Whitcombe", "Maud"} <= names
    assert all(set(c) >= {"name", "aliases", "gender", "lines"} for c in data["characters"])
    holmes = next(c for c in data["characters"] if c["name"] == "Hartley")
    assert holmes["lines"] >= 2 and data["characters"][0]["lines"] == max(c["lines"] for c in data["characters"])
    assert not list(tmp_path.glob("*.m4b"))


def test_a_cast_entry_piper_cannot_honour_is_one_line_before_any_synthesis(run_cli, story, tmp_path, isolated_home):
    cast = tmp_path / "cast.toml"
    cast.write_text('[character."Whitcombe"]\ninstructions = "A gruff old soldier"\n', encoding="utf-8")
    done = run_cli(story, "--cast", cast, "-o", tmp_path / "out.m4b")
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and '[character."Whitcombe"]' in errors[0] and "instructions" in errors[0]
    assert "Traceback" not in done.stderr and "Converting" not in done.stderr
    assert not (tmp_path / "out.m4b").exists()
    assert not list((isolated_home / "cache").rglob("*.wav"))


def test_a_broken_cast_file_is_one_line_and_the_exit_code_of_bad_input(run_cli, story, tmp_path):
    cast = tmp_path / "cast.toml"
    cast.write_text('[character."Whitcombe"]\nspeed = "fast"\n', encoding="utf-8")
    done = run_cli(story, "--cast", cast, "-o", tmp_path / "out.m4b")
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[0].startswith("error: Cast file") and "speed" in done.stderr
    assert "Traceback" not in done.stderr
