// The batch queries (pebble/batch.hpp): lanes across queries. Compiled once per kernel copy
// (simd/config.hpp: base, scalar beside SSE2, AVX2), like the contact kernels; each copy's table
// of entry points ends the file, and the public functions are compiled with the base copy only.
//
// This file loads the bodies into lanes, groups the pairs by kind and answers each group; the
// lane forms of the queries live beside the scalar queries they mirror. Two discs: the closed
// forms of cast/disc_lanes.hpp, one template for one lane (the one-at-a-time queries of two
// discs) and for a register, so a batch lane equals the single query bit for bit; a lane whose
// input is invalid, or whose centres end up nearly coincident (circle_pair()'s rescaled branch),
// is answered again by the single query. Capsules and 4-vertex cores (docs/crowds.md) go the
// other way: their lanes repeat the single query's own scalar path, operation for operation
// (time_to_collision()'s ray cast in cast/ray_lanes.hpp; distance()'s point_to_core() and segment
// pair below), and hand the lanes where that path branches off its common case back to the single
// query.
#include "simd/config.hpp"

#if PEBBLE_KERNEL_ENABLED
#include <cstddef>
#include <type_traits>

#include "simd/batch_kernels.hpp"

PEBBLE_KERNEL_TARGET_BEGIN
#include "simd/wide.hpp"
#include "tolerances.hpp"
#include "cast/disc_lanes.hpp"
#include "cast/ray_lanes.hpp"
#include "empty_results.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

/// The batch's lane width in this copy: a whole register.
#if PEBBLE_KERNEL_AVX2
constexpr int kWidth = 8;
#else
constexpr int kWidth = 4;
#endif
using Wide = FloatLanes<kWidth>;

/// The lanes of a field of the bodies.
template <class F, class Get>
PEBBLE_HOT_INLINE F lanes_of(const BatchBody* const* b, Get get) {
  if constexpr (sizeof(F) == 8 * sizeof(float)) {
    return F::lanes(get(*b[0]), get(*b[1]), get(*b[2]), get(*b[3]), get(*b[4]), get(*b[5]), get(*b[6]), get(*b[7]));
  } else if constexpr (sizeof(F) == 4 * sizeof(float)) {
    return F::lanes(get(*b[0]), get(*b[1]), get(*b[2]), get(*b[3]));
  } else {
    return F::splat(get(*b[0]));
  }
}

/// The lanes of a body's motion: position, rotation, velocity (its record's floats 2 to 7).
template <class F>
struct Moving {
  F px, py, qc, qs, vx, vy;
};

template <class F>
PEBBLE_HOT_INLINE Moving<F> moving_lanes(const BatchBody* const* bodies) {
  F c[6];  // p.x p.y q.c q.s velocity x y
#if PEBBLE_SSE || PEBBLE_NEON
  if constexpr (sizeof(F) > sizeof(float)) {
    // Each body's 32 bytes (shape pointer, transform, velocity) read as 8 floats and transposed
    // into lanes (simd/wide.hpp): lanes built from separate float stores would wait for every
    // store to reach the cache before a vector load could read them.
    static_assert(sizeof(BatchBody) == 32 && offsetof(BatchBody, transform) == 8 && offsetof(BatchBody, velocity) == 24,
                  "on x86-64 and ARM64 a BatchBody is a pointer, then p.x p.y q.c q.s, then velocity x y");
    constexpr int W = sizeof(F) / sizeof(float);
    const float* rows[W];
    for (int j = 0; j < W; ++j) rows[j] = reinterpret_cast<const float*>(bodies[j]);
    columns_2_to_7(rows, c);
  } else
#endif
  {
    c[0] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.transform.p.x; });
    c[1] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.transform.p.y; });
    c[2] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.transform.q.c; });
    c[3] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.transform.q.s; });
    c[4] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.velocity.x; });
    c[5] = lanes_of<F>(bodies, [](const BatchBody& b) { return b.velocity.y; });
  }
  return {c[0], c[1], c[2], c[3], c[4], c[5]};
}

/// The lanes of a field of the bodies' shapes.
template <class F, class Get>
PEBBLE_HOT_INLINE F shape_lanes(const BatchBody* const* b, Get get) {
  return lanes_of<F>(b, [&](const BatchBody& body) { return get(*body.shape); });
}


/// Four consecutive floats of each lane's shape (at(shape) points at them) as four lane values:
/// with SSE2 or NEON one load per lane and a transpose (simd/wide.hpp), as for the bodies.
template <class F, class At>
PEBBLE_HOT_INLINE void shape_columns(const BatchBody* const* b, At at, F (&c)[4]) {
#if PEBBLE_SSE || PEBBLE_NEON
  if constexpr (sizeof(F) > sizeof(float)) {
    constexpr int W = sizeof(F) / sizeof(float);
    const float* rows[W];
    for (int j = 0; j < W; ++j) rows[j] = at(*b[j]->shape);
    columns_of_4(rows, c);
    return;
  }
#endif
  for (int k = 0; k < 4; ++k) c[k] = shape_lanes<F>(b, [&](const Shape& s) { return at(s)[k]; });
}

/// A shape's vertices as floats x0 y0 x1 y1 ... (Vec2 is two floats).
inline const float* vertex_floats(const Shape& s) {
  static_assert(sizeof(Vec2) == 2 * sizeof(float));
  return &s.padded_vertices()->x;
}

template <class F>
PEBBLE_HOT_INLINE Disc<F> gather(const BatchBody* const* bodies) {
  const Moving<F> m = moving_lanes<F>(bodies);
  F v[4];
  shape_columns(bodies, [](const Shape& s) { return vertex_floats(s); }, v);
  return {m.px, m.py, m.qc, m.qs, v[0], v[1], shape_lanes<F>(bodies, [](const Shape& s) { return s.radius(); }), m.vx, m.vy};
}

/// Side A's lanes: in the one-against-many form every lane holds the same body, so its fields are
/// broadcast instead of transposed (the same values, so the same bits).
PEBBLE_HOT_INLINE Disc<Wide> side_a(const BatchBody* fixed, const BatchBody* const* bodies) {
  if (fixed == nullptr) return gather<Wide>(bodies);
  const Disc<Float1> d = gather<Float1>(&fixed);
  return {Wide::splat(d.px.v), Wide::splat(d.py.v), Wide::splat(d.qc.v), Wide::splat(d.qs.v), Wide::splat(d.lx.v),
          Wide::splat(d.ly.v), Wide::splat(d.r.v), Wide::splat(d.vx.v), Wide::splat(d.vy.v)};
}

