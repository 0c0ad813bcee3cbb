"""Issue 34's Python rough edges: a batch length mismatch names both arguments, and NaN input
gives the single query's empty result but the batch form's ValueError (docs/python.md, Errors)."""
import math

import numpy as np
import pytest

import pebble
from pebble import Shape, Transform, batch


def xfs(n):
    out = np.zeros((n, 4), np.float32)
    out[:, 0] = np.arange(n)
    out[:, 2] = 1
    return out


def test_length_mismatch_names_both_arguments():
    circle = Shape.circle(0.5)
    with pytest.raises(ValueError, match=r"^xb: has 4 items where b has 3$"):
        batch.distance(circle, Transform(), [circle] * 3, xfs(4))
    with pytest.raises(ValueError, match=r"^xa: has 4 items where b has 3$"):  # the shapes are read first
        batch.distance(circle, xfs(4), [circle] * 3, Transform())
    with pytest.raises(ValueError, match=r"^velocity_b: has 2 items where xa has 5$"):
        batch.closest_approach(circle, xfs(5), (1, 0), circle, Transform((9, 0)), np.zeros((2, 2), np.float32), 1.0)
    with pytest.raises(ValueError, match=r"^angles: has 2 items where positions has 3$"):
        batch.transforms(np.zeros((3, 2), np.float32), np.zeros(2, np.float32))
    w = pebble.CollisionWorld()
    ids = [w.add(circle, Transform((i, 0))) for i in range(3)]
    with pytest.raises(ValueError, match=r"^transforms: has 2 items where ids has 3$"):
        w.set_transforms(ids, xfs(2))


def test_nan_single_query_gives_the_empty_result_and_batch_raises():
    box, ball = Shape.box(1, 1), Shape.circle(0.5)
    bad = Transform((math.nan, 0), 0.0)
    d = pebble.distance(box, Transform(), ball, bad)   # the C++ contract: no exception, a defined empty result
    assert d.distance == pebble.kHugeDistance and d.normal == pebble.Vec2(0, 0)
    assert pebble.collide(box, Transform(), ball, bad).count == 0
    assert not pebble.cast_ray(box, bad, pebble.Ray((-3, 0), (6, 0))).hit
    rows = xfs(3)
    rows[1, 0] = np.nan
    with pytest.raises(ValueError, match=r"^xb\[1, 0\] is nan"):
        batch.distance(box, Transform(), ball, rows)
    with pytest.raises(ValueError, match=r"^xb: is not finite"):
        batch.distance(box, Transform(), ball, bad)
    # Finite but absurd values pass the batch check and give the empty result, as one call does.
    rows[1, 0] = 1e30
    r = batch.distance(box, Transform(), ball, rows)
    assert r["distance"][1] == pebble.kHugeDistance and r["distance"][0] < pebble.kHugeDistance


def test_crowd_example_says_whether_agents_overlapped(tmp_path):
    from test_examples import run
    out = run("crowd.py", "--agents", "6", "--steps", "120", cwd=tmp_path)
    gap = float(out.split("least gap between two agents ")[1].split()[0])
    assert out.rstrip().endswith("(no two ever overlapped)" if gap >= 0 else "(two overlapped)"), out
    assert "negative:" not in out
