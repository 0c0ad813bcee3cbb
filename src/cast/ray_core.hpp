// The one ray cast every cast query ends in: a ray segment against a convex polygon core grown by
// a radius, in the polygon's own frame [seed-rounded §8]. raycast() runs it
// on a shape's core; shape_cast() and closest_approach() on the Minkowski difference of two cores
// [seed-detection §4] [seed-cpa §2]. Not part of the API.
//
// Method [seed-rounded §8]: clip the ray against the polygon formed by the outer edges (each core edge
// pushed out by the radius) extended until they meet (Cyrus-Beck: the latest entering plane and
// the earliest leaving one). The entry point lies on the outer edge of the latest entering
// plane, or beyond one of its ends, in the wedge between that edge's extension and its
// neighbour's; then the ray can only meet the shape on that end's corner circle (the wedge is
// bounded by the two extensions and the arc, and the ray, a chord of the convex extended
// polygon, leaves it through the arc or not at all). A ray starting inside the extended
// polygon starts inside the shape or in the wedge of its nearest core vertex. As the seed says,
// circles and capsules take their own paths: a circle has no edge, and a capsule's two edges are
// parallel (its extended polygon is a slab).
//
// Everything is float, like the rest of pebble's contact queries, and mostly written on scalars
// rather than Vec2 values (which GCC keeps packed in one register and shuffles apart at every
// use).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "pebble/math.hpp"
#include "pebble/ray.hpp"
#include "simd/config.hpp"
#include "tolerances.hpp"

// The cast functions below are small and called from one place per query: PEBBLE_HOT_INLINE puts
// them into it, so that their values stay in registers instead of passing through memory.
// Unrolling the clip's plane loop halves its loop branches (docs/casts.md, Speed).
#if defined(__GNUC__) || defined(__clang__)
#define PEBBLE_CAST_UNROLL _Pragma("GCC unroll 8")
#else
#define PEBBLE_CAST_UNROLL
#endif

