"""Several servers as one pool, and the uploaded reference voice, against real double processes."""
from __future__ import annotations

import concurrent.futures as cf
import json
import os
import sys
import time
import wave
from pathlib import Path

import pytest

from app.core import proc
from tests.sglomni.conftest import resolved
from app.backends.base import BackendOptions, VoiceOptions
from app.backends.sglomni import client, reference
from app.backends.sglomni.backend import SglomniBackend
from app.core.files import sha256_file as _sha256
from app.core.http import Endpoint, probe_json
from app.core.errors import ConfigError

from .conftest import DOUBLE, free_port
from tests import server_calls
from tests.server_calls import servers_of

WORDS = "The ship sailed on through the long grey night."


class Double:
    """One server double process with its own request log."""

    def __init__(self, tmp_path: Path, name: str, model: str = "moss_tts_local", port: int | None = None,
                 **env: str):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp_path / f"{name}.jsonl"
        self._out = open(tmp_path / f"{name}-{self.port}.log", "ab")
        self.proc = proc.spawn([sys.executable, str(DOUBLE), "serve", "--model-path", "some/model",
                                "--port", str(self.port), "--host", "127.0.0.1", "--model-name", model],
                               env={"SGO_DOUBLE_RECORD": str(self.log), **env}, stdout=self._out,
                               new_session=True)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            answer = probe_json(self.url, "/health", timeout=1)
            if answer and answer[1] and answer[1].get("status") == "healthy":
                return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("the double did not come up")

    def requests(self, path: str) -> list[dict]:
        if not self.log.exists():
            return []
        rows = [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]
        return [r for r in rows if r["path"] == path]

    def speech(self) -> list[dict]:
        return [r["json"] for r in self.requests("/v1/audio/speech")]

    def uploads(self) -> list[dict]:
        return [r for r in self.requests("/v1/audio/voices") if r["method"] == "POST"]

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, 9)
        except ProcessLookupError:
            pass
        self.proc.wait(5)
        self._out.close()


@pytest.fixture
def doubles(tmp_path):
    """Return a starter of double processes; all are killed at the end."""
    started: list[Double] = []

    def start(name: str, **kw) -> Double:
        started.append(Double(tmp_path, name, **kw))
        return started[-1]

    yield start
    for d in started:
        if d.proc.poll() is None:
            d.kill()


def make_clip(path: Path, seconds: float = 1.5, rate: int = 16000) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\x10\x00\xf0\xff" * int(rate * seconds / 2))
    return path


def backend(urls, settings, *, model="moss_tts_local", concurrency=8, **voice) -> SglomniBackend:
    opts = BackendOptions(model=model, api_urls=tuple(urls), concurrency=concurrency, voice=VoiceOptions(**voice))
    b = SglomniBackend(resolved(opts, settings))
    b.start()
    return b


def render(b: SglomniBackend, out: Path, n: int, *, threads: int = 8, on_done=None) -> list[Path]:
    """Synthesize n chunks through `b` from a thread pool (as the pipeline does); return the files."""
    out.mkdir(exist_ok=True)
    paths = [out / f"{i:03d}.wav" for i in range(n)]
    with cf.ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(b.synthesize, f"{WORDS} Part {i}.", i, p) for i, p in enumerate(paths)]
        for k, fut in enumerate(cf.as_completed(futures), 1):
            fut.result()
            if on_done:
                on_done(k)
    return paths


def assert_all_audio(paths: list[Path]) -> None:
    for p in paths:
        assert p.exists(), f"chunk {p.name} was lost"
        assert client.check_wav(p.read_bytes()).frames > 0


# --- several endpoints ------------------------------------------------------------------------

