"""Poses from Python: Transform((x, y), angle) and tuples, lists and numpy rows where a Vec2 or a
Transform goes take a fast path (python/src/values.cpp). The values must be the very bits of the
slow path's (Vec2 and Rot.from_angle of the float32 numbers), every older form must still work,
and what was refused must still be refused with the same kind of error."""
import math
import pickle
import struct

import numpy as np
import pytest

import pebble
from conftest import f32


def same_bits(a, b):
    pack = lambda x: struct.pack("<4f", x.p.x, x.p.y, x.q.c, x.q.s)  # noqa: E731
    return pack(a) == pack(b)


def reference(x, y, angle):
    """The transform the bound (x: float, y: float) and (p, angle: float) overloads make."""
    return pebble.Transform(p=pebble.Vec2(x=f32(x), y=f32(y)), q=pebble.Rot.from_angle(f32(angle)))


def test_every_form_of_pose_gives_the_same_bits():
    rng = np.random.default_rng(34)
    rows64 = rng.uniform(-1e3, 1e3, (300, 2))
    rows32 = rows64.astype(np.float32)
    angles = rng.uniform(-10, 10, 300)
    for i in range(300):
        x, y, a = float(rows64[i, 0]), float(rows64[i, 1]), float(angles[i])
        want = reference(x, y, a)
        for got in (pebble.Transform((x, y), a), pebble.Transform([x, y], a), pebble.Transform(rows64[i], a),
                    pebble.Transform(pebble.Vec2(x, y), a), pebble.Transform((x, y), np.float64(a)),
                    pebble.Transform((x, y), pebble.Rot.from_angle(a))):
            assert same_bits(got, want)
        x32, y32 = float(rows32[i, 0]), float(rows32[i, 1])
        want32 = reference(x32, y32, float(np.float32(a)))
        assert same_bits(pebble.Transform(rows32[i], np.float32(a)), want32)
        assert same_bits(pebble.Transform((np.float32(x32), np.float32(y32)), np.float32(a)), want32)


def test_integers_strided_rows_and_other_dtypes():
    assert pebble.Transform((1, 2), 0) == pebble.Transform(pebble.Vec2(1.0, 2.0), 0.0)
    grid = np.arange(12, dtype=np.float64).reshape(3, 4)
    column = grid[:, 1][:2]  # a strided view: items 1.0 and 5.0
    assert pebble.Transform(column, 0.5).p == pebble.Vec2(1, 5)
    assert pebble.Transform(np.array([3, 4], np.int32), 1).p == pebble.Vec2(3, 4)
    assert pebble.Transform(np.array([3, 4], ">f8"), 1).p == pebble.Vec2(3, 4)
    assert pebble.dot(np.array([1.0, 2.0]), (3, 4)) == 11


def test_the_older_forms_still_work():
    assert pebble.Transform() == pebble.Transform.identity()
    assert pebble.Transform((1, 2)).q == pebble.Rot()
    assert pebble.Transform(p=(1, 2), angle=0.5) == pebble.Transform((1, 2), 0.5)
    assert pebble.Transform(p=(1, 2), q=pebble.Rot(0, 1)).q == pebble.Rot(0, 1)
    assert pebble.Transform((1, 2), q=pebble.Rot(0, 1)).q == pebble.Rot(0, 1)
    assert pebble.Vec2() == pebble.Vec2(0, 0)
    assert pebble.Vec2(x=3) == pebble.Vec2(3, 0)
    assert pebble.Vec2((1, 2)) == pebble.Vec2([1, 2]) == pebble.Vec2(1, 2)

    class Pose(pebble.Transform):
        pass

    p = Pose((1, 2), 0.5)
    assert isinstance(p, Pose) and p == pebble.Transform((1, 2), 0.5)
    t = pebble.Transform((1, 2), 0.5)
    t.__init__((5, 6), 0.1)  # a second __init__ is ignored, as pybind11 does
    assert t == pebble.Transform((1, 2), 0.5)
    assert pickle.loads(pickle.dumps(t)) == t


@pytest.mark.parametrize("args", [((1, 2, 3), 0.5), ("ab", 0.5), ((1, "a"), 0.5), ((1, 2), "a"), ((1, 2), None),
                                  (np.zeros(3), 0.5), (np.zeros((1, 2)), 0.5), ((1, 2), 0.5, 7)])
def test_what_was_refused_is_refused(args):
    with pytest.raises(TypeError):
        pebble.Transform(*args)


def test_vec2_refusals():
    for bad in [("a", 1), (None, 1)]:
        with pytest.raises(TypeError):
            pebble.Vec2(*bad)
    with pytest.raises(TypeError):
        pebble.length((1, 2, 3))
    with pytest.raises(TypeError):
        pebble.length(np.zeros(3))
    with pytest.raises(TypeError):
        pebble.length("ab")
    with pytest.raises(TypeError):
        pebble.length(np.array([1 + 1j, 2]))
    with pytest.raises(TypeError):
        pebble.length(np.array([1.0, None], dtype=object))


def test_poses_where_a_transform_goes():
    box = pebble.Shape.box(1, 0.5)
    ball = pebble.Shape.circle(0.3)
    xf = pebble.Transform((2, 0.5), 0.3)
    want = pebble.distance(box, xf, ball, pebble.Transform((0, 0), 0.0))
    rows = np.array([[2, 0.5, xf.q.c, xf.q.s]], np.float32)
    for pose in [((2, 0.5), 0.3), [(2, 0.5), 0.3], ([2, 0.5], xf.q), (pebble.Vec2(2, 0.5), 0.3), rows[0], rows[0].astype(np.float64)]:
        assert pebble.distance(box, pose, ball, ((0, 0), 0.0)) == want
    assert pebble.collide(box, ((2, 0.5), 0.3), ball, ((0, 0), 0)) == pebble.collide(box, xf, ball, pebble.Transform())
    assert pebble.project_point(box, ((2, 0.5), 0.3), np.array([0.0, 0.0])) == pebble.project_point(box, xf, (0, 0))
    world = pebble.CollisionWorld()
    cid = world.add(ball, ((1, 1), 0.2))
    assert world.transform(cid) == pebble.Transform((1, 1), 0.2)
    assert world.set_transform(cid, np.array([3, 4, 1, 0], np.float32))
    assert world.transform(cid) == pebble.Transform((3, 4), pebble.Rot(1, 0))
    b = pebble.batch.distance(box, ((2, 0.5), 0.3), ball, ((0, 0), 0.0))
    assert b["distance"][0] == want.distance
    for bad in [((2, 0.5), "a"), ((2, 0.5, 1), 0.3), np.zeros(3), np.zeros(5)]:
        with pytest.raises(TypeError):
            pebble.distance(box, bad, ball, xf)


# The cost of a pose is measured by python/bench/pose_bench.py, not asserted here: tests never
# assert on time.
