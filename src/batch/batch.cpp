// The batch queries (pebble/batch.hpp): lanes across queries. Compiled once per kernel copy
// (simd/config.hpp: base, scalar beside SSE2, AVX2), like the contact kernels; each copy's table
// of entry points ends the file, and the public functions are compiled with the base copy only.
//
// This file groups the pairs by kind and answers each group; the lane forms of the queries live
// beside the scalar queries they mirror, and the bodies' loads into lanes in simd/body_lanes.hpp.
// Two discs: the closed forms of cast/disc_lanes.hpp, one template for one lane (the one-at-a-time
// queries of two discs) and for a register, so a batch lane equals the single query bit for bit;
// a lane whose input is invalid, or whose centres end up nearly coincident (circle_pair()'s
// rescaled branch), is answered again by the single query. Capsules and 4-vertex cores
// (docs/crowds.md) go the other way: their lanes repeat the single query's own scalar path,
// operation for operation (time_to_collision()'s ray cast in cast/ray_lanes.hpp, distance() in
// contact/distance_lanes.hpp), and hand the lanes where that path branches off its common case
// back to the single query.
#include "simd/config.hpp"

// With double positions (pebble/config.hpp) a body's transform no longer has the float layout the
// lanes load, so that build answers every pair by the one-at-a-time query (the end of this file).
#if PEBBLE_KERNEL_ENABLED && !PEBBLE_DOUBLE_POSITIONS
#include <cstddef>
#include <type_traits>

#include "simd/batch_kernels.hpp"

PEBBLE_KERNEL_TARGET_BEGIN
#include "cast/disc_lanes.hpp"
#include "cast/ray_lanes.hpp"
#include "contact/distance_lanes.hpp"
#include "empty_results.hpp"
#include "simd/body_lanes.hpp"
#include "simd/wide.hpp"
#include "tolerances.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

/// The batch's lane width in this copy: a whole register.
#if PEBBLE_KERNEL_AVX2
constexpr int kWidth = 8;
#else
constexpr int kWidth = 4;
#endif
using Wide = FloatLanes<kWidth>;

/// Side A's lanes: in the one-against-many form every lane holds the same body, so its fields are
/// broadcast instead of transposed (the same values, so the same bits).
PEBBLE_HOT_INLINE Disc<Wide> side_a(const BatchBody* fixed, const BatchBody* const* bodies) {
  if (fixed == nullptr) return gather<Wide>(bodies);
  const Disc<Float1> d = gather<Float1>(&fixed);
  return {Wide::splat(d.px.v), Wide::splat(d.py.v), Wide::splat(d.qc.v), Wide::splat(d.qs.v), Wide::splat(d.lx.v),
          Wide::splat(d.ly.v), Wide::splat(d.r.v),  Wide::splat(d.vx.v), Wide::splat(d.vy.v)};
}

