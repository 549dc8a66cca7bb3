"""Pillow as the reference in `npm run bench` (bench/images.mjs): times, in this process, what the JS side times.

  python3 bench/pillow-time.py decode ROUNDS FILE...          each file: Image.open(bytes) → load → convert("RGBA")
  python3 bench/pillow-time.py encode ROUNDS RAW:W:H...       each raw RGBA8 file: save as PNG (zlib level 6, Pillow's default)

Prints one JSON list: per input, the best (over ROUNDS) median milliseconds of ~0.2 s of repeats, and for encode the
PNG's size."""
import io
import json
import statistics
import sys
import time

from PIL import Image


def best_median(fn, rounds):
    best = float("inf")
    for _ in range(rounds):
        times = []
        start = time.perf_counter()
        while len(times) < 3 or time.perf_counter() - start < 0.2:
            t = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t) * 1000)
        best = min(best, statistics.median(times))
    return best


mode, rounds, args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
out = []
for arg in args:
    if mode == "decode":
        data = open(arg, "rb").read()
        out.append({"file": arg, "ms": best_median(lambda: Image.open(io.BytesIO(data)).convert("RGBA"), rounds)})
    else:
        path, w, h = arg.rsplit(":", 2)
        im = Image.frombytes("RGBA", (int(w), int(h)), open(path, "rb").read())
        size = []

        def save():
            buf = io.BytesIO()
            im.save(buf, "PNG")
            size.append(buf.tell())

        out.append({"file": path, "ms": best_median(save, rounds), "bytes": size[-1]})
json.dump(out, sys.stdout)
