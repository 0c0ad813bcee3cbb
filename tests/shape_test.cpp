// Shape makers: hull cleaning (against the brute-force oracle hull), degenerate cores and
// validation messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <pebble/chain.hpp>
#include <pebble/decompose.hpp>
#include <pebble/shape.hpp>
#include "random_cases.hpp"

#include "oracle/hull.hpp"
#include "oracle/projection.hpp"

using namespace pebble;

TEST(ShapeMakers, BoxIsCounterClockwiseWithOutwardNormals) {
  const Shape s = Shape::box(2, 1);
  ASSERT_EQ(s.vertex_count(), 4);
  for (int i = 0; i < 4; ++i) {
    const Vec2 n_i = s.normal(i);
    const Vec2 a = s.vertices()[i], b = s.vertices()[(i + 1) % 4];
    EXPECT_GT(cross(b - a, s.vertices()[(i + 2) % 4] - a), 0);
    EXPECT_NEAR(dot(n_i, b - a), 0, 1e-6);
    EXPECT_GT(dot(n_i, a - s.core_centroid()), 0);
  }
}

TEST(ShapeMakers, CapsuleOfEqualPointsIsACircle) {
  const Shape s = Shape::capsule({1, 2}, {1, 2}, 0.5f);
  EXPECT_EQ(s.vertex_count(), 1);
  EXPECT_EQ(s.edge_count(), 0);
  EXPECT_FLOAT_EQ(s.radius(), 0.5f);
}

TEST(ShapeMakers, CollinearPointsBecomeASegment) {
  const Vec2 pts[] = {{0, 0}, {1, 1}, {3, 3}, {2, 2}};
  const Shape s = Shape::polygon(pts);
  ASSERT_EQ(s.vertex_count(), 2);
  EXPECT_EQ(s.edge_count(), 2);
}