Approach approach_discs(const BatchBody& a, const BatchBody& b, float horizon) noexcept {
  const BatchBody* pa = &a;
  const BatchBody* pb = &b;
  const DiscApproach<Float1> r = disc_approach(gather<Float1>(&pa), gather<Float1>(&pb), Float1::splat(horizon));
  leave_lanes();
  if (!r.m.valid.v) return kNoApproach;
  const float t = r.m.time.v;
  if (r.d.ok.v) return {r.m.hit.v, t, r.d.distance.v, {r.d.pax.v, r.d.pay.v}, {r.d.pbx.v, r.d.pby.v}, {r.d.nx.v, r.d.ny.v}};
  // Centres (nearly) coincident at t: circle_pair()'s rescaled branch, and A's local +y when they
  // coincide exactly.
  const Vec2 d{r.m.c.px.v + t * r.m.wx.v, r.m.c.py.v + t * r.m.wy.v};
  Vec2 n = normalize(d);
  if (n == Vec2{}) n = Vec2{-a.transform.q.s, a.transform.q.c};
  const float ra = a.shape->radius(), rb = b.shape->radius();
  const Vec2 ca{r.m.c.cax.v + t * a.velocity.x, r.m.c.cay.v + t * a.velocity.y};
  const Vec2 cb{r.m.c.cbx.v + t * b.velocity.x, r.m.c.cby.v + t * b.velocity.y};
  return {r.m.hit.v, t, (length(d) - ra) - rb, ca + ra * n, cb - rb * n, n};
}

float time_to_collision_discs(const BatchBody& a, const BatchBody& b, float horizon) noexcept {
  const BatchBody* pa = &a;
  const BatchBody* pb = &b;
  const DiscMotion<Float1> m = disc_motion(gather<Float1>(&pa), gather<Float1>(&pb), Float1::splat(horizon));
  leave_lanes();
  return m.valid.v ? m.touch.v : kNoCollision;
}

// time_to_collision() of a disc against a capsule or a 4-vertex core, and of two capsules: the
// scalar path's ray cast in lanes (cast/ray_lanes.hpp), with its set-up repeated here operation
// for operation. Each returns the time (the touch's fraction times the horizon), which lanes
// touch, and which lanes these functions cannot answer.

/// B's motion relative to A over the horizon, in A's frame (cast/cast.cpp relative_motion()), and
/// whether it is not zero (else the scalar query asks distance(): unsure here).
template <class F>
struct Relative {
  F wx, wy;  // move_b - move_a, world
  F dx, dy;  // in A's frame
  unsigned moving;
};

template <class F>
PEBBLE_HOT_INLINE Relative<F> relative_lanes(const Moving<F>& a, const Moving<F>& b, F h) {
  const F wx = h * b.vx - h * a.vx, wy = h * b.vy - h * a.vy;
  const F dx = a.qc * wx + a.qs * wy, dy = neg(a.qs) * wx + a.qc * wy;
  return {wx, wy, dx, dy, bits(F::splat(0) < dx * dx + dy * dy)};
}

/// A shape's 2-vertex core (vertices, edge normals) and radius, lane by lane.
template <class F>
struct SegmentLanes {
  F x0, y0, x1, y1, nx0, ny0, nx1, ny1, r;
};

template <class F>
PEBBLE_HOT_INLINE SegmentLanes<F> segment_lanes(const BatchBody* const* b) {
  F v[4], nx[4], ny[4];
  shape_columns(b, [](const Shape& s) { return vertex_floats(s); }, v);
  shape_columns(b, [](const Shape& s) { return s.normal_lanes_x(); }, nx);
  shape_columns(b, [](const Shape& s) { return s.normal_lanes_y(); }, ny);
  return {v[0], v[1], v[2], v[3], nx[0], ny[0], nx[1], ny[1], shape_lanes<F>(b, [](const Shape& s) { return s.radius(); })};
}

/// A shape's 4-vertex core as the ray cast reads it (in its own frame) and its radius.
template <class F>
PEBBLE_HOT_INLINE QuadLanes<F> quad_core_lanes(const BatchBody* const* b, F& r) {
  QuadLanes<F> q;
  F v[4];
  shape_columns(b, [](const Shape& s) { return vertex_floats(s); }, v);
  q.x[0] = v[0], q.y[0] = v[1], q.x[1] = v[2], q.y[1] = v[3];
  shape_columns(b, [](const Shape& s) { return vertex_floats(s) + 4; }, v);
  q.x[2] = v[0], q.y[2] = v[1], q.x[3] = v[2], q.y[3] = v[3];
  shape_columns(b, [](const Shape& s) { return s.normal_lanes_x(); }, q.nx);
  shape_columns(b, [](const Shape& s) { return s.normal_lanes_y(); }, q.ny);
  shape_columns(b, [](const Shape& s) { return s.offset_lanes(); }, q.off);
  r = shape_lanes<F>(b, [](const Shape& s) { return s.radius(); });
  return q;
}

/// A disc against a shape with a 2-vertex (Core = 2) or 4-vertex core: time_to_collision()'s
/// checks, then disc_cast() (cast/cast.cpp): the disc's centre relative to the other shape's
/// position, cast against it grown by the disc's radius in its frame (raycast()'s
/// cast_against_core(), report()).
template <int Core, class F>
PEBBLE_HOT_INLINE RayLanes<F> disc_core_ttc(const BatchBody* const* disc, const BatchBody* const* other, bool disc_is_a, F h) {
  // (Not gather(): inlined into time_to_collision_batch() with it, the disc group's lanes there
  // lost a third of their speed with AVX2, the code generator's doing, measured.)
  const Moving<F> md = moving_lanes<F>(disc), mo = moving_lanes<F>(other);
  const Moving<F>& ma = disc_is_a ? md : mo;
  const Moving<F>& mb = disc_is_a ? mo : md;
  const unsigned valid = bits(valid_approach(ma, mb, h));
  const Relative<F> rel = relative_lanes(ma, mb, h);
  const F lx = shape_lanes<F>(disc, [](const Shape& s) { return s.padded_vertices()[0].x; });
  const F ly = shape_lanes<F>(disc, [](const Shape& s) { return s.padded_vertices()[0].y; });
  const F rd = shape_lanes<F>(disc, [](const Shape& s) { return s.radius(); });
  const F cx = (md.px - mo.px) + (md.qc * lx - md.qs * ly), cy = (md.py - mo.py) + (md.qs * lx + md.qc * ly);
  const unsigned local = bits(valid_point(cx, cy));
  const F tx = h * md.vx - h * mo.vx, ty = h * md.vy - h * mo.vy;  // the ray: move_disc - move_other
  const F c = mo.qc, s = mo.qs;
  const F ox = c * cx + s * cy, oy = c * cy - s * cx;
  const F dx = c * tx + s * ty, dy = c * ty - s * tx;
  RayLanes<F> hit;
  if constexpr (Core == 2) {
    const SegmentLanes<F> g = segment_lanes<F>(other);
    hit = capsule_lanes(g.x0, g.y0, g.x1, g.y1, g.nx0, g.ny0, g.r + rd, ox, oy, dx, dy);
  } else {
    F ro;
    const QuadLanes<F> q = quad_core_lanes<F>(other, ro);
    hit = quad_lanes(q, ro + rd, ox, oy, dx, dy);
  }
  // report(): a hit only for a ray within the world's bounds, at a fraction >= 0.
  hit.hit &= bits(valid_point(tx, ty)) & bits(F::splat(0) <= hit.t);
  hit.unsure |= ~(valid & rel.moving & bits(valid_point(rel.wx, rel.wy)) & local);
  hit.t = hit.t * h;
  return hit;
}

