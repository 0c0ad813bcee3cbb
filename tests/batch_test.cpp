// The batch queries (pebble/batch.hpp): every result equals the one-at-a-time function's, bit for
// bit, on every instruction set the build and CPU have, for mixed kinds (disc pairs in lanes,
// the rest one at a time), both call forms, invalid input inside full lanes, centres that
// coincide, and calls whose output is shorter than their input. The one-at-a-time disc
// closest_approach() and time_to_collision() the lanes match are checked against the oracle in
// cast_test.cpp; here the disc pairs' hand cases (exact grazes, exact touches) are checked too.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "pebble/batch.hpp"
#include "test_hooks.hpp"  // pebble::test_hooks: use_simd_path()

namespace {

using pebble::ApproachResult;
using pebble::BatchBody;
using pebble::BatchPair;
using pebble::DistanceResult;
using pebble::Rot;
using pebble::Shape;
using pebble::SimdPath;
using pebble::Transform;
using pebble::Vec2;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// The paths this build and CPU have, the one in use first; restores it when done.
struct Paths {
  SimdPath saved = pebble::simd_path();
  std::vector<SimdPath> list;
  Paths() {
    for (SimdPath p : {SimdPath::scalar, SimdPath::sse2, SimdPath::avx2, SimdPath::neon}) {
      if (pebble::detail::use_simd_path(p)) list.push_back(p);
    }
    pebble::detail::use_simd_path(saved);
  }
  ~Paths() { pebble::detail::use_simd_path(saved); }
};

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(Vec2 a, Vec2 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y); }
#if PEBBLE_DOUBLE_POSITIONS
bool same_bits(pebble::Position a, pebble::Position b) { return std::memcmp(&a, &b, sizeof a) == 0; }
#endif
bool same(const ApproachResult& a, const ApproachResult& b) {
  return a.hit == b.hit && same_bits(a.time, b.time) && same_bits(a.distance, b.distance) &&
         same_bits(a.point_a, b.point_a) && same_bits(a.point_b, b.point_b) && same_bits(a.normal, b.normal);
}
bool same(const DistanceResult& a, const DistanceResult& b) {
  return same_bits(a.distance, b.distance) && same_bits(a.normal, b.normal) && same_bits(a.point_a, b.point_a) &&
         same_bits(a.point_b, b.point_b);
}

bool same(float a, float b) { return same_bits(a, b); }

std::string text(const BatchBody& b) {
  char s[200];
  std::snprintf(s, sizeof s, "{v%d r%a p(%a,%a) q(%a,%a) v(%a,%a)}", b.shape ? b.shape->vertex_count() : -1,
                b.shape ? b.shape->radius() : 0.0f, b.transform.p.x, b.transform.p.y, b.transform.q.c, b.transform.q.s,
                b.velocity.x, b.velocity.y);
  return s;
}

/// A mix a crowd would have: mostly discs (some off-centre, some points), and capsules, boxes,
/// rounded boxes, a polygon.
std::vector<Shape> shapes() {
  std::vector<Shape> s;
  s.push_back(Shape::circle(0.5f));
  s.push_back(Shape::circle(0.3f));
  s.push_back(Shape::circle(0.25f, {0.1f, -0.2f}));
  s.push_back(Shape::circle(0));
  s.push_back(Shape::circle(1.5f, {-3, 2}));
  s.push_back(Shape::capsule({-0.3f, 0}, {0.3f, 0}, 0.2f));
  s.push_back(Shape::box(0.4f, 0.3f));
  s.push_back(Shape::rounded_box(0.3f, 0.3f, 0.1f));
  const Vec2 tri[] = {{-0.4f, -0.3f}, {0.5f, -0.2f}, {0, 0.6f}};
  s.push_back(Shape::polygon(tri, 0.05f));
  return s;
}

/// Random bodies near each other (so that touches, misses and starting overlaps all occur), a
/// few of them invalid, a few pairs with coincident or identical centres.
struct Scene {
  std::vector<Shape> kinds = shapes();
  std::vector<BatchBody> bodies;
  std::vector<BatchPair> pairs;

