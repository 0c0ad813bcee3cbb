// Internal: what distance() and collide() share: the two cores in one frame, the separating-axis
// search over both cores' edge normals, and the closest points of the reference and incident edges.
//
// Why those two edges are enough (docs/contacts.md has pictures): B ⊖ A is a convex polygon whose
// edges are A's and B's; its edge of greatest separation is reference edge i of one core with the
// other's supporting vertex w [seed-detection §3]. For an origin outside, the closest point of
// B ⊖ A lies on that edge (separation is unimodal around the closest direction), so the closest
// features are that edge and w, or a reference vertex and a parallel edge of the other core. The
// incident edge (most anti-parallel to the reference normal) holds w and is that parallel edge when
// one exists, so one segment-segment computation is exact. Inside, the separation is minus the depth.
#pragma once

#include "simd/config.hpp"
#include "simd/wide.hpp"
#include "tolerances.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {

/// is_valid(xa) && is_valid(xb) (math.hpp) in one 4-lane step: the same float operations lane by
/// lane, so the same answer bit for bit, in fewer instructions (docs/contacts.md, Speed).
inline bool valid_pair(const Transform& xa, const Transform& xb) {
#if PEBBLE_DOUBLE_POSITIONS
  return (int(is_valid(xa)) & int(is_valid(xb))) != 0;
#else
  static_assert(sizeof(Transform) == 4 * sizeof(float), "Transform must be p.x, p.y, q.c, q.s");
  float fa[4], fb[4];
  std::memcpy(fa, &xa, sizeof fa);
  std::memcpy(fb, &xb, sizeof fb);
  const Float4 a = Float4::load(fa), b = Float4::load(fb);
  const Float4 pos = low_halves(a, b);   // pa.x pa.y pb.x pb.y
  const Float4 rot = high_halves(a, b);  // qa.c qa.s qb.c qb.s
  const Float4 sq = rot * rot;
  const Float4 deviation = abs((sq + swap_pairs(sq)) - Float4::splat(1.0f));  // |c*c + s*s - 1|, twice per rotation
  return all((abs(pos) <= Float4::splat(kMaxWorldCoordinate)) & (deviation <= Float4::splat(kRotationTolerance)));
#endif
}

/// A core in some frame (shape A's): its vertices, and edge normals and offsets as 8 lanes (past
/// `edges`: zero normal, huge offset) so that the axis scan and the incident-edge search are
/// element-wise over edges (simd/wide.hpp): 4 lanes for up to 4 edges, else 8.
struct FramedCore {
  const Vec2* v;    // count vertices, then copies of v[0] up to an even count and past it
  const float* nx;  // kMaxPolygonVertices lanes of outward unit edge normals
  const float* ny;
  const float* off;  // dot(normal i, v[i]); huge past edges
  int count;         // vertices
  int edges;         // 0 for a point, 2 for a segment, else count
  float radius;

  Vec2 normal(int i) const { return {nx[i], ny[i]}; }
};

/// Storage for a core moved into another frame.
struct CoreStorage {
  Vec2 v[kMaxPolygonVertices + 1];
  float nx[kMaxPolygonVertices];
  float ny[kMaxPolygonVertices];
  float off[kMaxPolygonVertices];
};

/// The core in its own frame: the shape's own arrays, nothing copied.
inline FramedCore view_core(const Shape& s) {
  return {s.padded_vertices(), s.normal_lanes_x(), s.normal_lanes_y(), s.offset_lanes(),
          s.vertex_count(),    s.edge_count(),     s.radius()};
}

/// The core moved by xf.
inline FramedCore frame_core(const Shape& s, const Transform& xf, CoreStorage& storage) {
  const int count = s.vertex_count(), edges = s.edge_count();
  const Vec2* vs = s.padded_vertices();
  const float c = xf.q.c, sn = xf.q.s, px = float(xf.p.x), py = float(xf.p.y);
  // Two vertices per step with transform_point()'s roundings: (c x - s y) + px, (c y + s x) + py
  // (slots past count repeat vertex 0, so an odd count reads a valid padded vertex).
  const Float4 cc = Float4::splat(c), ss = Float4::lanes(-sn, sn, -sn, sn), pp = Float4::lanes(px, py, px, py);
  for (int i = 0; i < count; i += 2) {
    const Float4 xy = Float4::load(&vs[i].x);
    store(&storage.v[i].x, (cc * xy + ss * swap_pairs(xy)) + pp);
  }
  storage.v[count] = storage.v[0];  // so that edge e always ends at v[e + 1]
  // The edge lanes: normals turned by xf.q, offsets moved by the turned normal's projection of xf.p.
  // A plain loop: GCC vectorizes it better than FloatLanes<8> in the SSE2 copy (docs/contacts.md).
  const float* nx = s.normal_lanes_x();
  const float* ny = s.normal_lanes_y();
  const float* off = s.offset_lanes();
  const auto move_lanes = [&](int lanes) {
    for (int i = 0; i < lanes; ++i) {
      const float x = c * nx[i] - sn * ny[i], y = sn * nx[i] + c * ny[i];
      storage.nx[i] = x;
      storage.ny[i] = y;
      storage.off[i] = off[i] + (x * px + y * py);
    }
  };
  // Only the lanes max_separation() and incident_edge() will read: 4 for up to 4 edges, else 8.
  if (edges <= 4) {
    move_lanes(4);
  } else {
    move_lanes(kMaxPolygonVertices);
  }
  return {storage.v, storage.nx, storage.ny, storage.off, count, edges, s.radius()};
}