/// Two capsules: time_to_collision()'s checks, then the pair in A's frame (PairInA) and the ray
/// from the origin along B's relative motion against their Minkowski difference
/// (cast/minkowski.hpp build_difference(): for two segments, the edges alternate between A and
/// -B, A's or -B's first by the sign of one cross product) grown by both radii.
template <class F>
PEBBLE_HOT_INLINE RayLanes<F> capsules_ttc(const BatchBody* const* ba, const BatchBody* const* bb, F h) {
  const F zero = F::splat(0);
  const Moving<F> ma = moving_lanes<F>(ba), mb = moving_lanes<F>(bb);
  const unsigned valid = bits(valid_approach(ma, mb, h));
  const Relative<F> rel = relative_lanes(ma, mb, h);
  const SegmentLanes<F> a = segment_lanes<F>(ba), b = segment_lanes<F>(bb);
  // B in A's frame.
  const F qc = ma.qc * mb.qc + ma.qs * mb.qs, qs = ma.qc * mb.qs - ma.qs * mb.qc;
  const F ex = mb.px - ma.px, ey = mb.py - ma.py;
  const F px = ma.qc * ex + ma.qs * ey, py = neg(ma.qs) * ex + ma.qc * ey;
  const F b0x = (qc * b.x0 - qs * b.y0) + px, b0y = (qs * b.x0 + qc * b.y0) + py;
  const F b1x = (qc * b.x1 - qs * b.y1) + px, b1y = (qs * b.x1 + qc * b.y1) + py;
  const F m0x = qc * b.nx0 - qs * b.ny0, m0y = qs * b.nx0 + qc * b.ny0;
  const F m1x = qc * b.nx1 - qs * b.ny1, m1y = qs * b.nx1 + qc * b.ny1;
  // first_vertex(): the edge whose direction (-ny, nx) lies in the upper half plane [0, pi), for
  // A; for -B the direction (ny, -nx). i_1, j_1: the first edge is edge 1. Each core's two
  // halves must differ, as they do for a segment's opposite normals (else unsure).
  const auto i_1 = (a.nx0 < zero) | ((a.nx0 == zero) & (zero < a.ny0));
  const auto j_1 = (zero < m0x) | ((m0x == zero) & (m0y < zero));
  const unsigned halves = (bits(i_1) ^ bits((a.nx1 < zero) | ((a.nx1 == zero) & (zero < a.ny1)))) &
                          (bits(j_1) ^ bits((zero < m1x) | ((m1x == zero) & (m1y < zero))));
  // A's edge i and the next (i2), -B's edge j and the next (j2).
  const F aix = select(i_1, a.x1, a.x0), aiy = select(i_1, a.y1, a.y0), ai2x = select(i_1, a.x0, a.x1), ai2y = select(i_1, a.y0, a.y1);
  const F nix = select(i_1, a.nx1, a.nx0), niy = select(i_1, a.ny1, a.ny0), ni2x = select(i_1, a.nx0, a.nx1),
          ni2y = select(i_1, a.ny0, a.ny1);
  const F bjx = select(j_1, b1x, b0x), bjy = select(j_1, b1y, b0y), bj2x = select(j_1, b0x, b1x), bj2y = select(j_1, b0y, b1y);
  const F mjx = select(j_1, m1x, m0x), mjy = select(j_1, m1y, m0y), mj2x = select(j_1, m0x, m1x), mj2y = select(j_1, m0y, m1y);
  // The merge's first step compares A's edge i with -B's edge j; its third, edges i2 and j2, must
  // agree (the directions are the first ones reversed), and neither may tie (parallel cores merge
  // edges: a difference of 2 or 3 vertices, unsure).
  const F cr = neg(niy) * neg(mjx) - nix * mjy, cr3 = neg(ni2y) * neg(mj2x) - ni2x * mj2y;
  const auto a_first = zero < cr;
  const unsigned order = bits(a_first & (zero < cr3)) | bits((cr < zero) & (cr3 < zero));
  QuadLanes<F> d;
  d.x[0] = aix - bjx, d.y[0] = aiy - bjy;
  d.x[1] = select(a_first, ai2x - bjx, aix - bj2x), d.y[1] = select(a_first, ai2y - bjy, aiy - bj2y);
  d.x[2] = ai2x - bj2x, d.y[2] = ai2y - bj2y;
  d.x[3] = select(a_first, aix - bj2x, ai2x - bjx), d.y[3] = select(a_first, aiy - bj2y, ai2y - bjy);
  d.nx[0] = select(a_first, nix, neg(mjx)), d.ny[0] = select(a_first, niy, neg(mjy));
  d.nx[1] = select(a_first, neg(mjx), nix), d.ny[1] = select(a_first, neg(mjy), niy);
  d.nx[2] = select(a_first, ni2x, neg(mj2x)), d.ny[2] = select(a_first, ni2y, neg(mj2y));
  d.nx[3] = select(a_first, neg(mj2x), ni2x), d.ny[3] = select(a_first, neg(mj2y), ni2y);
  for (int k = 0; k < 4; ++k) d.off[k] = d.nx[k] * d.x[k] + d.ny[k] * d.y[k];
  RayLanes<F> hit = quad_lanes(d, a.r + b.r, zero, zero, rel.dx, rel.dy);
  hit.unsure |= ~(valid & rel.moving & halves & order);
  hit.t = hit.t * h;
  return hit;
}

/// Pair i's two bodies, for either form of a batch call.
struct Pairs {
  const BatchBody* a;
  const BatchPair* pairs;
  const BatchBody* others;
  const BatchBody& first(std::size_t i) const { return a != nullptr ? *a : pairs[i].a; }
  const BatchBody& second(std::size_t i) const { return a != nullptr ? others[i] : pairs[i].b; }
};

/// No runs: grouped()'s default (every pair goes through the groups).
struct NoRuns {
  std::size_t operator()(std::size_t) const { return 0; }
};

/// Walks the pairs in order: a pair that `group` puts in one of Groups lane groups joins it, and
/// `lanes` answers a group whenever it is full (and once at the end, padded with its last pair);
/// any other pair (group -1) is answered at once by `one`. lanes(g, a, b, index, count) gets
/// kWidth body pointers per side.
/// run(i), for i + kWidth <= n, may answer the kWidth pairs from i at once and return kWidth, or
/// return r < kWidth: pair i + r cannot be in such a run, and run() is asked again after it.
template <int Groups, class Group, class Lanes, class One, class Run = NoRuns>
PEBBLE_HOT_INLINE void grouped(const Pairs& p, std::size_t n, Group group, Lanes lanes, One one, Run run = {}) {
  // Group 0 (two discs, the common pair) keeps its count in a register; the others index theirs.
  const BatchBody* ga0[kWidth];
  const BatchBody* gb0[kWidth];
  std::size_t index0[kWidth];
  int k0 = 0;
  constexpr int kOthers = Groups > 1 ? Groups - 1 : 1;
  const BatchBody* ga[kOthers][kWidth];
  const BatchBody* gb[kOthers][kWidth];
  std::size_t index[kOthers][kWidth];
  int k[kOthers] = {};
  // After a run fails, the next try waits kWidth more pairs each time, up to 64 runs' worth (a
  // mixed crowd's pairs are rarely kWidth discs in a row, and each failed try costs a mispredicted
  // branch); a run that holds resets the wait.
  std::size_t next_run = std::is_same_v<Run, NoRuns> ? n : 0, wait = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= next_run && n - i >= std::size_t(kWidth)) {
      const std::size_t r = run(i);
      if (r == std::size_t(kWidth)) {
        i += std::size_t(kWidth) - 1;
        wait = 0;
        continue;
      }
      wait = wait < 64 * std::size_t(kWidth) ? wait + std::size_t(kWidth) : wait;
      next_run = i + r + 1 + wait;
    }
    const BatchBody& a = p.first(i);
    const BatchBody& b = p.second(i);
    const int g = a.shape != nullptr && b.shape != nullptr ? group(a.shape->vertex_count(), b.shape->vertex_count()) : -1;
    if (g == 0) {
      ga0[k0] = &a, gb0[k0] = &b, index0[k0] = i;
      if (++k0 == kWidth) {
        lanes(0, ga0, gb0, index0, kWidth);
        k0 = 0;
      }
    } else if (g > 0) {
      const int o = g - 1;
      ga[o][k[o]] = &a, gb[o][k[o]] = &b, index[o][k[o]] = i;
      if (++k[o] == kWidth) {
        lanes(g, ga[o], gb[o], index[o], kWidth);
        k[o] = 0;
      }
    } else {
      one(i, a, b);
    }
  }
  const auto finish = [&](int g, const BatchBody** fa, const BatchBody** fb, std::size_t* fi, int m) {
    if (m == 0) return;
    for (int j = m; j < kWidth; ++j) fa[j] = fa[m - 1], fb[j] = fb[m - 1], fi[j] = fi[m - 1];
    lanes(g, fa, fb, fi, m);
  };
  finish(0, ga0, gb0, index0, k0);
  for (int g = 1; g < Groups; ++g) finish(g, ga[g - 1], gb[g - 1], index[g - 1], k[g - 1]);
}

