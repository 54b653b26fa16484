"""Every catalog model's request, as the app builds it, against sglang-omni 0.1.9's own request code.

Each model's request goes through the real path (CreateSpeechRequest, the speech service's
GenerateRequest, the Client's OmniRequest) into the request-building function its catalog entry
cites, where that imports on a CPU without weights (probe.py `requests`). Where it cannot (the
builder's module needs GPU-side packages this venv leaves out, or a checkpoint's tokenizer), the
table below stands in: each row is one refusal of that builder, its message checked at the cited
line of the real 0.1.9 source, and no request the app builds for the model may trip it.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.backends.base import VoiceOptions
from app.backends.sglomni import catalog, requests
from app.backends.sglomni.catalog import REFUSED, REQUIRED, TAKES

from .conformance_harness import probe

pytestmark = pytest.mark.conformance

Body = dict


@dataclass(frozen=True)
class Refusal:
    """One way a 0.1.9 request builder refuses a request."""

    #: Catalog keys whose builder this is.
    models: tuple[str, ...]
    #: "models/<family>/<file>.py:<line>" in the sglang_omni package.
    where: str
    #: Text of the raise at that line.
    message: str
    #: Whether a request body would trip it.
    trips: Callable[[Body], bool]


QWEN3_BASE = ("qwen3_tts_0_6b_base", "qwen3_tts_1_7b_base")
QWEN3_CV = ("qwen3_tts_0_6b_customvoice",)
QWEN3_VD = ("qwen3_tts_1_7b_voicedesign",)
QWEN3_SPEAKERS = {v.lower() for v in catalog.get("qwen3_tts_0_6b_customvoice").preset_voices} | {"default"}
VOXTRAL_FIELDS = ("seed", "temperature", "top_p", "top_k", "repetition_penalty", "task_type", "language",
                  "instructions", "ref_audio", "ref_text", "references")

REFUSALS = (
    Refusal(("zonos2",), "models/zonos2/request_builders.py:70",
            "ZONOS2 does not support seed because sampling uses the shared device RNG",
            lambda b: b.get("seed") is not None),
    Refusal(("voxtral_tts",), "models/voxtral_tts/pipeline/stages.py:81",
            "Voxtral TTS does not support these /v1/audio/speech fields",
            lambda b: any(b.get(f) not in (None, "", []) for f in VOXTRAL_FIELDS)),
    Refusal(QWEN3_BASE, "models/qwen3_tts/request_builders.py:428",
            "Qwen3-TTS Base requires non-empty ref_text unless ",
            lambda b: not b.get("ref_text") and not b.get("x_vector_only_mode")),
    Refusal(QWEN3_BASE, "models/qwen3_tts/request_builders.py:560",
            "Qwen3-TTS Base requires reference audio via ref_audio",
            lambda b: not b.get("ref_audio") and not b.get("voice")),
    Refusal(QWEN3_CV, "models/qwen3_tts/request_builders.py:437", "Qwen3-TTS CustomVoice does not accept ref_audio",
            lambda b: b.get("ref_audio") is not None),
    Refusal(QWEN3_CV, "models/qwen3_tts/request_builders.py:443", "Qwen3-TTS CustomVoice does not accept ref_text",
            lambda b: b.get("ref_text") is not None),
    Refusal(QWEN3_VD, "models/qwen3_tts/request_builders.py:458", "Qwen3-TTS VoiceDesign does not accept ref_audio",
            lambda b: b.get("ref_audio") is not None),
    Refusal(QWEN3_VD, "models/qwen3_tts/request_builders.py:472", "Qwen3-TTS VoiceDesign requires instructions",
            lambda b: not (b.get("instructions") or "").strip()),
    Refusal(QWEN3_BASE + QWEN3_CV + QWEN3_VD, "models/qwen3_tts/request_builders.py:99",
            "Qwen3-TTS seed must be an integer", lambda b: isinstance(b.get("seed"), bool)),
    Refusal(("moss_tts",), "models/moss_tts/request_builders.py:477", "MOSS-TTS seed must be a non-negative integer",
            lambda b: "seed" in b and not (isinstance(b["seed"], int) and b["seed"] >= 0)),
    Refusal(("moss_tts",), "models/moss_tts/request_builders.py:441", "MOSS-TTS max_new_tokens must be > 0",
            lambda b: "max_new_tokens" in b and not b["max_new_tokens"] > 0),
    Refusal(("moss_tts_local", "moss_tts_local_voice_acting"), "models/moss_tts_local/request_builders.py:212",
            "MOSS-TTS Local streaming max_new_tokens must be <= ", lambda b: bool(b.get("stream"))),
    Refusal(("dots_tts_mf",), "models/dots_tts/stages.py:157", "dots.tts accepts at most one reference audio",
            lambda b: len(b.get("references") or []) + (1 if b.get("ref_audio") else 0) > 1),
    Refusal(("dots_tts_mf",), "models/dots_tts/stages.py:192", "dots.tts prompt_text requires prompt audio",
            lambda b: bool(b.get("ref_text")) and not b.get("ref_audio")),
    Refusal(("fish_s2_pro",), "models/fishaudio_s2_pro/stages.py:271", "FishAudio reference input has no audio payload",
            lambda b: any(not (r.get("audio_path") or r.get("data")) for r in b.get("references") or [])),
    Refusal(("higgs_audio_v3_tts",), "models/higgs_tts/stages.py:384", "reference_audio is too long ",
            lambda b: False),  # clip length, not a field: the app's 10-30 s references stay far below 100 s
)


def app_requests(key: str, clip: str) -> list[Body]:
    """Return the bodies the app builds for `key` across the options a user can give it."""
    spec = catalog.get(key)
    fields = spec.request
    voices = [VoiceOptions()]
    if fields.instructions in (TAKES, REQUIRED):
        voices.append(VoiceOptions(instructions="A calm, warm narrator."))
    if fields.language == TAKES:
        voices.append(VoiceOptions(language="en"))
    voices += [VoiceOptions(voice=name) for name in spec.preset_voices]
    bodies = []
    for voice in voices:
        if fields.instructions == REQUIRED and not voice.instructions:
            voice = VoiceOptions(voice=voice.voice, language=voice.language, instructions="A calm narrator.")
        variants = [] if fields.references == REFUSED else [(clip, "The words of the clip.")]
        if fields.references != REQUIRED and not spec.reference_required:
            variants.append((None, None))
        for ref_audio, ref_text in variants:
            bodies.append(requests.build_payload(spec, voice, "The lighthouse blinked twice.", 1234,
                                                 ref_audio=ref_audio, ref_text=ref_text))
    return bodies


def test_every_catalog_model_has_its_builder_run_or_a_refusal_table(conf_python, tmp_path):
    clip = str(tmp_path / "clip.wav")
    items = [{"key": key, "source": catalog.get(key).request.source, "body": body}
             for key in sorted(catalog.CATALOG) for body in app_requests(key, clip)]
    batch = tmp_path / "requests.json"
    batch.write_text(json.dumps(items))
    reports = probe(conf_python, "requests", str(batch))
    table_models = {key for refusal in REFUSALS for key in refusal.models}
    for item, report in zip(items, reports):
        key = item["key"]
        assert report.get("found", True), f"{key}: {item['source']} does not exist in 0.1.9"
        if report.get("ran"):
            assert report["ok"], f"{key}: 0.1.9's own request code refuses the app's request {item['body']}: " \
                                 f"{report['error']}"
        else:
            assert key in table_models, f"{key}: its builder does not run here ({report.get('error')}) " \
                                        "and no refusal row covers it"


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: r.where)
def test_each_refusal_is_upstreams_and_no_app_request_trips_it(conf_venv, refusal, tmp_path):
    path, _, line = refusal.where.rpartition(":")
    (source,) = conf_venv.glob(f"lib/python3.*/site-packages/sglang_omni/{path}")
    lines = source.read_text().splitlines()
    assert refusal.message in lines[int(line) - 1], f"{refusal.where} no longer says {refusal.message!r}"
    for key in refusal.models:
        assert catalog.get(key).request.source.startswith(path.rsplit("/", 1)[0]), (key, refusal.where)
        for body in app_requests(key, str(tmp_path / "clip.wav")):
            assert not refusal.trips(body), f"the app's {key} request trips {refusal.where}: {body}"


def test_the_table_is_not_vacuous():
    """The predicates do catch what upstream refuses (the bodies the old client sent)."""
    trip = {r.where: r.trips for r in REFUSALS}
    assert trip["models/zonos2/request_builders.py:70"]({"input": "x", "seed": 7})
    assert trip["models/voxtral_tts/pipeline/stages.py:81"]({"input": "x", "seed": 7})
    assert trip["models/qwen3_tts/request_builders.py:428"]({"input": "x", "ref_audio": "/c.wav"})
    assert trip["models/qwen3_tts/request_builders.py:472"]({"input": "x"})
