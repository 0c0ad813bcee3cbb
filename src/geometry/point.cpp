// Point queries [seed-rounded §7], with the corrections listed in docs/point.md.
//
// The work happens in the shape's local frame and in double: the float inputs convert to double
// exactly, so the inverse transform of a point at 1e9 keeps its low bits, and the orientation
// tests below (cross products of float differences) decide "on the edge" exactly in the common
// cases (axis-aligned edges, vertices, identity or translation-only transforms). Outputs are
// rounded to float once, at the end.
//
// Both queries share one classification, locate(), which decides `inside` without a square
// root; project_point() then only measures the feature locate() found. contains() is therefore
// project_point().inside by construction, not by two formulas that happen to agree.
#include "pebble/point.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "pebble/detail/exact.hpp"
#include "simd/config.hpp"
#include "simd/wide.hpp"
#include "tolerances.hpp"

namespace pebble {
namespace {

using detail::D2;  // double vector and its operations: pebble/detail/exact.hpp
using detail::d2;

// A valid transform in double with its rotation scaled to unit length. is_valid() lets |q|
// stray from 1 by kRotationTolerance; we treat such a q as the rotation by its angle rather than
// scaling the shape. Two Newton steps for 1/sqrt(c^2 + s^2) starting at 1 leave an error below
// 1e-12 over that range and cost no square root, which keeps contains() sqrt-free.
struct Frame {
  double c, s, px, py;

