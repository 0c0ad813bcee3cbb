"""The naming pass (docs/api-changes.md): the new names, the old ones still working with a
DeprecationWarning, results that say whether there is an answer, None for the world's misses, and
InvalidSettings as an InvalidShape subclass."""
import pickle

import numpy as np
import pytest

import pebble
from pebble import batch

BOX = pebble.Shape.box(1, 0.5)
BALL = pebble.Shape.circle(0.25)
AT = pebble.Transform((2, 0), 0.3)
HITTING = pebble.Ray((-2, 0.1), (8, 0.2))
MISSING = pebble.Ray((-2, 5), (8, 0))


def world():
    w = pebble.CollisionWorld()
    box = w.add(BOX, AT)
    ball = w.add(BALL, pebble.Transform((2.5, 0.6)))
    w.update()
    return w, box, ball


OLD_NEW = [("raycast", "cast_ray"), ("shape_cast", "cast_shape"), ("CastHit", "CastResult"),
           ("Approach", "ApproachResult"), ("PointProjection", "ProjectionResult"),
           ("MoverCast", "MoverCastResult"), ("RayResult", "WorldCastResult")]


@pytest.mark.parametrize("old,new", OLD_NEW)
def test_old_module_names_warn_and_are_the_new_ones(old, new):
    assert new in pebble.__all__ and old not in pebble.__all__
    with pytest.warns(DeprecationWarning, match=f"pebble.{old} is deprecated: use pebble.{new}"):
        assert getattr(pebble, old) is getattr(pebble, new)
    with pytest.warns(DeprecationWarning):
        assert getattr(pebble._pebble, old) is getattr(pebble, new)


@pytest.mark.parametrize("old,new", [("raycast", "cast_ray"), ("shape_cast", "cast_shape"),
                                     ("CAST_HIT_DTYPE", "CAST_DTYPE"), ("POINT_PROJECTION_DTYPE", "PROJECTION_DTYPE"),
                                     ("RAY_RESULT_DTYPE", "WORLD_CAST_DTYPE")])
def test_old_batch_names_warn_and_are_the_new_ones(old, new):
    with pytest.warns(DeprecationWarning, match=f"pebble.batch.{old} is deprecated"):
        assert getattr(batch, old) is getattr(batch, new)


def test_unknown_names_still_raise_attribute_error():
    with pytest.raises(AttributeError):
        pebble.no_such_name
    with pytest.raises(AttributeError):
        batch.no_such_name


def test_old_functions_give_the_new_answers():
    with pytest.warns(DeprecationWarning):
        raycast, shape_cast = pebble.raycast, pebble.shape_cast
    for ray in (HITTING, MISSING):
        assert raycast(BOX, AT, ray) == pebble.cast_ray(BOX, AT, ray)
        assert raycast(BOX, AT, ray, 0.3) == pebble.cast_ray(BOX, AT, ray, 0.3)
    start = pebble.Transform((-2, 0))
    for move in ((6, 0), (0, 6)):
        assert shape_cast(BALL, start, move, BOX, AT, (0, 0)) == pebble.cast_shape(BALL, start, move, BOX, AT, (0, 0))
    with pytest.warns(DeprecationWarning):
        old_batch = batch.raycast
    rays = np.array([[-2, 0.1, 8, 0.2], [-2, 5, 8, 0]], np.float32)
    assert old_batch(BOX, AT, rays).tobytes() == batch.cast_ray(BOX, AT, rays).tobytes()
    assert batch.cast_ray(BOX, AT, rays).dtype == batch.CAST_DTYPE


