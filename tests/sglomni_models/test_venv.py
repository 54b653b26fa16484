"""venv.py with real `python -m venv`, real pip, hand-built wheels and fake interpreters."""
from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet

from app.core import paths, proc
from app.backends.sglomni import catalog, venv
from app.core.errors import ProvisionError

from .wheels import make_wheel, sglang_omni_wheel

OFFLINE = ("--no-index", "--find-links")


def test_python_range_comes_from_the_wheel_and_is_cached(tmp_path):
    house = tmp_path / "house"
    sglang_omni_wheel(house, requires_python=">=3.10,<3.99")
    got = venv.python_range(pip_args=(*OFFLINE, str(house)))
    assert got == SpecifierSet(">=3.10,<3.99")  # not the vendored constant
    cache = json.loads((paths.envs_dir() / "sglomni-metadata.json").read_text())
    assert cache == {"version": "0.1.9", "requires_python": ">=3.10,<3.99", "source": "wheel"}
    # Cached: an empty wheelhouse now would fail, yet the answer stays.
    assert venv.python_range(pip_args=(*OFFLINE, str(tmp_path / "empty"))) == got


def test_python_range_falls_back_when_unreachable(tmp_path):
    assert venv.python_range(pip_args=(*OFFLINE, str(tmp_path))) == SpecifierSet(venv.FALLBACK_REQUIRES_PYTHON)
    assert not (paths.envs_dir() / "sglomni-metadata.json").exists()


