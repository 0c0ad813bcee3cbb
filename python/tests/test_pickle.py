"""Values cross process boundaries (multiprocessing, Dask, Ray) by pickle: shapes, transforms,
the other value types and the query results read back equal, field for field and bit for bit."""
import copy
import math
import pickle
import random
import struct

import pytest

import pebble
from pebble import Rot, Shape, Transform, Vec2


def f32_bits(x):
    return struct.pack("<f", x)


def shapes():
    rng = random.Random(34)
    out = [Shape.circle(0.5), Shape.circle(0.25, (1.5, -2.0)), Shape.capsule((0, 0), (2, 1), 0.3),
           Shape.capsule((2, 1), (0, 0), 0.3), Shape.segment((-1, 0.5), (1, -0.5)), Shape.box(1, 0.5),
           Shape.box(0.4, 0.2, (3, 1), 0.7), Shape.rounded_box(1, 0.5, 0.1), Shape.polygon([(0, 0), (1, 0), (0, 1)], 0.05)]
    for _ in range(500):
        n = rng.randint(1, 8)
        scale = 10 ** rng.uniform(-2, 3)
        centre = (rng.uniform(-1e3, 1e3), rng.uniform(-1e3, 1e3))
        points = [(centre[0] + scale * rng.uniform(-1, 1), centre[1] + scale * rng.uniform(-1, 1)) for _ in range(n)]
        out.append(Shape.polygon(points, rng.choice([0.0, scale * rng.uniform(0, 0.5)])))
    return out


def round_trip(value):
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):  # 0 and 1 too (__reduce__)
        back = pickle.loads(pickle.dumps(value, protocol))
        assert type(back) is type(value)
        assert back == value, (value, back, protocol)
    return pickle.loads(pickle.dumps(value))


def test_shapes_pickle_to_the_same_shape():
    for s in shapes():
        back = round_trip(s)
        assert back.vertex_count() == s.vertex_count() and back.edge_count() == s.edge_count()
        for i in range(s.vertex_count()):
            assert f32_bits(back.vertices()[i].x) == f32_bits(s.vertices()[i].x)
            assert f32_bits(back.vertices()[i].y) == f32_bits(s.vertices()[i].y)
        for i in range(s.edge_count()):  # the normals are rebuilt from the vertices: the same bits
            assert back.normal(i) == s.normal(i)
        assert back.core_centroid() == s.core_centroid() and back.extent() == s.extent()
        assert hash(back) == hash(s)


def test_value_types_pickle():
    for v in [Vec2(0.1, -3e7), Rot.from_angle(0.3), Transform((1e4, -0.1), 2.9), Transform(), pebble.Aabb((-1, -2), (3, 4)),
              pebble.Ray((0.1, 0.2), (3, -4)), pebble.Sweep((0.1, 0), (1, 2), (3, 4), 0.5, -1.5),
              pebble.MassProperties(2.5, (0.1, 0.2), 0.75)]:
        round_trip(v)
    # The option structs have no ==: their fields.
    toi = pebble.ToiOptions(0.01, 0.001, 7)
    back = pickle.loads(pickle.dumps(toi))
    assert (back.target_separation, back.tolerance, back.max_iterations) == (toi.target_separation, toi.tolerance, 7)
    assert pickle.loads(pickle.dumps(pebble.ShapeCastOptions(0.01), 0)).target_separation == pebble.ShapeCastOptions(0.01).target_separation
    # A pickled transform keeps its rotation's bits, not an angle recomputed from them.
    xf = Transform((0.5, 0.25), Rot(0.6, 0.8))
    assert pickle.loads(pickle.dumps(xf)).q.c == xf.q.c


