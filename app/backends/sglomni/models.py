"""Install, remove and list catalog models: companion packages plus weights in the standard HF cache.

Weights are fetched by a child process (hf_fetch.py, huggingface_hub's download code run by
the app's interpreter through app.core.proc), which writes each blob to a `.incomplete` file and
renames it only when complete. A cancel ends that process group, so the transfer stops at
once; the cache stays valid and a re-run resumes the partial blob (HTTP Range).
"""
from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from pathlib import Path
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.core import paths, proc
from app.backends.sglomni import catalog, gpu, venv
from app.backends.sglomni.procgroup import StopTimeouts, stop_group
from app.backends.sglomni.catalog import ModelSpec
from app.core.errors import Cancelled, ProvisionError

Progress = Callable[[str], None]


@dataclass(frozen=True)
class ModelStatus:
    key: str
    label: str
    installed: bool
    #: Repos of the entry not (fully) in the cache.
    missing_repos: tuple[str, ...]
    #: System binaries absent from PATH, with their remediation.
    missing_system: tuple[str, ...]
    size_bytes: int


def hub_cache() -> Path:
    """Return the standard HF hub cache, read from the environment now (not at import)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "huggingface")
    return Path(home).expanduser() / "hub"


def _cache_info():
    from huggingface_hub import scan_cache_dir

    try:
        return scan_cache_dir(hub_cache())
    except Exception:  # CacheNotFound: nothing downloaded yet
        return None


def _complete_repos() -> dict[str, int]:
    """Return {repo_id: size} for model repos with a snapshot and no unfinished blob."""
    info = _cache_info()
    if info is None:
        return {}
    out: dict[str, int] = {}
    for repo in info.repos:
        if repo.repo_type != "model" or not repo.revisions:
            continue
        if any(repo.repo_path.glob("blobs/*.incomplete")):
            continue
        out[repo.repo_id] = repo.size_on_disk
    return out


def missing_system_packages(spec: ModelSpec) -> list[str]:
    """Return one remediation line per system binary the model needs and PATH lacks."""
    return [f"{p.binary} not found: {p.remediation}" for p in spec.system_packages if shutil.which(p.binary) is None]


def installed() -> set[str]:
    """Return the keys whose every repo is fully in the HF cache."""
    have = _complete_repos()
    return {key for key, spec in catalog.CATALOG.items() if all(r in have for r in spec.all_repos)}


def status() -> list[ModelStatus]:
    """Return the install state of every catalog entry."""
    have = _complete_repos()
    return [
        ModelStatus(
            key=spec.key, label=spec.label,
            installed=all(r in have for r in spec.all_repos),
            missing_repos=tuple(r for r in spec.all_repos if r not in have),
            missing_system=tuple(missing_system_packages(spec)),
            size_bytes=sum(have.get(r, 0) for r in spec.all_repos),
        )
        for spec in catalog.CATALOG.values()
    ]


#: A cancelled download's process group: SIGINT, SIGTERM, SIGKILL within a few seconds.
_CANCEL_STOP = StopTimeouts(graceful=2.0, terminate=2.0, kill=2.0)
#: Upper bound for one repo (10 GB at ~3 MB/s); a hung transfer ends as an error, not a wait forever.
DOWNLOAD_TIMEOUT = 4 * 3600.0


def download_argv(repo: str) -> list[str]:
    """Return the command that downloads `repo` into the standard cache (resuming partial files)."""
    return [sys.executable, "-m", "app.backends.sglomni.hf_fetch", repo, str(hub_cache())]


def _decisive_line(log_path: Path) -> str:
    """Return the last line of the download log that says what went wrong."""
    try:
        lines = [l.strip() for l in log_path.read_text(errors="replace").splitlines() if l.strip()]
    except OSError:
        return ""
    for line in reversed(lines):
        if "Error" in line or "error" in line or "denied" in line:
            return line
    return lines[-1] if lines else ""


def _download(repo: str, cancel_event: threading.Event | None) -> None:
    """Fetch `repo` in a child process; end its process group when `cancel_event` is set."""
    log_path = paths.ensure(paths.logs_dir()) / f"hf-download-{repo.replace('/', '--')}.log"
    # The token comes from huggingface_hub's own lookup in the child and is never logged here.
    # HF_ENDPOINT (a mirror) and the cache variables pass through from the environment.
    env = {"HF_HUB_DISABLE_PROGRESS_BARS": "1"}
    with open(log_path, "ab") as log_fh:
        child = proc.spawn(download_argv(repo), env=env, stdout=log_fh, new_session=True)
    deadline = time.monotonic() + DOWNLOAD_TIMEOUT
    try:
        while child.poll() is None:
            if cancel_event is not None and cancel_event.wait(0.1):
                raise Cancelled(f"Download of {repo} cancelled; run the install again to resume it")
            if cancel_event is None:
                time.sleep(0.1)
            if time.monotonic() > deadline:
                raise ProvisionError(f"Downloading {repo} took over {DOWNLOAD_TIMEOUT / 3600:g} h", log_path=log_path,
                                     hint="Check the network, then run the install again to resume")
    finally:
        if child.poll() is None:
            stop_group(child.pid, timeouts=_CANCEL_STOP, popen=child)
    if child.returncode != 0:
        raise ProvisionError(f"Downloading {repo} failed: {_decisive_line(log_path) or f'exit code {child.returncode}'}",
                             log_path=log_path,
                             hint="Check the network (and HF_TOKEN for gated repos), then run the install again "
                                  "to resume")


def install_label(spec: ModelSpec) -> str:
    """Return the model as the install output names it: the GPU's fallback config is tagged."""
    if spec.fallback_config_file is None:
        return spec.key
    return gpu.config_for(spec)[1]


