"""gpu.py against fake nvidia-smi executables on a temp PATH."""
from __future__ import annotations

import os
import stat

import pytest

from app.backends.sglomni import catalog, gpu
from app.core.errors import ConfigError


def _fake_smi(tmp_path, monkeypatch, body: str):
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    exe = bindir / "nvidia-smi"
    exe.write_text("#!/bin/sh\n" + body + "\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}/usr/bin:/bin")


def test_capability_parsed_from_nvidia_smi(tmp_path, monkeypatch):
    _fake_smi(tmp_path, monkeypatch, 'case "$1" in *compute_cap*) echo 8.6; echo 8.9;; *) echo "NVIDIA A100";; esac')
    assert gpu.compute_capability() == 8.6
    assert gpu.nvidia_smi_ok() is True


def test_absent_or_failing_nvidia_smi(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert gpu.compute_capability() is None and gpu.nvidia_smi_ok() is False
    _fake_smi(tmp_path, monkeypatch, "echo 'NVIDIA-SMI has failed' >&2; exit 9")
    assert gpu.compute_capability() is None and gpu.nvidia_smi_ok() is False


@pytest.mark.parametrize("cc, expect_fallback", [(8.6, True), (8.0, True), (None, True), (8.9, False), (9.0, False)])
def test_zonos2_falls_back_below_8_9(cc, expect_fallback):
    path, label = gpu.config_for(catalog.get("zonos2"), compute_capability=cc)
    if expect_fallback:
        assert path.name == "zonos2_bf16.yaml" and path.is_file()
        assert label == "zonos2 (bf16 fallback)"
    else:
        assert (path, label) == (None, "zonos2")


def test_zonos2_reads_the_real_probe(tmp_path, monkeypatch):
    _fake_smi(tmp_path, monkeypatch, "echo 7.5")
    assert gpu.config_for(catalog.get("zonos2"))[1] == "zonos2 (bf16 fallback)"


def test_profiles_and_plain_models():
    spec = catalog.get("moss_tts_local")
    assert gpu.config_for(spec, compute_capability=8.0)[0].name == "moss_tts_local.yaml"
    path, label = gpu.config_for(spec, profile="throughput", compute_capability=8.0)
    assert path.name == "moss_tts_local_throughput.yaml" and label == "moss_tts_local (throughput)"
    with pytest.raises(ConfigError, match="Valid profiles: throughput"):
        gpu.config_for(spec, profile="fast", compute_capability=8.0)


def _tools(folder, *names):
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        exe = folder / name
        exe.write_text("#!/bin/sh\nexit 0\n")
        exe.chmod(0o755)
    return folder


@pytest.mark.parametrize("present, missing", [((), "ninja, nvcc"), (("ninja",), "nvcc"), (("nvcc",), "ninja")])
def test_the_throughput_profile_needs_ninja_and_nvcc_on_path(tmp_path, monkeypatch, present, missing):
    """Guide trap 7: CUDA graphs past the stock batch sizes compile kernels at boot."""
    monkeypatch.setenv("PATH", str(_tools(tmp_path / "bin", *present)))
    spec = catalog.get("moss_tts_local")
    with pytest.raises(ConfigError) as err:
        gpu.require_profile_tools(spec, "throughput")
    assert err.value.message.endswith(f"missing: {missing}") and "--profile throughput" in err.value.hint
    gpu.require_profile_tools(spec, None)  # the stock config needs neither


def test_ninja_in_the_managed_venv_counts(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(_tools(tmp_path / "bin", "nvcc")))
    venv_bin = _tools(tmp_path / "venv-bin", "ninja")
    gpu.require_profile_tools(catalog.get("moss_tts_local"), "throughput", extra_path=venv_bin)


def test_the_seeds_server_defaults_are_pinned():
    """Port 8100, a 20-minute start timeout (cold boots compile kernels), loopback bind."""
    from app.backends.sglomni.server import ManagedServer
    from app.core.settings import SglomniSettings

    defaults = SglomniSettings()
    assert (defaults.port, defaults.start_timeout, defaults.host) == (8100, 1200.0, "127.0.0.1")
    managed = ManagedServer(catalog.get("moss_tts_local"), port=defaults.port)
    assert managed.start_timeout == 1200.0 and managed.base_url == "http://127.0.0.1:8100"
