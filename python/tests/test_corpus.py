"""The bindings agree with the C++ library bit for bit: a corpus of random cases (and invalid
shapes) goes through python/tests/corpus.cpp, which calls the C++ API directly, and through the
Python module; every result field is compared as its 32 bits, every error message as text."""
import math
import random
import subprocess

import numpy

import pebble
from conftest import bits, f32

P = pebble


class Case:
    """One corpus line: the tokens for the C++ program and a function computing the same
    result fields through the bindings."""

    def __init__(self):
        self.tokens = []

    def num(self, x):
        x = f32(x)
        self.tokens.append(bits(x))
        return x

    def int(self, n):
        self.tokens.append(str(n))
        return n

    def word(self, w):
        self.tokens.append(w)


def random_shape(rng, case):
    """Writes a random shape maker to the case; returns a function making it in Python."""
    kind = rng.choice(["circle", "capsule", "segment", "box", "boxat", "rounded", "polygon", "polygon", "bad"])
    if kind == "bad":  # invalid input: the message must be the same
        kind = rng.choice(["circle", "rounded", "polygon"])
        case.word(kind)
        if kind == "circle":
            r, cx, cy = case.num(-rng.uniform(0.1, 1)), case.num(0), case.num(math.nan)
            return lambda: P.Shape.circle(r, (cx, cy))
        if kind == "rounded":
            w, h, c = case.num(0.5), case.num(0.3), case.num(0.4)
            return lambda: P.Shape.rounded_box(w, h, c)
        n = case.int(12)
        pts = [(case.num(math.cos(2 * math.pi * i / n)), case.num(math.sin(2 * math.pi * i / n))) for i in range(n)]
        r = case.num(0)
        return lambda: P.Shape.polygon(pts, r)
    case.word(kind)
    s = rng.uniform(0.05, 2.0)
    if kind == "circle":
        r, cx, cy = case.num(s), case.num(rng.uniform(-1, 1)), case.num(rng.uniform(-1, 1))
        return lambda: P.Shape.circle(r, (cx, cy))
    if kind == "capsule":
        a = (case.num(rng.uniform(-s, s)), case.num(rng.uniform(-s, s)))
        b = (case.num(rng.uniform(-s, s)), case.num(rng.uniform(-s, s)))
        r = case.num(rng.uniform(0, s))
        return lambda: P.Shape.capsule(a, b, r)
    if kind == "segment":
        a = (case.num(rng.uniform(-s, s)), case.num(rng.uniform(-s, s)))
        b = (case.num(rng.uniform(-s, s)), case.num(rng.uniform(-s, s)))
        return lambda: P.Shape.segment(a, b)
    if kind == "box":
        w, h = case.num(s), case.num(rng.uniform(0.05, 2))
        return lambda: P.Shape.box(w, h)
    if kind == "boxat":
        w, h = case.num(s), case.num(rng.uniform(0.05, 2))
        c = (case.num(rng.uniform(-1, 1)), case.num(rng.uniform(-1, 1)))
        a = case.num(rng.uniform(-3, 3))
        return lambda: P.Shape.box(w, h, c, a)
    if kind == "rounded":
        w, h = case.num(s), case.num(rng.uniform(0.05, 2))
        c = case.num(rng.uniform(0, min(w, h)))
        return lambda: P.Shape.rounded_box(w, h, c)
    n = case.int(rng.randint(1, 8))
    pts = [(case.num(rng.uniform(-s, s)), case.num(rng.uniform(-s, s))) for _ in range(n)]
    r = case.num(rng.choice([0, 0, rng.uniform(0, 0.3)]))
    return lambda: P.Shape.polygon(pts, r)


def random_transform(rng, case, spread=2.0):
    angle = rng.uniform(-math.pi, math.pi)
    p = (case.num(rng.uniform(-spread, spread)), case.num(rng.uniform(-spread, spread)))
    q = P.Rot(case.num(math.cos(angle)), case.num(math.sin(angle)))
    return P.Transform(p, q)


def vec(rng, case, s=2.0):
    return (case.num(rng.uniform(-s, s)), case.num(rng.uniform(-s, s)))


