// Signed distance between rounded convex shapes: the signed distance of the cores minus both
// radii (the Minkowski difference of two rounded shapes is the cores' difference grown by
// ra + rb, seed 002 "Minkowski difference"; seed 003 "Nearest distances and Minkowski sum").
// The core distance comes from contact_core.hpp, shared with collide() so that the two can
// never disagree.
#include "pebble/distance.hpp"

#include "contact_core.hpp"

namespace pebble {
namespace {

constexpr DistanceResult kNoDistance{kHugeDistance, {0, 0}, {0, 0}, {0, 0}};

}  // namespace

DistanceResult distance(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  if (!is_valid(xa) || !is_valid(xb)) return kNoDistance;
  detail::FramedCore ca, cb;
  detail::copy_core(a, ca);
  detail::frame_core(b, inv_mul(xa, xb), cb);
  const detail::CoreDistance d = detail::core_distance(ca, cb, detail::pair_scale(a, b));
  const Vec2 pa = d.point_a + a.radius() * d.normal;
  const Vec2 pb = d.point_b - b.radius() * d.normal;
  return {d.distance - a.radius() - b.radius(), rotate(xa.q, d.normal), transform_point(xa, pa), transform_point(xa, pb)};
}

bool overlap(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  return is_valid(xa) && is_valid(xb) && distance(a, xa, b, xb).distance <= 0;
}

}  // namespace pebble