TEST(ShapeMakers, NegativeRadiusNamesTheValue) {
  try {
    (void)Shape::circle(-2.5f);
    FAIL();
  } catch (const InvalidShape& e) {
    EXPECT_NE(std::string(e.what()).find("negative"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("-2.5"), std::string::npos);
  }
}

// ---------------------------------------------------------------------------------------------
// The hull against the brute-force oracle hull, on random point sets.

namespace {

using oracle::real;

constexpr real kFloatEps = 1.1920929e-7L;

using test_random::Rng;

oracle::V lv(Vec2 v) { return {v.x, v.y}; }

std::vector<oracle::V> to_oracle(const std::vector<Vec2>& pts) {
  std::vector<oracle::V> out;
  for (Vec2 p : pts) out.push_back(lv(p));
  return out;
}

// Distance of b from the line through a and c.
real line_distance(oracle::V a, oracle::V b, oracle::V c) {
  const oracle::V e = c - a;
  return std::fabs(oracle::cross(e, b - a)) / std::sqrt(oracle::dot(e, e));
}

// The weld tolerance of compute_hull: kWeldFraction of the larger side of the points' bounding
// box, and never below 16 float epsilons of the largest coordinate (so that rounding of the
// input cannot create a sliver edge).
real weld_tolerance(const std::vector<Vec2>& pts) {
  real lo_x = pts[0].x, hi_x = lo_x, lo_y = pts[0].y, hi_y = lo_y, biggest = 0;
  for (Vec2 p : pts) {
    lo_x = std::min<real>(lo_x, p.x);
    hi_x = std::max<real>(hi_x, p.x);
    lo_y = std::min<real>(lo_y, p.y);
    hi_y = std::max<real>(hi_y, p.y);
    biggest = std::max<real>({biggest, std::fabs(real(p.x)), std::fabs(real(p.y))});
  }
  return std::max(real(kWeldFraction) * std::max(hi_x - lo_x, hi_y - lo_y), 16 * 1.2e-7L * biggest);
}

// True when no vertex of the exact hull h is within `margin` of its neighbour or of the line
// through its two neighbours: then welding and collinear removal must leave h as it is.
bool clear_of_welding(const std::vector<oracle::V>& h, real margin) {
  const size_t n = h.size();
  if (n == 1) return true;
  if (n == 2) {
    const oracle::V e = h[1] - h[0];
    return std::sqrt(oracle::dot(e, e)) > margin;
  }
  for (size_t i = 0; i < n; ++i) {
    const oracle::V a = h[(i + n - 1) % n], b = h[i], c = h[(i + 1) % n];
    if (std::sqrt(oracle::dot(b - a, b - a)) <= margin || line_distance(a, b, c) <= margin) return false;
  }
  return true;
}

enum SetKind { kScattered, kOnCircle, kClustered, kCollinear, kNearCollinear, kDuplicated, kTiny, kSetKinds };

std::vector<Vec2> random_point_set(Rng& rng, int kind) {
  const double s = rng.log_uniform(0.01, 100);
  const double cx = rng.chance(0.5) ? 0 : rng.uniform(-50, 50) * s;
  const double cy = rng.chance(0.5) ? 0 : rng.uniform(-50, 50) * s;
  const int count = rng.integer(1, 30);
  std::vector<Vec2> pts;
  auto add = [&](double x, double y) { pts.push_back({float(cx + x), float(cy + y)}); };
  switch (kind) {
    case kScattered:
      for (int i = 0; i < count; ++i) add(rng.uniform(-s, s), rng.uniform(-s, s));
      break;
    case kOnCircle: {  // every point a hull vertex: hulls of 1 to 30 vertices
      const double phase = rng.uniform(0, 6.3);
      const bool even = rng.chance(0.5);
      for (int i = 0; i < count; ++i) {
        const double t = even ? phase + 2 * 3.14159265358979 * i / count : rng.uniform(0, 6.3);
        add(s * std::cos(t), s * std::sin(t));
      }
      break;
    }
    case kClustered: {  // a few clusters, each far below the weld tolerance across
      const int clusters = rng.integer(1, 5);
      std::vector<std::pair<double, double>> centres;
      for (int c = 0; c < clusters; ++c) centres.push_back({rng.uniform(-s, s), rng.uniform(-s, s)});
      for (int i = 0; i < count; ++i) {
        const auto [x, y] = centres[size_t(rng.integer(0, clusters - 1))];
        add(x + rng.uniform(-1e-6, 1e-6) * s, y + rng.uniform(-1e-6, 1e-6) * s);
      }
      break;
    }
    case kCollinear:
    case kNearCollinear: {
      const double t = rng.uniform(0, 6.3);
      const double jitter = kind == kCollinear ? 0 : s * (rng.chance(0.5) ? 1e-5 : 1e-3);
      for (int i = 0; i < count; ++i) {
        const double u = rng.uniform(-s, s), v = rng.uniform(-jitter, jitter);
        add(u * std::cos(t) - v * std::sin(t), u * std::sin(t) + v * std::cos(t));
      }
      break;
    }
    case kDuplicated:
      for (int i = 0; i < count; ++i) {
        if (!pts.empty() && rng.chance(0.5)) {
          pts.push_back(pts[size_t(rng.integer(0, int(pts.size()) - 1))]);
        } else {
          add(rng.uniform(-s, s), rng.uniform(-s, s));
        }
      }
      break;
    default:
      for (int i = 0, n = rng.integer(1, 3); i < n; ++i) add(rng.uniform(-s, s), rng.uniform(-s, s));
      break;
  }
  return pts;
}

struct HullStats {
  long sets = 0, compared_counts = 0, too_many = 0, welded = 0;
  real worst_outside = 0;  // worst distance of an input point outside the hull, in weld tolerances
  real flattest = std::numeric_limits<real>::infinity();  // least vertex-to-neighbour-line distance, same unit
};
HullStats g_hull;

}  // namespace

TEST(OracleHull, IsConvexAndHoldsEveryPoint) {
  Rng rng(3);
  for (int set = 0; set < 1500; ++set) {
    const std::vector<Vec2> pts = random_point_set(rng, set % kSetKinds);
    const std::vector<oracle::V> h = oracle::hull(to_oracle(pts));
    ASSERT_FALSE(h.empty()) << set;
    const size_t n = h.size();
    for (size_t i = 0; n >= 3 && i < n; ++i) {
      EXPECT_GT(oracle::orient(h[i], h[(i + 1) % n], h[(i + 2) % n]), 0);
      for (Vec2 p : pts) EXPECT_GE(oracle::orient(h[i], h[(i + 1) % n], lv(p)), 0);
    }
  }
}

TEST(ComputeHull, MatchesTheOracleHullOnRandomPointSets) {
  Rng rng(1234);
  int failures_seen = 0, failed_sets = 0;
  for (int set = 0; set < 7000; ++set) {
    const int kind = set % kSetKinds;
    const std::vector<Vec2> pts = random_point_set(rng, kind);
    const std::vector<oracle::V> h = oracle::hull(to_oracle(pts));
    ASSERT_FALSE(h.empty());
    const real tol = weld_tolerance(pts);
    const bool clear = clear_of_welding(h, 2 * tol);
    SCOPED_TRACE(::testing::Message() << "set " << set << " kind " << kind << " points " << pts.size()
                                      << " oracle hull " << h.size() << (clear ? " (no welding)" : " (welding)"));
    ++g_hull.sets;

    Vec2 out[kMaxPolygonVertices];
    int count = 0;
    try {
      count = compute_hull(pts, out);
    } catch (const InvalidShape& e) {
      // Only a hull over kMaxPolygonVertices may fail, and the message says so.
      EXPECT_GT(h.size(), size_t(kMaxPolygonVertices)) << e.what();
      EXPECT_NE(std::string(e.what()).find("more than kMaxPolygonVertices"), std::string::npos) << e.what();
      if (clear) {
        EXPECT_NE(std::string(e.what()).find(std::to_string(h.size()) + " vertices"), std::string::npos) << e.what();
      }
      ++g_hull.too_many;
      continue;
    }
    if (clear) {
      EXPECT_LE(h.size(), size_t(kMaxPolygonVertices)) << "should have thrown";
      EXPECT_EQ(size_t(count), h.size());
      ++g_hull.compared_counts;
    } else {
      EXPECT_LE(size_t(count), h.size());  // welding only ever removes vertices
      ++g_hull.welded;
    }
    ASSERT_GE(count, 1);
    ASSERT_LE(count, kMaxPolygonVertices);

    std::vector<oracle::V> core;
    for (int i = 0; i < count; ++i) core.push_back(lv(out[i]));
    // Convex, counter-clockwise, winding once, no vertex within the weld tolerance of the line
    // through its neighbours (up to the rounding of the output to float).
    if (count >= 3) {
      real turning = 0;
      for (int i = 0; i < count; ++i) {
        const oracle::V a = core[size_t(i)], b = core[size_t((i + 1) % count)], c = core[size_t((i + 2) % count)];
        EXPECT_GT(oracle::orient(a, b, c), 0) << "vertex " << (i + 1) % count;
        g_hull.flattest = std::min(g_hull.flattest, line_distance(a, b, c) / tol);
        turning += std::atan2(oracle::cross(b - a, c - b), oracle::dot(b - a, c - b));
      }
      EXPECT_NEAR(double(turning), 2 * 3.14159265358979, 1e-6);
    }
    // Hull vertices are input points (a 1-vertex core is the centre of a welded cluster).
    if (count >= 2) {
      for (const oracle::V& v : core) {
        EXPECT_TRUE(std::any_of(pts.begin(), pts.end(), [&](Vec2 p) { return lv(p).x == v.x && lv(p).y == v.y; }));
      }
    }
    // Every input point lies inside the hull grown by the weld tolerance (plus the rounding of
    // the hull's vertices to float).
    const oracle::RShape shape{core, 0};
    real biggest = 0;
    for (Vec2 p : pts) biggest = std::max<real>({biggest, std::fabs(real(p.x)), std::fabs(real(p.y))});
    const real rounding = 2 * kFloatEps * biggest;
    for (Vec2 p : pts) {
      const real d = oracle::project(shape, lv(p)).distance;
      EXPECT_LE(d, tol + rounding) << "point (" << p.x << ", " << p.y << ") is " << double(d / tol)
                                   << " weld tolerances outside the hull";
      g_hull.worst_outside = std::max(g_hull.worst_outside, d / tol);
    }
    // Report every failing set (with its number, to reproduce) but stop after a handful.
    const int parts = ::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count();
    if (parts > failures_seen) {
      failures_seen = parts;
      if (++failed_sets >= 10) return;
    }
  }
  std::printf(
      "[ stats ] %ld point sets: %ld compared vertex for vertex count, %ld near a weld, %ld over %d "
      "vertices; worst input point outside the hull: %.3Lg weld tolerances; flattest hull vertex: %.3Lg "
      "weld tolerances from its neighbours' line\n",
      g_hull.sets, g_hull.compared_counts, g_hull.welded, g_hull.too_many, kMaxPolygonVertices, g_hull.worst_outside,
      g_hull.flattest);
}

TEST(ComputeHull, NeedleTipIsNotDroppedAsCollinear) {
  // The tip (0, 0) is within 5.1e-4 of the LINE through its neighbours (0.05, 0.00026) and
  // (10, -0.05), below the weld tolerance 1e-3, but 0.05 from the nearest point of the SEGMENT
  // between them: dropping it would cut 50 tolerances off the shape.
  const Vec2 needle[] = {{0, 0}, {10, -0.05f}, {10, 0.05f}, {0.05f, 0.00026f}};
  Vec2 out[kMaxPolygonVertices];
  const int count = compute_hull(needle, out);
  std::vector<oracle::V> core;
  for (int i = 0; i < count; ++i) core.push_back(lv(out[i]));
  EXPECT_LE(double(oracle::project(oracle::RShape{core, 0}, {0, 0}).distance), 1e-3);
}

TEST(ComputeHull, RegularPolygonsUpToEightVerticesAndNoMore) {
  for (int n = 1; n <= 12; ++n) {
    std::vector<Vec2> pts;
    for (int i = 0; i < n; ++i) {
      const float t = 2 * 3.14159265f * float(i) / float(n);
      pts.push_back({3 * std::cos(t), 3 * std::sin(t)});
    }
    if (n > kMaxPolygonVertices) {
      EXPECT_THROW((void)Shape::polygon(pts), InvalidShape) << n;
    } else {
      EXPECT_EQ(Shape::polygon(pts).vertex_count(), n);
    }
  }
}

TEST(ComputeHull, InteriorAndDuplicatedPointsAreDropped) {
  const Vec2 pts[] = {{0, 0}, {2, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}, {1, 0}, {0, 0}, {0.5f, 1.5f}};
  Vec2 out[kMaxPolygonVertices];
  ASSERT_EQ(compute_hull(pts, out), 4);
  EXPECT_EQ(out[0], (Vec2{0, 0}));  // counter-clockwise from the lowest-leftmost point
  EXPECT_EQ(out[1], (Vec2{2, 0}));
  EXPECT_EQ(out[2], (Vec2{2, 2}));
  EXPECT_EQ(out[3], (Vec2{0, 2}));
}

TEST(ComputeHull, NearCollinearVertexBelowTheWeldToleranceIsRemoved) {
  // (1, 1e-5) is 1e-5 off the line y = 0 in a set of size 2: below kWeldFraction * 2 = 2e-4.
  const Vec2 thin[] = {{0, 0}, {1, -1e-5f}, {2, 0}, {1, 1}};
  EXPECT_EQ(Shape::polygon(thin).vertex_count(), 3);
  // 1e-2 off the line is well above it and stays.
  const Vec2 kept[] = {{0, 0}, {1, -1e-2f}, {2, 0}, {1, 1}};
  EXPECT_EQ(Shape::polygon(kept).vertex_count(), 4);
}

TEST(ComputeHull, VerticesAtTheWeldToleranceAreDecidedByTheirSegmentDistance) {
  // The clean-up pass skips a vertex when its distance to the neighbours' line is clearly above
  // tol (one multiplication, no square root); vertices within a hair of tol must still reach the
  // exact test. Quadrilaterals (size 2, tol = kWeldFraction * 2) with the fourth vertex at
  // tol times 1 - 1e-4 .. 1 + 1e-4 off the chord, turned and moved: removed below tol, kept
  // above, whichever way the chord runs.
  for (const double f : {0.9999, 0.99999, 1.00001, 1.0001}) {
    for (const float angle : {0.0f, 0.3f, 1.1f, 2.5f}) {
      for (const Vec2 o : {Vec2{0, 0}, Vec2{37.5f, -12.25f}}) {
        const Transform xf{o, Rot::from_angle(angle)};
        // The points given to the maker are floats whatever the build's positions.
        const auto placed = [&](Vec2 local) { return to_vec2(transform_point(xf, local)); };
        // tol as compute_hull() takes it: kWeldFraction x the larger side of the points' box
        // (the 4-ulp floor is far below it here), for the box of the unperturbed points.
        const Vec2 box_pts[] = {placed({0, 0}), placed({1, 0}), placed({2, 0}), placed({1, 1})};
        double lo_x = 1e30, hi_x = -1e30, lo_y = 1e30, hi_y = -1e30;
        for (const Vec2 p : box_pts) {
          lo_x = std::min(lo_x, double(p.x));
          hi_x = std::max(hi_x, double(p.x));
          lo_y = std::min(lo_y, double(p.y));
          hi_y = std::max(hi_y, double(p.y));
        }
        const double tol = double(kWeldFraction) * std::max(hi_x - lo_x, hi_y - lo_y);
        const float off = float(f * tol);
        const Vec2 pts[] = {placed({0, 0}), placed({1, -off}), placed({2, 0}), placed({1, 1})};
        // The turned points are rounded: compare with the chord distance of the points as given.
        const Vec2 a = pts[0], b = pts[2], v = pts[1];
        const double ex = double(b.x) - a.x, ey = double(b.y) - a.y, wx = double(v.x) - a.x, wy = double(v.y) - a.y;
        const double t = std::clamp((wx * ex + wy * ey) / (ex * ex + ey * ey), 0.0, 1.0);
        const double dist = std::hypot(wx - t * ex, wy - t * ey);
        // The perturbed point moves the box by up to off: recompute tol from the points given.
        lo_x = 1e30;
        hi_x = -1e30;
        lo_y = 1e30;
        hi_y = -1e30;
        for (const Vec2 p : pts) {
          lo_x = std::min(lo_x, double(p.x));
          hi_x = std::max(hi_x, double(p.x));
          lo_y = std::min(lo_y, double(p.y));
          hi_y = std::max(hi_y, double(p.y));
        }
        const double tol_given = double(kWeldFraction) * std::max(hi_x - lo_x, hi_y - lo_y);
        if (std::fabs(dist - tol_given) < 1e-6 * tol_given) continue;  // too close to call from outside
        EXPECT_EQ(Shape::polygon(pts).vertex_count(), dist <= tol_given ? 3 : 4) << f << " " << angle << " " << o.x;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Validation messages: each names the problem and the value.

namespace {

std::string message_of(auto make) {
  try {
    (void)make();
  } catch (const InvalidShape& e) {
    return e.what();
  }
  return "(no exception)";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(ShapeMakers, NonFiniteCoordinateNamesThePointAndValue) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const Vec2 with_nan[] = {{0, 0}, {1, 0}, {nan, 1}};
  std::string m = message_of([&] { return Shape::polygon(with_nan); });
  EXPECT_TRUE(has(m, "non-finite")) << m;
  EXPECT_TRUE(has(m, "nan")) << m;
  EXPECT_TRUE(has(m, "point 2")) << m;
  m = message_of([&] { return Shape::capsule({0, inf}, {1, 0}, 1); });
  EXPECT_TRUE(has(m, "non-finite") && has(m, "inf")) << m;
  m = message_of([&] { return Shape::circle(1, {nan, 0}); });
  EXPECT_TRUE(has(m, "non-finite") && has(m, "nan")) << m;
}

// Every maker that takes points refuses a bad one in the same words (src/geometry/invalid.hpp):
// "pebble: <maker>: point <i> has a non-finite coordinate (x, y)" and "... lies beyond the largest
// supported extent", so a user who has met one message can read them all.
TEST(ShapeMakers, EveryMakerRefusesABadPointInTheSameWords) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<Vec2> bad = {{0, 0}, {1, 0}, {nan, 1}};
  const std::vector<Vec2> far = {{0, 0}, {1, 0}, {2e9f, 1}};
  const std::pair<const char*, std::string> refusals[] = {
      {"pebble: point 2 has a non-finite coordinate (nan, 1)", message_of([&] { return Shape::polygon(bad); })},
      {"pebble: Chain: point 2 has a non-finite coordinate (nan, 1)", message_of([&] { return Chain::open(bad); })},
      {"pebble: decompose: point 2 has a non-finite coordinate (nan, 1)", message_of([&] { return decompose(bad); })},
      {"pebble: point 2 (2e+09, 1) lies beyond the largest supported extent 1e+07",
       message_of([&] { return Shape::polygon(far); })},
      {"pebble: Chain: point 2 (2e+09, 1) lies beyond the largest supported extent 1e+07",
       message_of([&] { return Chain::open(far); })},
      {"pebble: decompose: point 2 (2e+09, 1) lies beyond the largest supported extent 1e+07",
       message_of([&] { return decompose(far); })},
  };
  for (const auto& [expected, got] : refusals)
    EXPECT_TRUE(has(got, expected)) << "expected: " << expected << "\n     got: " << got;
}

TEST(ShapeMakers, BadRadiusNamesTheProblemAndValue) {
  std::string m = message_of([] { return Shape::capsule({0, 0}, {1, 0}, -0.5f); });
  EXPECT_TRUE(has(m, "negative") && has(m, "-0.5")) << m;
  const Vec2 tri[] = {{0, 0}, {1, 0}, {0, 1}};
  m = message_of([&] { return Shape::polygon(tri, -3); });
  EXPECT_TRUE(has(m, "negative") && has(m, "-3")) << m;
  m = message_of([] { return Shape::circle(std::numeric_limits<float>::infinity()); });
  EXPECT_TRUE(has(m, "not finite") && has(m, "inf")) << m;
  m = message_of([] { return Shape::circle(std::numeric_limits<float>::quiet_NaN()); });
  EXPECT_TRUE(has(m, "not finite") && has(m, "nan")) << m;
  m = message_of([&] { return Shape::polygon(tri, 1e30f); });
  EXPECT_TRUE(has(m, "exceeds") && has(m, "1e+30")) << m;
}

TEST(ShapeMakers, NoPointsIsAnError) {
  const std::string m = message_of([] { return Shape::polygon(std::span<const Vec2>{}); });
  EXPECT_TRUE(has(m, "at least 1 point") && has(m, "got 0")) << m;
}

TEST(ShapeMakers, HullOverEightVerticesNamesTheCount) {
  std::vector<Vec2> pts;
  for (int i = 0; i < 11; ++i) pts.push_back({std::cos(0.5f * float(i)), std::sin(0.5f * float(i))});
  const std::string m = message_of([&] { return Shape::polygon(pts); });
  EXPECT_TRUE(has(m, "11 vertices") && has(m, "(8)")) << m;
}

TEST(ShapeMakers, CornerRadiusOverTheSmallerHalfExtentNamesBoth) {
  const std::string m = message_of([] { return Shape::rounded_box(3, 2, 2.5f); });
  EXPECT_TRUE(has(m, "corner_radius 2.5") && has(m, "smaller half extent 2")) << m;
  EXPECT_NO_THROW((void)Shape::rounded_box(3, 2, 2));  // equality is allowed
}

TEST(ShapeMakers, NonPositiveHalfExtentNamesTheValue) {
  std::string m = message_of([] { return Shape::box(0, 1); });
  EXPECT_TRUE(has(m, "half_width") && has(m, "positive") && has(m, "got 0")) << m;
  m = message_of([] { return Shape::box(1, -2); });
  EXPECT_TRUE(has(m, "half_height") && has(m, "got -2")) << m;
  m = message_of([] { return Shape::rounded_box(-1, 1, 0); });
  EXPECT_TRUE(has(m, "half_width") && has(m, "got -1")) << m;
  m = message_of([] { return Shape::box(std::numeric_limits<float>::quiet_NaN(), 1); });
  EXPECT_TRUE(has(m, "half_width") && has(m, "nan")) << m;
}

// ---------------------------------------------------------------------------------------------
// Degenerate cores

TEST(ShapeMakers, RoundedBoxWithFullCornerRadiusIsACapsuleOrACircle) {
  const Shape pill = Shape::rounded_box(2, 1, 1);
  ASSERT_EQ(pill.vertex_count(), 2);
  EXPECT_FLOAT_EQ(pill.radius(), 1);
  EXPECT_FLOAT_EQ(std::fabs(pill.vertices()[0].x), 1);
  EXPECT_FLOAT_EQ(pill.vertices()[0].y, 0);
  EXPECT_FLOAT_EQ(pill.vertices()[0].x + pill.vertices()[1].x, 0);
  const Shape upright = Shape::rounded_box(0.5f, 3, 0.5f);
  ASSERT_EQ(upright.vertex_count(), 2);
  EXPECT_FLOAT_EQ(std::fabs(upright.vertices()[0].y), 2.5f);
  const Shape disc = Shape::rounded_box(1.5f, 1.5f, 1.5f);
  ASSERT_EQ(disc.vertex_count(), 1);
  EXPECT_EQ(disc.vertices()[0], (Vec2{0, 0}));
  EXPECT_FLOAT_EQ(disc.radius(), 1.5f);
}

TEST(ShapeMakers, RoundedBoxWithZeroCornerRadiusIsTheBox) {
  const Shape a = Shape::rounded_box(2, 1, 0), b = Shape::box(2, 1);
  ASSERT_EQ(a.vertex_count(), b.vertex_count());
  for (int i = 0; i < a.vertex_count(); ++i) EXPECT_EQ(a.vertices()[size_t(i)], b.vertices()[size_t(i)]);
  EXPECT_EQ(a.radius(), 0);
}

TEST(ShapeMakers, SegmentOfEqualPointsIsAPoint) {
  const Shape s = Shape::segment({3, -1}, {3, -1});
  ASSERT_EQ(s.vertex_count(), 1);
  EXPECT_EQ(s.vertices()[0], (Vec2{3, -1}));
  EXPECT_EQ(s.radius(), 0);
}

TEST(ShapeMakers, CircleKeepsCentreAndRadius) {
  const Shape s = Shape::circle(0.25f, {-4, 7});
  ASSERT_EQ(s.vertex_count(), 1);
  EXPECT_EQ(s.vertices()[0], (Vec2{-4, 7}));
  EXPECT_EQ(s.radius(), 0.25f);
  EXPECT_EQ(s.core_centroid(), (Vec2{-4, 7}));
}

TEST(ShapeMakers, HasSliversFlagsExactlyTheCoresWithAVertexUnder45Degrees) {
  // Shape::has_slivers() (kSliverCosine): a polygon core with an interior angle below 45 degrees,
  // computed by every maker, so that the ray cast checks a sharp entry past an edge's end only
  // where the planes' rounding can carry it far (src/cast/ray_core.hpp, sharp_entry_holds).
  using pebble::Shape;
  using pebble::Vec2;
  EXPECT_FALSE(Shape::circle(1).has_slivers());
  EXPECT_FALSE(Shape::capsule({-1, 0}, {1, 0}, 0.5f).has_slivers());
  EXPECT_FALSE(Shape::segment({-1, 0}, {1, 0}).has_slivers());
  EXPECT_FALSE(Shape::box(1, 0.01f).has_slivers());
  EXPECT_FALSE(Shape::box(2, 1, {3, 4}, 0.7f).has_slivers());
  EXPECT_FALSE(Shape::rounded_box(1, 0.5f, 0.1f).has_slivers());
  for (int n = 3; n <= 8; ++n) {
    std::vector<Vec2> regular;
    for (int k = 0; k < n; ++k)
      regular.push_back({std::cos(6.2831853f * float(k) / float(n)), std::sin(6.2831853f * float(k) / float(n))});
    EXPECT_FALSE(Shape::polygon(regular).has_slivers()) << n;  // 60 degrees and more
    EXPECT_FALSE(Shape::polygon(regular, 0.25f).has_slivers()) << n;
  }
  // Isosceles triangles whose apex angle is just above and just below 45 degrees.
  const auto apex = [](float degrees) {
    const float half = 0.5f * degrees * 3.14159265f / 180;
    return Shape::polygon(std::vector<Vec2>{{0, 0}, {10, -10 * std::tan(half)}, {10, 10 * std::tan(half)}});
  };
  EXPECT_FALSE(apex(46).has_slivers());
  EXPECT_TRUE(apex(44).has_slivers());
  EXPECT_TRUE(apex(1).has_slivers());
  // The sliver of Raycast.RaysPassingBeyondASharpSliversTipMiss (ray_test.cpp), and a needle quad.
  EXPECT_TRUE(Shape::polygon(
                  std::vector<Vec2>{{6.40969056e-10f, 4.42539023e-39f}, {53, 48.1875f}, {1.66896612e-07f, 0.01171875f}})
                  .has_slivers());
  EXPECT_TRUE(Shape::polygon(std::vector<Vec2>{{0, 0}, {50, -0.1f}, {100, 0}, {50, 0.1f}}).has_slivers());
  // The flag does not grow a Shape (it shares the vertex count's word).
  EXPECT_EQ(sizeof(Shape), 188u);
}
