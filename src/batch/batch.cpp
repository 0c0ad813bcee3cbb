// The batch queries (pebble/batch.hpp): lanes across queries. Compiled once per kernel copy
// (simd/config.hpp: base, scalar beside SSE2, AVX2), like the contact kernels; each copy's table
// of entry points ends the file, and the public functions are compiled with the base copy only.
//
// Two discs are a point moving relative to a disc of radius R = ra + rb (seed 003's closest point
// of approach, "Circles"): B's centre relative to A's is p + t w, with p the centres' offset at
// time 0 and w = vb - va. The distance |p + t w| - R is least at tc = -(p.w)/(w.w); the path's
// nearest point to A's centre, m = p + tc w, is h = |m| away, and when h <= R the path enters the
// disc sqrt(R^2 - h^2) / |w| before tc. (The miss distance from the vector m, not from the
// discriminant (p.w)^2 - (w.w)(p.p - R^2): that one loses R against |p|^2 when the discs are far
// apart.) Every field at the chosen time is then circle_pair()'s (contact/core.hpp) arithmetic on
// the moved centres.
//
// One template computes a lane of any width: Float1 for a single pair (what the one-at-a-time
// closest_approach() and time_to_collision() of two discs call), Float4 or Float8 for the batch.
// The operations are the same lane by lane (no fused multiply-add; sqrt and division correctly
// rounded), so a batch lane equals the single query bit for bit. A lane whose input is invalid, or
// whose centres end up nearly coincident (circle_pair()'s rescaled branch), is answered again by
// the single query, which handles both.
#include "simd/config.hpp"

#if PEBBLE_KERNEL_ENABLED
#include <cstddef>

#include "batch/kernels.hpp"

PEBBLE_KERNEL_TARGET_BEGIN
#include "simd/wide.hpp"
#include "tolerances.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

/// One float lane with the operations of Float4 (simd/wide.hpp): the single query's type.
struct Float1 {
  float v;
  static PEBBLE_HOT_INLINE Float1 splat(float x) { return {x}; }
};
struct Mask1 {
  bool v;
};
PEBBLE_HOT_INLINE Float1 operator+(Float1 a, Float1 b) { return {a.v + b.v}; }
PEBBLE_HOT_INLINE Float1 operator-(Float1 a, Float1 b) { return {a.v - b.v}; }
PEBBLE_HOT_INLINE Float1 operator*(Float1 a, Float1 b) { return {a.v * b.v}; }
PEBBLE_HOT_INLINE Float1 operator/(Float1 a, Float1 b) { return {a.v / b.v}; }
PEBBLE_HOT_INLINE Float1 min(Float1 a, Float1 b) { return {a.v < b.v ? a.v : b.v}; }
PEBBLE_HOT_INLINE Float1 max(Float1 a, Float1 b) { return {a.v > b.v ? a.v : b.v}; }
PEBBLE_HOT_INLINE Float1 abs(Float1 a) { return {std::fabs(a.v)}; }
PEBBLE_HOT_INLINE Float1 sqrt_lanes(Float1 a) { return {std::sqrt(a.v)}; }
PEBBLE_HOT_INLINE Mask1 operator<(Float1 a, Float1 b) { return {a.v < b.v}; }
PEBBLE_HOT_INLINE Mask1 operator<=(Float1 a, Float1 b) { return {a.v <= b.v}; }
PEBBLE_HOT_INLINE Mask1 operator>(Float1 a, Float1 b) { return {a.v > b.v}; }
PEBBLE_HOT_INLINE Mask1 operator&(Mask1 a, Mask1 b) { return {a.v && b.v}; }
PEBBLE_HOT_INLINE Mask1 operator|(Mask1 a, Mask1 b) { return {a.v || b.v}; }
PEBBLE_HOT_INLINE Float1 select(Mask1 m, Float1 a, Float1 b) { return m.v ? a : b; }
PEBBLE_HOT_INLINE unsigned bits(Mask1 m) { return m.v ? 1u : 0u; }

