// The one ray cast every cast query ends in: a ray segment against a convex polygon core grown by
// a radius, in the polygon's own frame and in double (seed 000, "Raycasts and spherecasts").
// raycast() runs it on a shape's core; shape_cast() and closest_approach() on the Minkowski
// difference of two cores (seeds 002 and 003). Not part of the API.
//
// Method (seed 000): clip the ray against the polygon formed by the outer edges (each core edge
// pushed out by the radius) extended until they meet (Cyrus-Beck: the latest entering plane and
// the earliest leaving one). The entry point lies on the outer edge of the latest entering
// plane, or beyond one of its ends, in the wedge between that edge's extension and its
// neighbour's; then the ray can only meet the shape on that end's corner circle (the wedge is
// bounded by the two extensions and the arc, and the ray, a chord of the convex extended
// polygon, leaves it through the arc or not at all). A ray starting inside the extended
// polygon starts inside the shape or in the wedge of its nearest core vertex. Circles (no edge)
// and capsules (two parallel edges, a slab) need no special case in this form.
#pragma once

#include <cmath>

#include "pebble/math.hpp"

namespace pebble::cast_core {

/// A point or vector in double. Casts work in double: float inputs convert exactly, and a ray
/// that starts 1e4 away from a 0.01 shape keeps its low bits when it is moved into the shape's
/// frame.
struct DVec {
  double x = 0, y = 0;
};

inline DVec dvec(Vec2 v) { return {v.x, v.y}; }
inline DVec operator+(DVec a, DVec b) { return {a.x + b.x, a.y + b.y}; }
inline DVec operator-(DVec a, DVec b) { return {a.x - b.x, a.y - b.y}; }
inline DVec operator-(DVec a) { return {-a.x, -a.y}; }
inline DVec operator*(double s, DVec v) { return {s * v.x, s * v.y}; }
inline double ddot(DVec a, DVec b) { return a.x * b.x + a.y * b.y; }
inline double dcross(DVec a, DVec b) { return a.x * b.y - a.y * b.x; }
inline double dlength(DVec v) { return std::sqrt(ddot(v, v)); }

/// A rotation and translation in double, with the rotation scaled to unit length (is_valid()
/// lets |q| stray from 1 by kRotationTolerance; the rotation by q's angle is meant, not a
/// scaling).
struct DFrame {
  double c = 1, s = 0;
  DVec p;

