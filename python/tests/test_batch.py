"""pebble.batch and the world's batch forms: item i equals the single call on item i (bit for
bit, hypothesis draws the inputs), and bad arrays raise TypeError or ValueError, never crash."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import pebble
from pebble import batch

SHAPES = [
    pebble.Shape.circle(0.5),
    pebble.Shape.capsule((-0.5, 0), (0.5, 0.1), 0.2),
    pebble.Shape.segment((-1, 0), (1, 0.3)),
    pebble.Shape.box(0.6, 0.4),
    pebble.Shape.rounded_box(0.7, 0.5, 0.1),
    pebble.Shape.polygon([(0, 0), (1, 0), (1.2, 0.8), (0.3, 1.1), (-0.4, 0.6)]),
    pebble.Shape.circle(0.3, (0.1, -0.2)),
    pebble.Shape.circle(0),
]
DISCS = [SHAPES[0], SHAPES[6], SHAPES[7]]

coord = st.floats(-4, 4, width=32)
angle = st.floats(-4, 4, width=32)


@st.composite
def transform_arrays(draw, n):
    pos = draw(hnp.arrays(np.float32, (n, 2), elements=coord))
    ang = draw(hnp.arrays(np.float32, (n,), elements=angle))
    return batch.transforms(pos, ang)


@st.composite
def cases(draw):
    n = draw(st.integers(0, 12))
    a = draw(st.one_of(st.sampled_from(SHAPES), st.lists(st.sampled_from(SHAPES), min_size=n, max_size=n)))
    b = draw(st.one_of(st.sampled_from(SHAPES), st.lists(st.sampled_from(SHAPES), min_size=n, max_size=n)))
    xa = draw(transform_arrays(n))
    xb = draw(transform_arrays(n))
    v = draw(hnp.arrays(np.float32, (n, 2), elements=coord))
    w = draw(hnp.arrays(np.float32, (n, 2), elements=coord))
    return n, a, b, xa, xb, v, w


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 40), st.data())
def test_disc_pairs_in_lanes_match_single_calls(n, data):
    # Disc pairs run in SIMD lanes (pebble::batch); a full group of 8 and a partial one.
    a = data.draw(st.lists(st.sampled_from(DISCS), min_size=n, max_size=n))
    b = data.draw(st.lists(st.sampled_from(DISCS), min_size=n, max_size=n))
    xa, xb = data.draw(transform_arrays(n)), data.draw(transform_arrays(n))
    v = data.draw(hnp.arrays(np.float32, (n, 2), elements=coord))
    w = data.draw(hnp.arrays(np.float32, (n, 2), elements=coord))
    c = batch.closest_approach(a, xa, v, b, xb, w, 0.75)
    t = batch.time_to_collision(a, xa, v, b, xb, w, 0.75)
    d = batch.distance(a, xa, b, xb)
    o = batch.overlap(a, xa, b, xb)
    for i in range(n):
        ap = pebble.closest_approach(a[i], tf(xa[i]), v2(v[i]), b[i], tf(xb[i]), v2(w[i]), 0.75)
        assert c[i]["hit"] == ap.hit and same_bits(c[i]["time"], ap.time) and same_bits(c[i]["distance"], ap.distance)
        check_vec(c[i]["point_a"], ap.point_a), check_vec(c[i]["point_b"], ap.point_b), check_vec(c[i]["normal"], ap.normal)
        assert same_bits(t[i], pebble.time_to_collision(a[i], tf(xa[i]), v2(v[i]), b[i], tf(xb[i]), v2(w[i]), 0.75))
        ds = pebble.distance(a[i], tf(xa[i]), b[i], tf(xb[i]))
        assert same_bits(d[i]["distance"], ds.distance)
        check_vec(d[i]["normal"], ds.normal), check_vec(d[i]["point_a"], ds.point_a), check_vec(d[i]["point_b"], ds.point_b)
        assert o[i] == pebble.overlap(a[i], tf(xa[i]), b[i], tf(xb[i]))


def item(x, i):
    return x if isinstance(x, pebble.Shape) else x[i]


def tf(row):
    return pebble.Transform(pebble.Vec2(float(row[0]), float(row[1])), pebble.Rot(float(row[2]), float(row[3])))


def v2(row):
    return pebble.Vec2(float(row[0]), float(row[1]))


def same_bits(x, y):
    return np.float32(x).tobytes() == np.float32(y).tobytes()


def check_vec(field, v):
    assert same_bits(field[0], v.x) and same_bits(field[1], v.y), (field, v)


@settings(max_examples=60, deadline=None)
@given(cases())
def test_collide_distance_overlap_match_single_calls(case):
    n, a, b, xa, xb, _, _ = case
    m = batch.collide(a, xa, b, xb, 0.05)
    d = batch.distance(a, xa, b, xb)
    o = batch.overlap(a, xa, b, xb)
    assert m.shape == d.shape == o.shape == (n,)
    for i in range(n):
        single = pebble.collide(item(a, i), tf(xa[i]), item(b, i), tf(xb[i]), 0.05)
        check_vec(m[i]["normal"], single.normal)
        assert m[i]["count"] == single.count
        for k, p in enumerate(single.points):
            check_vec(m[i]["points"][k]["point"], p.point)
            assert same_bits(m[i]["points"][k]["separation"], p.separation) and m[i]["points"][k]["id"] == p.id
        ds = pebble.distance(item(a, i), tf(xa[i]), item(b, i), tf(xb[i]))
        assert same_bits(d[i]["distance"], ds.distance)
        check_vec(d[i]["normal"], ds.normal), check_vec(d[i]["point_a"], ds.point_a), check_vec(d[i]["point_b"], ds.point_b)
        assert o[i] == pebble.overlap(item(a, i), tf(xa[i]), item(b, i), tf(xb[i]))


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from([None, 0.1]))
def test_casts_match_single_calls(case, radius):
    n, a, b, xa, xb, v, w = case
    rays = np.ascontiguousarray(np.concatenate([v, w * 2], axis=1))
    r = batch.cast_ray(a, xa, rays, radius)
    s = batch.cast_shape(a, xa, v, b, xb, w, radius)
    c = batch.closest_approach(a, xa, v, b, xb, w, 1.5)
    ttc = batch.time_to_collision(a, xa, v, b, xb, w, 1.5)
    assert ttc.dtype == np.float32 and ttc.shape == (n,)
    for i in range(n):
        ray = pebble.Ray(v2(rays[i, :2]), v2(rays[i, 2:]))
        single = pebble.cast_ray(item(a, i), tf(xa[i]), ray) if radius is None else pebble.cast_ray(item(a, i), tf(xa[i]), ray, radius)
        assert r[i]["hit"] == single.hit and same_bits(r[i]["fraction"], single.fraction)
        check_vec(r[i]["point"], single.point), check_vec(r[i]["normal"], single.normal)
        options = pebble.ShapeCastOptions(0.0 if radius is None else radius)
        sc = pebble.cast_shape(item(a, i), tf(xa[i]), v2(v[i]), item(b, i), tf(xb[i]), v2(w[i]), options)
        assert s[i]["hit"] == sc.hit and same_bits(s[i]["fraction"], sc.fraction)
        check_vec(s[i]["point"], sc.point), check_vec(s[i]["normal"], sc.normal)
        ap = pebble.closest_approach(item(a, i), tf(xa[i]), v2(v[i]), item(b, i), tf(xb[i]), v2(w[i]), 1.5)
        assert c[i]["hit"] == ap.hit and same_bits(c[i]["time"], ap.time) and same_bits(c[i]["distance"], ap.distance)
        check_vec(c[i]["point_a"], ap.point_a), check_vec(c[i]["point_b"], ap.point_b), check_vec(c[i]["normal"], ap.normal)
        t = pebble.time_to_collision(item(a, i), tf(xa[i]), v2(v[i]), item(b, i), tf(xb[i]), v2(w[i]), 1.5)
        assert same_bits(ttc[i], t)
        assert (t == ap.time) if ap.hit else (t == pebble.kNoCollision)


@settings(max_examples=40, deadline=None)
@given(cases(), st.floats(0.125, 1, width=32))
def test_time_of_impact_and_points_match_single_calls(case, t_max):
    n, a, b, xa, xb, v, w = case
    sweeps_a = np.ascontiguousarray(np.concatenate([np.zeros((n, 2), np.float32), xa[:, :2], xa[:, :2] + v,
                                                    np.zeros((n, 1), np.float32), np.ones((n, 1), np.float32)], axis=1))
    sweeps_b = np.ascontiguousarray(np.concatenate([np.zeros((n, 2), np.float32), xb[:, :2], xb[:, :2] + w,
                                                    np.ones((n, 1), np.float32), np.zeros((n, 1), np.float32)], axis=1))
    t = batch.time_of_impact(a, sweeps_a, b, sweeps_b, t_max)
    pp = batch.project_point(a, xa, v)
    cc = batch.contains(a, xa, v)
    for i in range(n):
        sa = pebble.Sweep(*[v2(sweeps_a[i, k:k + 2]) for k in (0, 2, 4)], float(sweeps_a[i, 6]), float(sweeps_a[i, 7]))
        sb = pebble.Sweep(*[v2(sweeps_b[i, k:k + 2]) for k in (0, 2, 4)], float(sweeps_b[i, 6]), float(sweeps_b[i, 7]))
        single = pebble.time_of_impact(item(a, i), sa, item(b, i), sb, t_max)
        assert t[i]["state"] == int(single.state) and same_bits(t[i]["fraction"], single.fraction)
        check_vec(t[i]["point"], single.point), check_vec(t[i]["normal"], single.normal)
        p = pebble.project_point(item(a, i), tf(xa[i]), v2(v[i]))
        check_vec(pp[i]["point"], p.point), check_vec(pp[i]["normal"], p.normal)
        assert same_bits(pp[i]["distance"], p.distance) and pp[i]["inside"] == p.inside
        assert cc[i] == pebble.contains(item(a, i), tf(xa[i]), v2(v[i]))


def test_float64_is_rounded_like_python_floats():
    x64 = np.array([[0.1, 0.2, 1.0, 0.0], [1 / 3, -0.7, 0.0, 1.0]])
    d64 = batch.distance(SHAPES[3], x64, SHAPES[0], pebble.Transform((1.1, 0.3)))
    for i in range(2):
        single = pebble.distance(SHAPES[3], pebble.Transform(tuple(x64[i, :2]), pebble.Rot(*x64[i, 2:])), SHAPES[0],
                                 pebble.Transform((1.1, 0.3)))
        assert same_bits(d64[i]["distance"], single.distance)
    assert np.array_equal(d64, batch.distance(SHAPES[3], x64.astype(np.float32), SHAPES[0], pebble.Transform((1.1, 0.3))))


def test_transforms_helper_matches_rot_from_angle():
    pos = np.array([[1, 2], [3, 4]], np.float32)
    ang = np.array([0.3, -2.0], np.float32)
    xf = batch.transforms(pos, ang)
    assert xf.dtype == np.float32 and xf.shape == (2, 4)
    for i in range(2):
        q = pebble.Rot.from_angle(float(ang[i]))
        assert same_bits(xf[i, 2], q.c) and same_bits(xf[i, 3], q.s)


def test_world_batch_forms_match_single_calls():
    world = pebble.CollisionWorld()
    ids = [world.add(SHAPES[i % len(SHAPES)], pebble.Transform((0.8 * i, 0.1 * i))) for i in range(12)]
    xf = batch.transforms(np.stack([np.arange(12) * 0.7, np.sin(np.arange(12))], axis=1).astype(np.float32),
                          np.linspace(0, 3, 12).astype(np.float32))
    ok = world.set_transforms(pebble.id_array(ids), xf)
    assert ok.all()
    for i, id in enumerate(ids):
        assert world.transform(id) == pebble.Transform(pebble.Vec2(float(xf[i, 0]), float(xf[i, 1])),
                                                        pebble.Rot(float(xf[i, 2]), float(xf[i, 3])))
    world.update()
    pairs = world.contacts()
    arr = world.contacts_array()
    assert len(pairs) == len(arr) > 0
    for pair, rec in zip(pairs, arr):
        assert (rec["a"]["index"], rec["a"]["generation"], rec["a"]["world"]) == (pair.a.index, pair.a.generation, pair.a.world)
        assert (rec["b"]["index"], rec["b"]["generation"]) == (pair.b.index, pair.b.generation)
        assert rec["manifold"]["count"] == pair.manifold.count and rec["part_a"] == pair.part_a
        for k, p in enumerate(pair.manifold.points):
            check_vec(rec["manifold"]["points"][k]["point"], p.point)
            assert same_bits(rec["manifold"]["points"][k]["separation"], p.separation)
    rays = np.array([[-2, y, 12, 0] for y in np.linspace(-1, 2, 9)], np.float32)
    hits = world.cast_rays(rays)
    for i in range(len(rays)):
        single = world.cast_ray(pebble.Ray(v2(rays[i, :2]), v2(rays[i, 2:])))
        assert hits[i]["hit"]["hit"] == (single is not None)
        if single is not None:
            assert hits[i]["id"]["index"] == single.id.index and same_bits(hits[i]["hit"]["fraction"], single.hit.fraction)
    # A stale id is refused (False), the others still move.
    world.remove(ids[0])
    ok = world.set_transforms(ids[:2], pebble.Transform((5, 5)))
    assert list(ok) == [False, True]


# --- Hostile inputs: a clear TypeError or ValueError, never a crash.

GOOD = np.zeros((3, 4), np.float32)
GOOD[:, 2] = 1


@pytest.mark.parametrize("bad, error, text", [
    (np.zeros((3, 4), np.int64), TypeError, "float32 or float64"),
    (np.zeros((3, 4), np.complex64), TypeError, "float32 or float64"),
    (np.zeros((3, 4), object), TypeError, "float32 or float64"),
    (np.zeros((3, 4), ">f4"), TypeError, "float32 or float64"),
    (np.zeros((3, 3), np.float32), ValueError, "shape"),
    (np.zeros((3, 4, 1), np.float32), ValueError, "shape"),
    (np.zeros((), np.float32), ValueError, "shape"),
    (np.zeros((4, 3), np.float32).T, ValueError, "C-contiguous"),
    (GOOD[::2], ValueError, "C-contiguous"),
    (np.where(np.eye(3, 4) > 0, np.nan, 1.0).astype(np.float32), ValueError, "nan"),
    (np.full((3, 4), np.inf), ValueError, "infinite"),
    (np.full((3, 4), 1e300), ValueError, "infinite"),
    (np.zeros((2, 4), np.float32), ValueError, "items"),
    ("xa", TypeError, "expected"),
    ([[0, 0, 1, 0]], TypeError, "expected"),
    (None, TypeError, "incompatible function arguments"),
])
def test_bad_transform_arrays_raise(bad, error, text):
    with pytest.raises(error, match=text):
        batch.distance(SHAPES[0], GOOD, SHAPES[1], bad)


def test_other_bad_arguments_raise():
    with pytest.raises(TypeError, match="Shape"):
        batch.distance([SHAPES[0], "circle", SHAPES[0]], GOOD, SHAPES[1], GOOD)
    with pytest.raises(ValueError, match="items"):
        batch.distance([SHAPES[0]] * 2, GOOD, SHAPES[1], GOOD)
    with pytest.raises(TypeError):
        batch.distance(np.zeros(3), GOOD, SHAPES[1], GOOD)
    with pytest.raises(ValueError, match="not finite"):
        batch.collide(SHAPES[0], GOOD, SHAPES[1], GOOD, float("nan"))
    with pytest.raises(ValueError, match="not finite"):
        batch.closest_approach(SHAPES[0], GOOD, (0, 0), SHAPES[1], GOOD, (1, 0), float("inf"))
    with pytest.raises(ValueError, match="shape"):
        batch.cast_ray(SHAPES[0], GOOD, np.zeros((3, 2), np.float32))
    with pytest.raises(ValueError, match="shape"):
        batch.time_of_impact(SHAPES[0], np.zeros((3, 4), np.float32), SHAPES[1], np.zeros((3, 8), np.float32))
    with pytest.raises(ValueError, match="not finite"):
        batch.cast_shape(SHAPES[0], GOOD, (math.nan, 0), SHAPES[1], GOOD, (0, 0))
    world = pebble.CollisionWorld()
    ids = [world.add(SHAPES[0], pebble.Transform())]
    with pytest.raises(TypeError, match="ColliderId"):
        world.set_transforms([1], GOOD[:1])
    with pytest.raises(TypeError, match="COLLIDER_ID_DTYPE"):
        world.set_transforms(np.zeros(1, np.int64), GOOD[:1])
    with pytest.raises(ValueError, match="items"):
        world.set_transforms(ids, GOOD)
    with pytest.raises(ValueError, match="nan"):
        world.set_transforms(ids, np.full((1, 4), np.nan, np.float32))
    with pytest.raises(ValueError, match="shape"):
        world.cast_rays(np.zeros((2, 5), np.float32))


def test_absurd_but_finite_input_gives_the_empty_result():
    far = np.array([[1e30, 0, 1, 0]], np.float32)
    d = batch.distance(SHAPES[0], far, SHAPES[1], GOOD[:1])
    assert d[0]["distance"] == pebble.kHugeDistance
    m = batch.collide(SHAPES[0], far, SHAPES[1], GOOD[:1])
    assert m[0]["count"] == 0
    not_unit = np.array([[0, 0, 3, 0]], np.float32)
    assert not batch.cast_ray(SHAPES[0], not_unit, pebble.Ray((-3, 0), (6, 0)))[0]["hit"]


def test_empty_and_single_batches():
    empty = np.zeros((0, 4), np.float32)
    assert batch.distance(SHAPES[0], empty, SHAPES[1], empty).shape == (0,)
    assert batch.collide([], empty, SHAPES[1], empty).shape == (0,)
    one = batch.distance(SHAPES[0], pebble.Transform(), SHAPES[1], np.array([2, 0, 1, 0], np.float32))
    assert one.shape == (1,) and one[0]["distance"] > 0


@settings(max_examples=80, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float32, np.float64, np.int32, np.bool_]),
                  hnp.array_shapes(min_dims=0, max_dims=3, max_side=5)))
def test_any_array_is_refused_cleanly_or_accepted(arr):
    try:
        r = batch.distance(SHAPES[0], arr, SHAPES[5], GOOD[:1] if arr.ndim == 2 and arr.shape[0] == 1 else pebble.Transform())
    except (TypeError, ValueError):
        return
    assert np.isfinite(r["distance"]).all()