/// The batch's lane width in this copy: a whole register.
#if PEBBLE_KERNEL_AVX2
constexpr int kWidth = 8;
#else
constexpr int kWidth = 4;
#endif
using Wide = FloatLanes<kWidth>;

/// One side of a disc pair, lane by lane: position, rotation, the core's vertex in the shape's
/// frame, radius, velocity.
template <class F>
struct Disc {
  F px, py, qc, qs, lx, ly, r, vx, vy;
};

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

template <class F>
PEBBLE_HOT_INLINE Disc<F> gather(const BatchBody* const* bodies) {
  F c[6];  // p.x p.y q.c q.s velocity x y
#if PEBBLE_SSE
  if constexpr (sizeof(F) > sizeof(float)) {
    // Each body's 32 bytes (shape pointer, transform, velocity) read as 8 floats and transposed
    // into lanes (simd/wide.hpp): lanes built from separate float stores would wait for every
    // store to reach the cache before a vector load could read them.
    static_assert(sizeof(BatchBody) == 32 && offsetof(BatchBody, transform) == 8 && offsetof(BatchBody, velocity) == 24,
                  "on x86-64 a BatchBody is a pointer, then p.x p.y q.c q.s, then velocity x y");
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
  return {c[0], c[1], c[2], c[3], lanes_of<F>(bodies, [](const BatchBody& b) { return b.shape->padded_vertices()[0].x; }),
          lanes_of<F>(bodies, [](const BatchBody& b) { return b.shape->padded_vertices()[0].y; }),
          lanes_of<F>(bodies, [](const BatchBody& b) { return b.shape->radius(); }), c[4], c[5]};
}

/// Side A's lanes: in the one-against-many form every lane holds the same body, so its fields are
/// broadcast instead of transposed (the same values, so the same bits).
PEBBLE_HOT_INLINE Disc<Wide> side_a(const BatchBody* fixed, const BatchBody* const* bodies) {
  if (fixed == nullptr) return gather<Wide>(bodies);
  const Disc<Float1> d = gather<Float1>(&fixed);
  return {Wide::splat(d.px.v), Wide::splat(d.py.v), Wide::splat(d.qc.v), Wide::splat(d.qs.v), Wide::splat(d.lx.v),
          Wide::splat(d.ly.v), Wide::splat(d.r.v), Wide::splat(d.vx.v), Wide::splat(d.vy.v)};
}

/// is_valid(transform) (math.hpp), the same comparisons.
template <class F>
PEBBLE_HOT_INLINE auto valid_transform(const Disc<F>& d) {
  const F big = F::splat(kMaxWorldCoordinate);
  return (abs(d.px) <= big) & (abs(d.py) <= big) & (abs((d.qc * d.qc + d.qs * d.qs) - F::splat(1.0f)) <= F::splat(kRotationTolerance));
}

/// is_valid_point(v) (math.hpp).
template <class F>
PEBBLE_HOT_INLINE auto valid_point(F x, F y) {
  const F big = F::splat(kMaxWorldCoordinate);
  return (abs(x) <= big) & (abs(y) <= big);
}

/// The two centres (world) and B's centre relative to A's, as circle_pair() forms them: the
/// offset from the positions' difference, not from the rounded world centres.
template <class F>
struct Centres {
  F cax, cay, cbx, cby, px, py;
};

template <class F>
PEBBLE_HOT_INLINE Centres<F> centres(const Disc<F>& a, const Disc<F>& b) {
  const F vax = a.qc * a.lx - a.qs * a.ly, vay = a.qs * a.lx + a.qc * a.ly;
  const F vbx = b.qc * b.lx - b.qs * b.ly, vby = b.qs * b.lx + b.qc * b.ly;
  return {vax + a.px, vay + a.py, vbx + b.px, vby + b.py, (b.px - a.px) + (vbx - vax), (b.py - a.py) + (vby - vay)};
}

/// circle_pair()'s answer for centres cax, cay and cbx, cby with B's relative to A's (dx, dy),
/// and whether it holds: false where |d|^2 < kTinySquare, which circle_pair() answers by
/// rescaling (the single query does that).
template <class F>
struct DiscDistance {
  F distance, nx, ny, pax, pay, pbx, pby;
  decltype(F{} < F{}) ok;
};

template <class F>
PEBBLE_HOT_INLINE DiscDistance<F> disc_distance(F ra, F rb, F cax, F cay, F cbx, F cby, F dx, F dy) {
  const F len2 = dx * dx + dy * dy;
  const F len = sqrt_lanes(len2);
  const F nx = dx / len, ny = dy / len;
  return {(len - ra) - rb, nx, ny, cax + ra * nx, cay + ra * ny, cbx - rb * nx, cby - rb * ny, F::splat(kTinySquare) <= len2};
}

/// When two discs first touch in [0, horizon], and the time of least distance when they do not.
template <class F>
struct DiscMotion {
  decltype(F{} < F{}) hit, valid;
  F touch;  // the first touch (kNoCollision where none)
  F time;   // the touch, else the time of least distance
  F wx, wy;
  Centres<F> c;
};

template <class F>
PEBBLE_HOT_INLINE DiscMotion<F> disc_motion(const Disc<F>& a, const Disc<F>& b, F h) {
  // closest_approach()'s checks (cast/cast.cpp), the same comparisons.
  const auto valid = (F::splat(0) <= h) & (h <= F::splat(kMaxWorldCoordinate)) & valid_transform(a) & valid_transform(b) &
                     valid_point(a.vx, a.vy) & valid_point(b.vx, b.vy) & valid_point(a.px + h * a.vx, a.py + h * a.vy) &
                     valid_point(b.px + h * b.vx, b.py + h * b.vy);
  const Centres<F> c = centres(a, b);
  const F zero = F::splat(0);
  const F wx = b.vx - a.vx, wy = b.vy - a.vy;
  const F r = a.r + b.r;
  // Touching or overlapping at the start, by distance()'s own test.
  const auto start = ((sqrt_lanes(c.px * c.px + c.py * c.py) - a.r) - b.r) <= zero;
  const F ww = wx * wx + wy * wy;
  const auto moving = zero < ww;
  const F tc = (zero - (c.px * wx + c.py * wy)) / ww;  // NaN or infinite where not moving
  const F mx = c.px + tc * wx, my = c.py + tc * wy;
  const F rr = r * r, hh = mx * mx + my * my;
  // The path enters the grown disc before tc (and after 0, or the discs would start touching).
  const F enter = max(tc - sqrt_lanes((rr - hh) / ww), zero);
  const auto touch_in = moving & (zero < tc) & (hh <= rr) & (enter <= h);
  const auto hit = start | touch_in;
  const F touch = select(start, zero, select(touch_in, enter, F::splat(kNoCollision)));
  const F least = min(max(tc, zero), h);  // NaN tc gives 0
  const F time = select(hit, touch, select(moving, least, zero));
  return {hit, valid, touch, time, wx, wy, c};
}

/// closest_approach() of two discs: the fields at the motion's time, and whether they hold.
template <class F>
struct DiscApproach {
  DiscMotion<F> m;
  DiscDistance<F> d;
};

template <class F>
PEBBLE_HOT_INLINE DiscApproach<F> disc_approach(const Disc<F>& a, const Disc<F>& b, F h) {
  const DiscMotion<F> m = disc_motion(a, b, h);
  const F t = m.time;
  const DiscDistance<F> d = disc_distance(a.r, b.r, m.c.cax + t * a.vx, m.c.cay + t * a.vy, m.c.cbx + t * b.vx, m.c.cby + t * b.vy,
                                          m.c.px + t * m.wx, m.c.py + t * m.wy);
  return {m, d};
}

constexpr Approach kNoApproach{false, 0, kHugeDistance, {0, 0}, {0, 0}, {0, 0}};

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

/// Pair i's two bodies, for either form of a batch call.
struct Pairs {
  const BatchBody* a;
  const BatchPair* pairs;
  const BatchBody* others;
  const BatchBody& first(std::size_t i) const { return a != nullptr ? *a : pairs[i].a; }
  const BatchBody& second(std::size_t i) const { return a != nullptr ? others[i] : pairs[i].b; }
};

/// Walks the pairs in order: a pair of two discs joins the lane group, which `lanes` answers
/// whenever it is full (and once at the end, padded with its last pair); any other pair is
/// answered at once by `one`. lanes(a, b, index, count) gets kWidth body pointers per side.
template <class Lanes, class One>
PEBBLE_HOT_INLINE void grouped(const Pairs& p, std::size_t n, Lanes lanes, One one) {
  const BatchBody* ga[kWidth];
  const BatchBody* gb[kWidth];
  std::size_t index[kWidth];
  int k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const BatchBody& a = p.first(i);
    const BatchBody& b = p.second(i);
    if (a.shape != nullptr && b.shape != nullptr && a.shape->vertex_count() == 1 && b.shape->vertex_count() == 1) {
      ga[k] = &a, gb[k] = &b, index[k] = i;
      if (++k == kWidth) {
        lanes(ga, gb, index, kWidth);
        k = 0;
      }
    } else {
      one(i, a, b);
    }
  }
  if (k > 0) {
    for (int j = k; j < kWidth; ++j) ga[j] = ga[k - 1], gb[j] = gb[k - 1], index[j] = index[k - 1];
    lanes(ga, gb, index, k);
  }
}

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
  const auto lanes = [&](const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index, int count) {
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
  grouped({a, pairs, others}, n, lanes, one);
  leave_lanes();
}

