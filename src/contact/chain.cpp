// Queries on one chain segment with ghost vertices (docs/terrain.md). collide() gives a segment's
// manifold; a chain adds the choice of normal. A smooth surface of segments has the normals of its
// Voronoi regions: the face's inside a segment, the fan between faces at a convex corner, only the
// faces' at a flat or concave joint. Any other normal is a ghost (a box's corner caught on a joint
// of flat tiles), replaced here by the face normal: Box2D v3's smooth segments (b2ChainSegment).
#include <algorithm>
#include <cmath>

#include "pebble/chain.hpp"
#include "positions.hpp"
#include "tolerances.hpp"

namespace pebble {
namespace {

constexpr CastResult kMiss{false, 1.0f, {0, 0}, {0, 0}};

// A contact whose point on the segment lies within this fraction of the segment's length of an
// end is at that end (normal_owner()).
constexpr float kChainEndFraction = 1e-4f;

// Whether the chain turns from edge e to the next edge f towards `side` (1: convex, -1: concave) by
// more than kChainFaceSine: a joint turning less is flat (its fan holds no normal beyond the face's
// tolerance, and rounding of its points cannot make it a corner).
bool turns_by_more(Vec2 e, Vec2 f, float side) {
  const float turn = side * cross(e, f);
  return turn > 0 && turn * turn > kChainFaceSine * kChainFaceSine * dot(e, e) * dot(f, f);
}

// Whether the chain turns concave at the segment's end b (else a) by more than kChainFaceSine.
[[gnu::noinline]] bool concave_at(const ChainSegment& s, bool end_b) {
  return end_b ? s.has_next && turns_by_more(s.b - s.a, s.ghost_next - s.b, -1)
               : s.has_prev && turns_by_more(s.a - s.ghost_prev, s.b - s.a, -1);
}

// face_manifold() for a rounded b: the ends of b's incident edge w[0] -> w[1] (core, chain frame)
// on b's surface as collide() places them (deeper end: its corner's lowest point; other end: the
// outer edge's end), each while over the segment, else where b's surface crosses the line through
// the segment's end (arc or outer edge; none when neither reaches). A point is midway between the
// line and that surface point, its separation their distance.
[[gnu::noinline]] Manifold rounded_face_manifold(const ChainSegment& s, const Transform& xs, const Transform& rel,
                                                 const Shape& b, int best, bool most_opposed, std::uint32_t id0,
                                                 std::uint32_t id1, float margin, bool apart) {
  const std::span<const Vec2> v = b.vertices();
  const int count = b.vertex_count();
  const int next = best + 1 == count ? 0 : best + 1;
  const int before = best == 0 ? count - 1 : best - 1, beyond = next + 1 == count ? 0 : next + 1;
  const Vec2 w[2] = {PEBBLE_RELATIVE_POINT(rel, v[std::size_t(best)]),
                     PEBBLE_RELATIVE_POINT(rel, v[std::size_t(next)])};
  const Vec2 outward = rotate(rel.q, b.normal(best));
  // Each end's other neighbour and that edge's outward normal (chain frame).
  const Vec2 far[2] = {PEBBLE_RELATIVE_POINT(rel, v[std::size_t(before)]),
                       PEBBLE_RELATIVE_POINT(rel, v[std::size_t(beyond)])};
  const Vec2 far_outward[2] = {rotate(rel.q, b.normal(before)), rotate(rel.q, b.normal(next))};
  const std::uint32_t ids[2] = {id0, id1};
  const Vec2 n = s.normal;
  const float len = length(s.b - s.a);
  const Vec2 t = (s.b - s.a) / len;
  const float r = b.radius();
  float u[2], h[2];
  for (int k = 0; k < 2; ++k) {
    u[k] = dot(w[k] - s.a, t);
    h[k] = dot(w[k] - s.a, n);
  }
  const int deeper = h[0] <= h[1] ? 0 : 1, other = 1 - deeper;
  const float shift_u = r * dot(outward, t), shift_h = r * dot(outward, n);
  // b's surface on the line u = plane through an end of the segment.
  const auto on_plane = [&](float plane, float& height) {
    const float outer_w = u[deeper] + shift_u, outer_o = u[other] + shift_u;
    if ((plane - u[deeper]) * (plane - outer_w) <= 0) {
      const float along = plane - u[deeper];
      height = h[deeper] - std::sqrt(std::max(r * r - along * along, 0.0f));
      return true;
    }
    if ((plane - outer_w) * (plane - outer_o) <= 0) {
      const float lambda = outer_o != outer_w ? (plane - outer_w) / (outer_o - outer_w) : 0.0f;
      height = h[deeper] + shift_h + lambda * (h[other] - h[deeper]);
      return true;
    }
    // Past a concave joint, beyond the deeper corner: its arc while inside the corner's cone of
    // normals, else the outer edge of the corner's other edge when that one faces down.
    if (!concave_at(s, plane != 0)) return false;
    const float along = plane - u[deeper];
    if (std::fabs(along) <= r) {
      const float down = std::sqrt(std::max(r * r - along * along, 0.0f));
      const Vec2 c = along * t - down * n;  // the arc's point, from the corner
      if (dot(c, w[deeper] - far[deeper]) >= 0 && dot(c, w[deeper] - w[other]) >= 0) {
        height = h[deeper] - down;
        return true;
      }
    }
    const Vec2 m = far_outward[deeper];
    if (!(dot(m, n) < 0)) return false;
    const float from_u = u[deeper] + r * dot(m, t), to_u = dot(far[deeper] - s.a, t) + r * dot(m, t);
    if ((plane - from_u) * (plane - to_u) > 0) return false;
    const float lambda = to_u != from_u ? (plane - from_u) / (to_u - from_u) : 0.0f;
    height = h[deeper] + r * dot(m, n) + lambda * (dot(far[deeper] - s.a, n) - h[deeper]);
    return true;
  };
  bool valid[2];
  float at[2], height[2];
  for (int k = 0; k < 2; ++k) {
    // (The deeper corner's lowest point is on b's surface for the edge most opposed to the face; an
    // edge stepped to in a concave joint has its outer end.)
    const bool lowest = k == deeper && most_opposed;
    at[k] = lowest ? u[k] : u[k] + shift_u;
    height[k] = lowest ? h[k] - r : h[k] + shift_h;
    valid[k] = true;
    if (!(at[k] >= 0 && at[k] <= len)) {
      at[k] = at[k] < 0 ? 0.0f : len;
      valid[k] = on_plane(at[k], height[k]);
    }
  }
  // Both at one place (a corner on the line through an end): the deeper end's only.
  if (valid[0] && valid[1] &&
      std::fabs(at[0] - at[1]) <= kClipFraction * std::max(std::min(len, b.extent()), kMinPairScale))
    valid[other] = false;
  Manifold m{};
  m.normal = rotate(xs.q, n);
  for (int k = 0; k < 2; ++k) {
    const float separation = height[k];
    if (!valid[k] || !(separation <= margin) || (apart && separation < 0)) continue;
    ContactPoint& c = m.points[m.count++];
    c.point = transform_point(xs, s.a + at[k] * t + (0.5f * separation) * n);
    c.separation = separation;
    c.id = ids[k];
  }
  return m;
}

// In a concave joint b's edge most opposed to the face (`best`) may lie wholly past the segment's
// end while b, sunk into both faces, is under this segment along a neighbouring edge: step along
// b's lower side toward the segment while edges face down (`best` itself at a flat joint, where the
// neighbour's contact already has this face's normal).
[[gnu::noinline]] int toward_segment(const ChainSegment& s, const Transform& rel, const Shape& b, int best) {
  const std::span<const Vec2> v = b.vertices();
  const int count = b.vertex_count();
  const Vec2 edge = s.b - s.a;
  const float length_sq = dot(edge, edge);
  for (int step = 1; step < count; ++step) {
    const int after = best + 1 == count ? 0 : best + 1;
    const float from = dot(PEBBLE_RELATIVE_POINT(rel, v[std::size_t(best)]) - s.a, edge);
    const float to = dot(PEBBLE_RELATIVE_POINT(rel, v[std::size_t(after)]) - s.a, edge);
    int toward;  // the edge on the segment's side of this one
    if (from > length_sq && to > length_sq && concave_at(s, true))
      toward = after;
    else if (from < 0 && to < 0 && concave_at(s, false))
      toward = best == 0 ? count - 1 : best - 1;
    else
      break;
    if (!(dot(rotate(rel.q, b.normal(toward)), s.normal) < 0)) break;
    best = toward;
  }
  return best;
}

// face_manifold() for a disc (centre w, chain frame) centred past an end: past a concave joint, its
// arc's lowest point on the line through the end; else nothing (the neighbour owns it).
[[gnu::noinline]] Manifold disc_beyond_end(const ChainSegment& s, const Transform& xs, Vec2 w, float r, float margin,
                                           bool apart) {
  const Vec2 n = s.normal;
  const float len = length(s.b - s.a);
  const float s0 = dot(w - s.a, s.b - s.a) / len;
  const float beyond = s0 < 0 ? -s0 : s0 - len;  // the centre's distance past the end
  if (!(beyond <= r) || !concave_at(s, s0 > 0)) return Manifold{};
  const float separation = dot(n, w - s.a) - std::sqrt(std::max(r * r - beyond * beyond, 0.0f));
  if (!(separation <= margin) || (apart && separation < 0)) return Manifold{};
  Manifold m{};
  m.normal = rotate(xs.q, n);
  m.count = 1;
  m.points[0] = {transform_point(xs, (s0 < 0 ? s.a : s.b) + (0.5f * separation) * n), separation, 0u};
  return m;
}

// b against the segment's face with the face normal imposed: b's incident edge clipped to the
// segment's extent, points within the margin kept, ids as collide() names them. rel: b in the
// chain's frame.
Manifold face_manifold(const ChainSegment& s, const Transform& xs, const Transform& rel, const Shape& b, float margin,
                       bool apart) {
  const Vec2 n = s.normal;
  const Vec2 edge = s.b - s.a;
  const float length_sq = dot(edge, edge);
  const std::span<const Vec2> v = b.vertices();
  const int count = b.vertex_count();
  Vec2 w[2];
  std::uint32_t ids[2] = {0, 0};
  int points = 1;
  bool most_opposed = true;
  float s0 = 0, s1 = 0;  // the incident edge's ends along the segment, as dot(p - a, b - a)
  w[0] = PEBBLE_RELATIVE_POINT(rel, v[0]);
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
    // Edge e's ends in the segment's frame and where they lie along it.
    const auto place_edge = [&](int e) {
      w[0] = PEBBLE_RELATIVE_POINT(rel, v[std::size_t(e)]);
      w[1] = PEBBLE_RELATIVE_POINT(rel, v[std::size_t(e + 1 == count ? 0 : e + 1)]);
      s0 = dot(w[0] - s.a, edge);
      s1 = dot(w[1] - s.a, edge);
    };
    // Wholly beyond an end: in a concave joint, the edge under this segment (toward_segment()).
    place_edge(best);
    if ((s0 > length_sq && s1 > length_sq) || (s0 < 0 && s1 < 0)) {
      const int stepped = toward_segment(s, rel, b, best);
      if (stepped != best) {
        best = stepped;
        most_opposed = false;
        place_edge(best);
      }
    }
    const int next = best + 1 == count ? 0 : best + 1;
    // The incident edge runs against the face: its first end faces the segment's b, its second a.
    const std::uint32_t index_of_a = s.shape.vertices()[0] == s.a ? 0u : 1u;
    ids[0] = (1u - index_of_a) | std::uint32_t(best) << 16;
    ids[1] = index_of_a | std::uint32_t(next) << 16;
    points = 2;
    if (b.radius() > 0) return rounded_face_manifold(s, xs, rel, b, best, most_opposed, ids[0], ids[1], margin, apart);
  }
  // Clip to the extent 0 <= dot(p - a, edge) <= |edge|^2 (the neighbours own what lies beyond).
  float lo = 0, hi = 1;
  if (points == 1) {
    s0 = dot(w[0] - s.a, edge);
    if (!(s0 >= 0 && s0 <= length_sq)) return disc_beyond_end(s, xs, w[0], b.radius(), margin, apart);
  } else {
    const float ds = s1 - s0;
    for (const float bound : {0.0f, length_sq}) {
      const bool lower = bound == 0;
      const float f0 = lower ? s0 - bound : bound - s0;  // >= 0 inside
      const float f1 = lower ? s1 - bound : bound - s1;
      if (f0 < 0 && f1 < 0) return Manifold{};
      if (f0 < 0 || f1 < 0) {
        const float t = (bound - s0) / ds;
        if (f0 < 0)
          lo = std::max(lo, t);
        else
          hi = std::min(hi, t);
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
    // Apart from the segment, a point behind its line belongs to a part of b round a free end or
    // behind the segment: not a contact.
    if (apart && separation < 0) continue;
    ContactPoint& c = m.points[m.count++];
    c.point = transform_point(xs, w[k] - (r + 0.5f * separation) * n);
    c.separation = separation;
    c.id = count == 1 ? 0u : ids[k];
  }
  return m;
}

bool in_front(const ChainSegment& s, Vec2 local) { return dot(s.normal, local - s.a) >= 0; }

// Whether the next segment (b -> ghost_next) sees a body whose core centroid is at `local`, by its
// own one-sided test. A normal in the convex corner's fan at b is the next one's only when it sees
// the body: one sunk into this segment with its centroid behind the next one's line would get no
// contact from either, so this segment keeps it.
bool next_sees(const ChainSegment& s, Vec2 local) {
  return s.has_next && dot(normalize(right_perp(s.ghost_next - s.b)), local - s.b) >= 0;
}

// A body on terrain without the general search, when the segment's face is an axis of greatest
// separation ([seed-rounded §2]) and b's deepest core vertex along it lies over the segment (its
// height is the cores' distance, the face normal the normal) or past an end where the chain goes on
// flat or concave (the general search would find the face normal or a ghost): face_manifold().
// An axis separating by more than the margin and b's radius: apart.
enum class Shortcut { none, face, apart };
Shortcut shortcut(const ChainSegment& s, const Transform& rel, const Shape& b, float margin) {
  const Vec2 n = s.normal;
  const std::span<const Vec2> v = b.vertices();
  const int count = b.vertex_count();
  Vec2 w[kMaxPolygonVertices];
  float least = 0, most = 0;
  int deepest = 0;
  for (int j = 0; j < count; ++j) {
    w[j] = PEBBLE_RELATIVE_POINT(rel, v[std::size_t(j)]);
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
  if (along < 0 ? s.has_prev && cross(s.a - s.ghost_prev, edge) <= 0
                : s.has_next && cross(edge, s.ghost_next - s.b) <= 0) {
    return Shortcut::face;
  }
  // Past a convex corner or a free end: still the face when b lies on it with a face within
  // kChainFaceSine that reaches over it (the deepest vertex's neighbour on it, as deep).
  for (const int k : {deepest == 0 ? count - 1 : deepest - 1, deepest + 1 == count ? 0 : deepest + 1}) {
    if (count < 2 || k == deepest) continue;
    const Vec2 face_edge = w[k] - w[deepest];
    const float at = dot(w[k] - s.a, edge);
    if (at >= 0 && at <= length_sq && std::fabs(dot(face_edge, n)) <= kChainFaceSine * length(face_edge))
      return Shortcut::face;
  }
  return Shortcut::none;
}

// Whose is a normal (unit, chain frame, segment toward the body): this segment's (face, around a
// free end, the convex fan at its start), the next one's (strictly inside the convex fan at its
// end), or a ghost (flat or concave joint, past a fan, facing backwards).
enum class Owner { self, next, ghost };
// `along`, when given: dot(point - a, b - a) of the contact. A backward normal is a free end's only
// for a contact at that end: a body sunk past its middle elsewhere, centroid in front, has a least
// translation out through the back, which would push it through the chain.
Owner normal_owner(const ChainSegment& s, Vec2 normal, const float* along = nullptr) {
  const Vec2 n = s.normal;
  const float turn = cross(n, normal);  // > 0: turned toward the end b; < 0: toward the start a
  const float facing = dot(n, normal);
  if (facing > 0 && std::fabs(turn) <= kChainFaceSine) return Owner::self;  // the face normal
  const float length_sq = dot(s.b - s.a, s.b - s.a);
  const auto at_end = [&](bool end_b) {
    return facing >= 0 || along == nullptr ||
           (end_b ? *along >= (1 - kChainEndFraction) * length_sq : *along <= kChainEndFraction * length_sq);
  };
  if (turn > 0) {
    if (!s.has_next)
      return at_end(true) ? Owner::self
                          : Owner::ghost;  // around a free end, every normal leaning out of it (a capsule's end)
    const Vec2 e = s.b - s.a, e_next = s.ghost_next - s.b;
    // Strictly inside the fan of a convex corner at b (less than a half turn): the next segment's.
    // (At a joint flat but for rounding, a normal facing backwards is no fan's.)
    if (turns_by_more(e, e_next, 1) && cross(normal, right_perp(e_next)) > 0) return Owner::next;
  } else if (turn < 0) {
    if (!s.has_prev) return at_end(false) ? Owner::self : Owner::ghost;
    const Vec2 e_prev = s.a - s.ghost_prev, e = s.b - s.a;
    // Inside the fan of a convex corner at a, its first face's normal included: this segment's.
    if (turns_by_more(e_prev, e, 1) && cross(right_perp(e_prev), normal) >= 0) return Owner::self;
  }
  return Owner::ghost;
}

}  // namespace

Manifold collide(const ChainSegment& s, const Transform& xs, const Shape& b, const Transform& xb,
                 float margin) noexcept {
  if (!is_valid(xs) || !is_valid(xb)) return Manifold{};
  const Transform rel = inv_mul(xs, xb);
  const Vec2 centroid = PEBBLE_RELATIVE_POINT(rel, b.core_centroid());
  if (!in_front(s, centroid)) return Manifold{};  // one-sided
  const Shortcut quick = shortcut(s, rel, b, margin);
  if (quick == Shortcut::apart) return Manifold{};
  if (quick == Shortcut::face) return face_manifold(s, xs, rel, b, margin, false);
  const Manifold m = collide(s.shape, xs, b, xb, margin);
  if (m.count == 0) return m;
  // The deepest point's place on the segment (the segment has radius 0: its surface is its core).
  const int deepest = m.count == 2 && m.points[1].separation < m.points[0].separation ? 1 : 0;
  const float along =
      dot(inv_transform_point(xs, m.points[deepest].point - 0.5f * m.points[deepest].separation * m.normal) - s.a,
          s.b - s.a);
  switch (normal_owner(s, inv_rotate(xs.q, m.normal), &along)) {
    case Owner::self:
      return m;
    case Owner::next:
      return next_sees(s, centroid) ? Manifold{} : m;  // unseen by the next segment: this one reports it
    case Owner::ghost:
      break;
  }
  const float least = m.count == 2 ? std::min(m.points[0].separation, m.points[1].separation) : m.points[0].separation;
  return face_manifold(s, xs, rel, b, margin, least >= 0);
}

CastResult cast_ray(const ChainSegment& s, const Transform& xs, const Ray& ray, float radius) noexcept {
  if (!is_valid(xs) || !is_valid_point(ray.origin)) return kMiss;
  if (!in_front(s, inv_transform_point(xs, ray.origin))) return kMiss;  // from behind: passes through
  const CastResult h = radius > 0 ? cast_ray(s.shape, xs, ray, radius) : cast_ray(s.shape, xs, ray);
  if (!h.hit || dot(inv_rotate(xs.q, h.normal), s.normal) < 0) return kMiss;
  return h;
}

CastResult cast_shape(const Shape& a, const Transform& xa, Vec2 translation_a, const ChainSegment& s,
                      const Transform& xs, Vec2 translation_s, const ShapeCastOptions& options) noexcept {
  if (!is_valid(xa) || !is_valid(xs)) return kMiss;
  const Vec2 centroid = inv_transform_point(xs, transform_point(xa, a.core_centroid()));
  if (!in_front(s, centroid)) return kMiss;
  CastResult h = cast_shape(a, xa, translation_a, s.shape, xs, translation_s, options);
  // The normal points from a to the segment: the segment's outward normal there is its opposite.
  if (!h.hit || (h.fraction > 0 && dot(inv_rotate(xs.q, h.normal), s.normal) > 0)) return kMiss;
  // The normal chosen as collide() chooses: a box's corner at a crest meets it along a ghost normal,
  // which would stop a box walking over the crest as at a wall.
  switch (normal_owner(s, -inv_rotate(xs.q, h.normal))) {
    case Owner::self:
      break;
    case Owner::next:  // inside the fan of the convex corner at b: the next segment reports it, if it sees a
      if (next_sees(s, centroid)) return kMiss;
      break;
    case Owner::ghost:
      h.normal = -rotate(xs.q, s.normal);
      break;
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

ApproachResult closest_approach(const Shape& a, const Transform& xa, Vec2 velocity_a, const ChainSegment& s,
                                const Transform& xs, Vec2 velocity_s, float horizon) noexcept {
  ApproachResult r = closest_approach(a, xa, velocity_a, s.shape, xs, velocity_s, horizon);
  if (r.distance == kHugeDistance) return r;  // invalid input: the empty answer already
  if (!in_front(s, inv_transform_point(xs, transform_point(xa, a.core_centroid())))) {
    return {false, 0, kHugeDistance, {0, 0}, {0, 0}, {0, 0}};
  }
  if (r.hit && r.time > 0 && dot(inv_rotate(xs.q, r.normal), s.normal) > 0) r.hit = false;  // from behind
  return r;
}

}  // namespace pebble
