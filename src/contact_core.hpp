// Internal: the part of distance() and collide() that both share — the two cores in one frame,
// the separating-axis search over the edge normals of both cores, and the closest points of the
// reference edge and the incident edge. Not installed; not part of the API.
//
// Why the reference and incident edges are enough (docs/contacts.md has pictures): B ⊖ A is a
// convex polygon whose edges are the edges of A and of B. Its edge of greatest separation from
// the origin is reference edge i of one core combined with the supporting vertex w of the other
// (seed 002, "Minkowski difference with supporting vertices"). For an origin outside, the closest
// point of B ⊖ A lies on that edge (the separation over directions is unimodal around the closest
// direction), so the closest features are the reference edge and w, or a reference vertex and an
// edge of the other core parallel to the reference edge. The incident edge (the edge of the other
// core most anti-parallel to the reference normal) holds w and is that parallel edge when one
// exists, so one segment-segment closest-point computation gives the exact core distance.
// For an origin inside, the greatest separation is minus the penetration depth.
#pragma once

#include "kernels.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {

/// is_valid(xa) && is_valid(xb) (math.hpp), both transforms checked at once: the same float
/// operations lane by lane, so the answer is the same bit for bit, in about a third of the
/// instructions. Every contact query checks its input with it (collide() only on its way to
/// reporting a contact).
inline bool valid_pair(const Transform& xa, const Transform& xb) {
#if PEBBLE_SSE
  static_assert(sizeof(Transform) == 4 * sizeof(float), "Transform must be p.x, p.y, q.c, q.s");
  float fa[4], fb[4];
  std::memcpy(fa, &xa, sizeof fa);
  std::memcpy(fb, &xb, sizeof fb);
#if PEBBLE_KERNEL_AVX2
  // Both transforms in one register: pa.x pa.y qa.c qa.s | pb.x pb.y qb.c qb.s. The position
  // lanes are compared as |p|, the rotation lanes as |c*c + s*s - 1| (computed as below).
  const __m256 t = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(fa)), _mm_loadu_ps(fb), 1);
  const __m256 abs8 = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  const __m256 sq = _mm256_mul_ps(t, t);
  const __m256 norm = _mm256_add_ps(sq, _mm256_permute_ps(sq, _MM_SHUFFLE(2, 3, 0, 1)));
  const __m256 deviation8 = _mm256_and_ps(_mm256_sub_ps(norm, _mm256_set1_ps(1.0f)), abs8);
  const __m256 value = _mm256_blend_ps(_mm256_and_ps(t, abs8), deviation8, 0xcc);
  const __m256 limit = _mm256_setr_ps(kMaxWorldCoordinate, kMaxWorldCoordinate, kRotationTolerance, kRotationTolerance,
                                      kMaxWorldCoordinate, kMaxWorldCoordinate, kRotationTolerance, kRotationTolerance);
  return _mm256_movemask_ps(_mm256_cmp_ps(value, limit, _CMP_LE_OQ)) == 0xff;
#else
  const __m128 a = _mm_loadu_ps(fa), b = _mm_loadu_ps(fb);
  const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
  const __m128 pos = _mm_movelh_ps(a, b);  // pa.x pa.y pb.x pb.y
  const __m128 rot = _mm_movehl_ps(b, a);  // qa.c qa.s qb.c qb.s
  const __m128 sq = _mm_mul_ps(rot, rot);
  const __m128 norm = _mm_add_ps(sq, _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(2, 3, 0, 1)));  // c*c + s*s
  const __m128 deviation = _mm_and_ps(_mm_sub_ps(norm, _mm_set1_ps(1.0f)), abs_mask);
  const __m128 ok = _mm_and_ps(_mm_cmple_ps(_mm_and_ps(pos, abs_mask), _mm_set1_ps(kMaxWorldCoordinate)),
                               _mm_cmple_ps(deviation, _mm_set1_ps(kRotationTolerance)));
  return _mm_movemask_ps(ok) == 0xf;
#endif
#else
  return is_valid(xa) & is_valid(xb);
#endif
}

/// A core in some frame (shape A's): its vertices, and its edge normals and offsets as 8 lanes
/// (lanes past `edges` hold a zero normal and a huge offset) so that the separating-axis scan
/// and the incident-edge search are element-wise over edges and run four lanes at a time.
struct FramedCore {
  const Vec2* v;    // count vertices, then copies of v[0] up to an even count and past it
  const float* nx;  // kMaxPolygonVertices lanes of outward unit edge normals
  const float* ny;
  const float* off; // dot(normal i, v[i]); huge past edges
  int count;  // vertices
  int edges;  // 0 for a point, 2 for a segment, else count
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
          s.vertex_count(), s.edge_count(), s.radius()};
}