def test_chunks_spread_over_two_servers_by_their_speed(doubles, settings, tmp_path):
    # Two slots each; B takes four times as long per request, so it can do a quarter of A's work.
    a = doubles("a", SGO_DOUBLE_SLOTS="2", SGO_DOUBLE_SLOW="0.04")
    b_ = doubles("b", SGO_DOUBLE_SLOTS="2", SGO_DOUBLE_SLOW="0.16")
    be = backend([a.url, b_.url], settings)
    assert be.concurrency == 8 and servers_of(be).workers == 2
    paths = render(be, tmp_path / "out", 80)
    assert_all_audio(paths)
    na, nb = len(a.speech()), len(b_.speech())
    assert na + nb == 80, "each chunk was requested exactly once"
    assert nb >= 4, "the slower server still takes part"
    assert na >= 2 * nb, f"the faster server takes the larger share ({na} vs {nb})"
    stats = {s["url"]: s for s in servers_of(be).stats()}
    assert stats[a.url]["cost"] < stats[b_.url]["cost"]
    # The cache identity is the same as with either server alone: nothing names a server.
    alone = backend([a.url], settings)
    assert be.identity() == alone.identity()
    be.stop()
    alone.stop()


def test_unpinned_ceiling_adds_up_per_server(doubles, settings):
    a, b_ = doubles("a"), doubles("b")
    be = backend([a.url, b_.url], settings, concurrency=None)
    assert be.concurrency == 2 * 96
    be.stop()


def test_a_server_killed_mid_run_loses_no_chunk_and_is_probed_back_in(doubles, settings, tmp_path):
    a = doubles("a", SGO_DOUBLE_SLOTS="4", SGO_DOUBLE_SLOW="0.05")
    b_ = doubles("b", SGO_DOUBLE_SLOTS="4", SGO_DOUBLE_SLOW="0.05")
    be = backend([a.url, b_.url], settings)
    killed_at = []

    def kill_b(done: int) -> None:
        if done == 10:
            b_.kill()
            killed_at.append(len(b_.speech()))

    paths = render(be, tmp_path / "out", 50, on_done=kill_b)
    assert_all_audio(paths)
    assert killed_at and killed_at[0] > 0, "B served before it died"
    assert len(a.speech()) >= 50 - killed_at[0], "A took every chunk B did not finish"
    stats = {s["url"]: s for s in servers_of(be).stats()}
    assert stats[b_.url]["alive"] is False and stats[b_.url]["moved_away"] >= 1

    # B comes back on its port: a /health probe (after PROBE_FIRST s) puts it back in rotation.
    b2 = doubles("b2", port=b_.port, SGO_DOUBLE_SLOTS="4", SGO_DOUBLE_SLOW="0.05")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not servers_of(be).stats()[1]["alive"]:
        be.synthesize(WORDS, 1, tmp_path / "probe.wav")
        time.sleep(0.2)
    assert servers_of(be).stats()[1]["alive"], "the server rejoined"
    render(be, tmp_path / "again", 16)
    assert b2.speech(), "the rejoined server serves chunks again"
    be.stop()


def test_a_server_down_at_start_is_skipped_until_it_answers(doubles, settings, tmp_path):
    a = doubles("a")
    down = f"http://127.0.0.1:{free_port()}"
    be = backend([a.url, down], settings)
    assert_all_audio(render(be, tmp_path / "out", 6))
    assert len(a.speech()) == 6
    assert [s["alive"] for s in servers_of(be).stats()] == [True, False]
    be.stop()


def test_every_server_must_host_the_model(doubles, settings):
    a, other = doubles("a"), doubles("o", model="voxtral_tts")
    with pytest.raises(ConfigError, match="hosts 'voxtral_tts'"):
        backend([a.url, other.url], settings)


def test_router_health_counts_its_workers():
    # The shape of sglang_omni_router's /health (app.py worker_pool_status_response).
    body = {"status": "healthy", "healthy_workers": 3, "dead_workers": 0, "routable_workers": 3,
            "total_workers": 3, "workers": [], "admission": {}, "voice_routing": {"registry_state": "ready"}}
    assert reference.behind_router(body) == 3
    assert reference.behind_router({"status": "healthy", "stages": ["tts_engine"]}) == 0
    assert reference.behind_router(None) == 0


# --- reference upload -------------------------------------------------------------------------

