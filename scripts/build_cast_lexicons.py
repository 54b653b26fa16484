"""Rebuild the cast's name lexicons (app/cast/data/given_names.tsv, diminutives.tsv) from their sources.

    python scripts/build_cast_lexicons.py            # downloads the two source packages with pip
    python scripts/build_cast_lexicons.py --from DIR # DIR holds names-0.3.0.tar.gz and nicknames-1.0.1-*.whl

Sources (no name is taken from a novel, PDNC's or any other):
- given names and their gender: the 1990 United States Census first-name frequency lists
  (dist.female.first, dist.male.first; public domain, US Census Bureau), as shipped in the PyPI package
  `names` 0.3.0 (MIT). A name is kept when at least MIN_SHARE percent of people of one sex have it; its
  gender is the sex that has it at least 4 times as often, else "?" (either).
- diminutives: the PyPI package `nicknames` 1.0.1 (Carlton Northern, Nick Crews; Apache-2.0), a
  hand-curated list of English names and nicknames. Every full name of a diminutive is kept ("Kitty":
  Catherine, Katherine, ...), limited to full names of the given-name list above.
"""
from __future__ import annotations

import argparse
import csv
import io
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections import defaultdict
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "app" / "cast" / "data"
MIN_SHARE = 0.002
PACKAGES = ("names==0.3.0", "nicknames==1.0.1")


def _census(tar: tarfile.TarFile, member: str) -> dict[str, float]:
    out = {}
    for line in tar.extractfile(member).read().decode("ascii").splitlines():
        parts = line.split()
        if len(parts) >= 2 and float(parts[1]) >= MIN_SHARE:
            out[parts[0].capitalize()] = float(parts[1])
    return out


def build(folder: Path) -> None:
    tar = tarfile.open(next(folder.glob("names-0.3.0.tar.gz")))
    female = _census(tar, "names-0.3.0/names/dist.female.first")
    male = _census(tar, "names-0.3.0/names/dist.male.first")
    genders = {}
    for name in sorted(set(female) | set(male)):
        f, m = female.get(name, 0.0), male.get(name, 0.0)
        genders[name] = "F" if f >= 4 * m else "M" if m >= 4 * f else "?"
    with zipfile.ZipFile(next(folder.glob("nicknames-1.0.1-*.whl"))) as whl:
        rows = list(csv.DictReader(io.StringIO(whl.read("nicknames/names.csv").decode("utf-8"))))
    fulls: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        if row["relationship"] != "has_nickname":
            continue
        full, short = row["name1"].capitalize(), row["name2"].capitalize()
        if full in genders and short != full:
            fulls[short].add(full)
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "given_names.tsv", "w", encoding="utf-8") as f:
        f.write("# Given names and the sex that mostly has them (F, M, ? for either).\n"
                "# Source: 1990 US Census first-name lists (public domain), from the PyPI package names 0.3.0.\n"
                "# Rebuilt by scripts/build_cast_lexicons.py; do not edit by hand.\n")
        for name, g in genders.items():
            f.write(f"{name}\t{g}\n")
    with open(OUT / "diminutives.tsv", "w", encoding="utf-8") as f:
        f.write("# Diminutive, then every full name it can shorten, tab-separated.\n"
                "# Source: the PyPI package nicknames 1.0.1 (Carlton Northern, Nick Crews; Apache-2.0).\n"
                "# Rebuilt by scripts/build_cast_lexicons.py; do not edit by hand.\n")
        for short in sorted(fulls):
            f.write(short + "\t" + "\t".join(sorted(fulls[short])) + "\n")
    print(f"{len(genders)} given names, {len(fulls)} diminutives -> {OUT}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="folder", type=Path, help="a folder with the two downloaded packages")
    args = parser.parse_args()
    if args.folder:
        build(args.folder)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", "names",
                        *PACKAGES, "-d", tmp], check=True)
        build(Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
