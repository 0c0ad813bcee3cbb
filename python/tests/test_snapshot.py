"""CollisionWorld.save() / CollisionWorld.restore(): a restored world answers the same calls with
the same contacts, events and query results as the original (the C++ test, tests/snapshot_test.cpp,
covers the state in depth); bytes that are not a snapshot raise InvalidSnapshot, a ValueError."""
import random

import pytest

import pebble
from pebble import CollisionWorld, Ray, Rot, Shape, Transform, Vec2


def observe(world):
    out = []
    for c in world.contacts():
        m = c.manifold
        out.append((c.a, c.b, c.part_a, c.part_b, m.normal.x, m.normal.y, m.count,
                    [(p.point.x, p.point.y, p.separation, p.id) for p in m.points[:m.count]]))
    out.append([(e.a, e.b, e.part_a, e.part_b) for e in world.touch_begin_events()])
    out.append([(e.a, e.b, e.part_a, e.part_b) for e in world.touch_end_events()])
    for k in range(16):
        hit = world.cast_ray(Ray((-20.0, k - 8.0), (40.0, 0.5)))
        out.append(None if hit is None else (hit.id, hit.part, hit.hit.fraction, hit.hit.point.x, hit.hit.point.y))
    return out


def test_restored_world_answers_as_the_original():
    rng = random.Random(8)
    world = CollisionWorld()
    ids = []
    for i in range(60):
        shape = rng.choice([Shape.circle(0.5), Shape.box(0.5, 0.4), Shape.capsule((-0.3, 0), (0.3, 0), 0.2)])
        ids.append(world.add(shape, Transform((rng.uniform(-6, 6), rng.uniform(-6, 6)), Rot.from_angle(rng.uniform(-3, 3)))))
    ids.append(world.add([Shape.box(0.5, 0.5), Shape.circle(0.4, (1, 0))], Transform((0, 0), Rot.identity())))
    world.add(pebble.Chain.open([(-8, -7), (0, -6.5), (8, -7)]), Transform.identity())
    world.update()
    world.remove(ids.pop(3))
    snapshot = world.save()
    assert isinstance(snapshot, bytes)
    restored = CollisionWorld.restore(snapshot)
    assert restored.save() == snapshot
    for step in range(20):
        for w in (world, restored):
            w.update()
        assert observe(restored) == observe(world)
        moves = [(rng.choice(ids), (rng.uniform(-1e-3, 1e-3), rng.uniform(-1e-3, 1e-3))) for _ in range(10)]
        for w in (world, restored):
            for id, (dx, dy) in moves:
                xf = w.transform(id)
                w.set_transform(id, Transform((xf.p.x + dx, xf.p.y + dy), xf.q))
    assert restored.contains(ids[0])


def test_bad_bytes_raise_invalid_snapshot():
    snapshot = CollisionWorld().save()
    assert issubclass(pebble.InvalidSnapshot, ValueError)
    with pytest.raises(pebble.InvalidSnapshot, match="truncated"):
        CollisionWorld.restore(snapshot[:-1])
    with pytest.raises(ValueError, match="checksum"):
        CollisionWorld.restore(snapshot[:-1] + bytes([snapshot[-1] ^ 1]))
    with pytest.raises(pebble.InvalidSnapshot, match="format version"):
        CollisionWorld.restore(snapshot[:8] + bytes([9]) + snapshot[9:])
    with pytest.raises(pebble.InvalidSnapshot):
        CollisionWorld.restore(b"not a snapshot")
