"""Payloads, responses, retries and error mapping against the double over real HTTP."""
from __future__ import annotations

import base64
import io
import json
import wave
from pathlib import Path

import pytest

from tests.sglomni.conftest import resolved
from app.backends.sglomni import procgroup
from app.backends.base import BackendOptions, VoiceOptions
from app.backends.sglomni import catalog, client, policy, server
from app.backends.sglomni.backend import SglomniBackend
from app.core.http import OOM_HINT, Endpoint, Timeouts, error_text
from app.core.errors import BackendError, BadAudio, ConfigError, OutOfMemory, ServerBusy, ServerError, ServerUnavailable

from .conftest import free_port
from tests import server_calls
from tests.server_calls import servers_of



def make_clip(path: Path, seconds: float = 1.0, rate: int = 16000) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\x01\x00" * int(rate * seconds))
    return path


def backend_for(url: str, model: str, settings, **voice) -> SglomniBackend:
    opts = BackendOptions(model=model, api_urls=(url,), voice=VoiceOptions(**voice))
    b = SglomniBackend(resolved(opts, settings))
    b.start()
    return b


def speech_bodies(requests_log) -> list[dict]:
    return [r["json"] for r in requests_log("/v1/audio/speech")]


def wav_format(path: Path) -> tuple[int, int, int]:
    with wave.open(str(path)) as w:
        return w.getframerate(), w.getnchannels(), w.getnframes()


# --- payloads ---------------------------------------------------------------------------------

def test_reference_less_payload_and_model_rate(external_double, requests_log, settings, tmp_path):
    url = external_double("moss_tts_local")
    b = backend_for(url, "moss_tts_local", settings)
    out = tmp_path / "out" / "c1.wav"
    b.synthesize("The lighthouse blinked twice.", 7, out)
    assert speech_bodies(requests_log) == [
        {"input": "The lighthouse blinked twice.", "response_format": "wav", "stream": False, "seed": 7}]
    rate, channels, frames = wav_format(out)
    assert (rate, channels) == (48000, 2) and frames > 0
    assert [p.name for p in out.parent.iterdir()] == ["c1.wav"], "no temp file left behind"
    b.stop()


def test_real_piper_speech_through_the_double(external_double, settings, tmp_path):
    url = external_double("zonos2", env={"SGO_DOUBLE_SPEECH": "piper"})
    clip = make_clip(tmp_path / "ref.wav")
    b = backend_for(url, "zonos2", settings, clone=clip, transcription="A reference.")
    out = tmp_path / "z.wav"
    b.synthesize("Hello from the double.", 1, out)
    rate, channels, frames = wav_format(out)
    assert (rate, channels) == (44100, 1)
    with wave.open(str(out)) as w:
        samples = w.readframes(frames)
    assert 0.3 < frames / rate < 5 and max(samples[1::2]) > 8, "real, audible speech"
    b.stop()


def test_clone_on_loopback_sends_the_local_path(external_double, requests_log, settings, tmp_path):
    url = external_double("moss_tts_local", env={"SGO_DOUBLE_NO_VOICES": "1"})  # no upload: per request
    clip = make_clip(tmp_path / "narrator.wav")
    b = backend_for(url, "moss_tts_local", settings, clone=clip, transcription="Hello there.")
    b.synthesize("Cloned words.", 3, tmp_path / "c.wav")
    body = speech_bodies(requests_log)[0]
    assert body["ref_audio"] == str(clip.resolve()) and body["ref_text"] == "Hello there."
    assert b.identity()["clone_sha256"] and b.identity()["transcript"] == "Hello there."
    b.stop()


def test_clone_on_a_remote_server_is_inlined_never_a_path(tmp_path, settings):
    clip = make_clip(tmp_path / "narrator.wav")
    b = SglomniBackend(resolved(BackendOptions(model="moss_tts_local",
                                      voice=VoiceOptions(clone=clip, transcription="Hi.")), settings))
    b._connect(policy.ServerHandle(base_url="http://192.0.2.10:8000", started_by_us=False, label="x"))
    body = servers_of(b).members[0].speech.payload("Remote words.", 5)
    assert body["ref_audio"].startswith("data:audio/wav;base64,")
    assert base64.b64decode(body["ref_audio"].split(",", 1)[1]) == clip.read_bytes()
    assert str(tmp_path) not in json.dumps(body)
    b.stop()