/// Greatest separation of `other` from the edge planes of `ref`: the SAT over ref's axes.
struct AxisSeparation {
  float separation;  // -huge when ref has no edges
  int edge;          // -1 when ref has no edges
};

/// The greatest of some edge lanes and the lowest lane holding it; {-huge, -1} when no lane exceeds
/// -huge (no edges, or NaN separations). max_lane is one of the lanes, so a number gives a mask
/// not 0; it is compared as a number, not as the tree's whole result, whose other lanes can differ
/// with NaN lanes (an invalid transform, before collide() checks it).
template <class F>
PEBBLE_HOT_INLINE AxisSeparation first_max_lane(F lanes) {
  const float best = max_lane(lanes);
  if (!(best > -kHugeDistance)) return {-kHugeDistance, -1};
  return {best, first_set_lane(lanes_equal(lanes, best))};
}

/// For every edge lane: the least projection of other's vertices on the normal, minus the offset;
/// then the greatest. Element-wise, no data-dependent branches: at <= 8 vertices the full scan beats
/// a rotating-calipers walk, whose loop exits mispredict (docs/contacts.md, Speed).
template <int Lanes>
inline AxisSeparation max_separation_lanes(const FramedCore& ref, const FramedCore& other) {
  using F = FloatLanes<Lanes>;
  const F nx = F::load(ref.nx), ny = F::load(ref.ny);
  F least = F::splat(std::numeric_limits<float>::infinity());
  // Two vertices per step (an odd count reads a copy of vertex 0, which changes no minimum).
  for (int j = 0; j < other.count; j += 2) {
    const PointLanes<F> p = F::splat_points(&other.v[j]);
    least = min(least, min(nx * p.x0 + ny * p.y0, nx * p.x1 + ny * p.y1));
  }
  return first_max_lane(least - F::load(ref.off));
}

inline AxisSeparation max_separation(const FramedCore& ref, const FramedCore& other) {
  return ref.edges <= 4 ? max_separation_lanes<4>(ref, other) : max_separation_lanes<kMaxPolygonVertices>(ref, other);
}

/// The edge of `core` (v[e] to v[(e+1) % count]) whose normal is most anti-parallel to n, the lowest
/// on ties; for a point, its vertex. Padded lanes (dot 0) never win: a closed polygon's normals,
/// weighted by length, sum to zero, so some dot is negative; a segment's two normals are opposite,
/// so the least is <= 0 and a tie at 0 goes to the lower, real lane.
template <int Lanes>
inline int incident_edge_lanes(const FramedCore& core, Vec2 n) {
  using F = FloatLanes<Lanes>;
  const F d = F::load(core.nx) * F::splat(n.x) + F::load(core.ny) * F::splat(n.y);
  const unsigned mask = lanes_equal(d, min_lane(d));
  return mask != 0 ? first_set_lane(mask) : 0;  // 0: not numbers (invalid input only)
}

inline int incident_edge(const FramedCore& core, Vec2 n) {
  if (core.edges == 0) return 0;
  return core.edges <= 4 ? incident_edge_lanes<4>(core, n) : incident_edge_lanes<kMaxPolygonVertices>(core, n);
}

/// Closest points of segments p1q1 and p2q2 (either may have zero length). Segments that do not
/// cross have a closest pair with an endpoint, so the best of the four endpoint projections;
/// crossing ones meet at 0. Unlike Ericson 5.1.9's line parameters, no a*e - b*b cancellation for
/// nearly parallel segments. A fraction of exactly 0 or 1 means that endpoint. (cast/ray_core.hpp's
/// segment_distance() divides per endpoint; two functions keep both bits: docs/architecture.md.)
struct SegmentClosest {
  float s, t;   // fractions along segment 1 and 2
  Vec2 c1, c2;  // the closest points
  float dist2;  // squared distance
};

/// d / len (len = length(d)), unit even below |d| ~ 1e-18, where len keeps few bits (a denormal
/// square): normalize() rescales first. Otherwise the plain quotient, bit for bit.
inline Vec2 direction(Vec2 d, float len) { return len >= kTinyLength ? d / len : normalize(d); }

inline float clamp01(float x) { return x < 0 ? 0.0f : (x > 1 ? 1.0f : x); }

PEBBLE_HOT_INLINE SegmentClosest closest_segments(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2) {
  const Vec2 d1 = q1 - p1, d2 = q2 - p2;
  const float a = dot(d1, d1), e = dot(d2, d2);
  // Crossing: the endpoints of each segment lie strictly on both sides of the other.
  const float o1 = cross(d1, p2 - p1), o2 = cross(d1, q2 - p1);
  const float o3 = cross(d2, p1 - p2), o4 = cross(d2, q1 - p2);
  if (((o1 < 0 && o2 > 0) || (o1 > 0 && o2 < 0)) && ((o3 < 0 && o4 > 0) || (o3 > 0 && o4 < 0))) {
    const float s = clamp01(o3 / (o3 - o4));
    const Vec2 c = p1 + s * d1;
    return {s, clamp01(o1 / (o1 - o2)), c, c, 0.0f};
  }
  SegmentClosest best{0, 0, p1, p2, kHugeDistance};
  const auto consider = [&](float s, float t) {
    const Vec2 c1 = p1 + s * d1, c2 = p2 + t * d2;
    const float d = distance_squared(c1, c2);
    if (d < best.dist2) best = {s, t, c1, c2, d};
  };
  const float inv_e = e > 0 ? 1.0f / e : 0.0f, inv_a = a > 0 ? 1.0f / a : 0.0f;
  consider(0, clamp01(dot(p1 - p2, d2) * inv_e));
  consider(1, clamp01(dot(q1 - p2, d2) * inv_e));
  consider(clamp01(dot(p2 - p1, d1) * inv_a), 0);
  consider(clamp01(dot(q2 - p1, d1) * inv_a), 1);
  return best;
}