def test_clone_uploads_once_and_names_the_voice(doubles, settings, tmp_path):
    a, b_ = doubles("a"), doubles("b")
    clip = make_clip(tmp_path / "narrator.wav")
    be = backend([a.url, b_.url], settings, clone=clip, transcription="Hello there.")
    render(be, tmp_path / "out", 12)
    name = reference.voice_name(_sha256(clip), "Hello there.")
    for d in (a, b_):
        ups = d.uploads()
        assert len(ups) == 1, "one upload per server"
        assert ups[0]["fields"]["name"] == name and ups[0]["fields"]["ref_text"] == "Hello there."
        assert ups[0]["audio_bytes"] == clip.stat().st_size
    bodies = a.speech() + b_.speech()
    assert len(bodies) == 12
    assert all(body["voice"] == name and "ref_audio" not in body and "ref_text" not in body for body in bodies)
    assert servers_of(be).references == ["uploaded", "uploaded"]
    ident = be.identity()
    be.stop()

    # A re-run finds the voice already there and uploads nothing.
    again = backend([a.url, b_.url], settings, clone=clip, transcription="Hello there.")
    again.synthesize(WORDS, 1, tmp_path / "x.wav")
    assert len(a.uploads()) == 1 and len(b_.uploads()) == 1
    assert again.identity() == ident
    again.stop()


def test_refused_upload_falls_back_to_the_clip_per_request(doubles, settings, tmp_path):
    clip = make_clip(tmp_path / "narrator.wav")
    with_voices = doubles("uploads")
    without = doubles("plain", SGO_DOUBLE_NO_VOICES="1")
    be = backend([with_voices.url, without.url], settings, clone=clip, transcription="Hi.")
    assert servers_of(be).references == ["uploaded", "path"]
    uploaded_ident = be.identity()
    render(be, tmp_path / "out", 10)
    plain = without.speech()
    assert plain and all(b["ref_audio"] == str(clip.resolve()) and b["ref_text"] == "Hi." for b in plain)
    assert not without.uploads()
    be.stop()
    alone = backend([without.url], settings, clone=clip, transcription="Hi.")
    assert alone.identity() == uploaded_ident, "upload or not, the cache key is the same"
    alone.stop()


def test_a_clip_the_server_rejects_is_sent_per_request(doubles, settings, tmp_path):
    a = doubles("a")
    clip = tmp_path / "odd.mp3"
    clip.write_bytes(b"ID3 not decodable by the double")
    be = backend([a.url], settings, clone=clip, transcription="Hi.")
    assert len(a.uploads()) == 1 and servers_of(be).references == ["path"]
    be.synthesize(WORDS, 1, tmp_path / "o.wav")
    assert a.speech()[0]["ref_audio"] == str(clip.resolve())
    be.stop()


def test_a_lost_uploaded_voice_switches_that_server_to_the_clip(doubles, settings, tmp_path):
    a = doubles("a", model="higgs_audio_v3_tts")
    clip = make_clip(tmp_path / "narrator.wav")
    be = backend([a.url], settings, model="higgs_audio_v3_tts", clone=clip, transcription="Hi.")
    assert servers_of(be).references == ["uploaded"]
    with Endpoint(a.url) as ep:  # the server forgets it (storage wiped, another tool deleted it)
        assert server_calls.delete_voice(ep, reference.voice_name(_sha256(clip), "Hi."))
    be.synthesize(WORDS, 1, tmp_path / "o.wav")
    last = a.speech()[-1]
    assert last["ref_audio"] == str(clip.resolve()) and "voice" not in last
    assert servers_of(be).references == ["path"]
    be.stop()


def test_models_that_ignore_uploaded_voices_never_upload(doubles, settings, tmp_path):
    a = doubles("a", model="zonos2")
    clip = make_clip(tmp_path / "narrator.wav")
    be = backend([a.url], settings, model="zonos2", clone=clip, transcription="Hi.")
    be.synthesize(WORDS, 1, tmp_path / "o.wav")
    assert not a.requests("/v1/audio/voices")
    assert a.speech()[0]["ref_audio"] == str(clip.resolve())
    be.stop()


