// Mass properties, area and bounds: random shapes of every kind against the Green's-theorem
// oracle (tests/oracle/mass.hpp), textbook closed forms, zero-area shapes, density handling
// and bounding boxes against densely sampled boundaries.
#include <gtest/gtest.h>

#include <pebble/mass.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <vector>
#include "random_cases.hpp"
#include "test_hooks.hpp"  // pebble::test_hooks (src/, not installed)

#include "oracle/mass.hpp"

using namespace pebble;
using oracle::real;

namespace {

constexpr real kPi = std::numbers::pi_v<long double>;
constexpr double kRelTol = 1e-5;  // the accuracy mass_properties promises against the oracle

// One float's rounding at magnitude |x|: the most a float output can be off by rounding alone.
real float_ulp(real x) { return std::fabs(x) * std::numeric_limits<float>::epsilon() + 1e-38L; }

// |got − want| / |want|; 0 when both are 0 (zero-area shapes), infinite when only want is.
real rel_error(real got, real want) {
  if (got == want) return 0;
  return std::fabs(got - want) / std::fabs(want);
}

// A shape made by pebble together with the exact definition the oracle is given.
struct Case {
  Shape shape;
  oracle::RShape exact;
  std::string label;
};

oracle::RShape to_oracle(const std::vector<Vec2>& points, float radius) {
  oracle::RShape out;
  for (Vec2 p : points) out.core.push_back({p.x, p.y});
  out.radius = radius;
  return out;
}

// How many random polygons the maker cleaned (see exact_shape).
int g_cleaned = 0;

// The exact shape the oracle integrates: hull(points) ⊕ disc, as the user asked for it. When
// the maker's clean-up changed the core (it welds and drops points within a tolerance that
// grows with the coordinates: 16 float steps of |x|, a sizeable part of a 0.01 shape placed at
// 1e3), the core pebble actually built is what mass_properties integrates, so the oracle gets
// that core instead (and still computes its hull itself). The hull only removes points, so
// equal vertex counts mean nothing was cleaned.
oracle::RShape exact_shape(const Shape& shape, const std::vector<Vec2>& points, float radius) {
  oracle::RShape raw = to_oracle(points, radius);
  if (oracle::gift_wrap_hull(raw.core).size() == size_t(shape.vertex_count())) return raw;
  ++g_cleaned;
  const auto v = shape.vertices();
  return to_oracle({v.begin(), v.end()}, radius);
}

// Diameter of the exact shape: the size every tolerance below scales with.
real size_of(const oracle::RShape& s) {
  real d = 0;
  for (const auto& a : s.core)
    for (const auto& b : s.core) d = std::max(d, std::sqrt(oracle::dot(a - b, a - b)));
  return d + 2 * s.radius;
}

class Generator {
public:
  explicit Generator(unsigned seed) : rng_(seed) {}

