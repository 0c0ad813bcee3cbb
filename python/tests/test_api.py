"""The API surface: names, reprs, ==, exceptions, the world's events, filters, parts and scene
queries, the toolbox, the stubs, and the CMake install of the package."""
import copy
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import pebble
from pebble import prim
from conftest import BUILD_DIR, SOURCE_DIR


def test_values_repr_and_equality():
    v = pebble.Vec2(0.1, 2)
    assert repr(v) == "Vec2(0.1, 2)" and v == pebble.Vec2(0.1, 2) and v != pebble.Vec2(0.1, 2.5)
    assert tuple(v) == (pytest.approx(0.1), 2.0) and v + (1, 1) == pebble.Vec2(1.1, 3)
    assert pebble.Transform((1, 2), 0.0) == pebble.Transform(pebble.Vec2(1, 2), pebble.Rot(1, 0))
    assert copy.deepcopy(pebble.Transform((1, 2), 0.5)) == pebble.Transform((1, 2), 0.5)
    s = pebble.Shape.polygon(np.array([[0, 0], [1, 0], [0, 1]]))
    assert s == pebble.Shape.polygon([(0, 0), (1, 0), (0, 1)]) and hash(s) == hash(copy.copy(s))
    assert repr(s) == "Shape(vertices=[(0, 0), (1, 0), (0, 1)], radius=0)"
    assert s.vertex_count() == 3 and s.vertices()[1] == pebble.Vec2(1, 0) and s.radius() == 0
    m = pebble.collide(pebble.Shape.box(1, 0.5), pebble.Transform(), pebble.Shape.circle(0.25), pebble.Transform((0, 0.7)))
    assert repr(m).startswith("Manifold(normal=Vec2(0, 1), points=[ContactPoint(point=Vec2(")
    assert m == m.flipped().flipped() and len(m) == m.count == 1
    assert repr(pebble.ToiResult.State.hit) == "<State.hit: 0>"


def test_invalid_shape_is_a_value_error_with_the_cpp_message():
    assert issubclass(pebble.InvalidShape, ValueError)
    with pytest.raises(pebble.InvalidShape, match=r"^pebble: circle radius is negative \(-1\)$"):
        pebble.Shape.circle(-1)
    with pytest.raises(ValueError):
        pebble.Shape.polygon([(float("nan"), 0)])
    with pytest.raises(pebble.InvalidShape):
        pebble.decompose([(0, 0), (1, 1), (1, 0), (0, 1)])  # self-intersecting
    with pytest.raises(TypeError, match=r"points\[1\]"):
        pebble.Shape.polygon([(0, 0), "x", (1, 1)])
    with pytest.raises(ValueError, match="shape"):
        pebble.Shape.polygon(np.zeros((3, 3)))
    with pytest.raises(ValueError):  # the world refuses an invalid transform (std::invalid_argument)
        pebble.CollisionWorld().add(pebble.Shape.circle(1), pebble.Transform((float("nan"), 0)))


def test_submodules_import_by_name():
    import pebble.batch
    from pebble.prim import Circle
    assert pebble.batch.distance is pebble.batch.distance and Circle is prim.Circle
    assert "collide" in pebble.__all__ and "batch" in pebble.__all__


def test_mass_chain_decompose_tiles():
    mp = pebble.mass_properties(pebble.Shape.box(1, 0.5), 2.0)
    assert mp.mass == pytest.approx(4.0) and mp.center == pebble.Vec2(0, 0)
    parts = pebble.decompose([(0, 0), (4, 0), (4, 3), (2, 1), (0, 3)])
    assert len(parts) >= 2 and pebble.mass_properties(parts).mass == pytest.approx(8.0)
    chain = pebble.Chain.loop([(0, 0), (4, 0), (4, 3), (0, 3)])
    assert chain.segment_count() == 4 and chain.closed() and chain.segment(0).normal == pebble.Vec2(0, -1)
    solid = np.array([[1, 1, 1], [0, 1, 0]], bool)
    outlines = pebble.outline_tiles(solid)
    assert len(outlines) == 1 and outlines[0].closed and len(outlines[0].points) == 8
    assert len(pebble.outline_tile_tops(solid)) == 3