ApproachResult approach_discs(const BatchBody& a, const BatchBody& b, float horizon) noexcept {
  const BatchBody* pa = &a;
  const BatchBody* pb = &b;
  const DiscApproach<Float1> r = disc_approach(gather<Float1>(&pa), gather<Float1>(&pb), Float1::splat(horizon));
  leave_lanes();
  if (!r.m.valid.v) return kNoApproach;
  const float t = r.m.time.v;
  if (r.d.ok.v)
    return {r.m.hit.v, t, r.d.distance.v, {r.d.pax.v, r.d.pay.v}, {r.d.pbx.v, r.d.pby.v}, {r.d.nx.v, r.d.ny.v}};
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
    const int g =
        a.shape != nullptr && b.shape != nullptr ? group(a.shape->vertex_count(), b.shape->vertex_count()) : -1;
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
                    ApproachResult* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] =
        x.shape != nullptr && y.shape != nullptr
            ? pebble::closest_approach(*x.shape, x.transform, x.velocity, *y.shape, y.transform, y.velocity, horizon)
            : kNoApproach;
  };
  const auto lanes = [&](int, const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index,
                         int count) {
    const DiscApproach<Wide> r = disc_approach(side_a(a, ga), gather<Wide>(gb), Wide::splat(horizon));
    const unsigned good = bits(r.m.valid & r.d.ok), hit = bits(r.m.hit);
    const Unpacked time(r.m.time), dist(r.d.distance), pax(r.d.pax), pay(r.d.pay), pbx(r.d.pbx), pby(r.d.pby),
        nx(r.d.nx), ny(r.d.ny);
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
enum TtcGroup : int {
  kTtcDiscs,
  kTtcDiscCapsule,
  kTtcCapsuleDisc,
  kTtcDiscQuad,
  kTtcQuadDisc,
  kTtcCapsules,
  kTtcGroups
};

/// (The plain C++ copy, whose lanes are loops over four floats, keeps to the disc pairs: its
/// capsule and 4-vertex groups are slower than the single queries, docs/crowds.md.)
constexpr auto ttc_group = [](int na, int nb) {
  if (kLanePath == SimdPath::scalar) return na == 1 && nb == 1 ? kTtcDiscs : -1;
  if (na == 1) return nb == 1 ? kTtcDiscs : nb == 2 ? kTtcDiscCapsule : nb == 4 ? kTtcDiscQuad : -1;
  if (nb == 1) return na == 2 ? kTtcCapsuleDisc : na == 4 ? kTtcQuadDisc : -1;
  return na == 2 && nb == 2 ? kTtcCapsules : -1;
};

void time_to_collision_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n,
                             float horizon, float* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] =
        x.shape != nullptr && y.shape != nullptr
            ? pebble::time_to_collision(*x.shape, x.transform, x.velocity, *y.shape, y.transform, y.velocity, horizon)
            : kNoCollision;
  };
  const auto lanes = [&](int g, const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index,
                         int count) {
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
        case kTtcDiscCapsule:
          r = disc_core_ttc<2>(ga, gb, true, h);
          break;
        case kTtcCapsuleDisc:
          r = disc_core_ttc<2>(gb, ga, false, h);
          break;
        case kTtcDiscQuad:
          r = disc_core_ttc<4>(ga, gb, true, h);
          break;
        case kTtcQuadDisc:
          r = disc_core_ttc<4>(gb, ga, false, h);
          break;
        default:
          r = capsules_ttc(ga, gb, h);
          break;
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

/// The groups of distance() other than two discs, out of line, off the disc group's loop.
[[gnu::noinline]] DistanceLanes<Wide> core_distance_lanes(int g, const BatchBody* const* ga,
                                                          const BatchBody* const* gb) {
  switch (g) {
    case 1:
      return capsules_distance<Wide>(ga, gb);
    case 2:
      return disc_core_distance<2, Wide>(ga, gb, true);
    case 3:
      return disc_core_distance<2, Wide>(gb, ga, false);
    case 4:
      return disc_core_distance<4, Wide>(ga, gb, true);
    default:
      return disc_core_distance<4, Wide>(gb, ga, false);
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
    return F::lanes(s[0]->radius(), s[1]->radius(), s[2]->radius(), s[3]->radius(), s[4]->radius(), s[5]->radius(),
                    s[6]->radius(), s[7]->radius());
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
  for (int j = 0; j < kWidth; ++j)
    rows[j] = &body[std::size_t(j) * Stride].transform.p.x, shape[j] = body[std::size_t(j) * Stride].shape;
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

/// A run's lanes and records: the lanes that the single query must answer again. Out of line, off
/// the grouping loop (docs/crowds.md).
template <bool kOne>
[[gnu::noinline]] unsigned disc_run(const Disc<Wide>& fixed, const BatchBody* ba, const BatchBody* bb,
                                    DistanceResult* out) {
  const DiscDistance<Wide> d = kOne ? disc_distance_now(fixed, disc_at_rest<1>(bb))
                                    : disc_distance_now(disc_at_rest<2>(ba), disc_at_rest<2>(bb));
  store_results(out, d);
  return ~bits(d.ok) & ((1u << kWidth) - 1);
}

void distance_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n,
                    DistanceResult* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] = x.shape != nullptr && y.shape != nullptr ? pebble::distance(*x.shape, x.transform, *y.shape, y.transform)
                                                      : kNoDistance;
  };
  // The two branches write their lanes alike but each from its own values: one loop fed by both
  // is slower for the disc group (docs/crowds.md).
  const auto lanes = [&](int g, const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index,
                         int count) {
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

void overlap_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n,
                   bool* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] = x.shape != nullptr && y.shape != nullptr && pebble::overlap(*x.shape, x.transform, *y.shape, y.transform);
  };
  const auto lanes = [&](int, const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index,
                         int count) {
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
const BatchKernels kBatchKernels{kLanePath,       &approach_discs,          &time_to_collision_discs,
                                 &approach_batch, &time_to_collision_batch, &distance_batch,
                                 &overlap_batch};

}  // namespace pebble::detail::PEBBLE_KERNEL_NS
PEBBLE_KERNEL_TARGET_END
#endif  // PEBBLE_KERNEL_ENABLED && !PEBBLE_DOUBLE_POSITIONS

