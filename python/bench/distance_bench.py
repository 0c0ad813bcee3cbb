"""Distance between sharp polygons from Python: pebble.batch, a Python loop over pebble's single
calls, and shapely 1.8 (GEOS) on the same geometry.

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/distance_bench.py [--n 1000000]

Each pair is two random convex polygons of 3 to 8 corners (radius 0), placed by random transforms
so that most pairs are apart (shapely's distance is 0 for overlapping shapes, pebble's negative).
shapely gets its polygons already placed (building them is not timed); pebble gets the shapes and
an (N, 4) array of transforms per side. Prints a Markdown table of the best of --repeat runs.

Two geometries: N pairs drawn from --shapes distinct polygons (as a Python list of N Shapes, as a
batch.ShapeList with take(), as one shape pair), and N pairs of 2N distinct polygons (each pair its
own two polygons: a batch.ShapeList built once from (N, 8, 2) vertex arrays, building not timed),
each against shapely on its own geometry.
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


def random_rows(rng, n):
    """n random convex polygons of 3 to 8 corners as (n, 8, 2) vertices padded with zeros, and counts."""
    counts = rng.integers(3, 9, n)
    # corner j in the j-th of `count` equal sectors, so that no two corners weld
    angles = 2 * math.pi * (np.arange(8)[None, :] + rng.uniform(0.1, 0.9, (n, 8))) / counts[:, None]
    radii = rng.uniform(0.5, 1.0, (n, 8))
    v = np.stack([radii * np.cos(angles), radii * np.sin(angles)], axis=2).astype(np.float32)
    v[np.arange(8)[None, :] >= counts[:, None]] = 0
    return v, counts


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

    def placed_hull(h, x):
        c, s = float(x[2]), float(x[3])
        return Polygon(np.stack([c * h[:, 0] - s * h[:, 1] + x[0], s * h[:, 0] + c * h[:, 1] + x[1]], axis=1))

    def placed(i, side, x):
        return placed_hull(hulls[side[i]], x[i])

    m = min(n, args.loop_n)
    poly_a = [placed(i, ia, xa) for i in range(m)]
    poly_b = [placed(i, ib, xb) for i in range(m)]

    result = {}
    t_batch = best(lambda: result.setdefault("d", batch.distance(list_a, xa, list_b, xb)), args.repeat)
    d = batch.distance(list_a, xa, list_b, xb)["distance"]
    t_one_shape = best(lambda: batch.distance(shapes[0], xa, shapes[1], xb), args.repeat)
    held = batch.ShapeList(shapes)
    held_a, held_b = held.take(ia), held.take(ib)
    t_take = best(lambda: batch.distance(held_a, xa, held_b, xb), args.repeat)
    assert batch.distance(held_a, xa, held_b, xb).tobytes() == result["d"].tobytes()

    # N pairs of 2N distinct polygons, held in C++.
    va, ka = random_rows(rng, n)
    vb, kb = random_rows(rng, n)
    distinct_a, distinct_b = batch.ShapeList(va, ka), batch.ShapeList(vb, kb)
    t_distinct = best(lambda: batch.distance(distinct_a, xa, distinct_b, xb), args.repeat)
    dd = batch.distance(distinct_a, xa, distinct_b, xb)["distance"]
    dpoly_a = [placed_hull(np.array([tuple(v) for v in distinct_a[i].vertices()]), xa[i]) for i in range(m)]
    dpoly_b = [placed_hull(np.array([tuple(v) for v in distinct_b[i].vertices()]), xb[i]) for i in range(m)]

    def loop_shapely_distinct():
        for i in range(m):
            dpoly_a[i].distance(dpoly_b[i])

    t_shapely_distinct = best(loop_shapely_distinct, args.repeat) * n / m

    tfs_a = [pebble.Transform(pebble.Vec2(float(x[0]), float(x[1])), pebble.Rot(float(x[2]), float(x[3]))) for x in xa[:m]]
    tfs_b = [pebble.Transform(pebble.Vec2(float(x[0]), float(x[1])), pebble.Rot(float(x[2]), float(x[3]))) for x in xb[:m]]

    def loop():
        dist = pebble.distance
        for i in range(m):
            dist(list_a[i], tfs_a[i], list_b[i], tfs_b[i])

    def loop_shapely():
        for i in range(m):
            poly_a[i].distance(poly_b[i])

    def loop_rows():
        dist, sa, sb = pebble.distance, list_a, list_b
        for i in range(m):
            dist(sa[i], xa[i], sb[i], xb[i])

    t_loop = best(loop, args.repeat) * n / m
    t_loop_rows = best(loop_rows, args.repeat) * n / m
    t_shapely = best(loop_shapely, args.repeat) * n / m
    # Sanity: the same geometry gives the same distances where the polygons are apart.
    sd = np.array([poly_a[i].distance(poly_b[i]) for i in range(min(m, 20000))])
    apart = d[: len(sd)] > 1e-3
    err = np.max(np.abs(sd[apart] - d[: len(sd)][apart]) / np.maximum(1, sd[apart]))
    sdd = np.array([dpoly_a[i].distance(dpoly_b[i]) for i in range(min(m, 20000))])
    apart_d = dd[: len(sdd)] > 1e-3
    err = max(err, np.max(np.abs(sdd[apart_d] - dd[: len(sdd)][apart_d]) / np.maximum(1, sdd[apart_d])))

    print(f"N = {n} pairs of sharp polygons (3-8 corners; {args.shapes} distinct, or 2N distinct), {np.mean(d > 0) * 100:.0f}% apart; "
          f"python {platform.python_version()}, numpy {np.__version__}, shapely {shapely.__version__}, "
          f"simd path {pebble.simd_path()}; loops timed on {m} items and scaled; best of {args.repeat}")
    print(f"largest relative difference to shapely where apart: {err:.2e}")
    print()
    print("| method | time for N | ns per query | vs shapely |")
    print("|---|---:|---:|---:|")
    rows = [(f"pebble.batch.distance, a list of N Shapes ({args.shapes} distinct)", t_batch, t_shapely),
            (f"pebble.batch.distance, ShapeList.take ({args.shapes} distinct)", t_take, t_shapely),
            ("pebble.batch.distance, one shape pair, N transforms", t_one_shape, t_shapely),
            ("Python loop over pebble.distance, Transform objects", t_loop, t_shapely),
            ("Python loop over pebble.distance, numpy rows as transforms", t_loop_rows, t_shapely),
            (f"Python loop over shapely 1.8 .distance (GEOS), {args.shapes} distinct", t_shapely, t_shapely),
            ("pebble.batch.distance, ShapeList of N distinct pairs", t_distinct, t_shapely_distinct),
            ("Python loop over shapely 1.8 .distance (GEOS), N distinct pairs", t_shapely_distinct, t_shapely_distinct)]
    for name, t, ref in rows:
        print(f"| {name} | {t:.3f} s | {t / n * 1e9:.0f} | {ref / t:.1f}x |")


if __name__ == "__main__":
    main()
