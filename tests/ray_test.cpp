// cast_ray() and the circle cast against the long double oracle (tests/oracle/cast.hpp): random
// rays of every kind of shape, rays from inside, along edges and through corners, tiny and
// far-away shapes, zero-length rays, hand-worked exact cases (touching, grazing, along an edge,
// tangent), published cases of other libraries' test suites, rigid-motion invariance and invalid
// input. Along a ray the signed distance to a convex shape is convex, so the oracle's first
// touch is exact (golden section + bisection on the true distance).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <sstream>

#include <pebble/ray.hpp>

#include "cast_cases.hpp"
#include "oracle/cast.hpp"

using namespace cast_cases;
using pebble::CastResult;
using pebble::Ray;

namespace {

const Transform kId = Transform::identity();

/// One ray (or circle cast when radius > 0) against one placed shape.
struct RayCase {
  ShapeSpec shape;
  Transform xf;
  Ray ray;
  float radius = 0;
};

std::string describe(const RayCase& c) {
  std::string out = "Shape s = " + c.shape.maker + "; Transform xf = " + lit(c.xf) + "; Ray ray{" + lit(c.ray.origin) +
                    ", " + lit(c.ray.translation) + "};";
  if (c.radius > 0) out += " float radius = " + lit(c.radius) + ";";
  return out;
}

CastResult run(const RayCase& c) {
  return c.radius > 0 ? pebble::cast_ray(c.shape.shape, c.xf, c.ray, c.radius)
                      : pebble::cast_ray(c.shape.shape, c.xf, c.ray);
}

/// Everything the contract says about one cast, checked against the oracle. "" when all holds.
std::string check_ray(const RayCase& c) {
  const CastResult h = run(c);
  std::ostringstream err;
  err.precision(9);
  if (!finite(h)) return "non-finite field; ";
  if (c.radius == 0) {
    // cast_ray(..., 0) is cast_ray(...).
    const CastResult h0 = pebble::cast_ray(c.shape.shape, c.xf, c.ray, 0.0f);
    if (h0.hit != h.hit || h0.fraction != h.fraction || !(h0.point == h.point) || !(h0.normal == h.normal)) {
      err << "raycast with radius 0 differs from raycast; ";
    }
  }

  const oracle::RShape ws = world(c.shape, c.xf);
  const oracle::RoundedHull shape(ws.core, ws.radius), grown(ws.core, ws.radius + c.radius);
  const V o = v(c.ray.origin), d = v(c.ray.translation);
  const oracle::ConvexTrack track([&](real t) { return grown.signed_distance(o + t * d); });

  // Tolerance: 1e-3 x the shape's size, plus float rounding of every coordinate involved, plus
  // the rounding of the fraction itself (a float) over the ray's length.
  real biggest = std::max({std::fabs(o.x), std::fabs(o.y), std::fabs(o.x + d.x), std::fabs(o.y + d.y)});
  for (V p : ws.core) biggest = std::max({biggest, std::fabs(p.x), std::fabs(p.y)});
  const real size = oracle::half_diameter(ws) + c.radius;
  const real noise = 8 * real(FLT_EPSILON) * (biggest + size);
  const real len = oracle::length(d);
  const real tol = 1e-3L * size + noise;
  const real tol_t = len > 0 ? tol / len + 2 * real(FLT_EPSILON) : 0;

  const real t_early = track.first_at_or_below(tol);  // first time within tol of touching
  const real t_late = track.first_at_or_below(-tol);  // first time clearly inside
  if (!h.hit) {
    if (!is_no_hit(h)) err << "a miss must be {false, 1, 0, 0}; ";
    if (t_late >= 0)
      err << "missed, but the oracle enters the shape by " << double(tol) << " at t = " << double(t_late) << "; ";
    return err.str();
  }
  if (t_early < 0) {
    err << "hit at " << h.fraction << ", but the oracle stays " << double(track.least()) << " away; ";
    return err.str();
  }
  // Not later than the first time the ray is clearly inside. A ray that never is (a graze, or a
  // sharp segment or point, which have no inside) may touch anywhere it is within tolerance:
  // a ray along a segment's line to rounding meets it at a point set by that rounding.
  const real latest = t_late >= 0 ? t_late : track.last_at_or_below(tol);
  if (real(h.fraction) < t_early - tol_t || real(h.fraction) > latest + tol_t) {
    err << "fraction " << h.fraction << " outside the oracle's [" << double(t_early) << ", " << double(latest) << "]; ";
  }
  const bool starts_inside = track.at(0) <= 0;
  if (h.normal == Vec2{}) {
    // Reported as starting inside: fraction 0, point = origin; the oracle must agree (to tol).
    if (h.fraction != 0) err << "zero normal but fraction " << h.fraction << "; ";
    if (!(h.point == c.ray.origin)) err << "inside, but point is not the origin; ";
    if (track.at(0) > tol) err << "reported inside, but the origin is " << double(track.at(0)) << " away; ";
    return err.str();
  }
  if (starts_inside && track.at(0) < -tol)
    err << "the origin is inside by " << double(-track.at(0)) << " but the normal is not zero; ";

  // A surface hit: the point is on the shape's surface, where the disc (or the ray's point)
  // touches it, and the normal is the surface normal there.
  const V p = v(h.point), n = v(h.normal);
  const V centre = o + real(h.fraction) * d;
  const real on_surface = shape.signed_distance(p);
  if (std::fabs(on_surface) > tol) err << "point off the surface by " << double(on_surface) << "; ";
  if (std::fabs(oracle::length(centre - p) - c.radius) > tol + tol_t * len) {
    err << "point is " << double(oracle::length(centre - p)) << " from the cast centre, not " << c.radius << "; ";
  }
  if (std::fabs(oracle::length(n) - 1) > 1e-5L) err << "normal not unit; ";
  if (oracle::dot(n, d) > tol * len) err << "normal faces along the ray; ";
  const real angle_tol = 1e-3L;
  if (!oracle::is_supporting_normal(ws, p, oracle::normalize(n), tol + angle_tol * 2 * size)) {
    err << "normal is not an outward normal at the point; ";
  }
  bool unique = false;
  const V expected = oracle::surface_normal(ws, p, c.radius > 0 ? centre : o, 1e-3L * size + noise, &unique);
  const real r_eff = ws.radius > 0 ? ws.radius : size;
  // From an origin that touches the shape within tolerance, which side a sharp edge is met from
  // is decided by rounding: only the supporting-normal test above applies.
  if (unique && track.at(0) > tol && angle_between(n, expected) > angle_tol + 4 * noise / r_eff) {
    err << "normal (" << h.normal.x << ", " << h.normal.y << ") off the oracle's (" << double(expected.x) << ", "
        << double(expected.y) << ") by " << double(angle_between(n, expected)) << " rad; ";
  }
  return err.str();
}

// ---------------------------------------------------------------------------------------------
// Case families. Shapes come from contact_cases.hpp (every kind, with the makers' own cleaning).

pebble::Position world_point(const Transform& xf, Vec2 local) { return pebble::transform_point(xf, local); }

/// A random point of the shape (core point blend, pushed out by up to the radius), world.
pebble::Position point_in(const ShapeSpec& s, const Transform& xf, std::mt19937& rng, float depth) {
  const auto verts = s.shape.vertices();
  Vec2 p{};
  float total = 0;
  for (Vec2 q : verts) {
    const float w = uniform(rng, 0.01f, 1);
    p += w * q;
    total += w;
  }
  p = (1 / total) * p;
  const float a = uniform(rng, -3.14159265f, 3.14159265f);
  p += (depth * s.shape.radius()) * Vec2{std::cos(a), std::sin(a)};
  return world_point(xf, p);
}

/// Random rays aimed near the shape from up to 4 sizes away, some stopping short, some pointing
/// away; for every kind.
std::vector<RayCase> random_rays(unsigned seed, int per_kind, float size, Vec2 origin, bool circles) {
  return every_kind<RayCase>(seed, per_kind, [&](Kind k, std::mt19937& rng) -> std::optional<RayCase> {
    ShapeSpec s = random_shape(k, rng, size * uniform(rng, 0.5f, 1.5f));
    const Transform xf = random_pose(rng, size, origin);
    const pebble::Position aim =
        point_in(s, xf, rng, 1.5f) + size * Vec2{uniform(rng, -0.7f, 0.7f), uniform(rng, -0.7f, 0.7f)};
    const float a = uniform(rng, -3.14159265f, 3.14159265f);
    const pebble::Position from = aim + size * uniform(rng, 0.5f, 4) * Vec2{std::cos(a), std::sin(a)};
    Vec2 translation = uniform(rng, 0.3f, 2.0f) * (aim - from);
    if (rng() % 8 == 0) translation = -1.0f * translation;
    const float radius = circles ? size * uniform(rng, 0.02f, 0.8f) : 0;
    return RayCase{std::move(s), xf, Ray{from, translation}, radius};
  });
}

/// Rays whose origin lies inside the shape (most) or just outside, in every direction.
std::vector<RayCase> rays_from_inside(unsigned seed, int per_kind, bool circles) {
  return every_kind<RayCase>(seed, per_kind, [&](Kind k, std::mt19937& rng) -> std::optional<RayCase> {
    ShapeSpec s = random_shape(k, rng, uniform(rng, 0.5f, 1.5f));
    const Transform xf = random_pose(rng, 1, {});
    const pebble::Position from = point_in(s, xf, rng, uniform(rng, 0, 1.2f));
    const float a = uniform(rng, -3.14159265f, 3.14159265f);
    const Vec2 translation = uniform(rng, 0.1f, 3) * Vec2{std::cos(a), std::sin(a)};
    return RayCase{std::move(s), xf, Ray{from, translation}, circles ? uniform(rng, 0.05f, 0.5f) : 0};
  });
}

/// Rays along an outer edge's line (the core edge pushed out by the radius, plus the cast
/// radius), starting before it, after it or on it, in either direction, and tilted by nothing or
/// by a hair toward or away from the shape.
std::vector<RayCase> rays_along_edges(unsigned seed, int per_kind, bool circles) {
  return every_kind<RayCase>(seed, per_kind, [&](Kind k, std::mt19937& rng) -> std::optional<RayCase> {
    if (k == Kind::circle) return std::nullopt;
    ShapeSpec s = random_shape(k, rng, uniform(rng, 0.5f, 1.5f));
    if (s.shape.edge_count() == 0) return std::nullopt;
    const Transform xf = random_pose(rng, 1, {});
    const float radius = circles ? uniform(rng, 0.05f, 0.5f) : 0;
    const int e = int(rng() % unsigned(s.shape.edge_count()));
    const Vec2 a = s.shape.padded_vertices()[e], b = s.shape.padded_vertices()[e + 1];
    const Vec2 n = s.shape.normal(e);
    const float lift = s.shape.radius() + radius;
    const Vec2 dir = pebble::normalize(b - a);
    const float along = uniform(rng, -2, 0.5f);
    const float tilt = std::array<float, 4>{0, 0, 1e-4f, -1e-4f}[rng() % 4];
    const Vec2 local_from = a + lift * n + along * pebble::distance(a, b) * dir;
    Vec2 local_dir = dir + tilt * n;
    if (rng() % 4 == 0) local_dir = -1.0f * local_dir;
    const float reach = uniform(rng, 0.5f, 4) * pebble::distance(a, b);
    return RayCase{std::move(s), xf, Ray{world_point(xf, local_from), pebble::rotate(xf.q, reach * local_dir)}, radius};
  });
}

/// Rays through a corner of the outer boundary (a core vertex pushed out along a direction of
/// its normal cone), exactly or missing / hitting by a hair, from a random side.
std::vector<RayCase> rays_through_corners(unsigned seed, int per_kind, bool circles) {
  return every_kind<RayCase>(seed, per_kind, [&](Kind k, std::mt19937& rng) -> std::optional<RayCase> {
    ShapeSpec s = random_shape(k, rng, uniform(rng, 0.5f, 1.5f));
    const Transform xf = random_pose(rng, 1, {});
    const float radius = circles ? uniform(rng, 0.05f, 0.5f) : 0;
    const int count = s.shape.vertex_count();
    const int vi = int(rng() % unsigned(count));
    const Vec2 v = s.shape.vertices()[size_t(vi)];
    // A direction in the vertex's normal cone (between the normals of its two edges).
    Vec2 u;
    if (count == 1) {
      const float a = uniform(rng, -3.14159265f, 3.14159265f);
      u = {std::cos(a), std::sin(a)};
    } else if (count == 2) {
      // The cone of a segment's end: the half plane beyond it.
      const Vec2 axis = pebble::normalize(v - s.shape.vertices()[size_t(1 - vi)]);
      const float a = uniform(rng, -1.5707963f, 1.5707963f);
      u = std::cos(a) * axis + std::sin(a) * s.shape.normal(0);
    } else {
      const int edges = s.shape.edge_count();
      const Vec2 n_prev = s.shape.normal((vi + edges - 1) % edges), n_next = s.shape.normal(vi % edges);
      u = pebble::normalize(pebble::lerp(n_prev, n_next, uniform(rng, 0, 1)));
      if (u == Vec2{}) u = n_next;
    }
    const float hair = std::array<float, 3>{0, 1e-5f, -1e-5f}[rng() % 3];
    const Vec2 corner = v + (s.shape.radius() + radius + hair) * u;
    // Tangent to the boundary there (grazing) or crossing it at a random angle.
    const float turn = rng() % 2 ? 1.5707963f : uniform(rng, 0.2f, 2.9f);
    const Vec2 dir = pebble::rotate(Rot::from_angle(turn), u);
    const float before = uniform(rng, 0.5f, 3);
    const Vec2 local_from = corner - before * dir;
    return RayCase{std::move(s), xf,
                   Ray{world_point(xf, local_from), pebble::rotate(xf.q, uniform(rng, 1.1f, 3) * before * dir)},
                   radius};
  });
}

/// Zero-length rays inside, on and outside the shape.
std::vector<RayCase> zero_length_rays(unsigned seed, int per_kind, bool circles) {
  return every_kind<RayCase>(seed, per_kind, [&](Kind k, std::mt19937& rng) -> std::optional<RayCase> {
    ShapeSpec s = random_shape(k, rng, 1);
    const Transform xf = random_pose(rng, 1, {});
    const pebble::Position from = point_in(s, xf, rng, uniform(rng, 0, 3));
    return RayCase{std::move(s), xf, Ray{from, {0, 0}}, circles ? uniform(rng, 0.05f, 0.5f) : 0};
  });
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The oracle checks itself.

TEST(RayOracle, HandWorkedAnswers) {
  const oracle::RoundedHull box({{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}, 0);
  const oracle::ConvexTrack track([&](real t) { return box.signed_distance(V{-3 + 4 * t, 0.5L}); });
  EXPECT_NEAR(double(track.first_at_or_below(0)), 0.5, 1e-15);
  EXPECT_NEAR(double(track.least()), -0.5, 1e-15);
  const oracle::RoundedHull disc({{0, 0}}, 1);
  const oracle::ConvexTrack graze([&](real t) { return disc.signed_distance(V{-2 + 4 * t, 1}); });
  EXPECT_NEAR(double(graze.least()), 0, 1e-15);
  EXPECT_NEAR(double(graze.least_at()), 0.5, 1e-9);
  EXPECT_NEAR(double(graze.first_at_or_below(0)), 0.5, 1e-9);
  const oracle::ConvexTrack away([&](real t) { return disc.signed_distance(V{2 + t, 0}); });
  EXPECT_EQ(double(away.first_at_or_below(0)), -1);
  EXPECT_EQ(double(away.least_at()), 0);
}

TEST(RayOracle, FastDistanceAgreesWithTheDistanceOracle) {
  std::mt19937 rng(201);
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < 5; ++i) {
        const Pair p = random_pair(ka, kb, rng);
        const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
        EXPECT_NEAR(double(oracle::signed_distance_between(wa, wb)), double(oracle::distance(wa, wb).distance), 1e-12)
            << describe(p);
        const V q{uniform(rng, -3, 3), uniform(rng, -3, 3)};
        EXPECT_NEAR(double(oracle::RoundedHull(wa.core, wa.radius).signed_distance(q)),
                    double(oracle::signed_distance_to_surface(wa, q)), 1e-12)
            << describe(p);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Accuracy against the oracle.

TEST(Raycast, MatchesOracleForRandomRays) { expect_all(random_rays(1, 400, 1, {}, false), check_ray, "random rays"); }

TEST(Raycast, MatchesOracleFromInside) { expect_all(rays_from_inside(2, 200, false), check_ray, "from inside"); }

TEST(Raycast, MatchesOracleAlongEdges) { expect_all(rays_along_edges(3, 300, false), check_ray, "along edges"); }

TEST(Raycast, MatchesOracleThroughCorners) {
  expect_all(rays_through_corners(4, 300, false), check_ray, "through corners");
}

TEST(Raycast, MatchesOracleForTinyShapes) { expect_all(random_rays(5, 200, 0.01f, {}, false), check_ray, "size 0.01"); }

TEST(Raycast, MatchesOracleFarFromTheOrigin) {
  expect_all(random_rays(6, 200, 1, {1e4f, -1e4f}, false), check_ray, "coordinates 1e4");
  expect_all(random_rays(7, 100, 0.01f, {-1e4f, 1e4f}, false), check_ray, "size 0.01 at 1e4");
}

TEST(Raycast, ZeroLengthRayHitsOnlyFromInside) {
  expect_all(zero_length_rays(8, 100, false), check_ray, "zero length");
}

TEST(CircleCast, MatchesOracleForRandomCasts) {
  expect_all(random_rays(11, 400, 1, {}, true), check_ray, "random circle casts");
}

TEST(CircleCast, MatchesOracleFromInside) { expect_all(rays_from_inside(12, 200, true), check_ray, "from inside"); }

TEST(CircleCast, MatchesOracleAlongEdges) { expect_all(rays_along_edges(13, 300, true), check_ray, "along edges"); }

TEST(CircleCast, MatchesOracleThroughCorners) {
  expect_all(rays_through_corners(14, 300, true), check_ray, "through corners");
}

TEST(CircleCast, MatchesOracleForTinyAndFarShapes) {
  expect_all(random_rays(15, 200, 0.01f, {}, true), check_ray, "size 0.01");
  expect_all(random_rays(16, 200, 1, {1e4f, 1e4f}, true), check_ray, "coordinates 1e4");
}

TEST(CircleCast, ZeroLengthCastHitsOnlyFromInside) {
  expect_all(zero_length_rays(17, 100, true), check_ray, "zero length");
}

TEST(Raycast, TinyRadiusCornersAreNotMissed) {
  // A rounding radius far below float precision: a ray entering the shape right next to a corner
  // may find its entry point a rounding error beyond the edge's end, where the corner circle is
  // smaller than the rounding. It must still hit (the ray goes deep into the shape).
  std::mt19937 rng(18);
  int failures = 0;
  for (int i = 0; i < 3000; ++i) {
    const ShapeSpec s = make_polygon(random_polygon_points(rng, 1), 1e-9f);
    const Transform xf = random_pose(rng, 1, {});
    const int count = s.shape.vertex_count();
    const int vi = int(rng() % unsigned(count));
    const Vec2 v = s.shape.vertices()[size_t(vi)];
    const Vec2 inward = pebble::normalize(s.shape.core_centroid() - v);
    // Aim a hair inside the corner, from a direction within the corner's exterior.
    const Vec2 aim = v + 1e-6f * inward;
    const float a = uniform(rng, -1.2f, 1.2f);
    const Vec2 dir = pebble::rotate(Rot::from_angle(a), inward);
    const RayCase c{s, xf, Ray{world_point(xf, aim - 2.0f * dir), pebble::rotate(xf.q, 4.0f * dir)}};
    const std::string e = check_ray(c);  // a miss fails when the oracle enters the shape
    if (!e.empty() && ++failures <= 6) ADD_FAILURE() << e << "\n    " << describe(c);
  }
  EXPECT_EQ(failures, 0);
}

// ---------------------------------------------------------------------------------------------
// Exact cases worked by hand (dyadic numbers: every step is exact in float and double).

TEST(Raycast, HitsABoxFace) {
  const CastResult h = pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 0.5f}, {4, 0}});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_EQ(h.point, (Vec2{-1, 0.5f}));
  EXPECT_EQ(h.normal, (Vec2{-1, 0}));
}

TEST(Raycast, StopsShortOrPointsAwayMisses) {
  EXPECT_TRUE(is_no_hit(pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 0}, {1.5f, 0}})));
  EXPECT_TRUE(is_no_hit(pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 0}, {-4, 0}})));
  EXPECT_TRUE(is_no_hit(pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 2}, {6, 0}})));
}

