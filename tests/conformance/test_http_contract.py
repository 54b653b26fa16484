"""The app's sglomni client and backend against the real sglang-omni 0.1.9 HTTP app (CPU pipeline)."""
from __future__ import annotations

import base64
import json
import wave
from pathlib import Path

import httpx
import pytest

from app.backends.base import BackendOptions, VoiceOptions
from app.backends.sglomni import catalog, client
from app.backends.sglomni.backend import SglomniBackend
from app.core.http import OOM_HINT, Endpoint
from app.core.errors import OutOfMemory, ServerError
from tests import server_calls

pytestmark = pytest.mark.conformance


def wav_format(path: Path) -> tuple[int, int, int]:
    with wave.open(str(path), "rb") as wav:
        return wav.getframerate(), wav.getnchannels(), wav.getnframes()


def clip_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / wav.getframerate()


def seconds(frames_rate: list[int]) -> float:
    frames, rate = frames_rate
    return frames / rate


def backend_for(server, voice: VoiceOptions) -> SglomniBackend:
    """Return the app's own backend pointed at `server` as an external --api-url."""
    return SglomniBackend(BackendOptions(model=server.model_name, voice=voice, api_urls=(server.url,),
                                         concurrency=2))


def speak(server, voice: VoiceOptions, out: Path, *, text="It was a bright cold day in April.", seed=1234):
    """Synthesize through the backend; return the pipeline's record of the request."""
    before = len(server.records())
    with backend_for(server, voice) as backend:
        backend.synthesize(text, seed, out)
    new = server.records()[before:]
    assert len(new) == 1, new
    return new[0]


# --- discovery and voices -----------------------------------------------------------------

def test_health_as_the_real_server_emits_it(fleet):
    with Endpoint(fleet["moss_tts_local"].url) as ep:
        body = client.health(ep)
    assert body["status"] == "healthy"
    assert body["stages"] and body["running"] is True


def test_models_name_what_was_started(fleet):
    for key, server in fleet.items():
        with Endpoint(server.url) as ep:
            assert server_calls.list_models(ep) == [key]


def test_voices_list_upload_use_delete(fleet, speech_clip, tmp_path):
    server = fleet["moss_tts_local"]
    with Endpoint(server.url) as ep:
        listed = client.list_voices(ep)
        assert "default" in listed["voices"] and listed["uploaded_voices"] == []
        meta = client.upload_voice(ep, "narrator", speech_clip, ref_text="This is the narrator speaking.")
        assert "narrator" in json.dumps(meta)
        listed = client.list_voices(ep)
        assert [v["name"] for v in listed["uploaded_voices"]] == ["narrator"]
        assert "narrator" in listed["voices"]
        # The uploaded voice is usable by name: the pipeline receives its audio as the reference.
        record = speak(server, VoiceOptions(voice="narrator"), tmp_path / "named.wav")
        assert record["tts_params"]["uploaded_voice_name"] == "narrator"
        assert record["reference_frames"] and record["reference_frames"][0][0] > 0
        assert server_calls.delete_voice(ep, "narrator") is True
        assert server_calls.delete_voice(ep, "narrator") is False
        assert client.list_voices(ep)["uploaded_voices"] == []


# --- accepted requests --------------------------------------------------------------------

def test_reference_less_with_language_and_seed(fleet, tmp_path):
    server = fleet["moss_tts_local"]
    spec = catalog.get("moss_tts_local")
    out = tmp_path / "plain.wav"
    record = speak(server, VoiceOptions(language="English"), out, seed=777)
    assert wav_format(out)[:2] == (spec.sample_rate, spec.channels) == (48000, 2)
    assert record["params"]["seed"] == 777
    assert record["tts_params"]["language"] == "English"
    assert record["references"] == []


def test_iso_language_code_is_sent_as_the_name_the_server_accepts(fleet, tmp_path):
    """0.1.9 validates language against names ("English") and 400s on ISO codes: the app maps them."""
    record = speak(fleet["moss_tts_local"], VoiceOptions(language="en"), tmp_path / "x.wav")
    assert record["tts_params"]["language"] == "English"


