// pebble/simd.hpp: the contact queries give the same results, bit for bit, on every copy of their
// kernels the build and the CPU have (scalar, SSE2, AVX2), so that a simulation does not depend
// on the machine. The oracle tests (manifold_test, distance_test) run on the path the library
// picks, and ctest runs them once more with PEBBLE_SIMD=sse2 and with PEBBLE_SIMD=scalar.
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <pebble/pebble.hpp>
#include <pebble/simd.hpp>

#include "contact_cases.hpp"
#include "test_hooks.hpp"  // pebble::test_hooks (src/, not installed)

namespace {

using namespace contact_cases;
using pebble::DistanceResult;
using pebble::Manifold;
using pebble::SimdPath;

/// The paths this build and CPU have, the one in use first.
std::vector<SimdPath> available_paths() {
  const SimdPath start = pebble::simd_path();
  std::vector<SimdPath> out{start};
  for (SimdPath p : {SimdPath::scalar, SimdPath::sse2, SimdPath::avx2, SimdPath::neon}) {
    if (p != start && pebble::detail::use_simd_path(p)) out.push_back(p);
  }
  pebble::detail::use_simd_path(start);
  return out;
}

/// Restores the path in use when a test ends.
struct PathGuard {
  SimdPath saved = pebble::simd_path();
  ~PathGuard() { pebble::detail::use_simd_path(saved); }
};

/// Everything the contact queries answer for one pair.
struct Answers {
  Manifold touching, speculative, generic;
  DistanceResult distance, distance_generic;
  bool overlap;
};

Answers answers(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  Answers r{};
  r.touching = pebble::collide(a, xa, b, xb);
  r.speculative = pebble::collide(a, xa, b, xb, 0.1f);
  r.generic = pebble::detail::collide_generic(a, xa, b, xb, 0.05f);
  r.distance = pebble::distance(a, xa, b, xb);
  r.distance_generic = pebble::detail::distance_generic(a, xa, b, xb);
  r.overlap = pebble::overlap(a, xa, b, xb);
  return r;
}

/// Field by field, bit for bit: with double positions the result structs have padding bytes
/// (8-byte points beside 4-byte fields), which a comparison of the whole struct would read.
template <class T>
bool same_field(const T& x, const T& y) {  // a float, Vec2 or Position: no padding inside
  return std::memcmp(&x, &y, sizeof x) == 0;
}
bool same_bytes(const Manifold& x, const Manifold& y) {
  bool same = same_field(x.normal, y.normal) && x.count == y.count;
  for (int i = 0; i < 2; ++i) {
    same = same && same_field(x.points[i].point, y.points[i].point) &&
           same_field(x.points[i].separation, y.points[i].separation) && x.points[i].id == y.points[i].id;
  }
  return same;
}
bool same_bytes(const DistanceResult& x, const DistanceResult& y) {
  return same_field(x.distance, y.distance) && same_field(x.normal, y.normal) && same_field(x.point_a, y.point_a) &&
         same_field(x.point_b, y.point_b);
}

bool same_bits(const Answers& x, const Answers& y) {
  return same_bytes(x.touching, y.touching) && same_bytes(x.speculative, y.speculative) &&
         same_bytes(x.generic, y.generic) && same_bytes(x.distance, y.distance) &&
         same_bytes(x.distance_generic, y.distance_generic) && x.overlap == y.overlap;
}

/// Runs every query on every path and expects the same bytes; returns the number of pairs that
/// differ (reporting the first few).
int count_differences(const std::vector<SimdPath>& paths, const Shape& a, const Transform& xa, const Shape& b,
                      const Transform& xb, const std::string& what, int& reported) {
  pebble::detail::use_simd_path(paths[0]);
  const Answers first = answers(a, xa, b, xb);
  int differ = 0;
  for (size_t i = 1; i < paths.size(); ++i) {
    pebble::detail::use_simd_path(paths[i]);
    const Answers other = answers(a, xa, b, xb);
    if (!same_bits(first, other)) {
      ++differ;
      if (reported++ < 5) {
        ADD_FAILURE() << pebble::simd_path_name(paths[0]) << " and " << pebble::simd_path_name(paths[i])
                      << " differ on " << what;
      }
    }
  }
  return differ;
}

TEST(Simd, NamesAndSwitching) {
  PathGuard guard;
  EXPECT_STREQ(pebble::simd_path_name(SimdPath::scalar), "scalar");
  EXPECT_STREQ(pebble::simd_path_name(SimdPath::sse2), "sse2");
  EXPECT_STREQ(pebble::simd_path_name(SimdPath::avx2), "avx2");
  EXPECT_STREQ(pebble::simd_path_name(SimdPath::neon), "neon");
  for (SimdPath p : available_paths()) {
    EXPECT_TRUE(pebble::detail::use_simd_path(p));
    EXPECT_EQ(pebble::simd_path(), p);
  }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(PEBBLE_NO_SIMD)
  // An x86-64 build has SSE2 and the scalar copy, and AVX2 exactly when the CPU has it.
  __builtin_cpu_init();
  EXPECT_TRUE(pebble::detail::use_simd_path(SimdPath::sse2));
  EXPECT_TRUE(pebble::detail::use_simd_path(SimdPath::scalar));
  EXPECT_EQ(pebble::detail::use_simd_path(SimdPath::avx2), __builtin_cpu_supports("avx2") != 0);
  EXPECT_FALSE(pebble::detail::use_simd_path(SimdPath::neon));
#endif
#if defined(__aarch64__) && !defined(PEBBLE_NO_SIMD)
  // An ARM64 build has NEON (its base copy) and the scalar copy, and no x86 copy.
  EXPECT_TRUE(pebble::detail::use_simd_path(SimdPath::scalar));
  EXPECT_TRUE(pebble::detail::use_simd_path(SimdPath::neon));
  EXPECT_FALSE(pebble::detail::use_simd_path(SimdPath::sse2));
  EXPECT_FALSE(pebble::detail::use_simd_path(SimdPath::avx2));
#endif
}

TEST(Simd, EveryPathGivesTheSameBits) {
  PathGuard guard;
  const std::vector<SimdPath> paths = available_paths();
  if (paths.size() < 2) GTEST_SKIP() << "only " << pebble::simd_path_name(paths[0]) << " here";

  std::vector<Pair> pairs;
  std::mt19937 rng(20261121);
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < 40; ++i) pairs.push_back(random_pair(ka, kb, rng));
    }
  }
  for (Pair& p : nearly_parallel_pairs(7, {0.0f, 1e-6f, 1e-3f}, {-0.01f, 0.0f, 1e-5f, 0.01f}))
    pairs.push_back(std::move(p));
  for (Pair& p : containment_pairs(8, 4)) pairs.push_back(std::move(p));
  for (Pair& p : zero_length_pairs(9, 10)) pairs.push_back(std::move(p));
  for (Pair& p : touching_pairs()) pairs.push_back(std::move(p));
  // Far coordinates and tiny shapes.
  for (int i = 0; i < 200; ++i) {
    pairs.push_back(random_pair(kAllKinds[i % 7], kAllKinds[(i / 7) % 7], rng, 1, {1e4f, -1e4f}));
    pairs.push_back(random_pair(kAllKinds[i % 7], kAllKinds[(i / 7) % 7], rng, 0.01f));
  }

  int differ = 0, reported = 0;
  for (const Pair& p : pairs)
    differ += count_differences(paths, p.a.shape, p.xa, p.b.shape, p.xb, describe(p), reported);
  for_each_invalid_placement(
      [&](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, const Transform& bad) {
        differ += count_differences(paths, a, xa, b, xb, "an invalid placement with " + lit(bad), reported);
      });
  EXPECT_EQ(differ, 0) << "of " << pairs.size() << " pairs";
}