TEST(Raycast, ReachingTheSurfaceExactlyAtTheEndHits) {
  const CastResult h = pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 0}, {2, 0}});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 1.0f);
  EXPECT_EQ(h.point, (Vec2{-1, 0}));
}

TEST(Raycast, RayAlongAnEdgeHitsItsFirstCorner) {
  // Along the top edge's line: the ray first touches the box at the corner (-1, 1), entering
  // through the left face; it never goes inside.
  const CastResult h = pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 1}, {4, 0}});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_EQ(h.point, (Vec2{-1, 1}));
  EXPECT_EQ(h.normal, (Vec2{-1, 0}));
  // Along the line of a rounded box's flat top: first contact is where the corner arc meets the
  // flat part, with the face normal.
  const CastResult r = pebble::cast_ray(Shape::rounded_box(1, 1, 0.5f), kId, Ray{{-3, 1}, {4, 0}});
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.fraction, 0.625f);
  EXPECT_EQ(r.point, (Vec2{-0.5f, 1}));
  EXPECT_EQ(r.normal, (Vec2{0, 1}));
  // A hair above: a miss.
  EXPECT_TRUE(is_no_hit(pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 1.0000001f}, {4, 0}})));
}

TEST(Raycast, RayGrazingACornerTouchesIt) {
  // Through (1, 1) at 45 degrees: the ray touches only the corner, entering through the right
  // face's plane; a hair to the outside misses.
  const CastResult h = pebble::cast_ray(Shape::box(1, 1), kId, Ray{{2, 0}, {-2, 2}});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_EQ(h.point, (Vec2{1, 1}));
  EXPECT_EQ(h.normal, (Vec2{1, 0}));
  EXPECT_TRUE(is_no_hit(pebble::cast_ray(Shape::box(1, 1), kId, Ray{{2.00000024f, 0}, {-2, 2}})));
}

