// pebble/manifold.hpp — contact manifolds between any two shapes [seed-rounded §6]: one generic path for every pair of
// core sizes, with speculative points up to a margin and feature ids for warm starting. docs/contacts.md explains the
// algorithm.
#pragma once

#include <cstdint>

#include "pebble/detail/kernels.hpp"
#include "pebble/shape.hpp"

namespace pebble {

/// One point of contact, in world space.
struct ContactPoint {
  Position point;    ///< midway between the two surfaces (world)
  float separation;  ///< signed gap along the manifold normal; < 0 means penetration
  uint32_t id;       ///< feature key: the same from frame to frame while the same features touch
};

/// Up to two contact points sharing one normal.
struct Manifold {
  Vec2 normal;             ///< unit, world space, from A to B (moving B along it separates the shapes)
  int count;               ///< number of valid points: 0, 1 or 2
  ContactPoint points[2];  ///< the first count are the contact points; read no further

  /// The same manifold seen from the other shape: normal negated, feature ids swapped.
  Manifold flipped() const;
};

/// The contact manifold of shape a placed at xa and shape b placed at xb: every point whose
/// separation is at most margin (speculative contacts when margin > 0). count > 0 exactly when
/// distance(a, xa, b, xb).distance <= margin, and the least separation equals that distance.
/// Invalid transforms give count 0.
inline Manifold collide(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                        float margin = 0) noexcept {
  // Runs the kernel for the pair's core sizes in the copy in use (pebble/simd.hpp).
  const detail::ContactKernels& k = detail::contact_kernels();
  const int na = a.vertex_count(), nb = b.vertex_count();
  if (na != 1 && nb != 1)
    return na == 2 && nb == 2 ? k.collide_capsules(a, xa, b, xb, margin) : k.collide_generic(a, xa, b, xb, margin);
  if (na == 1 && nb == 1) return k.collide_circles(a, xa, b, xb, margin);
  return k.collide_point_core(a, xa, b, xb, margin);
}

/// Feature ids: an id packs a core vertex index of A in its low 16 bits and one of B in its high
/// 16 bits. Between two polygon cores (2..8 vertices) each point is named by a vertex pair: the
/// vertex of the incident edge at the point's end and the vertex of the reference edge that end
/// faces (the edges run opposite ways). The pair does not depend on which shape is the reference,
/// nor on whether the point is a vertex or a clipped edge end, so a warm-started solver keeps its
/// impulses while a body lands and settles at any tilt. A pair with a circle or point (a 1-vertex
/// core) has one point, whose id is 0.
///
/// kEdgeFeature: collide() never produces it [issue-ids]; kept so that code that names it compiles.
inline constexpr uint32_t kEdgeFeature = 0x100;

}  // namespace pebble
