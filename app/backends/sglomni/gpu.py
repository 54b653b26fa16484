"""What the GPU can do, read from nvidia-smi, and which vendored config that selects."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from app.core import proc
from app.backends.sglomni.catalog import ModelSpec, config_path
from app.core.errors import ConfigError

_UNSET = object()


def _query(*fields: str) -> list[str] | None:
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return None
    try:
        done = proc.run([exe, f"--query-gpu={','.join(fields)}", "--format=csv,noheader"], timeout=15)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    lines = [line.strip() for line in done.stdout.decode(errors="replace").splitlines() if line.strip()]
    return lines or None


def nvidia_smi_ok() -> bool:
    """Return whether nvidia-smi runs and lists at least one GPU."""
    return _query("name") is not None


def compute_capability() -> float | None:
    """Return GPU 0's compute capability (e.g. 8.6), or None when nvidia-smi cannot tell."""
    lines = _query("compute_cap")
    if not lines:
        return None
    try:
        return float(lines[0])
    except ValueError:
        return None


def config_for(
    spec: ModelSpec, *, profile: str | None = None, compute_capability: float | None | object = _UNSET
) -> tuple[Path | None, str]:
    """Return the config to launch `spec` with (None: upstream's default) and its status label.

    A model with a capability floor (ZONOS2's FP8 kernels need 8.9) gets its
    fallback config below the floor, and also when the capability is unknown:
    the bf16 config runs on any GPU with enough memory, while the FP8 one dies
    at kernel compile time on an older card.
    """
    if compute_capability is _UNSET:
        compute_capability = globals()["compute_capability"]()
    if profile is not None:
        try:
            return config_path(spec.profiles[profile]), f"{spec.key} ({profile})"
        except KeyError:
            valid = ", ".join(sorted(spec.profiles)) or "none"
            raise ConfigError(
                f"Model '{spec.key}' has no profile '{profile}'. Valid profiles: {valid}"
            ) from None
    if spec.min_compute_capability is not None and spec.fallback_config_file is not None:
        cc = compute_capability
        if cc is None or cc < spec.min_compute_capability:  # type: ignore[operator]
            return config_path(spec.fallback_config_file), f"{spec.key} (bf16 fallback)"
    return config_path(spec.config_file), spec.key


def require_profile_tools(spec: ModelSpec, profile: str | None, *, extra_path: Path | None = None) -> None:
    """Refuse a profile whose server needs programs (ninja, nvcc) that PATH (or `extra_path`) lacks."""
    tools = spec.profile_tools.get(profile or "", ())
    search = os.pathsep.join(p for p in (str(extra_path) if extra_path else "", os.environ.get("PATH", "")) if p)
    missing = [tool for tool in tools if shutil.which(tool, path=search) is None]
    if missing:
        raise ConfigError(
            f"The {profile} profile of {spec.key} compiles CUDA-graph kernels and needs {' and '.join(tools)} "
            f"on PATH; missing: {', '.join(missing)}",
            hint="Install the CUDA toolkit (nvcc) and ninja, or start without --profile " + str(profile))
