// Signed distance between rounded convex shapes: the signed distance of the cores minus both
// radii (the Minkowski difference of two rounded shapes is the cores' difference grown by
// ra + rb, seed 002 "Minkowski difference"; seed 003 "Nearest distances and Minkowski sum").
// The core distance comes from contact_core.hpp, shared with collide() so that the two can
// never disagree.
#include "pebble/distance.hpp"
#include "pebble/manifold.hpp"

#include "contact_core.hpp"

namespace pebble {
namespace {

constexpr DistanceResult kNoDistance{kHugeDistance, {0, 0}, {0, 0}, {0, 0}};

/// d is in `frame`'s coordinates and reads from A to B; add the radii and go to world.
DistanceResult to_world(const detail::CoreDistance& d, float ra, float rb, const Transform& frame) {
  const Vec2 pa = d.point_a + ra * d.normal;
  const Vec2 pb = d.point_b - rb * d.normal;
  return {d.distance - ra - rb, rotate(frame.q, d.normal), transform_point(frame, pa), transform_point(frame, pb)};
}

}  // namespace

namespace detail {

DistanceResult distance_generic(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  if (!detail::valid_pair(xa, xb)) return kNoDistance;
  CoreStorage sb;
  const FramedCore ca = view_core(a);
  const FramedCore cb = frame_core(b, inv_mul(xa, xb), sb);
  CoreDistance d = core_distance(ca, cb, pair_scale(a, b));
  if (d.overlapping) add_overlap_witness(d, ca, cb);
  return to_world(d, a.radius(), b.radius(), xa);
}

}  // namespace detail

DistanceResult distance(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  if (a.vertex_count() != 1 && b.vertex_count() != 1) return detail::distance_generic(a, xa, b, xb);
  // Fast path: a circle or point against anything (bench/contacts_bench.cpp measures it).
  if (!detail::valid_pair(xa, xb)) return kNoDistance;
  if (a.vertex_count() == 1 && b.vertex_count() == 1) {
    const detail::CirclePair c = detail::circle_pair(a, xa, b, xb);
    return {c.distance, c.normal, c.on_a, c.on_b};
  }
  const detail::PointPair pp = detail::point_pair(a, xa, b, xb);
  const float scale = detail::pair_scale(a, b);
  const detail::PointToCore r = detail::point_to_core(*pp.core, *pp.q, pp.d, scale, detail::kClipFraction * scale);
  const Vec2 n = r.normal;  // world, from the core to the point
  const Vec2 on_core = pp.world - (r.distance - pp.core_radius) * n, on_point = pp.world - pp.point_radius * n;
  const float signed_distance = r.distance - a.radius() - b.radius();  // as collide() computes it
  return pp.point_is_a ? DistanceResult{signed_distance, -n, on_point, on_core}
                       : DistanceResult{signed_distance, n, on_core, on_point};
}

bool overlap(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  // The contract defines overlap as collide() at margin 0 having a point; asking collide()
  // itself makes disagreement impossible and reuses its early stop at the first separating axis.
  return collide(a, xa, b, xb, 0).count > 0;
}

}  // namespace pebble