TEST(Raycast, TangentToACircleTouches) {
  const CastResult h = pebble::cast_ray(Shape::circle(1), kId, Ray{{-2, 1}, {4, 0}});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_EQ(h.point, (Vec2{0, 1}));
  EXPECT_EQ(h.normal, (Vec2{0, 1}));
  EXPECT_TRUE(is_no_hit(pebble::cast_ray(Shape::circle(1), kId, Ray{{-2, 1.00000012f}, {4, 0}})));
}

TEST(Raycast, CircleAndOffCentreCircle) {
  const CastResult h = pebble::cast_ray(Shape::circle(0.5f, {1, 1}), kId, Ray{{1, 4}, {0, -4}});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.625f);
  EXPECT_EQ(h.point, (Vec2{1, 1.5f}));
  EXPECT_EQ(h.normal, (Vec2{0, 1}));
}

TEST(Raycast, CapsuleSideCapAndTangent) {
  const Shape cap = Shape::capsule({-1, 0}, {1, 0}, 0.5f);
  const CastResult side = pebble::cast_ray(cap, kId, Ray{{0.5f, 2}, {0, -2}});
  EXPECT_TRUE(side.hit);
  EXPECT_EQ(side.fraction, 0.75f);
  EXPECT_EQ(side.normal, (Vec2{0, 1}));
  const CastResult end = pebble::cast_ray(cap, kId, Ray{{3, 0}, {-2, 0}});
  EXPECT_TRUE(end.hit);
  EXPECT_EQ(end.fraction, 0.75f);
  EXPECT_EQ(end.point, (Vec2{1.5f, 0}));
  EXPECT_EQ(end.normal, (Vec2{1, 0}));
  // Along the side's line: the ray is tangent to the left cap at its top and first touches there.
  const CastResult along = pebble::cast_ray(cap, kId, Ray{{-3, 0.5f}, {6, 0}});
  EXPECT_TRUE(along.hit);
  EXPECT_NEAR(along.fraction, 1.0f / 3, 1e-7f);
  EXPECT_NEAR(along.point.x, -1, 1e-6f);
  EXPECT_NEAR(along.point.y, 0.5f, 1e-7f);
  EXPECT_NEAR(along.normal.y, 1, 1e-7f);
}