  real uniform(real lo, real hi) { return std::uniform_real_distribution<long double>(lo, hi)(rng_); }
  // Log-uniform in [lo, hi]: sizes from 0.01 to 100 are equally likely per decade.
  real log_uniform(real lo, real hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  // Where the core sits in the local frame: at the origin, or far from it (up to ±1e3 for
  // shapes up to size 1, where float coordinates keep only a few digits of the shape).
  Vec2 offset(real size) {
    switch (integer(0, 2)) {
      case 0:
        return {};
      case 1:
        return {float(uniform(-10, 10) * size), float(uniform(-10, 10) * size)};
      default: {
        const real far = size <= 1 ? 1e3L : 1e3L * size;
        return {float(uniform(-far, far)), float(uniform(-far, far))};
      }
    }
  }

  // Points in convex position on an ellipse (angles at least 0.3 rad apart, aspect >= 0.2),
  // so that no hull vertex is near-collinear with its neighbours, plus up to four points
  // strictly inside (convex combinations of the hull points pulled toward their mean) that
  // the hull must drop. Rotated and moved to center; shuffled.
  std::vector<Vec2> convex_points(int hull_count, real size, Vec2 center) {
    std::vector<real> angles;
    while (int(angles.size()) < hull_count) {
      angles.clear();
      for (int i = 0; i < hull_count; ++i) angles.push_back(uniform(0, 2 * kPi));
      std::sort(angles.begin(), angles.end());
      bool spread = true;
      for (int i = 0; i < hull_count; ++i) {
        const real next = i + 1 < hull_count ? angles[size_t(i + 1)] : angles[0] + 2 * kPi;
        if (next - angles[size_t(i)] < 0.3L) spread = false;
      }
      if (!spread) angles.clear();
    }
    const real ax = 0.5L * size, ay = ax * uniform(0.2L, 1), turn = uniform(0, 2 * kPi);
    const real c = std::cos(turn), s = std::sin(turn);
    std::vector<oracle::V> local;
    oracle::V mean{};
    for (real a : angles) {
      local.push_back({ax * std::cos(a), ay * std::sin(a)});
      mean = mean + local.back();
    }
    mean = (1.0L / hull_count) * mean;
    const int inside = integer(0, 4);
    for (int k = 0; k < inside; ++k) {
      oracle::V combo{};
      real total = 0;
      for (int i = 0; i < hull_count; ++i) {
        const real w = uniform(0, 1);
        combo = combo + w * local[size_t(i)];
        total += w;
      }
      combo = (1 / total) * combo;
      local.push_back(mean + uniform(0, 0.7L) * (combo - mean));
    }
    std::vector<Vec2> pts;
    for (const oracle::V& v : local)
      pts.push_back({float(center.x + c * v.x - s * v.y), float(center.y + s * v.x + c * v.y)});
    std::shuffle(pts.begin(), pts.end(), rng_);
    return pts;
  }

  Case next(int kind) {
    const real size = log_uniform(0.01L, 100);
    const Vec2 o = offset(size);
    switch (kind) {
      case 0: {  // circle
        const float r = float(size * uniform(0.05L, 0.5L));
        const Shape shape = Shape::circle(r, o);
        return {shape, exact_shape(shape, {o}, r), "circle"};
      }
      case 1: {  // capsule
        const real len = size * uniform(0.05L, 0.8L), a = uniform(0, 2 * kPi);
        const float r = float(size * uniform(0.005L, 0.4L));
        const Vec2 p{float(o.x + 0.5L * len * std::cos(a)), float(o.y + 0.5L * len * std::sin(a))};
        const Vec2 q{float(o.x - 0.5L * len * std::cos(a)), float(o.y - 0.5L * len * std::sin(a))};
        const Shape shape = Shape::capsule(p, q, r);
        return {shape, exact_shape(shape, {p, q}, r), "capsule"};
      }
      case 2: {  // box centred on the origin: the corners are exact
        const float hw = float(0.5L * size * uniform(0.1L, 1)), hh = float(0.5L * size * uniform(0.1L, 1));
        return {Shape::box(hw, hh), to_oracle({{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}}, 0), "box"};
      }
      case 3: {  // rotated, offset box: the oracle gets the corners pebble rounded to float
        const float hw = float(0.5L * size * uniform(0.1L, 1)), hh = float(0.5L * size * uniform(0.1L, 1));
        const Shape s = Shape::box(hw, hh, o, float(uniform(-4, 4)));
        const auto v = s.vertices();
        return {s, to_oracle({v.begin(), v.end()}, 0), "rotated box"};
      }
      case 4: {  // rounded box, a quarter of them with the largest corner radius allowed
        const float hw = float(0.5L * size * uniform(0.1L, 1)), hh = float(0.5L * size * uniform(0.1L, 1));
        const float smaller = std::min(hw, hh);
        // (not within 1e-4 of it otherwise: the maker would rightly weld the core flat)
        const float cr = integer(0, 3) == 0 ? smaller : float(smaller * uniform(0, 0.99L));
        const float w = hw - cr, h = hh - cr;  // the core, as the maker computes it
        return {Shape::rounded_box(hw, hh, cr), to_oracle({{-w, -h}, {w, -h}, {w, h}, {-w, h}}, cr), "rounded box"};
      }
      case 5: {  // sharp polygon
        const auto pts = convex_points(integer(3, 8), size, o);
        const Shape shape = Shape::polygon(pts);
        return {shape, exact_shape(shape, pts, 0), "polygon"};
      }
      default: {  // rounded polygon, radius from tiny to larger than the core
        const auto pts = convex_points(integer(3, 8), size, o);
        const float r = float(size * log_uniform(1e-3L, 2));
        const Shape shape = Shape::polygon(pts, r);
        return {shape, exact_shape(shape, pts, r), "rounded polygon"};
      }
    }
  }

private:
  std::mt19937 rng_;
};

constexpr int kKinds = 7;

// Largest errors seen, printed once so the accuracy can be quoted.
struct Worst {
  double mass = 0, center = 0, inertia = 0;  // center: error / (1e-5 × size + float rounding)
};

}  // namespace

TEST(MassProperties, RandomShapesOfEveryKindMatchGreensTheoremOracle) {
  Generator gen(20240601);
  g_cleaned = 0;
  Worst worst[kKinds];
  int count = 0;
  for (int round = 0; round < 3000; ++round) {
    for (int kind = 0; kind < kKinds; ++kind) {
      const Case c = gen.next(kind);
      const oracle::RMass want = oracle::rounded_mass(c.exact);
      const real size = size_of(c.exact);
      ASSERT_EQ(size_t(c.shape.vertex_count()), oracle::gift_wrap_hull(c.exact.core).size()) << c.label;
      const float density = float(gen.log_uniform(0.1L, 10));
      const MassProperties got = mass_properties(c.shape, density);

      const real e_mass = rel_error(got.mass, density * want.area);
      const real e_inertia = rel_error(got.inertia, density * want.inertia);
      const real dx = got.center.x - want.centroid.x, dy = got.center.y - want.centroid.y;
      const real e_center = std::sqrt(dx * dx + dy * dy);
      const real center_tol = kRelTol * size + float_ulp(std::fabs(want.centroid.x) + std::fabs(want.centroid.y));
      EXPECT_LE(e_mass, kRelTol) << c.label << " size " << double(size) << " case " << round;
      EXPECT_LE(e_inertia, kRelTol) << c.label << " size " << double(size) << " case " << round;
      EXPECT_LE(e_center, center_tol) << c.label << " size " << double(size) << " case " << round;
      EXPECT_LE(rel_error(area(c.shape), want.area), kRelTol) << c.label << " case " << round;

      worst[kind].mass = std::max(worst[kind].mass, double(e_mass));
      worst[kind].inertia = std::max(worst[kind].inertia, double(e_inertia));
      worst[kind].center = std::max(worst[kind].center, double(e_center / center_tol));
      ++count;
    }
  }
  const char* names[kKinds] = {"circle", "capsule", "box", "rotated box", "rounded box", "polygon", "rounded polygon"};
  std::printf(
      "%d shapes (%d polygons cleaned by the maker); worst relative error of mass and inertia, worst center error as a "
      "fraction of its tolerance:\n",
      count, g_cleaned);
  for (int k = 0; k < kKinds; ++k)
    std::printf("  %-16s %.2e %.2e %.2e\n", names[k], worst[k].mass, worst[k].center, worst[k].inertia);
}

TEST(MassProperties, SmallShapesFarFromTheOriginKeepFullAccuracy) {
  // The hardest case for cancellation: size 0.01 at local coordinates near ±1e3.
  Generator gen(7);
  for (int i = 0; i < 2000; ++i) {
    const Vec2 o{float(gen.uniform(-1000, 1000)), float(gen.uniform(-1000, 1000))};
    const auto pts = gen.convex_points(gen.integer(3, 8), 0.01L, o);
    const float r = i % 2 == 0 ? 0.0f : float(0.01L * gen.uniform(0.01L, 1));
    const Shape s = Shape::polygon(pts, r);
    const oracle::RMass want = oracle::rounded_mass(exact_shape(s, pts, r));
    const MassProperties got = mass_properties(s);
    EXPECT_LE(rel_error(got.mass, want.area), kRelTol);
    EXPECT_LE(rel_error(got.inertia, want.inertia), kRelTol);
    EXPECT_LE(std::fabs(got.center.x - want.centroid.x), 1e-7L + float_ulp(want.centroid.x));
    EXPECT_LE(std::fabs(got.center.y - want.centroid.y), 1e-7L + float_ulp(want.centroid.y));
  }
}

TEST(MassProperties, SharpPolygonsOfEveryVertexCountAndSliversMatchTheOracle) {
  // Sharp polygons take their own path (two edges per step; an odd count ends on an empty
  // triangle): every count from 3 to 8, slivers of aspect up to 1e5, far from the origin.
  Generator gen(77);
  for (int i = 0; i < 3000; ++i) {
    const int n = 3 + i % 6;
    const real size = gen.log_uniform(1e-2L, 1e3L);
    const Vec2 o{float(gen.uniform(-1e4, 1e4)), float(gen.uniform(-1e4, 1e4))};
    std::vector<Vec2> pts = gen.convex_points(n, size, o);
    if (i % 3 == 0) {
      // Squash to a sliver along a random direction.
      const float squash = float(gen.log_uniform(1e-5L, 1e-1L)), a = float(gen.uniform(-3.2, 3.2));
      const float c = std::cos(a), s = std::sin(a);
      for (Vec2& p : pts) {
        const float u = c * (p.x - o.x) + s * (p.y - o.y), w = -s * (p.x - o.x) + c * (p.y - o.y);
        p = {o.x + c * u - s * (squash * w), o.y + s * u + c * (squash * w)};
      }
    }
    const Shape shape = Shape::polygon(pts);
    if (shape.vertex_count() < 3) continue;
    const oracle::RMass want = oracle::rounded_mass(exact_shape(shape, pts, 0));
    const MassProperties got = mass_properties(shape, 2.0f);
    EXPECT_LE(rel_error(got.mass, 2 * want.area), kRelTol) << i;
    EXPECT_LE(rel_error(got.inertia, 2 * want.inertia), kRelTol) << i;
    const real center_tol = kRelTol * size + float_ulp(std::fabs(want.centroid.x) + std::fabs(want.centroid.y));
    EXPECT_LE(std::fabs(got.center.x - want.centroid.x), center_tol) << i;
    EXPECT_LE(std::fabs(got.center.y - want.centroid.y), center_tol) << i;
  }
}

TEST(MassProperties, DiscMatchesTextbook) {
  for (float r : {0.01f, 0.37f, 1.0f, 25.0f, 100.0f}) {
    for (Vec2 c : {Vec2{}, Vec2{3, -4}, Vec2{1000, -1000}}) {
      const MassProperties mp = mass_properties(Shape::circle(r, c), 2.5f);
      const real m = 2.5L * kPi * real(r) * r;
      EXPECT_LE(rel_error(mp.mass, m), 1e-6);
      EXPECT_LE(rel_error(mp.inertia, m * r * r / 2), 1e-6);
      EXPECT_EQ(mp.center, c);
    }
  }
}

TEST(MassProperties, BoxMatchesTextbook) {
  for (auto [hw, hh] : {std::pair{1.0f, 1.0f}, {0.005f, 0.02f}, {50.0f, 0.5f}, {3.0f, 7.0f}}) {
    const MassProperties mp = mass_properties(Shape::box(hw, hh), 3);
    const real w = 2 * real(hw), h = 2 * real(hh), m = 3 * w * h;
    EXPECT_LE(rel_error(mp.mass, m), 1e-6);
    EXPECT_LE(rel_error(mp.inertia, m * (w * w + h * h) / 12), 1e-6);
    EXPECT_LE(std::fabs(mp.center.x) + std::fabs(mp.center.y), 1e-6 * hw);
  }
}

TEST(MassProperties, CapsuleMatchesTextbook) {
  // Rectangle 2r × L plus two half discs whose centroids sit 4r/(3π) beyond the rectangle's
  // ends: I = m_rect (L² + 4r²)/12 + m_disc (r²/2 + L²/4 + 4Lr/(3π)).
  for (auto [len, r] : {std::pair{2.0f, 0.5f}, {0.01f, 0.003f}, {100.0f, 1.0f}, {0.5f, 20.0f}}) {
    const float a = 0.6f, density = 1.5f;
    const Vec2 p{7 + 0.5f * len * std::cos(a), -2 + 0.5f * len * std::sin(a)};
    const Vec2 q{7 - 0.5f * len * std::cos(a), -2 - 0.5f * len * std::sin(a)};
    const real L = std::hypot(real(p.x) - q.x, real(p.y) - q.y);
    const real m_rect = density * 2 * r * L, m_disc = density * kPi * r * r;
    const real inertia =
        m_rect * (L * L + 4 * real(r) * r) / 12 + m_disc * (real(r) * r / 2 + L * L / 4 + 4 * L * r / (3 * kPi));
    const MassProperties mp = mass_properties(Shape::capsule(p, q, r), density);
    EXPECT_LE(rel_error(mp.mass, m_rect + m_disc), 1e-6) << len << ' ' << r;
    EXPECT_LE(rel_error(mp.inertia, inertia), 1e-6) << len << ' ' << r;
    EXPECT_NEAR(mp.center.x, 0.5 * (double(p.x) + q.x), 1e-5);
    EXPECT_NEAR(mp.center.y, 0.5 * (double(p.y) + q.y), 1e-5);
  }
}

TEST(MassProperties, RoundedBoxIsTheBoxLessFourCorners) {
  // Each corner of the full box that rounding removes is an r × r square minus a quarter
  // disc; subtracting their moments from the box's gives the rounded box independently.
  for (auto [hw, hh, r] : {std::tuple{2.0f, 1.0f, 0.25f},
                           {1.0f, 1.0f, 1.0f},
                           {3.0f, 0.5f, 0.5f},
                           {0.02f, 0.03f, 0.019f},
                           {60.0f, 40.0f, 10.0f}}) {
    const real a = real(hw) - r, b = real(hh) - r, R = r;
    const real box_area = 4 * real(hw) * hh;
    const real box_polar = box_area * (4 * real(hw) * hw + 4 * real(hh) * hh) / 12;
    const real square_polar = R * (std::pow(a + R, 3) - a * a * a) / 3 + R * (std::pow(b + R, 3) - b * b * b) / 3;
    const real quarter_area = kPi * R * R / 4;
    const real quarter_polar = kPi * R * R * R * R / 8 + 2 * (a + b) * R * R * R / 3 + quarter_area * (a * a + b * b);
    const real area_want = box_area - 4 * (R * R - quarter_area);
    const real inertia_want = box_polar - 4 * (square_polar - quarter_polar);
    const MassProperties mp = mass_properties(Shape::rounded_box(hw, hh, r));
    EXPECT_LE(rel_error(mp.mass, area_want), 1e-6) << hw << ' ' << hh << ' ' << r;
    EXPECT_LE(rel_error(area(Shape::rounded_box(hw, hh, r)), area_want), 1e-6);
    EXPECT_LE(rel_error(mp.inertia, inertia_want), 1e-6) << hw << ' ' << hh << ' ' << r;
    EXPECT_LE(std::fabs(mp.center.x) + std::fabs(mp.center.y), 1e-6 * hw);
  }
}

TEST(MassProperties, RoundedBoxWithFullCornerRadiusIsACapsuleOrACircle) {
  const MassProperties capsule = mass_properties(Shape::capsule({-1, 0}, {1, 0}, 1));
  const MassProperties from_box = mass_properties(Shape::rounded_box(2, 1, 1));
  EXPECT_FLOAT_EQ(from_box.mass, capsule.mass);
  EXPECT_FLOAT_EQ(from_box.inertia, capsule.inertia);
  const MassProperties circle = mass_properties(Shape::rounded_box(1.5f, 1.5f, 1.5f));
  EXPECT_FLOAT_EQ(circle.mass, float(kPi * 2.25L));
  EXPECT_FLOAT_EQ(circle.inertia, float(kPi * 2.25L * 2.25L / 2));
}

TEST(MassProperties, ZeroAreaShapesHaveNoMassAndSitAtTheirCoreCentroid) {
  const Shape seg = Shape::segment({1, 2}, {5, -3});
  const MassProperties a = mass_properties(seg, 4);
  EXPECT_EQ(a.mass, 0);
  EXPECT_EQ(a.inertia, 0);
  EXPECT_EQ(a.center, seg.core_centroid());
  EXPECT_NEAR(a.center.x, 3, 1e-6);
  EXPECT_NEAR(a.center.y, -0.5, 1e-6);
  EXPECT_EQ(area(seg), 0);

  const Shape point = Shape::circle(0, {-7, 9});
  const MassProperties b = mass_properties(point, 4);
  EXPECT_EQ(b.mass, 0);
  EXPECT_EQ(b.inertia, 0);
  EXPECT_EQ(b.center, (Vec2{-7, 9}));

  const Vec2 collinear[] = {{0, 0}, {2, 2}, {1, 1}, {4, 4}};
  const Shape line = Shape::polygon(collinear);
  const MassProperties c = mass_properties(line);
  EXPECT_EQ(c.mass, 0);
  EXPECT_EQ(c.inertia, 0);
  EXPECT_EQ(c.center, line.core_centroid());

  // Far from the origin and tiny: still no NaN, still the midpoint.
  const Shape far = Shape::segment({1000, -1000}, {1000.01f, -1000});
  const MassProperties d = mass_properties(far);
  EXPECT_EQ(d.mass, 0);
  EXPECT_EQ(d.center, far.core_centroid());
}

TEST(MassProperties, MassAndInertiaScaleWithDensityAndTheCenterDoesNot) {
  Generator gen(99);
  for (int i = 0; i < 2000; ++i) {
    const Case c = gen.next(i % kKinds);
    const MassProperties unit = mass_properties(c.shape, 1);
    const float density = float(gen.log_uniform(1e-3L, 1e3L));
    const MassProperties scaled = mass_properties(c.shape, density);
    EXPECT_LE(rel_error(scaled.mass, real(density) * unit.mass), 1e-6);
    EXPECT_LE(rel_error(scaled.inertia, real(density) * unit.inertia), 1e-6);
    EXPECT_EQ(scaled.center, unit.center);
  }
}

TEST(MassProperties, ZeroDensityGivesZeroMassAtTheAreaCentroid) {
  const Vec2 pts[] = {{0, 0}, {4, 0}, {0, 3}};
  const Shape s = Shape::polygon(pts, 0.5f);
  for (float density : {0.0f, -0.0f}) {
    const MassProperties mp = mass_properties(s, density);
    EXPECT_EQ(mp.mass, 0);
    EXPECT_FALSE(std::signbit(mp.mass));
    EXPECT_EQ(mp.inertia, 0);
    EXPECT_EQ(mp.center, mass_properties(s, 1).center);
  }
}

TEST(MassProperties, InvalidDensityThrowsNamingTheValue) {
  const Shape s = Shape::box(1, 1);
  const auto message = [&](float density) -> std::string {
    try {
      (void)mass_properties(s, density);
    } catch (const InvalidShape& e) {
      return e.what();
    }
    return "no exception";
  };
  EXPECT_NE(message(-1.5f).find("-1.5"), std::string::npos) << message(-1.5f);
  EXPECT_NE(message(-1.5f).find("density"), std::string::npos);
  EXPECT_NE(message(std::numeric_limits<float>::quiet_NaN()).find("nan"), std::string::npos);
  EXPECT_NE(message(std::numeric_limits<float>::infinity()).find("inf"), std::string::npos);
  EXPECT_NE(message(-std::numeric_limits<float>::infinity()).find("-inf"), std::string::npos);
  EXPECT_NE(message(-std::numeric_limits<float>::denorm_min()).find("density"), std::string::npos);
  // A finite density whose mass or inertia no float can hold.
  const std::string overflow = [&] {
    try {
      (void)mass_properties(Shape::box(1e6f, 1e6f), 1e30f);
    } catch (const InvalidShape& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  }();
  EXPECT_NE(overflow.find("overflow"), std::string::npos) << overflow;
  EXPECT_NE(overflow.find("1e+30"), std::string::npos) << overflow;
}

TEST(MassProperties, ExtremeShapesGiveFiniteResults) {
  const Shape shapes[] = {Shape::box(1e7f, 1e7f),
                          Shape::circle(1e7f),
                          Shape::capsule({0, 0}, {1, 0}, 1e-30f),
                          Shape::circle(std::numeric_limits<float>::denorm_min()),
                          Shape::capsule({-1e7f, -1e7f}, {1e7f, 1e7f}, 1e7f),
                          Shape::rounded_box(1e-6f, 1e-6f, 1e-6f)};
  for (const Shape& s : shapes) {
    const MassProperties mp = mass_properties(s);
    EXPECT_TRUE(std::isfinite(mp.mass) && std::isfinite(mp.inertia) && is_finite(mp.center));
    EXPECT_GE(mp.mass, 0);
    EXPECT_GE(mp.inertia, 0);
    EXPECT_TRUE(std::isfinite(area(s)));
  }
  // The thin capsule keeps its midpoint as centre even though r² underflows nothing in double.
  EXPECT_NEAR(mass_properties(Shape::capsule({0, 0}, {1, 0}, 1e-30f)).center.x, 0.5f, 1e-6f);
}

// --- bounds ---------------------------------------------------------------------------------

namespace {

// The exact shape moved by xf, as the oracle sees it: the core transformed in long double
// with the transform's own (float) numbers, same radius.
oracle::RShape moved(const oracle::RShape& s, const Transform& xf) {
  oracle::RShape out;
  out.radius = s.radius;
  for (const auto& v : s.core)
    out.core.push_back(
        {real(xf.q.c) * v.x - real(xf.q.s) * v.y + xf.p.x, real(xf.q.s) * v.x + real(xf.q.c) * v.y + xf.p.y});
  return out;
}

// The most bounds() may add beyond the exact box on an axis whose translation is p: the pad
// mass.hpp documents, with room for its own rounding and for the float rounding of the result.
real bounds_pad(const Shape& shape, float p) {
  const Vec2 c = shape.core_centroid();
  const real reach = std::fabs(real(p)) + std::fabs(real(c.x)) + std::fabs(real(c.y)) + shape.extent();
  return 1.1L * std::ldexp(reach, -21) + 2 * float_ulp(reach) + 1e-37L;
}

// The exact box of the moved shape: the extremes of the exactly transformed core vertices, grown
// by the radius (a Minkowski sum's support is the sum of the supports), in long double.
struct ExactBox {
  real lo_x, lo_y, hi_x, hi_y;
};

ExactBox exact_box(const oracle::RShape& moved_shape) {
  ExactBox b{moved_shape.core[0].x, moved_shape.core[0].y, moved_shape.core[0].x, moved_shape.core[0].y};
  for (const auto& v : moved_shape.core) {
    b.lo_x = std::min(b.lo_x, v.x);
    b.hi_x = std::max(b.hi_x, v.x);
    b.lo_y = std::min(b.lo_y, v.y);
    b.hi_y = std::max(b.hi_y, v.y);
  }
  return {b.lo_x - moved_shape.radius, b.lo_y - moved_shape.radius, b.hi_x + moved_shape.radius,
          b.hi_y + moved_shape.radius};
}

oracle::RShape as_oracle(const Shape& shape) {
  oracle::RShape out;
  for (Vec2 v : shape.vertices()) out.core.push_back({v.x, v.y});
  out.radius = shape.radius();
  return out;
}

}  // namespace

TEST(Bounds, ContainTheDenselySampledBoundaryAndAreTight) {
  Generator gen(4242);
  for (int i = 0; i < 3500; ++i) {
    const Case c = gen.next(i % kKinds);
    const real far = gen.integer(0, 3) == 0 ? 1e4L : 10;
    const Transform xf{{float(gen.uniform(-far, far)), float(gen.uniform(-far, far))},
                       Rot::from_angle(float(gen.uniform(-4, 4)))};
    const Aabb box = bounds(c.shape, xf);
    const oracle::RShape world = moved(c.exact, xf);
    const real size = size_of(world);
    const auto samples = oracle::sample_rounded_boundary(world, 64, 0.004L);
    real lo_x = samples[0].x, hi_x = lo_x, lo_y = samples[0].y, hi_y = lo_y;
    for (const auto& p : samples) {
      // Contains every sample, up to the long double rounding of the samples themselves.
      const real slack = 1e-12L * (std::fabs(p.x) + std::fabs(p.y) + size);
      ASSERT_GE(p.x, box.lower.x - slack) << c.label << " case " << i;
      ASSERT_LE(p.x, box.upper.x + slack) << c.label << " case " << i;
      ASSERT_GE(p.y, box.lower.y - slack) << c.label << " case " << i;
      ASSERT_LE(p.y, box.upper.y + slack) << c.label << " case " << i;
      lo_x = std::min(lo_x, p.x);
      hi_x = std::max(hi_x, p.x);
      lo_y = std::min(lo_y, p.y);
      hi_y = std::max(hi_y, p.y);
    }
    // Tight: no side further out than 1e-5 × size beyond the furthest sample, plus the
    // documented outward pad (2⁻²¹ × (|p| + |centroid|₁ + extent)) and its rounding.
    const real pad_x = bounds_pad(c.shape, xf.p.x), pad_y = bounds_pad(c.shape, xf.p.y);
    EXPECT_LE(lo_x - box.lower.x, kRelTol * size + pad_x) << c.label << " case " << i;
    EXPECT_LE(box.upper.x - hi_x, kRelTol * size + pad_x) << c.label << " case " << i;
    EXPECT_LE(lo_y - box.lower.y, kRelTol * size + pad_y) << c.label << " case " << i;
    EXPECT_LE(box.upper.y - hi_y, kRelTol * size + pad_y) << c.label << " case " << i;
  }
}

TEST(Bounds, OfKnownShapesAreExactUpToThePad) {
  // Each side within the documented pad (a few float steps) of the exact value, never inside it.
  const auto near_outside = [](float got, double want, bool lower, double pad) {
    EXPECT_LE(std::fabs(got - want), pad) << got << " vs " << want;
    EXPECT_TRUE(lower ? got <= want : got >= want) << got << " vs " << want;
  };
  const Aabb disc = bounds(Shape::circle(2), Transform::identity());
  near_outside(disc.lower.x, -2, true, 2e-6);
  near_outside(disc.upper.y, 2, false, 2e-6);
  const Aabb moved_disc = bounds(Shape::circle(0.5f, {1, 0}), Transform{{10, 20}, Rot::from_angle(float(kPi / 2))});
  EXPECT_NEAR(moved_disc.lower.x, 9.5, 2e-5);
  EXPECT_NEAR(moved_disc.lower.y, 20.5, 2e-5);
  EXPECT_NEAR(moved_disc.upper.x, 10.5, 2e-5);
  EXPECT_NEAR(moved_disc.upper.y, 21.5, 2e-5);
  // A rounded box turned by 45 degrees: its core's half diagonal along each axis, plus r.
  const Aabb diamond = bounds(Shape::rounded_box(2, 2, 1), Transform{{}, Rot::from_angle(float(kPi / 4))});
  EXPECT_NEAR(diamond.upper.x, std::sqrt(2.0) + 1, 1e-5);
  EXPECT_NEAR(diamond.lower.y, -(std::sqrt(2.0) + 1), 1e-5);
  // A segment is its own box (zero radius).
  const Aabb seg = bounds(Shape::segment({0, 0}, {3, 0}), Transform::identity());
  near_outside(seg.lower.x, 0, true, 4e-6);
  near_outside(seg.upper.x, 3, false, 4e-6);
  near_outside(seg.lower.y, 0, true, 4e-6);
  near_outside(seg.upper.y, 0, false, 4e-6);
}

// The box never cuts the shape: against the exact extremes in long double, with no slack at all,
// over random shapes and the cases where float rounding bites hardest: coordinates of 1e4 and of
// kMaxWorldCoordinate, shapes of size 0.01 to 100 far from their local origin, rotations whose
// c and s are off unit length by up to kRotationTolerance, and tiny shapes of size 1e-30.
TEST(Bounds, NeverSmallerThanTheExactBox) {
  Generator gen(777);
  int checked = 0;
  for (int i = 0; i < 40000; ++i) {
    const Case c = gen.next(i % kKinds);
    const int regime = i % 5;
    const real far = regime == 0 ? 10 : regime == 1 ? 1e4L : regime == 2 ? real(kMaxWorldCoordinate) : 1e3L;
    Transform xf{{float(gen.uniform(-far, far)), float(gen.uniform(-far, far))},
                 Rot::from_angle(float(gen.uniform(-4, 4)))};
    if (regime == 3) {  // stretch the rotation to the edge of what is_valid accepts
      const float k = float(std::sqrt(1 + gen.uniform(-0.99L, 0.99L) * kRotationTolerance));
      xf.q = {xf.q.c * k, xf.q.s * k};
      if (!is_valid(xf)) continue;
    }
    if (regime == 4 && i % 2 == 0) xf.p = {float(gen.uniform(-1e-30L, 1e-30L)), float(gen.uniform(-1e-30L, 1e-30L))};
    const Aabb box = bounds(c.shape, xf);
    const ExactBox want = exact_box(moved(as_oracle(c.shape), xf));
    ASSERT_LE(real(box.lower.x), want.lo_x) << c.label << " case " << i;
    ASSERT_LE(real(box.lower.y), want.lo_y) << c.label << " case " << i;
    ASSERT_GE(real(box.upper.x), want.hi_x) << c.label << " case " << i;
    ASSERT_GE(real(box.upper.y), want.hi_y) << c.label << " case " << i;
    EXPECT_LE(want.lo_x - box.lower.x, bounds_pad(c.shape, xf.p.x)) << c.label << " case " << i;
    EXPECT_LE(box.upper.y - want.hi_y, bounds_pad(c.shape, xf.p.y)) << c.label << " case " << i;
    // The portable copy (what CPUs without SSE2 run) gives the same bits.
    const Aabb portable = detail::bounds_portable(c.shape, xf);
    ASSERT_EQ(std::memcmp(&box, &portable, sizeof box), 0) << c.label << " case " << i;
    ++checked;
  }
  EXPECT_GT(checked, 35000);
  // Tiny shapes: sizes of 1e-30 and 1e-38 (below the normal floats), where products underflow.
  for (float size : {1e-30f, 1e-36f, 1e-38f, 1e-40f}) {
    for (const Shape& s : {Shape::circle(size, {size, -size}), Shape::box(size, size / 2, {3 * size, 0}, 0.3f),
                           Shape::capsule({-size, 0}, {size, size}, 0)}) {
      for (float angle : {0.0f, 0.7f, 2.0f}) {
        const Transform xf{{size, -2 * size}, Rot::from_angle(angle)};
        const Aabb box = bounds(s, xf);
        const ExactBox want = exact_box(moved(as_oracle(s), xf));
        EXPECT_LE(real(box.lower.x), want.lo_x);
        EXPECT_LE(real(box.lower.y), want.lo_y);
        EXPECT_GE(real(box.upper.x), want.hi_x);
        EXPECT_GE(real(box.upper.y), want.hi_y);
        EXPECT_TRUE(is_valid(box));
      }
    }
  }
}

TEST(Bounds, InvalidTransformGivesTheEmptyBoxAtTheOrigin) {
  const Shape s = Shape::rounded_box(1, 2, 0.3f);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const Transform bad[] = {{{nan, 0}, {}},  {{0, inf}, {}},  {{1e30f, 0}, {}},  {{0, -2e9f}, {}},     {{}, Rot{nan, 0}},
                           {{}, Rot{2, 0}}, {{}, Rot{0, 0}}, {{}, Rot{inf, 0}}, {{}, Rot{0.5f, 0.5f}}};
  for (const Transform& xf : bad) {
    const Aabb box = bounds(s, xf);
    EXPECT_EQ(box, (Aabb{{0, 0}, {0, 0}}));
  }
}

TEST(MassProperties, CompoundOfTilesIsTheWholeShape) {
  // A rectangle cut into tiles of every size, placed anywhere in the compound's frame: the
  // compound's mass properties are the oracle's for the whole rectangle.
  test_random::Rng rng(41);
  for (int trial = 0; trial < 200; ++trial) {
    // Dyadic sizes and places, so that the tiles' float corners meet exactly.
    const float w = float(rng.integer(4, 1280)) / 64, h = float(rng.integer(4, 1280)) / 64;
    const Vec2 origin{float(rng.integer(-100, 100)), float(rng.integer(-100, 100))};
    const int nx = 1 << rng.integer(0, 2), ny = 1 << rng.integer(0, 2);
    std::vector<Shape> tiles;
    for (int i = 0; i < nx; ++i) {
      for (int j = 0; j < ny; ++j) {
        const Vec2 c = origin + Vec2{(float(i) + 0.5f) * w / float(nx), (float(j) + 0.5f) * h / float(ny)};
        tiles.push_back(Shape::box(0.5f * w / float(nx), 0.5f * h / float(ny), c, 0));
      }
    }
    const float density = float(rng.log_uniform(0.1, 10));
    const MassProperties got = mass_properties(tiles, density);
    oracle::RShape whole;
    whole.core = {
        {origin.x, origin.y}, {origin.x + w, origin.y}, {origin.x + w, origin.y + h}, {origin.x, origin.y + h}};
    const oracle::RMass want = oracle::rounded_mass(whole);
    const long double size = std::max(w, h);
    EXPECT_NEAR(got.mass, density * want.area, 1e-5 * density * want.area) << "trial " << trial;
    EXPECT_NEAR(got.center.x, want.centroid.x, 1e-5 * size + 1e-6 * std::fabs(origin.x)) << "trial " << trial;
    EXPECT_NEAR(got.center.y, want.centroid.y, 1e-5 * size + 1e-6 * std::fabs(origin.y)) << "trial " << trial;
    EXPECT_NEAR(got.inertia, density * want.inertia, 1e-4 * density * want.inertia) << "trial " << trial;
  }
  // One part is that part; no parts, or a bad density, throw; parts of no area have no mass.
  const Shape disc = Shape::circle(0.5f, {1, 2});
  const MassProperties one = mass_properties(std::span<const Shape>(&disc, 1), 2);
  const MassProperties direct = mass_properties(disc, 2);
  EXPECT_EQ(one.mass, direct.mass);
  EXPECT_EQ(one.center, direct.center);
  EXPECT_FLOAT_EQ(one.inertia, direct.inertia);
  EXPECT_THROW(mass_properties(std::span<const Shape>{}), InvalidShape);
  EXPECT_THROW(mass_properties(std::span<const Shape>(&disc, 1), -1), InvalidShape);
  const std::vector<Shape> wires = {Shape::segment({0, 0}, {2, 0}), Shape::segment({0, 2}, {2, 2})};
  const MassProperties none = mass_properties(wires);
  EXPECT_EQ(none.mass, 0);
  EXPECT_EQ(none.inertia, 0);
  EXPECT_NEAR(none.center.y, 1, 1e-6);
}