/// The one group of the disc lanes: two discs.
constexpr auto kDiscPairs = [](int na, int nb) { return na == 1 && nb == 1 ? 0 : -1; };

/// Lane j of a Wide value.
struct Unpacked {
  alignas(32) float v[kWidth];
  explicit Unpacked(Wide x) { store(v, x); }
  float operator[](int j) const { return v[j]; }
};

void approach_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, float horizon,
                    Approach* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] = x.shape != nullptr && y.shape != nullptr ? pebble::closest_approach(*x.shape, x.transform, x.velocity, *y.shape, y.transform, y.velocity, horizon)
                                                      : kNoApproach;
  };
  const auto lanes = [&](int, const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index, int count) {
    const DiscApproach<Wide> r = disc_approach(side_a(a, ga), gather<Wide>(gb), Wide::splat(horizon));
    const unsigned good = bits(r.m.valid & r.d.ok), hit = bits(r.m.hit);
    const Unpacked time(r.m.time), dist(r.d.distance), pax(r.d.pax), pay(r.d.pay), pbx(r.d.pbx), pby(r.d.pby), nx(r.d.nx), ny(r.d.ny);
    for (int j = 0; j < count; ++j) {
      if ((good >> j & 1) != 0) {
        out[index[j]] = {(hit >> j & 1) != 0, time[j], dist[j], {pax[j], pay[j]}, {pbx[j], pby[j]}, {nx[j], ny[j]}};
      } else {
        one(index[j], *ga[j], *gb[j]);
      }
    }
  };
  grouped<1>({a, pairs, others}, n, kDiscPairs, lanes, one);
  leave_lanes();
}

/// time_to_collision()'s lane groups, by the vertex counts of the two cores: two discs; a disc
/// (either side) and a capsule or a 4-vertex core; two capsules.
enum TtcGroup : int { kTtcDiscs, kTtcDiscCapsule, kTtcCapsuleDisc, kTtcDiscQuad, kTtcQuadDisc, kTtcCapsules, kTtcGroups };

/// (The plain C++ copy, whose lanes are loops over four floats, answers the capsule and 4-vertex
/// groups a third slower than the one-at-a-time queries (bench/batch_bench.cpp): it keeps to the
/// disc pairs.)
constexpr auto ttc_group = [](int na, int nb) {
  if (kLanePath == SimdPath::scalar) return na == 1 && nb == 1 ? kTtcDiscs : -1;
  if (na == 1) return nb == 1 ? kTtcDiscs : nb == 2 ? kTtcDiscCapsule : nb == 4 ? kTtcDiscQuad : -1;
  if (nb == 1) return na == 2 ? kTtcCapsuleDisc : na == 4 ? kTtcQuadDisc : -1;
  return na == 2 && nb == 2 ? kTtcCapsules : -1;
};

void time_to_collision_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, float horizon,
                             float* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] = x.shape != nullptr && y.shape != nullptr
                 ? pebble::time_to_collision(*x.shape, x.transform, x.velocity, *y.shape, y.transform, y.velocity, horizon)
                 : kNoCollision;
  };
  const auto lanes = [&](int g, const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index, int count) {
    const Wide h = Wide::splat(horizon);
    unsigned hit = 0, unsure = 0;
    Wide t;
    if (g == kTtcDiscs) {
      const DiscMotion<Wide> m = disc_motion(side_a(a, ga), gather<Wide>(gb), h);
      t = m.touch;
      hit = ~0u;
      unsure = ~bits(m.valid);
    } else {
      RayLanes<Wide> r;
      switch (g) {
        case kTtcDiscCapsule: r = disc_core_ttc<2>(ga, gb, true, h); break;
        case kTtcCapsuleDisc: r = disc_core_ttc<2>(gb, ga, false, h); break;
        case kTtcDiscQuad: r = disc_core_ttc<4>(ga, gb, true, h); break;
        case kTtcQuadDisc: r = disc_core_ttc<4>(gb, ga, false, h); break;
        default: r = capsules_ttc(ga, gb, h); break;
      }
      t = r.t;
      hit = r.hit;
      unsure = r.unsure;
    }
    const Unpacked touch(t);
    for (int j = 0; j < count; ++j) {
      if ((unsure >> j & 1) == 0) {
        out[index[j]] = (hit >> j & 1) != 0 ? touch[j] : kNoCollision;
      } else {
        one(index[j], *ga[j], *gb[j]);
      }
    }
  };
  grouped<kTtcGroups>({a, pairs, others}, n, ttc_group, lanes, one);
  leave_lanes();
}


/// The disc pairs' distance() lanes: circle_pair() at the given positions, and whether it holds
/// (valid transforms, centres not nearly coincident).
template <class F>
PEBBLE_HOT_INLINE DiscDistance<F> disc_distance_now(const Disc<F>& a, const Disc<F>& b) {
  const Centres<F> c = centres(a, b);
  DiscDistance<F> d = disc_distance(a.r, b.r, c.cax, c.cay, c.cbx, c.cby, c.px, c.py);
  d.ok = d.ok & valid_transform(a) & valid_transform(b);
  return d;
}

/// distance() of two capsules (2-vertex cores) in lanes: distance_generic() (contact/distance.cpp)
/// with query_segments() and closest_features_on() (contact/core.hpp), operation for operation, for
/// cores apart by the axes (greatest separation >= 0): the face contact, or the segment pair
/// (closest_segments()) with its choice of normal. Overlapping or nearly touching cores (separation
/// below 0, where the scalar path has its overlap depth and corner doubts), crossing segments, a
/// witness inside the incident edge within kWitnessNormalFraction, and invalid input are unsure.
template <class F>
struct DistanceLanes {
  F distance, nx, ny, pax, pay, pbx, pby;
  unsigned unsure;
};