def _fake_python(bindir: Path, name: str, version: str) -> Path:
    bindir.mkdir(parents=True, exist_ok=True)
    exe = bindir / name
    exe.write_text(f"#!/bin/sh\necho {version}\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return exe


def test_find_interpreter_prefers_the_app_python(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    _fake_python(tmp_path / "bin", "python3.12", "3.12.4")
    app = _fake_python(tmp_path / "app", "python", "3.11.9")
    assert venv.find_interpreter(spec=SpecifierSet(">=3.11,<3.13"), app_python=app) == app


def test_find_interpreter_then_path_312_before_311(tmp_path, monkeypatch):
    bindir = tmp_path / "bin"
    monkeypatch.setenv("PATH", str(bindir))
    p311 = _fake_python(bindir, "python3.11", "3.11.2")
    p312 = _fake_python(bindir, "python3.12", "3.12.4")
    app = _fake_python(tmp_path / "app", "python", "3.13.1")
    spec = SpecifierSet(">=3.11,<3.13")
    assert venv.find_interpreter(spec=spec, app_python=app) == p312
    p312.unlink()
    assert venv.find_interpreter(spec=spec, app_python=app) == p311


def test_find_interpreter_falls_back_to_uv(tmp_path, monkeypatch):
    bindir = tmp_path / "bin"
    monkeypatch.setenv("PATH", str(bindir))
    _fake_python(bindir, "python3.12", "3.13.0")  # misnamed: its version is out of range
    app = _fake_python(tmp_path / "app", "python", "3.14.0")
    managed = _fake_python(tmp_path / "managed", "python3.12", "3.12.7")
    calls = tmp_path / "uv-calls"
    uv = bindir / "uv"
    uv.write_text(
        "#!/bin/sh\n"
        f'echo "$UV_PYTHON_INSTALL_DIR $*" >> {calls}\n'
        f'case "$2" in find) echo {managed};; esac\n'
    )
    uv.chmod(0o755)
    got = venv.find_interpreter(spec=SpecifierSet(">=3.11,<3.13"), app_python=app, log=lambda _: None)
    assert got == managed
    lines = calls.read_text().splitlines()
    pythons = paths.envs_dir() / "pythons"
    assert lines[0] == f"{pythons} python install 3.12"
    assert lines[1].startswith(f"{pythons} python find")


#: sglang 0.5.22's own pre-release pin, and a plain dependency that also has a pre-release out.
PINNED_PRE, PLAIN = "cuda-tile==1.6.0rc5", "pybase64>=1.4"


@pytest.fixture
def wheelhouse(tmp_path):
    house = tmp_path / "house"
    sglang_omni_wheel(house, requires=(PINNED_PRE, PLAIN))
    for name, version in (("sox", "1.5.0"), ("einops", "0.8.1"), ("qwen-tts", "0.1.1"),
                          ("cuda-tile", "1.6.0rc5"), ("pybase64", "1.4.0"), ("pybase64", "1.5.0rc1")):
        make_wheel(house, name, version, modules={f"{name.replace('-', '_')}_mod.py": ""})
    return house


def _installed_version(name: str) -> str:
    code = f"from importlib.metadata import version; print(version({name!r}))"
    return proc.run([venv.venv_python(), "-c", code]).stdout.decode().strip()


@pytest.mark.slow
def test_provision_creates_a_working_venv(wheelhouse):
    assert not venv.is_provisioned()
    logs = []
    py = venv.provision(pip_args=(*OFFLINE, str(wheelhouse)), python=Path(sys.executable), log=logs.append)
    assert py == venv.venv_python() and venv.is_provisioned()
    assert str(venv.venv_dir()).startswith(str(paths.envs_dir()))
    out = proc.run([venv.sgl_omni_exe()]).stdout.decode()
    assert "sgl-omni 0.1.9" in out
    assert any("sglang-omni==0.1.9" in line for line in logs)
    # A pre-release only where a pin names one: cuda-tile's rc, but pybase64's final release, not its rc.
    assert _installed_version("cuda-tile") == "1.6.0rc5" and _installed_version("pybase64") == "1.4.0"

    spec = catalog.get("qwen3_tts_0_6b_base")
    assert venv.missing_companions(spec) == [("sox", True), ("einops", True), ("qwen-tts==0.1.1", True)]
    installed = venv.install_companions(spec, pip_args=(*OFFLINE, str(wheelhouse)), log=lambda _: None)
    assert installed == ["sox", "einops", "qwen-tts==0.1.1"]
    assert venv.missing_companions(spec) == []
    assert venv.install_companions(spec, pip_args=(*OFFLINE, str(wheelhouse))) == []  # skips what is there


@pytest.mark.slow
def test_provision_failure_quotes_pips_decisive_line_and_says_what_to_do(tmp_path):
    house = tmp_path / "house"
    sglang_omni_wheel(house, requires=(PINNED_PRE,))  # the placeholder pin that is nowhere to be had
    with pytest.raises(ProvisionError) as err:
        venv.provision(pip_args=(*OFFLINE, str(house)), python=Path(sys.executable), log=lambda _: None)
    log_path = err.value.log_path
    assert log_path is not None and log_path.is_file() and log_path.parent == paths.logs_dir()
    line = err.value.one_line()
    assert "\n" not in line
    assert "pip says: No matching distribution found for cuda-tile==1.6.0rc5" in line
    assert "pip config list" in line and "backends sglomni setup" in line
    assert not venv.is_provisioned()


@pytest.mark.parametrize("log, decisive", [
    ("Collecting x\nERROR: Could not find a version that satisfies the requirement cuda-tile==1.6.0rc5 "
     "(from versions: none)\nERROR: No matching distribution found for cuda-tile==1.6.0rc5\n",
     "No matching distribution found for cuda-tile==1.6.0rc5"),
    ("  × python setup.py egg_info did not run successfully.\n  ╰─> RuntimeError: Didn't find wheel for "
     "cuda-tile 1.6.0rc5 at https://pypi.nvidia.com\nerror: metadata-generation-failed\n"
     "ERROR: Failed to build 'cuda-tile' when getting requirements to build wheel\n",
     "RuntimeError: Didn't find wheel for cuda-tile 1.6.0rc5 at https://pypi.nvidia.com"),
    ("ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device\n",
     "Could not install packages due to an OSError: [Errno 28] No space left on device"),
])
def test_decisive_pip_line(tmp_path, log, decisive):
    path = tmp_path / "pip.log"
    path.write_text(log + "[exit code 1]\n")
    assert venv.decisive_pip_line(path) == decisive
