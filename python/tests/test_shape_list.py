"""batch.ShapeList: many distinct shapes held in C++. Every batch form given a ShapeList must
answer, item by item, the single call on that item's shapes bit for bit; the rows must be the
shapes Shape.polygon makes; bad arrays must be refused naming the argument or the row."""
import math
import pickle
import struct

import numpy as np
import pytest

import pebble
from pebble import batch


def random_rows(rng, n, radius=True):
    """n rows of 1 to 8 points padded to 8 (zeros past the count), counts, radii."""
    counts = rng.integers(1, 9, n)
    angles = np.sort(rng.uniform(0, 2 * math.pi, (n, 8)), axis=1)
    r = rng.uniform(0.2, 1.0, (n, 8))
    v = np.stack([r * np.cos(angles), r * np.sin(angles)], axis=2) + rng.uniform(-0.5, 0.5, (n, 1, 2))
    v[np.arange(8)[None, :] >= counts[:, None]] = 0
    radii = rng.uniform(0, 0.3, n) * (rng.uniform(size=n) < 0.6) if radius else np.zeros(n)
    return v.astype(np.float32), counts, radii.astype(np.float32)


def xf_of(row):
    return pebble.Transform(pebble.Vec2(float(row[0]), float(row[1])), pebble.Rot(float(row[2]), float(row[3])))


def bits(x):
    return struct.pack("<f", x)


def dist_bits(d):
    return b"".join(bits(v) for v in (d.distance, d.normal.x, d.normal.y, d.point_a.x, d.point_a.y, d.point_b.x, d.point_b.y))


def test_rows_are_the_makers_shapes():
    rng = np.random.default_rng(1)
    v, k, r = random_rows(rng, 500)
    shapes = batch.ShapeList(v, k, r)
    assert len(shapes) == 500 and shapes.shape_count() == 500
    for i in range(500):
        assert shapes[i] == pebble.Shape.polygon(v[i, : k[i]], float(r[i]))
    assert shapes[-1] == shapes[499]
    assert batch.ShapeList(v[:, :3], radii=0.1)[7] == pebble.Shape.polygon(v[7, :3], 0.1)
    listed = [pebble.Shape.circle(0.5), pebble.Shape.box(1, 2)]
    assert [s for s in (batch.ShapeList(listed)[0], batch.ShapeList(listed)[1])] == listed


def test_batch_forms_equal_the_single_calls_bit_for_bit():
    rng = np.random.default_rng(34)
    n = 3000
    va, ka, ra = random_rows(rng, n)
    vb, kb, rb = random_rows(rng, n)
    a, b = batch.ShapeList(va, ka, ra), batch.ShapeList(vb, kb, rb)
    xa = batch.transforms(rng.uniform(-1.5, 1.5, (n, 2)).astype(np.float32), rng.uniform(-4, 4, n).astype(np.float32))
    xb = batch.transforms(rng.uniform(-1.5, 1.5, (n, 2)).astype(np.float32), rng.uniform(-4, 4, n).astype(np.float32))
    d = batch.distance(a, xa, b, xb)
    m = batch.collide(a, xa, b, xb, margin=0.05)
    o = batch.overlap(a, xa, b, xb)
    assert 0.1 < o.mean() < 0.9  # both answers are exercised
    # The same calls over Python lists of the same shapes.
    assert d.tobytes() == batch.distance([a[i] for i in range(n)], xa, [b[i] for i in range(n)], xb).tobytes()
    for i in range(n):
        sa, sb, ta, tb = a[i], b[i], xf_of(xa[i]), xf_of(xb[i])
        one = pebble.distance(sa, ta, sb, tb)
        got = d[i]
        assert dist_bits(one) == b"".join(bits(v) for v in (got["distance"], *got["normal"], *got["point_a"], *got["point_b"]))
        assert o[i] == pebble.overlap(sa, ta, sb, tb)
        mf = pebble.collide(sa, ta, sb, tb, 0.05)
        assert m["count"][i] == mf.count
        for j in range(mf.count):
            assert bits(m["points"]["separation"][i, j]) == bits(mf.points[j].separation)
            assert m["points"]["id"][i, j] == mf.points[j].id


def test_take_shares_the_shapes():
    rng = np.random.default_rng(7)
    v, k, r = random_rows(rng, 64)
    shapes = batch.ShapeList(v, k, r)
    n = 2000
    ia, ib = rng.integers(0, 64, n), rng.integers(0, 64, n)
    ta, tb = shapes.take(ia), shapes.take(ib)
    assert len(ta) == n and ta.shape_count() == 64
    assert ta.take(np.array([5, 0]))[0] == shapes[ia[5]]
    xa = batch.transforms(rng.uniform(-2, 2, (n, 2)).astype(np.float32), rng.uniform(-4, 4, n).astype(np.float32))
    got = batch.distance(ta, xa, tb, pebble.Transform())
    want = batch.distance([shapes[i] for i in ia], xa, [shapes[i] for i in ib], pebble.Transform())
    assert got.tobytes() == want.tobytes()
    with pytest.raises(IndexError, match="indices\\[1\\] is 64"):
        shapes.take(np.array([0, 64]))
    with pytest.raises(IndexError):
        shapes.take(np.array([-1]))
    with pytest.raises(TypeError):
        shapes.take(np.array([0.5]))


def test_pickles_bit_for_bit():
    rng = np.random.default_rng(3)
    v, k, r = random_rows(rng, 200)
    shapes = batch.ShapeList(v, k, r)
    for lst in (shapes, shapes.take(rng.integers(0, 200, 50))):
        back = pickle.loads(pickle.dumps(lst))
        assert len(back) == len(lst) and back.shape_count() == lst.shape_count()
        assert all(back[i] == lst[i] for i in range(len(lst)))


def test_bad_input_is_refused_by_name():
    v = np.zeros((3, 8, 2), np.float32)
    v[:, :3] = [[0, 0], [1, 0], [0, 1]]
    with pytest.raises(ValueError, match="counts\\[1\\] is 9"):
        batch.ShapeList(v, np.array([3, 9, 3]))
    with pytest.raises(ValueError, match="counts: expected 3 items"):
        batch.ShapeList(v, np.array([3, 3]))
    with pytest.raises(ValueError, match="radii: expected 3 items"):
        batch.ShapeList(v, np.array([3, 3, 3]), np.zeros(2))
    with pytest.raises(pebble.InvalidShape, match="ShapeList row 2: .*radius"):
        batch.ShapeList(v, np.array([3, 3, 3]), np.array([0, 0, -1.0]))
    bad = v.copy()
    bad[1, 1, 0] = np.nan
    with pytest.raises(pebble.InvalidShape, match="ShapeList row 1"):
        batch.ShapeList(bad, np.array([3, 3, 3]))
    with pytest.raises(ValueError, match="vertices"):
        batch.ShapeList(np.zeros((3, 9, 2)))
    with pytest.raises(ValueError, match="vertices"):
        batch.ShapeList(np.zeros((3, 2)))
    with pytest.raises(TypeError):
        batch.ShapeList(np.array([[["a", "b"]]]))
    with pytest.raises(TypeError, match="shapes\\[1\\]"):
        batch.ShapeList([pebble.Shape.circle(1), 3])
    shapes = batch.ShapeList(v, np.array([3, 3, 3]))
    with pytest.raises(ValueError, match="has 2 items where a has 3"):
        batch.distance(shapes, pebble.Transform(), shapes.take(np.array([0, 1])), pebble.Transform())
    with pytest.raises(IndexError):
        shapes[3]
