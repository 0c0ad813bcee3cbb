// Fuzz target: the seed-004 toolbox (primitives.hpp) on arbitrary circles, segments, triangles and
// the three rectangle forms. Any input: no crash and no sanitizer report. Finite input: finite
// results (the header's promise), unit normals from nearest_edge(), the boolean tests agreeing
// with the functions that also say where (intersect / overlaps, penetration / overlaps), an empty
// hit giving zero vectors, shared points lying on both segments, boxes with lower <= upper.
#include <algorithm>
#include <cmath>
#include <limits>

#include <pebble/primitives.hpp>

#include "fuzz_input.hpp"
#include "invariants.hpp"

namespace pebble_fuzz::primitives_target {
namespace {

namespace prim = pebble::prim;

bool finite_all(std::initializer_list<pebble::Position> vs) {
  return std::all_of(vs.begin(), vs.end(), [](pebble::Position v) { return finite(v); });
}
bool finite_all(std::initializer_list<float> vs) {
  return std::all_of(vs.begin(), vs.end(), [](float v) { return std::isfinite(v); });
}

/// p lies in the box of a and b, give or take a few float steps of `big`, the largest coordinate
/// of the query (the shared point of two segments is computed from both in double, then rounded to
/// float once).
bool near_box_of(Vec2 p, Vec2 a, Vec2 b, float big) {
  const float slack = 4 * std::numeric_limits<float>::epsilon() * std::max(big, std::numeric_limits<float>::min());
  return p.x >= std::min(a.x, b.x) - slack && p.x <= std::max(a.x, b.x) + slack && p.y >= std::min(a.y, b.y) - slack &&
         p.y <= std::max(a.y, b.y) + slack;
}

}  // namespace

int run(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  while (!in.empty()) {
    const Vec2 p = in.vec2();
    const prim::Circle c{in.vec2(), in.number()};
    const prim::Segment s{in.vec2(), in.vec2()}, t{in.vec2(), in.vec2()};
    const prim::Triangle tri{in.vec2(), in.vec2(), in.vec2()}, tri2{in.vec2(), in.vec2(), in.vec2()};
    const prim::Box box{in.vec2(), in.vec2()}, box2{in.vec2(), in.vec2()};
    const prim::Rect rect{in.vec2(), in.vec2()}, rect2{in.vec2(), in.vec2()};
    const Vec2 l = in.vec2(), u = in.vec2();
    const Aabb aabb{pebble::min(l, u), pebble::max(l, u)};  // a proper box
    const Aabb aabb2{in.vec2(), in.vec2()};                 // maybe inverted

    // Everything runs on any input; what it returns is checked for finite input only.
    const Vec2 near[] = {prim::nearest_point(s, p),    prim::nearest_point(c, p),    prim::nearest_point(box, p),
                         prim::nearest_point(aabb, p), prim::nearest_point(rect, p), prim::nearest_point(tri, p)};
    const bool inside[] = {prim::contains(c, p), prim::contains(box, p), prim::contains(rect, p),
                           prim::contains(tri, p), prim::contains(aabb, p)};
    const prim::SegmentHit st = prim::intersect(s, t);
    const bool overlaps[] = {prim::overlaps(s, t),      prim::overlaps(s, c),        prim::overlaps(c, s),
                             prim::overlaps(c, c),      prim::overlaps(c, box),      prim::overlaps(c, aabb),
                             prim::overlaps(c, rect),   prim::overlaps(c, tri),      prim::overlaps(tri, tri2),
                             prim::overlaps(box, box2), prim::overlaps(rect, rect2), prim::overlaps(aabb, aabb2)};
    const prim::Penetration pen[] = {prim::penetration(box, box2), prim::penetration(rect, rect2),
                                     prim::penetration(aabb, aabb2)};
    const prim::NearestEdge edges[] = {prim::nearest_edge(c, p), prim::nearest_edge(box, p),
                                       prim::nearest_edge(aabb, p), prim::nearest_edge(rect, p)};
    const Aabb boxes[] = {
        prim::bounds(c),    prim::bounds(s),    prim::bounds(tri),   prim::bounds(box),
        prim::bounds(rect), prim::to_aabb(box), prim::to_aabb(rect), prim::bounds(std::span<const Vec2>(&tri.a, 3))};
    g_describe_input = [&] {
      return "  p " + lit(p) + ", circle {" + lit(c.center) + ", " + lit(c.radius) + "}, s {" + lit(s.a) + ", " +
             lit(s.b) + "}, t {" + lit(t.a) + ", " + lit(t.b) + "}\n  tri {" + lit(tri.a) + ", " + lit(tri.b) + ", " +
             lit(tri.c) + "}, tri2 {" + lit(tri2.a) + ", " + lit(tri2.b) + ", " + lit(tri2.c) + "}\n  box {" +
             lit(box.center) + ", " + lit(box.half_extents) + "}, box2 {" + lit(box2.center) + ", " +
             lit(box2.half_extents) + "}, rect {" + lit(rect.origin) + ", " + lit(rect.size) + "}, rect2 {" +
             lit(rect2.origin) + ", " + lit(rect2.size) + "}\n  aabb {" + lit(aabb.lower) + ", " + lit(aabb.upper) +
             "}, aabb2 {" + lit(aabb2.lower) + ", " + lit(aabb2.upper) + "}";
    };
    const prim::Box as_box = prim::to_box(aabb2);
    const prim::Rect as_rect = prim::to_rect(aabb2);
    (void)inside;

    const bool finite_input = finite_all({p,
                                          c.center,
                                          s.a,
                                          s.b,
                                          t.a,
                                          t.b,
                                          tri.a,
                                          tri.b,
                                          tri.c,
                                          tri2.a,
                                          tri2.b,
                                          tri2.c,
                                          box.center,
                                          box.half_extents,
                                          box2.center,
                                          box2.half_extents,
                                          rect.origin,
                                          rect.size,
                                          rect2.origin,
                                          rect2.size,
                                          aabb.lower,
                                          aabb.upper,
                                          aabb2.lower,
                                          aabb2.upper}) &&
                              finite_all({c.radius});
    if (!finite_input) continue;
    for (const Vec2 v : near) FUZZ_REQUIRE(finite(v));
    FUZZ_REQUIRE(st.hit == overlaps[0]);
    if (!st.hit) {
      FUZZ_REQUIRE(is_zero(st.point));
    } else {
      FUZZ_REQUIRE(finite(st.point));
      const float big = std::max({std::fabs(s.a.x), std::fabs(s.a.y), std::fabs(s.b.x), std::fabs(s.b.y),
                                  std::fabs(t.a.x), std::fabs(t.a.y), std::fabs(t.b.x), std::fabs(t.b.y)});
      // The crossing is interpolated from the orientations, each exact in sign and within its
      // filter's bound of the true value (pebble/detail/exact.hpp), so it lies in both segments'
      // boxes within a few float steps of the largest coordinate.
      FUZZ_REQUIRE(near_box_of(st.point, s.a, s.b, big) && near_box_of(st.point, t.a, t.b, big));
    }
    FUZZ_REQUIRE(pen[0].hit == overlaps[9]);
    FUZZ_REQUIRE(pen[1].hit == overlaps[10]);
    for (const prim::Penetration& q : pen) {
      FUZZ_REQUIRE(finite(q.separation));
      if (!q.hit) FUZZ_REQUIRE(is_zero(q.separation));
    }
    for (const prim::NearestEdge& e : edges) {
      FUZZ_REQUIRE(finite(e.point));
      FUZZ_REQUIRE(is_unit(e.normal));
    }
    for (const Aabb& b : boxes) check_box(b);
    FUZZ_REQUIRE(finite(as_box.center) && finite(as_box.half_extents) && as_box.half_extents.x >= 0 &&
                 as_box.half_extents.y >= 0);
    FUZZ_REQUIRE(finite(as_rect.origin) && finite(as_rect.size) && as_rect.size.x >= 0 && as_rect.size.y >= 0);
  }
  return 0;
}

}  // namespace pebble_fuzz::primitives_target

#ifndef PEBBLE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pebble_fuzz::primitives_target::run(data, size);
}
#endif