def test_results_say_whether_there_is_an_answer():
    assert pebble.cast_ray(BOX, AT, HITTING) and not pebble.cast_ray(BOX, AT, MISSING)
    start = pebble.Transform((-2, 0))
    assert pebble.cast_shape(BALL, start, (6, 0), BOX, AT, (0, 0))
    assert not pebble.cast_shape(BALL, start, (0, 6), BOX, AT, (0, 0))
    bad = np.array([np.nan, 0, 1, 0])
    assert pebble.distance(BALL, start, BOX, AT)
    assert pebble.project_point(BOX, AT, (5, 5))
    touching = pebble.closest_approach(BALL, start, (6, 0), BOX, AT, (0, 0), 1)
    passing = pebble.closest_approach(BALL, start, (0, 6), BOX, AT, (0, 0), 1)
    assert touching and touching.hit and passing and not passing.hit
    try:  # invalid input: a NaN pose may be refused on the way in; when it gets through, the answer is falsy
        assert not pebble.distance(BALL, bad, BOX, AT)
    except (ValueError, TypeError):
        pass
    still = pebble.Sweep((0, 0), AT.p, AT.p, 0.3, 0.3)
    assert pebble.time_of_impact(BALL, pebble.Sweep((0, 0), (-2, 0), (4, 0)), BOX, still)
    assert not pebble.time_of_impact(BALL, pebble.Sweep((0, 0), (-2, 0), (-2, 6)), BOX, still)


def test_world_casts_give_a_result_or_none():
    w, box, _ = world()
    for hit, miss in ((w.cast_ray(HITTING), w.cast_ray(MISSING)),
                      (w.cast_circle(HITTING, 0.1), w.cast_circle(MISSING, 0.1)),
                      (w.cast_shape(pebble.Shape.circle(0.1), pebble.Transform(HITTING.origin), HITTING.translation),
                       w.cast_shape(pebble.Shape.circle(0.1), pebble.Transform(MISSING.origin), MISSING.translation))):
        assert isinstance(hit, pebble.WorldCastResult) and hit and hit.id == box and hit.hit.hit
        assert miss is None
    s = pickle.dumps(w.cast_ray(HITTING), protocol=0)
    assert b"WorldCastResult" in s
    # A pickle written by the last release names the old class; it still loads (with the warning).
    with pytest.warns(DeprecationWarning):
        old = pickle.loads(s.replace(b"WorldCastResult", b"RayResult"))
    assert old == w.cast_ray(HITTING)


def test_mover_cast_result():
    w, box, _ = world()
    hit = pebble.cast_mover(w, BALL, pebble.Transform((-2, 0)), (6, 0), 0.01)
    miss = pebble.cast_mover(w, BALL, pebble.Transform((-2, 0)), (0, -6), 0.01)
    assert isinstance(hit, pebble.MoverCastResult) and hit and hit.collider == box and not miss


def test_old_event_methods_warn_and_give_the_new_events():
    w, _, ball = world()
    assert len(w.touch_begin_events()) == 1
    with pytest.warns(DeprecationWarning, match="begin_touch_events.*touch_begin_events"):
        assert w.begin_touch_events() == w.touch_begin_events()
    with pytest.warns(DeprecationWarning):
        assert w.begin_part_touch_events() == w.part_touch_begin_events()
    w.set_transform(ball, pebble.Transform((9, 9)))
    w.update()
    assert len(w.touch_end_events()) == 1
    with pytest.warns(DeprecationWarning):
        assert w.end_touch_events() == w.touch_end_events()
    with pytest.warns(DeprecationWarning):
        assert w.end_part_touch_events() == w.part_touch_end_events()


def test_invalid_settings_is_an_invalid_shape_and_a_value_error():
    assert issubclass(pebble.InvalidSettings, pebble.InvalidShape)
    assert issubclass(pebble.InvalidSettings, ValueError)
    settings = pebble.MoverSettings()
    settings.skin = -1
    for kind in (pebble.InvalidSettings, pebble.InvalidShape, ValueError):
        with pytest.raises(kind, match="settings.skin"):
            pebble.CharacterMover(BALL, pebble.Transform(), settings)
    with pytest.raises(pebble.InvalidShape) as shape_error:
        pebble.Shape.circle(-1)
    assert not isinstance(shape_error.value, pebble.InvalidSettings)