/// The core moved by xf. An edge offset moves by the rotated normal's projection of xf.p.
inline FramedCore frame_core(const Shape& s, const Transform& xf, CoreStorage& storage) {
  const int count = s.vertex_count(), edges = s.edge_count();
  const Vec2* vs = s.padded_vertices();
  const float* nx = s.normal_lanes_x();
  const float* ny = s.normal_lanes_y();
  const float* off = s.offset_lanes();
  const float c = xf.q.c, sn = xf.q.s, px = xf.p.x, py = xf.p.y;
#if PEBBLE_SSE
  // Two vertices per step, as transform_point() computes them: (c x - s y) + px, (c y + s x) + py
  // (the same roundings; the shape's slots past count repeat vertex 0, so an odd count reads one
  // valid padded vertex).
  const __m128 cc = _mm_set1_ps(c), ss = _mm_setr_ps(-sn, sn, -sn, sn), pp = _mm_setr_ps(px, py, px, py);
  for (int i = 0; i < count; i += 2) {
    const __m128 xy = _mm_loadu_ps(&vs[i].x);
    const __m128 yx = _mm_shuffle_ps(xy, xy, _MM_SHUFFLE(2, 3, 0, 1));
    _mm_storeu_ps(&storage.v[i].x, _mm_add_ps(_mm_add_ps(_mm_mul_ps(cc, xy), _mm_mul_ps(ss, yx)), pp));
  }
#else
  for (int i = 0; i < count; ++i) storage.v[i] = transform_point(xf, vs[i]);
#endif
  storage.v[count] = storage.v[0];  // so that edge e always ends at v[e + 1]
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

/// The lowest set bit of a lane mask known not to be 0 (std::countr_zero also handles 0, at a
/// test and a conditional move on the chain).
inline int first_set_lane(unsigned mask) {
#if defined(__GNUC__)
  return __builtin_ctz(mask);
#else
  return std::countr_zero(mask);
#endif
}

#if PEBBLE_SSE
/// The four lanes of m folded by max (kMax) or min in one fixed order; each lane of the result
/// is that of all four when they are numbers. Every 4- and 8-lane reduction below ends with it,
/// so the SSE2 and AVX2 copies reduce alike.
template <bool kMax>
inline __m128 fold4(__m128 m) {
  const auto op = [](__m128 a, __m128 b) { return kMax ? _mm_max_ps(a, b) : _mm_min_ps(a, b); };
  m = op(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
  return op(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
}
#endif

/// The greatest of some edge lanes and the lowest lane holding it (ties go to the lower edge);
/// {-huge, -1} when no lane exceeds -huge (no edges, or separations that are not numbers).
#if PEBBLE_SSE
template <int kVectors>
inline AxisSeparation first_max_lane(const __m128 (&lanes)[kVectors]) {
  // A max tree, then the lanes equal to the maximum (the scalar loop's tie rule). A max returns
  // one of its operands, so `best` is some lane's value and the mask is not 0. (The tree's four
  // results need not all equal `best` when some lanes are not numbers, which an invalid
  // transform can cause before collide() checks it: hence the broadcast of `best` itself.)
  __m128 m = lanes[0];
  for (int k = 1; k < kVectors; ++k) m = _mm_max_ps(m, lanes[k]);
  m = fold4<true>(m);
  const float best = _mm_cvtss_f32(m);
  if (!(best > -kHugeDistance)) return {-kHugeDistance, -1};
  const __m128 all_best = _mm_shuffle_ps(m, m, _MM_SHUFFLE(0, 0, 0, 0));
  unsigned mask = 0;
  for (int k = 0; k < kVectors; ++k) mask |= unsigned(_mm_movemask_ps(_mm_cmpeq_ps(lanes[k], all_best))) << (4 * k);
  return {best, first_set_lane(mask)};
}
#if PEBBLE_KERNEL_AVX2
/// The same for 8 lanes in one register: the same max tree (low half against high half first,
/// as lanes[0] against lanes[1] above), so the same answer.
inline AxisSeparation first_max_lane(__m256 lanes) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(lanes), _mm256_extractf128_ps(lanes, 1));
  m = fold4<true>(m);
  const float best = _mm_cvtss_f32(m);
  if (!(best > -kHugeDistance)) return {-kHugeDistance, -1};
  const unsigned mask = unsigned(_mm256_movemask_ps(_mm256_cmp_ps(lanes, _mm256_broadcastss_ps(m), _CMP_EQ_OQ)));
  return {best, first_set_lane(mask)};
}
#endif
#else
template <int Lanes>
inline AxisSeparation first_max_lane(const float (&lanes)[Lanes]) {
  float best_sep = -kHugeDistance;
  int best = -1;
  for (int i = 0; i < Lanes; ++i) {
    best = lanes[i] > best_sep ? i : best;
    best_sep = std::max(lanes[i], best_sep);
  }
  return {best_sep, best};
}
#endif

/// For every edge lane: the least projection of other's vertices on the normal, minus the edge's
/// offset; then the greatest of those. Element-wise over the lanes (vectorized), no
/// data-dependent branches (on random configurations a rotating-calipers walk, O(n + m), measured
/// slower at these sizes: its loop exits mispredict).
template <int Lanes>
inline AxisSeparation max_separation_lanes(const FramedCore& ref, const FramedCore& other) {
#if PEBBLE_KERNEL_AVX2
  if constexpr (Lanes == 8) {
    // All 8 lanes in one register; otherwise as the 4-wide loop below.
    const __m256 nx = _mm256_loadu_ps(ref.nx), ny = _mm256_loadu_ps(ref.ny);
    __m256 least = _mm256_set1_ps(std::numeric_limits<float>::infinity());
    for (int j = 0; j < other.count; j += 2) {
      const __m256 p0 = _mm256_add_ps(_mm256_mul_ps(nx, _mm256_set1_ps(other.v[j].x)),
                                      _mm256_mul_ps(ny, _mm256_set1_ps(other.v[j].y)));
      const __m256 p1 = _mm256_add_ps(_mm256_mul_ps(nx, _mm256_set1_ps(other.v[j + 1].x)),
                                      _mm256_mul_ps(ny, _mm256_set1_ps(other.v[j + 1].y)));
      least = _mm256_min_ps(least, _mm256_min_ps(p0, p1));
    }
    return first_max_lane(_mm256_sub_ps(least, _mm256_loadu_ps(ref.off)));
  }
#endif
#if PEBBLE_SSE
  // The same operations as the scalar loop below, four lanes at a time (compilers keep the
  // scalar loop scalar: a float min is not IEEE-safe to vectorize without -ffast-math).
  constexpr int kVectors = Lanes / 4;
  __m128 nx[kVectors], ny[kVectors], least[kVectors];
  for (int k = 0; k < kVectors; ++k) {
    nx[k] = _mm_loadu_ps(ref.nx + 4 * k);
    ny[k] = _mm_loadu_ps(ref.ny + 4 * k);
    least[k] = _mm_set1_ps(std::numeric_limits<float>::infinity());
  }
  // Two vertices per step (a FramedCore's storage repeats vertex 0 past count, so an odd count
  // reads a copy of vertex 0, which changes no minimum).
  for (int j = 0; j < other.count; j += 2) {
    const __m128 pair = _mm_loadu_ps(&other.v[j].x);
    const __m128 x0 = _mm_shuffle_ps(pair, pair, _MM_SHUFFLE(0, 0, 0, 0));
    const __m128 y0 = _mm_shuffle_ps(pair, pair, _MM_SHUFFLE(1, 1, 1, 1));
    const __m128 x1 = _mm_shuffle_ps(pair, pair, _MM_SHUFFLE(2, 2, 2, 2));
    const __m128 y1 = _mm_shuffle_ps(pair, pair, _MM_SHUFFLE(3, 3, 3, 3));
    for (int k = 0; k < kVectors; ++k) {
      const __m128 p0 = _mm_add_ps(_mm_mul_ps(nx[k], x0), _mm_mul_ps(ny[k], y0));
      const __m128 p1 = _mm_add_ps(_mm_mul_ps(nx[k], x1), _mm_mul_ps(ny[k], y1));
      least[k] = _mm_min_ps(least[k], _mm_min_ps(p0, p1));
    }
  }
  __m128 sv[kVectors];
  for (int k = 0; k < kVectors; ++k) sv[k] = _mm_sub_ps(least[k], _mm_loadu_ps(ref.off + 4 * k));
  return first_max_lane(sv);
#else
  float least[Lanes], sep[Lanes];
  const Vec2 v0 = other.v[0];
  for (int i = 0; i < Lanes; ++i) least[i] = ref.nx[i] * v0.x + ref.ny[i] * v0.y;
  for (int j = 1; j < other.count; ++j) {
    const Vec2 v = other.v[j];
    for (int i = 0; i < Lanes; ++i) least[i] = std::min(ref.nx[i] * v.x + ref.ny[i] * v.y, least[i]);
  }
  for (int i = 0; i < Lanes; ++i) sep[i] = least[i] - ref.off[i];
  return first_max_lane(sep);
#endif
}

inline AxisSeparation max_separation(const FramedCore& ref, const FramedCore& other) {
  return ref.edges <= 4 ? max_separation_lanes<4>(ref, other) : max_separation_lanes<kMaxPolygonVertices>(ref, other);
}

/// The edge of `core` whose normal is most anti-parallel to n (for a point: its one vertex), the
/// lowest such index on ties. Returns the edge index; the edge runs from v[e] to v[(e+1) % count].
/// The padded lanes (zero normal, dot 0) never win: the edge normals of a closed polygon, weighted
/// by edge length, sum to zero, so some edge has a negative dot with any n; a segment's two
/// normals are opposite, so the least is <= 0 and a tie at 0 goes to the lower, real lane.
template <int Lanes>
inline int incident_edge_lanes(const FramedCore& core, Vec2 n) {
#if PEBBLE_KERNEL_AVX2
  if constexpr (Lanes == 8) {
    const __m256 d = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(core.nx), _mm256_set1_ps(n.x)),
                                   _mm256_mul_ps(_mm256_loadu_ps(core.ny), _mm256_set1_ps(n.y)));
    __m128 m = _mm_min_ps(_mm256_castps256_ps128(d), _mm256_extractf128_ps(d, 1));
    m = fold4<false>(m);
    const unsigned mask = unsigned(_mm256_movemask_ps(_mm256_cmp_ps(d, _mm256_set_m128(m, m), _CMP_EQ_OQ)));
    return mask != 0 ? std::countr_zero(mask) : 0;
  }