TEST(Simd, SignedZerosAndExactTiesGiveTheSameBits) {
  // Cores with an edge through their own origin (offset 0) and vertices on both sides of it, at
  // quarter turns and whole offsets: projections of -0 and +0 and exactly equal separations in
  // several lanes, where only the rules of the lane operations (src/simd/wide.hpp: min and max return
  // the second of two equal values, one fixed reduction tree, the lowest matching lane) decide
  // the sign of a zero and the lane that wins. Changing min's or max's rule in one copy alone
  // makes this test fail.
  PathGuard guard;
  const std::vector<SimdPath> paths = available_paths();
  if (paths.size() < 2) GTEST_SKIP() << "only " << pebble::simd_path_name(paths[0]) << " here";
  const std::vector<ShapeSpec> shapes = {
      make_segment({-1, 0}, {1, 0}),
      make_capsule({-1, 0}, {1, 0}, 0.5f),
      make_polygon({{-1, 0}, {1, 0}, {0, 1}}),
      make_polygon({{-1, 0}, {1, 0}, {0, 1}}, 0.25f),
      make_polygon({{-1, 0}, {0, -1}, {1, 0}, {0, 1}}),
      make_segment({0, -1}, {0, 1}),
      make_circle(0.5f),
      make_box(1, 1),
      make_polygon({{-2, 0}, {2, 0}, {3, 1}, {2, 2}, {-2, 2}, {-3, 1}}),
      make_polygon({{-2, 0}, {2, 0}, {3, 1}, {3, 2}, {2, 3}, {-2, 3}, {-3, 2}, {-3, 1}}),
      make_polygon({{-2, 0}, {2, 0}, {3, 1}, {3, 2}, {2, 3}, {-2, 3}, {-3, 2}, {-3, 1}}, 0.125f)};
  const Rot quarter[] = {Rot::identity(), Rot{0, 1}, Rot{-1, 0}, Rot{0, -1}};
  const float shifts[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f};
  int differ = 0, reported = 0, pairs = 0;
  for (const ShapeSpec& a : shapes) {
    for (const ShapeSpec& b : shapes) {
      for (const Rot& qa : quarter) {
        for (const Rot& qb : quarter) {
          for (const float x : shifts) {
            for (const float y : shifts) {
              const Pair p{a, b, Transform{{0, 0}, qa}, Transform{{x, y}, qb}};
              differ += count_differences(paths, p.a.shape, p.xa, p.b.shape, p.xb, describe(p), reported);
              ++pairs;
            }
          }
        }
      }
    }
  }
  // Two pairs where the 8-lane min's rule decides a zero's sign (found by a search over integer
  // polygons at quarter turns, 2 in 7 million; swapping the operands of the AVX2 min changes them).
  const Pair found[] = {
      {make_polygon({{-2, 1}, {0, 0}, {2, 0}, {3, 1}, {0, 2}}),
       make_polygon({{-3, 1}, {0, -2}, {3, -2}, {2, 0}, {-2, 2}}), Transform{{0, 0}, Rot{0, 1}},
       Transform{{2, 1}, Rot{0, -1}}},
      {make_polygon({{-1, 1}, {2, -2}, {3, -2}, {3, 0}, {1, 3}}),
       make_polygon({{-3, -3}, {-2, -3}, {2, -2}, {3, -1}, {1, 2}, {-1, 1}}), Transform{{0, 0}, Rot{0, -1}},
       Transform{{-2, 2}, Rot{1, 0}}},
  };
  for (const Pair& p : found) {
    differ += count_differences(paths, p.a.shape, p.xa, p.b.shape, p.xb, describe(p), reported);
    ++pairs;
  }
  EXPECT_EQ(differ, 0) << "of " << pairs << " pairs";
}

