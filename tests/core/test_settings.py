"""The one settings file: round trip, permissions, clear errors."""
from __future__ import annotations

import stat

import pytest

from app.core import settings
from app.core.errors import ConfigError


def test_round_trip_with_user_only_permissions(tmp_path):
    path = tmp_path / "settings.toml"
    conf = settings.Settings(backend="sglomni", model="moss_tts_local", chunk_size=50)
    conf.sglomni.remote_url = "http://gpu-box:8100"
    settings.save(conf, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    loaded = settings.load(path)
    assert loaded == conf
    assert not list(tmp_path.glob(".*.tmp"))


def test_defaults_without_a_file(tmp_path):
    assert settings.load(tmp_path / "absent.toml") == settings.Settings()


@pytest.mark.parametrize("text, match", [
    ("chunksize = 3\n", "Unknown setting 'chunksize'"),
    ("[sglomni]\nprot = 1\n", "Unknown setting 'sglomni.prot'"),
    ("sglomni = 3\n", "must be a \\[sglomni\\] table"),
    ("this is not toml", "not valid TOML"),
])
def test_bad_files_are_reported_not_ignored(tmp_path, text, match):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=match):
        settings.load(path)


def test_cli_reads_the_settings_file(tmp_path, run_cli, isolated_home):
    (isolated_home / "settings.toml").write_text('backend = "nonesuch"\n')
    book = tmp_path / "b.txt"
    book.write_text("Hello there.")
    result = run_cli(book)
    assert result.returncode == 2
    assert "Unknown backend 'nonesuch'" in result.stderr


def test_allocator_tuning_takes_effect_on_glibc_linux():
    import platform

    from app.core import allocator

    expected = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert allocator.tune() is expected
