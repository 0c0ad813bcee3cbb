// shape_cast(): seeds 002 ("Continuous linear") and 003 (time of impact): when B moves by
// translation_b and A by translation_a, they first touch where the point moving from 0 along the
// relative motion meets the Minkowski difference A - B grown by both radii (and by the target
// separation). The difference is built in A's frame (src/minkowski.hpp), the ray cast is the one
// of raycast() (src/ray_core.hpp), and the feature the ray meets names the witness points.
#include "pebble/cast.hpp"

#include "minkowski.hpp"
#include "pebble/distance.hpp"

namespace pebble {
namespace {

using cast_core::Difference;
using cast_core::LocalHit;

constexpr CastHit kNoHit{false, 1, {0, 0}, {0, 0}};

/// Two shapes seen from A's frame: B's core vertices and edge normals turned and moved there,
/// and their Minkowski difference A - B.
struct PairInA {
  Vec2 b[kMaxPolygonVertices + 1];
  float bnx[kMaxPolygonVertices], bny[kMaxPolygonVertices];
  Difference diff;

  PairInA(const Shape& a, const Shape& sb, const Transform& xa, const Transform& xb) {
    const Rot q = inv_mul(xa.q, xb.q);
    const Vec2 p = inv_rotate(xa.q, xb.p - xa.p);
    const int nb = sb.vertex_count();
    const Vec2* vb = sb.padded_vertices();
    for (int j = 0; j < nb; ++j) {
      b[j] = rotate(q, vb[j]) + p;
      const Vec2 n = rotate(q, sb.normal(j));
      bnx[j] = n.x;
      bny[j] = n.y;
    }
    b[nb] = b[0];
    cast_core::build_difference(a.padded_vertices(), a.normal_lanes_x(), a.normal_lanes_y(), a.vertex_count(), b, bnx, bny, nb, diff);
  }

  /// The ray from the origin along d (A's frame) against the difference grown by r.
  LocalHit cast(float r, Vec2 d) const {
    switch (diff.count) {
      case 1: return cast_core::cast_circle(diff.v[0].x, diff.v[0].y, r, 0, 0, 0, d.x, d.y, 0);
      case 2: return cast_core::cast_capsule(diff.v[0], diff.v[1], {diff.nx[0], diff.ny[0]}, r, 0, 0, d.x, d.y);
      default: return cast_core::cast_polygon(diff.lanes(), r, 0, 0, d.x, d.y);
    }
  }

  /// The core points of A and B (A's frame) that touch when the ray from the origin along d
  /// meets the grown difference at `hit`: the difference's core point there is hit point - r n.
  void witnesses(const LocalHit& hit, float r, Vec2 d, const Shape& a, Vec2& on_a, Vec2& on_b) const {
    int k = hit.feature;
    float s = 0;
    if (hit.kind == LocalHit::Kind::edge) {
      const Vec2 start = diff.v[k], e = diff.v[k + 1] - start;
      const Vec2 core{hit.t * d.x - r * hit.nx, hit.t * d.y - r * hit.ny};
      const float len2 = dot(e, e);
      s = len2 > 0 ? std::clamp(dot(core - start, e) / len2, 0.0f, 1.0f) : 0;
    }
    diff.witnesses(k, s, a.padded_vertices(), b, on_a, on_b);
  }
};

bool valid_motion(Vec2 translation) { return is_valid_point(translation); }

/// The answer when the shapes start within the target: fraction 0, the normal of distance()
/// (minimum translation when overlapping), the point midway between its witness points.
CastHit hit_at_start(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  const DistanceResult d = distance(a, xa, b, xb);
  return {true, 0, 0.5f * (d.point_a + d.point_b), d.normal};
}

}  // namespace

CastHit shape_cast(const Shape& a, const Transform& xa, Vec2 translation_a, const Shape& b, const Transform& xb,
                   Vec2 translation_b) noexcept {
  return shape_cast(a, xa, translation_a, b, xb, translation_b, ShapeCastOptions{});
}

CastHit shape_cast(const Shape& a, const Transform& xa, Vec2 translation_a, const Shape& b, const Transform& xb,
                   Vec2 translation_b, const ShapeCastOptions& options) noexcept {
  const float target = options.target_separation;
  if (!is_valid(xa) || !is_valid(xb) || !valid_motion(translation_a) || !valid_motion(translation_b) ||
      !(target >= 0 && target <= kMaxShapeExtent)) {
    return kNoHit;
  }
  const PairInA pair(a, b, xa, xb);
  // B relative to A, in A's frame: A - B moves by translation_a - translation_b, so the origin
  // moves through it by translation_b - translation_a.
  const Vec2 d = inv_rotate(xa.q, translation_b - translation_a);
  const float r = a.radius() + b.radius() + target;
  const LocalHit hit = pair.cast(r, d);
  switch (hit.kind) {
    case LocalHit::Kind::miss: return kNoHit;
    case LocalHit::Kind::inside: return hit_at_start(a, xa, b, xb);
    case LocalHit::Kind::edge:
    case LocalHit::Kind::corner: break;
  }
  Vec2 on_a, on_b;
  pair.witnesses(hit, r, d, a, on_a, on_b);
  const Vec2 n = rotate(xa.q, Vec2{hit.nx, hit.ny});
  // Both surfaces at the time of contact: A's point pushed out by its radius, B's pulled in by
  // its own; they are target apart along n, and the answer is midway.
  const Vec2 surface_a = transform_point(xa, on_a) + hit.t * translation_a + a.radius() * n;
  const Vec2 surface_b = transform_point(xa, on_b) + hit.t * translation_b - b.radius() * n;
  return {true, hit.t, 0.5f * (surface_a + surface_b), n};
}

}  // namespace pebble
