"""The independent decoder for the image tests: Pillow reads each file named on the command line and prints one
JSON list, an entry per file: {format, mode, width, height, info, rgba (base64 of RGBA8, top row first)} or {error}.
Installed by scripts/setup.sh (pip install pillow)."""
import base64
import json
import sys

from PIL import Image

out = []
for path in sys.argv[1:]:
    try:
        with Image.open(path) as im:
            entry = {
                "format": im.format,
                "mode": im.mode,
                "width": im.width,
                "height": im.height,
                # JSON-able facts only; byte strings (a palette's tRNS, ICC profiles) as their length.
                "info": {k: (len(v) if isinstance(v, bytes) else v) for k, v in im.info.items() if isinstance(v, (int, str, float, bool, bytes))},
            }
            entry["rgba"] = base64.b64encode(im.convert("RGBA").tobytes()).decode("ascii")
        out.append(entry)
    except Exception as e:  # reported, not raised: the test decides what an error means
        out.append({"error": f"{type(e).__name__}: {e}"})
json.dump(out, sys.stdout)
