// pebble/math.hpp: pebble's own trigonometry (Rot::from_angle, Rot::angle, and the double forms in
// src/geometry/trig.hpp) against the C library's long double functions, which are independent of
// it. Accuracy is counted in ulps of the float (or double) result.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "geometry/trig.hpp"
#include "pebble/pebble.hpp"

namespace {

using pebble::Rot;

/// |got - exact| in units of the last place of the float nearest `exact` (at least the smallest
/// normal's ulp, so that values near 0 are measured against float's absolute resolution there).
long double float_ulps(float got, long double exact) {
  const long double mag = std::max(std::fabs(exact), (long double)FLT_MIN);
  const int e = std::ilogb(mag);
  const long double ulp = std::ldexp(1.0L, e - 23);
  return std::fabs((long double)got - exact) / ulp;
}
long double double_ulps(double got, long double exact) {
  const long double mag = std::max(std::fabs(exact), (long double)DBL_MIN);
  const long double ulp = std::ldexp(1.0L, std::ilogb(mag) - 52);
  return std::fabs((long double)got - exact) / ulp;
}

/// The angles every trig test runs: random ones at several scales, and the hand-made ones where
/// the reduction or the rounding acts (quarter turns, the float nearest each multiple of pi/2,
/// zeros, denormals, the exact-reduction limit).
std::vector<float> test_angles() {
  std::vector<float> a;
  std::mt19937 rng(20261128);
  for (float scale : {1.0f, 4.0f, 64.0f, 1e4f, 5e5f}) {
    std::uniform_real_distribution<float> u(-scale, scale);
    for (int i = 0; i < 200000; ++i) a.push_back(u(rng));
  }
  for (int k = -4000; k <= 4000; ++k) {
    const float q = float((long double)k * 1.57079632679489661923132169163975144L);
    for (float v = q, n = 0; n < 4; ++n, v = std::nextafter(v, 1e30f)) a.push_back(v);
    for (float v = q, n = 0; n < 4; ++n, v = std::nextafter(v, -1e30f)) a.push_back(v);
  }
  for (float v : {0.0f, -0.0f, 1e-45f, -1e-45f, 1e-38f, 1e-20f, 3e-4f, 0.785398163f, 0x1p19f, -0x1p19f,
                  std::nextafter(0x1p19f, 0.0f), 3.14159274f, -3.14159274f, 6.28318548f})
    a.push_back(v);
  return a;
}

TEST(Trig, FromAngleIsWithinHalfAnUlpOfTheExactCosineAndSine) {
  long double worst_c = 0, worst_s = 0, worst_unit = 0;
  float at_c = 0, at_s = 0;
  long rounded_apart = 0, count = 0;
  for (float x : test_angles()) {
    const Rot q = Rot::from_angle(x);
    const long double c = std::cos((long double)x), s = std::sin((long double)x);
    const long double ec = float_ulps(q.c, c), es = float_ulps(q.s, s);
    if (ec > worst_c) worst_c = ec, at_c = x;
    if (es > worst_s) worst_s = es, at_s = x;
    rounded_apart += (ec > 0.5L) + (es > 0.5L);
    ++count;
    worst_unit = std::max(worst_unit, std::fabs((long double)q.c * q.c + (long double)q.s * q.s - 1));
  }
  // Correct rounding but for a double rounding near a float midpoint: 0.5 ulp plus 1e-6.
  EXPECT_LE(worst_c, 0.500001L) << "at " << at_c;
  EXPECT_LE(worst_s, 0.500001L) << "at " << at_s;
  EXPECT_LE(worst_unit, 1.2e-7L);  // c*c + s*s within 2 float ulps of 1 (the contract's rotations)
  RecordProperty("worst_cos_ulps", double(worst_c));
  RecordProperty("worst_sin_ulps", double(worst_s));
  std::printf(
      "from_angle over %ld angles: worst cos %.9Lf ulp at %.9g, worst sin %.9Lf ulp at %.9g, "
      "%ld of %ld values not the nearest float, |c^2 + s^2 - 1| <= %.3Lg\n",
      count, worst_c, double(at_c), worst_s, double(at_s), rounded_apart, 2 * count, worst_unit);
}

TEST(Trig, FromAngleAtExactValues) {
  EXPECT_EQ(Rot::from_angle(0.0f), (Rot{1, 0}));
  const Rot neg = Rot::from_angle(-0.0f);
  EXPECT_EQ(neg.c, 1.0f);
  EXPECT_TRUE(std::signbit(neg.s));
  // The float nearest pi/2 is 4.37e-8 past it: cos is that small and negative, sin rounds to 1.
  const Rot quarter = Rot::from_angle(1.57079637f);
  EXPECT_EQ(quarter.s, 1.0f);
  EXPECT_FLOAT_EQ(quarter.c, -4.37113883e-8f);
  const Rot half = Rot::from_angle(3.14159274f);
  EXPECT_EQ(half.c, -1.0f);
  EXPECT_FLOAT_EQ(half.s, -8.74227766e-8f);
  // Non-finite angles give NaN (is_valid rejects the rotation).
  for (float bad : {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                    std::numeric_limits<float>::quiet_NaN()}) {
    const Rot q = Rot::from_angle(bad);
    EXPECT_TRUE(std::isnan(q.c) && std::isnan(q.s));
    EXPECT_FALSE(pebble::is_valid(pebble::Transform{{0, 0}, q}));
  }
}

TEST(Trig, FromAngleBeyondTheExactReductionIsAUnitRotationNearTheAngle) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mantissa(1, 2);
  for (int e = 19; e <= 127; ++e) {
    for (int i = 0; i < 200; ++i) {
      const float x = std::ldexp(mantissa(rng), e) * (i % 2 ? -1.0f : 1.0f);
      const Rot q = Rot::from_angle(x);
      ASSERT_LE(std::fabs((long double)q.c * q.c + (long double)q.s * q.s - 1), 1.2e-7L) << x;
      // The documented error: the angle off by |x| x 4e-17 rad (a double 2 pi's rounding), plus
      // float rounding. Checked where that means something.
      if (e <= 40) {
        const long double off = std::fabs(x) * 4e-17L + 1.2e-7L;
        EXPECT_NEAR(q.c, std::cos((long double)x), off) << x;
        EXPECT_NEAR(q.s, std::sin((long double)x), off) << x;
      }
    }
  }
}

