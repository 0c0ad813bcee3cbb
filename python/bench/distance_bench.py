"""Distance between sharp polygons from Python: pebble.batch, a Python loop over pebble's single
calls, and shapely 1.8 (GEOS) on the same geometry.

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/distance_bench.py [--n 1000000]

Each pair is two random convex polygons of 3 to 8 corners (radius 0), placed by random transforms
so that most pairs are apart (shapely's distance is 0 for overlapping shapes, pebble's negative).
shapely gets its polygons already placed (building them is not timed); pebble gets the shapes and
an (N, 4) array of transforms per side. Prints a Markdown table of the best of --repeat runs.
"""
import argparse
import math
import platform
import time

import numpy as np
import shapely
from shapely.geometry import Polygon

import pebble
from pebble import batch


def random_polygon(rng):
    n = int(rng.integers(3, 9))
    angles = np.sort(rng.uniform(0, 2 * math.pi, n))
    radii = rng.uniform(0.5, 1.0, n)
    return np.stack([radii * np.cos(angles), radii * np.sin(angles)], axis=1).astype(np.float32)


def best(f, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--shapes", type=int, default=64, help="distinct polygons drawn from")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--loop-n", type=int, default=200_000, help="items timed for the Python loops (then scaled)")
    args = parser.parse_args()
    rng = np.random.default_rng(23)
    cores = [random_polygon(rng) for _ in range(args.shapes)]
    shapes = [pebble.Shape.polygon(c) for c in cores]
    # The hull pebble keeps, so that shapely gets the very same polygon.
    hulls = [np.array([tuple(v) for v in s.vertices()], np.float64) for s in shapes]
    n = args.n
    ia = rng.integers(0, args.shapes, n)
    ib = rng.integers(0, args.shapes, n)
    xa = batch.transforms(rng.uniform(-20, 20, (n, 2)).astype(np.float32), rng.uniform(-3, 3, n).astype(np.float32))
    xb = batch.transforms(rng.uniform(-20, 20, (n, 2)).astype(np.float32), rng.uniform(-3, 3, n).astype(np.float32))
    list_a = [shapes[i] for i in ia]
    list_b = [shapes[i] for i in ib]

    def placed(i, side, x):
        c, s = float(x[i, 2]), float(x[i, 3])
        h = hulls[side[i]]
        return Polygon(np.stack([c * h[:, 0] - s * h[:, 1] + x[i, 0], s * h[:, 0] + c * h[:, 1] + x[i, 1]], axis=1))

    m = min(n, args.loop_n)
    poly_a = [placed(i, ia, xa) for i in range(m)]
    poly_b = [placed(i, ib, xb) for i in range(m)]

    result = {}
    t_batch = best(lambda: result.setdefault("d", batch.distance(list_a, xa, list_b, xb)), args.repeat)
    d = batch.distance(list_a, xa, list_b, xb)["distance"]
    t_one_shape = best(lambda: batch.distance(shapes[0], xa, shapes[1], xb), args.repeat)

    tfs_a = [pebble.Transform(pebble.Vec2(float(x[0]), float(x[1])), pebble.Rot(float(x[2]), float(x[3]))) for x in xa[:m]]
    tfs_b = [pebble.Transform(pebble.Vec2(float(x[0]), float(x[1])), pebble.Rot(float(x[2]), float(x[3]))) for x in xb[:m]]

    def loop():
        dist = pebble.distance
        for i in range(m):
            dist(list_a[i], tfs_a[i], list_b[i], tfs_b[i])

    def loop_shapely():
        for i in range(m):
            poly_a[i].distance(poly_b[i])

    t_loop = best(loop, args.repeat) * n / m
    t_shapely = best(loop_shapely, args.repeat) * n / m
    # Sanity: the same geometry gives the same distances where the polygons are apart.
    sd = np.array([poly_a[i].distance(poly_b[i]) for i in range(min(m, 20000))])
    apart = d[: len(sd)] > 1e-3
    err = np.max(np.abs(sd[apart] - d[: len(sd)][apart]) / np.maximum(1, sd[apart]))

    print(f"N = {n} pairs of sharp polygons (3-8 corners), {np.mean(d > 0) * 100:.0f}% apart; "
          f"python {platform.python_version()}, numpy {np.__version__}, shapely {shapely.__version__}, "
          f"simd path {pebble.simd_path()}; loops timed on {m} items and scaled; best of {args.repeat}")
    print(f"largest relative difference to shapely where apart: {err:.2e}")
    print()
    print("| method | time for N | ns per query | vs shapely |")
    print("|---|---:|---:|---:|")
    for name, t in [("pebble.batch.distance, N shape pairs", t_batch), ("pebble.batch.distance, one shape pair, N transforms", t_one_shape),
                    ("Python loop over pebble.distance", t_loop), ("Python loop over shapely 1.8 .distance (GEOS)", t_shapely)]:
        print(f"| {name} | {t:.3f} s | {t / n * 1e9:.0f} | {t_shapely / t:.1f}x |")


if __name__ == "__main__":
    main()
