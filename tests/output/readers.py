"""Independent readers of read-along outputs: EPUBCheck, ffprobe, plain XML and WebVTT parsing."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

SMIL = "{http://www.w3.org/ns/SMIL}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def epubcheck(path: Path) -> str:
    """Run Debian's EPUBCheck on `path` and return its report; fail the test on any error."""
    exe = shutil.which("epubcheck")
    assert exe, "epubcheck is not installed: run bash scripts/system-deps.sh"
    # Debian's /usr/bin/epubcheck is a link to the jar itself.
    argv = ["java", "-jar", os.path.realpath(exe), str(path)] if exe.endswith("epubcheck") and \
        os.path.realpath(exe).endswith(".jar") else [exe, str(path)]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    report = result.stdout + result.stderr
    assert result.returncode == 0 and re.search(r"\b0 fatals / 0 errors\b", report), report
    return report


def ffprobe_duration(path: Path) -> float:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(path)],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    return float(out.strip())


@dataclass(frozen=True)
class Clip:
    sentence_id: str
    text: str
    audio: str
    begin: float
    end: float


def overlay(epub: Path) -> tuple[list[list[str]], list[list[Clip]]]:
    """Return, per chapter in spine order, the sentence ids of its XHTML and the clips of its SMIL."""
    with zipfile.ZipFile(epub) as zf:
        opf_name = etree.fromstring(zf.read("META-INF/container.xml")).xpath(
            "//*[local-name()='rootfile']/@full-path")[0]
        opf = etree.fromstring(zf.read(opf_name))
        base = opf_name.rsplit("/", 1)[0] + "/"
        items = {i.get("id"): i for i in opf.xpath("//*[local-name()='item']")}
        texts, clips = [], []
        for ref in opf.xpath("//*[local-name()='itemref']/@idref"):
            item = items[ref]
            if not item.get("media-overlay"):
                continue
            doc = etree.fromstring(zf.read(base + item.get("href")))
            spans = {el.get("id"): "".join(el.itertext()) for el in doc.iter(f"{XHTML}span")}
            texts.append(list(spans))
            smil_href = items[item.get("media-overlay")].get("href")
            smil = etree.fromstring(zf.read(base + smil_href))
            folder = base + smil_href.rsplit("/", 1)[0] + "/"
            chapter = []
            for par in smil.iter(f"{SMIL}par"):
                frag = par.find(f"{SMIL}text").get("src").split("#")[1]
                audio = par.find(f"{SMIL}audio")
                chapter.append(Clip(frag, spans.get(frag, ""), os.path.normpath(folder + audio.get("src")),
                                    _seconds(audio.get("clipBegin")), _seconds(audio.get("clipEnd"))))
            clips.append(chapter)
    return texts, clips


def _seconds(value: str) -> float:
    assert value.endswith("s"), value
    return float(value[:-1])


@dataclass(frozen=True)
class Cue:
    id: str
    start: float
    end: float
    text: str


def read_vtt(path: Path) -> list[Cue]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("WEBVTT")
    cues = []
    for block in text.split("\n\n")[1:]:
        lines = block.strip().splitlines()
        m = re.match(r"(\d+):(\d\d):(\d\d\.\d{3}) --> (\d+):(\d\d):(\d\d\.\d{3})$", lines[1])
        assert m, block
        h1, m1, s1, h2, m2, s2 = m.groups()
        cues.append(Cue(lines[0], int(h1) * 3600 + int(m1) * 60 + float(s1),
                        int(h2) * 3600 + int(m2) * 60 + float(s2), " ".join(lines[2:])))
    return cues