def test_unknown_language_is_refused_with_the_servers_list(fleet, tmp_path):
    with pytest.raises(ServerError) as err:
        speak(fleet["moss_tts_local"], VoiceOptions(language="Klingon"), tmp_path / "x.wav")
    assert err.value.status == 400 and not err.value.transient
    assert "language must be one of" in err.value.message


def test_clone_with_local_path_on_loopback(fleet, speech_clip, tmp_path):
    server = fleet["moss_tts_local"]
    out = tmp_path / "clone.wav"
    record = speak(server, VoiceOptions(clone=speech_clip, transcription="This is the narrator."), out)
    # The server read our file itself and handed the stage the whole clip (0.1.9 resamples it).
    assert len(record["reference_frames"]) == 1
    assert seconds(record["reference_frames"][0]) == pytest.approx(clip_seconds(speech_clip), abs=0.01)
    assert record["tts_params"]["ref_text"] == "This is the narrator."
    assert wav_format(out)[:2] == (48000, 2)


def test_clone_with_data_uri(fleet, speech_clip, tmp_path):
    """What the app sends a remote server: the clip inline, typed audio/wav."""
    server = fleet["moss_tts_local"]
    spec = catalog.get("moss_tts_local")
    ref = client.reference_value(speech_clip, loopback=False)
    assert ref.startswith("data:audio/wav;base64,")
    with Endpoint(server.url) as ep:
        speech = client.SpeechClient(ep, spec, VoiceOptions(), ref_audio=ref, ref_text="Narrator.")
        info = speech.synthesize("A short line.", 5, tmp_path / "uri.wav")
    assert (info.sample_rate, info.channels) == (48000, 2)
    record = server.records()[-1]
    assert seconds(record["reference_frames"][0]) == pytest.approx(clip_seconds(speech_clip), abs=0.01)


def test_qwen3_base_clone(fleet, speech_clip, tmp_path):
    server = fleet["qwen3_tts_0_6b_base"]
    spec = catalog.get("qwen3_tts_0_6b_base")
    out = tmp_path / "qwen.wav"
    record = speak(server, VoiceOptions(clone=speech_clip, transcription="The narrator."), out)
    assert wav_format(out)[:2] == (spec.sample_rate, spec.channels)
    assert record["reference_frames"][0][0] > 0


def test_voice_design_instructions(fleet, tmp_path):
    server = fleet["qwen3_tts_1_7b_voicedesign"]
    spec = catalog.get("qwen3_tts_1_7b_voicedesign")
    assert "design" in spec.capabilities
    out = tmp_path / "design.wav"
    record = speak(server, VoiceOptions(instructions="A warm, low narrator voice, unhurried."), out)
    assert record["tts_params"]["instructions"] == "A warm, low narrator voice, unhurried."
    assert wav_format(out)[:2] == (spec.sample_rate, spec.channels)


def test_higgs_max_new_tokens_accepted(fleet, tmp_path):
    server = fleet["higgs_audio_v3_tts"]
    spec = catalog.get("higgs_audio_v3_tts")
    assert spec.request_extras.get("max_new_tokens") == 3000
    out = tmp_path / "higgs.wav"
    record = speak(server, VoiceOptions(), out)
    assert record["params"]["max_new_tokens"] == 3000
    assert wav_format(out)[:2] == (spec.sample_rate, spec.channels)


# --- what the real server refuses ---------------------------------------------------------

def _refusals(clip: Path, port: int) -> dict[str, tuple[dict, str]]:
    b64 = base64.b64encode(clip.read_bytes()).decode()
    return {
        "data URI without audio/* type": ({"ref_audio": f"data:application/octet-stream;base64,{b64}"}, "audio"),
        "file:// reference": ({"ref_audio": f"file://{clip}"}, "file"),
        "loopback http:// reference": ({"ref_audio": f"http://127.0.0.1:{port}/clip.wav"}, ""),
        "stream=true with wav": ({"stream": True}, "stream=true requires response_format='pcm'"),
    }