def test_data_uri_reference_is_accepted_by_the_server(external_double, requests_log, tmp_path):
    url = external_double("moss_tts")
    clip = make_clip(tmp_path / "r.wav")
    spec = catalog.get("moss_tts")
    with Endpoint(url) as ep:
        speech = client.SpeechClient(ep, spec, VoiceOptions(), ref_audio=client.reference_value(clip, loopback=False),
                                     ref_text="Words.")
        info = speech.synthesize("Some text.", 2, tmp_path / "o.wav")
    assert info.sample_rate == 24000
    assert speech_bodies(requests_log)[0]["ref_audio"].startswith("data:audio/wav;base64,")


def test_preset_voice(external_double, requests_log, settings, tmp_path):
    url = external_double("qwen3_tts_0_6b_customvoice")
    b = backend_for(url, "qwen3_tts_0_6b_customvoice", settings, voice="Vivian")
    b.synthesize("Preset voice.", 1, tmp_path / "v.wav")
    assert speech_bodies(requests_log)[0]["voice"] == "Vivian"
    b.stop()


def test_unknown_voice_is_a_one_line_non_transient_error(external_double, requests_log, settings, tmp_path):
    url = external_double("qwen3_tts_0_6b_customvoice")
    b = backend_for(url, "qwen3_tts_0_6b_customvoice", settings, voice="Nobody")
    with pytest.raises(ServerError) as info:
        b.synthesize("x", 1, tmp_path / "v.wav")
    assert info.value.status == 400 and not info.value.transient
    assert "Unknown voice 'Nobody'" in info.value.message and "\n" not in info.value.message
    assert len(speech_bodies(requests_log)) == 1, "4xx is not retried"
    b.stop()


def test_design_instructions_and_language(external_double, requests_log, settings, tmp_path):
    url = external_double("qwen3_tts_1_7b_voicedesign")
    b = backend_for(url, "qwen3_tts_1_7b_voicedesign", settings,
                    instructions="A warm adult female narrator", language="English")
    b.synthesize("Designed.", 9, tmp_path / "d.wav")
    body = speech_bodies(requests_log)[0]
    assert body["instructions"] == "A warm adult female narrator" and body["language"] == "English"
    b.stop()


def test_zonos2_extras_and_required_reference(external_double, requests_log, settings, tmp_path):
    url = external_double("zonos2")
    clip = make_clip(tmp_path / "z.wav")
    b = backend_for(url, "zonos2", settings, clone=clip, transcription="Ref.")
    b.synthesize("Zonos words.", 4, tmp_path / "z_out.wav")
    (body,) = speech_bodies(requests_log)
    assert body["max_new_tokens"] == 12288 and "seed" not in body
    b.stop()
    with pytest.raises(BackendError, match="needs a reference clip"):
        client.build_payload(catalog.get("zonos2"), VoiceOptions(), "x", 1)


def test_higgs_refits_to_the_reported_window_and_resends_once(external_double, requests_log, settings, tmp_path):
    url = external_double("higgs_audio_v3_tts", env={"SGO_DOUBLE_KV_CAPACITY": "4095"})
    b = backend_for(url, "higgs_audio_v3_tts", settings)
    assert b.max_chunk_words == 80
    text = " ".join(["word"] * 80)  # double: input_tokens = 200 + 12*80 = 1160
    b.synthesize(text, 1, tmp_path / "h.wav")
    sent = [body["max_new_tokens"] for body in speech_bodies(requests_log)]
    assert sent == [3000, 4095 - 1160]
    b.stop()


def test_higgs_never_resends_as_is_when_nothing_fits(external_double, requests_log, settings, tmp_path):
    url = external_double("higgs_audio_v3_tts", env={"SGO_DOUBLE_KV_CAPACITY": "250"})
    b = backend_for(url, "higgs_audio_v3_tts", settings)
    with pytest.raises(ServerError, match="cannot fit this request") as info:
        b.synthesize("far too long for the window", 1, tmp_path / "h.wav")
    assert not info.value.transient
    assert [body["max_new_tokens"] for body in speech_bodies(requests_log)] == [3000]
    b.stop()


