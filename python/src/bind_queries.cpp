// The pair and point queries one at a time: point.hpp, manifold.hpp, distance.hpp, ray.hpp,
// cast.hpp, and their chain-segment forms (chain.hpp). Frames and signs as the headers state them.
#include "common.hpp"

namespace pebble::python {
namespace {

bool same(const ContactPoint& a, const ContactPoint& b) {
  return a.point == b.point && a.separation == b.separation && a.id == b.id;
}
bool same(const Manifold& a, const Manifold& b) {
  if (!(a.normal == b.normal) || a.count != b.count) return false;
  for (int i = 0; i < a.count; ++i)
    if (!same(a.points[i], b.points[i])) return false;
  return true;
}
bool same(const CastResult& a, const CastResult& b) {
  return a.hit == b.hit && a.fraction == b.fraction && a.point == b.point && a.normal == b.normal;
}

std::string repr(const ContactPoint& p) {
  char id[16];
  std::snprintf(id, sizeof id, "0x%08x", p.id);
  return "ContactPoint(point=Vec2" + fmt(p.point) + ", separation=" + fmt(p.separation) + ", id=" + id + ")";
}

const char* state_name(ToiResult::State s) {
  switch (s) {
    case ToiResult::State::hit:
      return "hit";
    case ToiResult::State::separated:
      return "separated";
    case ToiResult::State::overlapped:
      return "overlapped";
    case ToiResult::State::failed:
      return "failed";
  }
  return "?";
}

py::tuple pickled(const ContactPoint& p) { return py::make_tuple(python::pickled(p.point), p.separation, p.id); }
ContactPoint unpickled_contact_point(const py::handle& h) {
  const py::tuple t = state(h.cast<py::tuple>(), 3, "ContactPoint");
  ContactPoint p{};
  p.point = unpickled_vec2(t[0]);
  p.separation = t[1].cast<float>();
  p.id = t[2].cast<uint32_t>();
  return p;
}

}  // namespace

py::tuple pickled(const Manifold& mf) {
  py::tuple points(size_t(mf.count));
  for (int i = 0; i < mf.count; ++i) points[size_t(i)] = pickled(mf.points[i]);
  return py::make_tuple(pickled(mf.normal), points);
}

Manifold unpickled_manifold(const py::handle& h) {
  const py::tuple t = state(h.cast<py::tuple>(), 2, "Manifold");
  Manifold mf{};
  mf.normal = unpickled_vec2(t[0]);
  const auto points = t[1].cast<py::tuple>();
  if (points.size() > 2) throw py::value_error("Manifold: a pickled state of at most 2 points");
  mf.count = int(points.size());
  for (int i = 0; i < mf.count; ++i) mf.points[i] = unpickled_contact_point(points[size_t(i)]);
  return mf;
}

py::tuple pickled(const CastResult& h) {
  return py::make_tuple(h.hit, h.fraction, pickled(h.point), pickled(h.normal));
}

CastResult unpickled_cast_hit(const py::handle& h) {
  const py::tuple t = state(h.cast<py::tuple>(), 4, "CastResult");
  CastResult c{};
  c.hit = t[0].cast<bool>();
  c.fraction = t[1].cast<float>();
  c.point = unpickled_vec2(t[2]);
  c.normal = unpickled_vec2(t[3]);
  return c;
}

std::string repr_cast_hit(const CastResult& h) {
  return "CastResult(hit=" + fmt(h.hit) + ", fraction=" + fmt(h.fraction) + ", point=Vec2" + fmt(h.point) +
         ", normal=Vec2" + fmt(h.normal) + ")";
}

void bind_queries(py::module_& m) {
  py::class_<ProjectionResult>(m, "ProjectionResult", "Result of project_point, world space.")
      .def_readonly("point", &ProjectionResult::point, "closest point on the shape's boundary, world")
      .def_readonly("normal", &ProjectionResult::normal, "outward unit normal of the boundary at point, world")
      .def_readonly("distance", &ProjectionResult::distance,
                    "signed distance from the boundary to the query point (< 0 inside)")
      .def_readonly("inside", &ProjectionResult::inside, "the query point is inside or on the boundary (distance <= 0)")
      .def(
          "__bool__", [](const ProjectionResult& p) { return bool(p); },
          "True when there is an answer (distance < kHugeDistance): False only for invalid input.")
      .def(
          "__eq__",
          [](const ProjectionResult& a, const ProjectionResult& b) {
            return a.point == b.point && a.normal == b.normal && a.distance == b.distance && a.inside == b.inside;
          },
          py::is_operator())
      .def("__repr__",
           [](const ProjectionResult& p) {
             return "ProjectionResult(point=Vec2" + fmt(p.point) + ", normal=Vec2" + fmt(p.normal) +
                    ", distance=" + fmt(p.distance) + ", inside=" + fmt(p.inside) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const ProjectionResult& p) {
            return py::make_tuple(pickled(p.point), pickled(p.normal), p.distance, p.inside);
          },
          [](const py::tuple& t) {
            state(t, 4, "ProjectionResult");
            ProjectionResult p{};
            p.point = unpickled_vec2(t[0]);
            p.normal = unpickled_vec2(t[1]);
            p.distance = t[2].cast<float>();
            p.inside = t[3].cast<bool>();
            return p;
          }));
  m.def("project_point", &project_point, "shape"_a, "xf"_a, "p"_a,
        "Projects the world point p onto the boundary of shape placed at xf: closest boundary point, outward "
        "normal there, signed distance (< 0 inside), all world space. Invalid input gives distance kHugeDistance.");
  m.def("contains", py::overload_cast<const Shape&, const Transform&, Vec2>(&contains), "shape"_a, "xf"_a, "p"_a,
        "True when the world point p is inside the shape placed at xf or on its boundary.");