TEST(Raycast, SharpSegmentFromEitherSideAndAlongIt) {
  const Shape seg = Shape::segment({-1, 0}, {1, 0});
  const CastResult down = pebble::cast_ray(seg, kId, Ray{{0.25f, 1}, {0, -2}});
  EXPECT_TRUE(down.hit);
  EXPECT_EQ(down.fraction, 0.5f);
  EXPECT_EQ(down.point, (Vec2{0.25f, 0}));
  EXPECT_EQ(down.normal, (Vec2{0, 1}));
  const CastResult up = pebble::cast_ray(seg, kId, Ray{{0.25f, -1}, {0, 2}});
  EXPECT_TRUE(up.hit);
  EXPECT_EQ(up.normal, (Vec2{0, -1}));
  // In line with it: hits its end, the normal facing the ray.
  const CastResult along = pebble::cast_ray(seg, kId, Ray{{-3, 0}, {4, 0}});
  EXPECT_TRUE(along.hit);
  EXPECT_EQ(along.fraction, 0.5f);
  EXPECT_EQ(along.point, (Vec2{-1, 0}));
  EXPECT_EQ(along.normal, (Vec2{-1, 0}));
  // Starting on it: inside.
  const CastResult on = pebble::cast_ray(seg, kId, Ray{{0.5f, 0}, {0, 1}});
  EXPECT_TRUE(on.hit);
  EXPECT_EQ(on.fraction, 0.0f);
  EXPECT_EQ(on.normal, Vec2{});
}

