// The ray cast every cast query ends in: a ray segment against a convex core grown by a radius, in
// the core's frame [seed-rounded §8]. cast_ray() runs it on a shape's core; cast_shape() and
// closest_approach() on the Minkowski difference of two cores [seed-detection §4] [seed-cpa §2].
//
// Method [seed-rounded §8]: clip the ray (Cyrus-Beck) against the outer edges (core edges pushed out
// by the radius) extended until they meet. The entry point lies on the latest entering plane's outer
// edge, or past one of its ends in the wedge between the two extensions, where the ray, a chord of
// the convex extended polygon, can meet the shape only on that end's corner circle. A ray starting
// inside the extended polygon starts inside the shape or in its nearest core vertex's wedge.
// Circles (no edge) and capsules (parallel edges: a slab) take their own paths, as the seed says.
// Mostly scalars, not Vec2 values, which GCC keeps packed in one register and shuffles apart.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "pebble/math.hpp"
#include "pebble/ray.hpp"
#include "simd/config.hpp"
#include "tolerances.hpp"

// PEBBLE_HOT_INLINE keeps the small functions below, each called from one place, in registers;
// PEBBLE_CAST_UNROLL unrolls the clip's plane loop, for fewer loop branches (docs/casts.md).
#if defined(__GNUC__) || defined(__clang__)
#define PEBBLE_CAST_UNROLL _Pragma("GCC unroll 8")
#else
#define PEBBLE_CAST_UNROLL
#endif