/// The axis search and closest features of two cores in one frame; `flip`: the reference is B's.
struct CoreQuery {
  float separation;  // greatest axis separation (core, radius not included)
  int ref_edge;      // on the reference core; -1 when neither core has an edge
  int inc_edge;      // on the incident core
  bool flip;         // reference core is B
  bool preferred;    // the preference chose it: the other core's axis separates more
  Vec2 normal;       // reference edge normal, from reference to incident; {0,1} if none
};

/// prefer_b() when both cores have an axis: A's best axis na separating by sa, B's nb by sb.
inline bool prefer_b_axes(Vec2 na, Vec2 nb, float sa, float sb, float scale) {
  if (!(sb > sa + kAxisPreference * scale)) return false;
  if (sb > sa + kParallelFacePreference * scale) return true;
  // A near tie between two faces: keep A's when they are nearly parallel (cross of the two normals
  // small, dot negative), so that a resting contact keeps its reference and its ids.
  return !(dot(na, nb) < 0 && std::fabs(cross(na, nb)) <= kParallelFaceSine);
}

/// Whether B's best axis is the reference rather than A's (kAxisPreference, kParallelFacePreference).
inline bool prefer_b(const FramedCore& a, const FramedCore& b, const AxisSeparation& sa, const AxisSeparation& sb,
                     float scale) {
  if (sb.edge < 0) return false;
  if (sa.edge < 0) return true;
  return prefer_b_axes(a.normal(sa.edge), b.normal(sb.edge), sa.separation, sb.separation, scale);
}

inline CoreQuery query_cores(const FramedCore& a, const FramedCore& b, float scale, float stop_above) {
  CoreQuery q{};
  const AxisSeparation sa = max_separation(a, b);
  if (sa.separation > stop_above) {
    q.separation = sa.separation;
    q.ref_edge = -2;  // stopped early: separated by more than stop_above
    return q;
  }
  const AxisSeparation sb = max_separation(b, a);
  if (sb.separation > stop_above) {
    q.separation = sb.separation;
    q.ref_edge = -2;
    return q;
  }
  if (sa.edge < 0 && sb.edge < 0) {
    q.separation = -kHugeDistance;
    q.ref_edge = -1;
    q.inc_edge = 0;
    q.flip = false;
    q.normal = {0, 1};
    return q;
  }
  const bool use_b = prefer_b(a, b, sa, sb, scale);
  // The preference picks the reference edge only; the separation is always the greatest, so
  // the preference never turns a separated pair into an overlapping one.
  q.separation = std::max(sa.separation, sb.separation);
  q.preferred = use_b ? sb.separation < sa.separation : sa.separation < sb.separation;
  if (use_b) {
    q.ref_edge = sb.edge;
    q.flip = true;
    q.normal = b.normal(sb.edge);
    q.inc_edge = incident_edge(a, q.normal);
  } else {
    q.ref_edge = sa.edge;
    q.flip = false;
    q.normal = a.normal(sa.edge);
    q.inc_edge = incident_edge(b, q.normal);
  }
  return q;
}

/// B's 2-vertex core moved by xf with frame_core()'s float operations, its two real lanes only.
inline FramedCore frame_segment(const Shape& s, const Transform& xf, CoreStorage& storage) {
  const Vec2* vs = s.padded_vertices();
  const float c = xf.q.c, sn = xf.q.s, px = float(xf.p.x), py = float(xf.p.y);
  for (int i = 0; i < 2; ++i) {
    storage.v[i] = {(c * vs[i].x + (-sn) * vs[i].y) + px, (c * vs[i].y + sn * vs[i].x) + py};
    const float x = c * s.normal_lanes_x()[i] - sn * s.normal_lanes_y()[i],
                y = sn * s.normal_lanes_x()[i] + c * s.normal_lanes_y()[i];
    storage.nx[i] = x;
    storage.ny[i] = y;
    storage.off[i] = s.offset_lanes()[i] + (x * px + y * py);
  }
  // Padded lanes (zero normals, huge offsets): a corner's second look (other_axis_resolves) scans four.
  storage.nx[2] = storage.nx[3] = storage.ny[2] = storage.ny[3] = 0.0f;
  storage.off[2] = storage.off[3] = kHugeDistance;
  storage.v[2] = storage.v[0];
  return {storage.v, storage.nx, storage.ny, storage.off, 2, 2, s.radius()};
}