  explicit Frame(const Transform& xf) : c(xf.q.c), s(xf.q.s), px(xf.p.x), py(xf.p.y) {
    const double m = c * c + s * s;
    double inv = 1.5 - 0.5 * m;
    inv *= 1.5 - 0.5 * m * inv * inv;
    c *= inv;
    s *= inv;
  }
  D2 to_local(Position p) const {
    const double dx = double(p.x) - px, dy = double(p.y) - py;
    return {c * dx + s * dy, -s * dx + c * dy};
  }
  Position point_to_world(D2 v) const {
    using Coord = decltype(Position::x);  // float, or double with PEBBLE_DOUBLE_POSITIONS
    return {Coord(c * v.x - s * v.y + px), Coord(s * v.x + c * v.y + py)};
  }
  Vec2 vector_to_world(D2 v) const { return {float(c * v.x - s * v.y), float(s * v.x + c * v.y)}; }
};

// Which part of the core is closest to the query point.
enum class Feature {
  interior,  // the point is inside the (3..8-vertex) core or on its boundary
  vertex,    // closest to core vertex `index`
  edge,      // closest to the inside of edge `index` (from vertex index to index + 1)
};

struct Location {
  D2 p;             // query point, local frame
  Feature feature;  // closest core feature (interior: inside the core)
  int index;        // vertex or edge index; unused for interior
  double cross;     // edge: cross(p - v_index, edge), > 0 on the outward side
  double d2;        // squared distance from p to the core (0 for interior)
  bool inside;      // p inside the rounded shape or on its boundary
};

// The classification shared by contains() and project_point(): the nearest core feature, its
// squared distance (along an edge as cross^2 / |e|^2, so that a point exactly on an edge line
// gets exactly 0) and the inside decision, all without a square root.
Location locate(const Shape& shape, D2 p) {
  const Vec2* v = shape.vertices().data();
  const int n = shape.vertex_count();
  const double r = shape.radius();
  const double r2 = r * r;  // exact: r is a float

  if (n == 1) {
    const D2 w = p - d2(v[0]);
    const double d2 = dot(w, w);
    return {p, Feature::vertex, 0, 0, d2, d2 <= r2};
  }

  if (n == 2) {
    // A segment has no interior: the answer is the clamped projection on a->b. The side of
    // the line picks edge 0 (a->b, normal n0) or edge 1 (b->a, normal -n0); a point on the
    // segment itself goes to edge 0.
    const D2 a = d2(v[0]), b = d2(v[1]);
    const D2 e = b - a, w = p - a;
    const double t = dot(w, e), len2 = dot(e, e);
    if (t < 0) return {p, Feature::vertex, 0, 0, dot(w, w), dot(w, w) <= r2};
    if (t > len2) {
      const D2 wb = p - b;
      const double d2 = dot(wb, wb);
      return {p, Feature::vertex, 1, 0, d2, d2 <= r2};
    }
    const double c = cross(w, e);
    const double d2 = c * c / len2;
    return {p, Feature::edge, c >= 0 ? 0 : 1, c >= 0 ? c : -c, d2, d2 <= r2};
  }

  // Step 3 of the seed, for every edge: p is in the core when it is on the inner side of (or
  // on) every edge line. The sign of the cross product is exact for float inputs in the common
  // cases, so vertices and points on axis-aligned edges count as inside.
  double cross_of[kMaxPolygonVertices];
  bool in_core = true;
  for (int i = 0; i < n; ++i) {
    const D2 a = d2(v[i]);
    cross_of[i] = cross(p - a, d2(v[i + 1 == n ? 0 : i + 1]) - a);
    in_core = in_core && cross_of[i] <= 0;
  }
  if (in_core) return {p, Feature::interior, 0, 0, 0, true};

  // Steps 1-2: the nearest clamped projection. Outside a convex core the nearest point lies on
  // an edge p is strictly outside of, or is an end of one (its normal cone holds p - q), so the
  // other edges are skipped. Ties keep the lower index.
  Location best{p, Feature::vertex, 0, 0, std::numeric_limits<double>::infinity(), false};
  for (int i = 0; i < n; ++i) {
    if (!(cross_of[i] > 0)) continue;
    const int j = i + 1 == n ? 0 : i + 1;
    const D2 a = d2(v[i]);
    const D2 e = d2(v[j]) - a, w = p - a;
    const double t = dot(w, e), len2 = dot(e, e);
    if (t < 0) {
      const double d2 = dot(w, w);
      if (d2 < best.d2) {
        best.feature = Feature::vertex;
        best.index = i;
        best.d2 = d2;
      }
    } else if (t > len2) {
      const D2 wj = p - d2(v[j]);
      const double d2 = dot(wj, wj);
      if (d2 < best.d2) {
        best.feature = Feature::vertex;
        best.index = j;
        best.d2 = d2;
      }
    } else {
      const double d2 = cross_of[i] * cross_of[i] / len2;
      if (d2 < best.d2) {
        best.feature = Feature::edge;
        best.index = i;
        best.cross = cross_of[i];
        best.d2 = d2;
      }
    }
  }
  best.inside = best.d2 <= r2;
  return best;
}

constexpr ProjectionResult kEmptyProjection{{0, 0}, {0, 0}, kHugeDistance, false};

#if PEBBLE_DOUBLE_POSITIONS
/// d if it lies in the normal cone of core vertex i (from the normal of the edge ending at i,
/// counter-clockwise to that of the edge starting there; a segment's end: the half plane beyond
/// it), else the nearer of those two edge normals.
D2 into_normal_cone(const Shape& shape, int i, D2 d) {
  const int n = shape.vertex_count();
  const D2 before = d2(shape.normal(i == 0 ? n - 1 : i - 1)), after = d2(shape.normal(i));
  if (cross(before, d) >= 0 && cross(d, after) >= 0) return d;
  return dot(d, before) > dot(d, after) ? before : after;
}
#endif

}  // namespace

ProjectionResult project_point(const Shape& shape, const Transform& xf, Position p) noexcept {
  if (!is_valid(xf) || !is_valid_point(p)) return kEmptyProjection;
  const Frame frame(xf);
  const Location loc = locate(shape, frame.to_local(p));
  const Vec2* v = shape.vertices().data();
  const int n = shape.vertex_count();
  const double r = shape.radius();

  D2 normal{};      // outward unit normal at the answer, local
  D2 core_point{};  // closest point of the core, local
  double distance = 0;

  switch (loc.feature) {
    case Feature::interior: {
      // Inside a convex core the nearest boundary point is the foot of the perpendicular on
      // the nearest edge line (it always falls on the edge itself), so the separation is the
      // largest signed distance to an edge line. Ties (the centroid of a regular polygon, a
      // vertex) go to the lowest edge index. The stored float normals only pick the edge; the
      // distance is recomputed from the edge vector so that it is <= 0 whenever the
      // orientation test in locate() said "inside".
      int k = 0;
      double best = -std::numeric_limits<double>::infinity();
      for (int i = 0; i < n; ++i) {
        const double sep = dot(loc.p - d2(v[i]), d2(shape.normal(i)));
        if (sep > best) {
          best = sep;
          k = i;
        }
      }
      const D2 a = d2(v[k]);
      const D2 e = d2(v[k + 1 == n ? 0 : k + 1]) - a;
      const double len = std::sqrt(dot(e, e));
      const double h = cross(loc.p - a, e) / len;  // <= 0: signed distance to the edge line
      const D2 rp = right_perp(e);
      normal = {rp.x / len, rp.y / len};
      core_point = {loc.p.x - h * normal.x, loc.p.y - h * normal.y};
      distance = h - r;
      break;
    }
    case Feature::edge: {
      // The edge's own normal, not (p - q) / |p - q|: exact in direction and defined also
      // when p lies on the edge.
      const D2 a = d2(v[loc.index]);
      const D2 e = d2(v[loc.index + 1 == n ? 0 : loc.index + 1]) - a;
      const double len = std::sqrt(dot(e, e));
      const double h = loc.cross / len;
      const D2 rp = right_perp(e);
      normal = {rp.x / len, rp.y / len};
      core_point = {loc.p.x - h * normal.x, loc.p.y - h * normal.y};
      distance = std::fabs(h) - r;
      break;
    }
    case Feature::vertex: {
      core_point = d2(v[loc.index]);
      const double len = std::sqrt(loc.d2);
      if (len > 0) {
        normal = {(loc.p.x - core_point.x) / len, (loc.p.y - core_point.y) / len};
      } else if (n == 1) {
        normal = {1, 0};  // the centre of a disc: every direction is a closest one; take local +x
      } else {
        normal = d2(shape.normal(loc.index));  // only reachable through rounding
      }
#if PEBBLE_DOUBLE_POSITIONS
      // A world point placed in double (transform_point() of a core vertex) lands within a few
      // double steps of the vertex, where p - vertex is rounding noise: keep its direction inside
      // the vertex's normal cone, or the answer (vertex + radius x normal) leaves the surface.
      if (n >= 2) normal = into_normal_cone(shape, loc.index, normal);
#endif
      distance = len - r;
      break;
    }
  }

  const D2 local_point{core_point.x + r * normal.x, core_point.y + r * normal.y};
  // Keep the documented equivalence inside == (distance <= 0) exact after rounding: locate()
  // decided inside, and the rounded distance must not contradict it.
  float d = float(distance);
  if (loc.inside) {
    d = std::fmin(d, 0.0f);
  } else if (!(d > 0)) {
    d = std::numeric_limits<float>::min();
  }
  return {frame.point_to_world(local_point), frame.vector_to_world(normal), d, loc.inside};
}

namespace {

/// contains()'s exact test: locate()'s decision, in double (the float filter's fallback).
[[gnu::noinline]] bool contains_exact(const Shape& shape, const Transform& xf, Position p) noexcept {
  if (!is_valid(xf) || !is_valid_point(p)) return false;
  const D2 q = Frame(xf).to_local(p);
  const int n = shape.vertex_count();
  if (n == 1) {
    // locate()'s disc test, inline (the call and its result struct cost more than the test).
    const D2 w = q - d2(shape.vertices()[0]);
    const double r = shape.radius();
    return dot(w, w) <= r * r;
  }
  if (shape.radius() == 0 && n >= 3) {
    // A sharp polygon: locate()'s core test, stopping at the first edge p is outside of (then
    // its distance to the core is positive and it is outside; no need to find how far).
    const Vec2* v = shape.vertices().data();
    for (int i = 0; i < n; ++i) {
      const D2 a = d2(v[i]);
      if (cross(q - a, d2(v[i + 1 == n ? 0 : i + 1]) - a) > 0) return false;
    }
    return true;
  }
  return locate(shape, q).inside;
}

/// The sharp polygon's float filter over `Lanes` edge planes: +1 inside, -1 outside, 0 undecided.
template <int Lanes>
int polygon_filter(const Shape& shape, float qx, float qy, float tol) {
  using F = detail::base::FloatLanes<Lanes>;
  // The padded lanes (zero normal, huge offset) are far inside.
  const F sep = (F::load(shape.normal_lanes_x()) * F::splat(qx) + F::load(shape.normal_lanes_y()) * F::splat(qy)) -
                F::load(shape.offset_lanes());
  if (any(sep > F::splat(tol))) return -1;
  if (bits(F::splat(-tol) > sep) == (1u << Lanes) - 1) return 1;
  return 0;
}

}  // namespace

bool contains(const Shape& shape, const Transform& xf, Position p) noexcept {
  // A float filter first (docs/point.md, "Float filter"): the same decision as the double test
  // whenever the float answer is clear of the boundary by more than its rounding could move it;
  // only points within that band (about 1e-6 of the coordinates) take the double test. Invalid
  // input answers false, so a clear "outside" needs no input check: only "inside" does (a
  // non-finite input leaves the filter undecided, and the double test checks it).
  const int n = shape.vertex_count();
  const float c = xf.q.c, s = xf.q.s;
  const float dx = float(p.x - xf.p.x), dy = float(p.y - xf.p.y);
  const float rotation_error = 4.0f * std::fabs((c * c + s * s) - 1.0f);
  if (n == 1) {
    // |(p - position) - q v|^2 against r^2: the disc's test in world axes, no frame needed.
    const Vec2 v = shape.padded_vertices()[0];
    const float r = shape.radius();
    const float wx = dx - (c * v.x - s * v.y), wy = dy - (s * v.x + c * v.y);
    const float gap = (wx * wx + wy * wy) - r * r;
    const float size = ((std::fabs(dx) + std::fabs(dy)) + (std::fabs(v.x) + std::fabs(v.y))) + r;
    const float tol = (kDiscFilterFraction + rotation_error) * (size * size) + kFilterFloor;
    if (gap > tol) return false;
    if (gap < -tol) return is_valid(xf) && is_valid_point(p);
  } else if (n >= 3 && std::bit_cast<std::uint32_t>(shape.radius()) == 0) {
    // Every edge plane (the shape's float normals and offsets) at p in the shape's frame.
    const float qx = c * dx + s * dy, qy = c * dy - s * dx;
    const Vec2 centroid = shape.core_centroid();
    const float reach = (std::fabs(centroid.x) + std::fabs(centroid.y)) + shape.extent();  // >= |vertex|
    const float tol =
        (kPlaneFilterFraction + rotation_error) * ((std::fabs(dx) + std::fabs(dy)) + 2.0f * reach) + kFilterFloor;
    const int decided =
        n <= 4 ? polygon_filter<4>(shape, qx, qy, tol) : polygon_filter<kMaxPolygonVertices>(shape, qx, qy, tol);
    if (decided < 0) return false;
    if (decided > 0) return is_valid(xf) && is_valid_point(p);
  }
  return contains_exact(shape, xf, p);
}

}  // namespace pebble