#endif
#if PEBBLE_SSE
  constexpr int kVectors = Lanes / 4;
  const __m128 x = _mm_set1_ps(n.x), y = _mm_set1_ps(n.y);
  __m128 d[kVectors];
  for (int k = 0; k < kVectors; ++k)
    d[k] = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(core.nx + 4 * k), x), _mm_mul_ps(_mm_loadu_ps(core.ny + 4 * k), y));
  __m128 m = d[0];
  for (int k = 1; k < kVectors; ++k) m = _mm_min_ps(m, d[k]);
  m = fold4<false>(m);
  unsigned mask = 0;
  for (int k = 0; k < kVectors; ++k) mask |= unsigned(_mm_movemask_ps(_mm_cmpeq_ps(d[k], m))) << (4 * k);
  return mask != 0 ? std::countr_zero(mask) : 0;
#else
  int best = 0;
  float least = core.nx[0] * n.x + core.ny[0] * n.y;
  for (int j = 1; j < core.edges; ++j) {
    const float d = core.nx[j] * n.x + core.ny[j] * n.y;
    best = d < least ? j : best;
    least = std::min(d, least);
  }
  return best;
#endif
}

inline int incident_edge(const FramedCore& core, Vec2 n) {
  if (core.edges == 0) return 0;
  return core.edges <= 4 ? incident_edge_lanes<4>(core, n) : incident_edge_lanes<kMaxPolygonVertices>(core, n);
}

