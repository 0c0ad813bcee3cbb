// Point queries: project_point and contains against the long double oracle
// (tests/oracle/projection), plus hand-made edge cases, rigid-motion invariance, agreement of
// the two queries and finite output for absurd input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include <pebble/point.hpp>
#include "random_cases.hpp"

#include "oracle/hull.hpp"
#include "oracle/projection.hpp"

using namespace pebble;
using oracle::real;

namespace {

constexpr real kPi = 3.141592653589793238462643383279502884L;
constexpr real kFloatEps = 1.1920929e-7L;  // 2^-23: one ulp of a float in [1, 2)

// ---------------------------------------------------------------------------------------------
// Random inputs

using test_random::Rng;

enum Kind { kCircle, kCapsule, kSegment, kBox, kOffsetBox, kRoundedBox, kPolygon, kRoundedPolygon, kRegular, kKinds };

const char* kind_name(int kind) {
  static const char* names[] = {"circle",  "capsule",         "segment",        "box", "offset box", "rounded box",
                                "polygon", "rounded polygon", "regular polygon"};
  return names[kind];
}

Shape random_shape(Rng& rng, int kind) {
  const float s = float(rng.log_uniform(0.01, 100));
  switch (kind) {
    case kCircle:
      return Shape::circle(s * float(rng.uniform(0.1, 1)), rng.chance(0.5) ? Vec2{} : rng.in_disc(2 * s));
    case kCapsule:
      return Shape::capsule(rng.in_disc(s), rng.in_disc(s), s * float(rng.uniform(0.02, 0.5)));
    case kSegment:
      return Shape::segment(rng.in_disc(s), rng.in_disc(s));
    case kBox:
      return Shape::box(s * float(rng.uniform(0.05, 1)), s * float(rng.uniform(0.05, 1)));
    case kOffsetBox:
      return Shape::box(s * float(rng.uniform(0.05, 1)), s * float(rng.uniform(0.05, 1)), rng.in_disc(3 * s),
                        float(rng.uniform(-4, 4)));
    case kRoundedBox: {
      const float hw = s * float(rng.uniform(0.05, 1)), hh = s * float(rng.uniform(0.05, 1));
      const float smaller = std::min(hw, hh);
      const float cr = rng.chance(0.15) ? smaller : smaller * float(rng.uniform(0, 1));
      return Shape::rounded_box(hw, hh, cr);
    }
    case kPolygon:
    case kRoundedPolygon: {
      std::vector<Vec2> pts(size_t(rng.integer(3, 8)));
      for (Vec2& p : pts) p = rng.in_disc(s);
      return Shape::polygon(pts, kind == kPolygon ? 0.0f : s * float(rng.uniform(0, 0.5)));
    }
    default: {
      const int n = rng.integer(3, 8);
      const double phase = rng.uniform(0, 6.3);
      std::vector<Vec2> pts;
      for (int i = 0; i < n; ++i) {
        const double t = phase + 2 * 3.14159265358979 * i / n;
        pts.push_back({float(s * std::cos(t)), float(s * std::sin(t))});
      }
      return Shape::polygon(pts, rng.chance(0.5) ? 0.0f : s * 0.2f);
    }
  }
}

Transform random_transform(Rng& rng) {
  Transform xf;
  switch (rng.integer(0, 3)) {
    case 0:
      xf.p = {};
      break;
    case 1:
      xf.p = {float(rng.uniform(-10, 10)), float(rng.uniform(-10, 10))};
      break;
    default:
      xf.p = {float(rng.uniform(-1e4, 1e4)), float(rng.uniform(-1e4, 1e4))};
      break;
  }
  switch (rng.integer(0, 5)) {
    case 0:
      xf.q = Rot::identity();
      break;
    case 1:
      xf.q = Rot{0, 1};
      break;
    default:
      xf.q = Rot::from_angle(float(rng.uniform(-kPi, kPi)));
      break;
  }
  return xf;
}

// ---------------------------------------------------------------------------------------------
// Bridging pebble's inputs to the oracle (long double, world frame)

// The rotation the transform stands for: (c, s) scaled to unit length, as exactly as long
// double allows. pebble documents that it reads a slightly non-unit q this way.
struct LFrame {
  real c, s, x, y;
  explicit LFrame(const Transform& xf) {
    const real len = std::sqrt(real(xf.q.c) * xf.q.c + real(xf.q.s) * xf.q.s);
    c = xf.q.c / len;
    s = xf.q.s / len;
    x = xf.p.x;
    y = xf.p.y;
  }
  oracle::V apply(oracle::V v) const { return {c * v.x - s * v.y + x, s * v.x + c * v.y + y}; }
  oracle::V rotate(oracle::V v) const { return {c * v.x - s * v.y, s * v.x + c * v.y}; }
};

oracle::V lv(Position v) { return {v.x, v.y}; }  // a Vec2 too
/// Rounded to the coordinate type: float, or double in a build with double positions.
Position to_position(oracle::V v) { return {Coordinate(v.x), Coordinate(v.y)}; }
real lnorm(oracle::V v) { return std::sqrt(oracle::dot(v, v)); }
real lmax_abs(oracle::V v) { return std::max(std::fabs(v.x), std::fabs(v.y)); }

oracle::RShape world_shape(const Shape& shape, const Transform& xf) {
  const LFrame f(xf);
  oracle::RShape out;
  for (Vec2 v : shape.vertices()) out.core.push_back(f.apply(lv(v)));
  out.radius = shape.radius();
  return out;
}

// Diameter of the shape: the "size" every tolerance scales with.
real shape_size(const oracle::RShape& s) {
  real d = 0;
  for (oracle::V a : s.core) {
    for (oracle::V b : s.core) d = std::max(d, lnorm(a - b));
  }
  return d + 2 * s.radius;
}

// The largest coordinate magnitude among the transform, the world core, the query point and
// (when given) an answer point.
real largest_coordinate(const oracle::RShape& s, const Transform& xf, Position p) {
  real m = std::max({lmax_abs(lv(xf.p)), lmax_abs(lv(p)), real(1e-30)});
  for (oracle::V v : s.core) m = std::max(m, lmax_abs(v) + s.radius);
  return m;
}

// The accuracy DESIGN.md promises: 1e-3 of the shape's size plus 4 ulp of the coordinates.
real tolerance(real size, real coordinate) { return 1e-3L * size + 4 * kFloatEps * coordinate; }

real angle_between(Vec2 a, oracle::V b) {
  const oracle::V av = lv(a);
  return std::fabs(std::atan2(oracle::cross(av, b), oracle::dot(av, b)));
}

bool all_finite(const ProjectionResult& r) {
  return std::isfinite(r.point.x) && std::isfinite(r.point.y) && std::isfinite(r.normal.x) &&
         std::isfinite(r.normal.y) && std::isfinite(r.distance);
}

// Worst error seen, as a fraction of the case's tolerance and in units of the shape size.
struct Stats {
  real distance = 0, point = 0;  // worst error in ulps of the largest coordinate involved
  real distance_tol = 0;         // worst distance error as a fraction of the tolerance
  real normal = 0;               // radians
  long cases = 0, normals = 0, inside_checked = 0;
};
Stats g_stats;

// ---------------------------------------------------------------------------------------------
// Query points, built in the shape's local frame then mapped to world and rounded to the
// coordinate type.

Position to_world(const Transform& xf, oracle::V local) { return to_position(LFrame(xf).apply(local)); }

oracle::V random_local_point(Rng& rng, const Shape& shape) {
  const auto v = shape.vertices();
  const int n = shape.vertex_count();
  const real r = shape.radius();
  const real size = 2 * shape.extent();
  const oracle::V centroid = lv(shape.core_centroid());
  const oracle::V vi = lv(v[size_t(rng.integer(0, n - 1))]);
  const oracle::V vj = lv(v[size_t(rng.integer(0, n - 1))]);
  const real angle = rng.uniform(-kPi, kPi);
  const oracle::V u{std::cos(angle), std::sin(angle)};
  switch (rng.integer(0, 9)) {
    case 0:
      return centroid;
    case 1:
      return vi;  // exactly on a core vertex
    case 2:
      return vi + real(rng.uniform(0, 1)) * (vj - vi);  // on a core edge or chord
    case 3: {                                           // far away, up to the 1e9 limit of valid points
      const real far = rng.log_uniform(double(size) * 2, 5e8);
      return centroid + far * u;
    }
    case 4:
    case 5:
    case 6: {  // near the boundary: the support point along u, moved along u by a little
      oracle::V best = lv(v[0]);
      for (Vec2 c : v) {
        if (oracle::dot(lv(c), u) > oracle::dot(best, u)) best = lv(c);
      }
      static const real scales[] = {0, 1e-7L, 1e-5L, 1e-3L, 1e-2L};
      const real delta = size * scales[rng.integer(0, 4)] * rng.uniform(-1, 1);
      return best + (r + delta) * u;
    }
    case 7: {  // on a flat part of the boundary, moved along the edge normal
      if (shape.edge_count() == 0) return centroid + r * u;
      const int e = rng.integer(0, shape.edge_count() - 1);
      const oracle::V a = lv(v[size_t(e)]), b = lv(v[size_t((e + 1) % n)]);
      const oracle::V nrm = lv(shape.normal(e));
      const real delta = size * real(rng.chance(0.3) ? 0 : rng.uniform(-1e-3, 1e-3));
      return a + real(rng.uniform(0, 1)) * (b - a) + (r + delta) * nrm;
    }
    default: {  // anywhere in and around the shape
      return centroid + real(rng.uniform(0, 1.5)) * size * u;
    }
  }
}

// Compares one query with the oracle; returns false (after recording failures) on mismatch.
void check_against_oracle(const Shape& shape, const Transform& xf, Position p, const char* what) {
  const oracle::RShape ws = world_shape(shape, xf);
  const ProjectionResult got = project_point(shape, xf, p);
  const oracle::Projection want = oracle::project(ws, lv(p));
  const real size = shape_size(ws);
  const real coordinate = largest_coordinate(ws, xf, p) + std::fabs(want.distance);
  const real tol = tolerance(size, coordinate);
  // Rounding-only accuracy: pebble works in double on the exact float inputs, so beyond the
  // final float rounding its error is tiny. Used for the inside flag, which must flip only
  // within rounding of the boundary.
  const real tight = 1e-6L * size + 4 * kFloatEps * coordinate;

  SCOPED_TRACE(::testing::Message() << what << ": p=(" << p.x << ", " << p.y << ") xf=(" << xf.p.x << ", " << xf.p.y
                                    << " | " << xf.q.c << ", " << xf.q.s << ") n=" << shape.vertex_count()
                                    << " r=" << shape.radius() << " size=" << double(size));
  ASSERT_TRUE(all_finite(got));
  EXPECT_NEAR(double(got.distance), double(want.distance), double(tol));
  EXPECT_EQ(got.inside, got.distance <= 0);
  EXPECT_EQ(got.inside, contains(shape, xf, p));
  if (std::fabs(want.distance) > tight) {
    EXPECT_EQ(got.inside, want.inside) << "oracle distance " << double(want.distance);
    ++g_stats.inside_checked;
  }
  // The answer is a boundary point, at |distance| from p, reached from it along the normal.
  EXPECT_NEAR(double(lnorm(lv(got.normal))), 1.0, 1e-6);
  const oracle::Projection on = oracle::project(ws, lv(got.point));
  EXPECT_NEAR(double(on.distance), 0.0, double(tol));
  const oracle::V back = lv(got.point) + real(got.distance) * lv(got.normal);
  EXPECT_NEAR(double(lnorm(back - lv(p))), 0.0, double(tol));

  const real ulp = kFloatEps * coordinate;
  g_stats.distance = std::max(g_stats.distance, std::fabs(got.distance - want.distance) / ulp);
  g_stats.distance_tol = std::max(g_stats.distance_tol, std::fabs(got.distance - want.distance) / tol);
  ++g_stats.cases;
  if (want.normal_margin > 1e-3L * size) {
    // Unique answer: the point and the normal are pinned down too.
    EXPECT_NEAR(double(lnorm(lv(got.point) - want.point)), 0.0, double(tol));
    EXPECT_LT(double(angle_between(got.normal, want.normal)), 1e-3);
    g_stats.point = std::max(g_stats.point, lnorm(lv(got.point) - want.point) / ulp);
    g_stats.normal = std::max(g_stats.normal, angle_between(got.normal, want.normal));
    ++g_stats.normals;
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The oracle itself, cross-checked by dense boundary sampling.

TEST(PointOracle, AgreesWithDenseBoundarySampling) {
  Rng rng(11);
  for (int shape_case = 0; shape_case < 45; ++shape_case) {
    const int kind = shape_case % kKinds;
    const Shape shape = random_shape(rng, kind);
    const Transform xf = random_transform(rng);
    const oracle::RShape ws = world_shape(shape, xf);
    const real size = shape_size(ws);
    const std::vector<oracle::V> loop = oracle::sample_boundary(ws, 20000);
    // Chords of the sampled loop lie within radius * 2pi / count of the boundary.
    const real slack = ws.radius * 2 * kPi / 20000 + 1e-9L * size + 1e-12L * largest_coordinate(ws, xf, {});
    for (int q = 0; q < 25; ++q) {
      const oracle::V p = LFrame(xf).apply(random_local_point(rng, shape));
      const oracle::Projection want = oracle::project(ws, p);
      SCOPED_TRACE(::testing::Message() << kind_name(kind) << " case " << shape_case << " query " << q);
      const real sampled = oracle::loop_distance(loop, p);
      EXPECT_NEAR(double(std::fabs(want.distance)), double(sampled), double(2 * slack + 1e-6L * size));
      if (std::fabs(want.distance) > 2 * slack + 1e-6L * size && loop.size() >= 3) {
        EXPECT_EQ(want.inside, oracle::loop_contains(loop, p));
      }
      // The oracle's own answer is consistent: point on the sampled boundary, p = point + d n.
      EXPECT_NEAR(double(oracle::loop_distance(loop, want.point)), 0.0, double(2 * slack + 1e-6L * size));
      EXPECT_NEAR(double(lnorm(want.point + want.distance * want.normal - p)), 0.0, double(1e-9L * size));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Random comparison with the oracle

TEST(ProjectPoint, MatchesOracleOnRandomShapesAndPoints) {
  Rng rng(2024);
  for (int shape_case = 0; shape_case < 4500; ++shape_case) {
    const int kind = shape_case % kKinds;
    const Shape shape = random_shape(rng, kind);
    const Transform xf = random_transform(rng);
    for (int q = 0; q < 12; ++q) {
      const Position p = to_world(xf, random_local_point(rng, shape));
      check_against_oracle(shape, xf, p, kind_name(kind));
      if (HasFailure()) return;
    }
  }
  std::printf(
      "[ stats ] %ld queries: worst distance error %.3Lg ulp of the largest coordinate (%.3Lg of the "
      "tolerance); on %ld unique answers worst point error %.3Lg ulp, worst normal error %.3Lg rad; "
      "inside compared on %ld\n",
      g_stats.cases, g_stats.distance, g_stats.distance_tol, g_stats.normals, g_stats.point, g_stats.normal,
      g_stats.inside_checked);
}

TEST(ProjectPoint, WorldPointOfACoreVertexGivesASurfacePoint) {
  // A core vertex placed in world as exactly as the coordinate type allows, queried back: with
  // double positions the local point lands within a few double steps of the vertex, so p - vertex
  // is rounding noise, and the answer (vertex + radius x normal) must still lie on the rounded
  // surface (point.cpp keeps the normal in the vertex's normal cone). In the float build the
  // point is a float step away instead.
  Rng rng(4141);
  for (int shape_case = 0; shape_case < 2000; ++shape_case) {
    const int kind = shape_case % kKinds;
    const Shape shape = random_shape(rng, kind);
    if (shape.vertex_count() < 2) continue;
    Transform xf = random_transform(rng);
    xf.q = Rot::from_angle(float(rng.uniform(-kPi, kPi)));
    for (Vec2 v : shape.vertices()) check_against_oracle(shape, xf, to_world(xf, lv(v)), kind_name(kind));
    if (HasFailure()) return;
  }
}

TEST(ProjectPoint, MatchesOracleForPointsOnTheCoreWithoutRotation) {
  // With a translation-only transform the local point is exact, so points on core vertices
  // and axis-aligned edges are exactly on the boundary of a radius-0 core.
  Rng rng(7);
  for (int shape_case = 0; shape_case < 900; ++shape_case) {
    const int kind = shape_case % kKinds;
    const Shape shape = random_shape(rng, kind);
    const Transform xf{rng.chance(0.5) ? Vec2{} : Vec2{float(rng.integer(-100, 100)), float(rng.integer(-100, 100))},
                       Rot::identity()};
    for (Vec2 v : shape.vertices()) {
      const Position p = v + xf.p;
      check_against_oracle(shape, xf, p, kind_name(kind));
      // Only when p - xf.p gives back v exactly is p exactly on the core.
      const bool exact = double(p.x) - double(xf.p.x) == double(v.x) && double(p.y) - double(xf.p.y) == double(v.y);
      if (shape.radius() == 0 && exact) {
        const ProjectionResult got = project_point(shape, xf, p);
        EXPECT_TRUE(got.inside);
        EXPECT_EQ(got.distance, 0.0f);
        EXPECT_EQ(got.point, p);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Hand-made cases

TEST(ProjectPoint, DiscCentreGivesMinusRadiusAndAFixedNormal) {
  const Shape disc = Shape::circle(2, {1, 1});
  // A quarter turn is exact in float, so the world centre maps back to the local centre exactly.
  const Transform xf{{3, -4}, Rot{0, 1}};
  const Position centre = transform_point(xf, {1, 1});
  const ProjectionResult r = project_point(disc, xf, centre);
  EXPECT_TRUE(r.inside);
  EXPECT_NEAR(r.distance, -2.0f, 1e-5f);
  EXPECT_NEAR(length(r.normal), 1.0f, 1e-6f);
  EXPECT_NEAR(length(r.point - centre), 2.0f, 1e-5f);
  // The normal is the shape's local +x: it turns with the shape.
  EXPECT_NEAR(r.normal.x, xf.q.c, 1e-6f);
  EXPECT_NEAR(r.normal.y, xf.q.s, 1e-6f);
}

TEST(ProjectPoint, ZeroRadiusCircleIsAPoint) {
  const Shape dot_shape = Shape::circle(0, {2, 3});
  const ProjectionResult at = project_point(dot_shape, Transform::identity(), {2, 3});
  EXPECT_TRUE(at.inside);
  EXPECT_EQ(at.distance, 0.0f);
  EXPECT_EQ(at.point, (Vec2{2, 3}));
  const ProjectionResult off = project_point(dot_shape, Transform::identity(), {5, 7});
  EXPECT_FALSE(off.inside);
  EXPECT_FLOAT_EQ(off.distance, 5.0f);
  EXPECT_NEAR(off.normal.x, 0.6f, 1e-6f);
  EXPECT_NEAR(off.normal.y, 0.8f, 1e-6f);
}

TEST(ProjectPoint, PointOnARadiusZeroSegmentIsOnTheBoundary) {
  const Transform id = Transform::identity();
  const Shape axis = Shape::segment({-1, 2}, {3, 2});
  const Shape diagonal = Shape::segment({0, 0}, {3, 1});
  for (Vec2 p : {Vec2{0.5f, 2}, Vec2{-1, 2}, Vec2{3, 2}}) {
    const ProjectionResult r = project_point(axis, id, p);
    EXPECT_TRUE(r.inside);
    EXPECT_EQ(r.distance, 0.0f);
    EXPECT_EQ(r.point, p);
    EXPECT_TRUE(contains(axis, id, p));
  }
  for (Vec2 p : {Vec2{1.5f, 0.5f}, Vec2{0, 0}, Vec2{3, 1}, Vec2{0.75f, 0.25f}}) {
    const ProjectionResult r = project_point(diagonal, id, p);
    EXPECT_TRUE(r.inside);
    EXPECT_EQ(r.distance, 0.0f);
    EXPECT_TRUE(contains(diagonal, id, p));
    EXPECT_NEAR(length(r.point - Position(p)), 0.0f, 1e-6f);
  }
  // Beyond an end on the segment's line: outside, the distance is the gap.
  const ProjectionResult beyond = project_point(axis, id, {5, 2});
  EXPECT_FALSE(beyond.inside);
  EXPECT_FLOAT_EQ(beyond.distance, 2.0f);
  EXPECT_EQ(beyond.normal, (Vec2{1, 0}));
  EXPECT_FALSE(contains(axis, id, {5, 2}));
}

TEST(ProjectPoint, SegmentNormalPointsToTheQuerySide) {
  const Shape seg = Shape::segment({-1, 0}, {1, 0});
  const ProjectionResult above = project_point(seg, Transform::identity(), {0.25f, 0.5f});
  const ProjectionResult below = project_point(seg, Transform::identity(), {0.25f, -0.5f});
  EXPECT_EQ(above.normal, (Vec2{0, 1}));
  EXPECT_EQ(below.normal, (Vec2{0, -1}));
  EXPECT_FLOAT_EQ(above.distance, 0.5f);
  EXPECT_FLOAT_EQ(below.distance, 0.5f);
  EXPECT_EQ(above.point, (Vec2{0.25f, 0}));
}

TEST(ProjectPoint, PointOnTheCapsuleCoreIsOneRadiusDeep) {
  const Shape cap = Shape::capsule({-2, 0}, {2, 0}, 0.5f);
  const ProjectionResult r = project_point(cap, Transform::identity(), {1, 0});
  EXPECT_TRUE(r.inside);
  EXPECT_FLOAT_EQ(r.distance, -0.5f);
  EXPECT_FLOAT_EQ(std::fabs(r.normal.y), 1.0f);
  EXPECT_FLOAT_EQ(r.point.x, 1.0f);
  EXPECT_FLOAT_EQ(std::fabs(r.point.y), 0.5f);
  // Past the end cap, along the axis.
  const ProjectionResult end = project_point(cap, Transform::identity(), {3, 0});
  EXPECT_FALSE(end.inside);
  EXPECT_FLOAT_EQ(end.distance, 0.5f);
  EXPECT_EQ(end.normal, (Vec2{1, 0}));
  EXPECT_EQ(end.point, (Vec2{2.5f, 0}));
}

TEST(ProjectPoint, BoxBoundaryAndVerticesAreInside) {
  const Shape box = Shape::box(2, 1);
  const Transform id = Transform::identity();
  for (Vec2 p : {Vec2{2, 0.3f}, Vec2{-0.7f, 1}, Vec2{2, 1}, Vec2{-2, -1}, Vec2{-2, 1}}) {
    const ProjectionResult r = project_point(box, id, p);
    EXPECT_TRUE(r.inside) << p.x << ", " << p.y;
    EXPECT_EQ(r.distance, 0.0f);
    EXPECT_EQ(r.point, p);
    EXPECT_TRUE(contains(box, id, p));
  }
  // Just outside an edge and a corner.
  EXPECT_FALSE(contains(box, id, {std::nextafter(2.0f, 3.0f), 0}));
  EXPECT_FALSE(contains(box, id, {std::nextafter(2.0f, 3.0f), std::nextafter(1.0f, 2.0f)}));
  const ProjectionResult corner = project_point(box, id, {5, 5});
  EXPECT_FLOAT_EQ(corner.distance, 5.0f);
  EXPECT_EQ(corner.point, (Vec2{2, 1}));
  EXPECT_NEAR(corner.normal.x, 0.6f, 1e-6f);
  EXPECT_NEAR(corner.normal.y, 0.8f, 1e-6f);
}

TEST(ProjectPoint, InsideBoxUsesTheNearestEdge) {
  const Shape box = Shape::box(2, 1);
  const ProjectionResult r = project_point(box, Transform::identity(), {1.5f, 0.2f});
  EXPECT_FLOAT_EQ(r.distance, -0.5f);
  EXPECT_EQ(r.normal, (Vec2{1, 0}));
  EXPECT_EQ(r.point, (Vec2{2, 0.2f}));
}

TEST(ProjectPoint, TiedEdgesGiveTheRightDistanceAndOneOfTheTiedNormals) {
  // The centre of a square is equally far from all four edges, a point on its diagonal from two.
  const Shape square = Shape::box(1, 1);
  const ProjectionResult centre = project_point(square, Transform::identity(), {0, 0});
  EXPECT_FLOAT_EQ(centre.distance, -1.0f);
  EXPECT_FLOAT_EQ(std::fabs(centre.normal.x) + std::fabs(centre.normal.y), 1.0f);
  EXPECT_FLOAT_EQ(length(centre.point - Position{}), 1.0f);
  const ProjectionResult diagonal = project_point(square, Transform::identity(), {0.5f, 0.5f});
  EXPECT_FLOAT_EQ(diagonal.distance, -0.5f);
  EXPECT_TRUE(diagonal.normal == (Vec2{1, 0}) || diagonal.normal == (Vec2{0, 1}));
  // Regular polygons around their centroid, any rotation.
  for (int n = 3; n <= 8; ++n) {
    std::vector<Vec2> pts;
    for (int i = 0; i < n; ++i) {
      const float t = 2 * 3.14159265f * float(i) / float(n);
      pts.push_back({std::cos(t), std::sin(t)});
    }
    const Shape poly = Shape::polygon(pts, 0.25f);
    const Transform xf{{100, -50}, Rot::from_angle(0.3f * float(n))};
    const Position c = transform_point(xf, poly.core_centroid());
    const ProjectionResult r = project_point(poly, xf, c);
    const float apothem = std::cos(3.14159265f / float(n));
    EXPECT_NEAR(r.distance, -(apothem + 0.25f), 1e-5f) << n;
    EXPECT_NEAR(length(r.point - c), apothem + 0.25f, 1e-4f) << n;
  }
}

TEST(ProjectPoint, RoundedBoxCornerIsAnArc) {
  const Shape rb = Shape::rounded_box(2, 1, 0.5f);  // core half extents 1.5 x 0.5
  const ProjectionResult r = project_point(rb, Transform::identity(), {1.5f + 3, 0.5f + 4});
  EXPECT_FLOAT_EQ(r.distance, 4.5f);
  EXPECT_NEAR(r.point.x, 1.5f + 0.3f, 1e-6f);
  EXPECT_NEAR(r.point.y, 0.5f + 0.4f, 1e-6f);
  // Deep inside: one corner radius deeper than the core.
  const ProjectionResult in = project_point(rb, Transform::identity(), {0, 0});
  EXPECT_FLOAT_EQ(in.distance, -1.0f);
  EXPECT_EQ(in.normal, (Vec2{0, -1}));  // the bottom edge: tied with the top, lower index wins
}

TEST(ProjectPoint, FarPointsUpToTheCoordinateLimit) {
  const Shape box = Shape::box(1, 1);
  const ProjectionResult r = project_point(box, Transform::identity(), {1e9f, 0});
  EXPECT_FALSE(r.inside);
  EXPECT_FLOAT_EQ(r.distance, 1e9f - 1);
  EXPECT_EQ(r.normal, (Vec2{1, 0}));
  const Transform xf{{-1e9f, -1e9f}, Rot::from_angle(1)};
  const ProjectionResult across = project_point(box, xf, {1e9f, 1e9f});
  EXPECT_TRUE(all_finite(across));
  EXPECT_NEAR(across.distance, 2.8284271e9f, 3e3f);
  EXPECT_NEAR(length(across.normal), 1.0f, 1e-6f);
}

TEST(ProjectPoint, InvalidInputGivesTheEmptyResult) {
  const Shape shapes[] = {Shape::circle(1), Shape::capsule({0, 0}, {1, 0}, 0.5f), Shape::box(1, 2)};
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const Transform bad_transforms[] = {{{nan, 0}, Rot::identity()},   {{0, inf}, Rot::identity()},
                                      {{1e30f, 0}, Rot::identity()}, {{0, 0}, Rot{nan, 0}},
                                      {{0, 0}, Rot{2, 0}},           {{0, 0}, Rot{0, 0}},
                                      {{0, 0}, Rot{inf, 1}},         {{-2e9f, 0}, Rot::identity()}};
  const Vec2 bad_points[] = {{nan, 0}, {0, -inf}, {1e30f, 1e30f}, {-3e9f, 0}};
  for (const Shape& s : shapes) {
    for (const Transform& xf : bad_transforms) {
      const ProjectionResult r = project_point(s, xf, {0.5f, 0.5f});
      EXPECT_EQ(r.point, (Vec2{0, 0}));
      EXPECT_EQ(r.normal, (Vec2{0, 0}));
      EXPECT_EQ(r.distance, kHugeDistance);
      EXPECT_FALSE(r.inside);
      EXPECT_FALSE(contains(s, xf, {0.5f, 0.5f}));
    }
    for (Vec2 p : bad_points) {
      const ProjectionResult r = project_point(s, Transform::identity(), p);
      EXPECT_TRUE(all_finite(r));
      EXPECT_EQ(r.distance, kHugeDistance);
      EXPECT_FALSE(r.inside);
      EXPECT_FALSE(contains(s, Transform::identity(), p));
    }
  }
}

TEST(ProjectPoint, SlightlyNonUnitRotationIsReadAsItsAngle) {
  // is_valid() accepts |q|^2 within kRotationTolerance of 1; the query must not scale the shape by |q|.
  const Shape box = Shape::box(1, 1);
  const Transform xf{{0, 0}, Rot{1.000004f, 0}};
  const ProjectionResult r = project_point(box, xf, {1000, 0});
  EXPECT_FLOAT_EQ(r.distance, 999.0f);
  EXPECT_FLOAT_EQ(r.point.x, 1.0f);
}

// ---------------------------------------------------------------------------------------------
// Properties

TEST(ProjectPoint, InvariantUnderRigidMotionOfShapeAndPoint) {
  Rng rng(99);
  for (int shape_case = 0; shape_case < 3000; ++shape_case) {
    const int kind = shape_case % kKinds;
    const Shape shape = random_shape(rng, kind);
    const Transform xf = random_transform(rng);
    const Transform motion = random_transform(rng);
    const LFrame m(motion);
    // xf' = motion * xf, computed in long double and rounded once.
    const LFrame f(xf);
    const oracle::V q2 = m.rotate({f.c, f.s});
    const Transform moved{to_position(m.apply(lv(xf.p))), Rot{float(q2.x), float(q2.y)}};
    for (int q = 0; q < 4; ++q) {
      const oracle::V local = random_local_point(rng, shape);
      const Position p = to_world(xf, local);
      const Position p2 = to_world(moved, local);
      const ProjectionResult a = project_point(shape, xf, p);
      const ProjectionResult b = project_point(shape, moved, p2);
      const oracle::RShape ws = world_shape(shape, xf);
      const real size = shape_size(ws);
      const real coordinate =
          std::max(largest_coordinate(ws, xf, p), largest_coordinate(world_shape(shape, moved), moved, p2)) +
          std::fabs(real(a.distance));
      // Both inputs are rounded to float, so they differ from an exact motion by a few ulp.
      const real tol = tolerance(size, coordinate);
      SCOPED_TRACE(::testing::Message() << kind_name(kind) << " case " << shape_case << " query " << q);
      EXPECT_NEAR(a.distance, b.distance, double(tol));
      if (std::fabs(a.distance) > 2 * tol) {
        EXPECT_EQ(a.inside, b.inside);
      }
      // The two query points differ from an exact motion of each other by float rounding (up
      // to about 8 ulp of the coordinates), which turns the true normal by that much over the
      // normal's margin: compare normals only where that stays far below 1e-3 rad.
      const oracle::Projection want = oracle::project(ws, lv(p));
      if (want.normal_margin > 1e-3L * size && want.normal_margin > 1e4L * 8 * kFloatEps * coordinate) {
        EXPECT_NEAR(double(lnorm(m.apply(lv(a.point)) - lv(b.point))), 0.0, double(tol));
        EXPECT_LT(double(angle_between(b.normal, m.rotate(lv(a.normal)))), 1e-3);
      }
    }
  }
}

TEST(Contains, AgreesExactlyWithProjectPointInside) {
  Rng rng(5);
  long inside = 0, total = 0;
  for (int shape_case = 0; shape_case < 6000; ++shape_case) {
    const Shape shape = random_shape(rng, shape_case % kKinds);
    const Transform xf = random_transform(rng);
    for (int q = 0; q < 20; ++q) {
      Position p = to_world(xf, random_local_point(rng, shape));
      if (q % 4 == 3) p = {std::nextafter(p.x, Coordinate(2e9f)), p.y};  // the neighbouring coordinate
      const ProjectionResult r = project_point(shape, xf, p);
      ASSERT_EQ(contains(shape, xf, p), r.inside) << shape_case << " " << q;
      ASSERT_EQ(r.inside, r.distance <= 0);
      inside += r.inside;
      ++total;
    }
  }
  // Enough of both answers to mean something.
  EXPECT_GT(inside, total / 10);
  EXPECT_LT(inside, total - total / 10);
}

TEST(Contains, FloatFilterAgreesWithTheExactTestAtTheBoundary) {
  // contains() decides in float first and falls back to the double test only within its error
  // bound of the boundary (docs/point.md, "Float filter"). Points exactly on and one or a few
  // coordinate steps (floats, or doubles with double positions) either side of circles and sharp polygons, under
  // rotations off unit length by up to the accepted kRotationTolerance, at sizes 1e-3 to 1e4 and far from the origin:
  // every answer must be project_point()'s inside (the double test), exactly.
  Rng rng(23);
  long checked = 0, inside = 0;
  const auto check = [&](const Shape& shape, const Transform& xf, Position p) {
    for (int step = -3; step <= 3; ++step) {
      Position q = p;
      for (int k = 0; k < std::abs(step); ++k) q.x = std::nextafter(q.x, Coordinate(step < 0 ? -2e9f : 2e9f));
      for (int axis = 0; axis < 2; ++axis) {
        const Position r = axis == 0 ? q : Position{p.x, q.x - p.x + p.y};
        const bool expected = project_point(shape, xf, r).inside;
        ASSERT_EQ(contains(shape, xf, r), expected) << checked << " step " << step << " axis " << axis;
        inside += expected;
        ++checked;
      }
    }
  };
  for (int n = 0; n < 3000; ++n) {
    const float size = float(rng.log_uniform(1e-3, 1e4));
    const float far = n % 3 == 0 ? 0.0f : float(rng.log_uniform(1, 1e6));
    const float scale =
        n % 4 == 0 ? float(1 + rng.uniform(-0.49, 0.49) * kRotationTolerance) : 1.0f;  // |q|^2 within the tolerance
    const float angle = float(rng.uniform(-3.2, 3.2));
    Transform xf{{far * float(rng.uniform(-1, 1)), far * float(rng.uniform(-1, 1))}, Rot::from_angle(angle)};
    xf.q.c *= scale;
    xf.q.s *= scale;
    if (!is_valid(xf)) continue;
    if (n % 2 == 0) {
      const Vec2 centre{size * float(rng.uniform(-1, 1)), size * float(rng.uniform(-1, 1))};
      const Shape disc = Shape::circle(size, centre);
      const float a = float(rng.uniform(-3.2, 3.2));
      // On the circle in the shape's frame (as far as float allows), and axis-aligned extremes.
      check(disc, xf, transform_point(xf, centre + Vec2{size * std::cos(a), size * std::sin(a)}));
      check(disc, xf, transform_point(xf, centre + Vec2{size, 0}));
      check(disc, Transform{xf.p, Rot::identity()}, xf.p + centre + Vec2{0, -size});
    } else {
      const Shape box = Shape::box(size, 0.5f * size);
      const Shape octagon = Shape::polygon(std::vector<Vec2>{{size, 0},
                                                             {0.7f * size, 0.7f * size},
                                                             {0, size},
                                                             {-0.7f * size, 0.7f * size},
                                                             {-size, 0},
                                                             {-0.7f * size, -0.7f * size},
                                                             {0, -size},
                                                             {0.7f * size, -0.7f * size}});
      const float t = float(rng.uniform(0, 1));
      // On an edge, at a vertex, and an axis-aligned edge under a translation only.
      check(box, xf, transform_point(xf, Vec2{size, 0.5f * size * (2 * t - 1)}));
      check(box, xf, transform_point(xf, Vec2{-size, -0.5f * size}));
      check(box, Transform{xf.p, Rot::identity()}, xf.p + Vec2{size * (2 * t - 1), 0.5f * size});
      const Vec2 v0 = octagon.vertices()[size_t(n) % 8], v1 = octagon.vertices()[(size_t(n) + 1) % 8];
      check(octagon, xf, transform_point(xf, v0 + t * (v1 - v0)));
      check(octagon, xf, transform_point(xf, v0));
    }
  }
  EXPECT_GT(inside, checked / 10);
  EXPECT_LT(inside, checked - checked / 10);
}

TEST(Contains, FloatFilterChecksTheInputBeforeAnsweringInside) {
  // The filter answers "outside" without looking at the input (false is the answer for invalid
  // input too) but must check it before answering "inside".
  const Shape disc = Shape::circle(1), box = Shape::box(1, 1);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (const Shape& s : {disc, box}) {
    EXPECT_TRUE(contains(s, Transform::identity(), {0.5f, 0}));
    EXPECT_FALSE(contains(s, Transform{{2e9f, 0}, Rot::identity()}, {2e9f, 0}));  // beyond the coordinate limit
    EXPECT_FALSE(contains(s, Transform{{0, 0}, Rot{1.01f, 0}}, {0.5f, 0}));       // not a unit rotation
    EXPECT_FALSE(contains(s, Transform{{0, 0}, Rot{0, 0}}, {0, 0}));
    EXPECT_FALSE(contains(s, Transform::identity(), {nan, 0}));
    EXPECT_FALSE(contains(s, Transform::identity(), {0, inf}));
    EXPECT_FALSE(contains(s, Transform{{nan, 0}, Rot::identity()}, {0, 0}));
    EXPECT_FALSE(contains(s, Transform{{0, 0}, Rot{nan, 0}}, {0, 0}));
  }
}

TEST(ProjectPoint, DistanceIsOneLipschitz) {
  // Continuity: moving the point by e changes the signed distance by at most |e|.
  Rng rng(31);
  for (int shape_case = 0; shape_case < 1500; ++shape_case) {
    const Shape shape = random_shape(rng, shape_case % kKinds);
    const Transform xf = random_transform(rng);
    const Position p = to_world(xf, random_local_point(rng, shape));
    const real size = shape_size(world_shape(shape, xf));
    const Vec2 step = rng.in_disc(double(size) * 1e-3);
    const Position p2 = p + step;
    const ProjectionResult a = project_point(shape, xf, p), b = project_point(shape, xf, p2);
    const real coordinate = largest_coordinate(world_shape(shape, xf), xf, p) + std::fabs(real(a.distance));
    EXPECT_LE(std::fabs(real(a.distance) - b.distance),
              lnorm(lv(p2) - lv(p)) + 8 * kFloatEps * coordinate + 1e-6L * size);
  }
}

TEST(ProjectPoint, FiniteForExtremeButValidInput) {
  Rng rng(17);
  const float extremes[] = {0, 1e9f, -1e9f, 1e-30f, -1e-30f, 1e-45f, 5e8f};
  for (int shape_case = 0; shape_case < 200; ++shape_case) {
    const Shape shape = random_shape(rng, shape_case % kKinds);
    for (float x : extremes) {
      for (float y : extremes) {
        const Transform xf{{extremes[size_t(rng.integer(0, 6))], extremes[size_t(rng.integer(0, 6))]},
                           Rot::from_angle(float(rng.uniform(-4, 4)))};
        const ProjectionResult r = project_point(shape, xf, {x, y});
        ASSERT_TRUE(all_finite(r));
        EXPECT_NEAR(length(r.normal), 1.0f, 1e-6f);
        EXPECT_EQ(contains(shape, xf, {x, y}), r.inside);
      }
    }
  }
}
