// Internal: the batch queries' bodies (pebble/batch.hpp's BatchBody records and their shapes)
// read into lanes, one body per lane (with SSE2, AVX2 or NEON by one load per lane and a transpose,
// simd/wide.hpp), and the queries' checks of their input in lanes. Included by the lane forms of
// the queries (cast/disc_lanes.hpp, cast/ray_lanes.hpp, contact/distance_lanes.hpp) inside the
// batch's kernel copy (src/batch/batch.cpp).
#pragma once

#include "pebble/batch.hpp"
#include "pebble/constants.hpp"
#include "simd/wide.hpp"
#include "tolerances.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

/// The lanes of a field of the bodies.
template <class F, class Get>
PEBBLE_HOT_INLINE F lanes_of(const BatchBody* const* b, Get get) {
  if constexpr (sizeof(F) == 8 * sizeof(float)) {
    return F::lanes(get(*b[0]), get(*b[1]), get(*b[2]), get(*b[3]), get(*b[4]), get(*b[5]), get(*b[6]), get(*b[7]));
  } else if constexpr (sizeof(F) == 4 * sizeof(float)) {
    return F::lanes(get(*b[0]), get(*b[1]), get(*b[2]), get(*b[3]));
  } else {
    return F::splat(get(*b[0]));
  }
}

/// The lanes of a body's motion: position, rotation, velocity (its record's floats 2 to 7).
template <class F>
struct Moving {
  F px, py, qc, qs, vx, vy;
};

template <class F>
PEBBLE_HOT_INLINE Moving<F> moving_lanes(const BatchBody* const* bodies) {
  F c[6];  // p.x p.y q.c q.s velocity x y
#if PEBBLE_SSE || PEBBLE_NEON
  if constexpr (sizeof(F) > sizeof(float)) {
    // Each body's 32 bytes (shape pointer, transform, velocity) read as 8 floats and transposed
    // into lanes (simd/wide.hpp): lanes built from separate float stores would wait for every
    // store to reach the cache before a vector load could read them.
    static_assert(sizeof(BatchBody) == 32 && offsetof(BatchBody, transform) == 8 && offsetof(BatchBody, velocity) == 24,
                  "on x86-64 and ARM64 a BatchBody is a pointer, then p.x p.y q.c q.s, then velocity x y");
    constexpr int W = sizeof(F) / sizeof(float);
    const float* rows[W];
    for (int j = 0; j < W; ++j) rows[j] = reinterpret_cast<const float*>(bodies[j]);
    columns_2_to_7(rows, c);
  } else
#endif
  {
    c[0] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.transform.p.x; });
    c[1] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.transform.p.y; });
    c[2] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.transform.q.c; });
    c[3] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.transform.q.s; });
    c[4] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.velocity.x; });
    c[5] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.velocity.y; });
  }
  return {c[0], c[1], c[2], c[3], c[4], c[5]};
}

/// The lanes of a field of the bodies' shapes.
template <class F, class Get>
PEBBLE_HOT_INLINE F shape_lanes(const BatchBody* const* b, Get get) {
  return lanes_of<F>(b, [&](const BatchBody& body) { return get(*body.shape); });
}

/// Four consecutive floats of each lane's shape (at(shape) points at them) as four lane values:
/// with SSE2 or NEON one load per lane and a transpose (simd/wide.hpp), as for the bodies.
template <class F, class At>
PEBBLE_HOT_INLINE void shape_columns(const BatchBody* const* b, At at, F (&c)[4]) {
#if PEBBLE_SSE || PEBBLE_NEON
  if constexpr (sizeof(F) > sizeof(float)) {
    constexpr int W = sizeof(F) / sizeof(float);
    const float* rows[W];
    for (int j = 0; j < W; ++j) rows[j] = at(*b[j]->shape);
    columns_of_4(rows, c);
    return;
  }
#endif
  for (int k = 0; k < 4; ++k) c[k] = shape_lanes<F>(b, [&](const Shape& s) { return at(s)[k]; });
}

/// A shape's vertices as floats x0 y0 x1 y1 ... (Vec2 is two floats).
inline const float* vertex_floats(const Shape& s) {
  static_assert(sizeof(Vec2) == 2 * sizeof(float));
  return &s.padded_vertices()->x;
}