/// Closest points of segments p1q1 and p2q2 (either may have zero length). Two segments that do
/// not cross have a closest pair that includes an endpoint, so the answer is the best of the
/// four endpoint-to-segment projections; crossing segments meet at distance 0. Unlike the
/// line-parameter solution (Ericson, "Real-Time Collision Detection", 5.1.9) this has no
/// a*e - b*b cancellation for nearly parallel segments. Fractions of exactly 0 or 1 mean the
/// closest point is that endpoint.
struct SegmentClosest {
  float s, t;    // fractions along segment 1 and 2
  Vec2 c1, c2;   // the closest points
  float dist2;   // squared distance
};

inline float clamp01(float x) { return x < 0 ? 0.0f : (x > 1 ? 1.0f : x); }

inline SegmentClosest closest_segments(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2) {
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

/// The separating-axis search and the closest features of two cores in a common frame.
/// `flip` tells whether the reference edge belongs to B (then `normal` points from B to A).
struct CoreQuery {
  float separation;  // greatest axis separation (core, radius not included)
  int ref_edge;      // on the reference core; -1 when neither core has an edge
  int inc_edge;      // on the incident core
  bool flip;         // reference core is B
  Vec2 normal;       // reference edge normal, from reference to incident; {0,1} if none
};

/// Relative preference for A's axis, as a fraction of the smaller shape's size: B's axis is
/// chosen only when it separates clearly more. Keeps the reference stable under float noise
/// (warm-started ids depend on it) and is far below the accuracy bound.
inline constexpr float kAxisPreference = 2e-5f;

/// The preference when A's best face and B's best face are nearly parallel (their normals
/// opposite within kParallelFaceSine): the resting contact of a stack. There the two separations
/// differ by about the tilt times the sideways offset of the faces, and they cross as the tilt
/// changes sign, so a small preference lets the reference (and with it every feature id) flip
/// back and forth under jitter (issue 11: 0.1 to 0.6% of resting points did, at 2e-5). At 4e-4
/// of the smaller shape's size (a unit box pyramid keeps A's face for tilts up to about 5e-4 rad)
/// the separation stays within the contract's 1e-3 of the size (Shape::extent() is at most twice
/// the half diameter the contract measures size by), and the normal within the faces' tilt.
inline constexpr float kParallelFacePreference = 4e-4f;
/// Faces whose normals are opposite within this sine of the angle count as nearly parallel for
/// kParallelFacePreference: well above the jitter of a resting stack (about 1e-4 rad), well below
/// the angle at which a tilted face stops resting on the other.
inline constexpr float kParallelFaceSine = 9.5e-4f;

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
  bool use_b = sb.edge >= 0 && (sa.edge < 0 || sb.separation > sa.separation + kAxisPreference * scale);
  if (use_b && sa.edge >= 0 && sb.separation <= sa.separation + kParallelFacePreference * scale) {
    // A near tie between two faces: keep A's when they are nearly parallel (cross of the two
    // normals small, dot negative), so that a resting contact keeps its reference and its ids.
    const Vec2 na = a.normal(sa.edge), nb = b.normal(sb.edge);
    use_b = !(dot(na, nb) < 0 && std::fabs(cross(na, nb)) <= kParallelFaceSine);
  }
  // The preference picks the reference edge only; the separation is always the greatest, so
  // the preference never turns a separated pair into an overlapping one.
  q.separation = std::max(sa.separation, sb.separation);
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

/// Endpoints of edge e of a core (a point gives the same vertex twice): v[count] repeats v[0].
inline void edge_points(const FramedCore& c, int e, Vec2& p, Vec2& q) {
  p = c.v[e];
  q = c.v[e + 1];
}

/// Vertex index of edge e's end (0 or 1 of the edge), for feature ids.
inline int edge_end_index(const FramedCore& c, int e, int end) {
  return c.count == 1 || e + end == c.count ? 0 : e + end;
}

/// A separation of the cores above this proves distance > margin, so a query may stop there.
/// The slack keeps float rounding from ever stopping a pair that distance() puts within the
/// margin (distance() runs to the end and must agree with every early stop).
inline float stop_bound(float margin, float ra, float rb, float scale) { return margin + ra + rb + 1e-5f * scale; }

/// The scale of a pair: the smaller shape's size, never 0.
inline float pair_scale(const Shape& a, const Shape& b) {
  return std::max(std::min(a.extent(), b.extent()), 1e-6f);
}

/// Signed distance of two cores in A's frame, with what collide() needs to build a manifold.
struct CoreDistance {
  float distance;   // signed, radii not included
  Vec2 normal;      // unit, from A to B
  Vec2 point_a;     // on A's core
  Vec2 point_b;     // on B's core
  CoreQuery query;  // the axis search (ref_edge -1 for two points)
  bool overlapping; // the cores overlap by more than float noise (distance is -depth); then
                    // point_a and point_b are set only by add_overlap_witness()
  float over_lo, over_hi;  // overlapping: the part of the incident edge over the reference edge
  SegmentClosest closest;  // reference vs incident edge, when !overlapping and ref_edge >= 0
};

/// Incident points within this fraction of the pair's size outside the reference edge's side
/// planes count as on the edge (a corner exactly in line with the edge's end is an edge contact).
inline constexpr float kClipFraction = 1e-5f;

/// Cores that overlap by less than this fraction of the pair's size are measured with the
/// closest-points path, which is exact for touching and for degenerate (collinear) cores.
inline constexpr float kOverlapFraction = 1e-6f;

/// stop_above: when an axis separates the cores by more than this, return at once with
/// query.ref_edge == -2 and distance = that separation (a lower bound of the true distance).
PEBBLE_HOT_INLINE CoreDistance core_distance(const FramedCore& a, const FramedCore& b, float scale,
                                  float stop_above = kHugeDistance) {
  // Every path sets every field it returns; no blanket zeroing (measured as a rep stos).
  CoreDistance out;
  out.overlapping = false;
  out.closest = {0, 0, {}, {}, 0};
  out.over_lo = out.over_hi = 0;
  if (a.edges == 0 && b.edges == 0) {
    // Two points: the only axis is the line through them.
    const Vec2 d = b.v[0] - a.v[0];
    const float len = length(d);
    out.distance = len;
    out.normal = len > 0 ? d / len : Vec2{0, 1};
    out.point_a = a.v[0];
    out.point_b = b.v[0];
    out.query = {0, -1, 0, false, out.normal};
    return out;
  }
  const CoreQuery q = query_cores(a, b, scale, stop_above);
  out.query = q;
  if (q.ref_edge == -2) {
    out.distance = q.separation;
    return out;
  }
  if (q.ref_edge < 0) {
    // No axis at all although a core has edges: only non-finite coordinates get here, which
    // validated input never has. Answer as two points rather than index an edge -1.
    out.distance = kHugeDistance;
    out.normal = {0, 1};
    out.point_a = a.v[0];
    out.point_b = b.v[0];
    return out;
  }
  const FramedCore& ref = q.flip ? b : a;
  const FramedCore& inc = q.flip ? a : b;

  Vec2 r1, r2, i1, i2;
  edge_points(ref, q.ref_edge, r1, r2);
  edge_points(inc, q.inc_edge, i1, i2);
  if (q.separation < -kOverlapFraction * scale) {
    // Overlapping cores: minus the penetration depth along the reference normal. The witness is
    // the deepest point of the incident edge (which holds the deepest incident vertex) within
    // the reference edge's extent: with parallel edges the deepest vertex may lie beyond the
    // reference edge's end while another point of the incident edge is just as deep over it.
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
      return out;
    }
    // No part of the incident edge lies over the reference edge: the overlap was float noise
    // of nearly parallel edges; the closest points below measure the pair exactly.
  }
  if (q.separation >= 0) {
    // The common face contact: the incident edge's deeper end w (the other core's supporting
    // vertex along -normal, which the separation was measured at) lies over the inside of the
    // reference edge. Then w's projection onto the edge and w are the closest points, and the
    // distance is the separation itself (no axis separates by more, and this pair is that far
    // apart): no segment-segment search, no square root.
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
      return out;
    }
  }
  const SegmentClosest c = closest_segments(r1, r2, i1, i2);
  out.closest = c;
  const float dist = std::sqrt(c.dist2);
  // The normal: when a witness lies inside an edge, that edge's normal (exact, whereas the
  // witnesses' difference carries their rounding divided by the distance); when both are
  // vertices, their direction; when they (nearly) coincide, the reference normal.
  Vec2 n = q.normal;
  const bool inside_ref = c.s > 0 && c.s < 1, inside_inc = c.t > 0 && c.t < 1 && inc.edges > 0;
  if (!inside_ref && inside_inc) n = -inc.normal(q.inc_edge);
  if (!inside_ref && !inside_inc && dist > 1e-5f * scale) n = (c.c2 - c.c1) / dist;
  out.distance = dist;
  out.normal = q.flip ? -n : n;
  out.point_a = q.flip ? c.c2 : c.c1;
  out.point_b = q.flip ? c.c1 : c.c2;
  return out;
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