/// query_cores() for two 2-vertex cores: the same float operations and rules on the two real lanes
/// of each, without the generic scans, so the same bits (tests/simd_test.cpp compares them).
PEBBLE_HOT_INLINE CoreQuery query_segments(const FramedCore& a, const FramedCore& b, float scale, float stop_above) {
  // Separation of `other`'s two vertices from ref's edge plane i: max_separation_lanes' least
  // projection (simd/wide.hpp's min: the second of equal values) minus the offset.
  const auto lane = [](const FramedCore& ref, const FramedCore& other, int i) {
    const float p0 = ref.nx[i] * other.v[0].x + ref.ny[i] * other.v[0].y;
    const float p1 = ref.nx[i] * other.v[1].x + ref.ny[i] * other.v[1].y;
    return (p0 < p1 ? p0 : p1) - ref.off[i];
  };
  // first_max_lane over two lanes: the greater (the second of equal values, as its max tree
  // keeps), the lower lane holding it.
  const auto best = [](float s0, float s1) {
    const float m = s0 > s1 ? s0 : s1;
    if (!(m > -kHugeDistance)) return AxisSeparation{-kHugeDistance, -1};
    return AxisSeparation{m, s0 == m ? 0 : 1};
  };
  CoreQuery q{};
  const AxisSeparation sa = best(lane(a, b, 0), lane(a, b, 1));
  if (sa.separation > stop_above) {
    q.separation = sa.separation;
    q.ref_edge = -2;
    return q;
  }
  const AxisSeparation sb = best(lane(b, a, 0), lane(b, a, 1));
  if (sb.separation > stop_above) {
    q.separation = sb.separation;
    q.ref_edge = -2;
    return q;
  }
  if (sa.edge < 0 || sb.edge < 0) return query_cores(a, b, scale, stop_above);  // not numbers: the generic rules
  const bool use_b = prefer_b(a, b, sa, sb, scale);
  q.separation = std::max(sa.separation, sb.separation);
  q.preferred = use_b ? sb.separation < sa.separation : sa.separation < sb.separation;
  const FramedCore& ref = use_b ? b : a;
  const FramedCore& inc = use_b ? a : b;
  q.ref_edge = use_b ? sb.edge : sa.edge;
  q.flip = use_b;
  q.normal = ref.normal(q.ref_edge);
  // incident_edge(): the lane most anti-parallel to the normal, the lower on ties.
  const float d0 = inc.nx[0] * q.normal.x + inc.ny[0] * q.normal.y,
              d1 = inc.nx[1] * q.normal.x + inc.ny[1] * q.normal.y;
  q.inc_edge = d1 < d0 ? 1 : 0;
  return q;
}

/// Endpoints of edge e of a core (a point gives the same vertex twice): v[count] repeats v[0].
inline void edge_points(const FramedCore& c, int e, Vec2& p, Vec2& q) {
  p = c.v[e];
  q = c.v[e + 1];
}

/// Vertex index of edge e's end (0 or 1 of the edge), for feature ids.
inline int edge_end_index(const FramedCore& c, int e, int end) {
  return c.count == 1 || e + end == c.count ? 0 : e + end;
}

/// A separation of the cores above this proves distance > margin, so a query may stop there. The
/// slack (kStopSlackFraction) keeps rounding from stopping a pair distance() puts within the
/// margin (distance() runs to the end and must agree with every early stop)...
inline float stop_bound(float margin, const Shape& a, const Shape& b) {
  return margin + a.radius() + b.radius() + kStopSlackFraction * std::max(a.extent(), b.extent());
}

/// ...as long as the coordinates are not much larger than the shapes. This bound adds the same
/// fraction of those coordinates (B's core in A's frame lies within |xb.p - xa.p| + |B's centroid|
/// + B's extent of A's origin; A's within |A's centroid| + A's extent), for large margins or cores
/// far from their origins (docs/robustness.md, collide()'s early stop). Asked only after a stop at
/// stop_bound() (stopped_short()), so that common calls skip its sums.
inline float far_stop_bound(float margin, const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  const Vec2 d = xb.p - xa.p, ca = a.core_centroid(), cb = b.core_centroid();
  const float reach = (std::fabs(d.x) + std::fabs(d.y)) + (std::fabs(ca.x) + std::fabs(ca.y)) +
                      (std::fabs(cb.x) + std::fabs(cb.y)) + (a.extent() + b.extent());
  return stop_bound(margin, a, b) + kStopSlackFraction * reach;
}

/// A stop at stop_bound() whose separation does not clear far_stop_bound(): run again with that bound.
inline bool stopped_short(float separation, float margin, const Shape& a, const Transform& xa, const Shape& b,
                          const Transform& xb) {
  return !(separation > far_stop_bound(margin, a, xa, b, xb));
}

/// The scale of a pair: the smaller shape's size, never 0.
inline float pair_scale(const Shape& a, const Shape& b) {
  return std::max(std::min(a.extent(), b.extent()), kMinPairScale);
}

/// Signed distance of two cores in A's frame, with what collide() needs to build a manifold.
struct CoreDistance {
  float distance;          // signed, radii not included
  Vec2 normal;             // unit, from A to B
  Vec2 point_a;            // on A's core
  Vec2 point_b;            // on B's core
  CoreQuery query;         // the axis search (ref_edge -1 for two points)
  bool overlapping;        // the cores overlap by more than float noise (distance is -depth); then
                           // point_a and point_b are set only by add_overlap_witness()
  float over_lo, over_hi;  // overlapping: the part of the incident edge over the reference edge
  SegmentClosest closest;  // reference vs incident edge, when !overlapping and ref_edge >= 0
};