  explicit Scene(unsigned seed, int n, float spread = 3) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1, 1);
    const auto body = [&] {
      BatchBody b;
      // Discs three times as often as any other kind.
      const std::size_t k = rng() % (kinds.size() + 10);
      b.shape = &kinds[k < kinds.size() ? k : k % 5];
      b.transform = {{spread * u(rng), spread * u(rng)}, Rot::from_angle(3.2f * u(rng))};
      b.velocity = {2 * u(rng), 2 * u(rng)};
      switch (rng() % 40) {
        case 0:
          b.transform.p.x = kNaN;
          break;
        case 1:
          b.transform.p.y = 2e9f;
          break;
        case 2:
          b.transform.q = {1, 1};
          break;
        case 3:
          b.velocity.x = std::numeric_limits<float>::infinity();
          break;
        case 4:
          b.velocity = {6e8f, 0};
          break;  // carried beyond kMaxWorldCoordinate by horizon 2
        case 5:
          b.shape = nullptr;
          break;
        case 6:
          b.velocity = {};
          break;
        default:
          break;
      }
      return b;
    };
    for (int i = 0; i < n; ++i) bodies.push_back(body());
    for (int i = 0; i < n; ++i) {
      BatchPair p{body(), body()};
      switch (rng() % 30) {
        case 0:
          p.b.transform = p.a.transform;
          break;  // the same position
        case 1:
          p.b.velocity = p.a.velocity;
          break;  // no relative motion
        case 2:   // centres that coincide exactly or nearly, off the positions
          p.a.shape = &kinds[0], p.b.shape = &kinds[1];
          p.b.transform = {p.a.transform.p + Vec2{1e-20f, 0}, p.a.transform.q};
          break;
        default:
          break;
      }
      pairs.push_back(p);
    }
  }
};

template <class Out, class One, class Batch>
void expect_pairs_equal(const Scene& s, float horizon, One one, Batch batch, const char* what) {
  std::vector<Out> out(s.pairs.size());
  batch(s.pairs, horizon, out);
  int bad = 0;
  for (std::size_t i = 0; i < s.pairs.size(); ++i) {
    const Out expected = one(s.pairs[i].a, s.pairs[i].b, horizon);
    if (!same(out[i], expected) && ++bad <= 5) {
      ADD_FAILURE() << what << " pair " << i << " on " << pebble::simd_path_name(pebble::simd_path()) << ": "
                    << text(s.pairs[i].a) << " " << text(s.pairs[i].b);
    }
  }
  EXPECT_EQ(bad, 0) << what;
  // The one-against-many form, a being each of a few bodies.
  for (std::size_t k = 0; k < 7; ++k) {
    const BatchBody& a = s.bodies[k * 13 % s.bodies.size()];
    std::vector<Out> many(s.bodies.size());
    batch(a, s.bodies, horizon, many);
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
      if (!same(many[i], one(a, s.bodies[i], horizon)) && ++bad <= 5) {
        ADD_FAILURE() << what << " one against many, body " << i << ": " << text(a) << " " << text(s.bodies[i]);
      }
    }
  }
  EXPECT_EQ(bad, 0) << what;
}

ApproachResult one_approach(const BatchBody& a, const BatchBody& b, float h) {
  if (a.shape == nullptr || b.shape == nullptr) return {false, 0, pebble::kHugeDistance, {0, 0}, {0, 0}, {0, 0}};
  return pebble::closest_approach(*a.shape, a.transform, a.velocity, *b.shape, b.transform, b.velocity, h);
}
float one_ttc(const BatchBody& a, const BatchBody& b, float h) {
  if (a.shape == nullptr || b.shape == nullptr) return pebble::kNoCollision;
  return pebble::time_to_collision(*a.shape, a.transform, a.velocity, *b.shape, b.transform, b.velocity, h);
}
DistanceResult one_distance(const BatchBody& a, const BatchBody& b, float) {
  if (a.shape == nullptr || b.shape == nullptr) return {pebble::kHugeDistance, {0, 0}, {0, 0}, {0, 0}};
  return pebble::distance(*a.shape, a.transform, *b.shape, b.transform);
}
bool one_overlap(const BatchBody& a, const BatchBody& b, float) {
  return a.shape != nullptr && b.shape != nullptr && pebble::overlap(*a.shape, a.transform, *b.shape, b.transform);
}