/// Fast paths for a circle or point (a 1-vertex core) against anything. Each gives the answer
/// of the generic path by a shorter route; tests check that they agree with it.

/// Distance from a core to a point, measured in world axes: the core's edge normals are turned
/// by its rotation q and p is given as d = p - (the core's position), so neither the point nor
/// the answer has to be moved between frames. The separating axes of the core pick the best
/// edge; where p lies along that edge (before its start, over it, past its end) decides between
/// the edge and one of its ends. `feature` is what collide() reports for the core: the edge, or
/// a vertex when the point lies clearly beyond that end of the edge (the generic path's rule,
/// manifold.cpp).
struct PointToCore {
  float distance;  // signed, radii not included
  Vec2 normal;     // world, unit, from the core towards p; the core's closest (or, inside,
                   // deepest-direction) point is always p - distance * normal
  uint32_t feature;
};

/// feature value meaning point_to_core stopped early: an edge plane separates p by more than
/// stop_above (distance then holds stop_above, a lower bound of the true distance).
inline constexpr uint32_t kStoppedEarly = 0xffffffffu;

/// The best edge's values in world axes, for point_to_core.
struct PointAxis {
  float separation;  // of p from the edge's plane; -huge when the core has no edges
  int edge;          // -1 when the core has no edges; -2 when an edge plane separates p by
                     // more than stop_above (then nothing else is set)
  Vec2 normal;       // the edge's outward normal, turned by q
  float along;       // dot(turned edge direction, d); the edge's own dot(direction, v) subtracted
                     // gives p's position along it from that vertex
};