/// Whether a greatest separation below 0 proves overlap: the difference has area, so its edge
/// normals (these) are all the axes. Not so for a point and a segment, or (nearly) parallel
/// segments: ends in line are apart along no normal.
inline bool axes_decide_overlap(const FramedCore& a, const FramedCore& b) {
  return a.edges > 2 || b.edges > 2 ||
         (a.edges == 2 && b.edges == 2 && std::fabs(cross(a.normal(0), b.normal(0))) > kParallelFaceSine);
}

/// Whether edge i1-i2 lies wholly beside edge r1-r2 (of normal n), no part of it over the edge.
inline bool beside(Vec2 r1, Vec2 r2, Vec2 i1, Vec2 i2, Vec2 n) {
  const Vec2 t = left_perp(n);
  const float len = dot(r2 - r1, t), u1 = dot(i1 - r1, t), u2 = dot(i2 - r1, t);
  return (u1 < 0 && u2 < 0) || (u1 > len && u2 > len);
}

// The rare corner cases of closest_features_on() [issue-ids], out of line.

/// Whether the axes prove overlap and the incident edge lies wholly beside the reference edge.
[[gnu::noinline]] inline bool overlap_beside(const FramedCore& a, const FramedCore& b, Vec2 n, Vec2 r1, Vec2 r2,
                                             Vec2 i1, Vec2 i2) {
  return axes_decide_overlap(a, b) && beside(r1, r2, i1, i2, n);
}

/// Witnesses (nearly) coinciding, the incident one inside its edge: inside by more than
/// kClipFraction, and that edge's normal in the reference vertex's cone (else a corner).
[[gnu::noinline]] inline bool clearly_inside(const FramedCore& inc, const CoreQuery& q, const SegmentClosest& c,
                                             Vec2 r1, Vec2 r2, Vec2 i1, Vec2 i2, float scale) {
  const Vec2 along_ref = c.s == 0 ? r2 - r1 : r1 - r2;
  return std::min(c.t, 1 - c.t) * length(i2 - i1) > kClipFraction * scale &&
         dot(inc.normal(q.inc_edge), along_ref) >= 0;
}

/// A vertex witness whose other edge leads nearer the other witness: not the closest pair.
[[gnu::noinline]] inline bool vertex_leads_closer(const FramedCore& a, const FramedCore& b, const CoreQuery& q,
                                                  const SegmentClosest& c) {
  if (!axes_decide_overlap(a, b)) return false;
  const auto leads_closer = [](const FramedCore& k, int e, float at, Vec2 other) {
    if (!(at == 0 || at == 1) || k.edges < 3) return false;
    const int vertex = at == 0 ? e : (e + 1 == k.count ? 0 : e + 1);
    const int beyond = at == 0 ? (e == 0 ? k.count - 1 : e - 1) : (vertex + 1 == k.count ? 0 : vertex + 1);
    return dot(other - k.v[vertex], k.v[beyond] - k.v[vertex]) > 0;
  };
  return leads_closer(q.flip ? b : a, q.ref_edge, c.s, c.c2) || leads_closer(q.flip ? a : b, q.inc_edge, c.t, c.c1);
}

/// What closest_features_on() found doubtful about its features [issue-ids]: corner against
/// corner, the preferred axis's edges need not be the touching ones.
enum class Doubt : int {
  none,
  overlap,  ///< the axes say the cores overlap, yet the two edges do not meet
  cone,     ///< apart, and a vertex witness has a neighbouring edge nearer the other witness
};