struct ApproachBatch {
  void operator()(std::span<const BatchPair> p, float h, std::span<ApproachResult> o) const {
    pebble::batch::closest_approach(p, h, o);
  }
  void operator()(const BatchBody& a, std::span<const BatchBody> b, float h, std::span<ApproachResult> o) const {
    pebble::batch::closest_approach(a, b, h, o);
  }
};
struct TtcBatch {
  void operator()(std::span<const BatchPair> p, float h, std::span<float> o) const {
    pebble::batch::time_to_collision(p, h, o);
  }
  void operator()(const BatchBody& a, std::span<const BatchBody> b, float h, std::span<float> o) const {
    pebble::batch::time_to_collision(a, b, h, o);
  }
};
struct DistanceBatch {
  void operator()(std::span<const BatchPair> p, float, std::span<DistanceResult> o) const {
    pebble::batch::distance(p, o);
  }
  void operator()(const BatchBody& a, std::span<const BatchBody> b, float, std::span<DistanceResult> o) const {
    pebble::batch::distance(a, b, o);
  }
};
void check_all_queries(const Scene& s, float horizon) {
  expect_pairs_equal<ApproachResult>(s, horizon, one_approach, ApproachBatch{}, "closest_approach");
  expect_pairs_equal<float>(s, horizon, one_ttc, TtcBatch{}, "time_to_collision");
  expect_pairs_equal<DistanceResult>(s, horizon, one_distance, DistanceBatch{}, "distance");
  // overlap (std::vector<bool> has no span: plain arrays)
  const std::size_t n = s.pairs.size();
  std::unique_ptr<bool[]> out(new bool[n]);
  pebble::batch::overlap(std::span<const BatchPair>(s.pairs), std::span<bool>(out.get(), n));
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += out[i] != one_overlap(s.pairs[i].a, s.pairs[i].b, 0);
  const BatchBody& a = s.bodies[3 % s.bodies.size()];
  std::unique_ptr<bool[]> many(new bool[s.bodies.size()]);
  pebble::batch::overlap(a, s.bodies, std::span<bool>(many.get(), s.bodies.size()));
  for (std::size_t i = 0; i < s.bodies.size(); ++i) bad += many[i] != one_overlap(a, s.bodies[i], 0);
  EXPECT_EQ(bad, 0) << "overlap";
}

TEST(Batch, EveryResultEqualsTheSingleQueryOnEveryPath) {
  const Paths paths;
  ASSERT_FALSE(paths.list.empty());
  for (const SimdPath p : paths.list) {
    pebble::detail::use_simd_path(p);
    // Sizes that fill the lanes exactly and that leave a partial group.
    for (const int n : {1, 3, 8, 64, 1001}) {
      const Scene s(unsigned(17 + n), n);
      check_all_queries(s, 2.0f);
    }
    const Scene wide(99, 3000, 12);
    check_all_queries(wide, 0.5f);
  }
}

TEST(Batch, SameBitsAcrossPaths) {
  // Each path equals its own single query (above); the single disc queries equal each other
  // across paths too, so the batches do.
  const Paths paths;
  const Scene s(5, 2000);
  std::vector<std::vector<ApproachResult>> got;
  for (const SimdPath p : paths.list) {
    pebble::detail::use_simd_path(p);
    got.emplace_back(s.pairs.size());
    pebble::batch::closest_approach(s.pairs, 1.5f, got.back());
  }
  for (std::size_t k = 1; k < got.size(); ++k) {
    for (std::size_t i = 0; i < s.pairs.size(); ++i) {
      ASSERT_TRUE(same(got[k][i], got[0][i]))
          << "pair " << i << " differs between " << pebble::simd_path_name(paths.list[0]) << " and "
          << pebble::simd_path_name(paths.list[k]);
    }
  }
}

TEST(Batch, InvalidHorizonsGiveEveryPairTheEmptyResult) {
  const Scene s(7, 40);
  for (const float h : {-1.0f, kNaN, 2e9f, std::numeric_limits<float>::infinity()}) {
    std::vector<ApproachResult> out(s.pairs.size());
    std::vector<float> ttc(s.pairs.size());
    pebble::batch::closest_approach(s.pairs, h, out);
    pebble::batch::time_to_collision(s.pairs, h, ttc);
    for (std::size_t i = 0; i < out.size(); ++i) {
      EXPECT_FALSE(out[i].hit);
      EXPECT_EQ(out[i].distance, pebble::kHugeDistance);
      EXPECT_EQ(ttc[i], pebble::kNoCollision);
    }
  }
}

TEST(Batch, OutputShorterThanInputWritesOnlyWhatFits) {
  const Scene s(8, 50);
  std::vector<float> out(20, -7.0f);
  pebble::batch::time_to_collision(std::span<const BatchPair>(s.pairs), 2, std::span<float>(out).first(11));
  for (std::size_t i = 0; i < 11; ++i) EXPECT_TRUE(same_bits(out[i], one_ttc(s.pairs[i].a, s.pairs[i].b, 2)));
  for (std::size_t i = 11; i < 20; ++i) EXPECT_EQ(out[i], -7.0f);
  std::vector<DistanceResult> d(3, DistanceResult{-7, {}, {}, {}});
  pebble::batch::distance(std::span<const BatchPair>(s.pairs).first(2), d);
  EXPECT_EQ(d[2].distance, -7.0f);
  pebble::batch::distance(std::span<const BatchPair>(), d);  // nothing to do
  EXPECT_EQ(d[2].distance, -7.0f);
}

