"""Draw further development books for the fetched corpus (issue 32) by draw.py's rule with another seed.

Not a test: run once by hand
(`python tests/literature/fetched/draw_seeded.py REPO_LIST MIRRORS SEED COUNT [SPLIT] >> manifest.tsv`; SPLIT
names the rows, "dev3" unless given).

Rule, fixed before any book was opened: `random.Random(SEED).sample(rows, 400)` over every row of
GITenberg's repository list, walked in order; a repository already in the manifest, in a sample no one
opened (`unseen*.tsv`: never development) or in an earlier development draw of its own (`dev*.tsv`), is skipped, and the
rest are kept by draw.py's test (`language: en`, a plain-text and an `N-h/N-h.htm[l]` edition) until
COUNT are kept. Every book so drawn is development: the held-out half stays the one draw.py made.
Repositories whose titles are plainly not English are not fetched, as in the first draw, so they have
no mirror and are passed over like any repository without one.
"""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

from draw import _git, _mirror

MANIFEST = Path(__file__).with_name("manifest.tsv")


def main() -> None:
    repo_list, mirrors = Path(sys.argv[1]), Path(sys.argv[2])
    seed, count = int(sys.argv[3]), int(sys.argv[4])
    split = sys.argv[5] if len(sys.argv) > 5 else "dev3"
    samples = [*sorted(MANIFEST.parent.glob("unseen*.tsv")), *sorted(MANIFEST.parent.glob("dev*.tsv"))]
    samples = [path for path in samples if path.name != f"{split}.tsv"]  # the draw being made is not skipped
    known = {line.split("\t")[2] for path in [MANIFEST, *samples]
             for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")}
    rows = [line.rstrip("\n").split("\t") for line in repo_list.open(encoding="utf-8") if line.strip()]
    kept = 0
    for number, name in random.Random(seed).sample(rows, 400):
        if kept >= count:
            break
        repo = _mirror(mirrors, "GITenberg", name)
        if number in known or repo is None:
            continue
        files = _git(repo, "ls-tree", "-r", "--name-only", "HEAD").split("\n")
        lang = re.search(r"^language:\s*(\S+)", _git(repo, "show", "HEAD:metadata.yaml"), re.M)
        txt = sorted(f for f in files if re.fullmatch(rf"{number}(-[08])?\.txt", f))
        htm = [f for f in files if re.fullmatch(rf"{number}-h/{number}-h\.html?", f)]
        # a snapshot may list its largest files without holding them: such a book cannot be read, so is passed over
        held = all(subprocess.run(["git", "--git-dir", str(repo), "cat-file", "-e", f"HEAD:{f}"]).returncode == 0
                   for f in (txt[:1] + htm[:1]))
        if not (lang and lang.group(1) == "en" and txt and htm and held):
            print(f"skipped {number} {name}", file=sys.stderr)
            continue
        txt.sort(key=lambda f: (not f.endswith("-0.txt"), f.endswith("-8.txt")))
        print("\t".join((split, "gutenberg", number, f"GITenberg/{name}",
                         _git(repo, "rev-parse", "HEAD").strip(), txt[0], htm[0])))
        kept += 1
    print(f"{kept} kept", file=sys.stderr)


if __name__ == "__main__":
    main()
