"""Broken homes and bad options (issue 17): one line and the documented exit code, never "This is a bug".

Each case runs the real CLI with the real Piper voice against a home broken
on purpose: read-only, files where folders should be, a folder where a chunk
should be, JSON and TOML of the wrong types, a full disk.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from app.core import settings
from app.core.errors import ConfigError
from tests.faults.conftest import error_line
from tests.faults.test_interrupts import tiny_disk  # noqa: F401  (fixture)
from tests.pipeline.helpers import write_txt_book

SHORT = {"Only": "The boat left the harbour at dawn."}


def _fails(result, code: int, *needles: str) -> str:
    assert result.returncode == code, result.stderr
    line = error_line(result.stderr)
    assert "This is a bug" not in result.stderr
    for needle in needles:
        assert needle in line, line
    return line


# -- the app home ----------------------------------------------------------------------------------

@pytest.fixture
def readonly_home(tmp_path):
    """Return an app home on a read-only file system (a tmpfs remounted ro; root only)."""
    home = tmp_path / "ro-home"
    home.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(home)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    subprocess.run(["mount", "-o", "remount,ro", str(home)], check=True)
    yield home
    subprocess.run(["umount", "-l", str(home)], check=False)


def test_a_read_only_app_home_is_one_line_exit_3(tmp_path, run_cli, readonly_home):
    book = write_txt_book(tmp_path, SHORT)
    result = run_cli(book, "--output", tmp_path / "out.m4b", env={"AUDIOBOOK_HOME": str(readonly_home)})
    _fails(result, 3, "Read-only file system", str(readonly_home))


@pytest.mark.parametrize("blocked", ["cache/chunks", "cache/work", "cache"])
def test_a_file_where_a_cache_folder_should_be_is_one_line_exit_3(tmp_path, run_cli, isolated_home, blocked):
    target = isolated_home / blocked
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("not a folder")
    book = write_txt_book(tmp_path, SHORT)
    result = run_cli(book, "--output", tmp_path / "out.m4b")
    _fails(result, 3, "Cannot write", "Something else sits where the app keeps its files")
    assert target.read_text() == "not a folder"  # nothing of the user's is touched


def _plan_keys(book: Path, out: Path) -> list[str]:
    from app.request import ConvertRequest, build_backend, read_book
    from app.pipeline.plan import make_plan

    req = ConvertRequest(book=book)
    backend = build_backend(req, settings.load())
    plan = make_plan(read_book(req), backend.identity(), chunk_size=backend.default_chunk_size, fmt="m4b",
                     output=out)
    return [pc.key for pc in plan.chunks]


def test_a_folder_where_a_chunk_wav_should_be_is_one_line_exit_3(tmp_path, run_cli, isolated_home):
    from app.pipeline.cache import ChunkCache

    book = write_txt_book(tmp_path, SHORT)
    key = _plan_keys(book, tmp_path / "out.m4b")[0]
    wav = ChunkCache(isolated_home / "cache").path_for(key)
    wav.mkdir(parents=True)
    wav.with_suffix(".json").write_text(json.dumps({"sha256": "0" * 64}))
    result = run_cli(book, "--output", tmp_path / "out.m4b")
    _fails(result, 3, "Is a directory", key)


@pytest.mark.slow
def test_wrong_json_types_in_a_sidecar_and_a_stamp_and_a_title_too_long_in_bytes(tmp_path, run_cli, isolated_home):
    """A sidecar or a stamp that is `[]` is no entry (rendered / muxed again); a CJK title is cut by bytes."""
    book = write_txt_book(tmp_path, SHORT)
    title = "漢" * 120  # 360 bytes of UTF-8: "File name too long" when cut at 120 characters
    first = run_cli(book, "--title", title, "--output", tmp_path)
    assert first.returncode == 0, first.stderr
    (out,) = [p for p in tmp_path.iterdir() if p.suffix == ".m4b"]
    assert out.stem.startswith("漢") and len(out.name.encode()) <= 255
    sidecars = list((isolated_home / "cache" / "chunks").rglob("*.json"))
    stamps = list((isolated_home / "cache" / "work").rglob("output-*.json"))
    assert sidecars and stamps
    for path in sidecars + stamps:
        path.write_text("[]")
    for encoded in (isolated_home / "cache" / "work").rglob("chapters/*"):
        encoded.unlink()  # so the chunks themselves are read again
    again = run_cli(book, "--title", title, "--output", tmp_path)
    assert again.returncode == 0, again.stderr
    assert "This is a bug" not in again.stderr
    assert json.loads(sidecars[0].read_text())["sha256"]  # the chunk was rendered again and recorded


def test_disk_full_under_piper_exits_3_not_4(tmp_path, run_cli, tiny_disk):  # noqa: F811
    disk = tiny_disk("48k")
    book = write_txt_book(tmp_path, {"Long": "The boat left the harbour at dawn and sailed on. " * 6})
    result = run_cli(book, "--output", tmp_path / "out.m4b", env={"AUDIOBOOK_CACHE": str(disk)})
    _fails(result, 3, "No space left on device")


# -- settings.toml ---------------------------------------------------------------------------------

@pytest.mark.parametrize("toml,key,expected", [
    ('chunk_size = "abc"', "chunk_size", "a whole number"),
    ("chunk_size = -3", "chunk_size", "at least 0"),
    ("chunk_size = 1.5", "chunk_size", "a whole number"),
    ("output_dir = 5", "output_dir", "a string"),
    ("ffmpeg = true", "ffmpeg", "a string"),
    ("[sglomni]\nport = 70000", "sglomni.port", "between 1 and 65535"),
    ("[sglomni]\nport = true", "sglomni.port", "a whole number"),
    ('[sglomni]\nstart_timeout = "soon"', "sglomni.start_timeout", "a number"),
    ("sglomni = 3", "sglomni", "table"),
])
def test_a_setting_of_the_wrong_type_names_key_file_and_type(tmp_path, toml, key, expected):
    path = tmp_path / "settings.toml"
    path.write_text(toml + "\n")
    with pytest.raises(ConfigError) as info:
        settings.load(path)
    line = info.value.one_line()
    assert f"'{key}'" in line and str(path) in line and expected in line


def test_settings_of_the_right_types_still_load(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('chunk_size = 30\noutput_dir = "~/books"\n[sglomni]\nstart_timeout = 60\nport = 8200\n')
    conf = settings.load(path)
    assert (conf.chunk_size, conf.sglomni.start_timeout, conf.sglomni.port) == (30, 60.0, 8200)


def test_bad_settings_and_a_settings_folder_end_the_cli_with_exit_2(tmp_path, run_cli, isolated_home):
    book = write_txt_book(tmp_path, SHORT)
    (isolated_home / "settings.toml").write_text('chunk_size = "abc"\n')
    _fails(run_cli(book), 2, "'chunk_size'", "settings.toml", "a whole number")
    (isolated_home / "settings.toml").unlink()
    (isolated_home / "settings.toml").mkdir()
    _fails(run_cli(book), 2, "is not a file")


# -- options ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("args,needle", [
    (["--chapters", ""], "--chapters is empty"),
    (["--concurrency", "-5"], "--concurrency must be at least 1"),
    (["--port", "0"], "--port must be between"),
    (["--chunk-size", "-1"], "--chunk-size must be a positive"),
])
def test_out_of_range_options_are_refused(tmp_path, run_cli, args, needle):
    book = write_txt_book(tmp_path, SHORT)
    _fails(run_cli(book, *args, "--output", tmp_path / "o.m4b"), 2, needle)
    assert not (tmp_path / "o.m4b").exists()


def test_clone_with_piper_is_refused_not_ignored(tmp_path, run_cli):
    book = write_txt_book(tmp_path, SHORT)
    clip = tmp_path / "me.wav"
    clip.write_bytes(b"RIFF")
    _fails(run_cli(book, "--backend", "piper", "--clone", clip), 2, "Piper cannot clone a voice")


def test_a_broken_piper_voice_is_one_line_exit_2(tmp_path, run_cli):
    book = write_txt_book(tmp_path, SHORT)
    voice = tmp_path / "broken.onnx"
    voice.write_bytes(b"\x08\x01garbage, not an ONNX model")
    voice.with_suffix(".onnx.json").write_text('{"audio": {"sample_rate": 22050}}')
    _fails(run_cli(book, "--voice", voice, "--output", tmp_path / "o.m4b"), 2, "Piper cannot load the voice")