TEST(Batch, DiscAgainstCoreTiesAndZerosMatchTheSingleQuery) {
  // A disc against a box, a capsule and a triangle where point_to_core's comparisons act: on a
  // corner's diagonal (two edges tie), on an edge's line (separation exactly 0, and -0 from a
  // negative zero), on a vertex, deep inside, at the centre, on a capsule's axis; turned by exact
  // quarter turns and by an inexact angle; the disc as A and as B.
  const Shape box = Shape::rounded_box(1, 1, 0.1f), capsule = Shape::capsule({-1, 0}, {1, 0}, 0.2f),
              point = Shape::circle(0);
  const Vec2 tri_points[] = {{-1, -1}, {1, -1}, {0, 1}};
  const Shape triangle = Shape::polygon(tri_points), disc = Shape::circle(0.25f, {0.5f, 0});
  const Vec2 spots[] = {{2, 2},        {-2, 2},     {1, 1},  {0.9f, 0.9f},  {1, 0},  {1, 0.5f},
                        {0, 1},        {-0.0f, -1}, {0, 0},  {0.25f, 0.1f}, {3, 0},  {-3, 0},
                        {1.5f, -0.0f}, {0.5f, 0},   {0, -1}, {1, -1},       {-1, 1}, {0.3f, -0.999999f}};
  const Rot turns[] = {Rot::identity(), Rot{0, 1}, Rot{-1, 0}, Rot::from_angle(0.7f)};
  std::vector<BatchPair> pairs;
  for (const Shape* core : {&box, &capsule, &triangle}) {
    for (const Shape* p : {&point, &disc}) {
      for (const Rot q : turns) {
        for (const Vec2 at : spots) {
          const Transform xc{{0, 0}, q}, xp{{at.x - 0.5f * float(p == &disc) * q.c, at.y}, q};
          pairs.push_back({{p, xp, {}}, {core, xc, {}}});
          pairs.push_back({{core, xc, {}}, {p, xp, {}}});
        }
      }
    }
  }
  const Paths paths;
  for (const SimdPath path : paths.list) {
    pebble::detail::use_simd_path(path);
    std::vector<DistanceResult> out(pairs.size());
    pebble::batch::distance(pairs, out);
    std::unique_ptr<bool[]> touching(new bool[pairs.size()]);
    pebble::batch::overlap(pairs, std::span<bool>(touching.get(), pairs.size()));
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      EXPECT_TRUE(same(out[i], one_distance(pairs[i].a, pairs[i].b, 0)))
          << "pair " << i << " on " << pebble::simd_path_name(path) << ": " << text(pairs[i].a) << " "
          << text(pairs[i].b);
      EXPECT_EQ(touching[i], one_overlap(pairs[i].a, pairs[i].b, 0)) << "pair " << i;
    }
  }
}