TEST(Raycast, PointShapeIsHitOnlyThroughItsPoint) {
  const Shape dot = Shape::circle(0, {0.5f, 0.5f});
  const CastResult h = pebble::cast_ray(dot, kId, Ray{{0.5f, -1.5f}, {0, 4}});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.5f);
  EXPECT_EQ(h.point, (Vec2{0.5f, 0.5f}));
  EXPECT_EQ(h.normal, (Vec2{0, -1}));
  EXPECT_TRUE(is_no_hit(pebble::cast_ray(dot, kId, Ray{{0.5f, -1.5f}, {0.25f, 4}})));
}

TEST(Raycast, OriginInsideOrOnTheSurfaceHitsAtZero) {
  for (const Ray& ray : {Ray{{0, 0}, {5, 0}}, Ray{{1, 0.5f}, {5, 0}}, Ray{{1, 1}, {1, 1}}, Ray{{0.5f, 0.5f}, {0, 0}}}) {
    const CastResult h = pebble::cast_ray(Shape::box(1, 1), kId, ray);
    EXPECT_TRUE(h.hit);
    EXPECT_EQ(h.fraction, 0.0f);
    EXPECT_EQ(h.point, ray.origin);
    EXPECT_EQ(h.normal, Vec2{});
  }
}

TEST(Raycast, ZeroLengthRayOutsideMisses) {
  EXPECT_TRUE(is_no_hit(pebble::cast_ray(Shape::box(1, 1), kId, Ray{{2, 0}, {0, 0}})));
  EXPECT_TRUE(is_no_hit(pebble::cast_ray(Shape::circle(1), kId, Ray{{2, 0}, {0, 0}})));
}

