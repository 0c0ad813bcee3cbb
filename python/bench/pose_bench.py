"""The cost of poses and small values from Python: building a Transform or Vec2 from tuples, lists
and numpy rows, and passing them to a query, beside a distance() call with Transform objects.

    PYTHONPATH=build/release/python /usr/bin/python3 python/bench/pose_bench.py [--repeat 9]

Each line is the median over --repeat timeit runs of the time per call.
"""
import argparse
import timeit

import numpy as np

import pebble

SETUP = """
T, V, R, d = pebble.Transform, pebble.Vec2, pebble.Rot, pebble.distance
s = pebble.Shape.circle(1.0)
x = T()
v = V(1.0, 2.0)
r = R.from_angle(0.5)
rows = np.random.default_rng(1).uniform(-5, 5, (100, 2))
row = rows[3]
row4 = np.array([[1.0, 2.0, 1.0, 0.0]], np.float32)[0]
a32 = np.float32(0.5)
"""

CASES = [
    ("Transform((x, y), angle)", "T((1.0, 2.0), 0.5)"),
    ("Transform([x, y], angle)", "T([1.0, 2.0], 0.5)"),
    ("Transform(numpy row, numpy float32)", "T(row, a32)"),
    ("Transform(Vec2, Rot)", "T(v, r)"),
    ("Vec2(x, y)", "V(1.0, 2.0)"),
    ("distance(s, Transform, s, Transform)", "d(s, x, s, x)"),
    ("distance(s, ((x, y), angle), s, Transform)", "d(s, ((1.0, 2.0), 0.5), s, x)"),
    ("distance(s, numpy row [x, y, c, s], s, Transform)", "d(s, row4, s, x)"),
    ("project_point(s, Transform, (x, y))", "pebble.project_point(s, x, (1.0, 2.0))"),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--number", type=int, default=200_000)
    args = parser.parse_args()
    print(f"pebble {pebble.__version__}, numpy {np.__version__}; median of {args.repeat} runs of {args.number} calls")
    print()
    print("| call | ns per call |")
    print("|---|---:|")
    for name, stmt in CASES:
        runs = timeit.Timer(stmt, setup=SETUP, globals={"pebble": pebble, "np": np}).repeat(args.repeat, args.number)
        print(f"| `{name}` | {sorted(runs)[len(runs) // 2] / args.number * 1e9:.0f} |")


if __name__ == "__main__":
    main()
