"""--preview, --speed, --cover and --no-announce through the real CLI, real Piper and real ffmpeg,
read back with ffprobe and tiny.en (issue 15)."""
from __future__ import annotations

import re

import pytest
from num2words import num2words

from tests.cli.conftest import duration, ffprobe, picture
from tests.pipeline.helpers import write_txt_book

SENTENCE = "The lighthouse keeper counted seven ships before the morning fog rolled in."


@pytest.mark.slow
def test_preview_speaks_the_text_and_speed_makes_it_shorter(tmp_path, run_cli, whisper):
    normal, fast = tmp_path / "normal.wav", tmp_path / "fast.wav"
    first = run_cli("--preview", SENTENCE, "-o", normal)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == str(normal)
    second = run_cli("--preview", SENTENCE, "-o", fast, "--speed", "1.5")
    assert second.returncode == 0, second.stderr
    # length_scale 1/1.5 shortens every phoneme; the pauses between sentences stay.
    assert duration(fast) < 0.8 * duration(normal), (duration(fast), duration(normal))
    # Still the sentence at 1.5 times the rate, not noise.
    heard = whisper(fast, tmp_path)
    # Most of its words, not a fixed few: tiny.en once heard "ships" as "chits" and "fog" as "vlog" at 1.5x.
    # Numbers tiny.en writes as digits are compared as words ("counted 7 chits" in one run, with
    # "lighthouse keeper" heard as "light has keep her": half the words is still the sentence, noise none).
    heard = re.sub(r"\d+", lambda m: num2words(int(m.group())), heard)
    key = ("lighthouse", "keeper", "counted", "seven", "ships", "morning", "fog", "rolled")
    assert sum(w in heard for w in key) >= 4, heard


def test_preview_writes_wav_only_and_speed_is_refused_where_the_model_has_none(tmp_path, run_cli, isolated_home):
    wrong = run_cli("--preview", "Hello.", "-o", tmp_path / "p.mp3")
    assert wrong.returncode == 2 and wrong.stderr.startswith("error: --preview writes a WAV file"), wrong.stderr
    too_long = run_cli("--preview", "word " * 200)
    assert too_long.returncode == 2 and "up to 600 characters" in too_long.stderr
    server = run_cli("--preview", "Hello.", "--backend", "sglomni", "--speed", "1.2")
    assert server.returncode == 2
    assert server.stderr.startswith("error: --speed applies to the Piper voice only"), server.stderr
    (isolated_home / "settings.toml").write_text("speed = 5.0\n")
    setting = run_cli("--preview", "Hello.")
    assert setting.returncode == 2 and "Setting 'speed'" in setting.stderr, setting.stderr
    assert not list(tmp_path.glob("*.mp3")) and not (isolated_home / "output").exists()


@pytest.mark.parametrize("name, make", [
    ("cover.txt", lambda p: p.write_text("not a picture")),
    ("cover.jpg", lambda p: p.write_bytes(picture(p.with_name("whole.jpg")).read_bytes()[:300])),  # truncated
    ("empty.png", lambda p: p.write_bytes(b"")),
    ("missing.png", lambda p: None),
])
def test_a_bad_cover_is_one_line_before_any_synthesis(name, make, tmp_path, capsys, isolated_home):
    from app.cli.entry import main

    book = write_txt_book(tmp_path)
    cover = tmp_path / name
    make(cover)
    assert main([str(book), "--cover", str(cover), "--output", str(tmp_path / "b.m4b")]) == 2
    err = capsys.readouterr().err
    # A user's mistake: one line, without the AUDIOBOOK_DEBUG hint (that is for unexpected errors).
    assert err.startswith(f"error: Cover {cover}") and len(err.splitlines()) == 1 and "AUDIOBOOK_DEBUG" not in err, err
    assert not (tmp_path / "b.m4b").exists() and not (isolated_home / "cache" / "chunks").exists()


@pytest.mark.slow
def test_cover_is_attached_and_no_announce_leaves_the_titles_unsaid(tmp_path, run_cli, whisper):
    book = write_txt_book(tmp_path)
    cover = picture(tmp_path / "cover.bmp")  # a BMP: converted to PNG on the way in
    said, quiet = tmp_path / "said.m4b", tmp_path / "quiet.m4b"
    first = run_cli(book, "--chapters", "1", "--output", said)
    assert first.returncode == 0, first.stderr
    second = run_cli(book, "--chapters", "1", "--output", quiet, "--cover", cover, "--no-announce",
                     "--format", "m4b,epub")
    assert second.returncode == 0, second.stderr
    # The final path once: on stdout, not repeated by the progress lines on stderr.
    assert second.stdout.strip() == str(quiet) and str(quiet) not in second.stderr
    pictures = [s for s in ffprobe(quiet)["streams"] if s.get("disposition", {}).get("attached_pic") == 1]
    assert len(pictures) == 1 and pictures[0]["codec_name"] == "png"
    assert (pictures[0]["width"], pictures[0]["height"]) == (96, 96)
    assert not [s for s in ffprobe(said)["streams"] if s["codec_type"] == "video"]  # a TXT book has no cover
    heard_said, heard_quiet = whisper(said, tmp_path), whisper(quiet, tmp_path)
    # "Chapter 1: The Harbour": the word "chapter" is only in the headings.
    assert "chapter" in heard_said, heard_said
    assert "chapter" not in heard_quiet, heard_quiet
    assert "gulls" in heard_quiet or "lighthouse" in heard_quiet, heard_quiet  # the text itself is read
    # The chapter markers keep their titles.
    chapters = ffprobe_chapters(quiet)
    assert chapters == ["Chapter 1: The Harbour"]
    # The read-along EPUB carries the same cover.
    import zipfile

    with zipfile.ZipFile(quiet.with_suffix(".epub")) as zf:
        assert any(n.endswith("cover.png") for n in zf.namelist())


def ffprobe_chapters(path):
    import json
    import subprocess

    out = subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-of", "json", str(path)],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    return [c["tags"]["title"] for c in json.loads(out)["chapters"]]
