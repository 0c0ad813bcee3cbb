// Queries on one chain segment with ghost vertices (docs/terrain.md). The segment is a 2-vertex
// core, so collide() already gives its manifold with any shape; what a chain adds is the choice of
// normal. A smooth surface made of segments has, at each point, the normals of its own Voronoi
// region: the face normal inside a segment, the fan between the two face normals at a convex
// corner, and none but the faces' at a flat or concave joint. A manifold normal outside that set is a
// ghost (a box's corner caught on the joint between two flat tiles); this file replaces it by the
// face normal, which is the idea of Box2D v3's smooth segments (b2ChainSegment, "ghost vertices").
#include <cmath>

#include "pebble/chain.hpp"
#include "tolerances.hpp"

namespace pebble {
namespace {

constexpr CastHit kMiss{false, 1.0f, {0, 0}, {0, 0}};

// The manifold of b against the segment's face with the face normal imposed: b's incident edge (the
// one whose normal is most opposite to the face's) clipped to the segment's extent, its points kept
// where their separation is within the margin; ids as collide() names them (the incident vertex at
// the point's end and the segment vertex that end faces). rel places b in the chain's frame.
Manifold face_manifold(const ChainSegment& s, const Transform& xs, const Transform& rel, const Shape& b, float margin, bool apart) {
  const Vec2 n = s.normal;
  const Vec2 edge = s.b - s.a;
  const float length_sq = dot(edge, edge);
  const std::span<const Vec2> v = b.vertices();
  const int count = b.vertex_count();
  Vec2 w[2];
  std::uint32_t ids[2] = {0, 0};
  int points = 1;
  w[0] = transform_point(rel, v[0]);
  if (count > 1) {
    int best = 0;
    float least = 2;
    for (int i = 0; i < b.edge_count(); ++i) {
      const float d = dot(rotate(rel.q, b.normal(i)), n);
      if (d < least) {
        least = d;
        best = i;
      }
    }
    const int next = best + 1 == count ? 0 : best + 1;
    w[0] = transform_point(rel, v[std::size_t(best)]);
    w[1] = transform_point(rel, v[std::size_t(next)]);
    // The incident edge runs against the face: its first end faces the segment's b, its second a.
    const std::uint32_t index_of_a = s.shape.vertices()[0] == s.a ? 0u : 1u;
    ids[0] = (1u - index_of_a) | std::uint32_t(best) << 16;
    ids[1] = index_of_a | std::uint32_t(next) << 16;
    points = 2;
  }
  // Clip to the extent 0 <= dot(p - a, edge) <= |edge|^2 (the neighbours own what lies beyond).
  float lo = 0, hi = 1;
  const float s0 = dot(w[0] - s.a, edge);
  if (points == 1) {
    if (!(s0 >= 0 && s0 <= length_sq)) return Manifold{};
  } else {
    const float s1 = dot(w[1] - s.a, edge);
    const float ds = s1 - s0;
    for (const float bound : {0.0f, length_sq}) {
      const bool lower = bound == 0;
      const float f0 = lower ? s0 - bound : bound - s0;  // >= 0 inside
      const float f1 = lower ? s1 - bound : bound - s1;
      if (f0 < 0 && f1 < 0) return Manifold{};
      if (f0 < 0 || f1 < 0) {
        const float t = (bound - s0) / ds;
        if (f0 < 0) lo = std::max(lo, t);
        else hi = std::min(hi, t);
      }
    }
    if (lo > hi) return Manifold{};
    const Vec2 from = w[0], to = w[1];
    w[0] = lerp(from, to, lo);
    w[1] = lerp(from, to, hi);
    if (w[0] == w[1]) points = 1;
  }
  Manifold m{};
  m.normal = rotate(xs.q, n);
  const float r = b.radius();
  for (int k = 0; k < points; ++k) {
    const float separation = dot(n, w[k] - s.a) - r;
    if (!(separation <= margin)) continue;
    // Apart from the segment, a point of b over it and behind its line belongs to a part of b that
    // went round a free end or lies behind the segment: not a contact.
    if (apart && separation < 0) continue;
    ContactPoint& c = m.points[m.count++];
    c.point = transform_point(xs, w[k] - (r + 0.5f * separation) * n);
    c.separation = separation;
    c.id = count == 1 ? 0u : ids[k];
  }
  return m;
}

bool in_front(const ChainSegment& s, Vec2 local) { return dot(s.normal, local - s.a) >= 0; }

// The common cases of a body on terrain, answered without the general search, when the segment's
// face is an axis of greatest separation of the two cores (seed 000, "The separating axis test":
// no axis of b's edges and not the segment's back separates more):
//  - b's deepest core vertex along the face lies over the segment: the cores' distance (or depth)
//    is that vertex's height over the face and the face normal is the contact normal;
//  - it lies beyond an end where the chain goes on flat or turns concave: whatever normal the
//    general search finds there is the face's or a ghost, which collide() replaces by the face's.
// Either way face_manifold() is the answer. And an axis that separates the cores by more than the
// margin and b's radius means no contact (apart).
enum class Shortcut { none, face, apart };
Shortcut shortcut(const ChainSegment& s, const Transform& rel, const Shape& b, float margin) {
  const Vec2 n = s.normal;
  const std::span<const Vec2> v = b.vertices();
  const int count = b.vertex_count();
  Vec2 w[kMaxPolygonVertices];
  float least = 0, most = 0;
  int deepest = 0;
  for (int j = 0; j < count; ++j) {
    w[j] = transform_point(rel, v[std::size_t(j)]);
    const float h = dot(n, w[j] - s.a);
    if (j == 0 || h < least) {
      least = h;
      deepest = j;
    }
    most = j == 0 ? h : std::max(most, h);
  }
  // An axis that separates the cores by more than the margin and b's radius: no contact at all.
  const float reach = margin + b.radius();
  if (least > reach || -most > reach) return Shortcut::apart;
  bool face = -most <= least;  // else the segment's back separates more
  for (int i = 0; i < b.edge_count(); ++i) {
    const Vec2 m = rotate(rel.q, b.normal(i));
    const float separation = std::min(dot(m, s.a - w[i]), dot(m, s.b - w[i]));
    if (separation > reach) return Shortcut::apart;
    // A face of b that separates more decides, unless it faces the segment within kChainFaceSine:
    // then collide() would keep its normal as the face normal, and the face clip says the same.
    if (separation > least && !(dot(m, n) < 0 && std::fabs(cross(m, n)) <= kChainFaceSine)) face = false;
  }
  if (!face) return Shortcut::none;
  const Vec2 edge = s.b - s.a;
  const float length_sq = dot(edge, edge);
  const float along = dot(w[deepest] - s.a, edge);
  if (along >= 0 && along <= length_sq) return Shortcut::face;
  // Beyond an end where the chain goes on flat or turns concave.
  if (along < 0 ? s.has_prev && cross(s.a - s.ghost_prev, edge) <= 0 : s.has_next && cross(edge, s.ghost_next - s.b) <= 0) {
    return Shortcut::face;
  }
  // Beyond a convex corner or a free end: still the face when b lies on it with a face that faces
  // the segment within kChainFaceSine and reaches over it (the deepest vertex's neighbour on that
  // face lies over the segment, as deep within the same sine).
  for (const int k : {deepest == 0 ? count - 1 : deepest - 1, deepest + 1 == count ? 0 : deepest + 1}) {
    if (count < 2 || k == deepest) continue;
    const Vec2 face_edge = w[k] - w[deepest];
    const float at = dot(w[k] - s.a, edge);
    if (at >= 0 && at <= length_sq && std::fabs(dot(face_edge, n)) <= kChainFaceSine * length(face_edge)) return Shortcut::face;
  }
  return Shortcut::none;
}

// Whose is a normal (unit, chain frame, from the segment toward the other body) found on the
// segment: its own (the face normal, the normals around a free end, the fan of a convex corner at
// its start), the next segment's (strictly inside the fan of a convex corner at its end, which
// that segment owns), or a ghost (a flat or concave joint, beyond a corner's fan, facing backwards).
enum class Owner { self, next, ghost };
Owner normal_owner(const ChainSegment& s, Vec2 normal) {
  const Vec2 n = s.normal;
  const float turn = cross(n, normal);  // > 0: turned toward the end b; < 0: toward the start a
  const float facing = dot(n, normal);
  if (facing > 0 && std::fabs(turn) <= kChainFaceSine) return Owner::self;  // the face normal
  if (turn > 0) {
    if (!s.has_next) return Owner::self;  // around a free end, every normal leaning out of it (a capsule's end)
    const Vec2 e = s.b - s.a, e_next = s.ghost_next - s.b;
    // Strictly inside the fan of a convex corner at b (less than a half turn): the next segment's.
    if (cross(e, e_next) > 0 && cross(normal, right_perp(e_next)) > 0) return Owner::next;
  } else if (turn < 0) {
    if (!s.has_prev) return Owner::self;
    const Vec2 e_prev = s.a - s.ghost_prev, e = s.b - s.a;
    // Inside the fan of a convex corner at a, its first face's normal included: this segment's.
    if (cross(e_prev, e) > 0 && cross(right_perp(e_prev), normal) >= 0) return Owner::self;
  }
  return Owner::ghost;
}

}  // namespace

Manifold collide(const ChainSegment& s, const Transform& xs, const Shape& b, const Transform& xb, float margin) noexcept {
  if (!is_valid(xs) || !is_valid(xb)) return Manifold{};
  const Transform rel = inv_mul(xs, xb);
  if (!in_front(s, transform_point(rel, b.core_centroid()))) return Manifold{};  // one-sided
  const Shortcut quick = shortcut(s, rel, b, margin);
  if (quick == Shortcut::apart) return Manifold{};
  if (quick == Shortcut::face) return face_manifold(s, xs, rel, b, margin, false);
  const Manifold m = collide(s.shape, xs, b, xb, margin);
  if (m.count == 0) return m;
  switch (normal_owner(s, inv_rotate(xs.q, m.normal))) {
    case Owner::self: return m;
    case Owner::next: return Manifold{};
    case Owner::ghost: break;
  }
  const float least = m.count == 2 ? std::min(m.points[0].separation, m.points[1].separation) : m.points[0].separation;
  return face_manifold(s, xs, rel, b, margin, least >= 0);
}

CastHit raycast(const ChainSegment& s, const Transform& xs, const Ray& ray, float radius) noexcept {
  if (!is_valid(xs) || !is_valid_point(ray.origin)) return kMiss;
  if (!in_front(s, inv_transform_point(xs, ray.origin))) return kMiss;  // from behind: passes through
  const CastHit h = radius > 0 ? raycast(s.shape, xs, ray, radius) : raycast(s.shape, xs, ray);
  if (!h.hit || dot(inv_rotate(xs.q, h.normal), s.normal) < 0) return kMiss;
  return h;
}

CastHit shape_cast(const Shape& a, const Transform& xa, Vec2 translation_a, const ChainSegment& s, const Transform& xs,
                   Vec2 translation_s, const ShapeCastOptions& options) noexcept {
  if (!is_valid(xa) || !is_valid(xs)) return kMiss;
  if (!in_front(s, inv_transform_point(xs, transform_point(xa, a.core_centroid())))) return kMiss;
  CastHit h = shape_cast(a, xa, translation_a, s.shape, xs, translation_s, options);
  // The normal points from a to the segment: the segment's outward normal there is its opposite.
  if (!h.hit || (h.fraction > 0 && dot(inv_rotate(xs.q, h.normal), s.normal) > 0)) return kMiss;
  // The normal chosen as collide() chooses: a box's corner reaching the crest of two segments meets
  // it along a line no face of the chain has (a ghost), which would stop a box walking over the
  // crest as if at a wall; the smooth surface there has the face's normal.
  switch (normal_owner(s, -inv_rotate(xs.q, h.normal))) {
    case Owner::self: break;
    case Owner::next: return kMiss;  // inside the fan of the convex corner at b: the next segment reports it
    case Owner::ghost: h.normal = -rotate(xs.q, s.normal); break;
  }
  return h;
}

ToiResult time_of_impact(const Shape& a, const Sweep& sa, const ChainSegment& s, const Sweep& ss, float t_max,
                         const ToiOptions& options) noexcept {
  const ToiResult r = time_of_impact(a, sa, s.shape, ss, t_max, options);
  if (r.state == ToiResult::State::failed) return r;
  const ToiResult apart{ToiResult::State::separated, t_max, {0, 0}, {0, 0}};
  const Transform xa = sweep_transform(sa, 0), xs = sweep_transform(ss, 0);
  if (!in_front(s, inv_transform_point(xs, transform_point(xa, a.core_centroid())))) return apart;
  if (r.state == ToiResult::State::hit) {
    // The normal points from a to the segment: the segment's outward normal there is its opposite.
    const Transform at = sweep_transform(ss, r.fraction);
    if (dot(inv_rotate(at.q, r.normal), s.normal) > 0) return apart;
  }
  return r;
}

Approach closest_approach(const Shape& a, const Transform& xa, Vec2 velocity_a, const ChainSegment& s, const Transform& xs,
                          Vec2 velocity_s, float horizon) noexcept {
  Approach r = closest_approach(a, xa, velocity_a, s.shape, xs, velocity_s, horizon);
  if (r.distance == kHugeDistance) return r;  // invalid input: the empty answer already
  if (!in_front(s, inv_transform_point(xs, transform_point(xa, a.core_centroid())))) {
    return {false, 0, kHugeDistance, {0, 0}, {0, 0}, {0, 0}};
  }
  if (r.hit && r.time > 0 && dot(inv_rotate(xs.q, r.normal), s.normal) > 0) r.hit = false;  // from behind
  return r;
}

}  // namespace pebble
