// pebble/primitives.hpp — the seed-004 toolbox ("Intersection tutorial"): quick tests on plain
// structs for code that needs no Shape (no rotation, no rounding, no manifold). Header-only.
// Conventions: y up; the boundary counts as inside, so touching counts as intersecting; every
// function is noexcept, allocates nothing and returns finite values for finite input.
//
// Why the double arithmetic inside: float inputs convert to double exactly and the products the
// predicates form then carry about 1e-16 relative error instead of float's 1e-7, so a point that
// lies exactly on an edge, or two shapes that exactly touch, are reported as the conventions say.
// It also keeps every intermediate in range (a float squared cannot overflow a double), which is
// why no function needs a guard against huge input. Results are rounded to float once, at the end.
#pragma once

#include <limits>
#include <span>

#include "pebble/math.hpp"

namespace pebble::prim {

/// A disc: every point within radius of center. A negative radius counts as 0 (a point).
struct Circle {
  Vec2 center{};
  float radius = 0;
};

/// The closed segment from a to b; a == b is a point.
struct Segment {
  Vec2 a{}, b{};
};

/// The closed triangle abc, either winding; collinear or equal vertices make a segment or point.
struct Triangle {
  Vec2 a{}, b{}, c{};
};

/// An axis-aligned rectangle by its center and half width / half height (seed 004's "box").
/// Negative half extents count as 0.
struct Box {
  Vec2 center{};
  Vec2 half_extents{};
};

/// An axis-aligned rectangle by its corner with the smallest coordinates and its width / height
/// (seed 004's "rect"). pebble is y up, so origin is the lower-left corner; in the seed's y-down
/// screen coordinates the same corner is the top-left one. Negative sizes count as 0.
struct Rect {
  Vec2 origin{};
  Vec2 size{};
};

/// The lower/upper form (seed 004's "aabb" l, t, r, b) is pebble::Aabb from math.hpp.
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
  bool hit = false;  ///< the closed rectangles share at least one point (touching counts)
  Vec2 separation{}; ///< move the SECOND rectangle by this to make them just touch; {0,0} if !hit
};

/// Result of nearest_edge(): where the boundary nearest to a point is and which way it faces.
struct NearestEdge {
  Vec2 point{};   ///< the nearest point on the boundary
  Vec2 normal{};  ///< outward unit normal of the boundary there
};