  py::class_<ContactPoint>(m, "ContactPoint", "One point of contact, world space.")
      .def_readonly("point", &ContactPoint::point, "midway between the two surfaces, world")
      .def_readonly("separation", &ContactPoint::separation,
                    "signed gap along the manifold normal; < 0 means penetration")
      .def_readonly("id", &ContactPoint::id, "feature key: the same from frame to frame while the same features touch")
      .def(
          "__eq__", [](const ContactPoint& a, const ContactPoint& b) { return same(a, b); }, py::is_operator())
      .def("__repr__", [](const ContactPoint& p) { return repr(p); })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](const ContactPoint& p) { return pickled(p); },
                      [](const py::tuple& t) { return unpickled_contact_point(t); }));

  py::class_<Manifold>(m, "Manifold", "Up to two contact points sharing one normal, world space.")
      .def_readonly("normal", &Manifold::normal, "unit, world, from A to B (moving B along it separates the shapes)")
      .def_readonly("count", &Manifold::count, "number of points: 0, 1 or 2")
      .def_property_readonly(
          "points", [](const Manifold& mf) { return std::vector<ContactPoint>(mf.points, mf.points + mf.count); },
          "the count contact points")
      .def("flipped", &Manifold::flipped,
           "The same manifold seen from the other shape: normal negated, feature ids swapped.")
      .def("__len__", [](const Manifold& mf) { return mf.count; })
      .def(
          "__eq__", [](const Manifold& a, const Manifold& b) { return same(a, b); }, py::is_operator())
      .def("__repr__",
           [](const Manifold& mf) {
             std::string s = "Manifold(normal=Vec2" + fmt(mf.normal) + ", points=[";
             for (int i = 0; i < mf.count; ++i) s += (i ? ", " : "") + repr(mf.points[i]);
             return s + "])";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](const Manifold& mf) { return pickled(mf); },
                      [](const py::tuple& t) { return unpickled_manifold(t); }));
  m.def("collide", py::overload_cast<const Shape&, const Transform&, const Shape&, const Transform&, float>(&collide),
        "a"_a, "xa"_a, "b"_a, "xb"_a, "margin"_a = 0.0f,
        "The contact manifold of shape a at xa and shape b at xb: every point whose separation is at most margin. "
        "count > 0 exactly when distance() <= margin. Normal world, from A to B. Invalid transforms give count 0.");
  m.def("collide",
        py::overload_cast<const ChainSegment&, const Transform&, const Shape&, const Transform&, float>(&collide),
        "segment"_a, "xs"_a, "b"_a, "xb"_a, "margin"_a = 0.0f,
        "The manifold of a chain segment (at xs) and shape b, one-sided, with the normals of a smooth surface; "
        "normal from the segment to b.");

  py::class_<DistanceResult>(m, "DistanceResult", "Signed distance and witness points, world space.")
      .def(
          "__bool__", [](const DistanceResult& d) { return bool(d); },
          "True when there is an answer (distance < kHugeDistance): False only for invalid input.")
      .def_readonly("distance", &DistanceResult::distance,
                    "> 0 separated, 0 touching, < 0 overlapping (minus the penetration depth)")
      .def_readonly("normal", &DistanceResult::normal,
                    "unit, world, from A to B: moving B by -distance * normal makes them just touch")
      .def_readonly("point_a", &DistanceResult::point_a, "on A's surface, world")
      .def_readonly("point_b", &DistanceResult::point_b, "on B's surface, world; point_b - point_a = normal * distance")
      .def(
          "__eq__",
          [](const DistanceResult& a, const DistanceResult& b) {
            return a.distance == b.distance && a.normal == b.normal && a.point_a == b.point_a && a.point_b == b.point_b;
          },
          py::is_operator())
      .def("__repr__",
           [](const DistanceResult& d) {
             return "DistanceResult(distance=" + fmt(d.distance) + ", normal=Vec2" + fmt(d.normal) + ", point_a=Vec2" +
                    fmt(d.point_a) + ", point_b=Vec2" + fmt(d.point_b) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const DistanceResult& d) {
            return py::make_tuple(d.distance, pickled(d.normal), pickled(d.point_a), pickled(d.point_b));
          },
          [](const py::tuple& t) {
            state(t, 4, "DistanceResult");
            DistanceResult d{};
            d.distance = t[0].cast<float>();
            d.normal = unpickled_vec2(t[1]);
            d.point_a = unpickled_vec2(t[2]);
            d.point_b = unpickled_vec2(t[3]);
            return d;
          }));
  m.def("distance", py::overload_cast<const Shape&, const Transform&, const Shape&, const Transform&>(&distance), "a"_a,
        "xa"_a, "b"_a, "xb"_a,
        "Exact signed distance between shape a at xa and shape b at xb, with witness points (world). Invalid "
        "transforms give distance kHugeDistance and zero vectors.");
  m.def("distance", py::overload_cast<const ChainSegment&, const Transform&, const Shape&, const Transform&>(&distance),
        "segment"_a, "xs"_a, "b"_a, "xb"_a, "The signed distance between a chain segment (both sides) and b.");
  m.def("overlap", &overlap, "a"_a, "xa"_a, "b"_a, "xb"_a, "True when the shapes touch or overlap (distance <= 0).");

  py::class_<Ray>(m, "Ray", "A ray segment in world space: from origin to origin + translation (fractions 0 to 1).")
      .def(py::init([](Vec2 o, Vec2 t) {
             return Ray{o, t};
           }),
           "origin"_a = Vec2{}, "translation"_a = Vec2{})
      .def_readwrite("origin", &Ray::origin)
      .def_readwrite("translation", &Ray::translation)
      .def(
          "__eq__", [](const Ray& a, const Ray& b) { return a.origin == b.origin && a.translation == b.translation; },
          py::is_operator())
      .def("__repr__",
           [](const Ray& r) {
             return "Ray(origin=Vec2" + fmt(r.origin) + ", translation=Vec2" + fmt(r.translation) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](const Ray& r) { return py::make_tuple(pickled(r.origin), pickled(r.translation)); },
                      [](const py::tuple& t) {
                        state(t, 2, "Ray");
                        return Ray{unpickled_vec2(t[0]), unpickled_vec2(t[1])};
                      }));

  py::class_<CastResult>(m, "CastResult",
                         "The answer of a cast, world space. No hit: CastResult(False, 1, (0,0), (0,0)).")
      .def_readonly("hit", &CastResult::hit, "the ray (or moving shape) meets the target within its translation")
      .def_readonly("fraction", &CastResult::fraction,
                    "of the translation at the first touch, in [0, 1]; 1 when there is no hit")
      .def_readonly("point", &CastResult::point, "the touching point, world (see each query)")
      .def_readonly("normal", &CastResult::normal, "unit, world (see each query); (0,0) when starting inside")
      .def(
          "__bool__", [](const CastResult& h) { return bool(h); }, "True when there is a hit.")
      .def(
          "__eq__", [](const CastResult& a, const CastResult& b) { return same(a, b); }, py::is_operator())
      .def("__repr__", &repr_cast_hit)
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](const CastResult& h) { return pickled(h); },
                      [](const py::tuple& t) { return unpickled_cast_hit(t); }));
  m.def("cast_ray", py::overload_cast<const Shape&, const Transform&, const Ray&>(&cast_ray), "shape"_a, "xf"_a,
        "ray"_a,
        "First point of the ray on the surface of shape at xf and the outward surface normal there (world). A ray "
        "starting inside hits at fraction 0 with normal (0, 0).");
  m.def("cast_ray", py::overload_cast<const Shape&, const Transform&, const Ray&, float>(&cast_ray), "shape"_a, "xf"_a,
        "ray"_a, "radius"_a,
        "Circle cast: a disc of the given radius whose centre moves along the ray; point on the shape's surface, "
        "normal the shape's outward normal there (world).");
  m.def("cast_ray", py::overload_cast<const ChainSegment&, const Transform&, const Ray&, float>(&cast_ray), "segment"_a,
        "xs"_a, "ray"_a, "radius"_a = 0.0f, "A ray (or disc) against the chain segment's front side only.");

  py::class_<ShapeCastOptions>(m, "ShapeCastOptions", "Options of cast_shape().")
      .def(py::init([](float t) { return ShapeCastOptions{t}; }), "target_separation"_a = 0.0f)
      .def_readwrite("target_separation", &ShapeCastOptions::target_separation,
                     "length (>= 0): stop where the distance falls to this instead of 0")
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](const ShapeCastOptions& o) { return py::make_tuple(o.target_separation); },
                      [](const py::tuple& t) {
                        state(t, 1, "ShapeCastOptions");
                        return ShapeCastOptions{t[0].cast<float>()};
                      }));
  m.def("cast_shape",
        py::overload_cast<const Shape&, const Transform&, Vec2, const Shape&, const Transform&, Vec2,
                          const ShapeCastOptions&>(&cast_shape),
        "a"_a, "xa"_a, "translation_a"_a, "b"_a, "xb"_a, "translation_b"_a, "options"_a = ShapeCastOptions{},
        "First fraction in [0, 1] of both motions (world) at which a and b touch (or come within "
        "options.target_separation). point: the contact point at that time; normal: unit, from A to B. Already "
        "touching: fraction 0 with the minimum-translation normal.");
  m.def("cast_shape",
        py::overload_cast<const Shape&, const Transform&, Vec2, const ChainSegment&, const Transform&, Vec2,
                          const ShapeCastOptions&>(&cast_shape),
        "a"_a, "xa"_a, "translation_a"_a, "segment"_a, "xs"_a, "translation_s"_a, "options"_a = ShapeCastOptions{},
        "Shape a cast against a chain segment, front side only; normal from a to the segment.");

  py::class_<Sweep>(m, "Sweep",
                    "A body's motion over one step: its rotation centre (shape frame) moves from c0 to c1 (world) "
                    "while it turns from angle a0 to a1 (radians).")
      .def(py::init([](Vec2 lc, Vec2 c0, Vec2 c1, float a0, float a1) {
             return Sweep{lc, c0, c1, a0, a1};
           }),
           "local_center"_a = Vec2{}, "c0"_a = Vec2{}, "c1"_a = Vec2{}, "a0"_a = 0.0f, "a1"_a = 0.0f)
      .def_readwrite("local_center", &Sweep::local_center)
      .def_readwrite("c0", &Sweep::c0)
      .def_readwrite("c1", &Sweep::c1)
      .def_readwrite("a0", &Sweep::a0)
      .def_readwrite("a1", &Sweep::a1)
      .def(
          "__eq__",
          [](const Sweep& a, const Sweep& b) {
            return a.local_center == b.local_center && a.c0 == b.c0 && a.c1 == b.c1 && a.a0 == b.a0 && a.a1 == b.a1;
          },
          py::is_operator())
      .def("__repr__",
           [](const Sweep& s) {
             return "Sweep(local_center=Vec2" + fmt(s.local_center) + ", c0=Vec2" + fmt(s.c0) + ", c1=Vec2" +
                    fmt(s.c1) + ", a0=" + fmt(s.a0) + ", a1=" + fmt(s.a1) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const Sweep& s) {
            return py::make_tuple(pickled(s.local_center), pickled(s.c0), pickled(s.c1), s.a0, s.a1);
          },
          [](const py::tuple& t) {
            state(t, 5, "Sweep");
            return Sweep{unpickled_vec2(t[0]), unpickled_vec2(t[1]), unpickled_vec2(t[2]), t[3].cast<float>(),
                         t[4].cast<float>()};
          }));
  m.def("sweep_transform", &sweep_transform, "sweep"_a, "t"_a,
        "The shape's transform at time t in [0, 1] of the sweep.");

  py::class_<ToiResult> toi(m, "ToiResult", "The answer of time_of_impact(), world space.");
  py::enum_<ToiResult::State>(toi, "State")
      .value("hit", ToiResult::State::hit, "touching at fraction and at no earlier time")
      .value("separated", ToiResult::State::separated, "apart up to t_max; fraction = t_max")
      .value("overlapped", ToiResult::State::overlapped, "overlapping at t = 0; fraction = 0")
      .value("failed", ToiResult::State::failed, "iteration cap reached; no contact before fraction");
  toi.def_readonly("state", &ToiResult::state)
      .def(
          "__bool__", [](const ToiResult& r) { return bool(r); },
          "True when the shapes touch at fraction (state hit or overlapped).")
      .def_readonly("fraction", &ToiResult::fraction, "time in [0, t_max], see state")
      .def_readonly("point", &ToiResult::point,
                    "hit or overlapped: midway between the closest points, world; else (0,0)")
      .def_readonly("normal", &ToiResult::normal, "hit or overlapped: unit, world, from A to B; else (0,0)")
      .def(
          "__eq__",
          [](const ToiResult& a, const ToiResult& b) {
            return a.state == b.state && a.fraction == b.fraction && a.point == b.point && a.normal == b.normal;
          },
          py::is_operator())
      .def("__repr__",
           [](const ToiResult& r) {
             return std::string("ToiResult(state=") + state_name(r.state) + ", fraction=" + fmt(r.fraction) +
                    ", point=Vec2" + fmt(r.point) + ", normal=Vec2" + fmt(r.normal) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const ToiResult& r) {
            return py::make_tuple(int(r.state), r.fraction, pickled(r.point), pickled(r.normal));
          },
          [](const py::tuple& t) {
            state(t, 4, "ToiResult");
            const int s = t[0].cast<int>();
            if (s < int(ToiResult::State::hit) || s > int(ToiResult::State::failed))
              throw py::value_error("ToiResult: no state " + std::to_string(s));
            ToiResult r{};
            r.state = ToiResult::State(s);
            r.fraction = t[1].cast<float>();
            r.point = unpickled_vec2(t[2]);
            r.normal = unpickled_vec2(t[3]);
            return r;
          }));
  py::class_<ToiOptions>(m, "ToiOptions", "Options of time_of_impact().")
      .def(py::init([](float target, float tolerance, int iterations) {
             return ToiOptions{target, tolerance, iterations};
           }),
           "target_separation"_a = 0.0f, "tolerance"_a = 0.0f, "max_iterations"_a = kMaxToiIterations)
      .def_readwrite("target_separation", &ToiOptions::target_separation,
                     "length (>= 0) at which the shapes count as touching")
      .def_readwrite("tolerance", &ToiOptions::tolerance, "length (> 0); 0 picks the default")
      .def_readwrite("max_iterations", &ToiOptions::max_iterations, "most distance evaluations before State.failed")
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const ToiOptions& o) { return py::make_tuple(o.target_separation, o.tolerance, o.max_iterations); },
          [](const py::tuple& t) {
            state(t, 3, "ToiOptions");
            return ToiOptions{t[0].cast<float>(), t[1].cast<float>(), t[2].cast<int>()};
          }));
  m.def("time_of_impact",
        py::overload_cast<const Shape&, const Sweep&, const Shape&, const Sweep&, float, const ToiOptions&>(
            &time_of_impact),
        "a"_a, "sweep_a"_a, "b"_a, "sweep_b"_a, "t_max"_a = 1.0f, "options"_a = ToiOptions{},
        "First time in [0, t_max] at which a moving by sweep_a and b moving by sweep_b touch (conservative "
        "advancement: never later than the true first touch). Point and normal (A to B) world, at that time.");
  m.def("time_of_impact",
        py::overload_cast<const Shape&, const Sweep&, const ChainSegment&, const Sweep&, float, const ToiOptions&>(
            &time_of_impact),
        "a"_a, "sweep_a"_a, "segment"_a, "sweep_s"_a, "t_max"_a = 1.0f, "options"_a = ToiOptions{},
        "time_of_impact() of shape a and a chain segment, front side only.");

  py::class_<ApproachResult>(m, "ApproachResult", "The answer of closest_approach(), world space.")
      .def_readonly("hit", &ApproachResult::hit, "the shapes touch or overlap at some time in [0, horizon]")
      .def_readonly("time", &ApproachResult::time,
                    "hit: the first time they touch (0 when they start so); else the time of least distance")
      .def_readonly("distance", &ApproachResult::distance,
                    "signed distance at that time: 0 at a touch, < 0 when starting overlapped")
      .def_readonly("point_a", &ApproachResult::point_a, "on A's surface at that time, world")
      .def_readonly("point_b", &ApproachResult::point_b,
                    "on B's surface at that time, world; point_b - point_a = normal * distance")
      .def_readonly("normal", &ApproachResult::normal, "unit, world, from A to B")
      .def(
          "__bool__", [](const ApproachResult& r) { return bool(r); },
          "True when the closest approach was found (distance < kHugeDistance): False only for invalid input; "
          "whether they touch is hit.")
      .def(
          "__eq__",
          [](const ApproachResult& a, const ApproachResult& b) {
            return a.hit == b.hit && a.time == b.time && a.distance == b.distance && a.point_a == b.point_a &&
                   a.point_b == b.point_b && a.normal == b.normal;
          },
          py::is_operator())
      .def("__repr__",
           [](const ApproachResult& r) {
             return "ApproachResult(hit=" + fmt(r.hit) + ", time=" + fmt(r.time) + ", distance=" + fmt(r.distance) +
                    ", point_a=Vec2" + fmt(r.point_a) + ", point_b=Vec2" + fmt(r.point_b) + ", normal=Vec2" +
                    fmt(r.normal) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const ApproachResult& r) {
            return py::make_tuple(r.hit, r.time, r.distance, pickled(r.point_a), pickled(r.point_b), pickled(r.normal));
          },
          [](const py::tuple& t) {
            state(t, 6, "ApproachResult");
            ApproachResult r{};
            r.hit = t[0].cast<bool>();
            r.time = t[1].cast<float>();
            r.distance = t[2].cast<float>();
            r.point_a = unpickled_vec2(t[3]);
            r.point_b = unpickled_vec2(t[4]);
            r.normal = unpickled_vec2(t[5]);
            return r;
          }));
  m.def("closest_approach",
        py::overload_cast<const Shape&, const Transform&, Vec2, const Shape&, const Transform&, Vec2, float>(
            &closest_approach),
        "a"_a, "xa"_a, "velocity_a"_a, "b"_a, "xb"_a, "velocity_b"_a, "horizon"_a,
        "How close a (at xa, moving at velocity_a) and b (at xb, velocity_b) come over [0, horizon], world: the "
        "first time they touch, or the time of least distance, with the distance and witness points then.");
  m.def("closest_approach",
        py::overload_cast<const Shape&, const Transform&, Vec2, const ChainSegment&, const Transform&, Vec2, float>(
            &closest_approach),
        "a"_a, "xa"_a, "velocity_a"_a, "segment"_a, "xs"_a, "velocity_s"_a, "horizon"_a,
        "closest_approach() of shape a and a chain segment, front side only.");
  m.def("time_to_collision", &time_to_collision, "a"_a, "xa"_a, "velocity_a"_a, "b"_a, "xb"_a, "velocity_b"_a,
        "horizon"_a,
        "The first time in [0, horizon] at which a (at xa, moving at velocity_a) and b (at xb, velocity_b) touch: 0 "
        "when they start touching or overlapping, kNoCollision (inf) when they do not by the horizon. "
        "closest_approach()'s "
        "time exactly when that is a hit, at less cost.");
}

}  // namespace pebble::python