/// One of two 2D points by a mask, and the operations closest_features_on() does on them.
template <class F>
struct P2 {
  F x, y;
};
template <class F, class M>
PEBBLE_HOT_INLINE P2<F> pick(M m, P2<F> a, P2<F> b) {
  return {select(m, a.x, b.x), select(m, a.y, b.y)};
}
template <class F>
PEBBLE_HOT_INLINE P2<F> operator-(P2<F> a, P2<F> b) {
  return {a.x - b.x, a.y - b.y};
}
template <class F>
PEBBLE_HOT_INLINE F dot2(P2<F> a, P2<F> b) {
  return a.x * b.x + a.y * b.y;
}
template <class F>
PEBBLE_HOT_INLINE F cross2(P2<F> a, P2<F> b) {
  return a.x * b.y - a.y * b.x;
}
template <class F>
PEBBLE_HOT_INLINE P2<F> neg2(P2<F> a) {
  return {neg(a.x), neg(a.y)};
}

/// pair_scale() (contact/core.hpp), lane by lane: std::max(std::min(a's extent, b's), kMinPairScale).
template <class F>
PEBBLE_HOT_INLINE F pair_scale_lanes(const BatchBody* const* a, const BatchBody* const* b) {
  const F ea = shape_lanes<F>(a, [](const Shape& sh) { return sh.extent(); });
  const F eb = shape_lanes<F>(b, [](const Shape& sh) { return sh.extent(); });
  const F least = select(eb < ea, eb, ea), floor = F::splat(kMinPairScale);
  return select(least < floor, floor, least);
}

template <class F>
PEBBLE_HOT_INLINE DistanceLanes<F> capsules_distance(const BatchBody* const* ba, const BatchBody* const* bb) {
  const F zero = F::splat(0), one = F::splat(1), huge = F::splat(kHugeDistance);
  const Moving<F> ma = moving_lanes<F>(ba), mb = moving_lanes<F>(bb);
  unsigned unsure = ~bits(valid_transform(ma) & valid_transform(mb));
  const SegmentLanes<F> a = segment_lanes<F>(ba), b = segment_lanes<F>(bb);
  F aoff[4], boff[4];
  shape_columns(ba, [](const Shape& sh) { return sh.offset_lanes(); }, aoff);
  shape_columns(bb, [](const Shape& sh) { return sh.offset_lanes(); }, boff);
  const F scale = pair_scale_lanes<F>(ba, bb);
  // frame_core(b, inv_mul(xa, xb)).
  const F ex = mb.px - ma.px, ey = mb.py - ma.py;
  const F px = ma.qc * ex + ma.qs * ey, py = neg(ma.qs) * ex + ma.qc * ey;
  const F c = ma.qc * mb.qc + ma.qs * mb.qs, sn = ma.qc * mb.qs - ma.qs * mb.qc;
  const P2<F> A0{a.x0, a.y0}, A1{a.x1, a.y1}, NA0{a.nx0, a.ny0}, NA1{a.nx1, a.ny1};
  const P2<F> B0{(c * b.x0 + neg(sn) * b.y0) + px, (c * b.y0 + sn * b.x0) + py};
  const P2<F> B1{(c * b.x1 + neg(sn) * b.y1) + px, (c * b.y1 + sn * b.x1) + py};
  const P2<F> NB0{c * b.nx0 - sn * b.ny0, sn * b.nx0 + c * b.ny0}, NB1{c * b.nx1 - sn * b.ny1, sn * b.nx1 + c * b.ny1};
  const F boff0 = boff[0] + (NB0.x * px + NB0.y * py), boff1 = boff[1] + (NB1.x * px + NB1.y * py);
  // query_segments(): each core's two planes against the other's two vertices.
  const auto lane = [](P2<F> n, F off, P2<F> v0, P2<F> v1) {
    const F p0 = n.x * v0.x + n.y * v0.y, p1 = n.x * v1.x + n.y * v1.y;
    return select(p0 < p1, p0, p1) - off;
  };
  const F sa0 = lane(NA0, aoff[0], B0, B1), sa1 = lane(NA1, aoff[1], B0, B1);
  const F sb0 = lane(NB0, boff0, A0, A1), sb1 = lane(NB1, boff1, A0, A1);
  const F sa = select(sa0 > sa1, sa0, sa1), sb = select(sb0 > sb1, sb0, sb1);
  unsure |= ~bits((sa > F::splat(-kHugeDistance)) & (sb > F::splat(-kHugeDistance)));
  const auto a_edge1 = sa0 < sa, b_edge1 = sb0 < sb;  // the lower edge holds the maximum when equal
  // prefer_b(), both cores having edges.
  const P2<F> na = pick(a_edge1, NA1, NA0), nb = pick(b_edge1, NB1, NB0);
  // (Not kept for a near tie of nearly parallel faces: the dot not below 0, or the cross beyond
  // kParallelFaceSine; NaN normals give NaN separations, unsure above.)
  const auto not_parallel = (zero <= dot2(na, nb)) | (F::splat(kParallelFaceSine) < abs(cross2(na, nb)));
  const auto use_b = (sb > sa + F::splat(kAxisPreference) * scale) & ((sb > sa + F::splat(kParallelFacePreference) * scale) | not_parallel);
  const F sep = select(sa < sb, sb, sa);
  unsure |= bits(sep < zero);
  // The reference edge (ref_edge of ref) and the incident one (inc_edge of inc).
  const P2<F> n = pick(use_b, nb, na);
  const P2<F> R0 = pick(use_b, B0, A0), R1 = pick(use_b, B1, A1), I0 = pick(use_b, A0, B0), I1 = pick(use_b, A1, B1);
  const P2<F> IN0 = pick(use_b, NA0, NB0), IN1 = pick(use_b, NA1, NB1);
  const auto ref_edge1 = select(use_b, select(b_edge1, one, zero), select(a_edge1, one, zero)) == one;
  const auto inc_edge1 = (IN1.x * n.x + IN1.y * n.y) < (IN0.x * n.x + IN0.y * n.y);
  const P2<F> r1 = pick(ref_edge1, R1, R0), r2 = pick(ref_edge1, R0, R1), i1 = pick(inc_edge1, I1, I0), i2 = pick(inc_edge1, I0, I1);
  const P2<F> inc_normal = pick(inc_edge1, IN1, IN0);
  // The face contact: the incident edge's deeper end over the inside of the reference edge.
  const P2<F> t{neg(n.y), n.x};
  const auto w_is_i1 = dot2(n, i1) <= dot2(n, i2);
  const P2<F> w = pick(w_is_i1, i1, i2);
  const F len = dot2(r2 - r1, t), u = dot2(w - r1, t);
  const auto face = (zero < u) & (u < len);
  const P2<F> on_ref{w.x - sep * n.x, w.y - sep * n.y};
  // closest_segments(r1, r2, i1, i2).
  const P2<F> d1 = r2 - r1, d2 = i2 - i1;
  const F aa = dot2(d1, d1), ee = dot2(d2, d2);
  const F o1 = cross2(d1, i1 - r1), o2 = cross2(d1, i2 - r1), o3 = cross2(d2, r1 - i1), o4 = cross2(d2, r2 - i1);
  const unsigned crossing = bits(((o1 < zero) & (zero < o2)) | ((zero < o1) & (o2 < zero))) &
                            bits(((o3 < zero) & (zero < o4)) | ((zero < o3) & (o4 < zero)));
  const F inv_e = select(zero < ee, one / ee, zero), inv_a = select(zero < aa, one / aa, zero);
  const auto clamp01 = [&](F x) { return select(x < zero, zero, select(x > one, one, x)); };
  F bs = zero, bt = zero, best = huge;
  P2<F> c1 = r1, c2 = i1;
  const auto consider = [&](F s, F tt) {
    const P2<F> k1{r1.x + s * d1.x, r1.y + s * d1.y}, k2{i1.x + tt * d2.x, i1.y + tt * d2.y};
    const P2<F> dd = k2 - k1;
    const F d = dd.x * dd.x + dd.y * dd.y;
    const auto better = d < best;
    bs = select(better, s, bs), bt = select(better, tt, bt), best = select(better, d, best);
    c1 = pick(better, k1, c1), c2 = pick(better, k2, c2);
  };
  consider(zero, clamp01(dot2(r1 - i1, d2) * inv_e));
  consider(one, clamp01(dot2(r2 - i1, d2) * inv_e));
  consider(clamp01(dot2(i1 - r1, d1) * inv_a), zero);
  consider(clamp01(dot2(i2 - r1, d1) * inv_a), one);
  const F dist = sqrt_lanes(best);
  const auto off_ref = (bs <= zero) | (one <= bs), in_inc = (zero < bt) & (bt < one), off_inc = (bt <= zero) | (one <= bt);
  const F witness = F::splat(kWitnessNormalFraction) * scale;
  const unsigned face_bits = bits(face);
  unsure |= ~face_bits & (crossing | (bits(off_ref & in_inc) & bits(dist <= witness)));
  P2<F> nn = pick(off_ref & in_inc, neg2(inc_normal), n);
  nn = pick(off_ref & off_inc & (dist > witness), P2<F>{(c2.x - c1.x) / dist, (c2.y - c1.y) / dist}, nn);
  // Either answer, flipped back to A to B.
  const P2<F> normal = pick(face, n, nn);
  const P2<F> na_b = pick(use_b, neg2(normal), normal);
  const P2<F> near_ref = pick(face, on_ref, c1), near_inc = pick(face, w, c2);
  const P2<F> pa = pick(use_b, near_inc, near_ref), pb = pick(use_b, near_ref, near_inc);
  const F d = select(face, sep, dist);
  // to_world().
  const P2<F> qa{pa.x + a.r * na_b.x, pa.y + a.r * na_b.y}, qb{pb.x - b.r * na_b.x, pb.y - b.r * na_b.y};
  const F qc = ma.qc, qs = ma.qs;
  return {(d - a.r) - b.r,
          qc * na_b.x - qs * na_b.y,
          qs * na_b.x + qc * na_b.y,
          (qc * qa.x - qs * qa.y) + ma.px,
          (qs * qa.x + qc * qa.y) + ma.py,
          (qc * qb.x - qs * qb.y) + ma.px,
          (qs * qb.x + qc * qb.y) + ma.py,
          unsure};
}