TEST(Raycast, RotatedAndMovedShapeAnswersInWorldSpace) {
  // A box turned by 90 degrees and moved: the normal comes back in world axes (seed 000's
  // reference code returns it in the shape's frame).
  const Transform xf{{10, 5}, Rot{0, 1}};
  const CastResult h = pebble::cast_ray(Shape::box(2, 1), xf, Ray{{10, 0}, {0, 4}});
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.75f);
  EXPECT_EQ(h.point, (Vec2{10, 3}));
  EXPECT_EQ(h.normal, (Vec2{0, -1}));
}

TEST(CircleCast, HitsWhereTheDiscTouches) {
  // A disc of radius 0.5 moving right at height 0 against the unit box: touches at x = -1.5 of
  // its centre, the contact point on the box's face.
  const CastResult h = pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 0}, {4, 0}}, 0.5f);
  EXPECT_TRUE(h.hit);
  EXPECT_EQ(h.fraction, 0.375f);
  EXPECT_EQ(h.point, (Vec2{-1, 0}));
  EXPECT_EQ(h.normal, (Vec2{-1, 0}));
  // Past the corner at height 1.25: it touches the corner (-1, 1) itself.
  const CastResult c = pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 1.25f}, {4, 0}}, 0.5f);
  EXPECT_TRUE(c.hit);
  EXPECT_NEAR(c.point.x, -1, 1e-6f);
  EXPECT_NEAR(c.point.y, 1, 1e-6f);
  EXPECT_NEAR(c.normal.x, -std::sqrt(3.0f) / 2, 1e-6f);
  EXPECT_NEAR(c.normal.y, 0.5f, 1e-6f);
  // Starting in contact: fraction 0, zero normal.
  const CastResult s = pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-1.5f, 0}, {4, 0}}, 0.5f);
  EXPECT_TRUE(s.hit);
  EXPECT_EQ(s.fraction, 0.0f);
  EXPECT_EQ(s.normal, Vec2{});
}

TEST(CircleCast, RadiusZeroIsARaycast) {
  const CastResult a = pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 0.25f}, {4, 1}}, 0.0f);
  const CastResult b = pebble::cast_ray(Shape::box(1, 1), kId, Ray{{-3, 0.25f}, {4, 1}});
  EXPECT_EQ(a.hit, b.hit);
  EXPECT_EQ(a.fraction, b.fraction);
  EXPECT_EQ(a.point, b.point);
  EXPECT_EQ(a.normal, b.normal);
}

// ---------------------------------------------------------------------------------------------
// Published cases from other libraries' test suites. Each is run through check_ray (the oracle
// decides), and the oracle's own answer is compared with the published number, which is
// therefore re-derived rather than trusted.

namespace {

/// The oracle's first touch of the ray against the shape (-1 for a miss).
real oracle_fraction(const RayCase& c) {
  const oracle::RShape ws = world(c.shape, c.xf);
  const oracle::RoundedHull grown(ws.core, ws.radius + c.radius);
  const V o = v(c.ray.origin), d = v(c.ray.translation);
  // A level a hair above 0: a ray crossing a segment (no area) comes to distance 0 at one instant,
  // which the search lands on only to its resolution (to about 1e-20 in x87's long double by luck
  // exactly 0; in ARM64's 128-bit long double not, and a level of 0 then missed every such hit).
  return oracle::ConvexTrack([&](real t) { return grown.signed_distance(o + t * d); }).first_at_or_below(1e-15L);
}

void expect_published(const RayCase& c, double published_fraction, const char* source) {
  const std::string e = check_ray(c);
  EXPECT_TRUE(e.empty()) << source << ": " << e << "\n    " << describe(c);
  const real o = oracle_fraction(c);
  if (published_fraction < 0) {
    EXPECT_LT(double(o), 0) << source << ": the oracle finds a hit the source calls a miss";
    EXPECT_FALSE(run(c).hit) << source << "\n    " << describe(c);
  } else {
    EXPECT_NEAR(double(o), published_fraction, 1e-9) << source << ": the oracle disagrees with the source";
    const CastResult h = run(c);
    EXPECT_TRUE(h.hit) << source << "\n    " << describe(c);
    EXPECT_NEAR(h.fraction, published_fraction, 1e-6) << source << "\n    " << describe(c);
  }
}

}  // namespace

TEST(Raycast, PublishedBox2dCases) {
  // Box2D v3, test/test_shape.c, RayCastShapeTest: the ray from (-4, 0) by (8, 0) against the
  // circle of radius 1 at (1, 0), the box of half extents 1 and the segment (0, 1)-(0, -1); all
  // with the normal (-1, 0).
  const Ray ray{{-4, 0}, {8, 0}};
  const RayCase cases[] = {
      {make_circle(1, {1, 0}), kId, ray}, {make_box(1, 1), kId, ray}, {make_segment({0, 1}, {0, -1}), kId, ray}};
  const double fractions[] = {0.5, 3.0 / 8, 0.5};
  for (int i = 0; i < 3; ++i) {
    expect_published(cases[i], fractions[i], "Box2D RayCastShapeTest");
    EXPECT_EQ(run(cases[i]).normal, (Vec2{-1, 0}));
  }
}

