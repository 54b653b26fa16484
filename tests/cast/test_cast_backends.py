"""What each backend can give a character, refused in one line before any synthesis when it cannot."""
from __future__ import annotations

import json
import shutil

import pytest

from app.backends.base import BackendOptions, VoiceOptions
from app.backends.piper import voices as piper_voices
from app.backends.piper.backend import PiperBackend
from app.core.errors import ConfigError


def test_piper_refuses_what_it_cannot_do_naming_the_entry():
    piper = PiperBackend(BackendOptions())
    for voice, said in ((VoiceOptions(instructions="gruff"), "takes no instructions"),
                        (VoiceOptions(speaker="3"), "has one speaker"),
                        (VoiceOptions(voice="en_US-nobody-medium"), "neither installed nor a known package"),
                        (VoiceOptions(speed=3.0), "outside 0.5 to 2")):
        with pytest.raises(ConfigError) as err:
            piper.check_voice(voice, '[character."Whitcombe"]')
        assert err.value.message.startswith('[character."Whitcombe"]: ') and said in err.value.message


def test_another_installed_piper_voice_and_a_speaker_of_a_multi_speaker_one(tmp_path, monkeypatch):
    """A voice copied into the voices folder is offered to --cast auto and keys its chunks apart;
    a multi-speaker voice's speakers are offered, chosen by name or number."""
    monkeypatch.setenv("AUDIOBOOK_VOICES", str(tmp_path))
    bundled = piper_voices.resolve(None)
    for name, speakers in (("en_US-other-medium", None), ("en_GB-many-medium", {"alba": 0, "ben": 1, "cleo": 2})):
        shutil.copy(bundled, tmp_path / f"{name}.onnx")
        config = json.loads(bundled.with_name(bundled.name + ".json").read_text())
        if speakers:
            config.update(num_speakers=3, speaker_id_map=speakers)
        (tmp_path / f"{name}.onnx.json").write_text(json.dumps(config))
    piper = PiperBackend(BackendOptions())
    offer = piper.voice_offer()
    assert ("en_US-other-medium", None, None) in offer.presets
    assert [p[:2] for p in offer.presets if p[0] == "en_GB-many-medium"] == [
        ("en_GB-many-medium", "alba"), ("en_GB-many-medium", "ben"), ("en_GB-many-medium", "cleo")]
    other = piper.identity_for(VoiceOptions(voice="en_US-other-medium"))
    assert other["voice"] == "en_US-other-medium" and other != piper.identity()
    assert piper.identity_for(VoiceOptions(voice="en_GB-many-medium", speaker="ben"))["speaker_id"] == 1
    assert piper.identity_for(VoiceOptions(voice="en_GB-many-medium", speaker="2"))["speaker_id"] == 2
    with pytest.raises(ConfigError, match="no speaker 'dora'"):
        piper.check_voice(VoiceOptions(voice="en_GB-many-medium", speaker="dora"), "[narrator]")
    assert piper.identity_for(VoiceOptions()) == piper.identity()  # the narrator keeps the run's keys


@pytest.mark.parametrize("model, entry, said", [
    ("voxtral_tts", 'instructions = "gruff"', "does not take --instructions"),
    ("qwen3_tts_0_6b_customvoice", 'voice = "Bob"', "has no preset voice 'Bob'"),
    ("qwen3_tts_0_6b_customvoice", "speed = 1.2", "takes no speaking rate"),
    ("qwen3_tts_0_6b_customvoice", 'timbre = "deep"', "takes no timbre"),
    ("qwen3_tts_1_7b_voicedesign", 'voice = "Vivian"', "takes no preset voice"),
])
def test_an_sglomni_entry_the_model_cannot_honour_is_one_line_before_any_request(run_cli, story, tmp_path, model,
                                                                                entry, said):
    cast = tmp_path / "cast.toml"
    cast.write_text(f'[character."Whitcombe"]\n{entry}\n', encoding="utf-8")
    # Nothing listens there: the refusal must come before the first request.
    done = run_cli(story, "--backend", "sglomni", "--api-url", "http://127.0.0.1:9", "--model", model,
                   "--instructions", "A calm narrator" if "voicedesign" in model else "",
                   "--cast", cast, "--no-verify", "-o", tmp_path / "out.m4b")
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert done.returncode != 0 and len(errors) == 1, done.stderr
    assert '[character."Whitcombe"]' in errors[0] and said in errors[0], errors[0]
    assert "Nothing answers" not in done.stderr and "Traceback" not in done.stderr


def test_entries_sharing_a_reported_id_are_all_accepted_and_the_ambiguity_is_said(caplog):
    """The guide's trap 6: the voice-acting weights' server reports the base MOSS-TTS-Local id."""
    from app.backends.sglomni import catalog, policy

    base = ("OpenMOSS-Team/MOSS-TTS-Local-Transformer-v1.5",)
    assert policy.model_matches(catalog.get("moss_tts_local_voice_acting"), base)
    assert policy.model_matches(catalog.get("moss_tts_local"), base)
    assert not policy.model_matches(catalog.get("moss_tts_local"), ("laion/moss-tts-local-transformer-4.55b-voice-acting",))
    with caplog.at_level("WARNING"):
        assert policy.catalog_key_for(base) == "moss_tts_local"
    assert "moss_tts_local_voice_acting" in caplog.text and "--model" in caplog.text