/// distance() of a disc (or point) and a capsule (Core = 2) or a 4-vertex core in lanes:
/// distance_point() (contact/distance.cpp) with point_pair() and point_to_core() (contact/core.hpp),
/// operation for operation: the core's planes turned into world axes, the greatest separation by
/// first_max_lane()'s tree (the lowest edge on ties), then inside the core (4 vertices only), over
/// the edge, or at its nearer end. Invalid input and separations that are not numbers are unsure.
template <int Core, class F>
PEBBLE_HOT_INLINE DistanceLanes<F> disc_core_distance(const BatchBody* const* disc, const BatchBody* const* core, bool disc_is_a) {
  const F zero = F::splat(0);
  const Disc<F> p = gather<F>(disc);
  const Moving<F> mc = moving_lanes<F>(core);
  unsigned unsure = ~bits(valid_transform(p) & valid_transform(mc));
  QuadLanes<F> g;  // the core's first Core vertices, normals and offsets (its own frame)
  F core_r;
  if constexpr (Core == 2) {
    const SegmentLanes<F> sg = segment_lanes<F>(core);
    F off[4];
    shape_columns(core, [](const Shape& sh) { return sh.offset_lanes(); }, off);
    g.x[0] = sg.x0, g.y[0] = sg.y0, g.x[1] = sg.x1, g.y[1] = sg.y1, g.nx[0] = sg.nx0, g.ny[0] = sg.ny0, g.nx[1] = sg.nx1, g.ny[1] = sg.ny1;
    g.off[0] = off[0], g.off[1] = off[1];
    core_r = sg.r;
  } else {
    g = quad_core_lanes<F>(core, core_r);
  }
  const F scale = disc_is_a ? pair_scale_lanes<F>(disc, core) : pair_scale_lanes<F>(core, disc);
  // point_pair(): the point's vertex in world, and relative to the core's position.
  const F vx = p.qc * p.lx - p.qs * p.ly, vy = p.qs * p.lx + p.qc * p.ly;
  const F wx = vx + p.px, wy = vy + p.py;
  const F dx = (p.px - mc.px) + vx, dy = (p.py - mc.py) + vy;
  // point_axis_lanes(): the turned normals and the separations.
  const F c = mc.qc, s = mc.qs;
  F nx[Core], ny[Core], sp[Core];
  for (int k = 0; k < Core; ++k) {
    nx[k] = c * g.nx[k] - s * g.ny[k], ny[k] = s * g.nx[k] + c * g.ny[k];
    sp[k] = (nx[k] * dx + ny[k] * dy) - g.off[k];
    unsure |= ~bits(sp[k] == sp[k]);
  }
  // first_max_lane(): max(max(s0, s1), max(s2, s3)), each max a > b ? a : b (a segment's lanes 2
  // and 3 are -huge), then the lowest edge holding it.
  const F m01 = select(sp[0] > sp[1], sp[0], sp[1]);
  F sep = m01, edge = select(sp[0] == sep, zero, F::splat(1));
  if constexpr (Core == 4) {
    const F m23 = select(sp[2] > sp[3], sp[2], sp[3]);
    sep = select(m01 > m23, m01, m23);
    edge = select(sp[0] == sep, zero, select(sp[1] == sep, F::splat(1), select(sp[2] == sep, F::splat(2), F::splat(3))));
  }
  // Lane values of edge `k` (0..Core-1, as floats) from per-edge arrays.
  const auto pick = [&](F k, const F* v) {
    if constexpr (Core == 2) {
      return select(k == zero, v[0], v[1]);
    } else {
      return pick4(k, v);
    }
  };
  const F next = select(edge == F::splat(float(Core - 1)), zero, edge + F::splat(1));
  const F nex = pick(edge, nx), ney = pick(edge, ny);
  const F along = nex * dy - ney * dx;
  // t = left_perp(the edge's own normal); u along it from the edge's start and from its end.
  const F tx = neg(pick(edge, g.ny)), ty = pick(edge, g.nx);
  const F u_start = along - (tx * pick(edge, g.x) + ty * pick(edge, g.y)), u_end = along - (tx * pick(next, g.x) + ty * pick(next, g.y));
  unsure |= ~bits(u_start == u_start);
  const auto over = (zero < u_start) & (u_end < zero);
  const auto at_start = u_start <= zero;  // !(u_start > 0) for numbers
  const F u = select(at_start, u_start, u_end);
  const F dist = sqrt_lanes(sep * sep + u * u);
  const auto radial = dist > F::splat(kWitnessNormalFraction) * scale;
  const F rx = select(radial, (sep * nex + u * neg(ney)) / dist, nex), ry = select(radial, (sep * ney + u * nex) / dist, ney);
  F r_distance = select(over, select(sep < zero, zero, sep), dist);
  F ux = select(over, nex, rx), uy = select(over, ney, ry);
  if constexpr (Core == 4) {
    // Inside the core: below every plane and over the greatest separation's edge, widened by the depth.
    const auto inside = (sep < F::splat(-kOverlapFraction) * scale) & (sep < u_start) & (u_end < zero - sep);
    r_distance = select(inside, sep, r_distance), ux = select(inside, nex, ux), uy = select(inside, ney, uy);
  }
  // distance_point_body(): the surface points, the radii, and the direction from A to B.
  const F point_r = p.r;
  const F ocx = wx - (r_distance - core_r) * ux, ocy = wy - (r_distance - core_r) * uy;
  const F opx = wx - point_r * ux, opy = wy - point_r * uy;
  const F ra = disc_is_a ? point_r : core_r, rb = disc_is_a ? core_r : point_r;
  const F d = (r_distance - ra) - rb;
  if (disc_is_a) return {d, neg(ux), neg(uy), opx, opy, ocx, ocy, unsure};
  return {d, ux, uy, ocx, ocy, opx, opy, unsure};
}