TEST(Raycast, PublishedParryCases) {
  // parry2d, crates/parry2d/tests/geometry/ray_cast.rs. parry's rays are unbounded (a direction
  // and a maximum time); here each becomes a segment long enough to reach past the shape, and
  // its time of impact the fraction times that length.
  const float len = 100;
  auto ray = [&](Vec2 o, Vec2 dir) { return Ray{o, len * dir}; };
  // issue_178_parallel_raycast and parallel_raycast: a ray beside a parallel segment misses.
  expect_published({make_segment({2, 1}, {2, 0}), kId, ray({0, 0}, {0, 1})}, -1, "parry issue_178_parallel_raycast");
  expect_published({make_segment({2, 1}, {2, -1}), kId, ray({0, 0}, {0, 1})}, -1, "parry parallel_raycast");
  // Collinear rays: starting on the segment (time 0), below it (time 1), above it (miss).
  expect_published({make_segment({0, 1}, {0, -1}), kId, ray({0, 0}, {0, 1})}, 0,
                   "parry collinear_raycast_starting_on_segment");
  expect_published({make_segment({0, 1}, {0, -1}), kId, ray({0, -2}, {0, 1})}, 1.0 / len,
                   "parry collinear_raycast_starting_below_segment");
  expect_published({make_segment({0, 1}, {0, -1}), kId, ray({0, 2}, {0, 1})}, -1,
                   "parry collinear_raycast_starting_above_segment");
  // Perpendicular rays against the segment (0, -10)-(0, 10): from behind (hits at time 1), in
  // front (miss), starting on it (time 0), beyond either end (miss).
  const ShapeSpec wall = make_segment({0, -10}, {0, 10});
  expect_published({wall, kId, ray({-1, 0}, {1, 0})}, 1.0 / len, "parry perpendicular_raycast_starting_behind_sement");
  expect_published({wall, kId, ray({1, 0}, {1, 0})}, -1, "parry perpendicular_raycast_starting_in_front_of_segment");
  expect_published({wall, kId, ray({0, 3}, {1, 0})}, 0, "parry perpendicular_raycast_starting_on_segment");
  expect_published({wall, kId, ray({0, 11}, {1, 0})}, -1, "parry perpendicular_raycast_starting_above_segment");
  expect_published({wall, kId, ray({0, -11}, {1, 0})}, -1, "parry perpendicular_raycast_starting_below_segment");
  // The triangle (0, -10), (0, 10), (10, 0): from outside (time 10, not 0), from inside and
  // from its edge (time 0).
  const ShapeSpec triangle = make_polygon({{0, -10}, {0, 10}, {10, 0}});
  expect_published({triangle, kId, ray({-10, 0}, {1, 0})}, 10.0 / len, "parry raycast_starting_outside_of_triangle");
  expect_published({triangle, kId, ray({2, 0}, {1, 0})}, 0, "parry raycast_starting_inside_of_triangle");
  expect_published({triangle, kId, ray({0, 0}, {1, 0})}, 0, "parry raycast_starting_on_edge_of_triangle");
}

TEST(Raycast, PublishedParryConvexPolygonSweep) {
  // parry2d ray_cast.rs, convexpoly_raycast_fuzz: the square [1, 2]^2, rays from (3, 1 + i 1e-4)
  // (i < 10000) aimed at (0, 2) must hit the near face x = 2 (distance in [1, sqrt 2)), never the
  // back face. Here the ray ends at its aim point; every case is also checked by the oracle.
  const ShapeSpec square = make_polygon({{2, 1}, {2, 2}, {1, 2}, {1, 1}});
  int failures = 0;
  for (int i = 0; i < 10000; ++i) {
    const Vec2 from{3, 1 + float(i) * 1e-4f};
    const RayCase c{square, kId, Ray{from, Vec2{0, 2} - from}};
    const CastResult h = run(c);
    const float travelled = h.fraction * pebble::length(c.ray.translation);
    std::string e = check_ray(c);
    if (!h.hit || h.normal != Vec2{1, 0} || travelled < 1 - 1e-5f || travelled >= std::sqrt(2.0f))
      e += "not the near face; ";
    if (!e.empty() && ++failures <= 6) ADD_FAILURE() << e << "\n    " << describe(c);
  }
  EXPECT_EQ(failures, 0);
}

// ---------------------------------------------------------------------------------------------
// Invariance.

TEST(Raycast, MovingShapeAndRayRigidlyChangesNothing) {
  std::mt19937 rng(21);
  int failures = 0;
  for (const RayCase& c : random_rays(22, 60, 1, {}, rng() % 2 == 0)) {
    const Transform m{{uniform(rng, -20, 20), uniform(rng, -20, 20)}, Rot::from_angle(uniform(rng, -3.14f, 3.14f))};
    RayCase moved = c;
    moved.xf = pebble::mul(m, c.xf);
    moved.ray = Ray{pebble::mul(m, Transform{c.ray.origin, Rot::identity()}).p, pebble::rotate(m.q, c.ray.translation)};
    const CastResult h0 = run(c), h1 = run(moved);
    std::string e = check_ray(moved);
    const real size = oracle::half_diameter(world(c.shape, c.xf)) + c.radius;
    const real len = oracle::length(v(c.ray.translation));
    const real tol = len > 0 ? (1e-3L * size + 1e-5L * 30) / len : 0;
    // A ray grazing the shape may hit in one pose and miss in the other (both within tolerance,
    // which check_ray verifies); compare fractions only when both hit.
    if (h0.hit && h1.hit && std::fabs(real(h0.fraction) - h1.fraction) > tol) e += "fraction changed; ";
    if (!e.empty() && ++failures <= 6) ADD_FAILURE() << e << "\n    " << describe(c) << "\n    motion " << lit(m);
  }
  EXPECT_EQ(failures, 0);
}

// ---------------------------------------------------------------------------------------------
// Invalid and extreme input.