class Out:
    def __init__(self):
        self.tokens = []

    def f(self, x):
        self.tokens.append(bits(x))

    def v(self, p):
        self.f(p.x)
        self.f(p.y)

    def i(self, n):
        self.tokens.append(str(int(n)))

    def shape(self, s):
        self.i(s.vertex_count())
        for p in s.vertices():
            self.v(p)
        self.f(s.radius())

    def manifold(self, m):
        self.v(m.normal)
        self.i(m.count)
        for p in m.points:
            self.v(p.point)
            self.f(p.separation)
            self.i(p.id)

    def hit(self, h):
        self.i(h.hit)
        self.f(h.fraction)
        self.v(h.point)
        self.v(h.normal)

    def id(self, c):
        self.i(c.index)
        self.i(c.generation)


def make_case(rng, query):
    c = Case()
    c.word(query)
    o = Out()
    if query == "shape":
        sa = random_shape(rng, c)
        return c, lambda: o.shape(sa()) or o
    if query in ("collide", "distance", "overlap"):
        sa, xa = random_shape(rng, c), random_transform(rng, c)
        sb, xb = random_shape(rng, c), random_transform(rng, c)
        if query == "collide":
            margin = c.num(rng.choice([0, 0.02, 0.5]))

            def run():
                o.manifold(P.collide(sa(), xa, sb(), xb, margin))
                return o
        elif query == "distance":
            def run():
                d = P.distance(sa(), xa, sb(), xb)
                o.f(d.distance), o.v(d.normal), o.v(d.point_a), o.v(d.point_b)
                return o
        else:
            def run():
                o.i(P.overlap(sa(), xa, sb(), xb))
                return o
        return c, run
    if query in ("project", "contains"):
        s, xf, p = random_shape(rng, c), random_transform(rng, c), vec(rng, c)
        if query == "project":
            def run():
                r = P.project_point(s(), xf, p)
                o.v(r.point), o.v(r.normal), o.f(r.distance), o.i(r.inside)
                return o
        else:
            def run():
                o.i(P.contains(s(), xf, p))
                return o
        return c, run
    if query in ("raycast", "circlecast"):
        s, xf = random_shape(rng, c), random_transform(rng, c)
        ray = P.Ray(vec(rng, c, 4), vec(rng, c, 8))
        if query == "raycast":
            return c, lambda: o.hit(P.cast_ray(s(), xf, ray)) or o
        radius = c.num(rng.uniform(0, 0.5))
        return c, lambda: o.hit(P.cast_ray(s(), xf, ray, radius)) or o
    if query == "shapecast":
        sa, xa, ta = random_shape(rng, c), random_transform(rng, c), vec(rng, c, 6)
        sb, xb, tb = random_shape(rng, c), random_transform(rng, c), vec(rng, c, 6)
        sep = c.num(rng.choice([0, 0.01]))
        return c, lambda: o.hit(P.cast_shape(sa(), xa, ta, sb(), xb, tb, P.ShapeCastOptions(sep))) or o
    if query == "toi":
        def sweep():
            return P.Sweep(vec(rng, c, 0.3), vec(rng, c, 3), vec(rng, c, 3), c.num(rng.uniform(-3, 3)), c.num(rng.uniform(-3, 3)))
        sa = random_shape(rng, c)
        wa = sweep()
        sb = random_shape(rng, c)
        wb = sweep()
        t_max = c.num(rng.choice([1, 0.5]))

        def run():
            t = P.time_of_impact(sa(), wa, sb(), wb, t_max)
            o.i(int(t.state)), o.f(t.fraction), o.v(t.point), o.v(t.normal)
            return o
        return c, run
    if query == "approach":
        sa, xa, va = random_shape(rng, c), random_transform(rng, c, 4), vec(rng, c, 3)
        sb, xb, vb = random_shape(rng, c), random_transform(rng, c, 4), vec(rng, c, 3)
        horizon = c.num(rng.uniform(0, 3))

        def run():
            a = P.closest_approach(sa(), xa, va, sb(), xb, vb, horizon)
            o.i(a.hit), o.f(a.time), o.f(a.distance), o.v(a.point_a), o.v(a.point_b), o.v(a.normal)
            return o
        return c, run
    if query == "mass":
        s, density = random_shape(rng, c), c.num(rng.uniform(0.1, 10))

        def run():
            shape = s()
            m = P.mass_properties(shape, density)
            o.f(m.mass), o.v(m.center), o.f(m.inertia), o.f(P.area(shape))
            return o
        return c, run
    if query == "bounds":
        s, xf = random_shape(rng, c), random_transform(rng, c, 100)

        def run():
            b = P.bounds(s(), xf)
            o.v(b.lower), o.v(b.upper)
            return o
        return c, run
    if query == "decompose":
        # A star: concave, simple.
        n = c.int(rng.randint(5, 14))
        pts = []
        for k in range(n):
            r = rng.uniform(0.4, 1.0) if k % 2 else rng.uniform(1.2, 2.0)
            a = 2 * math.pi * k / n
            pts.append((c.num(r * math.cos(a)), c.num(r * math.sin(a))))
        radius = c.num(rng.choice([0, 0.05]))

        def run():
            parts = P.decompose(pts, radius)
            o.i(len(parts))
            for s in parts:
                o.shape(s)
            return o
        return c, run
    if query == "chain":
        n = c.int(rng.randint(3, 7))
        pts = [(c.num(3 * math.cos(2 * math.pi * k / n)), c.num(3 * math.sin(2 * math.pi * k / n))) for k in range(n)]
        s, xf, margin = random_shape(rng, c), random_transform(rng, c, 3), c.num(0.05)

        def run():
            chain = P.Chain.loop(pts)
            shape = s()
            for seg in chain.segments():
                o.manifold(P.collide(seg, P.Transform.identity(), shape, xf, margin))
            return o
        return c, run
    if query == "world":
        n = c.int(rng.randint(2, 8))
        items = [(random_shape(rng, c), random_transform(rng, c, 1.5)) for _ in range(n)]
        ray = P.Ray(vec(rng, c, 4), vec(rng, c, 8))

        def run():
            w = P.CollisionWorld()
            for s, xf in items:
                w.add(s(), xf)
            w.update()
            contacts = w.contacts()
            o.i(len(contacts))
            for pair in contacts:
                o.id(pair.a), o.id(pair.b), o.manifold(pair.manifold)
            hit = w.cast_ray(ray)
            o.i(hit is not None)
            if hit is not None:
                o.id(hit.id), o.hit(hit.hit)
            return o
        return c, run
    raise AssertionError(query)


