"""Reference counts and memory: every kind of call, many times over, must not make the process
grow (a leaked object or buffer per call would show as megabytes here) nor keep references to
its arguments."""
import gc
import sys
import tracemalloc

import numpy as np

import pebble
from pebble import batch


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def workload(shapes, xf, rays, ids, world):
    a, b = shapes[3], shapes[5]
    pebble.collide(a, pebble.Transform(), b, pebble.Transform((0.5, 0.2)), 0.1)
    pebble.distance(a, pebble.Transform(), b, pebble.Transform((3, 0)))
    pebble.cast_ray(a, pebble.Transform(), pebble.Ray((-3, 0), (6, 0)))
    pebble.cast_shape(a, pebble.Transform(), (1, 0), b, pebble.Transform((3, 0)), (0, 0))
    pebble.time_of_impact(a, pebble.Sweep(c1=(2, 0)), b, pebble.Sweep(c0=(3, 0), c1=(3, 0)))
    pebble.closest_approach(a, pebble.Transform(), (1, 0), b, pebble.Transform((3, 0)), (0, 0), 2.0)
    pebble.decompose([(0, 0), (4, 0), (4, 3), (2, 1), (0, 3)])
    pebble.Shape.polygon(np.array([[0, 0], [1, 0], [0, 1]], np.float32))
    try:
        pebble.Shape.circle(-1)
    except pebble.InvalidShape:
        pass
    try:
        batch.distance(a, np.full((4, 4), np.nan), b, xf[:4])
    except ValueError:
        pass
    batch.collide(shapes, xf[:len(shapes)], b, xf[:len(shapes)])
    batch.distance(a, xf, b, xf[::-1].copy())
    batch.cast_ray(a, xf, rays, 0.1)
    batch.closest_approach(a, xf, xf[:, :2].copy(), b, xf, xf[:, 2:].copy(), 1.0)
    world.set_transforms(ids, xf[:len(ids)])
    world.update()
    world.contacts()
    world.contacts_array()
    world.cast_rays(rays)
    world.overlap_point((0.5, 0.5))
    world.cast_ray(pebble.Ray((-3, 0.3), (9, 0)), lambda r: 1.0)
    w = pebble.CollisionWorld()
    w.add(shapes, pebble.Transform())
    w.update()
    # poses read by the fast path (values.cpp), one it hands on to pybind11, a ShapeList
    pebble.Transform((0.5, 0.2), 0.3)
    pebble.Transform(xf[1, :2], np.float32(0.5))
    pebble.distance(a, ((0.5, 0.2), 0.3), b, xf[0])
    try:
        pebble.Transform((1, "x"), 0.5)
    except TypeError:
        pass
    held = batch.ShapeList(shapes).take(np.arange(len(xf)) % len(shapes))
    batch.distance(held, xf, b, xf)


def test_no_growth_and_no_kept_references(shapes):
    rng = np.random.default_rng(5)
    xf = batch.transforms(rng.uniform(-2, 2, (64, 2)).astype(np.float32), rng.uniform(-3, 3, 64).astype(np.float32))
    rays = np.ascontiguousarray(np.concatenate([xf[:, :2] - 3, np.full((64, 2), 6, np.float32)], axis=1))
    world = pebble.CollisionWorld()
    ids = pebble.id_array([world.add(shapes[i % len(shapes)], pebble.Transform((i * 0.3, 0))) for i in range(16)])
    counts = [sys.getrefcount(x) for x in (xf, rays, ids, shapes[3], shapes[5])]
    for _ in range(300):  # warm-up: allocator pools, numpy caches, pybind11's type caches
        workload(shapes, xf, rays, ids, world)
    gc.collect()
    before_rss, before_objects = rss_bytes(), len(gc.get_objects())
    for _ in range(5000):  # 31 calls each: 155k calls; a leak of 16 bytes per call would show
        workload(shapes, xf, rays, ids, world)
    gc.collect()
    grown = rss_bytes() - before_rss
    assert grown < 2 * 2**20, f"the process grew by {grown} bytes over 5000 rounds"
    assert len(gc.get_objects()) - before_objects < 100
    # Python-side allocations (objects, numpy buffers) traced exactly.
    tracemalloc.start()
    workload(shapes, xf, rays, ids, world)
    gc.collect()
    start = tracemalloc.get_traced_memory()[0]
    for _ in range(1000):
        workload(shapes, xf, rays, ids, world)
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert traced < 64 * 1024, f"{traced} bytes of Python allocations kept over 1000 rounds"
    assert [sys.getrefcount(x) for x in (xf, rays, ids, shapes[3], shapes[5])] == counts