  DFrame() = default;
  explicit DFrame(const Transform& xf) : c(xf.q.c), s(xf.q.s), p(dvec(xf.p)) {
    const double len = std::sqrt(c * c + s * s);
    c /= len;
    s /= len;
  }
  DVec rotate(DVec v) const { return {c * v.x - s * v.y, s * v.x + c * v.y}; }
  DVec inv_rotate(DVec v) const { return {c * v.x + s * v.y, -s * v.x + c * v.y}; }
  DVec to_world(DVec v) const { return rotate(v) + p; }
  DVec to_local(DVec v) const { return inv_rotate(v - p); }
};

inline Vec2 to_float(DVec v) { return {float(v.x), float(v.y)}; }

/// Where a ray meets a rounded polygon, in the polygon's frame.
struct LocalHit {
  enum class Kind {
    miss,    ///< no contact within the ray
    inside,  ///< the origin is inside the rounded polygon or on its surface (t = 0)
    edge,    ///< first contact on the outer edge `feature`
    corner,  ///< first contact on the corner circle of vertex `feature`
  };
  Kind kind = Kind::miss;
  double t = 1;   ///< fraction of the ray at the contact
  int feature = 0;
  DVec point;     ///< contact point on the rounded surface
  DVec normal;    ///< outward unit normal there (zero for inside and miss)
};

/// The ray o + t d (0 <= t <= 1) against the disc of radius r about c: the first contact, or
/// inside when o lies in the disc. A disc of radius 0 is hit only by a ray through its point;
/// the normal there faces the ray.
inline LocalHit cast_against_circle(DVec c, double r, DVec o, DVec d, int vertex) {
  LocalHit out;
  const DVec m = o - c;
  const double cc = ddot(m, m) - r * r;
  if (cc <= 0) {
    out.kind = LocalHit::Kind::inside;
    out.t = 0;
    out.point = o;
    return out;
  }
  const double b = ddot(m, d);
  if (!(b < 0)) return out;  // moving away, along the tangent, or not moving
  // The discriminant b^2 - |d|^2 cc written as |d|^2 r^2 - (m x d)^2 (Lagrange's identity),
  // which does not cancel when the ray starts far from the disc.
  const double a = ddot(d, d);
  const double cr = dcross(m, d);
  const double disc = a * r * r - cr * cr;
  if (disc < 0) return out;
  // The smaller root as cc / (-b + sqrt(disc)): the product of the roots is cc / a, and this
  // form does not cancel when the ray starts close to the circle.
  const double t = cc / (-b + std::sqrt(disc));
  if (t > 1) return out;
  out.kind = LocalHit::Kind::corner;
  out.t = t;
  out.feature = vertex;
  out.point = o + t * d;
  const DVec radial = out.point - c;
  const double len = dlength(radial);
  out.normal = len > 0 ? (1 / len) * radial : (-1 / std::sqrt(a)) * d;
  return out;
}

/// How far beyond an edge's end a clip's entry point may lie through rounding alone, relative to
/// the size of the numbers involved: the planes come from float normals and offsets, so each one
/// passes through its edge's ends only to about float precision (and the entry point adds double
/// rounding of the ray). An entry point that far beyond the end whose corner circle is missed
/// (a sharp corner has none; a tiny radius is smaller than the rounding) is taken as an edge
/// hit: then the ray passes within rounding of the corner.
inline constexpr double kEntryRoundingFraction = 1e-6;
inline constexpr double kDoubleRoundingFraction = 1e-13;

/// The ray o + t d (0 <= t <= 1) against the polygon `poly` grown by r >= 0, all in poly's
/// frame. Poly provides: int vertex_count(), int edge_count() (0 for a point, 2 for a segment,
/// else vertex_count()), DVec vertex(int) for 0 <= i <= vertex_count() (slot vertex_count()
/// repeats vertex 0, so edge i runs from vertex(i) to vertex(i + 1)), DVec normal(int) (unit,
/// outward) and double offset(int) (normal . vertex(i)); a 2-vertex polygon's offset(1) must be
/// exactly -offset(0), so that with r = 0 its two planes are one line and a crossing ray enters
/// and leaves at the same t.
template <class Poly>
LocalHit cast_against_polygon(const Poly& poly, double r, DVec o, DVec d) {
  const int edges = poly.edge_count();
  double lower = 0, upper = 1;
  int entry = -1;
  for (int i = 0; i < edges; ++i) {
    const DVec n = poly.normal(i);
    const double num = poly.offset(i) + r - ddot(n, o);  // >= 0: o on the inner side of the plane
    const double den = ddot(n, d);                         // < 0: the ray enters through it
    if (den < 0) {
      if (num < lower * den) {
        lower = num / den;
        entry = i;
      }
    } else if (den > 0) {
      if (num < upper * den) upper = num / den;
    } else if (num < 0) {
      return {};  // parallel to the plane and outside it
    }
    if (upper < lower) return {};
  }

  if (entry >= 0) {
    LocalHit out;
    out.point = o + lower * d;
    const DVec a = poly.vertex(entry), e = poly.vertex(entry + 1) - a;
    const double s = ddot(out.point - a, e), len2 = ddot(e, e);
    if (s >= 0 && s <= len2) {
      out.kind = LocalHit::Kind::edge;
      out.t = lower;
      out.feature = entry;
      out.normal = poly.normal(entry);
      return out;
    }
    // Beyond an end of the outer edge: only that end's corner circle can be hit.
    const int corner = s < 0 ? entry : (entry + 1 == poly.vertex_count() ? 0 : entry + 1);
    LocalHit hit = cast_against_circle(poly.vertex(corner), r, o, d, corner);
    if (hit.kind == LocalHit::Kind::miss) {
      const double beyond = (s < 0 ? -s : s - len2) / std::sqrt(len2);
      const double slack = kEntryRoundingFraction * (dlength(a) + std::sqrt(len2)) +
                           kDoubleRoundingFraction * (dlength(o) + lower * dlength(d));
      if (beyond <= slack) {
        out.kind = LocalHit::Kind::edge;
        out.t = lower;
        out.feature = entry;
        out.normal = poly.normal(entry);
        return out;
      }
    }
    return hit;
  }

  // The origin is inside the extended polygon: inside the shape, or in the wedge of its
  // nearest core vertex (outside the shape the nearest core feature cannot be an edge, whose
  // distance is at most r there).
  const int n = poly.vertex_count();
  if (n >= 3) {
    bool in_core = true;
    for (int i = 0; i < n; ++i) in_core = in_core && poly.offset(i) - ddot(poly.normal(i), o) >= 0;
    if (in_core) return {LocalHit::Kind::inside, 0, 0, o, {}};
  }
  int nearest = 0;
  double best = ddot(o - poly.vertex(0), o - poly.vertex(0));
  bool on_edge = false;
  for (int i = 0; i < edges; ++i) {
    const DVec a = poly.vertex(i), e = poly.vertex(i + 1) - a, w = o - a;
    const double s = ddot(w, e), len2 = ddot(e, e);
    if (s <= 0) continue;  // vertex i: measured as the end of the previous edge, or vertex 0
    if (s >= len2) {
      const DVec wb = o - poly.vertex(i + 1);
      const double d2 = ddot(wb, wb);
      if (d2 < best) {
        best = d2;
        nearest = i + 1 == n ? 0 : i + 1;
        on_edge = false;
      }
    } else {
      const double c = dcross(w, e);
      const double d2 = c * c / len2;
      if (d2 < best) {
        best = d2;
        on_edge = true;
      }
    }
  }
  if (on_edge) return {LocalHit::Kind::inside, 0, 0, o, {}};
  return cast_against_circle(poly.vertex(nearest), r, o, d, nearest);  // inside when within r
}

}  // namespace pebble::cast_core
