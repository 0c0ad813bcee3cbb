// distance(): the cores' signed distance minus both radii (the difference of two rounded shapes is
// the cores' difference grown by ra + rb [seed-detection §3] [seed-cpa §1]), from contact/core.hpp,
// shared with collide(). Compiled once per kernel copy, each copy's entry table at the end;
// overlap() and detail::distance_generic() with the base copy only.
#include "simd/config.hpp"

#if PEBBLE_KERNEL_ENABLED
PEBBLE_KERNEL_TARGET_BEGIN
#include "contact/core.hpp"
#include "empty_results.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

/// d is in `frame`'s coordinates and reads from A to B; add the radii and go to world.
DistanceResult to_world(const CoreDistance& d, float ra, float rb, const Transform& frame) {
  const Vec2 pa = d.point_a + ra * d.normal;
  const Vec2 pb = d.point_b - rb * d.normal;
  return {d.distance - ra - rb, rotate(frame.q, d.normal), transform_point(frame, pa), transform_point(frame, pb)};
}

}  // namespace

PEBBLE_HOT_INLINE DistanceResult distance_generic_body(const Shape& a, const Transform& xa, const Shape& b,
                                                       const Transform& xb) noexcept {
  if (!valid_pair(xa, xb)) return kNoDistance;
  CoreStorage sb;
  const FramedCore ca = view_core(a);
  const FramedCore cb = frame_core(b, inv_mul(xa, xb), sb);
  CoreDistance d = core_distance(ca, cb, pair_scale(a, b));
  if (d.overlapping) add_overlap_witness(d, ca, cb);
  return to_world(d, a.radius(), b.radius(), xa);
}

/// distance()'s fast path for a circle or point against anything. Lane twin for a 2- or 4-vertex
/// core: disc_core_distance() (contact/distance_lanes.hpp).
PEBBLE_HOT_INLINE DistanceResult distance_point_body(const Shape& a, const Transform& xa, const Shape& b,
                                                     const Transform& xb) noexcept {
  if (!valid_pair(xa, xb)) return kNoDistance;
  if (a.vertex_count() == 1 && b.vertex_count() == 1) {
    const CirclePair c = circle_pair(a, xa, b, xb);
    return {c.distance, c.normal, c.on_a, c.on_b};
  }
  const PointPair pp = point_pair(a, xa, b, xb);
  const float scale = pair_scale(a, b);
  const PointToCore r = point_to_core(*pp.core, *pp.q, pp.d, scale);
  const Vec2 n = r.normal;  // world, from the core to the point
  const Position on_core = pp.world - (r.distance - pp.core_radius) * n, on_point = pp.world - pp.point_radius * n;
  const float signed_distance = r.distance - a.radius() - b.radius();  // as collide() computes it
  return pp.point_is_a ? DistanceResult{signed_distance, -n, on_point, on_core}
                       : DistanceResult{signed_distance, n, on_core, on_point};
}

#define PEBBLE_DISTANCE_ENTRY(name)                                                                        \
  DistanceResult name(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept { \
    const DistanceResult d = name##_body(a, xa, b, xb);                                                    \
    leave_lanes();                                                                                         \
    return d;                                                                                              \
  }
PEBBLE_DISTANCE_ENTRY(distance_generic)
PEBBLE_DISTANCE_ENTRY(distance_point)
#undef PEBBLE_DISTANCE_ENTRY

extern const ContactKernels kKernels;
const ContactKernels kKernels{kLanePath,           &collide_generic,  &collide_capsules, &collide_circles,
                              &collide_point_core, &distance_generic, &distance_point};

}  // namespace pebble::detail::PEBBLE_KERNEL_NS
PEBBLE_KERNEL_TARGET_END
#endif  // PEBBLE_KERNEL_ENABLED

#if PEBBLE_KERNEL_COPY == 0
#include "test_hooks.hpp"

namespace pebble {

bool overlap(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  // The contract defines overlap as collide() at margin 0 having a point; asking collide() itself
  // makes disagreement impossible and reuses its early stop at the first separating axis.
  return collide(a, xa, b, xb, 0).count > 0;
}

namespace detail {

// (Its lane twin for two capsules: capsules_distance(), contact/distance_lanes.hpp.)
DistanceResult distance_generic(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  return contact_kernels().distance_generic(a, xa, b, xb);
}

}  // namespace detail
}  // namespace pebble
#endif