namespace pebble::cast_core {

/// Where a ray meets a rounded polygon, in the polygon's frame; the contact is the ray's point at t.
struct LocalHit {
  enum class Kind : int {
    miss,    ///< no contact within the ray
    inside,  ///< the origin is inside the rounded polygon or on its surface (t = 0)
    edge,    ///< first contact on the outer edge `feature`
    corner,  ///< first contact on the corner circle of vertex `feature`
  };
  Kind kind = Kind::miss;
  float t = 1;  ///< fraction of the ray at the contact
  int feature = 0;
  float nx = 0, ny = 0;  ///< outward unit normal at the contact (zero for inside and miss)
};

inline constexpr LocalHit kInside{LocalHit::Kind::inside, 0, 0, 0, 0};

inline LocalHit tiny_circle_contact(float mx, float my, float r, float t0, float dx, float dy, int vertex);

/// The ray o + (t - t0) d (t0 <= t <= 1) against the disc of radius r about c, given as m = o - c
/// and r in units of `unit` (1, or a power of 2 for tiny discs): first contact, or inside (at t0).
PEBBLE_HOT_INLINE LocalHit circle_contact(float mx, float my, float r, float t0, float dx, float dy, int vertex,
                                          float unit) {
  const float mm = mx * mx + my * my;
  const float cc = mm - r * r;
  if (cc <= 0) {
    // Below about 1e-18 the squares are denormals or 0: measure in units of their own size.
    if (unit == 1 && mm < kTinySquare && r < kTinyLength && (mx != 0 || my != 0))
      return tiny_circle_contact(mx, my, r, t0, dx, dy, vertex);
    return {LocalHit::Kind::inside, t0, vertex, 0, 0};
  }
  const float b = mx * dx + my * dy;
  if (!(b < 0)) return {};  // moving away, along the tangent, or not moving
  // The discriminant b^2 - |d|^2 cc written as |d|^2 r^2 - (m x d)^2 (Lagrange's identity),
  // which does not cancel when the ray starts far from the disc.
  const float a = dx * dx + dy * dy;
  const float cr = mx * dy - my * dx;
  const float disc = a * r * r - cr * cr;
  if (disc < 0) return {};
  // The smaller root as cc / (-b + sqrt(disc)) (roots' product cc / a), which does not cancel for a
  // ray starting close to the circle. In units, |m + tau d| = r still holds: tau needs no rescaling.
  const float tau = cc / (std::sqrt(disc) - b);
  if (!(t0 + unit * tau <= 1)) return {};
  // The radial direction m + tau d has length r at the contact; r = 0 (a point, met only head
  // on) takes the direction facing the ray.
  const float inv = r > 0 ? 1 / r : -1 / std::sqrt(a);
  float nx = r > 0 ? inv * (mx + tau * dx) : inv * dx, ny = r > 0 ? inv * (my + tau * dy) : inv * dy;
  if (!(std::fabs(nx * nx + ny * ny - 1) <= kRadialSlack)) {
    // Off unit length: rounding of coordinates much larger than r, or 1 / r overflowed. Its
    // direction is still the answer; a zero vector becomes the one facing the ray.
    Vec2 n = r > 0 ? normalize(Vec2{mx + tau * dx, my + tau * dy}) : Vec2{};
    if (n == Vec2{}) n = normalize(Vec2{-dx, -dy});
    nx = n.x;
    ny = n.y;
  }
  return {LocalHit::Kind::corner, t0 + unit * tau, vertex, nx, ny};
}

/// circle_contact() for a disc and origin so close that their squares vanish, in units of the power
/// of 2 nearest their size. Out of line: never on ordinary input.
inline LocalHit tiny_circle_contact(float mx, float my, float r, float t0, float dx, float dy, int vertex) {
  int exponent = 0;
  std::frexp(std::fabs(mx) + std::fabs(my) + r, &exponent);
  const float unit = std::ldexp(1.0f, exponent);
  return circle_contact(mx / unit, my / unit, r / unit, t0, dx, dy, vertex, unit);
}

/// The rest of a ray from o at fraction t0 against the disc of radius r about c: first contact, or
/// inside (at t0). A radius-0 disc is hit only head on, the normal facing the ray. The corner test
/// starts the ray at its entry into the extended polygon, so m = o - c is about r long and the
/// discriminant keeps its precision however far away the ray started.
PEBBLE_HOT_INLINE LocalHit cast_circle(float cx, float cy, float r, float ox, float oy, float t0, float dx, float dy,
                                       int vertex) {
  return circle_contact(ox - cx, oy - cy, r, t0, dx, dy, vertex, 1);
}

/// (nx, ny) moved into a corner's normal cone (counter-clockwise from `prev` to `next`, at most a
/// half turn): a corner circle below the planes' rounding gets its radial direction from noise, and
/// every outward normal of the corner lies in this cone.
PEBBLE_HOT_INLINE void clamp_to_cone(LocalHit& hit, Vec2 prev, Vec2 next) {
  const Vec2 n{hit.nx, hit.ny};
  if (cross(prev, n) >= 0 && cross(n, next) >= 0) return;
  const Vec2 side = dot(n, prev) > dot(n, next) ? prev : next;  // the nearer side of the cone
  hit.nx = side.x;
  hit.ny = side.y;
}

/// An outer edge the clip entered: from core vertex a, vector e, outward unit normal n; entry q at t.
struct Entry {
  Vec2 a, e, n, q;
  float t;
  int edge;
};

/// A core vertex as a corner: position, index, normal cone (from the previous edge's normal CCW to the next's).
struct Corner {
  Vec2 c;
  int index;
  Vec2 prev, next;
};

/// The contact after the clip entered through `in`: on the outer edge, or past an end on that
/// end's corner circle (inside the extended polygon, so not met before the entry). `scale`: the
/// entry point's numbers. Lane twin: after_entry_lanes() (cast/ray_lanes.hpp).
PEBBLE_HOT_INLINE LocalHit contact_after_entry(const Entry& in, float r, float dx, float dy, float scale,
                                               const Corner& start, const Corner& end) {
  const float s = (in.q.x - in.a.x) * in.e.x + (in.q.y - in.a.y) * in.e.y, len2 = in.e.x * in.e.x + in.e.y * in.e.y;
  // An edge of length 0 (two coincident vertices of a degenerate difference) has every entry
  // point at s = 0: the contact is on its vertex's circle, as beyond any edge's end.
  if (s >= 0 && s <= len2 && len2 > 0) return {LocalHit::Kind::edge, in.t, in.edge, in.n.x, in.n.y};
  const Corner& k = s < 0 ? start : end;
  LocalHit hit = cast_circle(k.c.x, k.c.y, r, in.q.x, in.q.y, in.t, dx, dy, k.index);
  if (hit.kind == LocalHit::Kind::inside) {
    // The entry point is on the circle to rounding (the circle touches the extended polygon's
    // edges there): the contact is at the entry point, with its radial normal.
    const Vec2 radial = normalize(in.q - k.c);
    hit.kind = LocalHit::Kind::corner;
    hit.nx = radial == Vec2{} ? in.n.x : radial.x;
    hit.ny = radial == Vec2{} ? in.n.y : radial.y;
  } else if (hit.kind == LocalHit::Kind::miss) {
    const float len = std::sqrt(len2);
    // How far the entry point lies past the edge's end, along it (length 0: across its normal).
    const float beyond = len2 > 0 ? (s < 0 ? -s : s - len2) / len : std::fabs(cross(in.n, in.q - in.a));
    if (beyond > kEntryRoundingFraction * (scale + len)) return hit;
    return {LocalHit::Kind::edge, in.t, in.edge, in.n.x, in.n.y};
  }
  clamp_to_cone(hit, k.prev, k.next);
  return hit;
}

/// The ray o + t d (0 <= t <= 1) against segment a-b grown by r >= 0, n the unit normal of edge
/// a -> b (edge 1, b -> a, has -n): a slab. Lane twin: capsule_lanes() (cast/ray_lanes.hpp).
PEBBLE_HOT_INLINE LocalHit cast_capsule(Vec2 a, Vec2 b, Vec2 n, float r, float ox, float oy, float dx, float dy) {
  const Vec2 e = b - a;
  // Ends rounded into one point (a short difference far from the origin): a disc. The slab below
  // would take any origin beside that point's line, however far along it, for inside.
  if (e.x == 0 && e.y == 0) [[unlikely]]
    return cast_circle(a.x, a.y, r, ox, oy, 0, dx, dy, 0);
  const float h = n.x * (ox - a.x) + n.y * (oy - a.y), hd = n.x * dx + n.y * dy;  // height, its rate
  const Vec2 minus_n{-n.x, -n.y};
  if (h > r || h < -r) {
    // Entering the slab through the side facing the origin, if at all.
    const bool above = h > r;
    if (above ? !(hd < 0) : !(hd > 0)) return {};
    const float t = above ? (h - r) / -hd : (-r - h) / hd;
    if (!(t <= 1)) return {};
    const Entry in{a, e, above ? n : minus_n, {ox + t * dx, oy + t * dy}, t, above ? 0 : 1};
    const float scale =
        std::fabs(ox) + std::fabs(oy) + t * (std::fabs(dx) + std::fabs(dy)) + std::fabs(a.x) + std::fabs(a.y);
    // Either side is measured from a along e: the corners are a (cone from -n round to n, beyond
    // a) and b (from n round to -n).
    return contact_after_entry(in, r, dx, dy, scale, {a, 0, minus_n, n}, {b, 1, n, minus_n});
  }
  // Starting in the slab: inside beside the segment, else only the nearer end's circle.
  const float s = (ox - a.x) * e.x + (oy - a.y) * e.y;
  if (s >= 0 && s <= dot(e, e)) return kInside;
  const bool at_a = s < 0;
  LocalHit hit = cast_circle(at_a ? a.x : b.x, at_a ? a.y : b.y, r, ox, oy, 0, dx, dy, at_a ? 0 : 1);
  if (hit.kind == LocalHit::Kind::corner) {
    if (at_a)
      clamp_to_cone(hit, minus_n, n);
    else
      clamp_to_cone(hit, n, minus_n);
  }
  return hit;
}

/// A convex polygon of 3+ vertices (v[count] repeats v[0]) and its edge planes as lanes (outward
/// normal nx, ny, offset off = normal . v[i]), as Shape keeps them.
struct PolygonLanes {
  const Vec2* v;
  const float* nx;
  const float* ny;
  const float* off;
  int count;
  // Whether a sharp entry past an edge's end must be checked (sharp_entry_holds): a shape's
  // has_slivers(); true for the polygons a cast builds (Minkowski differences), which have no flag.
  bool slivers = true;
  Vec2 normal(int i) const { return {nx[i], ny[i]}; }
};

/// Cyrus-Beck over the planes grown by r: [lower, upper] is the part of [0, 1] inside every one;
/// entry the plane of lower when lower > 0, else -1 (origin inside every plane).
struct Clip {
  float lower, upper;
  int entry;
  bool empty;
};

/// kGrown false: r = 0, not even added (sharp polygons). kCount > 0: exactly that many planes, unrolled.
template <bool kGrown = true, int kCount = 0>
PEBBLE_HOT_INLINE Clip clip_planes(const PolygonLanes& p, float r, float ox, float oy, float dx, float dy) {
  // Per plane: num >= 0 with the origin inside, den < 0 when the ray enters; crossings compared by
  // cross-multiplying, so only those that move a bound are divided. Running along a plane from
  // outside rules out contact. (A branch-free lane scan would be one long dependency chain.)
  float lower = 0, upper = 1;
  int entry = -1;
  const int count = kCount > 0 ? kCount : p.count;
  PEBBLE_CAST_UNROLL
  for (int i = 0; i < count; ++i) {
    const float num = (kGrown ? p.off[i] + r : p.off[i]) - (p.nx[i] * ox + p.ny[i] * oy);
    const float den = p.nx[i] * dx + p.ny[i] * dy;
    // (The bounds can only cross where one of them moves: the test is there.)
    if (den < 0) {
      if (num < lower * den) {
        lower = num / den;
        entry = i;
        if (upper < lower) return {lower, upper, -1, true};
      }
    } else if (den > 0) {
      if (num < upper * den) {
        upper = num / den;
        if (upper < lower) return {lower, upper, -1, true};
      }
    } else if (num < 0) {
      return {lower, upper, -1, true};
    }
  }
  return {lower, upper, entry, false};
}

/// For o below every plane: whether it is inside by the vertices too (over an edge, its foot widened
/// by the depth, not in a vertex's wedge): rounded planes (6e-8 rad is 0.06 at 1e6) let a point past
/// a sliver's tip lie below them all. The walk starts at the edge o is least below and goes toward
/// its foot, as rounding may have picked a parallel neighbour. `vertex`: the wedge's, if any.
PEBBLE_HOT_INLINE bool over_an_edge(const PolygonLanes& p, float ox, float oy, int& vertex, float& depth) {
  const int n = p.count;
  int i = 0;
  float most = -std::numeric_limits<float>::infinity();
  for (int k = 0; k < n; ++k) {
    const float beyond = p.nx[k] * ox + p.ny[k] * oy - p.off[k];
    if (beyond > most) {
      most = beyond;
      i = k;
    }
  }
  depth = std::max(-most, 0.0f);
  int step = 0;
  for (int k = 0; k < n; ++k) {
    const int next = i + 1 == n ? 0 : i + 1;
    const float tx = -p.ny[i], ty = p.nx[i];                     // the edge's direction
    if (tx * (ox - p.v[i].x) + ty * (oy - p.v[i].y) < -depth) {  // before its start
      if (step > 0) {
        vertex = i;
        return false;
      }
      step = -1;
      i = i == 0 ? n - 1 : i - 1;
    } else if (tx * (ox - p.v[i + 1].x) + ty * (oy - p.v[i + 1].y) > depth) {  // beyond its end
      if (step < 0) {
        vertex = next;
        return false;
      }
      step = 1;
      i = next;
    } else {
      return true;
    }
  }
  return true;
}

/// A ray starting below every plane of a sharp polygon (a clip with no entry): inside, or from
/// beyond a sliver's tip (over_an_edge), the tip as a disc of the depth, the planes' rounding.
PEBBLE_HOT_INLINE LocalHit sharp_start(const PolygonLanes& p, float ox, float oy, float dx, float dy) {
  int k = 0;
  float depth = 0;
  if (over_an_edge(p, ox, oy, k, depth)) return kInside;
  LocalHit hit = cast_circle(p.v[k].x, p.v[k].y, depth, ox, oy, 0, dx, dy, k);
  if (hit.kind == LocalHit::Kind::corner) clamp_to_cone(hit, p.normal(k == 0 ? p.count - 1 : k - 1), p.normal(k));
  return hit;
}

/// The distance of segments p1-q1 and p2-q2: 0 when they cross, else the least endpoint distance.
/// Out of line: only the rare sharp entry past an edge's end asks. closest_segments()
/// (contact/core.hpp) multiplies by reciprocals where this divides; one function would change the
/// bits of one of them (docs/architecture.md).
[[gnu::noinline]] inline float segment_distance(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2) {
  const Vec2 d1 = q1 - p1, d2 = q2 - p2;
  const float o1 = cross(d1, p2 - p1), o2 = cross(d1, q2 - p1), o3 = cross(d2, p1 - p2), o4 = cross(d2, q1 - p2);
  if (((o1 < 0 && o2 > 0) || (o1 > 0 && o2 < 0)) && ((o3 < 0 && o4 > 0) || (o3 > 0 && o4 < 0))) return 0;
  const auto to_segment = [](Vec2 x, Vec2 a, Vec2 d) {
    const float len2 = dot(d, d);
    const float u = len2 > 0 ? std::clamp(dot(x - a, d) / len2, 0.0f, 1.0f) : 0.0f;
    return distance_squared(x, a + u * d);
  };
  return std::sqrt(std::min(std::min(to_segment(p1, p2, d2), to_segment(q1, p2, d2)),
                            std::min(to_segment(p2, p1, d1), to_segment(q2, p1, d1))));
}

/// A sharp polygon is its extended polygon: the clip's entry (fraction t, plane of edge i) is on
/// the edge, or past an end by the planes' rounding, which a ray nearly along the edge stretches.
/// Not so for a sliver: its rounded planes meet anywhere along its line, and a ray can enter them
/// far from its vertices and miss the polygon. So past an end, the entry counts only when the rest
/// of the ray passes within the entry's rounding of the two edges there. cast_ray()'s lean sharp path
/// asks it too, so a radius-0 circle cast stays the ray cast; only for shapes with a sliver vertex
/// (Shape::has_slivers(), kSliverCosine) and cast-built polygons. Cases: docs/casts.md.
[[gnu::noinline, gnu::cold]] inline bool sharp_entry_past_an_end_holds(const PolygonLanes& p, int i, float s,
                                                                       float len2, Vec2 q, float t, float ox, float oy,
                                                                       float dx, float dy) {
  const int n = p.count, k = s < 0 ? i : (i + 1 == n ? 0 : i + 1);
  const int before = k == 0 ? n - 1 : k - 1, after = k + 1 == n ? 0 : k + 1;
  const Vec2 a = p.v[i];
  const float scale =
      std::fabs(ox) + std::fabs(oy) + t * (std::fabs(dx) + std::fabs(dy)) + std::fabs(a.x) + std::fabs(a.y);
  const Vec2 end{ox + dx, oy + dy};
  const float near =
      std::min(segment_distance(q, end, p.v[before], p.v[k]), segment_distance(q, end, p.v[k], p.v[after]));
  return near <= kEntryRoundingFraction * (scale + std::sqrt(len2));
}

PEBBLE_HOT_INLINE bool sharp_entry_holds(const PolygonLanes& p, int i, float t, float ox, float oy, float dx,
                                         float dy) {
  const Vec2 a = p.v[i], e = p.v[i + 1] - a, q{ox + t * dx, oy + t * dy};
  const float s = (q.x - a.x) * e.x + (q.y - a.y) * e.y, len2 = e.x * e.x + e.y * e.y;
  // (An edge of length 0 has every point at s = 0: whether the ray passes its vertex is the slow
  // path's question.)
  if (s >= 0 && s <= len2 && len2 > 0) [[likely]]
    return true;
  return sharp_entry_past_an_end_holds(p, i, s, len2, q, t, ox, oy, dx, dy);
}

/// The ray o + t d (0 <= t <= 1) against the polygon grown by r >= 0, all in its frame. Its lane
/// twin for 4-vertex cores with r > 0: quad_lanes() (cast/ray_lanes.hpp).
PEBBLE_HOT_INLINE LocalHit cast_polygon(const PolygonLanes& p, float r, float ox, float oy, float dx, float dy) {
  const Clip clip = clip_planes(p, r, ox, oy, dx, dy);
  if (clip.empty) return {};
  const int n = p.count;

  if (clip.entry >= 0) {
    const int i = clip.entry, j = i + 1 == n ? 0 : i + 1;
    // Sharp: the entry is on the edge to rounding, no corner circle to fall back to, unless a
    // sliver's planes let the ray in past its tip (sharp_entry_holds()).
    if (r == 0) {
      if (p.slivers && !sharp_entry_holds(p, i, clip.lower, ox, oy, dx, dy)) return {};
      return {LocalHit::Kind::edge, clip.lower, i, p.nx[i], p.ny[i]};
    }
    const Vec2 a = p.v[i];
    const Entry in{a, p.v[i + 1] - a, p.normal(i), {ox + clip.lower * dx, oy + clip.lower * dy}, clip.lower, i};
    const float scale =
        std::fabs(ox) + std::fabs(oy) + clip.lower * (std::fabs(dx) + std::fabs(dy)) + std::fabs(a.x) + std::fabs(a.y);
    return contact_after_entry(in, r, dx, dy, scale, {a, i, p.normal(i == 0 ? n - 1 : i - 1), in.n},
                               {p.v[j], j, in.n, p.normal(j)});
  }

  // Sharp: a clip with no entry starts inside (or past a sliver's tip), as cast_ray()'s lean sharp
  // path says (src/cast/ray.cpp), bit for bit; the vertex test below could disagree where an exit
  // plane's crossing underflowed to -0.
  if (r == 0) return sharp_start(p, ox, oy, dx, dy);

  // The origin is inside the extended polygon: inside the shape, or in its nearest core vertex's
  // wedge (an edge o lies beyond is within r by its outer plane, so that is inside too).
  // Planes and vertices agree only to rounding (a normal turned by a rotation too small to move
  // large vertices), so o can be beyond one plane yet beside no edge by the vertices; "the nearest
  // vertex" would then cast from thousands of times r away. So the nearest core point is also
  // measured from the vertices: inside an edge (nearer than every vertex), that edge is within r.
  bool in_core = true;
  int nearest = 0;
  float best = std::numeric_limits<float>::infinity(), best_edge = best;
  for (int i = 0; i < n; ++i) {
    const Vec2 a = p.v[i], e = p.v[i + 1] - a;
    const float beyond = p.nx[i] * ox + p.ny[i] * oy - p.off[i], s = (ox - a.x) * e.x + (oy - a.y) * e.y;
    const float len2 = dot(e, e);
    in_core = in_core && beyond <= 0;
    if (s > 0 && s < len2) {
      const float u = s / len2, fx = ox - (a.x + u * e.x), fy = oy - (a.y + u * e.y);  // o less the foot
      const float foot2 = fx * fx + fy * fy;
      // Beyond the edge: within r by its plane and by its vertices, which can point another way
      // than its normal; within r to the coordinates' rounding, since the planes put o inside
      // (docs/casts.md, Speed; [issue-robustness]).
      if (beyond > 0) {
        const float rounding =
            kEntryRoundingFraction * (std::fabs(ox) + std::fabs(oy) + std::fabs(a.x) + std::fabs(a.y));
        if (foot2 <= (r + rounding) * (r + rounding)) return kInside;
      } else {
        best_edge = std::min(best_edge, foot2);
      }
    }
    const float d2 = (ox - a.x) * (ox - a.x) + (oy - a.y) * (oy - a.y);
    if (d2 < best) {
      best = d2;
      nearest = i;
    }
  }
  int tip = 0;
  float depth = 0;
  if ((in_core && over_an_edge(p, ox, oy, tip, depth)) || best_edge < best) return kInside;
  const Vec2 c = p.v[nearest];
  LocalHit hit = cast_circle(c.x, c.y, r, ox, oy, 0, dx, dy, nearest);  // inside when within r
  if (hit.kind == LocalHit::Kind::corner)
    clamp_to_cone(hit, p.normal(nearest == 0 ? n - 1 : nearest - 1), p.normal(nearest));
  return hit;
}

/// The circle cast of cast_ray(shape, xf, ray, radius) for any finite radius >= 0 (src/cast/ray.cpp):
/// cast_shape() casts a disc shape this way against the other shape.
CastResult cast_disc(const Shape& shape, const Transform& xf, const Ray& ray, float radius) noexcept;

}  // namespace pebble::cast_core