def test_kv_message_numbers_parse_from_upstreams_format():
    msg = ("Request requires more tokens than the thinker KV cache can hold (input_tokens=1500, "
           "max_new_tokens=3000, required_tokens=4500, kv_capacity=4095). Current mem_fraction_static is "
           "0.800; try setting --thinker-mem-fraction-static higher.")
    assert client.parse_kv_window(msg) == (1500, 3000, 4500, 4095)
    assert client.refit_max_new_tokens(msg) == 2595


# --- errors and retries -----------------------------------------------------------------------

def test_a_500_is_one_transient_error_and_the_client_does_not_retry(external_double, requests_log, settings,
                                                                      tmp_path):
    url = external_double("moss_tts_local", env={"SGO_DOUBLE_FAIL": "1"})
    b = backend_for(url, "moss_tts_local", settings)
    with pytest.raises(ServerError) as info:
        b.synthesize("Eventually.", 1, tmp_path / "e.wav")
    assert info.value.transient and not isinstance(info.value, ServerBusy)
    assert len(speech_bodies(requests_log)) == 1, "the pipeline alone retries"
    b.synthesize("Eventually.", 1, tmp_path / "e.wav")
    assert b.adaptive
    b.stop()


def test_pinned_concurrency_is_not_adaptive(settings):
    from app.backends import BackendOptions
    from app.backends.sglomni.backend import create

    assert create(BackendOptions(model="moss_tts_local", api_urls=("http://127.0.0.1:9",))).adaptive
    pinned = create(BackendOptions(model="moss_tts_local", api_urls=("http://127.0.0.1:9",), concurrency=12))
    assert not pinned.adaptive and pinned.concurrency == 12


def test_persistent_oom_names_the_mem_fraction_remediation(external_double, requests_log, settings, tmp_path):
    url = external_double("moss_tts_local", env={"SGO_DOUBLE_FAIL": "99", "SGO_DOUBLE_OOM": "1"})
    b = backend_for(url, "moss_tts_local", settings)
    with pytest.raises(OutOfMemory) as info:
        b.synthesize("x", 1, tmp_path / "e.wav")
    assert info.value.hint == OOM_HINT and "--mem-fraction-static 0.70" in info.value.one_line()
    assert "HTTP 500: CUDA out of memory" in info.value.message
    assert len(speech_bodies(requests_log)) == 1
    assert info.value.transient, "a persisting OOM spends the pipeline's attempts"
    assert not (tmp_path / "e.wav").exists()
    b.stop()


def test_connection_refused_names_the_managed_log(tmp_path):
    log = tmp_path / "server.log"
    with Endpoint(f"http://127.0.0.1:{free_port()}", log_path=log) as ep:
        with pytest.raises(ServerUnavailable) as info:
            ep.get_json("/health")
    assert "Cannot connect to the SGLang-Omni server" in info.value.message
    assert str(log) in info.value.one_line() and info.value.transient


def test_read_timeout_is_transient(external_double, tmp_path):
    url = external_double("moss_tts_local", env={"SGO_DOUBLE_SLOW": "2"})
    with Endpoint(url, timeouts=Timeouts(read=0.3)) as ep:
        speech = client.SpeechClient(ep, catalog.get("moss_tts_local"), VoiceOptions())
        with pytest.raises(ServerError, match="did not answer in time") as info:
            speech.synthesize("slow", 1, tmp_path / "t.wav")
    assert info.value.transient


@pytest.mark.parametrize("bad", ["html", "text", "truncated"])
def test_non_wav_bodies_are_bad_audio_worth_another_attempt(bad, external_double, requests_log, settings,
                                                              tmp_path):
    url = external_double("moss_tts_local", env={"SGO_DOUBLE_BAD": bad, "SGO_DOUBLE_BAD_COUNT": "1"})
    b = backend_for(url, "moss_tts_local", settings)
    with pytest.raises(BadAudio) as info:
        b.synthesize("fine the second time", 1, tmp_path / "ok.wav")
    assert info.value.transient
    assert not (tmp_path / "ok.wav").exists() and list(tmp_path.glob(".*part")) == []
    b.synthesize("fine the second time", 1, tmp_path / "ok.wav")
    assert len(speech_bodies(requests_log)) == 2
    b.stop()