/// Every edge lane at once: the normal turned by q, the separation of d from the turned edge
/// plane (a plane's offset from the core's origin does not change under rotation) and d's
/// position along the turned edge direction; then the greatest separation, the lowest lane on
/// ties (max_separation_lanes' rule). Whether some lane exceeds stop_above is asked first, of
/// the lanes themselves: the max tree is then off the chain of a separated pair (measured
/// 2-3% on 8-gon/circle).
template <int Lanes>
inline PointAxis point_axis_lanes(const Shape& core, const Rot& q, Vec2 d, float stop_above) {
  alignas(16) float nx[Lanes], ny[Lanes], along[Lanes];
#if PEBBLE_KERNEL_AVX2
  if constexpr (Lanes == 8) {
    // All 8 lanes in one register; otherwise as the 4-wide code below.
    const __m256 c = _mm256_set1_ps(q.c), s = _mm256_set1_ps(q.s), x = _mm256_set1_ps(d.x), y = _mm256_set1_ps(d.y);
    const __m256 lx = _mm256_loadu_ps(core.normal_lanes_x()), ly = _mm256_loadu_ps(core.normal_lanes_y());
    const __m256 wx = _mm256_sub_ps(_mm256_mul_ps(c, lx), _mm256_mul_ps(s, ly));
    const __m256 wy = _mm256_add_ps(_mm256_mul_ps(s, lx), _mm256_mul_ps(c, ly));
    const __m256 sv = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(wx, x), _mm256_mul_ps(wy, y)),
                                    _mm256_loadu_ps(core.offset_lanes()));
    _mm256_storeu_ps(nx, wx);
    _mm256_storeu_ps(ny, wy);
    _mm256_storeu_ps(along, _mm256_sub_ps(_mm256_mul_ps(wx, y), _mm256_mul_ps(wy, x)));
    if (_mm256_movemask_ps(_mm256_cmp_ps(sv, _mm256_set1_ps(stop_above), _CMP_GT_OQ)) != 0) return {0, -2, {0, 1}, 0};
    const AxisSeparation best = first_max_lane(sv);
    const int e = best.edge;
    if (e < 0) return {-kHugeDistance, -1, {0, 1}, 0};  // no edges
    return {best.separation, e, {nx[e], ny[e]}, along[e]};
  }
