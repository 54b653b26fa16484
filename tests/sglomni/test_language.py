"""--language: ISO codes become the names sglang-omni 0.1.9 accepts."""
from __future__ import annotations

import pytest

from app.backends.base import VoiceOptions
from app.backends.sglomni import catalog
from app.backends.sglomni.client import build_payload, language_name


@pytest.mark.parametrize("given, sent", [
    ("en", "English"), ("EN-gb", "English"), ("zh_CN", "Chinese"), ("ja", "Japanese"),
    ("English", "English"), ("french", "french"), ("Klingon", "Klingon"),
])
def test_language_codes_map_to_names(given, sent):
    assert language_name(given) == sent


def test_payload_carries_the_mapped_language():
    body = build_payload(catalog.get("moss_tts_local"), VoiceOptions(language="de"), "Hallo.", 7)
    assert body["language"] == "German"