TEST(Batch, DistanceRunsOfDiscPairsMatchTheSingleQuery) {
  // batch::distance() answers a run of 8 (AVX2) or 4 consecutive disc pairs at once and writes
  // their records together (each record's last 16-byte store spills into the next record, the
  // last record's does not). Runs broken by a capsule, a box or a null shape at every position,
  // invalid transforms and coincident centres inside a run, calls of every length from 1 to 40,
  // and a guard record after the output that must stay untouched; both call forms.
  const Shape discs[] = {Shape::circle(0.5f), Shape::circle(0.3f, {0.1f, -0.2f}), Shape::circle(0)};
  const Shape capsule = Shape::capsule({-0.3f, 0}, {0.3f, 0}, 0.2f), box = Shape::box(0.4f, 0.3f);
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> u(-1, 1);
  const auto disc_body = [&] {
    BatchBody b{&discs[rng() % 3], {{3 * u(rng), 3 * u(rng)}, Rot::from_angle(3.2f * u(rng))}, {}};
    switch (rng() % 25) {
      case 0:
        b.transform.p.x = kNaN;
        break;
      case 1:
        b.transform.p.y = -2e9f;
        break;
      case 2:
        b.transform.q = {1, 1};
        break;
      default:
        break;
    }
    return b;
  };
  std::vector<BatchPair> pairs;
  for (int i = 0; i < 2000; ++i) {
    BatchPair p{disc_body(), disc_body()};
    if (rng() % 20 == 0) p.b.transform = p.a.transform;  // coincident centres (distance() rescales)
    pairs.push_back(p);
  }
  // Breaks: pair 64 + 25 k (k = 0..7, a different place in its run of 8 each time) is not two discs.
  for (int k = 0; k < 8; ++k) {
    BatchPair& p = pairs[std::size_t(64 + 24 * k + k)];
    switch (k % 4) {
      case 0:
        p.b.shape = &capsule;
        break;
      case 1:
        p.a.shape = &box;
        break;
      case 2:
        p.a.shape = nullptr;
        break;
      default:
        p.b.shape = nullptr;
        break;
    }
  }
  const Paths paths;
  for (const SimdPath path : paths.list) {
    pebble::detail::use_simd_path(path);
    const DistanceResult guard{-7, {-7, -7}, {-7, -7}, {-7, -7}};
    for (std::size_t n = 1; n <= 40; ++n) {
      for (const std::size_t from : {std::size_t(0), std::size_t(61), std::size_t(500)}) {
        const std::span<const BatchPair> some(pairs.data() + from, n);
        std::vector<DistanceResult> out(n + 1, guard);
        pebble::batch::distance(some, std::span<DistanceResult>(out).first(n));
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_TRUE(same(out[i], one_distance(some[i].a, some[i].b, 0)))
              << "pair " << from + i << " of " << n << " on " << pebble::simd_path_name(path) << ": " << text(some[i].a)
              << " " << text(some[i].b);
        }
        ASSERT_TRUE(same(out[n], guard)) << n << " pairs on " << pebble::simd_path_name(path);
      }
    }
    std::vector<DistanceResult> out(pairs.size());
    pebble::batch::distance(pairs, out);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      ASSERT_TRUE(same(out[i], one_distance(pairs[i].a, pairs[i].b, 0)))
          << "pair " << i << " on " << pebble::simd_path_name(path);
    }
    // One against many: a disc, an invalid disc, a capsule and a null shape as the one.
    std::vector<BatchBody> others;
    for (const BatchPair& p : pairs) others.push_back(p.b);
    BatchBody invalid = pairs[0].a;
    invalid.transform.p.x = kNaN;
    const BatchBody ones[] = {pairs[0].a, pairs[5].a, invalid, {&capsule, {}, {}}, {nullptr, {}, {}}};
    for (const BatchBody& a : ones) {
      for (const std::size_t n : {std::size_t(7), std::size_t(9), others.size()}) {
        std::vector<DistanceResult> many(n + 1, guard);
        pebble::batch::distance(a, std::span<const BatchBody>(others).first(n),
                                std::span<DistanceResult>(many).first(n));
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_TRUE(same(many[i], one_distance(a, others[i], 0)))
              << "one against many, body " << i << " on " << pebble::simd_path_name(path);
        }
        ASSERT_TRUE(same(many[n], guard));
      }
    }
  }
}

TEST(Batch, CapsuleAndBoxTimeToCollisionLanesMatchTheSingleQueryAtAlignments) {
  // time_to_collision()'s lanes for a disc against a capsule or a 4-vertex core and for two
  // capsules, where the ray cast's comparisons act: B aimed at A, along an axis, diagonally and
  // along a capsule's side; offsets that put the path exactly on a slab's side (|h| = r), on a
  // corner circle's tangent, through a vertex; exact quarter turns (normals with zero and
  // negative-zero parts: the difference's first edge and the merge's ties), parallel and
  // perpendicular capsules, sharp segments and boxes (radius 0), and no relative motion.
  const Shape capsule = Shape::capsule({-0.3f, 0}, {0.3f, 0}, 0.2f),
              long_capsule = Shape::capsule({-1, -0.5f}, {1, 0.5f}, 0.1f);
  const Shape segment = Shape::segment({0, -0.5f}, {0, 0.5f}), box = Shape::box(0.4f, 0.3f),
              rounded = Shape::rounded_box(0.3f, 0.2f, 0.1f);
  const Shape disc = Shape::circle(0.3f), point = Shape::circle(0), off_centre = Shape::circle(0.25f, {0.1f, -0.2f});
  const Shape* kinds[] = {&capsule, &long_capsule, &segment, &box, &rounded, &disc, &point, &off_centre};
  const Vec2 offsets[] = {{2, 0},    {0, 2},    {-2, 0.5f},  {2, 0.5f},    {2, -0.5f}, {1.5f, 1.5f}, {0.6f, 0.5f},
                          {0.5f, 0}, {3, 0.2f}, {-2, -0.3f}, {0.3f, 0.5f}, {0, 0},     {2, 0.4f},    {1, 0.7f}};
  const Vec2 motions[] = {{-1, 0}, {0, -1}, {-1, -1}, {1, 0.5f}, {-2, -0.25f}, {0, 0}};
  const Rot turns[] = {Rot::identity(),       Rot{0, 1}, Rot{-1, 0}, Rot{0, -1}, Rot::from_angle(0.7f),
                       Rot::from_angle(-2.1f)};
  std::vector<BatchPair> pairs;
  for (const Shape* ka : kinds) {
    for (const Shape* kb : kinds) {
      const bool lanes = (ka->vertex_count() == 1) != (kb->vertex_count() == 1) ||
                         (ka->vertex_count() == 2 && kb->vertex_count() == 2);
      if (!lanes) continue;
      for (const Rot qa : turns) {
        for (const Rot qb : turns) {
          for (const Vec2 off : offsets) {
            for (const Vec2 v : motions) {
              const Transform xa{{0.5f, -0.25f}, qa}, xb{xa.p + off, qb};
              pairs.push_back({{ka, xa, {}}, {kb, xb, v}});
              // B aimed at A's position, as a crowd's agents walk into each other.
              pairs.push_back({{ka, xa, Vec2{0.25f, 0}}, {kb, xb, -1.25f * off}});
            }
          }
        }
      }
    }
  }
  const Paths paths;
  int hits = 0;
  for (const SimdPath path : paths.list) {
    pebble::detail::use_simd_path(path);
    std::vector<float> out(pairs.size());
    pebble::batch::time_to_collision(pairs, 2, out);
    int bad = 0;
    hits = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const float expected = one_ttc(pairs[i].a, pairs[i].b, 2);
      hits += expected < pebble::kNoCollision;
      if (!same(out[i], expected) && ++bad <= 5) {
        ADD_FAILURE() << "pair " << i << " on " << pebble::simd_path_name(path) << ": " << out[i] << " against "
                      << expected << " " << text(pairs[i].a) << " " << text(pairs[i].b);
      }
    }
    EXPECT_EQ(bad, 0);
    // The one-against-many form, with each kind as the one.
    for (std::size_t k = 0; k < pairs.size(); k += pairs.size() / 5) {
      std::vector<BatchBody> others;
      for (std::size_t i = k; i < std::min(pairs.size(), k + 2000); ++i) others.push_back(pairs[i].b);
      std::vector<float> many(others.size());
      pebble::batch::time_to_collision(pairs[k].a, others, 2, many);
      for (std::size_t i = 0; i < others.size(); ++i) {
        EXPECT_TRUE(same(many[i], one_ttc(pairs[k].a, others[i], 2)))
            << "one against many, body " << i << " on " << pebble::simd_path_name(path);
      }
    }
  }
  // The cases must exercise the touches, not only the misses.
  EXPECT_GT(hits, int(pairs.size() / 3)) << pairs.size() << " pairs";
}