#endif
#if PEBBLE_SSE
  constexpr int kVectors = Lanes / 4;
  const __m128 c = _mm_set1_ps(q.c), s = _mm_set1_ps(q.s), x = _mm_set1_ps(d.x), y = _mm_set1_ps(d.y);
  __m128 sv[kVectors];
  for (int k = 0; k < kVectors; ++k) {
    const __m128 lx = _mm_loadu_ps(core.normal_lanes_x() + 4 * k), ly = _mm_loadu_ps(core.normal_lanes_y() + 4 * k);
    const __m128 wx = _mm_sub_ps(_mm_mul_ps(c, lx), _mm_mul_ps(s, ly));
    const __m128 wy = _mm_add_ps(_mm_mul_ps(s, lx), _mm_mul_ps(c, ly));
    sv[k] = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(wx, x), _mm_mul_ps(wy, y)), _mm_loadu_ps(core.offset_lanes() + 4 * k));
    _mm_store_ps(nx + 4 * k, wx);
    _mm_store_ps(ny + 4 * k, wy);
    _mm_store_ps(along + 4 * k, _mm_sub_ps(_mm_mul_ps(wx, y), _mm_mul_ps(wy, x)));
  }
  const __m128 stop = _mm_set1_ps(stop_above);
  __m128 above = _mm_cmpgt_ps(sv[0], stop);
  for (int k = 1; k < kVectors; ++k) above = _mm_or_ps(above, _mm_cmpgt_ps(sv[k], stop));
  if (_mm_movemask_ps(above) != 0) return {0, -2, {0, 1}, 0};
  const AxisSeparation best = first_max_lane(sv);
#else
  float sep[Lanes];
  const float* lx = core.normal_lanes_x();
  const float* ly = core.normal_lanes_y();
  const float* off = core.offset_lanes();
  for (int i = 0; i < Lanes; ++i) {
    nx[i] = q.c * lx[i] - q.s * ly[i];
    ny[i] = q.s * lx[i] + q.c * ly[i];
    sep[i] = (nx[i] * d.x + ny[i] * d.y) - off[i];
    along[i] = nx[i] * d.y - ny[i] * d.x;
  }
  bool above = false;
  for (int i = 0; i < Lanes; ++i) above |= sep[i] > stop_above;
  if (above) return {0, -2, {0, 1}, 0};
  const AxisSeparation best = first_max_lane(sep);
#endif
  const int e = best.edge;
  if (e < 0) return {-kHugeDistance, -1, {0, 1}, 0};  // no edges
  return {best.separation, e, {nx[e], ny[e]}, along[e]};
}

