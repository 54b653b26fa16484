"""`--help` reads like a man page, every command has help, and a typo gets the closest name (issue 15)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.core import errors
from app.cli.entry import main

APP = Path(__file__).resolve().parents[2] / "app"

#: Variables of the test harness, not the user's.
_TEST_ONLY_VARS = {"AUDIOBOOK_TEST_PAUSE_AT"}


def _main(argv, capsys) -> tuple[int, str, str]:
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's --help and its errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_help_is_a_man_page_naming_what_the_code_reads(capsys, isolated_home):
    code, out, _ = _main(["--help"], capsys)
    assert code == 0
    for section in ("usage:", "examples:", "exit codes:", "environment:", "files:"):
        assert section in out
    # Every variable the app reads is explained (a new one without a line fails here).
    read = set()
    for path in APP.rglob("*.py"):
        read |= set(re.findall(r"\"(AUDIOBOOK_[A-Z_]+)\"", path.read_text(encoding="utf-8")))
    assert read - _TEST_ONLY_VARS
    for var in sorted(read - _TEST_ONLY_VARS):
        assert re.search(rf"^  {var}\b", out, re.M), f"{var} is read by the app but not in --help"
    # Every exit code app.core.errors assigns is explained, with the meaning of the class it belongs to.
    section = out.split("exit codes:")[1].split("\n\n")[0]
    documented = {int(m) for m in re.findall(r"^  (\d+) ", section, re.M)}
    assigned = {cls.exit_code for cls in vars(errors).values()
                if isinstance(cls, type) and issubclass(cls, errors.AudiobookError)}
    assert assigned <= documented, assigned - documented
    assert re.search(r"^  5 .*lock", section, re.M) and re.search(r"^  130 .*stopped", section, re.M)
    # FILES names this run's real folders (AUDIOBOOK_HOME applied), not a fixed text.
    assert str(isolated_home / "settings.toml") in out and str(isolated_home / "cache") in out


def test_help_examples_are_the_readmes():
    from app.cli.helptext import EXAMPLES

    readme = (APP.parent / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^  audiobook\.py (\S+(?: \S+)*?)(?:  +|$)", EXAMPLES, re.M)
    assert len(commands) >= 8
    for command in commands:
        assert f"audiobook.py {command}" in readme, command


@pytest.mark.parametrize("argv", [
    ["hub", "--help"], ["backends", "--help"], ["backends", "sglomni", "--help"],
    ["backends", "sglomni", "install", "--help"], ["backends", "sglomni", "start", "--help"],
    ["cache", "--help"], ["cache", "prune", "--help"],
])
def test_every_command_has_help(argv, capsys):
    code, out, err = _main(argv, capsys)
    assert code == 0, err
    assert out.startswith("usage: audiobook.py") and len(out.splitlines()) >= 3, out


@pytest.mark.parametrize("argv, expected", [
    (["book.epub", "--concurency", "4"], "unknown option --concurency; did you mean --concurrency?"),
    (["book.epub", "--no-anounce"], "unknown option --no-anounce; did you mean --no-announce?"),
    (["book.epub", "--sped=1.2"], "unknown option --sped=1.2; did you mean --speed?"),
    (["cahce", "prune"], "unknown command 'cahce'; did you mean 'cache'?"),
    (["hbu"], "unknown command 'hbu'; did you mean 'hub'?"),
    (["cache", "prun"], "unknown command 'prun'; did you mean 'prune'?"),
    (["hub", "--webb"], "unknown option --webb; did you mean --web?"),
    (["backends", "sglomi", "list"], "unknown backend 'sglomi'; did you mean 'sglomni'?"),
    (["backends", "sglomni", "lst"], "unknown command 'lst'; did you mean 'list'?"),
    (["backends", "piper"], "the piper backend has no commands"),
    (["book.epub", "--code", "skp"], "unknown --code 'skp'; did you mean 'skip'?"),
    (["book.epub", "--xyzzy"], "unknown option --xyzzy"),
])
def test_a_typo_gets_one_line_naming_the_closest_and_exit_2(argv, expected, capsys):
    code, out, err = _main(argv, capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: {expected}"), err
    if "did you mean" not in expected:
        assert "did you mean" not in err


def test_a_book_named_like_a_command_is_still_a_book(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("hbu").write_text("")  # a file: never taken for a mistyped command
    code, _, err = _main(["hbu", "--list-chapters"], capsys)
    assert "unknown command" not in err and code == 2  # an empty, suffix-less file is an unusable book