/// distance()'s lane groups: two discs; two capsules; a disc and a capsule, and a disc and a
/// 4-vertex core, either way round (the plain C++ copy keeps to the discs, as for
/// time_to_collision).
constexpr auto distance_group = [](int na, int nb) {
  if (na == 1 && nb == 1) return 0;
  if (kLanePath == SimdPath::scalar) return -1;
  if (na == 2 && nb == 2) return 1;
  if (na == 1) return nb == 2 ? 2 : nb == 4 ? 4 : -1;
  if (nb == 1) return na == 2 ? 3 : na == 4 ? 5 : -1;
  return -1;
};

/// The groups of distance() other than two discs, out of line (inlined, they cost the disc group's
/// loop a few percent more).
[[gnu::noinline]] DistanceLanes<Wide> core_distance_lanes(int g, const BatchBody* const* ga, const BatchBody* const* gb) {
  switch (g) {
    case 1: return capsules_distance<Wide>(ga, gb);
    case 2: return disc_core_distance<2, Wide>(ga, gb, true);
    case 3: return disc_core_distance<2, Wide>(gb, ga, false);
    case 4: return disc_core_distance<4, Wide>(ga, gb, true);
    default: return disc_core_distance<4, Wide>(gb, ga, false);
  }
}

/// (The run of disc pairs' reading and writing: with SSE2, AVX2 or NEON each transform and vertex
/// by one load per lane and a transpose, with SSE2 and AVX2 the records by transposed stores; the
/// plain C++ copy reads and writes them lane by lane.)
#if PEBBLE_SSE || PEBBLE_NEON
/// The radii of kWidth shapes.
template <class F>
PEBBLE_HOT_INLINE F radius_lanes(const Shape* const* s) {
  if constexpr (sizeof(F) == 8 * sizeof(float)) {
    return F::lanes(s[0]->radius(), s[1]->radius(), s[2]->radius(), s[3]->radius(), s[4]->radius(), s[5]->radius(), s[6]->radius(),
                    s[7]->radius());
  } else {
    return F::lanes(s[0]->radius(), s[1]->radius(), s[2]->radius(), s[3]->radius());
  }
}

/// A disc's lanes as distance() reads them (no velocity), for kWidth bodies Stride records apart
/// from `body`: each transform's four floats by one 16-byte load and a
/// transpose (columns_of_4), the core's vertex 0 likewise, the radius by lanes.
template <std::size_t Stride>
PEBBLE_HOT_INLINE Disc<Wide> disc_at_rest(const BatchBody* body) {
  Wide t[4], v[4];
  const float* rows[kWidth];
  const Shape* shape[kWidth];
  for (int j = 0; j < kWidth; ++j) rows[j] = &body[std::size_t(j) * Stride].transform.p.x, shape[j] = body[std::size_t(j) * Stride].shape;
  columns_of_4(rows, t);
  for (int j = 0; j < kWidth; ++j) rows[j] = vertex_floats(*shape[j]);
  columns_of_4(rows, v);
  const Wide r = radius_lanes<Wide>(shape), zero = Wide::splat(0);
  return {t[0], t[1], t[2], t[3], v[0], v[1], r, zero, zero};
}
#else
template <std::size_t Stride>
PEBBLE_HOT_INLINE Disc<Wide> disc_at_rest(const BatchBody* body) {
  const BatchBody* b[kWidth];
  for (int j = 0; j < kWidth; ++j) b[j] = &body[std::size_t(j) * Stride];
  return gather<Wide>(b);
}
#endif

/// Lanes 0..kWidth-1 of the seven fields into out[0..kWidth-1], the records' 28 bytes in order:
/// the lanes transposed into rows, each record written as two 16-byte stores whose last float
/// spills into the next record's first (written after it), the last record's 12 bytes exactly.
static_assert(sizeof(DistanceResult) == 7 * sizeof(float) && offsetof(DistanceResult, normal) == 4 &&
                  offsetof(DistanceResult, point_a) == 12 && offsetof(DistanceResult, point_b) == 20,
              "a DistanceResult is distance, normal, point_a, point_b: seven floats");
PEBBLE_HOT_INLINE void store_results(DistanceResult* out, const DiscDistance<Wide>& d) {
#if !PEBBLE_SSE
  const Unpacked dist(d.distance), nx(d.nx), ny(d.ny), pax(d.pax), pay(d.pay), pbx(d.pbx), pby(d.pby);
  for (int j = 0; j < kWidth; ++j) out[j] = {dist[j], {nx[j], ny[j]}, {pax[j], pay[j]}, {pbx[j], pby[j]}};
#else
  store_records7(reinterpret_cast<float*>(out), d.distance, d.nx, d.ny, d.pax, d.pay, d.pbx, d.pby);
#endif
}

/// A run's lanes and records: the lanes that the single query must answer again. (Out of line:
/// inlined into the grouping loop, it cost a mixed crowd's groups a fifth more time, measured.)
template <bool kOne>
[[gnu::noinline]] unsigned disc_run(const Disc<Wide>& fixed, const BatchBody* ba, const BatchBody* bb, DistanceResult* out) {
  const DiscDistance<Wide> d =
      kOne ? disc_distance_now(fixed, disc_at_rest<1>(bb)) : disc_distance_now(disc_at_rest<2>(ba), disc_at_rest<2>(bb));
  store_results(out, d);
  return ~bits(d.ok) & ((1u << kWidth) - 1);
}