PEBBLE_HOT_INLINE PointToCore point_to_core(const Shape& core, const Rot& q, Vec2 d, float scale, float clip_eps,
                                            float stop_above = kHugeDistance) {
  const Vec2* v = core.padded_vertices();
  const int edges = core.edge_count();
  if (edges == 0) {
    const Vec2 r = d - rotate(q, v[0]);
    const float len = length(r);
    return {len, len > 0 ? r / len : Vec2{-q.s, q.c}, 0};
  }
  const PointAxis axis = edges <= 4 ? point_axis_lanes<4>(core, q, d, stop_above)
                                    : point_axis_lanes<kMaxPolygonVertices>(core, q, d, stop_above);
  const float sep = axis.separation;
  const int e = axis.edge;
  const Vec2 ne = axis.normal;
  if (e == -2) return {stop_above, {0, 1}, kStoppedEarly};
  if (e < 0) return {kHugeDistance, {0, 1}, kStoppedEarly};  // non-finite input only (see core_distance)
  const uint32_t edge_feature = kEdgeFeature | uint32_t(e);
  if (sep < -kOverlapFraction * scale) return {sep, ne, edge_feature};
  // Where p lies along the edge: u_start = t.(p - v[e]) and u_end = t.(p - v[e + 1]) with t the
  // edge's unit direction (its outward normal turned by +90 degrees, as collide_generic measures
  // clipping). t.v is the same in the core's frame as in world, so the shape's own vertices serve
  // (the padding repeats v[0] at v[count]). u_start - u_end is the edge's length > 0.
  const Vec2 t = left_perp(core.normal(e));
  const float u_start = axis.along - dot(t, v[e]), u_end = axis.along - dot(t, v[e + 1]);
  // Over the edge (the face region): the distance is the separation itself.
  if (u_start > 0 && u_end < 0) return {std::max(sep, 0.0f), ne, edge_feature};
  // Beside the edge: the closest point is the edge's nearer end (the greatest separation belongs
  // to an edge next to the closest vertex), and p - that end is sep along the normal plus u
  // along the edge.
  const bool at_start = !(u_start > 0);
  const float u = at_start ? u_start : u_end;
  const float dist = std::sqrt(sep * sep + u * u);
  // At a vertex the direction to p; when p (nearly) sits on the vertex, the edge's normal.
  const Vec2 normal = dist > 1e-5f * scale ? (sep * ne + u * left_perp(ne)) / dist : ne;
  // A vertex feature when p lies clearly beyond that end of the edge (by more than clip_eps
  // along it, collide_generic's rule).
  const int vertex = at_start ? e : (e + 1 == core.vertex_count() ? 0 : e + 1);
  const uint32_t feature = (at_start ? -u : u) > clip_eps ? uint32_t(vertex) : edge_feature;
  return {dist, normal, feature};
}

/// Two circles (or points): everything in world space, on the line of centres. Coincident
/// centres take A's local +y as the normal, as the generic path does.
struct CirclePair {
  float distance;  // signed, radii included
  Vec2 normal;     // world, from A to B
  Vec2 on_a, on_b; // surface points, world
};

inline CirclePair circle_pair(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  const Vec2 ca = transform_point(xa, a.padded_vertices()[0]);
  const Vec2 cb = transform_point(xb, b.padded_vertices()[0]);
  const Vec2 d = cb - ca;
  const float len = length(d);
  const Vec2 n = len > 0 ? d / len : Vec2{-xa.q.s, xa.q.c};
  const float ra = a.radius(), rb = b.radius();
  return {len - ra - rb, n, ca + ra * n, cb - rb * n};
}

/// A circle or point against anything: `core` is the shape that is not (or, for two points,
/// shape a), `d` the point core's vertex relative to core's position, in world axes.
struct PointPair {
  bool point_is_a;  // shape a is the point (results must be flipped back)
  const Shape* core;
  float core_radius, point_radius;
  Vec2 world;       // the point core's vertex in world
  Vec2 d;           // world - core's position
  const Rot* q;     // core's rotation (a pointer: GCC copies a Rot member through an integer
                    // register and the stack, which put about 10 cycles on the chain: measured)
};

inline PointPair point_pair(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  const bool point_is_a = b.vertex_count() != 1;
  const Shape& core = point_is_a ? b : a;
  const Shape& point = point_is_a ? a : b;
  const Transform& xc = point_is_a ? xb : xa;
  const Transform& xp = point_is_a ? xa : xb;
  const Vec2 world = transform_point(xp, point.padded_vertices()[0]);
  return {point_is_a, &core, core.radius(), point.radius(), world, world - xc.p, &xc.q};
}

}  // namespace pebble::detail::PEBBLE_KERNEL_NS
