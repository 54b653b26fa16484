"""Find the ffmpeg executable and run it, logging everything it says."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from app.core import paths, proc
from app.core.errors import ConfigError, OutputError

#: Flags every invocation gets: never read the terminal, no banner noise, overwrite temp outputs.
BASE_FLAGS = ("-nostdin", "-hide_banner", "-y")


def ffmpeg_exe(configured: str = "") -> str:
    """Return the configured ffmpeg if usable, else the one bundled by imageio-ffmpeg."""
    if configured:
        found = shutil.which(os.path.expanduser(configured))
        if found is None:
            raise ConfigError(
                f"The configured ffmpeg '{configured}' is not an executable file",
                hint="Fix 'ffmpeg' in the settings file or set it to \"\" to use the bundled one",
            )
        return found
    try:
        import imageio_ffmpeg

        return imageio_ffmpeg.get_ffmpeg_exe()
    except (ImportError, RuntimeError) as exc:
        raise ConfigError(
            f"No ffmpeg found ({exc})",
            hint="Run 'pip install imageio-ffmpeg' or set 'ffmpeg' in the settings file to a system ffmpeg",
        ) from None


def new_log_file(stem: str) -> Path:
    """Return a fresh log path under the logs folder for one ffmpeg run."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return paths.ensure(paths.logs_dir()) / f"ffmpeg-{stem}-{stamp}-{os.getpid()}.log"


def run_ffmpeg(args: list[str], *, log_file: Path | None = None, exe: str | None = None) -> bytes:
    """Run ffmpeg with `args`, raise OutputError naming the log on failure, return its output.

    `args` may start with the executable (callers that resolved a configured
    one pass it first); otherwise `exe` or the bundled ffmpeg is used. With
    `log_file` the whole output is always logged there; without it, only a
    failure is, to a fresh file under the logs folder.
    """
    argv = [str(a) for a in args]
    if not (argv and _is_executable(argv[0])):
        argv.insert(0, exe or ffmpeg_exe())
    argv[1:1] = BASE_FLAGS
    result = proc.run(argv, log_file=log_file)
    if result.returncode != 0:
        if log_file is None:
            log_file = new_log_file("failed")
            with open(log_file, "ab") as fh:
                fh.write(("$ " + " ".join(argv) + "\n").encode())
                fh.write(result.stdout or b"")
                fh.write(f"[exit code {result.returncode}]\n".encode())
        raise OutputError(
            f"ffmpeg failed (exit code {result.returncode}): {_last_line(result.stdout)}",
            log_path=log_file,
            hint="Check free disk space and that the output folder is writable",
        )
    return result.stdout or b""


def _is_executable(first: str) -> bool:
    return not first.startswith("-") and os.path.isfile(first) and os.access(first, os.X_OK)


def _last_line(output: bytes | None) -> str:
    lines = [ln.strip() for ln in (output or b"").decode("utf-8", "replace").splitlines() if ln.strip()]
    return lines[-1][:200] if lines else "no output"