/// The rest of core_distance() once the axes are searched (query_cores, or query_segments for
/// two segments): the overlap depth or the closest features of the reference and incident edges.
PEBBLE_HOT_INLINE Doubt closest_features_on(const FramedCore& a, const FramedCore& b, const CoreQuery& q, float scale,
                                            CoreDistance& out) {
  out.overlapping = false;
  out.closest = {0, 0, {}, {}, 0};
  out.over_lo = out.over_hi = 0;
  out.query = q;
  if (q.ref_edge == -2) {
    out.distance = q.separation;
    return Doubt::none;
  }
  if (q.ref_edge < 0) {
    // No axis although a core has edges: non-finite input only. Answer as two points, not edge -1.
    out.distance = kHugeDistance;
    out.normal = {0, 1};
    out.point_a = a.v[0];
    out.point_b = b.v[0];
    return Doubt::none;
  }
  const FramedCore& ref = q.flip ? b : a;
  const FramedCore& inc = q.flip ? a : b;

  Vec2 r1, r2, i1, i2;
  edge_points(ref, q.ref_edge, r1, r2);
  edge_points(inc, q.inc_edge, i1, i2);
  if (q.separation < -kOverlapFraction * scale) {
    // Overlapping: minus the depth along the reference normal. The witness is the incident edge's
    // deepest point within the reference edge's extent: with parallel edges the deepest vertex may
    // lie past the reference edge's end while another incident point is as deep over it.
    const Vec2 t = left_perp(q.normal);
    const float len = dot(r2 - r1, t);
    const float u1 = dot(i1 - r1, t), u2 = dot(i2 - r1, t);
    float lo = 0, hi = 1;
    if (u1 != u2) {
      const float inv = 1.0f / (u2 - u1);
      const float at0 = -u1 * inv, at_len = (len - u1) * inv;
      lo = std::max(0.0f, std::min(at0, at_len));
      hi = std::min(1.0f, std::max(at0, at_len));
    } else if (u1 < 0 || u1 > len) {
      hi = -1;  // perpendicular to the reference edge and beside it: nothing over the edge
    }
    if (lo <= hi) {
      // The witness points are left to add_overlap_witness(): collide() rarely needs them.
      out.overlapping = true;
      out.distance = q.separation;
      out.normal = q.flip ? -q.normal : q.normal;
      out.over_lo = lo;
      out.over_hi = hi;
      out.point_a = out.point_b = {};
      return Doubt::none;
    }
    // Nothing of the incident edge over the reference edge: the overlap was the float noise of
    // nearly parallel edges; the closest points below measure the pair exactly.
  }
  if (q.separation >= 0) {
    // The common face contact: the deeper incident end w (where the separation was measured) lies
    // over the reference edge's inside, so w and its projection are the closest points and the
    // distance is the separation itself: no segment search, no square root.
    const Vec2 t = left_perp(q.normal);
    const bool w_is_i1 = dot(q.normal, i1) <= dot(q.normal, i2);
    const Vec2 w = w_is_i1 ? i1 : i2;
    const float len = dot(r2 - r1, t), u = dot(w - r1, t);
    if (u > 0 && u < len) {
      const Vec2 on_ref = w - q.separation * q.normal;
      out.closest = {u / len, w_is_i1 ? 0.0f : 1.0f, on_ref, w, q.separation * q.separation};
      out.distance = q.separation;
      out.normal = q.flip ? -q.normal : q.normal;
      out.point_a = q.flip ? w : on_ref;
      out.point_b = q.flip ? on_ref : w;
      return Doubt::none;
    }
  }
  const SegmentClosest c = closest_segments(r1, r2, i1, i2);
  out.closest = c;
  // The axes say overlap, yet the edges do not meet: at a corner the preferred axis's incident
  // edge can lie beside the reference edge [issue-ids].
  if (q.separation < 0 && c.dist2 > 0 && overlap_beside(a, b, q.normal, r1, r2, i1, i2)) [[unlikely]] {
    // The axes' answer, unless the other core's axis does better (closest_features()).
    const Vec2 w = dot(q.normal, i1) <= dot(q.normal, i2) ? i1 : i2;
    const Vec2 on_ref = w - q.separation * q.normal;
    out.distance = q.separation;
    out.normal = q.flip ? -q.normal : q.normal;
    out.point_a = q.flip ? w : on_ref;
    out.point_b = q.flip ? on_ref : w;
    return Doubt::overlap;
  }
  const float dist = std::sqrt(c.dist2);
  // The normal: a witness inside an edge gives that edge's normal (exact; the witnesses' difference
  // carries their rounding over the distance); two vertices their direction; coinciding, the reference's.
  Vec2 n = q.normal;
  const bool inside_ref = c.s > 0 && c.s < 1;
  bool inside_inc = c.t > 0 && c.t < 1 && inc.edges > 0;
  if (!inside_ref && inside_inc && dist <= kWitnessNormalFraction * scale) [[unlikely]]
    inside_inc = clearly_inside(inc, q, c, r1, r2, i1, i2, scale);
  if (!inside_ref && inside_inc) n = -inc.normal(q.inc_edge);
  if (!inside_ref && !inside_inc && dist > kWitnessNormalFraction * scale) n = direction(c.c2 - c.c1, dist);
  out.distance = dist;
  out.normal = q.flip ? -n : n;
  out.point_a = q.flip ? c.c2 : c.c1;
  out.point_b = q.flip ? c.c1 : c.c2;
  // Off the greatest axis (the preference's) the pair may not be the closest (a corner, [issue-ids]).
  if (q.preferred && dist > 0 && vertex_leads_closer(a, b, q, c)) [[unlikely]]
    return Doubt::cone;
  return Doubt::none;
}

/// A doubtful answer measured again with the other core's best axis as the reference, if within the
/// preference: true, with that answer in d2, when it resolves the doubt. Out of line: corners only.
[[gnu::noinline]] inline bool other_axis_resolves(const FramedCore& a, const FramedCore& b, const CoreQuery& q,
                                                  float distance, Doubt doubt, float scale, CoreDistance& d2) {
  const FramedCore& other = q.flip ? a : b;
  const FramedCore& first = q.flip ? b : a;
  if (other.edges == 0) return false;
  const AxisSeparation s = max_separation(other, first);
  // Only an axis the preference could have chosen (prefer_b): q.separation stands for both.
  if (s.edge < 0 || !(s.separation >= q.separation - kParallelFacePreference * scale)) return false;
  CoreQuery q2 = q;
  q2.flip = !q.flip;
  q2.ref_edge = s.edge;
  q2.normal = other.normal(s.edge);
  q2.inc_edge = incident_edge(first, q2.normal);
  q2.preferred = s.separation < q.separation;
  const Doubt doubt2 = closest_features_on(a, b, q2, scale, d2);
  return doubt == Doubt::overlap ? doubt2 != Doubt::overlap : d2.distance < distance;
}

