"""What-if (diagnostic, not the product): the CLI with quality._peak read in 256 KB blocks (no float64 copy) when PATCH_PEAK=1."""
import os, sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
import numpy as np
from app.pipeline import quality
from app.audio import wav as wavinfo

def _peak(path, info):
    w = info.sample_width
    if info.format_tag == wavinfo.FORMAT_FLOAT or w != 2:
        return ORIG(path, info)
    peak = 0
    with open(path, "rb") as fh:
        fh.seek(info.data_offset)
        left = info.frames * info.frame_bytes
        while left > 0:
            raw = fh.read(min(left, 1 << 18))
            if not raw:
                break
            left -= len(raw)
            s = np.frombuffer(raw, dtype="<i2")
            peak = max(peak, int(s.max()), -int(s.min()))
    return peak / 32768.0

ORIG = quality._peak
if os.environ.get("PATCH_PEAK") == "1":
    quality._peak = _peak
from app.cli import main
sys.exit(main())