void distance_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, DistanceResult* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] = x.shape != nullptr && y.shape != nullptr ? pebble::distance(*x.shape, x.transform, *y.shape, y.transform) : kNoDistance;
  };
  // The two branches write their lanes alike but each from its own values: one loop fed by both
  // (an array of the seven fields, or the fields by value) cost the disc group 15% (AVX2) to 40%
  // (SSE2), measured.
  const auto lanes = [&](int g, const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index, int count) {
    if (g == 0) {
      const DiscDistance<Wide> d = disc_distance_now(side_a(a, ga), gather<Wide>(gb));
      const unsigned good = bits(d.ok);
      const Unpacked dist(d.distance), pax(d.pax), pay(d.pay), pbx(d.pbx), pby(d.pby), nx(d.nx), ny(d.ny);
      for (int j = 0; j < count; ++j) {
        if ((good >> j & 1) != 0) {
          out[index[j]] = {dist[j], {nx[j], ny[j]}, {pax[j], pay[j]}, {pbx[j], pby[j]}};
        } else {
          one(index[j], *ga[j], *gb[j]);
        }
      }
      return;
    }
    const DistanceLanes<Wide> d = core_distance_lanes(g, ga, gb);
    const unsigned unsure = d.unsure;
    const Unpacked dist(d.distance), pax(d.pax), pay(d.pay), pbx(d.pbx), pby(d.pby), nx(d.nx), ny(d.ny);
    for (int j = 0; j < count; ++j) {
      if ((unsure >> j & 1) == 0) {
        out[index[j]] = {dist[j], {nx[j], ny[j]}, {pax[j], pay[j]}, {pbx[j], pby[j]}};
      } else {
        one(index[j], *ga[j], *gb[j]);
      }
    }
  };
  // A run of kWidth consecutive pairs of two discs (every pair of an all-disc crowd) skips the
  // groups: its bodies are read in place and its results written in order, kWidth records at once
  // (store_results()). The same lanes as the disc group's, so the same bits.
  const Pairs p{a, pairs, others};
  // kOne: the one-against-many form, its A (a disc) broadcast; else pairs[i + j].a and .b, two
  // records apart.
  const auto run = [&](auto one_form, const Disc<Wide>& fixed, std::size_t i) -> std::size_t {
    constexpr bool kOne = decltype(one_form)::value;
    constexpr std::size_t kStride = kOne ? 1 : 2;
    const BatchBody* ba = kOne ? a : &pairs[i].a;
    const BatchBody* bb = kOne ? &others[i] : &pairs[i].b;
    // Every shape present and of one vertex (a core has 1 to 8, so the counts' bits together are
    // 1 only when all are).
    int counts = 0;
    for (int j = 0; j < kWidth; ++j) {
      const Shape* y = bb[kStride * std::size_t(j)].shape;
      if constexpr (kOne) {
        if (y == nullptr) return std::size_t(j);
        counts |= y->vertex_count();
      } else {
        const Shape* x = ba[2 * std::size_t(j)].shape;
        if (x == nullptr || y == nullptr) return std::size_t(j);
        counts |= x->vertex_count() | y->vertex_count();
      }
    }
    if (counts != 1) {
      for (std::size_t j = 0;; ++j) {
        if (p.first(i + j).shape->vertex_count() != 1 || p.second(i + j).shape->vertex_count() != 1) return j;
      }
    }
    for (unsigned redo = disc_run<kOne>(fixed, ba, bb, out + i); redo != 0; redo &= redo - 1) {
      const std::size_t j = std::size_t(first_set_lane(redo));
      one(i + j, p.first(i + j), p.second(i + j));
    }
    return std::size_t(kWidth);
  };
  if (a == nullptr) {
    const Disc<Wide> unused{};  // (made once: disc_run() takes it by reference)
    grouped<6>(p, n, distance_group, lanes, one, [&](std::size_t i) { return run(std::false_type{}, unused, i); });
  } else if (a->shape != nullptr && a->shape->vertex_count() == 1) {
    const Disc<Wide> fixed = side_a(a, nullptr);
    grouped<6>(p, n, distance_group, lanes, one, [&](std::size_t i) { return run(std::true_type{}, fixed, i); });
  } else {
    grouped<6>(p, n, distance_group, lanes, one);
  }
  leave_lanes();
}

void overlap_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, bool* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] = x.shape != nullptr && y.shape != nullptr && pebble::overlap(*x.shape, x.transform, *y.shape, y.transform);
  };
  const auto lanes = [&](int, const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index, int count) {
    const DiscDistance<Wide> d = disc_distance_now(side_a(a, ga), gather<Wide>(gb));
    const unsigned good = bits(d.ok), touching = bits(d.distance <= Wide::splat(0));
    for (int j = 0; j < count; ++j) {
      if ((good >> j & 1) != 0) {
        out[index[j]] = (touching >> j & 1) != 0;
      } else {
        one(index[j], *ga[j], *gb[j]);
      }
    }
  };
  grouped<1>({a, pairs, others}, n, kDiscPairs, lanes, one);
  leave_lanes();
}

}  // namespace

extern const BatchKernels kBatchKernels;
const BatchKernels kBatchKernels{kLanePath,         &approach_discs, &time_to_collision_discs, &approach_batch, &time_to_collision_batch,
                                 &distance_batch, &overlap_batch};

}  // namespace pebble::detail::PEBBLE_KERNEL_NS
PEBBLE_KERNEL_TARGET_END
#endif  // PEBBLE_KERNEL_ENABLED

#if PEBBLE_KERNEL_COPY == 0
namespace pebble::batch {

void closest_approach(std::span<const BatchPair> pairs, float horizon, std::span<Approach> out) noexcept {
  detail::batch_kernels().approach(nullptr, pairs.data(), nullptr, std::min(pairs.size(), out.size()), horizon, out.data());
}
void closest_approach(const BatchBody& a, std::span<const BatchBody> others, float horizon, std::span<Approach> out) noexcept {
  detail::batch_kernels().approach(&a, nullptr, others.data(), std::min(others.size(), out.size()), horizon, out.data());
}
void time_to_collision(std::span<const BatchPair> pairs, float horizon, std::span<float> out) noexcept {
  detail::batch_kernels().time_to_collision(nullptr, pairs.data(), nullptr, std::min(pairs.size(), out.size()), horizon, out.data());
}
void time_to_collision(const BatchBody& a, std::span<const BatchBody> others, float horizon, std::span<float> out) noexcept {
  detail::batch_kernels().time_to_collision(&a, nullptr, others.data(), std::min(others.size(), out.size()), horizon, out.data());
}
void distance(std::span<const BatchPair> pairs, std::span<DistanceResult> out) noexcept {
  detail::batch_kernels().distance(nullptr, pairs.data(), nullptr, std::min(pairs.size(), out.size()), out.data());
}
void distance(const BatchBody& a, std::span<const BatchBody> others, std::span<DistanceResult> out) noexcept {
  detail::batch_kernels().distance(&a, nullptr, others.data(), std::min(others.size(), out.size()), out.data());
}
void overlap(std::span<const BatchPair> pairs, std::span<bool> out) noexcept {
  detail::batch_kernels().overlap(nullptr, pairs.data(), nullptr, std::min(pairs.size(), out.size()), out.data());
}
void overlap(const BatchBody& a, std::span<const BatchBody> others, std::span<bool> out) noexcept {
  detail::batch_kernels().overlap(&a, nullptr, others.data(), std::min(others.size(), out.size()), out.data());
}

}  // namespace pebble::batch
#endif