/// A shape's 2-vertex core (vertices, edge normals) and radius, lane by lane.
template <class F>
struct SegmentLanes {
  F x0, y0, x1, y1, nx0, ny0, nx1, ny1, r;
};

template <class F>
PEBBLE_HOT_INLINE SegmentLanes<F> segment_lanes(const BatchBody* const* b) {
  F v[4], nx[4], ny[4];
  shape_columns(
      b, [](const Shape& s) { return vertex_floats(s); }, v);
  shape_columns(
      b, [](const Shape& s) { return s.normal_lanes_x(); }, nx);
  shape_columns(
      b, [](const Shape& s) { return s.normal_lanes_y(); }, ny);
  return {
      v[0], v[1], v[2], v[3], nx[0], ny[0], nx[1], ny[1], shape_lanes<F>(b, [](const Shape& s) { return s.radius(); })};
}

/// One side of a disc pair, lane by lane: position, rotation, the core's vertex in the shape's
/// frame, radius, velocity.
template <class F>
struct Disc {
  F px, py, qc, qs, lx, ly, r, vx, vy;
};

template <class F>
PEBBLE_HOT_INLINE Disc<F> gather(const BatchBody* const* bodies) {
  const Moving<F> m = moving_lanes<F>(bodies);
  F v[4];
  shape_columns(
      bodies, [](const Shape& s) { return vertex_floats(s); }, v);
  return {m.px, m.py, m.qc, m.qs, v[0], v[1], shape_lanes<F>(bodies, [](const Shape& s) { return s.radius(); }),
          m.vx, m.vy};
}

/// A convex quadrilateral core in a ray's frame: vertices, unit outward edge normals, offsets
/// (PolygonLanes' layout), edge k from vertex k to vertex k + 1 (mod 4).
template <class F>
struct QuadLanes {
  F x[4], y[4], nx[4], ny[4], off[4];
};

/// A shape's 4-vertex core as the ray cast reads it (in its own frame) and its radius.
template <class F>
PEBBLE_HOT_INLINE QuadLanes<F> quad_core_lanes(const BatchBody* const* b, F& r) {
  QuadLanes<F> q;
  F v[4];
  shape_columns(
      b, [](const Shape& s) { return vertex_floats(s); }, v);
  q.x[0] = v[0], q.y[0] = v[1], q.x[1] = v[2], q.y[1] = v[3];
  shape_columns(
      b, [](const Shape& s) { return vertex_floats(s) + 4; }, v);
  q.x[2] = v[0], q.y[2] = v[1], q.x[3] = v[2], q.y[3] = v[3];
  shape_columns(
      b, [](const Shape& s) { return s.normal_lanes_x(); }, q.nx);
  shape_columns(
      b, [](const Shape& s) { return s.normal_lanes_y(); }, q.ny);
  shape_columns(
      b, [](const Shape& s) { return s.offset_lanes(); }, q.off);
  r = shape_lanes<F>(b, [](const Shape& s) { return s.radius(); });
  return q;
}

/// is_valid(transform) (math.hpp), the same comparisons.
template <class D>
PEBBLE_HOT_INLINE auto valid_transform(const D& d) {
  using F = decltype(d.px);
  const F big = F::splat(kMaxWorldCoordinate);
  return (abs(d.px) <= big) & (abs(d.py) <= big) &
         (abs((d.qc * d.qc + d.qs * d.qs) - F::splat(1.0f)) <= F::splat(kRotationTolerance));
}

/// is_valid_point(v) (math.hpp).
template <class F>
PEBBLE_HOT_INLINE auto valid_point(F x, F y) {
  const F big = F::splat(kMaxWorldCoordinate);
  return (abs(x) <= big) & (abs(y) <= big);
}

/// closest_approach()'s and time_to_collision()'s checks of their input (cast/cast.cpp
/// valid_approach()), the same comparisons.
template <class D, class F>
PEBBLE_HOT_INLINE auto valid_approach(const D& a, const D& b, F h) {
  return (F::splat(0) <= h) & (h <= F::splat(kMaxWorldCoordinate)) & valid_transform(a) & valid_transform(b) &
         valid_point(a.vx, a.vy) & valid_point(b.vx, b.vy) & valid_point(a.px + h * a.vx, a.py + h * a.vy) &
         valid_point(b.px + h * b.vx, b.py + h * b.vy);
}

}  // namespace
}  // namespace pebble::detail::PEBBLE_KERNEL_NS