TEST(Trig, AngleIsWithinHalfAnUlpOfTheExactArctangent) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1, 1);
  long double worst = 0;
  float at_c = 0, at_s = 0;
  std::vector<Rot> rotations;
  for (float x : test_angles()) rotations.push_back(Rot::from_angle(x));
  for (int i = 0; i < 300000; ++i) rotations.push_back({u(rng), u(rng)});                  // any length
  for (int i = 0; i < 50000; ++i) rotations.push_back({u(rng) * 1e-30f, u(rng) * 1e30f});  // steep, huge and tiny
  for (int i = 0; i < 50000; ++i) rotations.push_back({1, u(rng) * 1e-4f});                // near the reduction's ends
  for (int i = 0; i < 50000; ++i) rotations.push_back({u(rng), u(rng) * 0.27f * std::fabs(rotations.back().c)});
  for (const Rot& q : rotations) {
    const long double exact = std::atan2((long double)q.s, (long double)q.c);
    const long double e = float_ulps(q.angle(), exact);
    if (e > worst) worst = e, at_c = q.c, at_s = q.s;
  }
  EXPECT_LE(worst, 0.500001L) << "at c " << at_c << " s " << at_s;
  std::printf("angle over %zu rotations: worst %.9Lf ulp\n", rotations.size(), worst);
}

TEST(Trig, AngleFollowsCForZerosInfinitiesAndNaN) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-45f, -1e-45f, 3e38f, -3e38f, inf, -inf};
  for (float c : values) {
    for (float s : values) {
      const float mine = Rot{c, s}.angle(), theirs = std::atan2(s, c);
      EXPECT_EQ(std::signbit(mine), std::signbit(theirs)) << "c " << c << " s " << s;
      EXPECT_LE(float_ulps(mine, std::atan2((long double)s, (long double)c)), 0.5L) << "c " << c << " s " << s;
    }
  }
  EXPECT_TRUE(std::isnan(Rot{nan, 1}.angle()));
  EXPECT_TRUE(std::isnan(Rot{1, nan}.angle()));
}