def test_world_events_filters_parts_sensors_and_queries():
    w = pebble.CollisionWorld(pebble.WorldSettings(contact_margin=0.0))
    ground = w.add(pebble.Chain.open([(10, 0), (-10, 0)]), pebble.Transform(), 7)
    box = w.add(pebble.Shape.box(0.5, 0.5), pebble.Transform((0, 0.45)))
    l_shape = w.add(pebble.decompose([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]), pebble.Transform((3, -0.05)))
    ghost = w.add(pebble.Shape.circle(0.3), pebble.Transform((0, 0.4)),
                  pebble.ColliderOptions(filter=pebble.Filter(category=2, mask=1 << 3)))
    sensor = w.add(pebble.Shape.box(1, 1), pebble.Transform((0, 0)), pebble.ColliderOptions(sensor=True))
    assert len(w) == 5 and w.part_count(l_shape) >= 2 and w.options(ground).user_data == 7
    w.update()
    touching = {(p.a, p.b) for p in w.contacts()}
    assert (ground, box) in touching and any(l_shape in pair for pair in touching)
    assert all(ghost not in pair for pair in touching)  # its filter touches nothing here
    begins = {(e.a, e.b) for e in w.touch_begin_events()}
    assert (ground, box) in begins
    assert any(e.sensor == sensor and e.visitor == box for e in w.sensor_begin_events())
    assert any(p.part_a > 0 or p.part_b > 0 for p in w.contacts())  # chain segment or compound part
    assert w.validate()
    w.set_transform(box, pebble.Transform((0, 5)))
    w.update()
    assert (ground, box) in {(e.a, e.b) for e in w.touch_end_events()}
    assert any(e.visitor == box for e in w.sensor_end_events())
    # Scene queries
    hit = w.cast_ray(pebble.Ray((0, 10), (0, -20)))
    assert hit is not None and hit.id == box and hit.hit.normal == pebble.Vec2(0, 1)
    seen = []
    w.cast_ray(pebble.Ray((0, 10), (0, -20)), lambda r: seen.append(r.id) or 1.0)
    assert box in seen and ground in seen
    assert w.cast_ray(pebble.Ray((0, 10), (0, -20)), pebble.QueryFilter(mask=0)) is None
    assert set(w.overlap_point((0, 5))) == {box}
    assert box in w.overlap_aabb(pebble.Aabb((-1, 4), (1, 6)))
    assert box in w.within_distance(pebble.Shape.circle(0.1), pebble.Transform((0, 6)), 0.6)
    assert set(w.overlap_shape(pebble.Shape.box(0.2, 0.2), pebble.Transform((0, 0.4)), filter=pebble.QueryFilter(sensors=True))) >= {ghost, sensor}
    assert w.cast_shape(pebble.Shape.circle(0.2), pebble.Transform((0, 3)), (0, -5)).id == ghost  # the top one
    assert w.cast_shape(pebble.Shape.circle(0.2), pebble.Transform((-5, 3)), (0, -5)).id == ground
    assert w.cast_circle(pebble.Ray((-3, 5), (6, 0)), 0.1).id == box
    # A callback's exception stops the query and comes out.
    with pytest.raises(ZeroDivisionError):
        w.cast_ray(pebble.Ray((0, 10), (0, -20)), lambda r: 1 / 0)
    with pytest.raises(KeyError):
        w.overlap_point((0, 5), lambda id: {}[id])
    # Stale ids are refused.
    assert w.remove(box) and not w.remove(box) and w.transform(box) is None and not w.set_transform(box, pebble.Transform())
    assert w.shape(ghost) == pebble.Shape.circle(0.3)


def test_primitives():
    c = prim.Circle((0, 0), 1)
    assert prim.contains(c, (1, 0)) and not prim.contains(c, (1.0000001, 0))
    assert prim.overlaps(c, prim.Box((2, 0), (1, 1))) and not prim.overlaps(c, prim.Rect((2.01, 0), (1, 1)))
    hit = prim.intersect(prim.Segment((0, 0), (2, 2)), prim.Segment((0, 2), (2, 0)))
    assert hit.hit and hit.point == pebble.Vec2(1, 1)
    p = prim.penetration(prim.Box((0, 0), (1, 1)), prim.Box((1.5, 0), (1, 1)))
    assert p.hit and p.separation == pebble.Vec2(0.5, 0)
    assert prim.nearest_point(prim.Triangle((0, 0), (2, 0), (0, 2)), (2, 2)) == pebble.Vec2(1, 1)
    assert prim.nearest_edge(prim.Box((0, 0), (1, 2)), (0.5, 0)).normal == pebble.Vec2(1, 0)
    assert prim.bounds([(0, 1), (2, -1)]) == pebble.Aabb((0, -1), (2, 1))
    assert prim.to_aabb(prim.Rect((1, 1), (2, 3))) == pebble.Aabb((1, 1), (3, 4))