namespace detail {

// A double-precision vector for the internal arithmetic (see the header comment).
struct D2 {
  double x = 0, y = 0;
};
constexpr D2 d2(Vec2 v) noexcept { return {v.x, v.y}; }
constexpr D2 operator-(D2 a, D2 b) noexcept { return {a.x - b.x, a.y - b.y}; }
constexpr double dot(D2 a, D2 b) noexcept { return a.x * b.x + a.y * b.y; }
constexpr double cross(D2 a, D2 b) noexcept { return a.x * b.y - a.y * b.x; }
constexpr double max0(double v) noexcept { return v > 0 ? v : 0; }  // NaN -> 0 as well
constexpr double abs(double v) noexcept { return v < 0 ? -v : v; }
constexpr double clamp(double v, double lo, double hi) noexcept { return v < lo ? lo : (v > hi ? hi : v); }

// Rounds to float, saturating at the largest float so that an overflowing sum stays finite.
constexpr float narrow(double v) noexcept {
  constexpr double kMax = std::numeric_limits<float>::max();
  return static_cast<float>(v > kMax ? kMax : (v < -kMax ? -kMax : v));
}
constexpr Vec2 narrow(D2 v) noexcept { return {narrow(v.x), narrow(v.y)}; }

// Twice the signed area of abp: > 0 when p is to the left of a->b (counter-clockwise).
constexpr double orient(Vec2 a, Vec2 b, Vec2 p) noexcept { return cross(d2(b) - d2(a), d2(p) - d2(a)); }

// One axis of a rectangle as a closed interval [lo, hi]; the three rectangle forms all reduce to
// two of these, so every rectangle query is written once.
struct Interval {
  double lo = 0, hi = 0;
};
constexpr Interval box_x(const Box& b) noexcept {
  const double h = max0(b.half_extents.x);
  return {b.center.x - h, b.center.x + h};
}
constexpr Interval box_y(const Box& b) noexcept {
  const double h = max0(b.half_extents.y);
  return {b.center.y - h, b.center.y + h};
}
constexpr Interval rect_x(const Rect& r) noexcept { return {r.origin.x, r.origin.x + max0(r.size.x)}; }
constexpr Interval rect_y(const Rect& r) noexcept { return {r.origin.y, r.origin.y + max0(r.size.y)}; }
constexpr Interval aabb_x(const Aabb& a) noexcept { return {a.lower.x, a.upper.x}; }
constexpr Interval aabb_y(const Aabb& a) noexcept { return {a.lower.y, a.upper.y}; }

constexpr bool intervals_meet(Interval a, Interval b) noexcept { return a.lo <= b.hi && b.lo <= a.hi; }

// Seed 004 "nearest point on a rectangle": clamp each coordinate into the rectangle.
constexpr D2 clamp_into(Interval x, Interval y, D2 p) noexcept { return {clamp(p.x, x.lo, x.hi), clamp(p.y, y.lo, y.hi)}; }

constexpr bool circle_meets_rectangle(const Circle& c, Interval x, Interval y) noexcept {
  const D2 p = d2(c.center);
  const D2 d = clamp_into(x, y, p) - p;
  const double r = max0(c.radius);
  return dot(d, d) <= r * r;
}

// Seed 004 "rectangle vs rectangle": on each axis b can leave a by moving up by a.hi - b.lo or
// down by b.hi - a.lo; the smaller of the two is the axis's overlap, and the axis with the least
// overlap gives the minimum translation. Ties go to the positive direction and then to x.
constexpr Penetration penetration(Interval ax, Interval ay, Interval bx, Interval by) noexcept {
  if (!intervals_meet(ax, bx) || !intervals_meet(ay, by)) return {};
  const double right = ax.hi - bx.lo, left = bx.hi - ax.lo;
  const double up = ay.hi - by.lo, down = by.hi - ay.lo;
  const double depth_x = right <= left ? right : left;
  const double depth_y = up <= down ? up : down;
  // 0.0 - depth rather than -depth so that touching gives +0, not -0.
  if (depth_x <= depth_y) return {true, {narrow(right <= left ? right : 0.0 - left), 0.0f}};
  return {true, {0.0f, narrow(up <= down ? up : 0.0 - down)}};
}

// Nearest edge of a rectangle (seed 004 "box_normal"): the side with the least distance to p,
// measured inward, so for a point outside it is the side p is furthest beyond. Ties go to the
// positive side and then to x, so the exact centre gets the normal of the nearer pair of sides
// (the smaller half extent), on the positive side.
constexpr NearestEdge nearest_edge(Interval x, Interval y, Vec2 p) noexcept {
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

// Seed 004 "nearest point on a segment": project and clamp; a zero-length segment is its point.
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
  // Seed 004 "point in triangle" (Ericson, Real-Time Collision Detection 5.4.2): p is inside when
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
      if (d < best_d2) { best = candidates[i]; best_d2 = d; }
    }
    return best;
  }
  // Seed 004 "nearest point on a triangle", i.e. Ericson 5.1.5: find the Voronoi region of p.
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