def install(
    keys: Iterable[str], *, progress: Progress | None = None, cancel_event: threading.Event | None = None,
    companions: bool = True, pip_args: tuple[str, ...] = (),
) -> list[str]:
    """Install each model: companion packages (when the venv exists), then every repo into the HF cache."""
    say = progress or print
    specs = [catalog.get(k) for k in keys]
    done: list[str] = []
    for spec in specs:
        for line in missing_system_packages(spec):
            say(f"{spec.key}: {line} (the download continues; the server needs it to synthesize)")
        if companions and spec.companion_packages:
            if venv.is_provisioned():
                venv.install_companions(spec, pip_args=pip_args, log=say)
            else:
                # Weights need no venv; the companions install with `setup`'s venv at the first start.
                say(f"{spec.key}: no managed venv yet, so its companion packages wait: run "
                    f"{venv.SETUP_COMMAND} (the first server start installs them)")
        label = install_label(spec)
        for repo in spec.all_repos:
            say(f"{label}: downloading {repo} ...")
            _download(repo, cancel_event)
        done.append(spec.key)
    return done


def remove(keys: Iterable[str], *, stop_server: Callable[[str], object] | None = None,
           progress: Progress | None = None) -> list[str]:
    """Stop a managed server hosting each model, then delete its cached revisions; return removed repos."""
    say = progress or print
    specs = [catalog.get(k) for k in keys]
    for spec in specs:
        if stop_server is not None:
            stop_server(spec.key)
    # A repo shared with a model that stays (the MOSS audio tokenizer) is kept.
    keep = {r for k, s in catalog.CATALOG.items() if k not in {s2.key for s2 in specs} and k in installed()
            for r in s.all_repos}
    doomed = {r for s in specs for r in s.all_repos} - keep
    info = _cache_info()
    if info is None:
        return []
    hashes = [rev.commit_hash for repo in info.repos if repo.repo_id in doomed for rev in repo.revisions]
    removed = sorted(repo.repo_id for repo in info.repos if repo.repo_id in doomed)
    if hashes:
        strategy = info.delete_revisions(*hashes)
        say(f"Deleting {', '.join(removed)} ({strategy.expected_freed_size_str})")
        strategy.execute()
    return removed


def list_rows() -> list[str]:
    """Return the catalog as printable lines: key, picker row, install mark."""
    have = installed()
    width = max(len(k) for k in catalog.CATALOG)
    rows = catalog.picker_rows()
    return [f"{'*' if key in have else ' '} {key.ljust(width)}  {row}" for key, row in zip(catalog.CATALOG, rows)]


def status_rows() -> list[str]:
    """Return one printable line per model with its install state and what is missing."""
    out = []
    for st in status():
        state = f"installed ({st.size_bytes / 1e9:.1f} GB)" if st.installed else "not installed"
        extra = f"; missing: {', '.join(st.missing_repos)}" if not st.installed else ""
        system = f"; {'; '.join(st.missing_system)}" if st.missing_system else ""
        out.append(f"{st.key}: {state}{extra}{system}")
    return out
