// Contact manifolds for any pair of rounded convex shapes, one generic path (seed 000, "The
// rounded polygon algorithm"), with these departures from the seed (docs/contacts.md):
//  - The seed's step 5 tests one vertex pair (deepest incident vertex against one reference
//    endpoint). We take the closest points of the whole reference and incident edges, which are
//    the exact closest points of the cores (contact_core.hpp), so no closer pair is missed and a
//    corner-to-corner contact reports the true distance.
//  - No NaN for parallel edges and no division by zero for coincident circle centres: clipping
//    works on projections along the reference edge, and coincident points get a fixed normal.
//  - Aligned edges closer than the margin give two points (Box2D's speculative path reports one):
//    a corner exactly in line with the reference edge's end counts as on the edge.
//  - count > 0 exactly when distance() <= margin: both use the same core distance.
#include "pebble/manifold.hpp"

#include "contact_core.hpp"

namespace pebble {
namespace {

using detail::FramedCore;

/// Incident points within this fraction of the pair's size outside the reference edge's side
/// planes are kept as they are (in line with the edge end counts as on the edge).
constexpr float kClipFraction = 1e-5f;

constexpr uint32_t pack_id(uint32_t feature_a, uint32_t feature_b) { return (feature_a & 0xffffu) | (feature_b << 16); }

struct Builder {
  Manifold m{};
  bool flip = false;  // reference core is B: ref/inc features map to B/A

  void add(Vec2 point, float separation, uint32_t ref_feature, uint32_t inc_feature) {
    const uint32_t id = flip ? pack_id(inc_feature, ref_feature) : pack_id(ref_feature, inc_feature);
    m.points[m.count++] = {point, separation, id};
  }
};

}  // namespace

Manifold Manifold::flipped() const {
  Manifold out = *this;
  out.normal = -normal;
  for (int i = 0; i < count && i < 2; ++i) {
    const uint32_t id = points[i].id;
    out.points[i].id = (id >> 16) | (id << 16);
  }
  return out;
}

Manifold collide(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, float margin) noexcept {
  Manifold empty{};
  empty.normal = {0, 0};
  empty.count = 0;
  if (!is_valid(xa) || !is_valid(xb) || !std::isfinite(margin)) return empty;

  FramedCore ca, cb;
  detail::copy_core(a, ca);
  detail::frame_core(b, inv_mul(xa, xb), cb);
  const float scale = detail::pair_scale(a, b);
  const detail::CoreDistance d = detail::core_distance(ca, cb, scale);
  const float ra = a.radius(), rb = b.radius();
  const float signed_distance = d.distance - ra - rb;  // exactly as distance() computes it
  if (!(signed_distance <= margin)) return empty;

  // The single closest-point contact: midway between the surfaces along the true direction.
  auto witness_point = [&](Builder& out, uint32_t feature_a, uint32_t feature_b) {
    const Vec2 on_a = d.point_a + ra * d.normal;
    const Vec2 on_b = d.point_b - rb * d.normal;
    out.flip = false;
    out.m.normal = d.normal;
    out.add(0.5f * (on_a + on_b), signed_distance, feature_a, feature_b);
  };

  Builder out;
  const detail::CoreQuery& q = d.query;
  if (q.ref_edge < 0) {
    witness_point(out, 0, 0);  // two points (circles): one contact on the line of centres
  } else {
    const FramedCore& ref = q.flip ? cb : ca;
    const FramedCore& inc = q.flip ? ca : cb;
    const float r_ref = ref.radius, r_inc = inc.radius;
    const Vec2 n = q.normal;  // from the reference core to the incident core
    Vec2 r1, r2, i1, i2;
    detail::edge_points(ref, q.ref_edge, r1, r2);
    detail::edge_points(inc, q.inc_edge, i1, i2);
    const Vec2 edge = r2 - r1;
    const float len = length(edge);
    const Vec2 t = len > 0 ? edge / len : Vec2{-n.y, n.x};
    const float eps = kClipFraction * scale;
    const float u[2] = {dot(i1 - r1, t), dot(i2 - r1, t)};
    const Vec2 p[2] = {i1, i2};

    // Separated cores whose closest points are two vertices, the incident one clearly beyond
    // the reference edge's end: a rounded corner against a rounded corner (seed 000, step 5).
    const detail::SegmentClosest& c = d.closest;
    const bool vertex_pair = !d.overlapping && (c.s == 0 || c.s == 1) && (c.t == 0 || c.t == 1);
    const float u_closest = c.t == 0 ? u[0] : u[1];
    if (vertex_pair && (u_closest < -eps || u_closest > len + eps)) {
      const uint32_t f_ref = uint32_t(detail::edge_end_index(ref, q.ref_edge, c.s == 0 ? 0 : 1));
      const uint32_t f_inc = uint32_t(detail::edge_end_index(inc, q.inc_edge, c.t == 0 ? 0 : 1));
      witness_point(out, q.flip ? f_inc : f_ref, q.flip ? f_ref : f_inc);
    } else {
      // Clip the incident edge to the reference edge's side planes (seed 000, "Clipping
      // edges"), then keep every clipped point within the margin.
      out.flip = q.flip;
      out.m.normal = q.flip ? -n : n;
      const int ends = inc.count == 1 ? 1 : 2;
      for (int k = 0; k < ends; ++k) {
        const int o = 1 - k;
        Vec2 point = p[k];
        uint32_t f_ref = kEdgeFeature | uint32_t(q.ref_edge);
        uint32_t f_inc = uint32_t(detail::edge_end_index(inc, q.inc_edge, k));
        const float bound = u[k] < -eps ? 0.0f : (u[k] > len + eps ? len : u[k]);
        if (bound != u[k]) {
          // Outside a side plane: slide along the incident edge onto the plane, if the other
          // end is on the inner side of it.
          const bool other_inside = bound == 0.0f ? u[o] > 0.0f : u[o] < len;
          if (ends == 1 || !other_inside) continue;
          const float lambda = (bound - u[k]) / (u[o] - u[k]);
          point = p[k] + lambda * (p[o] - p[k]);
          f_ref = uint32_t(detail::edge_end_index(ref, q.ref_edge, bound == 0.0f ? 0 : 1));
          f_inc = kEdgeFeature | uint32_t(q.inc_edge);
        }
        const float core_gap = dot(point - r1, n);
        const float separation = core_gap - r_ref - r_inc;
        if (separation > margin) continue;
        out.add(point + 0.5f * (r_ref - core_gap - r_inc) * n, separation, f_ref, f_inc);
      }
      if (out.m.count == 0) {
        // Float noise clipped away the contact the distance says exists: report the witness.
        witness_point(out, 0, 0);
      }
    }
  }

  Manifold m = out.m;
  m.normal = rotate(xa.q, m.normal);
  for (int i = 0; i < m.count; ++i) m.points[i].point = transform_point(xa, m.points[i].point);
  return m;
}

}  // namespace pebble