def test_world_refuses_calls_while_busy_in_another_thread():
    import threading
    w = pebble.CollisionWorld()
    ids = [w.add(pebble.Shape.circle(0.5), pebble.Transform((i * 0.9, 0))) for i in range(2000)]
    errors, done = [], threading.Event()

    def poke():
        while not done.is_set():
            try:
                w.set_transform(ids[0], pebble.Transform((0, 0)))
            except RuntimeError as e:
                errors.append(str(e))

    t = threading.Thread(target=poke)
    t.start()
    xf = np.zeros((len(ids), 4), np.float32)
    xf[:, 0] = np.arange(len(ids)) * 0.9
    xf[:, 2] = 1
    for _ in range(30):
        w.set_transforms(ids, xf)
        w.update()
    done.set()
    t.join()
    assert w.validate()  # whatever interleaving happened, the world is whole
    assert all("in use by another thread" in e for e in errors)


def test_stubs_are_up_to_date():
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(pebble.__file__).parents[1]))
    r = subprocess.run([sys.executable, str(SOURCE_DIR / "python" / "tools" / "make_stubs.py"), "--check"],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


def test_cmake_install_gives_an_importable_package(tmp_path):
    subprocess.run(["cmake", "--install", str(BUILD_DIR), "--component", "python", "--prefix", str(tmp_path)],
                   check=True, capture_output=True)
    site = tmp_path / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    assert (site / "pebble" / "__init__.pyi").exists() and (site / "pebble" / "py.typed").exists()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)
    r = subprocess.run([sys.executable, "-c", "import pebble, sys; print(pebble.__file__); "
                        "print(pebble.distance(pebble.Shape.circle(1), pebble.Transform(), pebble.Shape.circle(1), "
                        "pebble.Transform((3, 0))).distance)"], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [str(site / "pebble" / "__init__.py"), "1.0"]


def test_character_mover_walks_steps_and_stays_out_of_the_level():
    # A floor with a 0.2 stair and a wall at x = 8 (points right to left: the solid below).
    w = pebble.CollisionWorld()
    w.add(pebble.Chain.open([(8, 5), (8, 0.2), (4, 0.2), (4, 0), (-10, 0)]), pebble.Transform(),
          pebble.ColliderOptions(fixed=True))
    for shape in (pebble.Shape.capsule((0, -0.45), (0, 0.45), 0.3), pebble.Shape.box(0.3, 0.75), pebble.Shape.circle(0.4)):
        mover = pebble.CharacterMover(shape, pebble.Transform((-2, 1.5), 0.0))
        vy, stepped = 0.0, False
        for _ in range(240):
            s = mover.step(w, (4, vy - 20 / 60), 1 / 60)
            vy = s.velocity.y
            stepped = stepped or s.stepped
            assert s.transform == mover.transform
            # never deeper into the level than the skin
            for _, _, m in w.collide_shape(shape, s.transform, 0.0):
                assert min(p.separation for p in m.points[:m.count]) >= -mover.settings.skin
        assert stepped and s.ground.grounded
        assert 7.0 < mover.transform.p.x < 8.0  # stopped at the wall
        assert abs(s.ground.normal.y - 1) < 1e-6


def test_mover_pieces_and_bad_settings():
    floor, wall = pebble.MoverPlane((0, 1)), pebble.MoverPlane((-1, 0))
    assert pebble.clip_vector((3, -2), [floor]) == pebble.Vec2(3, 0)
    assert pebble.clip_vector((3, -2), [floor, wall]) == pebble.Vec2(0, 0)
    deep = pebble.MoverPlane((0, 1), separation=-0.2)
    sol = pebble.solve_planes((0.5, 0), [deep])
    assert sol.converged and abs(sol.translation.y - 0.2) < 1e-6 and sol.translation.x == 0.5
    settings = pebble.MoverSettings()
    settings.skin = 0
    with pytest.raises(pebble.InvalidShape, match="skin"):
        pebble.CharacterMover(pebble.Shape.circle(1), pebble.Transform(), settings)
    w = pebble.CollisionWorld()
    m = pebble.CharacterMover(pebble.Shape.circle(0.5), pebble.Transform((0, 1), 0.0))
    assert m.step(w, (float("nan"), 0), 1 / 60).transform.p == pebble.Vec2(0, 1)
    assert m.step(w, (1, 0), -1).transform.p == pebble.Vec2(0, 1)
    assert pebble.QueryFilter(fixed=False).fixed is False


def test_world_nearest_and_within_radius_in_distance_order():
    w = pebble.CollisionWorld()
    ids = [w.add(pebble.Shape.circle(0.5), pebble.Transform((float(x), 0.0), 0.0)) for x in range(10)]
    agent = pebble.Shape.circle(0.0)
    got = w.nearest(agent, pebble.Transform((3.2, 0.0), 0.0), 3)
    assert [n.id for n in got] == [ids[3], ids[4], ids[2]]
    assert [round(n.distance, 5) for n in got] == [-0.3, 0.3, 0.7]
    assert [n.id for n in w.within_radius(agent, pebble.Transform((0.0, 0.0), 0.0), 1.6)] == [ids[0], ids[1], ids[2]]
    assert w.nearest(agent, pebble.Transform(), 0) == []
    with pytest.raises(ValueError):
        w.nearest(agent, pebble.Transform(), -1)


def test_reuse_bounds_and_batch_moves():
    """Box2D v3's looser reuse bounds carry a slid box's manifold over where the default collides
    it again; set_transforms on two threads moves as set_transform does."""
    def reused(settings):
        w = pebble.CollisionWorld(settings)
        w.add(pebble.Shape.box(2, 0.5), pebble.Transform((0, -0.5)))
        box = w.add(pebble.Shape.box(0.25, 0.25), pebble.Transform((0.3, 0.251)))
        w.update()
        assert list(w.set_transforms([box], pebble.Transform((0.32, 0.251)))) == [True]
        w.update()
        assert len(w.contacts()) == 1
        return w.stats().reused
    assert reused(pebble.WorldSettings()) == 0
    assert reused(pebble.WorldSettings(reuse_bounds=pebble.ReuseBounds.box2d_v3(), threads=2)) == 1
    assert reused(pebble.WorldSettings(reuse_bounds=pebble.ReuseBounds(0.01))) == 0
    b = pebble.ReuseBounds.box2d_v3()
    assert (b.distance, round(b.angle, 6)) == (pytest.approx(0.05), 0.2)
    assert "ReuseBounds(distance=" in repr(b)


def test_world_parts_in_box_are_the_tree_candidates_of_the_box():
    """parts_in_box against brute force: every part (compound parts and chain segments included)
    whose bounds overlap the box is found once, with its shape, segment, transform, box and kind;
    nothing far off is found; the filter applies; more parts than the first buffer holds come out
    too; an invalid box finds nothing."""
    import random
    rng = random.Random(5)
    w = pebble.CollisionWorld()
    known = {}  # index -> (id, parts, xf, fixed, sensor, category, chain)
    for i in range(40):
        opts = pebble.ColliderOptions(fixed=i % 3 == 0, sensor=i % 7 == 3,
                                      filter=pebble.Filter(category=2 if i % 5 == 4 else 1))
        xf = pebble.Transform((rng.uniform(-8, 8), rng.uniform(-8, 8)), rng.uniform(-3, 3))
        if i % 4 == 1:  # a compound of two parts
            parts = [pebble.Shape.box(rng.uniform(0.1, 0.8), rng.uniform(0.1, 0.8), (0.4, 0), 0.3),
                     pebble.Shape.circle(rng.uniform(0.1, 0.8), (-0.5, 0.2))]
            cid = w.add(parts, xf, opts)
        else:
            parts = [pebble.Shape.circle(rng.uniform(0.1, 0.8)) if i % 2 == 0 else
                     pebble.Shape.capsule((-rng.uniform(0.1, 0.8), 0), (rng.uniform(0.1, 0.8), 0), 0.1)]
            cid = w.add(parts[0], xf, opts)
        known[cid.index] = (cid, parts, xf, opts.fixed, opts.sensor, opts.filter.category, None)
    chain = pebble.Chain.open([(-10 + 0.5 * k, -2 + math.sin(0.7 * k)) for k in range(40, -1, -1)])
    cid = w.add(chain, pebble.Transform(), pebble.ColliderOptions(fixed=True))
    known[cid.index] = (cid, [s.shape for s in chain.segments()], pebble.Transform(), True, False, 1, chain)
    total_parts = sum(len(k[1]) for k in known.values())
    assert total_parts > 64  # more than the binding's first buffer

    def overlaps(a, b):
        return a.lower.x <= b.upper.x and b.lower.x <= a.upper.x and a.lower.y <= b.upper.y and b.lower.y <= a.upper.y

    seen_compound = seen_chain = 0
    for q in range(200):
        c = (rng.uniform(-8, 8), rng.uniform(-8, 8))
        h = (rng.uniform(0.3, 2.4), rng.uniform(0.3, 2.4))
        box = pebble.Aabb((c[0] - h[0], c[1] - h[1]), (c[0] + h[0], c[1] + h[1]))
        f = pebble.QueryFilter(mask=2 if q % 5 == 0 else 2**64 - 1, sensors=q % 4 == 2, fixed=q % 3 != 1)
        got = w.parts_in_box(box, f)
        found = set()
        for v in got:
            assert (v.id.index, v.part) not in found, "a part found twice"
            found.add((v.id.index, v.part))
            kid, parts, xf, fixed, sensor, category, ch = known[v.id.index]
            assert v.id == kid and v.fixed == fixed and v.xf == xf
            assert v.shape == parts[v.part] == w.part(v.id, v.part)
            assert (v.segment is not None) == (ch is not None)
            if ch is not None:
                seen_chain += 1
                assert (v.segment.a, v.segment.b) == (ch.segment(v.part).a, ch.segment(v.part).b)
            if len(parts) == 2:
                seen_compound += 1
            b = pebble.bounds(v.shape, v.xf)  # the view's box holds the part's bounds
            assert v.box.lower.x <= b.lower.x and v.box.lower.y <= b.lower.y
            assert v.box.upper.x >= b.upper.x and v.box.upper.y >= b.upper.y
            assert (f.fixed or not fixed) and (f.sensors or not sensor) and category & f.mask
            # near: within the moving tree's fat margins of the box
            near = pebble.Aabb((box.lower.x - 2, box.lower.y - 2), (box.upper.x + 2, box.upper.y + 2))
            assert overlaps(near, b)
        for kid, parts, xf, fixed, sensor, category, ch in known.values():
            if (fixed and not f.fixed) or (sensor and not f.sensors) or not category & f.mask:
                continue
            for p, s in enumerate(parts):
                if overlaps(box, pebble.bounds(s, xf)):
                    assert (kid.index, p) in found, f"query {q} missed part {p} of {kid}"
    assert seen_compound > 10 and seen_chain > 10
    # Everything, past the first buffer: every part once, moving colliders first.
    everything = w.parts_in_box(pebble.Aabb((-50, -50), (50, 50)), pebble.QueryFilter(sensors=True))
    assert len(everything) == total_parts
    assert len({(v.id.index, v.part) for v in everything}) == total_parts
    kinds = [v.fixed for v in everything]
    assert kinds == sorted(kinds)
    # The filter: moving colliders only leaves the chain out.
    assert all(not v.fixed and v.segment is None for v in w.parts_in_box(pebble.Aabb((-50, -50), (50, 50)), pebble.QueryFilter(fixed=False)))
    assert w.parts_in_box(pebble.Aabb((-50, -50), (50, 50)), pebble.QueryFilter(mask=0)) == []
    assert w.parts_in_box(pebble.Aabb((1, 1), (0, 0))) == []
    assert w.parts_in_box(pebble.Aabb((float("nan"), 0), (1, 1))) == []
    r = repr(next(v for v in everything if v.segment is not None))
    assert r.startswith("PartView(id=ColliderId(") and "segment=ChainSegment(" in r and "fixed=True" in r
    # Copies: a view outlives the collider it came from.
    v = everything[0]
    assert w.remove(v.id) and v.shape == known[v.id.index][1][v.part]


def test_recording_replays_and_reports_changes(tmp_path):
    import pebble
    rec = tmp_path / "world.rec"
    world = pebble.CollisionWorld()
    world.start_recording(str(rec))
    assert world.recording
    ids = [world.add(pebble.Shape.circle(0.5), ((0.8 * i, 0.0), 0.3 * i)) for i in range(6)]
    world.add(pebble.Shape.box(3, 0.2), ((0, -0.6), 0.0))
    digests = []
    for step in range(10):
        for k, i in enumerate(ids):
            world.set_transform(i, ((0.8 * k + 0.01 * step, -0.02 * step), 0.05 * step))
        world.update()
        digests.append(pebble.update_digest(world))
    world.remove(ids[2])
    world.remove(ids[2])  # stale: refused, and so in the replay
    world.update()
    digests.append(pebble.update_digest(world))
    world.stop_recording()
    assert not world.recording
    assert len(world.contacts()) > 0

    report = pebble.replay(str(rec))
    assert report.mismatches == 0, report.first_problem
    assert report.updates == 11
    assert report.digest == digests[-1]

    data = bytearray(rec.read_bytes())
    data[-12] ^= 1  # the last update's digest
    changed = tmp_path / "changed.rec"
    changed.write_bytes(bytes(data))
    assert pebble.replay(str(changed)).mismatches == 1

    junk = tmp_path / "junk.rec"
    junk.write_bytes(b"not a recording")
    with pytest.raises(pebble.InvalidRecording, match="not a pebble recording"):
        pebble.replay(str(junk))
    assert issubclass(pebble.InvalidRecording, ValueError)
    # A used world's recording starts from its snapshot.
    used = pebble.CollisionWorld()
    a = used.add(pebble.Shape.circle(1), ((0, 0), 0))
    used.update()
    used.start_recording(str(tmp_path / "used.rec"))
    used.add(pebble.Shape.circle(1), ((1.5, 0), 0))
    used.set_transform(a, ((0.2, 0), 0))
    used.update()
    used.stop_recording()
    report = pebble.replay(str(tmp_path / "used.rec"))
    assert report.mismatches == 0, report.first_problem
    assert report.digest == pebble.update_digest(used)


def test_shape_from_vertices_gives_the_shape_back():
    import pebble
    s = pebble.Shape.box(1, 0.5, (0.1, 0.2), 0.7)
    back = pebble.Shape.from_vertices(s.vertices(), s.radius())
    assert back.vertices() == s.vertices() and back.radius() == s.radius()
    with pytest.raises(pebble.InvalidShape):
        pebble.Shape.from_vertices([(0, 0), (0, 1), (1, 1), (1, 0)], 0)  # clockwise


def test_heightfield():
    heights = np.array([0.0, 0.5, 0.25, 1.0, 1.0])
    field = pebble.Heightfield.make(heights, 0.5)
    assert field.cell_count() == 4 and field.spacing() == 0.5 and repr(field) == "Heightfield(4 cells, spacing=0.5)"
    assert list(field.heights()) == [0.0, 0.5, 0.25, 1.0, 1.0] and field.point(3) == pebble.Vec2(1.5, 1.0)
    cell = field.cell(1)  # from x = 0.5 to 1.0, run right to left so that it faces up
    assert cell.a == pebble.Vec2(1.0, 0.25) and cell.b == pebble.Vec2(0.5, 0.5) and cell.normal.y > 0
    assert len(field.cells()) == 4 and field.chain().segment(0).a == field.cell(3).a
    assert pebble.Heightfield.make([0, 1], 1).cell_count() == 1  # a list works too
    # The world: fixed, contacts and hits name the cell.
    w = pebble.CollisionWorld()
    ground = w.add(field, pebble.Transform((-1, 0)), 5)
    assert w.part_count(ground) == 4 and w.options(ground).fixed and w.options(ground).user_data == 5
    ball = w.add(pebble.Shape.circle(0.2), pebble.Transform((0.75, 1.19)))  # x = 1.75 in the field's frame: over flat cell 3
    w.update()
    (pair,) = w.contacts()
    assert pair.a == ground and pair.b == ball and pair.part_a == 3 and pair.manifold.normal == pebble.Vec2(0, 1)
    hit = w.cast_ray(pebble.Ray((-0.25, 3), (0, -5)))  # x = 0.75 in the field's frame: cell 1
    assert hit is not None and hit.id == ground and hit.part == 1
    assert w.cast_ray(pebble.Ray((-0.25, -1), (0, 1.2))) is None  # from below: through its back
    opts = pebble.ColliderOptions(fixed=False)
    assert not w.options(w.add(field, pebble.Transform(), opts)).fixed
    for bad, message in [(([1.0], 1), "at least 2 heights"), (([0, float("nan")], 1), "height 1 (nan)"),
                         (([0, 1], 0), "spacing 0"), (([0, 1], 6e6 * 2), "width")]:
        with pytest.raises(pebble.InvalidShape, match=message.replace("(", r"\(").replace(")", r"\)")):
            pebble.Heightfield.make(*bad)
    with pytest.raises(ValueError, match="1D"):
        pebble.Heightfield.make(np.zeros((2, 2)), 1)
