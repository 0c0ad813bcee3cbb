"""Rotations from Python: pebble's own trigonometry (Rot.from_angle, Rot.angle) against the C
library's double functions rounded to float32, and Rot.normalized() (docs/robustness.md, Rotations)."""
import math
import random

import numpy as np
import pebble


def test_from_angle_is_the_nearest_float32_of_cos_and_sin():
    rng = random.Random(33)
    differ = 0
    for i in range(20000):
        a = float(np.float32(rng.uniform(-10, 10) if i % 2 else rng.uniform(-1e4, 1e4)))
        q = pebble.Rot.from_angle(a)
        # glibc's double cos and sin are within an ulp of double, so their float32 rounding is the
        # nearest float but in a double-rounding case once in billions: pebble's must equal it.
        differ += q.c != np.float32(math.cos(a)) or q.s != np.float32(math.sin(a))
    assert differ == 0


def test_angle_inverts_from_angle_and_keeps_cs_signs():
    for a in np.linspace(-3.1, 3.1, 1001, dtype=np.float32):
        assert abs(pebble.Rot.from_angle(float(a)).angle() - a) <= 4e-7
    assert pebble.Rot(-1.0, -0.0).angle() == np.float32(-math.pi)
    assert pebble.Rot(-1.0, 0.0).angle() == np.float32(math.pi)


def test_normalized_repairs_a_drifted_rotation():
    q = pebble.Rot(1.01, 0.02)
    box = pebble.Shape.box(1, 1)
    far = pebble.Transform((3, 0), 0.0)
    # 1.01^2 is 2e-2 off unit length, far past the 1e-5 the queries accept: the empty result.
    assert pebble.distance(box, pebble.Transform((0, 0), q), box, far).distance > 1e38
    n = q.normalized()
    assert abs(n.c * n.c + n.s * n.s - 1) < 3e-7
    d = pebble.distance(box, pebble.Transform((0, 0), n), box, far)
    assert 0.9 < d.distance < 1.0
    assert pebble.Rot(0, 0).normalized() == pebble.Rot.identity()