TEST(Batch, CapsuleTimeToCollisionLanesMatchTheSingleQueryOnDifferencesWithAnEdgeOfLengthZero) {
  // A capsule far shorter than the rounding of its coordinates: in the two capsules' difference
  // (a parallelogram) its edges round to length 0. The single query takes an entry there to the
  // vertex's circle (cast/ray_core.hpp, contact_after_entry); the lanes must leave such lanes to
  // it. The first pair is the query fuzzer's finding (fuzz/corpus/query/
  // query-batch-ttc-degenerate-difference): the batch kept a hit at 0x1.e1e3c4p-11 where the single
  // query has none.
  std::vector<Shape> shapes;
  std::vector<BatchPair> pairs;
  shapes.reserve(256);
  const Shape finding_a = Shape::capsule({0.01f, 0}, {1e-40f, 1e-40f}, 0);
  const Shape finding_b = Shape::capsule({394758.031f, 394758.062f}, {394758.031f, 394800.031f}, 394758.031f);
  pairs.push_back({{&finding_a, {{394758.188f, 394758.031f}, Rot::identity()}, {1.73e-18f, 34.13f}},
                   {&finding_b, {{394758.031f, 394758.031f}, Rot::identity()}, {34.13f, 0.1333f}}});
  for (const float far : {1e4f, 3.9e5f, 1e6f}) {
    for (const float shortness : {0.01f, 1e-3f, 1e-6f}) {
      for (const float radius : {0.0f, 0.5f, 30.0f, far}) {
        shapes.push_back(Shape::capsule({shortness, 0}, {0, 0}, radius == far ? 0.0f : 0.1f));
        const Shape* a = &shapes.back();
        shapes.push_back(Shape::capsule({far, far}, {far, far + 40}, radius));
        const Shape* b = &shapes.back();
        for (const Vec2 off : {Vec2{0.15f, 0}, Vec2{radius + 1, 0}, Vec2{-radius - 2, 20}, Vec2{0, -radius - 3}}) {
          for (const Vec2 v : {Vec2{34, 0.13f}, Vec2{-40, 0}, Vec2{1e-18f, 34}, Vec2{0, -50}, Vec2{radius, radius}}) {
            pairs.push_back(
                {{a, {{far + off.x, far + off.y}, Rot::identity()}, {0, 0}}, {b, {{far, far}, Rot::identity()}, v}});
            pairs.push_back({{a, {{far + off.x, far + off.y}, Rot::identity()}, -1.0f * v},
                             {b, {{far, far}, Rot::from_angle(1.5f)}, {}}});
          }
        }
      }
    }
  }
  const Paths paths;
  for (const SimdPath path : paths.list) {
    pebble::detail::use_simd_path(path);
    std::vector<float> out(pairs.size());
    pebble::batch::time_to_collision(pairs, 1, out);
    int bad = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const float expected = one_ttc(pairs[i].a, pairs[i].b, 1);
      if (!same(out[i], expected) && ++bad <= 5) {
        ADD_FAILURE() << "pair " << i << " on " << pebble::simd_path_name(path) << ": " << out[i] << " against "
                      << expected << " " << text(pairs[i].a) << " " << text(pairs[i].b);
      }
    }
    EXPECT_EQ(bad, 0) << pairs.size() << " pairs on " << pebble::simd_path_name(path);
  }
}