TEST(Raycast, InvalidInputGivesNoHit) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const Shape shapes[] = {Shape::circle(1), Shape::box(1, 0.5f), Shape::capsule({0, 0}, {1, 0}, 0.2f),
                          Shape::segment({0, 0}, {1, 1}), Shape::rounded_box(1, 1, 0.25f)};
  const Ray good{{-5, 0.1f}, {10, 0}};
  for (const Shape& s : shapes) {
    for (const Transform& bad : invalid_transforms()) {
      EXPECT_TRUE(is_no_hit(pebble::cast_ray(s, bad, good))) << lit(bad);
      EXPECT_TRUE(is_no_hit(pebble::cast_ray(s, bad, good, 0.5f))) << lit(bad);
    }
    for (const Ray& bad : {Ray{{nan, 0}, {1, 0}}, Ray{{0, 0}, {inf, 0}}, Ray{{1e30f, 0}, {1, 0}},
                           Ray{{0, 0}, {-1e30f, 1}}, Ray{{0, 0}, {nan, nan}}}) {
      EXPECT_TRUE(is_no_hit(pebble::cast_ray(s, kId, bad)));
      EXPECT_TRUE(is_no_hit(pebble::cast_ray(s, kId, bad, 0.5f)));
    }
    for (const float bad_radius : {-1.0f, nan, inf, 1e30f})
      EXPECT_TRUE(is_no_hit(pebble::cast_ray(s, kId, good, bad_radius)));
  }
}

TEST(Raycast, HugeButValidCoordinatesStayFinite) {
  const Shape shapes[] = {Shape::circle(1), Shape::box(1, 0.5f), Shape::capsule({0, 0}, {1, 0}, 0.2f),
                          Shape::box(1e6f, 1e6f)};
  for (const Shape& s : shapes) {
    for (const float far : {1e6f, 1e8f, 9e8f}) {
      const Transform xf{{far, -far}, Rot::from_angle(0.3f)};
      for (const Ray& ray : {Ray{{-far, far}, {2 * far, -2 * far}}, Ray{{far - 10, -far}, {20, 0}},
                             Ray{{far, -far}, {0, 0}}, Ray{{-9e8f, -9e8f}, {9e8f, 9e8f}}}) {
        EXPECT_TRUE(finite(pebble::cast_ray(s, xf, ray)));
        EXPECT_TRUE(finite(pebble::cast_ray(s, xf, ray, 1e6f)));
      }
    }
  }
}

// Measured accuracy, for docs/casts.md (prints; asserts nothing beyond the checks above):
//   ./build/release/tests/ray_test --gtest_also_run_disabled_tests --gtest_filter='*Accuracy*'
TEST(Raycast, RaysPassingBeyondASharpSliversTipMiss) {
  // A sharp triangle 72 long and 0.01 wide (found by the query fuzzer): rays from 1e3 to 1e4
  // away pass over its tip, above the triangle's highest point by 0.05 to 30 over all of its
  // width, so they miss it. Its nearly parallel planes, rounded with the ray's far origin, let
  // the ray cast enter them beyond the tip (63 of these rays at 1e4 before the fix); the circle
  // cast of radius 0 must agree.
  const std::vector<Vec2> points{{6.40969056e-10f, 4.42539023e-39f}, {53, 48.1875f}, {1.66896612e-07f, 0.01171875f}};
  const Shape sliver = Shape::polygon(points);
  int hits = 0, rays = 0;
  for (const float far : {1e3f, 3e3f, 1e4f}) {
    for (float y = 48.25f; y < 80; y += 0.05f) {
      for (const float slope : {0.0f, 0.001f, -0.0005f, 0.01f}) {
        const Transform xf{{far, 0}, pebble::Rot::identity()};
        const Ray ray{{0, y}, {far + 200, slope * (far + 200)}};
        if (std::min(y + slope * far, y + slope * (far + 53)) < 48.1875f + 0.05f) continue;  // within 0.05 of the top
        ++rays;
        const CastResult h = pebble::cast_ray(sliver, xf, ray), h0 = pebble::cast_ray(sliver, xf, ray, 0.0f);
        hits += h.hit;
        EXPECT_EQ(h.hit, h0.hit);
      }
    }
  }
  EXPECT_GT(rays, 5000);
  EXPECT_EQ(hits, 0) << "of " << rays << " rays";
}

TEST(RayAccuracy, DISABLED_Report) {
  for (const bool circles : {false, true}) {
    real worst_gap = 0, worst_angle = 0;
    int hits = 0, cases = 0;
    for (const RayCase& c : random_rays(1, 400, 1, {}, circles)) {
      const CastResult h = run(c);
      ++cases;
      if (!h.hit || h.fraction == 0) continue;
      ++hits;
      const oracle::RShape ws = world(c.shape, c.xf);
      const oracle::RoundedHull grown(ws.core, ws.radius + c.radius);
      const V centre = v(c.ray.origin) + real(h.fraction) * v(c.ray.translation);
      const real size = oracle::half_diameter(ws) + c.radius;
      worst_gap = std::max(worst_gap, std::fabs(grown.signed_distance(centre)) / size);
      // The true normal: for a disc, from the core point nearest its centre toward the centre
      // (unique); for a ray, the surface's at the point where it is unique.
      bool unique = true;
      const V expected = circles ? oracle::normalize(centre - oracle::project_to_core(ws, centre).closest)
                                 : oracle::surface_normal(ws, v(h.point), v(c.ray.origin), 1e-6L * size, &unique);
      if (unique) worst_angle = std::max(worst_angle, angle_between(v(h.normal), expected));
    }
    std::printf(
        "%s: %d of %d random casts hit; worst |distance at the fraction| / size %.2e, worst normal angle %.2e rad\n",
        circles ? "circle cast" : "raycast", hits, cases, double(worst_gap), double(worst_angle));
  }
}
