"""Each catalog model's request, built from what its 0.1.9 request builder takes (catalog RequestFields)."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.backends.base import VoiceOptions
from app.backends.sglomni import catalog, requests
from app.backends.sglomni.catalog import IGNORED, REFUSED, REQUIRED, TAKES
from app.core.errors import ConfigError

UPSTREAM_FILES = ("request_builders.py", "stages.py")


@pytest.mark.parametrize("key", sorted(catalog.CATALOG))
def test_every_entry_cites_its_builder(key):
    fields = catalog.get(key).request
    path, _, function = fields.source.partition(" ")
    assert path.startswith("models/") and path.endswith(UPSTREAM_FILES) and function, fields.source
    for name in ("seed", "instructions", "language", "voice", "references", "max_new_tokens"):
        assert getattr(fields, name) in (TAKES, REQUIRED, IGNORED, REFUSED), (key, name)


@pytest.mark.parametrize("key", sorted(catalog.CATALOG))
def test_payload_carries_only_fields_the_builder_takes(key):
    spec = catalog.get(key)
    fields = spec.request
    voice = VoiceOptions(instructions="Warm." if fields.instructions in (TAKES, REQUIRED, IGNORED) else None,
                         language="en" if fields.language in (TAKES, IGNORED) else None)
    ref = "/voices/clip.wav" if fields.references in (TAKES, REQUIRED) else None
    body = requests.build_payload(spec, voice, "Hello there.", 11, ref_audio=ref, ref_text="Ref words.")
    assert ("seed" in body) == (fields.seed != REFUSED)
    assert ("instructions" in body) == (fields.instructions in (TAKES, REQUIRED))
    assert ("language" in body) == (fields.language == TAKES)
    assert ("ref_audio" in body) == (ref is not None)
    for name, value in fields.extras.items():
        assert body[name] == value


def test_zonos2_and_voxtral_requests_carry_no_seed():
    for key in ("zonos2", "voxtral_tts"):
        assert not requests.sends_seed(catalog.get(key))
    body = requests.build_payload(catalog.get("zonos2"), VoiceOptions(), "Words.", 5, ref_audio="/c.wav",
                                  ref_text="Ref.")
    assert body == {"input": "Words.", "response_format": "wav", "stream": False, "ref_audio": "/c.wav",
                    "ref_text": "Ref.", "max_new_tokens": 12288}


@pytest.mark.parametrize("key, voice, flag", [
    ("voxtral_tts", VoiceOptions(language="en"), "--language"),
    ("voxtral_tts", VoiceOptions(instructions="Angry."), "--instructions"),
    ("voxtral_tts", VoiceOptions(clone=Path("x.wav")), "--clone"),
    ("qwen3_tts_0_6b_customvoice", VoiceOptions(clone=Path("x.wav")), "--clone"),
    ("qwen3_tts_1_7b_voicedesign", VoiceOptions(), "--instructions"),
])
def test_options_the_builder_refuses_or_requires_stop_the_run_first(key, voice, flag):
    with pytest.raises(ConfigError) as err:
        requests.check_options(catalog.get(key), voice)
    assert flag in f"{err.value.message} {err.value.hint}"


def test_ignored_options_only_warn():
    warnings = requests.check_options(catalog.get("higgs_audio_v3_tts"), VoiceOptions(instructions="Calm."))
    assert warnings == ["higgs_audio_v3_tts ignores --instructions (its sglang-omni request builder does not read it)"]


@pytest.mark.parametrize("can, reason", [(False, "no speech recognizer is installed"),
                                         (True, "could not be transcribed here")])
def test_qwen3_base_without_transcript_is_refused_naming_transcription(can, reason):
    spec = catalog.get("qwen3_tts_0_6b_base")
    with pytest.raises(ConfigError) as err:
        requests.require_transcript(spec, None, can_transcribe=can)
    assert reason in err.value.message and "--transcription" in err.value.hint
    requests.require_transcript(spec, "Words of the clip.", can_transcribe=can)
    requests.require_transcript(catalog.get("moss_tts"), None, can_transcribe=can)  # optional there