TEST(Batch, CapsuleDistanceLanesMatchTheSingleQueryAtAlignments) {
  // distance()'s lanes for two capsules and for a disc (or point) and a capsule, where
  // query_segments() and closest_features_on(), or point_to_core(), decide:
  // parallel and antiparallel capsules side by side (the preference for A's face within
  // kParallelFacePreference), end to end and in line, perpendicular (a face contact, and an end
  // against an end), crossing and overlapping (the single query), exactly touching, sharp segments;
  // exact quarter turns (normals with zero and negative-zero parts) and inexact angles; a disc over
  // a capsule's side, past its end, on its axis and at its centre.
  const Shape capsule = Shape::capsule({-0.3f, 0}, {0.3f, 0}, 0.2f),
              long_capsule = Shape::capsule({-1, -0.5f}, {1, 0.5f}, 0.1f);
  const Shape segment = Shape::segment({0, -0.5f}, {0, 0.5f}),
              short_capsule = Shape::capsule({0, 0}, {0.25f, 0}, 0.05f);
  const Shape disc = Shape::circle(0.3f), point = Shape::circle(0), off_centre = Shape::circle(0.25f, {0.1f, -0.2f});
  const Shape* kinds[] = {&capsule, &long_capsule, &segment, &short_capsule, &disc, &point, &off_centre};
  const Vec2 offsets[] = {{0, 0.5f},     {0, 0.4f},     {0.6f, 0},   {1, 0},         {1.2f, 0.1f},
                          {0.3f, 0.45f}, {-0.3f, 0.6f}, {0, 0},      {0.5f, 0.5f},   {2, 1},
                          {0.3f, 0},     {0.6f, 0.4f},  {-1, 0.25f}, {0.75f, -0.2f}, {0.0001f, 0.3f}};
  const Rot turns[] = {Rot::identity(),
                       Rot{0, 1},
                       Rot{-1, 0},
                       Rot{0, -1},
                       Rot::from_angle(0.7f),
                       Rot::from_angle(-2.1f),
                       Rot::from_angle(1e-4f),
                       Rot::from_angle(3.1415f)};
  std::vector<BatchPair> pairs;
  for (const Shape* ka : kinds) {
    for (const Shape* kb : kinds) {
      for (const Rot qa : turns) {
        for (const Rot qb : turns) {
          for (const Vec2 off : offsets) {
            const Transform xa{{0.5f, -0.25f}, qa};
            pairs.push_back({{ka, xa, {}}, {kb, {xa.p + off, qb}, {}}});
            pairs.push_back({{ka, {{-40, 12}, qa}, {}}, {kb, {Vec2{-40, 12} + 1.5f * off, qb}, {}}});
          }
        }
      }
    }
  }
  const Paths paths;
  for (const SimdPath path : paths.list) {
    pebble::detail::use_simd_path(path);
    std::vector<DistanceResult> out(pairs.size());
    pebble::batch::distance(pairs, out);
    int bad = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      if (!same(out[i], one_distance(pairs[i].a, pairs[i].b, 0)) && ++bad <= 5) {
        ADD_FAILURE() << "pair " << i << " on " << pebble::simd_path_name(path) << ": " << out[i].distance
                      << " against " << one_distance(pairs[i].a, pairs[i].b, 0).distance << " " << text(pairs[i].a)
                      << " " << text(pairs[i].b);
      }
    }
    EXPECT_EQ(bad, 0);
    std::vector<DistanceResult> many(pairs.size() / 4);
    std::vector<BatchBody> others;
    for (std::size_t i = 0; i < many.size(); ++i) others.push_back(pairs[i].b);
    pebble::batch::distance(pairs[0].a, others, many);
    for (std::size_t i = 0; i < many.size(); ++i)
      EXPECT_TRUE(same(many[i], one_distance(pairs[0].a, others[i], 0))) << "one against many, " << i;
  }
}