namespace pebble::cast_core {

/// Where a ray meets a rounded polygon, in the polygon's frame. The contact point is the ray's
/// point at t.
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

/// The ray o + (t - t0) d (t0 <= t <= 1) against the disc of radius r about c, given as
/// m = o - c and r in units of `unit` (1, or a power of 2 for tiny discs, see below): the first
/// contact, or inside (at t0).
PEBBLE_HOT_INLINE LocalHit circle_contact(float mx, float my, float r, float t0, float dx, float dy, int vertex,
                                          float unit) {
  const float mm = mx * mx + my * my;
  const float cc = mm - r * r;
  if (cc <= 0) {
    // A disc and an origin both closer than about 1e-18 (lengths whose squares are float
    // denormals or 0) decide "inside" from what is left of the squares: measure them in units
    // of their own size instead.
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
  // The smaller root as cc / (-b + sqrt(disc)): the product of the roots is cc / a, and this
  // form does not cancel when the ray starts close to the circle. (In units: |m + tau d| = r
  // holds for m, r and tau all measured in them, so tau scales back by the unit.)
  const float tau = cc / (std::sqrt(disc) - b);
  if (!(t0 + unit * tau <= 1)) return {};
  // The radial direction m + tau d has length r at the contact; r = 0 (a point, met only head
  // on) takes the direction facing the ray.
  const float inv = r > 0 ? 1 / r : -1 / std::sqrt(a);
  float nx = r > 0 ? inv * (mx + tau * dx) : inv * dx, ny = r > 0 ? inv * (my + tau * dy) : inv * dy;
  if (!(std::fabs(nx * nx + ny * ny - 1) <= kRadialSlack)) {
    // Off unit length: m + tau d carries the rounding of coordinates much larger than r (a ray
    // from afar, a radius near float's resolution), or 1 / r overflowed. Its direction is still
    // the answer; a zero vector (or a direction out of noise) becomes the one facing the ray.
    Vec2 n = r > 0 ? normalize(Vec2{mx + tau * dx, my + tau * dy}) : Vec2{};
    if (n == Vec2{}) n = normalize(Vec2{-dx, -dy});
    nx = n.x;
    ny = n.y;
  }
  return {LocalHit::Kind::corner, t0 + unit * tau, vertex, nx, ny};
}

/// circle_contact() for a disc and origin so close that their squares vanish: in units of the
/// power of 2 nearest their size, where the squares are ordinary floats again. (Kept out of
/// line: it never runs on ordinary input.)
inline LocalHit tiny_circle_contact(float mx, float my, float r, float t0, float dx, float dy, int vertex) {
  int exponent = 0;
  std::frexp(std::fabs(mx) + std::fabs(my) + r, &exponent);
  const float unit = std::ldexp(1.0f, exponent);
  return circle_contact(mx / unit, my / unit, r / unit, t0, dx, dy, vertex, unit);
}

/// The rest of a ray, from its point o at fraction t0 on (o + (t - t0) d, t0 <= t <= 1),
/// against the disc of radius r about c: the first contact, or inside (at t0) when o lies in
/// the disc. A disc of radius 0 is hit only by a ray through its point; the normal there faces
/// the ray. The corner test starts the ray at its entry into the extended polygon, next to the
/// corner: then m = o - c is about r long and the discriminant keeps its precision however far
/// away the ray started.
PEBBLE_HOT_INLINE LocalHit cast_circle(float cx, float cy, float r, float ox, float oy, float t0, float dx, float dy,
                                       int vertex) {
  return circle_contact(ox - cx, oy - cy, r, t0, dx, dy, vertex, 1);
}

/// (nx, ny) moved into the normal cone of a polygon corner, the directions counter-clockwise
/// from `prev` (the normal of the edge before the corner) to `next` (the edge after it), at most
/// a half turn. A corner circle smaller than the rounding of the planes (a radius far below
/// float precision of the vertices) gets its radial direction from noise; every outward normal
/// of the corner lies in this cone, so the answer stays a true surface normal.
PEBBLE_HOT_INLINE void clamp_to_cone(LocalHit& hit, Vec2 prev, Vec2 next) {
  const Vec2 n{hit.nx, hit.ny};
  if (cross(prev, n) >= 0 && cross(n, next) >= 0) return;
  const Vec2 side = dot(n, prev) > dot(n, next) ? prev : next;  // the nearer side of the cone
  hit.nx = side.x;
  hit.ny = side.y;
}

/// An outer edge the clip entered through: the edge from core vertex a, vector e, outward unit
/// normal n, and the entry point q at fraction t.
struct Entry {
  Vec2 a, e, n, q;
  float t;
  int edge;
};

/// A core vertex as a corner: its position, index and normal cone (counter-clockwise from the
/// normal of the edge before it to the normal of the edge after it).
struct Corner {
  Vec2 c;
  int index;
  Vec2 prev, next;
};

/// The contact after the clip entered through `in`: on the outer edge itself, or beyond one of
/// its ends on that end's corner circle (the circle cannot be met before the entry point, as it
/// lies inside the extended polygon). `start` and `end` are the corners at a and a + e; `scale`
/// the size of the numbers the entry point came from. Its lane twin: after_entry_lanes()
/// (cast/ray_lanes.hpp).
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
    // How far the entry point lies past the edge's end, along the edge (for an edge of length 0,
    // across its normal).
    const float beyond = len2 > 0 ? (s < 0 ? -s : s - len2) / len : std::fabs(cross(in.n, in.q - in.a));
    if (beyond > kEntryRoundingFraction * (scale + len)) return hit;
    return {LocalHit::Kind::edge, in.t, in.edge, in.n.x, in.n.y};
  }
  clamp_to_cone(hit, k.prev, k.next);
  return hit;
}

/// The ray o + t d (0 <= t <= 1) against the segment a-b grown by r (a capsule; r = 0 a sharp
/// segment). n is the unit normal of the edge a -> b (edge 0; edge 1 is b -> a, normal -n).
/// The outer edges are the lines at +-r from the segment's line: a slab. Its lane twin:
/// capsule_lanes() (cast/ray_lanes.hpp).
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

/// A convex polygon of 3 or more vertices: `count` vertices (v[count] repeats v[0], so edge i
/// runs from v[i] to v[i + 1]) and its edge planes as lanes (unit outward normal nx, ny and
/// offset off = normal . v[i]), the layout Shape keeps them in.
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

/// Cyrus-Beck over the polygon's planes grown by r: [lower, upper] is the part of [0, 1] inside
/// every one; entry is the plane whose crossing is lower when lower > 0 (the ray enters there),
/// else -1 (the origin is inside every plane). empty: no part of the ray is inside.
struct Clip {
  float lower, upper;
  int entry;
  bool empty;
};

