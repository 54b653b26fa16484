"""The one place that starts subprocesses.

argv lists only (never a shell), an environment built from overrides where
None deletes a variable, PYTHONPATH/VIRTUAL_ENV stripped so a managed venv
never sees the app's, every command logged, results checked explicitly.
Modelled on pipx's util.run_subprocess.
"""
from __future__ import annotations

import logging
import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

log = logging.getLogger(__name__)

#: Variables that would leak the app's own Python environment into a child.
_LEAKY_VARS = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "__PYVENV_LAUNCHER__")


def child_env(overrides: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """Return os.environ without leaky variables, with `overrides` applied (None deletes)."""
    env = {k: v for k, v in os.environ.items() if k not in _LEAKY_VARS}
    for key, value in (overrides or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def _argv(argv: Sequence[str | os.PathLike]) -> list[str]:
    return [os.fspath(a) for a in argv]


def run(
    argv: Sequence[str | os.PathLike],
    *,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | None = None,
    timeout: float | None = None,
    log_file: Path | None = None,
    input_bytes: bytes | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run `argv` to completion and return the result without raising on failure.

    stdout and stderr are captured together. With `log_file`, the command and
    its whole output are also written there (the caller names that file in its
    one-line error when the command failed).
    """
    args = _argv(argv)
    log.debug("run: %s", " ".join(args))
    result = subprocess.run(
        args,
        env=child_env(env),
        cwd=cwd,
        timeout=timeout,
        input=input_bytes,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        check=False,
    )
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        with open(log_file, "ab") as fh:
            fh.write(("$ " + " ".join(args) + "\n").encode())
            fh.write(result.stdout or b"")
            fh.write(f"[exit code {result.returncode}]\n".encode())
    return result


def spawn(
    argv: Sequence[str | os.PathLike],
    *,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | None = None,
    stdout: IO[bytes] | int | None = None,
    stderr: IO[bytes] | int | None = subprocess.STDOUT,
    stdin: IO[bytes] | int | None = subprocess.DEVNULL,
    new_session: bool = False,
) -> subprocess.Popen[bytes]:
    """Start `argv` and return the Popen without waiting.

    With `new_session` the child leads its own process group, so a stop can
    signal the whole group (a server and the stage processes it forks).
    """
    args = _argv(argv)
    log.debug("spawn: %s", " ".join(args))
    return subprocess.Popen(
        args,
        env=child_env(env),
        cwd=cwd,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        start_new_session=new_session,
    )


async def spawn_piped(
    argv: Sequence[str | os.PathLike],
    *,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | None = None,
    stderr: IO[bytes] | int = subprocess.PIPE,
) -> asyncio.subprocess.Process:
    """Start `argv` for an asyncio caller, with pipes on stdin and stdout, and stderr a pipe or `stderr`."""
    import asyncio  # only the web hub spawns this way; every other caller is spared asyncio's import

    args = _argv(argv)
    log.debug("spawn (asyncio): %s", " ".join(args))
    return await asyncio.create_subprocess_exec(
        *args,
        env=child_env(env),
        cwd=cwd,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=stderr,
    )
