// pebble/primitives.hpp — the seed-004 toolbox ("Intersection tutorial"): quick tests on plain
// structs for code that needs no Shape (no rotation, no rounding, no manifold). Header-only.
// Conventions: y up; the boundary counts as inside, so touching counts as intersecting; every
// function is noexcept, allocates nothing and returns finite values for finite input.
//
// Exactness: every yes/no answer (contains, overlaps, intersect().hit, penetration().hit) is the
// exact answer for the float inputs as given, at any scale and mix of scales: a point exactly on
// an edge is inside, shapes that exactly touch overlap, one float step apart they do not. Each
// predicate is evaluated in double with a bound on its rounding error and, only when the value
// is within that bound of zero, again in exact arithmetic (Shewchuk's adaptive predicates;
// pebble/detail/exact.hpp). The other outputs (nearest points, the crossing point, separation vectors,
// normals) are computed in double and rounded to float once: accurate, not exact. Float inputs
// keep every double in range (a degree-4 product of floats stays below 2^512), which is why no
// function needs a guard against huge input.
#pragma once

#include <cmath>
#include <limits>
#include <span>

#include "pebble/detail/exact.hpp"
#include "pebble/math.hpp"

namespace pebble::prim {

/// A disc: every point within radius of center. A negative radius counts as 0 (a point).
struct Circle {
  Vec2 center{};     ///< the disc's centre
  float radius = 0;  ///< a negative radius counts as 0
};

/// The closed segment from a to b; a == b is a point.
struct Segment {
  ///@{
  Vec2 a{}, b{};  ///< the ends; a == b is the point a
  ///@}
};

/// The closed triangle abc, either winding; collinear or equal vertices make a segment or point.
struct Triangle {
  ///@{
  Vec2 a{}, b{}, c{};  ///< the corners, in either winding
  ///@}
};

/// An axis-aligned rectangle by its center and half width / half height ([seed-toolbox §1]'s "box").
/// Negative half extents count as 0.
struct Box {
  Vec2 center{};        ///< the box's centre
  Vec2 half_extents{};  ///< half width and half height; negative counts as 0
};

/// An axis-aligned rectangle by its corner with the smallest coordinates and its width / height
/// ([seed-toolbox §1]'s "rect"). pebble is y up, so origin is the lower-left corner; in the seed's y-down
/// screen coordinates the same corner is the top-left one. Negative sizes count as 0.
struct Rect {
  Vec2 origin{};  ///< the lower-left corner (y up)
  Vec2 size{};    ///< width and height; negative counts as 0
};

/// The lower/upper form ([seed-toolbox §1]'s "aabb" l, t, r, b) is pebble::Aabb from math.hpp. An
/// inverted Aabb (lower > upper on an axis) is not repaired: every function applies its formula
/// to the numbers as given. contains() is false (no p has lower <= p <= upper); overlaps() and
/// penetration() against another box are true when that box spans [upper, lower] on the axis;
/// the clamp (nearest_point, overlaps with a Circle) gives lower for p below lower, else upper;
/// to_box and to_rect give size 0 on that axis. Build boxes with bounds() or combine().
using pebble::Aabb;
/// combine(a, b) (union of two Aabb), contains(Aabb, Vec2 or Aabb) and overlaps(Aabb, Aabb) from
/// math.hpp belong to the toolbox too (boundary included, touching counts).
using pebble::combine;
using pebble::contains;
using pebble::overlaps;

/// Result of intersect(Segment, Segment).
struct SegmentHit {
  bool hit = false;  ///< the closed segments share at least one point (touching counts)
  Vec2 point{};      ///< a shared point ({0,0} when !hit); collinear overlap: the one nearest s.a
};

/// Result of penetration() between two rectangles.
struct Penetration {
  bool hit = false;   ///< the closed rectangles share at least one point (touching counts)
  Vec2 separation{};  ///< move the SECOND rectangle by this to make them just touch; {0,0} if !hit
};

/// Result of nearest_edge(): where the boundary nearest to a point is and which way it faces.
struct NearestEdge {
  Vec2 point{};   ///< the nearest point on the boundary
  Vec2 normal{};  ///< outward unit normal of the boundary there
};

namespace detail {

// The double-precision vector and the exact predicates, shared with the library (detail/exact.hpp).
using pebble::detail::abs;
using pebble::detail::cross;
using pebble::detail::D2;
using pebble::detail::d2;
using pebble::detail::dot;
using pebble::detail::error_bound;
using pebble::detail::exact_orient;
using pebble::detail::ExactSum;
using pebble::detail::orient;

constexpr double max0(double v) noexcept { return v > 0 ? v : 0; }  // NaN -> 0 as well
constexpr double clamp(double v, double lo, double hi) noexcept { return v < lo ? lo : (v > hi ? hi : v); }

// Rounds to float, saturating at the largest float so that an overflowing sum stays finite.
constexpr float narrow(double v) noexcept {
  constexpr double kMax = std::numeric_limits<float>::max();
  return static_cast<float>(v > kMax ? kMax : (v < -kMax ? -kMax : v));
}
constexpr Vec2 narrow(D2 v) noexcept { return {narrow(v.x), narrow(v.y)}; }

PEBBLE_EXACT_COLD constexpr double exact_dot_of_differences(Vec2 p, Vec2 q, Vec2 u, Vec2 v) noexcept {
  ExactSum<8> s;
  s.add_product(p.x, u.x);
  s.add_product(-p.x, v.x);
  s.add_product(-q.x, u.x);
  s.add_product(q.x, v.x);
  s.add_product(p.y, u.y);
  s.add_product(-p.y, v.y);
  s.add_product(-q.y, u.y);
  s.add_product(q.y, v.y);
  return s.leading();
}

// Adds (a + b + c)^2 for floats to s, as six products of floats (a factor 2 is exact).
template <int N>
constexpr void add_square_of_sum(ExactSum<N>& s, float a, float b, float c) noexcept {
  s.add_product(a, a);
  s.add_product(b, b);
  s.add_product(c, c);
  s.add(2.0 * a * b);
  s.add(2.0 * a * c);
  s.add(2.0 * b * c);
}

// The exact sum of three floats (a coordinate difference, or a rectangle side minus a point).
struct Sum3 {
  float a = 0, b = 0, c = 0;
};

// dx^2 + dy^2 <= (r1 + r2)^2, exactly.
PEBBLE_EXACT_COLD constexpr bool exact_within_radius(Sum3 dx, Sum3 dy, float r1, float r2) noexcept {
  ExactSum<15> s;
  add_square_of_sum(s, dx.a, dx.b, dx.c);
  add_square_of_sum(s, dy.a, dy.b, dy.c);
  s.add_product(-r1, r1);
  s.add_product(-r2, r2);
  s.add(-2.0 * r1 * r2);
  return s.leading() <= 0;
}

// True when |p - q| <= r1 + r2 exactly (r1, r2 >= 0). A plain difference rounds once, relative
// to the difference itself, so the difference, the squares and their sum err by 4 units of
// |p - q|^2, (r1 + r2)^2 by 3 units of its value, and the final difference adds 1.
constexpr bool within_distance(Vec2 p, Vec2 q, float r1, float r2) noexcept {
  const double x = double(p.x) - q.x, y = double(p.y) - q.y, r = double(r1) + r2;
  const double d2 = x * x + y * y, rr = r * r;
  if (abs(d2 - rr) <= error_bound(5, d2 + rr)) return exact_within_radius({p.x, -q.x, 0}, {p.y, -q.y, 0}, r1, r2);
  return d2 <= rr;
}

// A radius as the predicates use it: negative (and NaN) counts as 0.
constexpr float radius_of(const Circle& c) noexcept { return c.radius > 0 ? c.radius : 0.0f; }

// One axis of a rectangle as a closed interval [lo, hi]; the three rectangle forms all reduce to
// two of these, so every rectangle query is written once. Each end is the exact sum of two floats
// (lo_a + lo_b, hi_a + hi_b: center -/+ half extent, origin + size, or a coordinate + 0), held
// rounded to double in lo and hi for the arithmetic; the predicates decide exactly (see ends_le).
struct Interval {
  double lo = 0, hi = 0;
  float lo_a = 0, lo_b = 0, hi_a = 0, hi_b = 0;
};
constexpr Interval interval(float lo_a, float lo_b, float hi_a, float hi_b) noexcept {
  return {double(lo_a) + lo_b, double(hi_a) + hi_b, lo_a, lo_b, hi_a, hi_b};
}
constexpr float nonnegative(float v) noexcept { return v > 0 ? v : 0.0f; }  // NaN -> 0 as well
constexpr Interval box_x(const Box& b) noexcept {
  const float h = nonnegative(b.half_extents.x);
  return interval(b.center.x, -h, b.center.x, h);
}
constexpr Interval box_y(const Box& b) noexcept {
  const float h = nonnegative(b.half_extents.y);
  return interval(b.center.y, -h, b.center.y, h);
}
constexpr Interval rect_x(const Rect& r) noexcept { return interval(r.origin.x, 0, r.origin.x, nonnegative(r.size.x)); }
constexpr Interval rect_y(const Rect& r) noexcept { return interval(r.origin.y, 0, r.origin.y, nonnegative(r.size.y)); }
constexpr Interval aabb_x(const Aabb& a) noexcept { return interval(a.lower.x, 0, a.upper.x, 0); }
constexpr Interval aabb_y(const Aabb& a) noexcept { return interval(a.lower.y, 0, a.upper.y, 0); }

PEBBLE_EXACT_COLD constexpr bool exact_ends_le(float a, float b, float c, float d) noexcept {
  ExactSum<4> s;
  s.add(a);
  s.add(b);
  s.add(-double(c));
  s.add(-double(d));
  return s.leading() <= 0;
}

// True when a + b <= c + d exactly, given u and v, the two sums rounded to double. Rounding to
// nearest is monotonic, so u < v already implies a + b < c + d and u > v the opposite; only when
// the rounded sums are equal is the exact sign needed (the ends of a box 2^30 from its size).
constexpr bool ends_le(double u, float a, float b, double v, float c, float d) noexcept {
  if (u != v) return u < v;
  return exact_ends_le(a, b, c, d);
}
constexpr bool lo_le(const Interval& i, float p) noexcept { return ends_le(i.lo, i.lo_a, i.lo_b, p, p, 0); }
constexpr bool le_hi(float p, const Interval& i) noexcept { return ends_le(p, p, 0, i.hi, i.hi_a, i.hi_b); }
constexpr bool interval_holds(const Interval& i, float p) noexcept { return lo_le(i, p) && le_hi(p, i); }

// An Aabb with lower > upper on an axis is not a box: it contains no point and overlaps nothing
// on that axis (an empty interval), and its clamp gives lower there.
constexpr bool intervals_meet(const Interval& a, const Interval& b) noexcept {
  return ends_le(a.lo, a.lo_a, a.lo_b, b.hi, b.hi_a, b.hi_b) && ends_le(b.lo, b.lo_a, b.lo_b, a.hi, a.hi_a, a.hi_b);
}

// [seed-toolbox §2] "nearest point on a rectangle": clamp each coordinate into the rectangle.
constexpr D2 clamp_into(const Interval& x, const Interval& y, D2 p) noexcept {
  return {clamp(p.x, x.lo, x.hi), clamp(p.y, y.lo, y.hi)};
}

// The disc meets the rectangle when the clamped centre is within the radius [seed-toolbox §4]. The
// clamp into the rounded ends is exact unless the centre equals one of them (ends_le). The offset
// q - p from a rounded end q = fl(a + b) errs by 2 units of |q| + |p| (two roundings), its square
// by about 4 units of that squared; with the square, the sum, r^2 and the difference: 7 units.
// A tie or a value within the bound goes to the exact evaluation, whose offset on each axis is 0
// or a side minus the centre.
PEBBLE_EXACT_COLD constexpr bool exact_circle_meets_rectangle(const Circle& c, const Interval& x,
                                                              const Interval& y) noexcept {
  const auto offset = [](const Interval& i, float p) {
    if (!lo_le(i, p)) return Sum3{i.lo_a, i.lo_b, -p};
    if (!le_hi(p, i)) return Sum3{i.hi_a, i.hi_b, -p};
    return Sum3{};
  };
  return exact_within_radius(offset(x, c.center.x), offset(y, c.center.y), radius_of(c), 0);
}
constexpr bool circle_meets_rectangle(const Circle& c, const Interval& x, const Interval& y) noexcept {
  const double px = c.center.x, py = c.center.y, r = radius_of(c);
  const double qx = clamp(px, x.lo, x.hi), qy = clamp(py, y.lo, y.hi);
  const double dx = qx - px, dy = qy - py;
  const double value = (dx * dx + dy * dy) - r * r;
  const double mx = abs(qx) + abs(px), my = abs(qy) + abs(py);
  const bool tie = px == x.lo || px == x.hi || py == y.lo || py == y.hi;
  if (tie || abs(value) <= error_bound(7, (mx * mx + my * my) + r * r)) return exact_circle_meets_rectangle(c, x, y);
  return value <= 0;
}

// [seed-toolbox §4] "rectangle vs rectangle": on each axis b can leave a by moving up by a.hi - b.lo or
// down by b.hi - a.lo; the smaller of the two is the axis's overlap, and the axis with the least
// overlap gives the minimum translation. On each axis a tie of the two ways out goes to the
// positive one (right <= left), then a tie of the two axes to x (depth_x <= depth_y); both
// compare the depths as computed in double.
constexpr Penetration penetration(const Interval& ax, const Interval& ay, const Interval& bx,
                                  const Interval& by) noexcept {
  if (!intervals_meet(ax, bx) || !intervals_meet(ay, by)) return {};
  const double right = ax.hi - bx.lo, left = bx.hi - ax.lo;
  const double up = ay.hi - by.lo, down = by.hi - ay.lo;
  const double depth_x = right <= left ? right : left;
  const double depth_y = up <= down ? up : down;
  // 0.0 - depth rather than -depth so that touching gives +0, not -0.
  if (depth_x <= depth_y) return {true, {narrow(right <= left ? right : 0.0 - left), 0.0f}};
  return {true, {0.0f, narrow(up <= down ? up : 0.0 - down)}};
}

// Nearest edge of a rectangle ([seed-toolbox §5] "box_normal"): the side with the least distance to p,
// measured inward, so for a point outside it is the side p is furthest beyond. On each axis a
// tie goes to the positive side (right <= left), then a tie of the axes to x (dist_x <= dist_y),
// comparing the distances as computed in double; so the exact centre gets the normal of the
// nearer pair of sides (the smaller half extent), on the positive side.
constexpr NearestEdge nearest_edge(const Interval& x, const Interval& y, Vec2 p) noexcept {
  const double px = p.x, py = p.y;
  const double left = px - x.lo, right = x.hi - px, below = py - y.lo, above = y.hi - py;
  const bool pos_x = right <= left, pos_y = above <= below;
  const double dist_x = pos_x ? right : left, dist_y = pos_y ? above : below;
  D2 q = clamp_into(x, y, {px, py});
  if (dist_x <= dist_y) {
    q.x = pos_x ? x.hi : x.lo;
    return {narrow(q), {pos_x ? 1.0f : -1.0f, 0.0f}};
  }
  q.y = pos_y ? y.hi : y.lo;
  return {narrow(q), {0.0f, pos_y ? 1.0f : -1.0f}};
}

// [seed-toolbox §2] "nearest point on a segment": project and clamp; a zero-length segment is its point.
constexpr D2 nearest_on_segment(Vec2 a, Vec2 b, Vec2 p) noexcept {
  const D2 da = d2(a), ab = d2(b) - da;
  const double len2 = dot(ab, ab);
  if (len2 == 0) return da;
  const double t = dot(d2(p) - da, ab) / len2;
  if (t <= 0) return da;
  if (t >= 1) return d2(b);
  return {da.x + t * ab.x, da.y + t * ab.y};
}

constexpr bool triangle_contains(const Triangle& t, Vec2 p) noexcept {
  // [seed-toolbox §3] "point in triangle" (Ericson, Real-Time Collision Detection 5.4.2): p is inside when
  // it is on no edge's outer side. Testing "not on both sides" instead of "all the same sign"
  // makes it independent of winding and lets zeros (p on an edge or vertex) count as inside.
  const double e0 = orient(t.a, t.b, p), e1 = orient(t.b, t.c, p), e2 = orient(t.c, t.a, p);
  const bool neg = e0 < 0 || e1 < 0 || e2 < 0;
  const bool pos = e0 > 0 || e1 > 0 || e2 > 0;
  if (neg != pos) return true;
  if (neg) return false;
  // All three zero: the triangle has no area and p is on its line, so it is inside exactly when
  // it lies within the segment the triangle collapsed to, i.e. within its bounding box.
  const Aabb box{min(min(t.a, t.b), t.c), max(max(t.a, t.b), t.c)};
  return box.lower.x <= p.x && p.x <= box.upper.x && box.lower.y <= p.y && p.y <= box.upper.y;
}

constexpr D2 nearest_on_triangle(const Triangle& t, Vec2 p) noexcept {
  const D2 a = d2(t.a), b = d2(t.b), c = d2(t.c), q = d2(p);
  const D2 ab = b - a, ac = c - a, bc = c - b;
  const double area = cross(ab, ac);
  if (area == 0) {
    // No area: the triangle is its three edges, so the nearest of the three edge points wins.
    if (triangle_contains(t, p)) return q;
    const D2 candidates[3] = {nearest_on_segment(t.a, t.b, p), nearest_on_segment(t.b, t.c, p),
                              nearest_on_segment(t.c, t.a, p)};
    D2 best = candidates[0];
    double best_d2 = dot(best - q, best - q);
    for (int i = 1; i < 3; ++i) {
      const double d = dot(candidates[i] - q, candidates[i] - q);
      if (d < best_d2) {
        best = candidates[i];
        best_d2 = d;
      }
    }
    return best;
  }
  // [seed-toolbox §2] "nearest point on a triangle", i.e. Ericson 5.1.5: find the Voronoi region of p.
  // Vertex regions first (both adjacent edges point away from p), then edge regions (p beyond
  // the edge's line and between its end normals), else p is inside. The edge test uses the
  // cross product directly rather than Ericson's products of dot products, which cancel badly
  // for slivers, and compares it with the triangle's own orientation, so either winding works.
  const D2 ap = q - a, bp = q - b, cp = q - c;
  const double ab_ap = dot(ab, ap), ac_ap = dot(ac, ap);
  const double ab_bp = dot(ab, bp), bc_bp = dot(bc, bp);
  const double ac_cp = dot(ac, cp), bc_cp = dot(bc, cp);
  if (ab_ap <= 0 && ac_ap <= 0) return a;
  if (ab_bp >= 0 && bc_bp <= 0) return b;
  if (ac_cp >= 0 && bc_cp >= 0) return c;
  const auto outside = [area](double side) { return area > 0 ? side < 0 : side > 0; };
  if (ab_ap > 0 && ab_bp < 0 && outside(cross(ab, ap))) return nearest_on_segment(t.a, t.b, p);
  if (bc_bp > 0 && bc_cp < 0 && outside(cross(bc, bp))) return nearest_on_segment(t.b, t.c, p);
  if (ac_ap > 0 && ac_cp < 0 && outside(cross(a - c, cp))) return nearest_on_segment(t.c, t.a, p);
  return q;
}

// cross(b - a, o - a)^2 <= r2 |b - a|^2, exactly.
PEBBLE_EXACT_COLD constexpr bool exact_interior_meets_disc(Vec2 a, Vec2 b, Vec2 o, double r2) noexcept {
  const ExactSum<6> cross_ab_ac = exact_orient(a, b, o);
  ExactSum<6> length2;
  length2.add_product(a.x, a.x);
  length2.add_product(b.x, b.x);
  length2.add(-2.0 * a.x * b.x);
  length2.add_product(a.y, a.y);
  length2.add_product(b.y, b.y);
  length2.add(-2.0 * a.y * b.y);
  ExactSum<2 * (6 * 6 + 6)> exact;
  for (int i = 0; i < cross_ab_ac.count; ++i)
    for (int j = 0; j < cross_ab_ac.count; ++j) exact.add_exact_product(cross_ab_ac.part[i], cross_ab_ac.part[j]);
  for (int k = 0; k < length2.count; ++k) exact.add_exact_product(-r2, length2.part[k]);
  return exact.leading() <= 0;
}

// The exact form of segment_meets_disc below, for the rare inputs near one of its boundaries.
PEBBLE_EXACT_COLD constexpr bool exact_segment_meets_disc(Vec2 a, Vec2 b, Vec2 o, float r) noexcept {
  if (a == b || exact_dot_of_differences(o, a, b, a) <= 0)
    return exact_within_radius({a.x, -o.x, 0}, {a.y, -o.y, 0}, r, 0);
  if (exact_dot_of_differences(o, b, b, a) >= 0) return exact_within_radius({b.x, -o.x, 0}, {b.y, -o.y, 0}, r, 0);
  return exact_interior_meets_disc(a, b, o, double(r) * r);
}

// [seed-toolbox §4] "segment vs circle" (nearest point on the segment within the radius), with the
// projection's division cleared: between the ends' perpendiculars the squared distance is
// cross(ab, ao)^2 / |ab|^2, so compare cross^2 with r^2 |ab|^2. The three regions (nearest to
// a, to b, or between) are all evaluated and one is selected without a branch (random inputs
// would mispredict one); when any quantity that decides is within its rounding bound of zero,
// the whole test runs again exactly, so exact touching stays touching.
constexpr bool segment_meets_disc(Vec2 a, Vec2 b, const Circle& c) noexcept {
  const float r = radius_of(c);
  const Vec2 o = c.center;
  const D2 ab = d2(b) - d2(a), ao = d2(o) - d2(a), bo = d2(o) - d2(b);
  const double rr = double(r) * r;
  // along = dot(ao, ab) <= 0: o projects before a; beyond = along - |ab|^2 = dot(bo, ab) >= 0:
  // after b (its bound: along's 4 units and |ab|^2's 4, and the difference's 1).
  const double along_x = ab.x * ao.x, along_y = ab.y * ao.y, along = along_x + along_y;
  const double dist_a = dot(ao, ao), dist_b = dot(bo, bo), len2 = dot(ab, ab), beyond = along - len2;
  const double along_magnitude = abs(along_x) + abs(along_y);
  const double left = ab.x * ao.y, right = ab.y * ao.x, side = left - right, sides = abs(left) + abs(right);
  const bool at_a = a == b || along <= 0, at_b = !at_a && beyond >= 0;
  // The value whose sign answers, and its bound: plain differences squared (within_distance's
  // 5 units), or side^2 - r^2 |ab|^2, where side errs by 4 units of |left| + |right|, its square
  // by about 9 of that squared, r^2 |ab|^2 by 5 units and the difference by 1 (10 in all).
  const double dist = at_a ? dist_a : dist_b;
  const double value = at_a || at_b ? dist - rr : side * side - rr * len2;
  const double bound = at_a || at_b ? error_bound(5, dist + rr) : error_bound(10, sides * sides + rr * len2);
  const bool unsure = abs(along) <= error_bound(3, along_magnitude) ||
                      abs(beyond) <= error_bound(5, along_magnitude + len2) || abs(value) <= bound;
  if (unsure) return exact_segment_meets_disc(a, b, o, r);
  return value <= 0;
}

// Segments whose four orientations are all zero lie on one line (or are points): they meet when
// their extents along the line's dominant axis overlap. Returns the shared point nearest s.a.
constexpr SegmentHit collinear_overlap(const Segment& s, const Segment& t) noexcept {
  D2 u = d2(s.b) - d2(s.a);
  if (u.x == 0 && u.y == 0) u = d2(t.b) - d2(t.a);
  if (u.x == 0 && u.y == 0) return s.a == t.a ? SegmentHit{true, s.a} : SegmentHit{};
  const bool use_x = abs(u.x) >= abs(u.y);
  const auto coord = [use_x](Vec2 v) { return use_x ? v.x : v.y; };
  const float s0 = coord(s.a), s1 = coord(s.b), t0 = coord(t.a), t1 = coord(t.b);
  const float s_lo = s0 < s1 ? s0 : s1, s_hi = s0 < s1 ? s1 : s0;
  const float t_lo = t0 < t1 ? t0 : t1, t_hi = t0 < t1 ? t1 : t0;
  if (s_hi < t_lo || t_hi < s_lo) return {};
  if (t_lo <= s0 && s0 <= t_hi) return {true, s.a};
  // s.a is outside t, so the overlap begins at the end of t facing s.a, which lies on s.
  const float target = s0 < t_lo ? t_lo : t_hi;
  return {true, coord(t.a) == target ? t.a : t.b};
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Conversions and bounding boxes ([seed-detection §2]: the AABB of a point set, the union of two boxes).

/// The lower/upper form of a box: center -/+ half extents.
constexpr Aabb to_aabb(const Box& b) noexcept {
  return {{detail::narrow(detail::box_x(b).lo), detail::narrow(detail::box_y(b).lo)},
          {detail::narrow(detail::box_x(b).hi), detail::narrow(detail::box_y(b).hi)}};
}
/// The lower/upper form of a rect: origin and origin + size.
constexpr Aabb to_aabb(const Rect& r) noexcept {
  return {r.origin, {detail::narrow(detail::rect_x(r).hi), detail::narrow(detail::rect_y(r).hi)}};
}
/// The center + half extents form of a lower/upper box (lower > upper on an axis gives 0 there).
constexpr Box to_box(const Aabb& a) noexcept {
  const double cx = 0.5 * (double(a.lower.x) + a.upper.x), cy = 0.5 * (double(a.lower.y) + a.upper.y);
  const double hx = detail::max0(0.5 * (double(a.upper.x) - a.lower.x));
  const double hy = detail::max0(0.5 * (double(a.upper.y) - a.lower.y));
  return {{detail::narrow(cx), detail::narrow(cy)}, {detail::narrow(hx), detail::narrow(hy)}};
}
/// The origin + size form of a lower/upper box (lower > upper on an axis gives size 0 there).
constexpr Rect to_rect(const Aabb& a) noexcept {
#if PEBBLE_DOUBLE_POSITIONS
  return {{detail::narrow(a.lower.x), detail::narrow(a.lower.y)},
          {detail::narrow(detail::max0(a.upper.x - a.lower.x)), detail::narrow(detail::max0(a.upper.y - a.lower.y))}};
#else
  return {a.lower,
          {detail::narrow(detail::max0(double(a.upper.x) - a.lower.x)),
           detail::narrow(detail::max0(double(a.upper.y) - a.lower.y))}};
#endif
}

/// The smallest Aabb holding every point; no points gives the empty box {{0,0},{0,0}}.
constexpr Aabb bounds(std::span<const Vec2> points) noexcept {
  if (points.empty()) return {};
  Aabb box{points[0], points[0]};
  for (const Vec2 p : points.subspan(1)) box = {min(box.lower, p), max(box.upper, p)};
  return box;
}
/// The smallest Aabb holding the disc.
constexpr Aabb bounds(const Circle& c) noexcept {
  const double r = detail::max0(c.radius);
  return {{detail::narrow(c.center.x - r), detail::narrow(c.center.y - r)},
          {detail::narrow(c.center.x + r), detail::narrow(c.center.y + r)}};
}
/// The smallest Aabb holding the segment.
constexpr Aabb bounds(const Segment& s) noexcept { return {min(s.a, s.b), max(s.a, s.b)}; }
/// The smallest Aabb holding the triangle.
constexpr Aabb bounds(const Triangle& t) noexcept { return {min(min(t.a, t.b), t.c), max(max(t.a, t.b), t.c)}; }
/// The box itself in lower/upper form (same as to_aabb).
constexpr Aabb bounds(const Box& b) noexcept { return to_aabb(b); }
/// The rect itself in lower/upper form (same as to_aabb).
constexpr Aabb bounds(const Rect& r) noexcept { return to_aabb(r); }

// ---------------------------------------------------------------------------------------------
// Nearest points: the point of the (filled) shape closest to p; p itself when p is inside or
// on the boundary, as in [seed-toolbox §4].

/// Closest point of the closed segment to p; a zero-length segment gives s.a.
constexpr Vec2 nearest_point(const Segment& s, Vec2 p) noexcept {
  return detail::narrow(detail::nearest_on_segment(s.a, s.b, p));
}
/// Closest point of the disc to p: p if inside, else the point of the circle toward p.
inline Vec2 nearest_point(const Circle& c, Vec2 p) noexcept {
  const float r = detail::radius_of(c);
  // The exact test, so that p comes back itself exactly when contains(c, p).
  if (detail::within_distance(p, c.center, r, 0)) return p;
  const detail::D2 d = detail::d2(p) - detail::d2(c.center);
  const double k = r / std::sqrt(detail::dot(d, d));  // p is outside, so p != center and the root is positive
  return detail::narrow(detail::D2{c.center.x + k * d.x, c.center.y + k * d.y});
}
/// Closest point of the box to p (p clamped into it).
constexpr Vec2 nearest_point(const Box& b, Vec2 p) noexcept {
  return detail::narrow(detail::clamp_into(detail::box_x(b), detail::box_y(b), detail::d2(p)));
}
/// Closest point of the lower/upper box to p (p clamped into it).
constexpr Vec2 nearest_point(const Aabb& a, Vec2 p) noexcept {
  return detail::narrow(detail::clamp_into(detail::aabb_x(a), detail::aabb_y(a), detail::d2(p)));
}
/// Closest point of the rect to p (p clamped into it).
constexpr Vec2 nearest_point(const Rect& r, Vec2 p) noexcept {
  return detail::narrow(detail::clamp_into(detail::rect_x(r), detail::rect_y(r), detail::d2(p)));
}
/// Closest point of the filled triangle to p, by Voronoi regions (Ericson 5.1.5); any winding,
/// and a zero-area triangle is treated as the segment or point it collapsed to.
constexpr Vec2 nearest_point(const Triangle& t, Vec2 p) noexcept {
  return detail::narrow(detail::nearest_on_triangle(t, p));
}

// ---------------------------------------------------------------------------------------------
// Point containment: true when p is inside or on the boundary.

/// True when p is in the disc or on its circle.
constexpr bool contains(const Circle& c, Vec2 p) noexcept {
  return detail::within_distance(p, c.center, detail::radius_of(c), 0);
}
/// True when p is in the box or on its boundary.
constexpr bool contains(const Box& b, Vec2 p) noexcept {
  return detail::interval_holds(detail::box_x(b), p.x) && detail::interval_holds(detail::box_y(b), p.y);
}
/// True when p is in the rect or on its boundary.
constexpr bool contains(const Rect& r, Vec2 p) noexcept {
  return detail::interval_holds(detail::rect_x(r), p.x) && detail::interval_holds(detail::rect_y(r), p.y);
}
/// True when p is in the triangle or on an edge or vertex (either winding; a zero-area triangle
/// contains the points of the segment or point it collapsed to).
constexpr bool contains(const Triangle& t, Vec2 p) noexcept { return detail::triangle_contains(t, p); }

// ---------------------------------------------------------------------------------------------
// Intersection tests: true when the closed shapes share at least one point (touching counts).

/// Where two closed segments meet. Unlike [seed-toolbox §4] (which gives up when the determinant is 0),
/// collinear overlapping segments hit, at the shared point nearest s.a; zero-length segments
/// work as points.
constexpr SegmentHit intersect(const Segment& s, const Segment& t) noexcept {
  // Orientation of each segment's ends relative to the other's line (Ericson 5.1.9.1, the
  // seed's determinant form); both ends strictly on one side means no hit.
  const double sa = detail::orient(t.a, t.b, s.a), sb = detail::orient(t.a, t.b, s.b);
  const double ta = detail::orient(s.a, s.b, t.a), tb = detail::orient(s.a, s.b, t.b);
  if ((sa > 0 && sb > 0) || (sa < 0 && sb < 0) || (ta > 0 && tb > 0) || (ta < 0 && tb < 0)) return {};
  // Both ends of one segment on the other's line: collinear (in exact arithmetic all four
  // orientations are then zero; in double, rounding can leave the other two nonzero, and
  // interpolating by them would give a point of the line outside the segments).
  if ((sa == 0 && sb == 0) || (ta == 0 && tb == 0)) return detail::collinear_overlap(s, t);
  // The orientations are signed distances (times a length) to the other segment's line, so
  // they interpolate linearly along the segment and vanish at the crossing: s.a + k (s.b - s.a).
  // (sa == sb with both nonzero: s parallel to t's line, which only rounding brings here; then
  // interpolate along t instead.)
  const bool along_s = sa != sb;
  const detail::D2 from = detail::d2(along_s ? s.a : t.a), to = detail::d2(along_s ? s.b : t.b);
  const double k = detail::clamp(along_s ? sa / (sa - sb) : ta / (ta - tb), 0, 1);
  return {true, detail::narrow(detail::D2{from.x + k * (to.x - from.x), from.y + k * (to.y - from.y)})};
}
/// True when the closed segments share a point (collinear overlap and touching count).
constexpr bool overlaps(const Segment& s, const Segment& t) noexcept { return intersect(s, t).hit; }
/// True when the segment touches or enters the disc.
constexpr bool overlaps(const Segment& s, const Circle& c) noexcept { return detail::segment_meets_disc(s.a, s.b, c); }
/// True when the segment touches or enters the disc.
constexpr bool overlaps(const Circle& c, const Segment& s) noexcept { return overlaps(s, c); }
/// True when the discs touch or overlap (distance of centers <= sum of radii).
constexpr bool overlaps(const Circle& a, const Circle& b) noexcept {
  return detail::within_distance(b.center, a.center, detail::radius_of(a), detail::radius_of(b));
}
/// True when the disc touches or overlaps the box.
constexpr bool overlaps(const Circle& c, const Box& b) noexcept {
  return detail::circle_meets_rectangle(c, detail::box_x(b), detail::box_y(b));
}
/// True when the disc touches or overlaps the box.
constexpr bool overlaps(const Box& b, const Circle& c) noexcept { return overlaps(c, b); }
/// True when the disc touches or overlaps the lower/upper box.
constexpr bool overlaps(const Circle& c, const Aabb& a) noexcept {
  return detail::circle_meets_rectangle(c, detail::aabb_x(a), detail::aabb_y(a));
}
/// True when the disc touches or overlaps the lower/upper box.
constexpr bool overlaps(const Aabb& a, const Circle& c) noexcept { return overlaps(c, a); }
/// True when the disc touches or overlaps the rect.
constexpr bool overlaps(const Circle& c, const Rect& r) noexcept {
  return detail::circle_meets_rectangle(c, detail::rect_x(r), detail::rect_y(r));
}
/// True when the disc touches or overlaps the rect.
constexpr bool overlaps(const Rect& r, const Circle& c) noexcept { return overlaps(c, r); }
/// True when the disc touches or overlaps the triangle.
constexpr bool overlaps(const Circle& c, const Triangle& t) noexcept {
  // [seed-toolbox §4] projects the centre onto the triangle; the same test without the division: the
  // centre inside, or an edge within reach (which also covers a zero-area triangle).
  return contains(t, c.center) || detail::segment_meets_disc(t.a, t.b, c) || detail::segment_meets_disc(t.b, t.c, c) ||
         detail::segment_meets_disc(t.c, t.a, c);
}
/// True when the disc touches or overlaps the triangle.
constexpr bool overlaps(const Triangle& t, const Circle& c) noexcept { return overlaps(c, t); }
/// True when the triangles share a point (any winding, zero-area triangles included).
constexpr bool overlaps(const Triangle& s, const Triangle& t) noexcept {
  // [seed-toolbox §4]: two convex sets meet exactly when an edge of one crosses an edge of the other or
  // one holds a vertex of the other. The box test only rejects early.
  if (!pebble::overlaps(bounds(s), bounds(t))) return false;
  if (contains(t, s.a) || contains(s, t.a)) return true;
  const Segment es[3] = {{s.a, s.b}, {s.b, s.c}, {s.c, s.a}};
  const Segment et[3] = {{t.a, t.b}, {t.b, t.c}, {t.c, t.a}};
  for (const Segment& e : es)
    for (const Segment& f : et)
      if (intersect(e, f).hit) return true;
  return false;
}
/// True when the boxes touch or overlap.
constexpr bool overlaps(const Box& a, const Box& b) noexcept {
  return detail::intervals_meet(detail::box_x(a), detail::box_x(b)) &&
         detail::intervals_meet(detail::box_y(a), detail::box_y(b));
}
/// True when the rects touch or overlap.
constexpr bool overlaps(const Rect& a, const Rect& b) noexcept {
  return detail::intervals_meet(detail::rect_x(a), detail::rect_x(b)) &&
         detail::intervals_meet(detail::rect_y(a), detail::rect_y(b));
}

/// Overlap of two boxes and the minimum translation of b (axis of least overlap) that makes
/// them just touch; touching gives hit with a zero vector. hit is exact; the depths are computed
/// in double and compared as computed. Ties: on each axis, when b's way out in the positive
/// direction (a.upper - b.lower) equals the way out in the negative one (b.upper - a.lower), the
/// positive one is taken; then, when the two axes' depths are equal, x is taken.
constexpr Penetration penetration(const Box& a, const Box& b) noexcept {
  return detail::penetration(detail::box_x(a), detail::box_y(a), detail::box_x(b), detail::box_y(b));
}
/// As penetration(Box, Box), for lower/upper boxes.
constexpr Penetration penetration(const Aabb& a, const Aabb& b) noexcept {
  return detail::penetration(detail::aabb_x(a), detail::aabb_y(a), detail::aabb_x(b), detail::aabb_y(b));
}
/// As penetration(Box, Box), for rects.
constexpr Penetration penetration(const Rect& a, const Rect& b) noexcept {
  return detail::penetration(detail::rect_x(a), detail::rect_y(a), detail::rect_x(b), detail::rect_y(b));
}

// ---------------------------------------------------------------------------------------------
// Nearest edge [seed-toolbox §5]: for a point inside, the nearest boundary point and the outward normal
// there. Defined everywhere: the seed asserts at the centre, these pick a fixed answer instead.

/// Nearest point of the circle to p and the outward normal (p - center, normalized); at the
/// exact centre the normal is +x.
inline NearestEdge nearest_edge(const Circle& c, Vec2 p) noexcept {
  const detail::D2 d = detail::d2(p) - detail::d2(c.center);
  const double len = std::sqrt(detail::dot(d, d)), r = detail::max0(c.radius);
  const detail::D2 n = len > 0 ? detail::D2{d.x / len, d.y / len} : detail::D2{1, 0};
  return {detail::narrow(detail::D2{c.center.x + r * n.x, c.center.y + r * n.y}), detail::narrow(n)};
}
/// The side of the box nearest to p (for p outside: the side p is furthest beyond), the point
/// of it nearest p and its axis-aligned outward normal. Distances to the sides are computed in
/// double and compared as computed. Ties: on each axis, when p is as far from the upper side as
/// from the lower, the upper (positive) side is taken; then, when the two axes' distances are
/// equal, x is taken. So the exact centre gets +x or +y, whichever axis has the smaller half
/// extent, and a point on a diagonal of a square gets the x side on its own half.
constexpr NearestEdge nearest_edge(const Box& b, Vec2 p) noexcept {
  return detail::nearest_edge(detail::box_x(b), detail::box_y(b), p);
}
/// As nearest_edge(Box), for a lower/upper box.
constexpr NearestEdge nearest_edge(const Aabb& a, Vec2 p) noexcept {
  return detail::nearest_edge(detail::aabb_x(a), detail::aabb_y(a), p);
}
/// As nearest_edge(Box), for a rect.
constexpr NearestEdge nearest_edge(const Rect& r, Vec2 p) noexcept {
  return detail::nearest_edge(detail::rect_x(r), detail::rect_y(r), p);
}

}  // namespace pebble::prim