def test_check_wav_rejects_truncation_and_accepts_whole_files():
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(48000)
        w.writeframes(b"\0\0\0\0" * 480)
    data = buf.getvalue()
    info = client.check_wav(data)
    assert (info.sample_rate, info.channels, info.sample_width, info.frames) == (48000, 2, 2, 480)
    with pytest.raises(BadAudio, match="truncated"):
        client.check_wav(data[:-100])
    with pytest.raises(BadAudio, match="HTML"):
        client.check_wav(b"<html><body>oops</body></html>")


def test_error_text_parses_envelopes_and_hides_tokens():
    body = json.dumps({"error": {"message": "bad token hf_abcdefghijklmnop\nsecond line", "type": "x", "code": 400}})
    text = error_text(body)
    assert text == "bad token *** second line"
    assert error_text('{"detail": "Not Found"}') == "Not Found"
    assert error_text('{"success": false, "error": "Voice \'a\' not found"}') == "Voice 'a' not found"


# --- discovery and voices ---------------------------------------------------------------------

def test_discovery_and_voice_round_trip(external_double, tmp_path):
    url = external_double("moss_tts_local")
    clip = make_clip(tmp_path / "mine.wav")
    with Endpoint(url) as ep:
        assert client.health(ep)["status"] == "healthy"
        assert server_calls.list_models(ep) == ["moss_tts_local"]
        meta = client.upload_voice(ep, "mine", clip, consent="owner", ref_text="Hi.")
        assert meta["name"] == "mine" and meta["file_size"] == clip.stat().st_size
        listed = client.list_voices(ep)
        assert "mine" in listed["voices"] and listed["uploaded_voices"][0]["ref_text"] == "Hi."
        assert server_calls.delete_voice(ep, "mine") is True
        assert server_calls.delete_voice(ep, "mine") is False
        assert "mine" not in client.list_voices(ep)["voices"]


# --- the backend around a managed server ------------------------------------------------------

def test_backend_boots_synthesizes_and_stops_its_own_server(settings, tmp_path):
    b = SglomniBackend(resolved(BackendOptions(model="moss_tts_local"), settings))
    assert b.concurrency == 96 and b.default_chunk_size == 40
    ident = b.identity()
    assert ident["backend"] == "sglomni" and ident["model"] == "moss_tts_local" and ident["clone_sha256"] is None
    with b:
        pgid = b.handle.server.pid
        assert b.handle.started_by_us
        b.synthesize("Managed.", 1, tmp_path / "m.wav")
        assert wav_format(tmp_path / "m.wav")[:2] == (48000, 2)
    assert not procgroup.group_alive(pgid)
    assert SglomniBackend(resolved(BackendOptions(model="moss_tts_local", concurrency=8), settings)).concurrency == 8


def test_transcript_comes_from_the_clip_cache_when_not_given(external_double, requests_log, settings, tmp_path):
    from app.listen import clip as clip_transcript
    clip = make_clip(tmp_path / "voices" / "n.wav") if (tmp_path / "voices").mkdir() is None else None
    clip_transcript.transcript_path(clip).write_text("Cached words of the clip.\n")
    url = external_double("moss_tts_local")
    b = backend_for(url, "moss_tts_local", settings, clone=clip)
    b.synthesize("Hello.", 1, tmp_path / "t.wav")
    uploads = [r for r in requests_log("/v1/audio/voices") if r["method"] == "POST"]
    assert uploads[0]["fields"]["ref_text"] == "Cached words of the clip."  # stored with the uploaded voice
    b.stop()


def test_a_managed_server_that_dies_mid_run_is_restarted(settings, tmp_path):
    import os
    b = SglomniBackend(resolved(BackendOptions(model="moss_tts_local"), settings))
    with b:
        b.synthesize("Before.", 1, tmp_path / "a.wav")
        first = b.handle.server.pid
        os.killpg(first, 9)
        b.synthesize("After the crash.", 2, tmp_path / "b.wav")
        assert b.restarts == 1 and b.handle.server.pid != first
        assert (tmp_path / "a.wav").exists() and (tmp_path / "b.wav").exists()
        second = b.handle.server.pid
    assert not procgroup.group_alive(second)