TEST(Simd, TheCapsulePathGivesTheGenericPathsBits) {
  // collide() runs two 2-vertex cores (capsules, segments, rounded boxes whose core is a segment)
  // through a dedicated segment-segment path (contact/manifold.cpp, collide_capsules_body) that
  // answers most pairs itself and leaves the rest to the generic rule written for two edges; it
  // must give collide_generic()'s bytes, on every path, at every margin, for valid and invalid
  // placements.
  PathGuard guard;
  std::vector<Pair> pairs;
  std::mt19937 rng(20261122);
  for (Kind ka : {Kind::capsule, Kind::segment}) {
    for (Kind kb : {Kind::capsule, Kind::segment}) {
      // (collide_capsules_body answers most of these itself and the rest by the general rule.)
      for (int i = 0; i < 2000; ++i) pairs.push_back(random_pair(ka, kb, rng));
      for (int i = 0; i < 50; ++i) pairs.push_back(random_pair(ka, kb, rng, 0.01f));
      for (int i = 0; i < 50; ++i) pairs.push_back(random_pair(ka, kb, rng, 1, {1e4f, -1e4f}));
    }
  }
  for (Pair& p : nearly_parallel_pairs(10, {0.0f, 1e-6f, 1e-3f, 0.1f}, {-0.2f, -0.01f, 0.0f, 1e-5f, 0.01f})) {
    if (p.a.shape.vertex_count() == 2 && p.b.shape.vertex_count() == 2) pairs.push_back(std::move(p));
  }
  // Crossing, collinear, touching end to end, and parallel overlapping cores.
  const Transform id = Transform::identity();
  for (const float r : {0.0f, 0.25f}) {
    const Shape s = Shape::capsule({-1, 0}, {1, 0}, r);
    for (const Transform& xb : {Transform{{0, 0}, Rot::from_angle(1.2f)}, Transform{{2, 0}, Rot::identity()},
                                Transform{{1.5f, 0}, Rot::identity()}, Transform{{0.5f, 0.1f}, Rot::identity()},
                                Transform{{0, 0}, Rot::identity()}, Transform{{0, 0.5f}, Rot{-1, 0}}}) {
      pairs.push_back({make_capsule({-1, 0}, {1, 0}, r), make_capsule({-1, 0}, {1, 0}, 0.1f), id, xb});
    }
    (void)s;
  }
  int differ = 0;
  for (SimdPath path : available_paths()) {
    pebble::detail::use_simd_path(path);
    for (const Pair& p : pairs) {
      for (const float margin : {0.0f, 0.05f, 1.0f}) {
        const Manifold fast = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, margin);
        const Manifold slow = pebble::detail::collide_generic(p.a.shape, p.xa, p.b.shape, p.xb, margin);
        if (!same_bytes(fast, slow) && ++differ <= 5)
          ADD_FAILURE() << pebble::simd_path_name(path) << " margin " << margin << ": " << describe(p);
      }
    }
    for_each_invalid_placement(
        [&](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, const Transform&) {
          if (a.vertex_count() != 2 || b.vertex_count() != 2) return;
          if (!same_bytes(pebble::collide(a, xa, b, xb, 0.1f), pebble::detail::collide_generic(a, xa, b, xb, 0.1f)))
            ++differ;
        });
  }
  EXPECT_EQ(differ, 0) << "of " << pairs.size() << " pairs";
}

}  // namespace