/// closest_features_on(), and at a doubtful corner the other core's axis too.
PEBBLE_HOT_INLINE CoreDistance closest_features(const FramedCore& a, const FramedCore& b, const CoreQuery& q,
                                                float scale) {
  CoreDistance out;
  const Doubt doubt = closest_features_on(a, b, q, scale, out);
  if (doubt != Doubt::none) [[unlikely]] {
    CoreDistance other;
    if (other_axis_resolves(a, b, q, out.distance, doubt, scale, other)) out = other;
  }
  return out;
}

/// stop_above: an axis separating by more returns at once, ref_edge -2, distance that lower bound.
PEBBLE_HOT_INLINE CoreDistance core_distance(const FramedCore& a, const FramedCore& b, float scale,
                                             float stop_above = kHugeDistance) {
  // Every path sets every field it returns; no blanket zeroing (GCC makes it a rep stos).
  CoreDistance out;
  out.overlapping = false;
  out.closest = {0, 0, {}, {}, 0};
  out.over_lo = out.over_hi = 0;
  if (a.edges == 0 && b.edges == 0) {
    // Two points: the only axis is the line through them.
    const Vec2 d = b.v[0] - a.v[0];
    const float len = length(d);
    out.distance = len;
    out.normal = len > 0 ? direction(d, len) : Vec2{0, 1};
    out.point_a = a.v[0];
    out.point_b = b.v[0];
    out.query = {0, -1, 0, false, false, out.normal};
    return out;
  }
  return closest_features(a, b, query_cores(a, b, scale, stop_above), scale);
}

/// For overlapping cores (d.overlapping), the witness points: the deepest point of the incident
/// edge over the reference edge, and its projection onto the reference edge's line.
inline void add_overlap_witness(CoreDistance& d, const FramedCore& a, const FramedCore& b) {
  const CoreQuery& q = d.query;
  const FramedCore& inc = q.flip ? a : b;
  Vec2 i1, i2;
  edge_points(inc, q.inc_edge, i1, i2);
  const Vec2 p_lo = lerp(i1, i2, d.over_lo), p_hi = lerp(i1, i2, d.over_hi);
  const Vec2 w = dot(q.normal, p_lo) <= dot(q.normal, p_hi) ? p_lo : p_hi;
  const Vec2 on_ref = w - q.separation * q.normal;
  d.point_a = q.flip ? w : on_ref;
  d.point_b = q.flip ? on_ref : w;
}

/// Fast paths for a circle or point against anything: the generic answer by a shorter route.

/// Distance from a core to a point in world axes: the edge normals are turned by q and p is given
/// as d = p - (core's position), so nothing moves between frames. The core's axes pick the best
/// edge; where p lies along it (before, over, past) decides between the edge and an end.
struct PointToCore {
  float distance;  // signed, radii not included
  Vec2 normal;     // world, unit, core to p; the core's closest (or deepest) point is p - distance * normal
  bool stopped;    // a plane separates p by more than stop_above (distance: that lower bound), or input not finite
};

/// The best edge's values in world axes, for point_to_core.
struct PointAxis {
  float separation;  // of p from the edge's plane; -huge when the core has no edges
  int edge;          // -1: no edges; -2: a plane separates p by more than stop_above (only separation set)
  Vec2 normal;       // the edge's outward normal, turned by q
  float along;       // dot(turned edge direction, d); minus dot(direction, v): p's position from v
};

/// Every edge lane at once: the turned normal, d's separation from the turned plane (the offset
/// does not change under rotation) and d's position along the edge; then the greatest separation,
/// lowest lane on ties. stop_above is asked of the lanes first, keeping the max tree off a
/// separated pair's chain.
template <int Lanes>
PEBBLE_HOT_INLINE PointAxis point_axis_lanes(const Shape& core, const Rot& q, Vec2 d, float stop_above) {
  using F = FloatLanes<Lanes>;
  const F c = F::splat(q.c), s = F::splat(q.s), x = F::splat(d.x), y = F::splat(d.y);
  const F lx = F::load(core.normal_lanes_x()), ly = F::load(core.normal_lanes_y());
  const F nx = c * lx - s * ly, ny = s * lx + c * ly;  // the turned normals
  const F sep = (nx * x + ny * y) - F::load(core.offset_lanes());
  // Lane e's values are read back through the stack, cheaper than a permute (docs/contacts.md).
  alignas(16) float nx_lanes[Lanes], ny_lanes[Lanes], along[Lanes];
  store(nx_lanes, nx);
  store(ny_lanes, ny);
  store(along, nx * y - ny * x);
  if (any(sep > F::splat(stop_above))) return {first_max_lane(sep).separation, -2, {0, 1}, 0};
  const AxisSeparation best = first_max_lane(sep);
  const int e = best.edge;
  if (e < 0) return {-kHugeDistance, -1, {0, 1}, 0};  // no edges
  return {best.separation, e, {nx_lanes[e], ny_lanes[e]}, along[e]};
}