def test_every_payload_field_is_a_createspeechrequest_field(tmp_path):
    """Field names come from sglang-omni 0.1.9's serve/protocol.py (read by AST, not copied)."""
    import ast
    from tests.support import sglang_omni_source
    root = sglang_omni_source()
    if root is None:
        pytest.skip("sglang-omni 0.1.9's source is not on this machine (bash tests/conformance/env.sh)")
    tree = ast.parse((root / "sglang_omni" / "serve/protocol.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "CreateSpeechRequest")
    fields = {n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    clip = make_clip(tmp_path / "c.wav")
    voice = VoiceOptions(voice="v", instructions="i", clone=clip, transcription="t", language="English")
    for spec in catalog.CATALOG.values():
        body = client.build_payload(spec, voice, "text", 1, ref_audio=str(clip), ref_text="t", model_name=spec.key)
        assert set(body) <= fields, (spec.key, set(body) - fields)


def test_missing_clone_clip_is_an_input_error(settings, tmp_path):
    from app.core.errors import InputError
    with pytest.raises(InputError, match="does not exist"):
        SglomniBackend(resolved(BackendOptions(model="moss_tts_local", voice=VoiceOptions(clone=tmp_path / "nope.wav")),
                       settings))


# --- what 0.1.9's request builders refuse (the double answers as upstream does) ---------------

def test_the_zonos2_double_refuses_a_seed_as_0_1_9_does(external_double, tmp_path):
    """build_zonos2_state raises; no bad-request marker matches it, so upstream answers 500."""
    import httpx

    url = external_double("zonos2")
    body = {"input": "Words.", "response_format": "wav", "seed": 3, "ref_audio": str(make_clip(tmp_path / "r.wav"))}
    answer = httpx.post(url + "/v1/audio/speech", json=body, timeout=30, trust_env=False)
    assert answer.status_code == 500
    assert answer.json() == {"error": {
        "message": "ZONOS2 does not support seed because sampling uses the shared device RNG",
        "type": "server_error", "param": None, "code": None}}


def test_a_zonos2_retake_after_bad_audio_is_another_request_without_a_seed(external_double, requests_log,
                                                                            settings, tmp_path):
    """With no seed to vary, a re-render is simply another take: the cache key still differs per seed."""
    from app.pipeline.cache import chunk_key

    url = external_double("zonos2", env={"SGO_DOUBLE_BAD": "truncated"})
    b = backend_for(url, "zonos2", settings, clone=make_clip(tmp_path / "z.wav"), transcription="Ref.")
    with pytest.raises(BadAudio):  # the client sends once; the pipeline's scheduler asks for the retake
        b.synthesize("Zonos words.", 4, tmp_path / "z_out.wav")
    b.synthesize("Zonos words.", 4 + 7919, tmp_path / "z_out.wav")
    bodies = speech_bodies(requests_log)
    assert len(bodies) == 2 and all("seed" not in body for body in bodies), "retaken, never with a seed"
    assert wav_format(tmp_path / "z_out.wav")[0] == 44100
    identity = b.identity()
    assert chunk_key("Zonos words.", 4, identity) != chunk_key("Zonos words.", 4 + 7919, identity)
    b.stop()


def test_voxtral_requests_carry_no_seed_and_its_default_preset(external_double, requests_log, settings, tmp_path):
    url = external_double("voxtral_tts")
    b = backend_for(url, "voxtral_tts", settings, voice="default")
    b.synthesize("Voxtral words.", 9, tmp_path / "v.wav")
    (body,) = speech_bodies(requests_log)
    assert body["voice"] == "default" and "seed" not in body
    b.stop()


def test_api_url_alone_takes_the_served_model(external_double, settings):
    url = external_double("moss_tts_local")
    b = SglomniBackend(resolved(BackendOptions(api_urls=(url,)), settings))
    assert b.spec.key == "moss_tts_local"


def test_api_url_alone_with_a_model_outside_the_catalog_says_so(external_double, settings):
    url = external_double("someone/else")
    with pytest.raises(ConfigError) as err:
        SglomniBackend(resolved(BackendOptions(api_urls=(url,)), settings))
    assert "reports someone/else, which is not in the catalog" in err.value.message
    assert "--model" in err.value.hint
