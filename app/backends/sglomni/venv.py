"""The managed sglang-omni venv: a compatible interpreter, the pinned package, companions.

Modelled on jupyter_client's provisioning and pipx's util: every step is one
argv through app.core.proc, its whole output lands in a log file, and a failure is
one line naming that file.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from app.core import paths, proc
from app.backends.sglomni.catalog import ModelSpec
from app.core.errors import ProvisionError
from app.backends.sglomni import gpu

PACKAGE = "sglang-omni"
#: The verified release; its own metadata decides which Pythons can run it.
SGLOMNI_VERSION = "0.1.9"
#: Used only when the registry cannot be reached and nothing is cached: the
#: Requires-Python that sglang-omni 0.1.9's wheel declared when this was written.
FALLBACK_REQUIRES_PYTHON = ">=3.11,<3.13"
#: Installed as the last step, so a half-finished venv never counts as provisioned.
_MARKER = ".audiobook-provisioned"

Log = Callable[[str], None]


def venv_dir() -> Path:
    """Return the managed venv's folder (app/envs/sglomni)."""
    return paths.envs_dir() / "sglomni"


def venv_python() -> Path:
    """Return the managed venv's interpreter."""
    return venv_dir() / "bin" / "python"


def sgl_omni_exe() -> Path:
    """Return the managed venv's sgl-omni launcher."""
    return venv_dir() / "bin" / "sgl-omni"


def is_provisioned() -> bool:
    """Return whether the venv finished provisioning and has its launcher."""
    return (venv_dir() / _MARKER).is_file() and sgl_omni_exe().is_file() and venv_python().exists()


#: What to run when the managed venv is missing.
SETUP_COMMAND = "python audiobook.py backends sglomni setup"
#: The ways to narrate without a local GPU server.
NO_GPU_ALTERNATIVES = ("Use the embedded CPU voice (--backend piper), or an sgl-omni server on a GPU machine "
                       "with --api-url URL")


def no_gpu_error() -> ProvisionError:
    """Return the error for a machine where nvidia-smi does not answer, naming the alternatives."""
    return ProvisionError("SGLang-Omni serves TTS on NVIDIA GPUs only and nvidia-smi does not answer here",
                          hint=NO_GPU_ALTERNATIVES)


def require_usable() -> None:
    """Raise one line saying what to do when the managed venv is missing (no GPU is said first)."""
    if venv_python().exists() and sgl_omni_exe().is_file():
        return

    if not gpu.nvidia_smi_ok():
        raise no_gpu_error()
    raise ProvisionError(f"The sglomni backend is not set up: no managed venv at {venv_dir()}",
                         hint=f"Run: {SETUP_COMMAND}")


def _metadata_cache() -> Path:
    return paths.envs_dir() / "sglomni-metadata.json"


def _new_log(step: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return paths.ensure(paths.logs_dir()) / f"sglomni-{step}-{stamp}-{os.getpid()}.log"


def _requires_python_from_wheel(wheel: Path) -> str | None:
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        for line in zf.read(name).decode("utf-8", "replace").splitlines():
            if not line.strip():
                break  # headers end at the first blank line
            if line.lower().startswith("requires-python:"):
                return line.split(":", 1)[1].strip()
    return None


def python_range(*, pip_args: Sequence[str] = (), refresh: bool = False) -> SpecifierSet:
    """Return the Pythons sglang-omni==SGLOMNI_VERSION supports, from its own wheel metadata.

    The answer is cached in envs_dir()/sglomni-metadata.json; `pip_args` points
    pip elsewhere (e.g. --no-index --find-links DIR in tests).
    """
    cache = _metadata_cache()
    if not refresh and cache.is_file():
        try:
            data = json.loads(cache.read_text())
            if data.get("version") == SGLOMNI_VERSION and data.get("source") == "wheel":
                return SpecifierSet(data["requires_python"])
        except (ValueError, KeyError):
            pass
    with tempfile.TemporaryDirectory(prefix="sglomni-meta-") as tmp:
        done = proc.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "--dest", tmp, f"{PACKAGE}=={SGLOMNI_VERSION}", *pip_args],
            timeout=600,
        )
        wheels = sorted(Path(tmp).glob("*.whl"))
        requires = _requires_python_from_wheel(wheels[0]) if done.returncode == 0 and wheels else None
    if requires is None:
        # Registry unreachable (or no wheel): the vendored constant, said as such, never cached.
        return SpecifierSet(FALLBACK_REQUIRES_PYTHON)
    paths.ensure(cache.parent)
    tmp_file = cache.with_name(cache.name + ".tmp")
    try:
        tmp_file.write_text(json.dumps(
            {"version": SGLOMNI_VERSION, "requires_python": requires, "source": "wheel"}, indent=2))
        os.replace(tmp_file, cache)
    finally:
        tmp_file.unlink(missing_ok=True)
    return SpecifierSet(requires)