@pytest.mark.parametrize("case", ["data URI without audio/* type", "file:// reference",
                                  "loopback http:// reference", "stream=true with wav"])
def test_refusals_become_one_clear_line(fleet, speech_clip, tmp_path, case):
    server = fleet["moss_tts_local"]
    params, needle = _refusals(speech_clip, server.port)[case]
    before = len(server.records())
    with pytest.raises(ServerError) as err:
        speak(server, VoiceOptions(params=params), tmp_path / "refused.wav")
    exc = err.value
    assert exc.status == 400 and not exc.transient, (exc.status, exc.message)
    assert "\n" not in exc.message and "refused the request (HTTP 400:" in exc.message
    assert needle.lower() in exc.message.lower()
    # Refused by the HTTP layer: nothing reached the pipeline, and nothing was retried.
    assert len(server.records()) == before
    assert not (tmp_path / "refused.wav").exists()


def test_streaming_rules_of_0_1_9(fleet):
    """stream=true needs pcm; SSE needs stream_format 'sse' and ends without [DONE]."""
    url = fleet["moss_tts_local"].url + "/v1/audio/speech"
    with httpx.Client(timeout=60, trust_env=False) as http:
        raw = http.post(url, json={"input": "Streaming words.", "stream": True, "response_format": "pcm"})
        assert raw.status_code == 200 and raw.headers["content-type"].startswith("audio/pcm")
        assert len(raw.content) > 1000 and len(raw.content) % 2 == 0
        sse = http.post(url, json={"input": "Streaming words.", "stream": True, "response_format": "pcm",
                                   "stream_format": "sse"})
    assert sse.status_code == 200
    events = [json.loads(line[6:]) for line in sse.text.splitlines() if line.startswith("data: {")]
    types = [e["type"] for e in events]
    assert "speech.audio.delta" in types and types[-1] == "speech.audio.done"
    assert "[DONE]" not in sse.text


# --- error envelope -----------------------------------------------------------------------

def test_cuda_oom_500_becomes_out_of_memory(fleet, tmp_path):
    server = fleet["moss_tts_local"]
    before = len(server.records())
    with pytest.raises(OutOfMemory) as err:
        with backend_for(server, VoiceOptions()) as backend:
            backend.synthesize("This chunk hits FAULT_OOM on the GPU.", 1, tmp_path / "oom.wav")
    exc = err.value
    assert exc.status == 500 and exc.hint == OOM_HINT
    assert "ran out of GPU memory" in exc.message and "CUDA out of memory" in exc.message
    # Transient (the pipeline spends its attempts on it); the client itself sends it once.
    assert exc.transient and len(server.records()) - before == 1


@pytest.fixture(scope="module")
def higgs_small_kv(conf_python, tmp_path_factory):
    from .conftest import cpu_server

    server = cpu_server(conf_python, tmp_path_factory.mktemp("higgs-kv"), "higgs_audio_v3_tts",
                        env={"CONFORMANCE_KV_CAPACITY": "2000"}).start().wait()
    yield server
    server.stop()


def test_higgs_kv_window_refit(higgs_small_kv, tmp_path):
    """Upstream's KV-capacity 400 is refit to the reported capacity and resent exactly once."""
    text = "one two three four five six seven eight nine ten eleven twelve"
    out = tmp_path / "refit.wav"
    with backend_for(higgs_small_kv, VoiceOptions()) as backend:
        backend.synthesize(text, 3, out)
    first, second = higgs_small_kv.records()[-2:]
    assert first["params"]["max_new_tokens"] == 3000
    input_tokens = 4 * len(text.split()) + 16
    assert second["params"]["max_new_tokens"] == 2000 - input_tokens
    assert wav_format(out)[:2] == (24000, 1)