def test_results_pickle():
    box, ball = Shape.rounded_box(1.0, 0.5, 0.1), Shape.circle(0.25)
    xa, xb = Transform((0, 0), 0.2), Transform((0.1, 0.78))
    m = pebble.collide(box, xa, Shape.box(0.5, 0.5), Transform((0.3, 0.9), 0.1), margin=0.02)
    assert m.count == 2
    results = [m, m.points[0], pebble.collide(box, xa, ball, Transform((9, 9))), pebble.distance(box, xa, ball, xb),
               pebble.project_point(box, xa, (2, 1)), pebble.cast_ray(box, xa, pebble.Ray((-3, 0), (6, 0))),
               pebble.cast_ray(box, xa, pebble.Ray((-3, 5), (6, 0))),
               pebble.cast_shape(ball, Transform((-3, 0)), (6, 0), box, xa, (0, 0)),
               pebble.time_of_impact(ball, pebble.Sweep((0, 0), (-3, 0), (3, 0), 0, 0), box, pebble.Sweep((0, 0), (0, 0), (0, 0), 0.2, 0.2)),
               pebble.closest_approach(ball, Transform((-3, 2)), (1, 0), box, xa, (0, 0), 6.0),
               pebble.mass_properties(box, 2.0)]
    for r in results:
        back = round_trip(r)
        assert repr(back) == repr(r)
    # A result that came back answers like the original: it is the same value, not an approximation.
    d = pebble.distance(box, xa, ball, xb)
    assert pickle.loads(pickle.dumps(d)).distance == d.distance and not math.isnan(d.distance)


def test_copies_and_a_process_pool_agree():
    s = Shape.polygon([(0, 0), (1, 0.1), (0.3, 1.2)], 0.02)
    assert copy.deepcopy(s) == s and copy.copy(Transform((1, 2), 0.3)) == Transform((1, 2), 0.3)
    import concurrent.futures
    import multiprocessing
    pairs = [(s, Transform((0, 0), 0.1 * i), Shape.circle(0.3), Transform((1.5 + 0.01 * i, 0.2))) for i in range(8)]
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        remote = list(pool.map(_distance, pairs))
    assert remote == [pebble.distance(*p) for p in pairs]


def _distance(pair):
    return pebble.distance(*pair)


def test_bad_states_are_refused():
    with pytest.raises(ValueError, match="Transform: a pickled state of 4 items"):
        Transform.__new__(Transform).__setstate__((1.0, 2.0))
    with pytest.raises(ValueError, match="is not a core the makers give"):
        Shape.__new__(Shape).__setstate__((((1.0, 0.0), (0.0, 0.0), (0.0, 1.0)), 0.0))  # clockwise
    with pytest.raises(ValueError):
        Shape.__new__(Shape).__setstate__(((), 0.0))


def test_world_results_pickle():
    w = pebble.CollisionWorld()
    box = w.add(Shape.box(1, 1), Transform())
    ball = w.add(Shape.circle(0.5), Transform((1.4, 0.1)))
    sensor = w.add(Shape.circle(2), Transform((0, 3)), pebble.ColliderOptions(sensor=True))
    w.update()
    w.set_transform(ball, Transform((0, 2.5)))
    w.update()
    values = [box, sensor, pebble.ColliderId()]
    values += w.contacts() + w.touch_begin_events() + w.touch_end_events() + w.sensor_begin_events()
    values += [w.cast_ray(pebble.Ray((-5, 0), (10, 0)))] + w.nearest(Shape.circle(0.1), Transform((3, 0)), 2)
    kinds = {type(v).__name__ for v in values}
    assert {"ColliderId", "ContactEvent", "SensorEvent", "WorldCastResult", "Neighbor"} <= kinds, kinds
    for v in values:
        round_trip(v)
    w.set_transform(ball, Transform((1.4, 0.1)))
    w.update()
    pairs = w.contacts()
    assert pairs and all(type(p).__name__ == "ContactPair" for p in pairs)
    for p in pairs:
        back = round_trip(p)
        assert back.manifold == p.manifold and (back.part_a, back.part_b) == (p.part_a, p.part_b)
    # An id read back still names its collider in the world (and process) that made it.
    assert w.contains(pickle.loads(pickle.dumps(box)))