// ---------------------------------------------------------------------------------------------
// Two discs, by hand: where the closed form's comparisons act.

const Transform kId{};
Transform at(float x, float y) { return {{x, y}, Rot::identity()}; }

TEST(DiscApproach, ExactGrazeTouchesAtTheClosestTime) {
  // B's path passes A's centre at exactly R = 2: it touches at tc = 4 and only there.
  const Shape a = Shape::circle(1.5f), b = Shape::circle(0.5f);
  const ApproachResult r = pebble::closest_approach(a, kId, {0, 0}, b, at(4, 2), {-1, 0}, 5);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.time, 4);
  EXPECT_EQ(r.distance, 0);
  EXPECT_EQ(r.normal, (Vec2{0, 1}));
  EXPECT_EQ(pebble::time_to_collision(a, kId, {0, 0}, b, at(4, 2), {-1, 0}, 5), 4);
  // Just wide of it: no touch, least distance at the same time.
  const ApproachResult miss = pebble::closest_approach(a, kId, {0, 0}, b, at(4, 2.0078125f), {-1, 0}, 5);
  EXPECT_FALSE(miss.hit);
  EXPECT_EQ(miss.time, 4);
  EXPECT_EQ(miss.distance, 0.0078125f);
  EXPECT_EQ(pebble::time_to_collision(a, kId, {0, 0}, b, at(4, 2.0078125f), {-1, 0}, 5), pebble::kNoCollision);
}

TEST(DiscApproach, TouchExactlyAtTheHorizonCounts) {
  const Shape c = Shape::circle(1);
  // Head on: the gap 3 closes at speed 1 at t = 3.
  EXPECT_EQ(pebble::time_to_collision(c, kId, {0.5f, 0}, c, at(5, 0), {-0.5f, 0}, 3), 3);
  EXPECT_EQ(pebble::time_to_collision(c, kId, {0.5f, 0}, c, at(5, 0), {-0.5f, 0}, 2.99f), pebble::kNoCollision);
  const ApproachResult r = pebble::closest_approach(c, kId, {0.5f, 0}, c, at(5, 0), {-0.5f, 0}, 2.99f);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.time, 2.99f);
}

TEST(DiscApproach, StartingInContactHitsAtZeroWhateverTheMotion) {
  const Shape c = Shape::circle(1);
  for (const Vec2 v : {Vec2{1, 0}, Vec2{-1, 0}, Vec2{0, 1}, Vec2{0, 0}}) {
    const ApproachResult r = pebble::closest_approach(c, kId, {0, 0}, c, at(2, 0), v, 1);  // touching exactly
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.time, 0);
    EXPECT_EQ(r.distance, 0);
    EXPECT_EQ(pebble::time_to_collision(c, kId, {0, 0}, c, at(2, 0), v, 1), 0);
  }
  // Overlapping and moving apart: a hit at 0 with the depth.
  const ApproachResult o = pebble::closest_approach(c, kId, {0, 0}, c, at(1.5f, 0), {1, 0}, 1);
  EXPECT_TRUE(o.hit);
  EXPECT_EQ(o.time, 0);
  EXPECT_EQ(o.distance, -0.5f);
}

TEST(DiscApproach, CoincidentCentresTakeAsLocalUp) {
  const Shape c = Shape::circle(1);
  const Transform xa{{3, 3}, Rot::from_angle(0.5f)};
  const ApproachResult r = pebble::closest_approach(c, xa, {1, 0}, c, xa, {1, 0}, 1);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.distance, -2);
  EXPECT_EQ(r.normal, (Vec2{-xa.q.s, xa.q.c}));
  // And in a batch lane beside ordinary pairs.
  std::vector<BatchPair> pairs(9, BatchPair{{&c, xa, {1, 0}}, {&c, at(0, 0), {0, 1}}});
  pairs[4].b = {&c, xa, {1, 0}};
  std::vector<ApproachResult> out(9);
  pebble::batch::closest_approach(pairs, 1, out);
  EXPECT_TRUE(same(out[4], r));
  EXPECT_TRUE(same(out[3], pebble::closest_approach(c, xa, {1, 0}, c, at(0, 0), {0, 1}, 1)));
}

TEST(DiscApproach, MovingApartIsClosestAtTheStart) {
  const Shape c = Shape::circle(0.5f);
  const ApproachResult r = pebble::closest_approach(c, kId, {-1, 0}, c, at(3, 0), {1, 1}, 4);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.time, 0);
  EXPECT_EQ(r.distance, 2);
  EXPECT_EQ(pebble::time_to_collision(c, kId, {-1, 0}, c, at(3, 0), {1, 1}, 4), pebble::kNoCollision);
}

}  // namespace
