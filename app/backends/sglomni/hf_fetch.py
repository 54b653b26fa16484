"""Download one Hub repo into the standard cache, resuming partial files: run as a child process.

`python -m app.backends.sglomni.hf_fetch REPO CACHE_DIR` (models.py starts it through app.core.proc,
so a cancel ends the process and the transfer with it).

Why not plain `hf download`: huggingface_hub (1.x and 2.x) writes each file to a process-unique
temporary file (its PR #4228) and never resumes one, so a cancelled 5 GB shard would start over.
Here every file missing from the cache is fetched with huggingface_hub's own `http_get` into a
stable `blobs/<etag>.incomplete`, resumed with an HTTP Range from where the last run stopped, and
renamed to its blob when complete; then `snapshot_download` links the snapshot from the blobs
already present (the cache layout huggingface_hub documents: blobs named by the file's etag).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path


def repo_folder(cache_dir: Path, repo: str) -> Path:
    """Return the cache folder of model repo `repo` (models--ORG--NAME)."""
    return cache_dir / ("models--" + repo.replace("/", "--"))


def fetch(repo: str, cache_dir: Path) -> Path:
    """Put every file of `repo` into `cache_dir`, resuming partial blobs; return the snapshot folder."""
    from huggingface_hub import HfApi, get_hf_file_metadata, hf_hub_url, snapshot_download
    from huggingface_hub.file_download import http_get
    from huggingface_hub.utils import build_hf_headers

    info = HfApi().model_info(repo, revision="main")
    blobs = repo_folder(cache_dir, repo) / "blobs"
    blobs.mkdir(parents=True, exist_ok=True)
    for sibling in info.siblings or ():
        meta = get_hf_file_metadata(hf_hub_url(repo, sibling.rfilename, revision=info.sha))
        if not meta.etag:
            continue  # snapshot_download below fetches what has no etag to name a blob by
        blob = blobs / meta.etag
        if blob.exists():
            continue
        partial = blob.with_name(blob.name + ".incomplete")
        with open(partial, "ab") as fh:
            http_get(meta.location, fh, resume_size=fh.tell(), headers=build_hf_headers(),
                     expected_size=meta.size, displayed_filename=sibling.rfilename)
        os.replace(partial, blob)
    return Path(snapshot_download(repo_id=repo, revision=info.sha, cache_dir=cache_dir))


def main(argv: list[str]) -> int:
    repo, cache_dir = argv
    print(f"downloaded {repo} to {fetch(repo, Path(cache_dir))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