def _version_of(python: Path | str) -> Version | None:
    try:
        done = proc.run(
            [python, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"], timeout=30)
    except OSError:
        return None
    if done.returncode != 0:
        return None
    match = re.search(r"(\d+\.\d+\.\d+)", done.stdout.decode(errors="replace"))
    return Version(match.group(1)) if match else None


def _uv_binary(log: Log) -> Path:
    found = shutil.which("uv") or shutil.which("uv", path=str(Path(sys.executable).parent))
    if found:
        return Path(found)
    log("Installing uv into the app's venv to fetch a managed CPython ...")
    logfile = _new_log("uv")
    done = proc.run([sys.executable, "-m", "pip", "install", "uv"], log_file=logfile, timeout=600)
    found = shutil.which("uv", path=str(Path(sys.executable).parent))
    if done.returncode != 0 or not found:
        raise ProvisionError(
            "No compatible Python found and installing uv failed", log_path=logfile,
            hint="Install python3.12 (or 3.11) and try again",
        )
    return Path(found)


def _uv_python(spec: SpecifierSet, log: Log) -> Path:
    uv = _uv_binary(log)
    pythons = paths.ensure(paths.envs_dir() / "pythons")
    wanted = next((f"3.{m}" for m in (12, 11, 10) if spec.contains(f"3.{m}.0")), "3.12")
    env = {"UV_PYTHON_INSTALL_DIR": str(pythons)}
    logfile = _new_log("python")
    log(f"Fetching a managed CPython {wanted} into {pythons} (uv) ...")
    done = proc.run([uv, "python", "install", wanted], env=env, log_file=logfile, timeout=1800)
    found = proc.run([uv, "python", "find", "--managed-python", wanted], env=env, log_file=logfile, timeout=60) \
        if done.returncode == 0 else done
    path = found.stdout.decode(errors="replace").strip().splitlines()[-1:] if found.returncode == 0 else []
    if not path or not Path(path[0]).exists():
        raise ProvisionError(
            f"Could not provision a managed CPython {wanted} with uv", log_path=logfile,
            hint="Install python3.12 (or 3.11) and try again",
        )
    return Path(path[0])


def find_interpreter(
    *, spec: SpecifierSet | None = None, app_python: Path | None = None, log: Log = print
) -> Path:
    """Return an interpreter sglang-omni supports: the app's, python3.12/3.11 on PATH, else uv's CPython."""
    spec = spec if spec is not None else python_range()
    app_python = app_python or Path(sys.executable)
    version = _version_of(app_python)
    if version is not None and spec.contains(version):
        return app_python
    for minor in (12, 11, 10):
        if not spec.contains(f"3.{minor}.0"):
            continue
        found = shutil.which(f"python3.{minor}")
        if found:
            version = _version_of(found)
            if version is not None and spec.contains(version):
                return Path(found)
    return _uv_python(spec, log)


def provision(
    *, package_spec: str | None = None, pip_args: Sequence[str] = (), python: Path | None = None,
    log: Log = print,
) -> Path:
    """Create the managed venv and install the pinned sglang-omni into it; return its python."""
    package_spec = package_spec or f"{PACKAGE}=={SGLOMNI_VERSION}"
    logfile = _new_log("provision")
    target = venv_dir()
    interpreter = python or find_interpreter(log=log)
    log(f"Creating {target} with {interpreter} ...")
    if not venv_python().exists():
        paths.ensure(target.parent)
        done = proc.run([interpreter, "-m", "venv", target], log_file=logfile, timeout=600)
        if done.returncode != 0:
            shutil.rmtree(target, ignore_errors=True)
            raise ProvisionError(
                f"Creating the venv {target} failed", log_path=logfile,
                hint="On Debian/Ubuntu install python3-venv for that Python, then try again",
            )
    (target / _MARKER).unlink(missing_ok=True)
    log(f"Installing {package_spec} into {target}; full output: {logfile}")
    # No --pre: pip takes a pre-release only where a pin names one (sglang's cuda-tile==1.6.0rc5,
    # sglang-omni's flash-attn-4>=4.0.0b18), so nothing else in the stack becomes a pre-release.
    done = proc.run([venv_python(), "-m", "pip", "install", package_spec, *pip_args], log_file=logfile, timeout=7200)
    if done.returncode != 0 or not sgl_omni_exe().is_file():
        raise pip_failure(f"Installing {package_spec} into {target} failed", logfile)
    (target / _MARKER).write_text(package_spec + "\n")
    return venv_python()


#: pip's summary lines that say only "something failed", never what.
_GENERIC_PIP_ERRORS = ("subprocess-exited-with-error", "Failed building wheel", "Could not build wheels",
                       "metadata-generation-failed", "failed-wheel-build-for-install", "Failed to build")
_EXCEPTION_LINE = re.compile(r"^(?:[\w.]+(?:Error|Exception)|HTTP Error \d+)\b.*:")


def decisive_pip_line(logfile: Path) -> str:
    """Return the line of a pip log that says what failed: its last specific ERROR, else the exception."""
    try:
        lines = [line.strip().lstrip("╰─>│ ").strip() for line in
                 logfile.read_text(encoding="utf-8", errors="replace").splitlines()]
    except OSError:
        return ""
    lines = [line for line in lines if line]
    errors = [line for line in lines if line.startswith("ERROR:") and not any(g in line for g in _GENERIC_PIP_ERRORS)]
    if errors:
        return errors[-1][len("ERROR:"):].strip()
    raised = [line for line in lines if _EXCEPTION_LINE.match(line)]
    if raised:
        return raised[-1]
    return next((line for line in reversed(lines) if not line.startswith("[exit code")), "")


def pip_failure(what: str, logfile: Path) -> ProvisionError:
    """Return the one-line error for a failed pip run: what failed, pip's decisive line, what to do."""
    line = decisive_pip_line(logfile)
    if "No matching distribution" in line or "Could not find a version" in line:
        hint = ("pip cannot reach a source that has that package: check the network or proxy and pip's "
                "index settings (pip config list), then run: " + SETUP_COMMAND)
    elif "No space left" in line:
        hint = f"Free disk space under {venv_dir().parent}, then run: {SETUP_COMMAND}"
    else:
        hint = f"Fix what pip reports (full log: {logfile.name}), then run: {SETUP_COMMAND}"
    return ProvisionError(f"{what}: pip says: {line or 'no output'}" if line else what, log_path=logfile, hint=hint)


_INSTALLED_PROBE = (
    "import json, sys\n"
    "from importlib import metadata\n"
    "out = {}\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        out[name] = metadata.version(name)\n"
    "    except metadata.PackageNotFoundError:\n"
    "        out[name] = None\n"
    "print(json.dumps(out))\n"
)


def missing_companions(spec: ModelSpec) -> list[tuple[str, bool]]:
    """Return (requirement, no_deps) for each companion package the venv lacks or has at another version."""
    wanted = [(Requirement(pkg), recipe.no_deps) for recipe in spec.companion_packages for pkg in recipe.packages]
    if not wanted:
        return []
    require_usable()
    done = proc.run([venv_python(), "-c", _INSTALLED_PROBE, *[r.name for r, _ in wanted]], timeout=120)
    if done.returncode != 0:
        raise ProvisionError(
            f"Cannot inspect the managed venv {venv_dir()}",
            hint=f"Provision it again: {SETUP_COMMAND}",
        )
    have = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return [
        (str(req), no_deps) for req, no_deps in wanted
        if have.get(req.name) is None or not req.specifier.contains(have[req.name], prereleases=True)
    ]


def install_companions(spec: ModelSpec, *, pip_args: Sequence[str] = (), log: Log = print) -> list[str]:
    """Install the model's missing companion packages with the venv's pip; return what was installed."""
    missing = missing_companions(spec)
    if not missing:
        return []
    logfile = _new_log(f"companions-{spec.key}")
    installed: list[str] = []
    for no_deps in (True, False):
        batch = [req for req, nd in missing if nd is no_deps]
        if not batch:
            continue
        log(f"Installing companion packages for {spec.key}: {' '.join(batch)}")
        argv = [venv_python(), "-m", "pip", "install", *(["--no-deps"] if no_deps else []), *batch, *pip_args]
        done = proc.run(argv, log_file=logfile, timeout=3600)
        if done.returncode != 0:
            raise pip_failure(f"Installing {spec.key}'s companion packages ({' '.join(batch)}) failed", logfile)
        installed.extend(batch)
    return installed
