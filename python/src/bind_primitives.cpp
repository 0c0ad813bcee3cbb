// pebble.prim: the seed-004 toolbox on plain structs (pebble/primitives.hpp). y up; the boundary
// counts as inside; every yes/no answer is exact for the float inputs.
#include "common.hpp"

namespace pebble::python {

void bind_primitives(py::module_& top) {
  namespace pr = pebble::prim;
  py::module_ m = top.def_submodule(
      "prim",
      "The toolbox on plain structs (pebble/primitives.hpp): nearest points, containment, overlap, segment crossing, "
      "box "
      "push-out. y up; the boundary counts as inside, so touching counts as intersecting; every yes/no answer is exact "
      "for the float32 inputs. Aabb, combine, contains(Aabb, ...) and overlaps(Aabb, Aabb) are pebble's own.");

  py::class_<pr::Circle>(m, "Circle", "A disc: every point within radius of center (a negative radius counts as 0).")
      .def(py::init([](Vec2 c, float r) {
             return pr::Circle{c, r};
           }),
           "center"_a = Vec2{}, "radius"_a = 0.0f)
      .def_readwrite("center", &pr::Circle::center)
      .def_readwrite("radius", &pr::Circle::radius)
      .def(
          "__eq__",
          [](const pr::Circle& a, const pr::Circle& b) { return a.center == b.center && a.radius == b.radius; },
          py::is_operator())
      .def("__repr__", [](const pr::Circle& c) {
        return "Circle(center=Vec2" + fmt(c.center) + ", radius=" + fmt(c.radius) + ")";
      });
  py::class_<pr::Segment>(m, "Segment", "The closed segment from a to b; a == b is a point.")
      .def(py::init([](Vec2 a, Vec2 b) {
             return pr::Segment{a, b};
           }),
           "a"_a = Vec2{}, "b"_a = Vec2{})
      .def_readwrite("a", &pr::Segment::a)
      .def_readwrite("b", &pr::Segment::b)
      .def(
          "__eq__", [](const pr::Segment& x, const pr::Segment& y) { return x.a == y.a && x.b == y.b; },
          py::is_operator())
      .def("__repr__", [](const pr::Segment& s) { return "Segment(a=Vec2" + fmt(s.a) + ", b=Vec2" + fmt(s.b) + ")"; });
  py::class_<pr::Triangle>(m, "Triangle", "The closed triangle abc, either winding.")
      .def(py::init([](Vec2 a, Vec2 b, Vec2 c) {
             return pr::Triangle{a, b, c};
           }),
           "a"_a = Vec2{}, "b"_a = Vec2{}, "c"_a = Vec2{})
      .def_readwrite("a", &pr::Triangle::a)
      .def_readwrite("b", &pr::Triangle::b)
      .def_readwrite("c", &pr::Triangle::c)
      .def(
          "__eq__", [](const pr::Triangle& x, const pr::Triangle& y) { return x.a == y.a && x.b == y.b && x.c == y.c; },
          py::is_operator())
      .def("__repr__", [](const pr::Triangle& t) {
        return "Triangle(a=Vec2" + fmt(t.a) + ", b=Vec2" + fmt(t.b) + ", c=Vec2" + fmt(t.c) + ")";
      });
  py::class_<pr::Box>(m, "Box", "An axis-aligned rectangle by its center and half extents (negative counts as 0).")
      .def(py::init([](Vec2 c, Vec2 h) {
             return pr::Box{c, h};
           }),
           "center"_a = Vec2{}, "half_extents"_a = Vec2{})
      .def_readwrite("center", &pr::Box::center)
      .def_readwrite("half_extents", &pr::Box::half_extents)
      .def(
          "__eq__",
          [](const pr::Box& x, const pr::Box& y) { return x.center == y.center && x.half_extents == y.half_extents; },
          py::is_operator())
      .def("__repr__", [](const pr::Box& b) {
        return "Box(center=Vec2" + fmt(b.center) + ", half_extents=Vec2" + fmt(b.half_extents) + ")";
      });
  py::class_<pr::Rect>(m, "Rect",
                       "An axis-aligned rectangle by its lower-left corner and its size (negative counts as 0).")
      .def(py::init([](Vec2 o, Vec2 s) {
             return pr::Rect{o, s};
           }),
           "origin"_a = Vec2{}, "size"_a = Vec2{})
      .def_readwrite("origin", &pr::Rect::origin)
      .def_readwrite("size", &pr::Rect::size)
      .def(
          "__eq__", [](const pr::Rect& x, const pr::Rect& y) { return x.origin == y.origin && x.size == y.size; },
          py::is_operator())
      .def("__repr__",
           [](const pr::Rect& r) { return "Rect(origin=Vec2" + fmt(r.origin) + ", size=Vec2" + fmt(r.size) + ")"; });

  py::class_<pr::SegmentHit>(m, "SegmentHit", "Result of intersect(Segment, Segment).")
      .def_readonly("hit", &pr::SegmentHit::hit, "the closed segments share at least one point")
      .def_readonly("point", &pr::SegmentHit::point,
                    "a shared point ((0,0) without hit); collinear overlap: the one nearest s.a")
      .def(
          "__eq__",
          [](const pr::SegmentHit& x, const pr::SegmentHit& y) { return x.hit == y.hit && x.point == y.point; },
          py::is_operator())
      .def("__repr__", [](const pr::SegmentHit& h) {
        return "SegmentHit(hit=" + fmt(h.hit) + ", point=Vec2" + fmt(h.point) + ")";
      });
  py::class_<pr::Penetration>(m, "Penetration", "Result of penetration() between two rectangles.")
      .def_readonly("hit", &pr::Penetration::hit, "the closed rectangles share at least one point")
      .def_readonly("separation", &pr::Penetration::separation,
                    "move the SECOND rectangle by this to make them just touch")
      .def(
          "__eq__",
          [](const pr::Penetration& x, const pr::Penetration& y) {
            return x.hit == y.hit && x.separation == y.separation;
          },
          py::is_operator())
      .def("__repr__", [](const pr::Penetration& p) {
        return "Penetration(hit=" + fmt(p.hit) + ", separation=Vec2" + fmt(p.separation) + ")";
      });
  py::class_<pr::NearestEdge>(m, "NearestEdge", "The nearest boundary point to a point and the outward normal there.")
      .def_readonly("point", &pr::NearestEdge::point)
      .def_readonly("normal", &pr::NearestEdge::normal)
      .def(
          "__eq__",
          [](const pr::NearestEdge& x, const pr::NearestEdge& y) { return x.point == y.point && x.normal == y.normal; },
          py::is_operator())
      .def("__repr__", [](const pr::NearestEdge& e) {
        return "NearestEdge(point=Vec2" + fmt(e.point) + ", normal=Vec2" + fmt(e.normal) + ")";
      });

  m.def(
      "to_aabb", [](const pr::Box& b) { return pr::to_aabb(b); }, "box"_a);
  m.def(
      "to_aabb", [](const pr::Rect& r) { return pr::to_aabb(r); }, "rect"_a);
  m.def(
      "to_box", [](const Aabb& a) { return pr::to_box(a); }, "aabb"_a);
  m.def(
      "to_rect", [](const Aabb& a) { return pr::to_rect(a); }, "aabb"_a);
  m.def(
      "combine", [](const Aabb& a, const Aabb& b) { return combine(a, b); }, "a"_a, "b"_a,
      "The smallest Aabb holding both.");

  m.def(
      "bounds", [](const pr::Circle& c) { return pr::bounds(c); }, "circle"_a);
  m.def(
      "bounds", [](const pr::Segment& s) { return pr::bounds(s); }, "segment"_a);
  m.def(
      "bounds", [](const pr::Triangle& t) { return pr::bounds(t); }, "triangle"_a);
  m.def(
      "bounds", [](const pr::Box& b) { return pr::bounds(b); }, "box"_a);
  m.def(
      "bounds", [](const pr::Rect& r) { return pr::bounds(r); }, "rect"_a);
  m.def(
      "bounds", [](const PointList& p) { return pr::bounds(std::span<const Vec2>(p.points)); }, "points"_a,
      "The smallest Aabb holding every point; no points gives Aabb().");

  m.def(
      "nearest_point", [](const pr::Segment& s, Vec2 p) { return pr::nearest_point(s, p); }, "segment"_a, "p"_a);
  m.def(
      "nearest_point", [](const pr::Circle& c, Vec2 p) { return pr::nearest_point(c, p); }, "circle"_a, "p"_a);
  m.def(
      "nearest_point", [](const pr::Box& b, Vec2 p) { return pr::nearest_point(b, p); }, "box"_a, "p"_a);
  m.def(
      "nearest_point", [](const Aabb& a, Vec2 p) { return pr::nearest_point(a, p); }, "aabb"_a, "p"_a);
  m.def(
      "nearest_point", [](const pr::Rect& r, Vec2 p) { return pr::nearest_point(r, p); }, "rect"_a, "p"_a);
  m.def(
      "nearest_point", [](const pr::Triangle& t, Vec2 p) { return pr::nearest_point(t, p); }, "triangle"_a, "p"_a,
      "The point of the filled shape closest to p (p itself when inside).");

  m.def(
      "contains", [](const pr::Circle& c, Vec2 p) { return pr::contains(c, p); }, "circle"_a, "p"_a);
  m.def(
      "contains", [](const pr::Box& b, Vec2 p) { return pr::contains(b, p); }, "box"_a, "p"_a);
  m.def(
      "contains", [](const pr::Rect& r, Vec2 p) { return pr::contains(r, p); }, "rect"_a, "p"_a);
  m.def(
      "contains", [](const pr::Triangle& t, Vec2 p) { return pr::contains(t, p); }, "triangle"_a, "p"_a);
  m.def(
      "contains", [](const Aabb& a, Vec2 p) { return pebble::contains(a, p); }, "aabb"_a, "p"_a);
  m.def(
      "contains", [](const Aabb& a, const Aabb& b) { return pebble::contains(a, b); }, "aabb"_a, "other"_a,
      "True when the point (or box) is inside or on the boundary; exact.");

  m.def(
      "intersect", [](const pr::Segment& s, const pr::Segment& t) { return pr::intersect(s, t); }, "s"_a, "t"_a,
      "Where two closed segments meet (collinear overlap: the shared point nearest s.a).");

  m.def(
      "overlaps", [](const pr::Segment& s, const pr::Segment& t) { return pr::overlaps(s, t); }, "s"_a, "t"_a);
  m.def(
      "overlaps", [](const pr::Segment& s, const pr::Circle& c) { return pr::overlaps(s, c); }, "s"_a, "c"_a);
  m.def(
      "overlaps", [](const pr::Circle& c, const pr::Segment& s) { return pr::overlaps(c, s); }, "c"_a, "s"_a);
  m.def(
      "overlaps", [](const pr::Circle& a, const pr::Circle& b) { return pr::overlaps(a, b); }, "a"_a, "b"_a);
  m.def(
      "overlaps", [](const pr::Circle& c, const pr::Box& b) { return pr::overlaps(c, b); }, "c"_a, "b"_a);
  m.def(
      "overlaps", [](const pr::Box& b, const pr::Circle& c) { return pr::overlaps(b, c); }, "b"_a, "c"_a);
  m.def(
      "overlaps", [](const pr::Circle& c, const Aabb& a) { return pr::overlaps(c, a); }, "c"_a, "a"_a);
  m.def(
      "overlaps", [](const Aabb& a, const pr::Circle& c) { return pr::overlaps(a, c); }, "a"_a, "c"_a);
  m.def(
      "overlaps", [](const pr::Circle& c, const pr::Rect& r) { return pr::overlaps(c, r); }, "c"_a, "r"_a);
  m.def(
      "overlaps", [](const pr::Rect& r, const pr::Circle& c) { return pr::overlaps(r, c); }, "r"_a, "c"_a);
  m.def(
      "overlaps", [](const pr::Circle& c, const pr::Triangle& t) { return pr::overlaps(c, t); }, "c"_a, "t"_a);
  m.def(
      "overlaps", [](const pr::Triangle& t, const pr::Circle& c) { return pr::overlaps(t, c); }, "t"_a, "c"_a);
  m.def(
      "overlaps", [](const pr::Triangle& s, const pr::Triangle& t) { return pr::overlaps(s, t); }, "s"_a, "t"_a);
  m.def(
      "overlaps", [](const pr::Box& a, const pr::Box& b) { return pr::overlaps(a, b); }, "a"_a, "b"_a);
  m.def(
      "overlaps", [](const pr::Rect& a, const pr::Rect& b) { return pr::overlaps(a, b); }, "a"_a, "b"_a);
  m.def(
      "overlaps", [](const Aabb& a, const Aabb& b) { return pebble::overlaps(a, b); }, "a"_a, "b"_a,
      "True when the closed shapes share at least one point (touching counts); exact.");

  m.def(
      "penetration", [](const pr::Box& a, const pr::Box& b) { return pr::penetration(a, b); }, "a"_a, "b"_a);
  m.def(
      "penetration", [](const Aabb& a, const Aabb& b) { return pr::penetration(a, b); }, "a"_a, "b"_a);
  m.def(
      "penetration", [](const pr::Rect& a, const pr::Rect& b) { return pr::penetration(a, b); }, "a"_a, "b"_a,
      "Overlap of two rectangles and the minimum translation of b (axis of least overlap) that makes them just touch.");

  m.def(
      "nearest_edge", [](const pr::Circle& c, Vec2 p) { return pr::nearest_edge(c, p); }, "circle"_a, "p"_a);
  m.def(
      "nearest_edge", [](const pr::Box& b, Vec2 p) { return pr::nearest_edge(b, p); }, "box"_a, "p"_a);
  m.def(
      "nearest_edge", [](const Aabb& a, Vec2 p) { return pr::nearest_edge(a, p); }, "aabb"_a, "p"_a);
  m.def(
      "nearest_edge", [](const pr::Rect& r, Vec2 p) { return pr::nearest_edge(r, p); }, "rect"_a, "p"_a,
      "The boundary point nearest p and the outward normal there (ties: the positive side, then x).");
}

}  // namespace pebble::python