/// (kGrown false: r is 0 and not even added, for sharp polygons. kCount > 0: the polygon has
/// exactly that many planes, and the loop is unrolled.)
template <bool kGrown = true, int kCount = 0>
PEBBLE_HOT_INLINE Clip clip_planes(const PolygonLanes& p, float r, float ox, float oy, float dx, float dy) {
  // Per plane: num >= 0 when the origin is on its inner side, den < 0 when the ray enters it;
  // its crossing num / den counts as an entry or an exit, compared by cross-multiplying so that
  // only crossings that move a bound are divided. A plane the ray runs along from outside rules
  // out any contact. (Not a branch-free 4-lane scan of all planes: its division, maximum folds
  // and lane search form one long dependency chain per query.)
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

/// For an origin o below every plane of a polygon: whether it is inside by the vertices too, over
/// an edge (its foot within the edge, widened by the depth below the nearest plane) and not in a
/// vertex's wedge. Rounded planes (a normal off by 6e-8 rad is 0.06 off 1e6 from the origin) let a
/// point beyond the sharp tip of a sliver lie below them all. The walk starts at the edge o is
/// least below and goes toward its foot: rounding may have chosen a nearly parallel neighbour of
/// the edge o is over. `vertex` gets the wedge's vertex when there is one.
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

/// The distance between segments p1-q1 and p2-q2: 0 when they cross, else the least of the four
/// endpoint-to-segment distances. (Out of line: only the rare sharp entry past an edge's end asks.)
/// The same question as closest_segments() (contact/core.hpp) with other float operations: this
/// divides by each squared length where that multiplies by its reciprocal, so one function for
/// both would change the bits of this decision or of every contact (docs/architecture.md).
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

/// A sharp polygon is its extended polygon: the clip's entry point (at fraction t on the plane
/// of edge i) is on the edge, or past one of its ends by the rounding of the planes, which a ray
/// nearly along the edge's line can stretch far (a ray through a vertex of the difference of two
/// sharp segments entered 8e-5 past it). Not so for a sliver (the difference of two sharp segments
/// 1e-20 off parallel, 2e-20 wide, or a sharp sliver triangle): its rounded planes meet anywhere
/// along its line, and the ray can enter them far from its vertices, where it misses the polygon
/// (found by the world fuzzer: a shape cast reported a touch 43 units from the collider). So past
/// an end, the entry counts only when the rest of the ray passes within the entry's rounding of
/// the two edges at that end. raycast()'s lean path for sharp polygons asks it too, so that a circle
/// cast of radius 0 stays the ray cast: a sharp triangle 72 long and 0.01 wide, 1e4 from the ray's
/// origin, took rays passing up to several units beyond its tip for hits without it (the ray's
/// origin rounds in the shape's frame, and the nearly parallel planes stretch that along the
/// sliver). It costs the lean path about 2 ns a ray, so it runs only for shapes with a sliver vertex
/// (Shape::has_slivers(), kSliverCosine says why no other shape needs it) and for the polygons a
/// cast builds.
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
  // (An edge of length 0, two vertices of a difference that coincide, has every point at s = 0:
  // whether the ray passes its vertex is the slow path's question. A shape cast of two parallel
  // sharp segments, one 6e-13 long, entered such an edge's plane 24 units from it.)
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
    // A sharp polygon is its extended polygon: the entry point is on the edge itself (to
    // rounding), with no corner circle to fall back to, unless a sliver's planes let the ray in
    // beyond its tip (sharp_entry_holds()).
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

  // A sharp polygon is its extended polygon: a clip with no entry starts inside it (or beyond a
  // sliver's tip), as raycast()'s lean path for sharp polygons says (src/cast/ray.cpp), bit for bit.
  // (The vertex test below could disagree where an exit plane's crossing underflowed to -0: the
  // origin a denormal beyond that plane, touching to any tolerance, kept a clip that "ends at 0".)
  if (r == 0) return sharp_start(p, ox, oy, dx, dy);

  // The origin is inside the extended polygon: inside the shape, or in the wedge of its
  // nearest core vertex. Outside the core, the nearest core point is inside an edge that o lies
  // beyond (with o between the normals at its ends) or else a vertex; the edge is within r (o
  // is inside that edge's outer plane), so that case is inside the shape too.
  //
  // The planes and the vertices agree only to rounding: an edge whose normal was turned by a
  // rotation too small to move its (large) vertices is a plane tilted against the line through
  // them. The origin can then lie beyond one plane, beside no edge it is beyond, and inside
  // every other plane while the vertices put it on (or within a hair of) an edge: "beyond no
  // edge, so the nearest vertex" would cast from a vertex thousands of times r away and miss
  // shapes overlapping by r. So the nearest core point is also measured from the vertices
  // alone: when it lies inside an edge (nearer than every vertex), that edge is within r too.
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
      // Beyond the edge: within r by its plane, and by its vertices too, which can point another
      // way than its normal (a short edge of a difference rounded far from the origin).
      // (Within r to the rounding of the coordinates: the clip found no entry, so the planes put
      // the origin inside; a foot 6e-6 beyond r = 0.6 from an edge 214 from the origin, moving
      // in, fell to a vertex 0.8 away and missed: the world fuzzer's mover [issue-robustness].)
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

/// The circle cast of raycast(shape, xf, ray, radius) for any finite radius >= 0 (src/cast/ray.cpp):
/// shape_cast() casts a disc shape this way against the other shape.
CastHit cast_disc(const Shape& shape, const Transform& xf, const Ray& ray, float radius) noexcept;

}  // namespace pebble::cast_core