// Seed 004 "segment vs circle" (nearest point on the segment within the radius), with the
// projection's division cleared: between the ends' perpendiculars the squared distance is
// cross(ab, ac)^2 / |ab|^2, so compare cross^2 with r^2 |ab|^2. Exact touching stays touching,
// where rounding the projected point could lose it.
constexpr bool segment_meets_disc(Vec2 a, Vec2 b, const Circle& c) noexcept {
  const D2 ab = d2(b) - d2(a), ac = d2(c.center) - d2(a);
  const double r = max0(c.radius), r2 = r * r, len2 = dot(ab, ab), along = dot(ac, ab);
  if (along <= 0 || len2 == 0) return dot(ac, ac) <= r2;
  if (along >= len2) {
    const D2 bc = d2(c.center) - d2(b);
    return dot(bc, bc) <= r2;
  }
  const double side = cross(ab, ac);
  return side * side <= r2 * len2;
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
// Conversions and bounding boxes (seed 002: the AABB of a point set, the union of two boxes).

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
  return {a.lower, {detail::narrow(detail::max0(double(a.upper.x) - a.lower.x)),
                    detail::narrow(detail::max0(double(a.upper.y) - a.lower.y))}};
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
// on the boundary, as in seed 004.

/// Closest point of the closed segment to p; a zero-length segment gives s.a.
constexpr Vec2 nearest_point(const Segment& s, Vec2 p) noexcept { return detail::narrow(detail::nearest_on_segment(s.a, s.b, p)); }
/// Closest point of the disc to p: p if inside, else the point of the circle toward p.
inline Vec2 nearest_point(const Circle& c, Vec2 p) noexcept {
  const detail::D2 d = detail::d2(p) - detail::d2(c.center);
  const double len2 = detail::dot(d, d), r = detail::max0(c.radius);
  if (len2 <= r * r) return p;
  const double k = r / std::sqrt(len2);  // len2 > r * r >= 0, so the root is positive
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
constexpr Vec2 nearest_point(const Triangle& t, Vec2 p) noexcept { return detail::narrow(detail::nearest_on_triangle(t, p)); }

// ---------------------------------------------------------------------------------------------
// Point containment: true when p is inside or on the boundary.

/// True when p is in the disc or on its circle.
constexpr bool contains(const Circle& c, Vec2 p) noexcept {
  const detail::D2 d = detail::d2(p) - detail::d2(c.center);
  const double r = detail::max0(c.radius);
  return detail::dot(d, d) <= r * r;
}
/// True when p is in the box or on its boundary.
constexpr bool contains(const Box& b, Vec2 p) noexcept {
  const auto x = detail::box_x(b), y = detail::box_y(b);
  return x.lo <= p.x && p.x <= x.hi && y.lo <= p.y && p.y <= y.hi;
}
/// True when p is in the rect or on its boundary.
constexpr bool contains(const Rect& r, Vec2 p) noexcept {
  const auto x = detail::rect_x(r), y = detail::rect_y(r);
  return x.lo <= p.x && p.x <= x.hi && y.lo <= p.y && p.y <= y.hi;
}
/// True when p is in the triangle or on an edge or vertex (either winding; a zero-area triangle
/// contains the points of the segment or point it collapsed to).
constexpr bool contains(const Triangle& t, Vec2 p) noexcept { return detail::triangle_contains(t, p); }

// ---------------------------------------------------------------------------------------------
// Intersection tests: true when the closed shapes share at least one point (touching counts).

/// Where two closed segments meet. Unlike seed 004 (which gives up when the determinant is 0),
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
  const detail::D2 d = detail::d2(b.center) - detail::d2(a.center);
  const double r = detail::max0(a.radius) + detail::max0(b.radius);
  return detail::dot(d, d) <= r * r;
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
  // Seed 004 projects the centre onto the triangle; the same test without the division: the
  // centre inside, or an edge within reach (which also covers a zero-area triangle).
  return contains(t, c.center) || detail::segment_meets_disc(t.a, t.b, c) || detail::segment_meets_disc(t.b, t.c, c) ||
         detail::segment_meets_disc(t.c, t.a, c);
}
/// True when the disc touches or overlaps the triangle.
constexpr bool overlaps(const Triangle& t, const Circle& c) noexcept { return overlaps(c, t); }
/// True when the triangles share a point (any winding, zero-area triangles included).
constexpr bool overlaps(const Triangle& s, const Triangle& t) noexcept {
  // Seed 004: two convex sets meet exactly when an edge of one crosses an edge of the other or
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
  return detail::intervals_meet(detail::box_x(a), detail::box_x(b)) && detail::intervals_meet(detail::box_y(a), detail::box_y(b));
}
/// True when the rects touch or overlap.
constexpr bool overlaps(const Rect& a, const Rect& b) noexcept {
  return detail::intervals_meet(detail::rect_x(a), detail::rect_x(b)) && detail::intervals_meet(detail::rect_y(a), detail::rect_y(b));
}

/// Overlap of two boxes and the minimum translation of b (axis of least overlap) that makes
/// them just touch; touching gives hit with a zero vector. Ties: positive direction, then x.
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
// Nearest edge (seed 004): for a point inside, the nearest boundary point and the outward normal
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
/// of it nearest p and its axis-aligned outward normal. Ties go to the positive side, then to
/// x; so the exact centre gets +x or +y, whichever axis has the smaller half extent.
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