TEST(Trig, DoubleFormsAreWithinThreeUlpsOfDouble) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  long double worst_c = 0, worst_s = 0, worst_a = 0;
  for (int i = 0; i < 400000; ++i) {
    const double x = u(rng) * (i % 4 == 0 ? 1e5 : 4);
    double c, s;
    pebble::detail::cos_sin(x, c, s);
    worst_c = std::max(worst_c, double_ulps(c, std::cos((long double)x)));
    worst_s = std::max(worst_s, double_ulps(s, std::sin((long double)x)));
    const double y = u(rng), z = u(rng) * (i % 3 == 0 ? 1e-3 : 1);
    worst_a = std::max(worst_a, double_ulps(pebble::detail::atan2(y, z), std::atan2((long double)y, (long double)z)));
  }
  // The mass of a rounded corner uses atan2's angle; the mover's slope its cosine.
  EXPECT_LE(worst_c, 3.0L);
  EXPECT_LE(worst_s, 3.0L);
  EXPECT_LE(worst_a, 3.0L);
  std::printf("double forms: worst cos %.3Lf, sin %.3Lf, atan2 %.3Lf ulp\n", worst_c, worst_s, worst_a);
}

}  // namespace

namespace {

using pebble::Shape;
using pebble::Transform;

TEST(Rotations, TheToleranceBoundsHowFarAFrameChangeScalesAnOffset) {
  // Queries use an accepted rotation as given (docs/robustness.md, Rotations): a box turned by a
  // rotation |q|^2 = 1 + kRotationTolerance sees a box 1e4 away 1e4 x tolerance / 2 = 0.05 too far,
  // not units (at the tolerance of 1e-3 before, 5). Past the tolerance the query is refused.
  const Shape box = Shape::box(1, 1);
  const Transform far{{1e4f, 0.5f}, Rot::identity()};
  for (const float deviation : {0.0f, 0.5f * pebble::kRotationTolerance, 0.9f * pebble::kRotationTolerance,
                                -0.9f * pebble::kRotationTolerance}) {
    const Transform scaled{{0, 0}, Rot{float(std::sqrt(1.0 + double(deviation))), 0}};
    ASSERT_TRUE(pebble::is_valid(scaled)) << deviation;
    const float d = pebble::distance(box, scaled, box, far).distance;
    EXPECT_NEAR(d, 1e4f - 2, 1e4f * 0.5f * pebble::kRotationTolerance + 2e-3f) << deviation;
  }
  const Transform past{{0, 0}, Rot{float(std::sqrt(1.0 + 2.0 * pebble::kRotationTolerance)), 0}};
  EXPECT_FALSE(pebble::is_valid(past));
  EXPECT_EQ(pebble::distance(box, past, box, far).distance, pebble::kHugeDistance);
  EXPECT_EQ(pebble::collide(box, past, box, Transform{{1.5f, 0}, Rot::identity()}).count, 0);
}

TEST(Rotations, HonestRotationsAreWellInsideTheTolerance) {
  // from_angle and normalize() give |q|^2 within 3e-7 of 1, and 128 products of them stay inside
  // the tolerance, so that a rotation composed for a while is accepted (and normalize() repairs one
  // composed for longer).
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-3.2f, 3.2f);
  const auto deviation = [](Rot q) { return std::fabs((long double)q.c * q.c + (long double)q.s * q.s - 1); };
  long double worst_product = 0;
  for (int t = 0; t < 2000; ++t) {
    Rot q = Rot::from_angle(u(rng));
    for (int i = 0; i < 128; ++i) q = pebble::mul(Rot::from_angle(u(rng)), q);
    worst_product = std::max(worst_product, deviation(q));
    EXPECT_LE(deviation(pebble::normalize(q)), 3e-7L);
    EXPECT_LE(deviation(pebble::normalize(Rot{q.c * 1.01f, q.s * 1.01f})), 3e-7L);
  }
  EXPECT_LT(worst_product, (long double)pebble::kRotationTolerance / 2);
  EXPECT_EQ(pebble::normalize(Rot{0, 0}), Rot::identity());
  EXPECT_EQ(pebble::normalize(Rot{std::numeric_limits<float>::quiet_NaN(), 1}), Rot::identity());
  EXPECT_EQ(pebble::normalize(Rot{0, -2}), (Rot{0, -1}));
}

}  // namespace
