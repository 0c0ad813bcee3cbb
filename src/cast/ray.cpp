// cast_ray() and the circle cast: src/cast/ray_core.hpp's ray against a rounded polygon [seed-rounded §8]
// in the shape's frame, the core grown by the shape's radius (plus the circle's for a circle cast).
#include "pebble/ray.hpp"

#include <bit>
#include <cstdint>

#include "cast/ray_core.hpp"

#include "empty_results.hpp"
#include "simd/config.hpp"
#include "simd/wide.hpp"

namespace pebble {
namespace {

using detail::kNoHit;

using cast_core::LocalHit;

/// is_valid(xf), and both ray vectors within kMaxWorldCoordinate (NaN fails every comparison). Asked
/// only before a hit is reported: bad input gives a miss anyway, every loop having a fixed bound.
PEBBLE_HOT_INLINE bool valid_input(const Transform& xf, const Ray& ray) {
  const bool rotation = std::fabs(xf.q.c * xf.q.c + xf.q.s * xf.q.s - 1.0f) <= kRotationTolerance;
#if PEBBLE_DOUBLE_POSITIONS
  return rotation & is_valid_point(xf.p) & is_valid_point(ray.origin) & is_valid_point(ray.translation);
#else
  // Both structs are four floats: all eight bounded in two compares (c and s pass with the rotation test).
  using F = detail::base::Float4;
  static_assert(sizeof(Transform) == 4 * sizeof(float) && sizeof(Ray) == 4 * sizeof(float));
  const F bound = F::splat(kMaxWorldCoordinate);
  return rotation & all((abs(F::load(&xf.p.x)) <= bound) & (abs(F::load(&ray.origin.x)) <= bound));
#endif
}

/// The hit as the API reports it: the point on the ray at t (for a disc of radius `extra`, that much
/// back along the normal (nx, ny), where it touches the shape).
PEBBLE_HOT_INLINE CastResult report(const LocalHit& hit, float nx, float ny, const Transform& xf, const Ray& ray,
                                    float extra) {
  if (hit.kind == LocalHit::Kind::miss || !valid_input(xf, ray) || !(hit.t >= 0)) return kNoHit;
  if (hit.kind == LocalHit::Kind::inside) return {true, 0, ray.origin, {0, 0}};
  return {
      true,
      hit.t,
      {ray.origin.x + hit.t * ray.translation.x - extra * nx, ray.origin.y + hit.t * ray.translation.y - extra * ny},
      {nx, ny}};
}

/// A ray on a sharp polygon that starts below every plane (cast_ray()'s lean path): inside, or
/// beyond a sliver's tip. Out of line: rare, and inlined it costs the common path registers.
[[gnu::noinline, gnu::cold]] CastResult start_below_every_plane(const cast_core::PolygonLanes& lanes, float ox,
                                                                float oy, float dx, float dy, const Transform& xf,
                                                                const Ray& ray) {
  const LocalHit start = cast_core::sharp_start(lanes, ox, oy, dx, dy);
  if (start.kind == LocalHit::Kind::inside) return {true, 0, ray.origin, {0, 0}};
  const float c = xf.q.c, s = xf.q.s;
  return report(start, c * start.nx - s * start.ny, s * start.nx + c * start.ny, xf, ray, 0);
}

/// A disc of radius `extra` (0 for a ray) cast against a circle shape, its centre taken relative to
/// the ray's origin in world axes: a world position rounds by 1e-3 at 1e4, the difference of near
/// positions is exact (tests/large_world_test.cpp).
PEBBLE_HOT_INLINE LocalHit circle_hit(const Shape& shape, const Transform& xf, const Ray& ray, float extra) {
  const Vec2 centre = (xf.p - ray.origin) + rotate(xf.q, shape.padded_vertices()[0]);
  return cast_core::cast_circle(centre.x, centre.y, shape.radius() + extra, 0, 0, 0, ray.translation.x,
                                ray.translation.y, 0);
}

CastResult cast_against_circle(const Shape& shape, const Transform& xf, const Ray& ray, float extra) {
  const LocalHit hit = circle_hit(shape, xf, ray, extra);
  return report(hit, hit.nx, hit.ny, xf, ray, extra);
}

/// The same against a capsule or polygon, in its frame (the rotation as is: is_valid() holds |q| near 1).
CastResult cast_against_core(const Shape& shape, const Transform& xf, const Ray& ray, float extra) {
  const float c = xf.q.c, s = xf.q.s;
  const float px = float(ray.origin.x - xf.p.x), py = float(ray.origin.y - xf.p.y);
  const float ox = c * px + s * py, oy = c * py - s * px;
  const float dx = c * ray.translation.x + s * ray.translation.y, dy = c * ray.translation.y - s * ray.translation.x;
  const float r = shape.radius() + extra;
  const Vec2* v = shape.padded_vertices();
  LocalHit hit;
  if (shape.vertex_count() == 2) {
    hit = cast_core::cast_capsule(v[0], v[1], shape.normal(0), r, ox, oy, dx, dy);
  } else {
    const cast_core::PolygonLanes lanes{v,
                                        shape.normal_lanes_x(),
                                        shape.normal_lanes_y(),
                                        shape.offset_lanes(),
                                        shape.vertex_count(),
                                        shape.has_slivers()};
    hit = cast_core::cast_polygon(lanes, r, ox, oy, dx, dy);
  }
  return report(hit, c * hit.nx - s * hit.ny, s * hit.nx + c * hit.ny, xf, ray, extra);
}

}  // namespace

CastResult cast_ray(const Shape& shape, const Transform& xf, const Ray& ray) noexcept {
  // (The radius is never negative: zero is all bits clear, an integer test.)
  const int count = shape.vertex_count();
  if (count >= 3 && std::bit_cast<std::uint32_t>(shape.radius()) == 0) {
    // Sharp polygons, inline and lean (cast_polygon() with r = 0, no corner or wedge cases): the
    // entry plane is the hit; a ray entering no plane after its start and not clipped away is inside.
    const float c = xf.q.c, s = xf.q.s;
    const float px = float(ray.origin.x - xf.p.x), py = float(ray.origin.y - xf.p.y);
    const float dx = c * ray.translation.x + s * ray.translation.y, dy = c * ray.translation.y - s * ray.translation.x;
    const cast_core::PolygonLanes lanes{
        shape.padded_vertices(), shape.normal_lanes_x(), shape.normal_lanes_y(), shape.offset_lanes(), count,
        shape.has_slivers()};
    const float ox = c * px + s * py, oy = c * py - s * px;
    const cast_core::Clip clip = count == 4 ? cast_core::clip_planes<false, 4>(lanes, 0, ox, oy, dx, dy)
                                            : cast_core::clip_planes<false>(lanes, 0, ox, oy, dx, dy);
    if (clip.empty || !valid_input(xf, ray)) return kNoHit;
    if (clip.entry < 0) return start_below_every_plane(lanes, ox, oy, dx, dy, xf, ray);
    // A sliver's rounded planes can let the ray in beyond its tip (cast/ray_core.hpp); only a shape
    // with a sliver vertex needs the check (kSliverCosine).
    if (shape.has_slivers() && !cast_core::sharp_entry_holds(lanes, clip.entry, clip.lower, ox, oy, dx, dy))
      return kNoHit;
    const float nx = lanes.nx[clip.entry], ny = lanes.ny[clip.entry], t = clip.lower;
    return {true,
            t,
            {ray.origin.x + t * ray.translation.x, ray.origin.y + t * ray.translation.y},
            {c * nx - s * ny, s * nx + c * ny}};
  }
  if (count == 1) {
    // Circles, inline too: cast_against_circle()'s hit with no disc offset.
    const LocalHit hit = circle_hit(shape, xf, ray, 0);
    if (hit.kind == LocalHit::Kind::miss || !valid_input(xf, ray)) return kNoHit;
    if (hit.kind == LocalHit::Kind::inside) return {true, 0, ray.origin, {0, 0}};
    return {true,
            hit.t,
            {ray.origin.x + hit.t * ray.translation.x, ray.origin.y + hit.t * ray.translation.y},
            {hit.nx, hit.ny}};
  }
  return cast_against_core(shape, xf, ray, 0);
}

CastResult cast_ray(const Shape& shape, const Transform& xf, const Ray& ray, float radius) noexcept {
  if (!(radius >= 0 && radius <= kMaxShapeExtent)) return kNoHit;
  return cast_core::cast_disc(shape, xf, ray, radius);
}

namespace cast_core {

CastResult cast_disc(const Shape& shape, const Transform& xf, const Ray& ray, float radius) noexcept {
  return shape.vertex_count() == 1 ? cast_against_circle(shape, xf, ray, radius)
                                   : cast_against_core(shape, xf, ray, radius);
}

}  // namespace cast_core

}  // namespace pebble
