// pebble/distance.hpp — signed distance, closest points and overlap between any two shapes.
// Exact for rounded convex shapes: the core distance (separating axes of both cores, then the
// closest features, after the Minkowski difference with supporting vertices, [seed-detection §3]) minus both
// radii. docs/contacts.md explains the algorithm.
#pragma once

#include "pebble/constants.hpp"
#include "pebble/detail/kernels.hpp"
#include "pebble/shape.hpp"

namespace pebble {

/// Signed distance and witness points, world space.
struct DistanceResult {
  float distance;    ///< > 0 separated, 0 touching, < 0 overlapping (minus the penetration depth)
  Vec2 normal;       ///< unit, from A to B: moving B by -distance * normal makes them just touch
  Position point_a;  ///< on A's surface (world)
  Position point_b;  ///< on B's surface; point_b - point_a = normal * distance (also when overlapping)

  /// True when there is an answer (a distance below kHugeDistance): false only for invalid input.
  /// Whether the shapes touch is distance <= 0 (overlap()).
  explicit constexpr operator bool() const noexcept { return distance < kHugeDistance; }
};

/// Exact signed distance between shape a at xa and shape b at xb. Invalid transforms give
/// {kHugeDistance, {0,0}, {0,0}, {0,0}}.
inline DistanceResult distance(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  // Runs the kernel for the pair's core sizes in the copy in use (pebble/simd.hpp).
  const detail::ContactKernels& k = detail::contact_kernels();
  if (a.vertex_count() != 1 && b.vertex_count() != 1) return k.distance_generic(a, xa, b, xb);
  return k.distance_point(a, xa, b, xb);
}

/// True when the shapes touch or overlap (distance <= 0); always agrees with distance() and with
/// collide() at margin 0. False for invalid transforms.
bool overlap(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept;

}  // namespace pebble