void time_to_collision_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, float horizon,
                             float* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] = x.shape != nullptr && y.shape != nullptr
                 ? pebble::time_to_collision(*x.shape, x.transform, x.velocity, *y.shape, y.transform, y.velocity, horizon)
                 : kNoCollision;
  };
  const auto lanes = [&](const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index, int count) {
    const DiscMotion<Wide> m = disc_motion(side_a(a, ga), gather<Wide>(gb), Wide::splat(horizon));
    const unsigned good = bits(m.valid);
    const Unpacked touch(m.touch);
    for (int j = 0; j < count; ++j) {
      if ((good >> j & 1) != 0) {
        out[index[j]] = touch[j];
      } else {
        one(index[j], *ga[j], *gb[j]);
      }
    }
  };
  grouped({a, pairs, others}, n, lanes, one);
  leave_lanes();
}

constexpr DistanceResult kNoDistance{kHugeDistance, {0, 0}, {0, 0}, {0, 0}};

/// The disc pairs' distance() lanes: circle_pair() at the given positions, and whether it holds
/// (valid transforms, centres not nearly coincident).
template <class F>
PEBBLE_HOT_INLINE DiscDistance<F> disc_distance_now(const Disc<F>& a, const Disc<F>& b) {
  const Centres<F> c = centres(a, b);
  DiscDistance<F> d = disc_distance(a.r, b.r, c.cax, c.cay, c.cbx, c.cby, c.px, c.py);
  d.ok = d.ok & valid_transform(a) & valid_transform(b);
  return d;
}

void distance_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, DistanceResult* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] = x.shape != nullptr && y.shape != nullptr ? pebble::distance(*x.shape, x.transform, *y.shape, y.transform) : kNoDistance;
  };
  const auto lanes = [&](const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index, int count) {
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
  };
  grouped({a, pairs, others}, n, lanes, one);
  leave_lanes();
}

void overlap_batch(const BatchBody* a, const BatchPair* pairs, const BatchBody* others, std::size_t n, bool* out) noexcept {
  const auto one = [&](std::size_t i, const BatchBody& x, const BatchBody& y) {
    out[i] = x.shape != nullptr && y.shape != nullptr && pebble::overlap(*x.shape, x.transform, *y.shape, y.transform);
  };
  const auto lanes = [&](const BatchBody* const* ga, const BatchBody* const* gb, const std::size_t* index, int count) {
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
  grouped({a, pairs, others}, n, lanes, one);
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
