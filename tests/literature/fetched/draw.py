"""Draw the fetched development corpus (issue 32) by a stated rule, and write its manifest.

Not a test: run once by hand (`python tests/literature/fetched/draw.py REPO_LIST SE_NAMES MIRRORS`).

Rule, fixed before any book was opened:
- Gutenberg: `random.Random(32).sample(rows, 400)` over every row of GITenberg's repository list
  (`gitenberg/data/GITenberg_repo_list.tsv` of gitenberg-dev/gitberg at commit 39c2914); walk that order
  and keep each repository whose `metadata.yaml` says `language: en` and which holds both a plain-text
  edition (`N.txt`, `N-0.txt` or `N-8.txt`) and an HTML edition (`N-h/N-h.htm[l]`).
- Standard Ebooks: the book names of the repositories the code index lists as holding
  `src/epub/toc.xhtml` (its first 100 rows, forks included; names deduplicated and sorted), then
  `random.Random(32).sample(names, 45)`; keep each one `standardebooks/<name>` could be fetched for.
- Split: within each source, in draw order, the 1st, 3rd, 5th... kept book is development and the 2nd,
  4th, 6th... held out. The held-out half is only ever scored.
"""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=60).stdout


def _mirror(mirrors: Path, owner: str, name: str) -> Path | None:
    repo = mirrors / f"{owner}+{name}" / "repo"
    if (repo / ".git").is_dir():
        return repo / ".git"
    return repo if repo.is_dir() else None


def gutenberg_rows(repo_list: Path, mirrors: Path):
    rows = [line.rstrip("\n").split("\t") for line in repo_list.open(encoding="utf-8") if line.strip()]
    for number, name in random.Random(32).sample(rows, 400):
        repo = _mirror(mirrors, "GITenberg", name)
        if repo is None:
            continue
        files = _git(repo, "ls-tree", "-r", "--name-only", "HEAD").split("\n")
        meta = _git(repo, "show", "HEAD:metadata.yaml")
        lang = re.search(r"^language:\s*(\S+)", meta, re.M)
        txt = sorted(f for f in files if re.fullmatch(rf"{number}(-[08])?\.txt", f))
        htm = [f for f in files if re.fullmatch(rf"{number}-h/{number}-h\.html?", f)]
        if not (lang and lang.group(1) == "en" and txt and htm):
            continue
        # Prefer the UTF-8 edition (-0), then the plain one, then Latin-1 (-8).
        txt.sort(key=lambda f: (not f.endswith("-0.txt"), f.endswith("-8.txt")))
        yield ("gutenberg", number, f"GITenberg/{name}", _git(repo, "rev-parse", "HEAD").strip(), txt[0], htm[0])


def se_rows(names_file: Path, mirrors: Path):
    names = sorted({n.strip() for n in names_file.open(encoding="utf-8") if n.strip()})
    for name in random.Random(32).sample(names, 45):
        repo = _mirror(mirrors, "standardebooks", name)
        if repo is None or not _git(repo, "ls-tree", "HEAD", "src/epub/toc.xhtml").strip():
            continue
        yield ("standard-ebooks", name, f"standardebooks/{name}", _git(repo, "rev-parse", "HEAD").strip(),
               "src", "src/epub/toc.xhtml")


def main() -> None:
    repo_list, se_names, mirrors = (Path(a) for a in sys.argv[1:4])
    out = Path(__file__).with_name("manifest.tsv")
    lines = ["# split\tsource\tkey\trepo\tcommit\ttext\thtml_or_toc"]
    for rows in (gutenberg_rows(repo_list, mirrors), se_rows(se_names, mirrors)):
        for rank, row in enumerate(rows):
            lines.append("\t".join(("dev" if rank % 2 == 0 else "held", *row)))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines) - 1} books -> {out}")


if __name__ == "__main__":
    main()