PEBBLE_HOT_INLINE PointToCore point_to_core(const Shape& core, const Rot& q, Vec2 d, float scale,
                                            float stop_above = kHugeDistance) {
  const Vec2* v = core.padded_vertices();
  const int edges = core.edge_count();
  if (edges == 0) {
    const Vec2 r = d - rotate(q, v[0]);
    const float len = length(r);
    return {len, len > 0 ? direction(r, len) : Vec2{-q.s, q.c}, false};
  }
  const PointAxis axis = edges <= 4 ? point_axis_lanes<4>(core, q, d, stop_above)
                                    : point_axis_lanes<kMaxPolygonVertices>(core, q, d, stop_above);
  const float sep = axis.separation;
  const int e = axis.edge;
  const Vec2 ne = axis.normal;
  if (e == -2) return {axis.separation, {0, 1}, true};
  if (e < 0) return {kHugeDistance, {0, 1}, true};  // non-finite input only (see core_distance)
  // Where p lies along the edge: u_start = t.(p - v[e]), u_end = t.(p - v[e + 1]), t the normal
  // turned by +90 degrees (as collide_generic clips). t.v is frame-independent, so the shape's own
  // vertices serve. u_start - u_end is the edge's length > 0.
  const Vec2 t = left_perp(core.normal(e));
  const float u_start = axis.along - dot(t, v[e]), u_end = axis.along - dot(t, v[e + 1]);
  // Inside: below every plane and over the greatest separation's edge (widened by the depth), as
  // every inside point is. Rounded planes (6e-8 rad off is 0.6 at 1e7) let a point past a sliver's
  // tip, or anywhere on a segment's line (a segment has no inside), lie below them all.
  if (sep < -kOverlapFraction * scale && edges > 2 && u_start > sep && u_end < -sep) return {sep, ne, false};
  // Over the edge (the face region): the distance is the separation itself.
  if (u_start > 0 && u_end < 0) return {std::max(sep, 0.0f), ne, false};
  // Beside the edge: the nearer end is closest (the greatest separation's edge is next to the
  // closest vertex); p - that end is sep along the normal plus u along the edge.
  const bool at_start = !(u_start > 0);
  const float u = at_start ? u_start : u_end;
  const float dist = std::sqrt(sep * sep + u * u);
  // At a vertex the direction to p; when p (nearly) sits on the vertex, the edge's normal.
  Vec2 normal = ne;
  if (dist > kWitnessNormalFraction * scale) {
    if (dist >= kTinyLength) [[likely]] {
      normal = (sep * ne + u * left_perp(ne)) / dist;
    } else {
      const Vec2 w = normalize(Vec2{sep, u});  // sep and u rescaled together: unit
      normal = w.x * ne + w.y * left_perp(ne);
    }
  }
  return {dist, normal, false};
}

/// Two circles (or points): everything in world space, on the line of centres. Coincident
/// centres take A's local +y as the normal, as the generic path does.
struct CirclePair {
  float distance;       // signed, radii included
  Vec2 normal;          // world, from A to B
  Position on_a, on_b;  // surface points, world
};

inline CirclePair circle_pair(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  // The centres' offset from the positions' difference (exact for nearby bodies), not from two
  // world centres, which round by 5e-4 each at 1e4 (tests/large_world_test.cpp).
  const Vec2 va = rotate(xa.q, a.padded_vertices()[0]), vb = rotate(xb.q, b.padded_vertices()[0]);
  const Position ca = va + xa.p, cb = vb + xb.p;
  const Vec2 d = (xb.p - xa.p) + (vb - va);
  // One square root in the common case; centres a denormal apart would give d / len not unit:
  // length() and normalize() rescale first.
  const float len2 = dot(d, d);
  float len;
  Vec2 n;
  if (len2 >= kTinySquare) [[likely]] {
    len = std::sqrt(len2);
    n = d / len;
  } else {
    len = length(d);
    n = normalize(d);
    if (n == Vec2{}) n = Vec2{-xa.q.s, xa.q.c};
  }
  const float ra = a.radius(), rb = b.radius();
  return {len - ra - rb, n, ca + ra * n, cb - rb * n};
}

/// A circle or point against anything: `core` is the shape that is not (or, for two points,
/// shape a), `d` the point core's vertex relative to core's position, in world axes.
struct PointPair {
  bool point_is_a;  // shape a is the point (results must be flipped back)
  const Shape* core;
  float core_radius, point_radius;
  Position world;  // the point core's vertex in world
  Vec2 d;          // world - core's position
  const Rot* q;    // a pointer: GCC copies a Rot member through an integer register and the stack
};

inline PointPair point_pair(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  const bool point_is_a = b.vertex_count() != 1;
  const Shape& core = point_is_a ? b : a;
  const Shape& point = point_is_a ? a : b;
  const Transform& xc = point_is_a ? xb : xa;
  const Transform& xp = point_is_a ? xa : xb;
  // d from the positions' difference, as in circle_pair(), so that it does not carry the
  // rounding of the world coordinates.
  const Vec2 v = rotate(xp.q, point.padded_vertices()[0]);
  return {point_is_a, &core, core.radius(), point.radius(), v + xp.p, (xp.p - xc.p) + v, &xc.q};
}

/// This copy's entry points (contact/manifold.cpp, contact/distance.cpp), gathered in its
/// ContactKernels table at the end of contact/distance.cpp. Each ends with leave_lanes()
/// (simd/wide.hpp), which clears the upper halves of the ymm registers in the AVX2 copy.
Manifold collide_generic(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                         float margin) noexcept;
Manifold collide_capsules(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                          float margin) noexcept;
Manifold collide_circles(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                         float margin) noexcept;
Manifold collide_point_core(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                            float margin) noexcept;
DistanceResult distance_generic(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept;
DistanceResult distance_point(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept;

}  // namespace pebble::detail::PEBBLE_KERNEL_NS