#if PEBBLE_DOUBLE_POSITIONS && PEBBLE_KERNEL_COPY == 0
#include <cstddef>

#include "empty_results.hpp"
#include "simd/batch_kernels.hpp"

namespace pebble::detail {
namespace {

/// Pair i's two bodies, for either form of a batch call.
const BatchBody& first(const BatchBody* a, const BatchPair* pairs, std::size_t i) { return a ? *a : pairs[i].a; }
const BatchBody& second(const BatchPair* pairs, const BatchBody* others, std::size_t i) {
  return pairs ? pairs[i].b : others[i];
}

template <class Result, class Query>
void each_pair(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, Result* out,
               Query query) {
  for (std::size_t i = 0; i < n; ++i) out[i] = query(first(a, pairs, i), second(pairs, others, i));
}

void approach_each(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, float horizon,
                   ApproachResult* out) noexcept {
  each_pair(a, pairs, others, n, out, [horizon](const BatchBody& x, const BatchBody& y) {
    if (!x.shape || !y.shape) return kNoApproach;
    return closest_approach(*x.shape, x.transform, x.velocity, *y.shape, y.transform, y.velocity, horizon);
  });
}
void time_to_collision_each(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n,
                            float horizon, float* out) noexcept {
  each_pair(a, pairs, others, n, out, [horizon](const BatchBody& x, const BatchBody& y) {
    if (!x.shape || !y.shape) return kNoCollision;
    return time_to_collision(*x.shape, x.transform, x.velocity, *y.shape, y.transform, y.velocity, horizon);
  });
}
void distance_each(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n,
                   DistanceResult* out) noexcept {
  each_pair(a, pairs, others, n, out, [](const BatchBody& x, const BatchBody& y) {
    if (!x.shape || !y.shape) return kNoDistance;
    return distance(*x.shape, x.transform, *y.shape, y.transform);
  });
}
void overlap_each(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n,
                  bool* out) noexcept {
  each_pair(a, pairs, others, n, out, [](const BatchBody& x, const BatchBody& y) {
    return x.shape && y.shape && overlap(*x.shape, x.transform, *y.shape, y.transform);
  });
}

}  // namespace

// No single-pair disc entries: closest_approach() and time_to_collision() take their general path.
extern const BatchKernels kOneByOneBatchKernels;
const BatchKernels kOneByOneBatchKernels{SimdPath::scalar,        nullptr,        nullptr,      &approach_each,
                                         &time_to_collision_each, &distance_each, &overlap_each};

}  // namespace pebble::detail
#endif

#if PEBBLE_KERNEL_COPY == 0
namespace pebble::batch {

void closest_approach(std::span<const BatchPair> pairs, float horizon, std::span<ApproachResult> out) noexcept {
  detail::batch_kernels().approach(nullptr, pairs.data(), nullptr, std::min(pairs.size(), out.size()), horizon,
                                   out.data());
}
void closest_approach(const BatchBody& a, std::span<const BatchBody> others, float horizon,
                      std::span<ApproachResult> out) noexcept {
  detail::batch_kernels().approach(&a, nullptr, others.data(), std::min(others.size(), out.size()), horizon,
                                   out.data());
}
void time_to_collision(std::span<const BatchPair> pairs, float horizon, std::span<float> out) noexcept {
  detail::batch_kernels().time_to_collision(nullptr, pairs.data(), nullptr, std::min(pairs.size(), out.size()), horizon,
                                            out.data());
}
void time_to_collision(const BatchBody& a, std::span<const BatchBody> others, float horizon,
                       std::span<float> out) noexcept {
  detail::batch_kernels().time_to_collision(&a, nullptr, others.data(), std::min(others.size(), out.size()), horizon,
                                            out.data());
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
