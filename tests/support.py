"""Helpers shared by test folders: the fake managed venv and process checks."""
from __future__ import annotations

import sys
from pathlib import Path


def install_fake_sgl_omni(envs: Path, script: Path, *, prelude: str = "") -> Path:
    """Create envs/sglomni/bin/sgl-omni running `script` with this interpreter; return it.

    The app's real lifecycle code then launches `script` exactly as it would
    launch the real sgl-omni of the managed venv.
    """
    bin_dir = envs / "sglomni" / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    exe = bin_dir / "sgl-omni"
    exe.write_text(f"#!{sys.executable}\nimport os, runpy\n{prelude}"
                   f"runpy.run_path({str(script)!r}, run_name='__main__')\n")
    exe.chmod(0o755)
    python = bin_dir / "python"
    if not python.exists():
        python.symlink_to(sys.executable)
    return exe


def processes_running_from(folder: Path) -> list[int]:
    """Return live (non-zombie) pids whose command line mentions `folder`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            args = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if stat[stat.rindex(")") + 2] != "Z" and str(folder) in args:
            found.append(int(entry.name))
    return found


_UNPACKED = Path("/tmp/sgo/src")  # `pip download --no-deps sglang-omni==0.1.9` unpacked by hand


def conformance_venv() -> Path | None:
    """Return the built conformance venv (tests/conformance/env.sh), or None if not built."""
    import subprocess
    env_sh = Path(__file__).resolve().parent / "conformance" / "env.sh"
    done = subprocess.run(["bash", str(env_sh), "--check"], capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    return Path(lines[-1]) if done.returncode == 0 and lines else None


def sglang_omni_source() -> Path | None:
    """Return a folder holding the real sglang-omni 0.1.9 package `sglang_omni/`, or None.

    The conformance venv installs the pinned wheel, so its site-packages is the
    upstream source itself; scripts/test.sh builds it before the first tier runs.
    """
    if (_UNPACKED / "sglang_omni").is_dir():
        return _UNPACKED
    venv = conformance_venv()
    if venv is not None:
        for site in sorted(venv.glob("lib/python3*/site-packages")):
            if (site / "sglang_omni").is_dir():
                return site
    return None


def tone_speech_without_verification() -> None:
    """Save settings that turn verification off: the double's tone has no words to hear.

    Tests that exercise verification use the double's real Piper speech instead.
    """
    from app.core import settings

    conf = settings.load()
    conf.verify = "off"
    settings.save(conf)
