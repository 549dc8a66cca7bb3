"""The independent decoder for the image tests: Pillow reads each file named on the command line and prints one
JSON list, an entry per file: {format, mode, width, height, info, rgba (base64 of RGBA8, top row first), dropped}
or {error}. Installed by scripts/setup.sh (pip install pillow).

PNG files are first read the way libpng reads them by default (png_set_crc_action PNG_CRC_DEFAULT; PNG specification
13.2): a chunk whose CRC is wrong is an error when it is critical (first letter upper case) and is dropped when it is
ancillary. Pillow itself refuses any bad CRC, so it is handed the file without the dropped chunks; `dropped` lists
their types (an empty list for every other file)."""
import base64
import io
import json
import struct
import sys
import zlib

from PIL import Image


def libpng_chunks(data):
    """The PNG `data` as libpng reads it by default: (bytes without bad-CRC ancillary chunks, their types)."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return data, []
    out, dropped, at = [data[:8]], [], 8
    while at + 12 <= len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        chunk = data[at : at + 12 + length]
        (stored,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        if zlib.crc32(data[at + 4 : at + 8 + length]) != stored:
            if not kind[0] & 0x20:
                raise ValueError(f"CRC error in critical chunk {kind.decode('latin-1')}")
            dropped.append(kind.decode("latin-1"))
        else:
            out.append(chunk)
        at += 12 + length
        if kind == b"IEND":
            break
    out.append(data[at:])
    return b"".join(out), dropped

out = []
for path in sys.argv[1:]:
    try:
        with open(path, "rb") as f:
            data, dropped = libpng_chunks(f.read())
        with Image.open(io.BytesIO(data)) as im:
            entry = {
                "format": im.format,
                "mode": im.mode,
                "width": im.width,
                "height": im.height,
                # JSON-able facts only; byte strings (a palette's tRNS, ICC profiles) as their length.
                "info": {k: (len(v) if isinstance(v, bytes) else v) for k, v in im.info.items() if isinstance(v, (int, str, float, bool, bytes))},
                "dropped": dropped,
            }
            entry["rgba"] = base64.b64encode(im.convert("RGBA").tobytes()).decode("ascii")
        out.append(entry)
    except Exception as e:  # reported, not raised: the test decides what an error means
        out.append({"error": f"{type(e).__name__}: {e}"})
json.dump(out, sys.stdout)