def test_a_router_in_front_of_several_workers_gets_the_clip_inline(doubles, settings, tmp_path):
    a = doubles("a")
    clip = make_clip(tmp_path / "narrator.wav")
    router_health = {"status": "healthy", "total_workers": 2, "routable_workers": 2, "voice_routing": {}}
    with Endpoint(a.url) as ep:
        ref = reference.prepare(ep, be_spec(), clip, _sha256(clip), "Hi.", health=router_health)
    assert ref.how == "path" and not a.requests("/v1/audio/voices"), "no upload pinned to one worker"


def test_the_http_pool_is_sized_after_a_router_reports_its_workers(doubles, settings, tmp_path):
    """A router with 3 workers raises the in-flight ceiling to 3 x 96; every client must hold that many
    connections, or requests would queue inside httpx and the controller would read it as latency."""
    router = doubles("router", SGO_DOUBLE_SPEECH="tone", SGO_DOUBLE_ROUTER_WORKERS="3")
    plain = doubles("plain", SGO_DOUBLE_SPEECH="tone")
    be = backend([router.url, plain.url], settings, concurrency=None)
    try:
        assert servers_of(be).workers == 4 and be.concurrency == 4 * 96
        assert [m.endpoint.max_connections for m in servers_of(be).members] == [4 * 96 + 4] * 2
        limits = servers_of(be).members[0].endpoint._client._transport._pool._max_connections  # what httpx enforces
        assert limits == 4 * 96 + 4
    finally:
        be.stop()
    pinned = backend([router.url], settings, concurrency=12)
    try:
        assert pinned.concurrency == 12 and servers_of(pinned).members[0].endpoint.max_connections == 16
    finally:
        pinned.stop()


def test_a_router_that_joins_later_gets_a_client_sized_for_its_workers(doubles, settings, tmp_path):
    a = doubles("a", SGO_DOUBLE_SPEECH="tone")
    port = free_port()
    be = backend([a.url, f"http://127.0.0.1:{port}"], settings, concurrency=None)
    try:
        assert be.concurrency == 2 * 96 and servers_of(be).members[1].endpoint.max_connections == 2 * 96 + 4
        doubles("router", port=port, SGO_DOUBLE_SPEECH="tone", SGO_DOUBLE_ROUTER_WORKERS="3")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not servers_of(be).stats()[1]["alive"]:
            be.synthesize(WORDS, 1, tmp_path / "probe.wav")
            time.sleep(0.2)
        assert servers_of(be).stats()[1]["alive"], "the router joined"
        assert be.concurrency == 4 * 96
        assert servers_of(be).members[1].endpoint.max_connections == 4 * 96 + 4
    finally:
        be.stop()


def be_spec():
    from app.backends.sglomni import catalog
    return catalog.get("moss_tts_local")


def test_a_remote_router_gets_a_small_clip_inline_without_any_upload(tmp_path):
    clip = make_clip(tmp_path / "narrator.wav")  # 48 KB: far below the router's 1 MiB routing limit
    router_health = {"status": "healthy", "total_workers": 4, "routable_workers": 4, "voice_routing": {}}
    with Endpoint("http://192.0.2.10:8000") as ep:  # never contacted: nothing to upload
        started = time.monotonic()
        ref = reference.prepare(ep, be_spec(), clip, _sha256(clip), "Hi.", health=router_health)
    assert ref.how == "inline" and ref.ref_audio.startswith("data:audio/wav;base64,")
    assert time.monotonic() - started < 1.0


@pytest.mark.slow
def test_cli_with_two_api_urls_makes_the_m4b_from_both(doubles, run_cli, tmp_path):
    from tests.media import read_chapters
    from tests.pipeline.helpers import CHAPTERS, FFMPEG, titles, write_txt_book
    a, b_ = doubles("a", SGO_DOUBLE_SPEECH="tone"), doubles("b", SGO_DOUBLE_SPEECH="tone")
    out = tmp_path / "voyage.m4b"
    result = run_cli(write_txt_book(tmp_path), "--backend", "sglomni", "--model", "moss_tts_local",
                     "--api-url", a.url, "--api-url", b_.url, "--output", out, "--chunk-size", "8", timeout=240)
    assert result.returncode == 0, result.stderr
    assert [t for t, _, _ in read_chapters(out)] == titles(CHAPTERS)
    assert a.speech() and b_.speech(), "both servers rendered chunks"