QUERIES = ["shape", "collide", "distance", "overlap", "project", "contains", "raycast", "circlecast", "shapecast",
           "toi", "approach", "mass", "bounds", "decompose", "chain", "world"]


def test_bindings_match_cpp_bit_for_bit(corpus_program):
    rng = random.Random(23)
    cases = [make_case(rng, q) for q in QUERIES for _ in range(150)]
    text = "\n".join(" ".join(c.tokens) for c, _ in cases) + "\n"
    out = subprocess.run([corpus_program], input=text, capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(cases)
    errors = 0
    for (case, run), expected in zip(cases, out):
        try:
            got = ("ok " + " ".join(run().tokens)).rstrip()
        except pebble.InvalidShape as e:
            got = f"error {e}"
            errors += 1
        assert got == expected.rstrip(), f"{' '.join(case.tokens)}\n python: {got}\n    C++: {expected}"
    assert errors > 50, "the corpus should hold invalid shapes too"
    assert errors < len(cases) // 2


def test_the_comparison_can_fail(corpus_program):
    """One result field changed by one ulp is noticed."""
    case = Case()
    case.word("distance")
    a = random_shape(random.Random(1), case)
    xa = random_transform(random.Random(2), case)
    case.word("circle")
    r, cx, cy = case.num(0.5), case.num(0), case.num(0)
    xb = P.Transform((case.num(3), case.num(0)), P.Rot(case.num(1), case.num(0)))
    expected = subprocess.run([corpus_program], input=" ".join(case.tokens) + "\n", capture_output=True, text=True).stdout.split()
    d = P.distance(a(), xa, P.Shape.circle(r, (cx, cy)), xb)
    assert expected[1] == bits(d.distance)
    one_ulp_more = float(numpy.nextafter(numpy.float32(d.distance), numpy.float32(numpy.inf)))
    assert bits(one_ulp_more) != expected[1]
