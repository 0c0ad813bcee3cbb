// collide() against the long double oracle (tests/oracle/distance.hpp): the manifold's count,
// normal, separations and points on random pairs of every kind near contact at several margins;
// agreement with distance() and overlap(); the margin only filtering points; 2-point manifolds
// for aligned and slightly tilted edges (including Box2D's speculative-margin case); the true
// distance for corner-to-corner contacts; symmetry with flipped ids; rigid-motion invariance;
// feature ids that survive tiny motions; invalid input.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include <pebble/distance.hpp>
#include <pebble/manifold.hpp>

#include "cast_cases.hpp"
#include "contact_cases.hpp"
#include "random_cases.hpp"
#include "test_hooks.hpp"  // pebble::test_hooks (src/, not installed)

using namespace contact_cases;
using pebble::ContactPoint;
using pebble::Manifold;

namespace {

const Transform kId = Transform::identity();

bool finite(const Manifold& m) {
  if (!pebble::is_finite(m.normal)) return false;
  for (const ContactPoint& c : m.points) {
    if (!pebble::is_finite(c.point) || !std::isfinite(c.separation)) return false;
  }
  return true;
}

std::string show(const Manifold& m) {
  std::ostringstream out;
  out.precision(9);
  out << "{normal (" << m.normal.x << ", " << m.normal.y << "), count " << m.count;
  for (int i = 0; i < m.count && i < 2; ++i) {
    out << ", [(" << m.points[i].point.x << ", " << m.points[i].point.y << ") sep " << m.points[i].separation
        << " id 0x" << std::hex << m.points[i].id << std::dec << "]";
  }
  return out.str() + "}";
}

struct Case {
  Pair pair;
  float margin;
};

/// Where A's and B's rounded surfaces have straight parts (outer edges: a core edge moved out by
/// the radius along its own normal) facing each other along n (each within kFacingAngle of n,
/// resp. -n), the two ends of the stretch over which both lie: the contact points a manifold must
/// report when their separation is within the margin. Empty when there is no such pair of edges
/// or the stretch is shorter than min_length. `slack` receives how far a reported end may
/// legitimately lie from the computed one: where a tilted outer edge ends, the corner circle next
/// to it continues lower by up to r (1 - cos tilt) within r sin(tilt) along the edge.
struct ExpectedPoint {
  V point;
  real separation;
};
constexpr real kFacingAngle = 0.01L;

std::vector<ExpectedPoint> facing_stretch_ends(const oracle::RShape& wa, const oracle::RShape& wb, V n, real min_length,
                                               real& slack) {
  struct Edge {
    V p, q, normal;
  };
  auto facing_edge = [](const oracle::RShape& s, V dir, Edge& out) {
    const std::vector<V> hull = oracle::convex_hull(s.core);
    const std::vector<V> normals = oracle::edge_normals(hull);
    real best = -2;
    for (size_t i = 0; i < normals.size(); ++i) {
      const real c = oracle::dot(normals[i], dir);
      if (c > best) {
        best = c;
        // A 2-point hull's second normal belongs to the edge run backwards.
        out = hull.size() == 2 && i == 1 ? Edge{hull[1], hull[0], normals[i]}
                                         : Edge{hull[i], hull[(i + 1) % hull.size()], normals[i]};
      }
    }
    out.p = out.p + s.radius * out.normal;
    out.q = out.q + s.radius * out.normal;
    return best > std::cos(kFacingAngle);
  };
  Edge ea, eb;
  if (!facing_edge(wa, n, ea) || !facing_edge(wb, V{-n.x, -n.y}, eb)) return {};
  const V t = oracle::left_perp(n);
  auto span = [&](const Edge& e) {
    return std::pair{std::min(oracle::dot(e.p, t), oracle::dot(e.q, t)),
                     std::max(oracle::dot(e.p, t), oracle::dot(e.q, t))};
  };
  const auto [a_lo, a_hi] = span(ea);
  const auto [b_lo, b_hi] = span(eb);
  const real lo = std::max(a_lo, b_lo), hi = std::min(a_hi, b_hi);
  if (hi - lo < min_length) return {};
  auto on = [&](const Edge& e, real tau) {
    const real tp = oracle::dot(e.p, t), tq = oracle::dot(e.q, t);
    return e.p + ((tau - tp) / (tq - tp)) * (e.q - e.p);
  };
  const real tilt_a = std::fabs(oracle::cross(ea.normal, n)), tilt_b = std::fabs(oracle::cross(eb.normal, n));
  slack = wa.radius * tilt_a + wb.radius * tilt_b;
  std::vector<ExpectedPoint> out;
  for (real tau : {lo, hi}) {
    const V xa = on(ea, tau), xb = on(eb, tau);
    out.push_back({0.5L * (xa + xb), oracle::dot(xb - xa, n)});
  }
  return out;
}

std::string describe(const Case& c) { return contact_cases::describe(c.pair) + " margin = " + lit(c.margin) + ";"; }

using CollideQuery = Manifold (*)(const Shape&, const Transform&, const Shape&, const Transform&, float) noexcept;

/// Everything the contract says about one answer of `query` (collide() or the generic path),
/// checked against the oracle and against the matching distance function. Returns an empty
/// string when all holds, else what failed.
std::string check_manifold_with(const Case& c, CollideQuery query) {
  const Pair& p = c.pair;
  const Manifold m = query(p.a.shape, p.xa, p.b.shape, p.xb, c.margin);
  using DistanceQuery =
      pebble::DistanceResult (*)(const Shape&, const Transform&, const Shape&, const Transform&) noexcept;
  const DistanceQuery distance_fn =
      query == &pebble::collide ? static_cast<DistanceQuery>(&pebble::distance) : &pebble::detail::distance_generic;
  const float d_impl = distance_fn(p.a.shape, p.xa, p.b.shape, p.xb).distance;
  const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
  const Tolerance tol = tolerance_for(wa, wb);
  const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
  std::ostringstream err;
  err.precision(9);
  if (!finite(m) || m.count < 0 || m.count > 2) return "invalid manifold " + show(m);
  if ((m.count > 0) != (d_impl <= c.margin)) err << "count " << m.count << " but distance() " << d_impl << "; ";
  if (std::fabs(o.distance - c.margin) > tol.length && (m.count > 0) != (o.distance <= c.margin)) {
    err << "count " << m.count << " but oracle distance " << double(o.distance) << "; ";
  }
  if (m.count == 0) return err.str();

  check_normal(err, m.normal, wa, wb, o, tol);
  const V n = oracle::normalize(v(m.normal));
  real least = std::numeric_limits<real>::max();
  for (int i = 0; i < m.count; ++i) {
    const ContactPoint& cp = m.points[i];
    least = std::min(least, real(cp.separation));
    if (cp.separation > c.margin) err << "point " << i << " separation " << cp.separation << " above the margin; ";
    if (cp.separation < o.distance - tol.length) err << "point " << i << " deeper than the penetration; ";
    // Midway between the surfaces: stepping half the separation back along the normal lands on
    // A's rounded surface, forward on B's (measured as the true signed distance to each rounded
    // shape, not to its core).
    const real s = cp.separation;
    const V xa = v(cp.point) - (s / 2) * n, xb = v(cp.point) + (s / 2) * n;
    const real ea = oracle::signed_distance_to_surface(wa, xa), eb = oracle::signed_distance_to_surface(wb, xb);
    if (std::fabs(ea) > tol.length)
      err << "point " << i << " not midway: A side off A's surface by " << double(ea) << "; ";
    if (std::fabs(eb) > tol.length)
      err << "point " << i << " not midway: B side off B's surface by " << double(eb) << "; ";
  }
  if (std::fabs(least - o.distance) > tol.length)
    err << "least separation " << double(least) << " oracle distance " << double(o.distance) << "; ";
  if (std::fabs(least - real(d_impl)) > tol.length)
    err << "least separation " << double(least) << " distance() " << d_impl << "; ";
  if (m.count == 2 && m.points[0].id == m.points[1].id) err << "two points share an id; ";
  // Every point within the margin is reported: both ends of a stretch of facing edges.
  real slack = 0;
  for (const ExpectedPoint& want :
       facing_stretch_ends(wa, wb, n, 1e-2L * oracle::half_diameter(wa) + 1e-2L * oracle::half_diameter(wb), slack)) {
    if (want.separation > c.margin - tol.length) continue;
    bool found = false;
    for (int i = 0; i < m.count; ++i) {
      found = found || (oracle::length(v(m.points[i].point) - want.point) <= 4 * tol.length + slack &&
                        std::fabs(m.points[i].separation - want.separation) <= tol.length + slack);
    }
    if (!found) {
      err << "missing the facing-edge point (" << double(want.point.x) << ", " << double(want.point.y)
          << ") separation " << double(want.separation) << "; ";
    }
  }
  if (!err.str().empty()) err << "\n    got " << show(m);
  return err.str();
}

std::string check_manifold(const Case& c) { return check_manifold_with(c, pebble::collide); }

real smaller_size(const Pair& p) {
  return std::min(oracle::half_diameter(world(p.a, p.xa)), oracle::half_diameter(world(p.b, p.xb)));
}

/// Random pairs of every kind pair, each with a margin of 0, 1%, 5% or 25% of the smaller size
/// (per_kind_pair / kSanitizerScale of them: the sanitizer build runs this file three times).
std::vector<Case> random_cases(unsigned seed, int per_kind_pair, float size = 1, Vec2 origin = {}) {
  std::mt19937 rng(seed);
  std::vector<Case> out;
  const float fractions[] = {0, 0.01f, 0.05f, 0.25f};
  int k = 0;
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < per_kind_pair / test_random::kSanitizerScale; ++i) {
        Pair p = random_pair(ka, kb, rng, size, origin);
        const float margin = fractions[k++ % 4] * float(smaller_size(p));
        out.push_back({std::move(p), margin});
      }
    }
  }
  return out;
}

/// Cases from pairs, cycling through margins of 0, 1%, 5% and 25% of the smaller size.
std::vector<Case> with_margins(const std::vector<Pair>& pairs) {
  const float fractions[] = {0, 0.01f, 0.05f, 0.25f};
  std::vector<Case> out;
  int k = 0;
  for (const Pair& p : pairs) out.push_back({p, fractions[k++ % 4] * float(smaller_size(p))});
  return out;
}

/// Matches the points of two manifolds as sets (order-independent): each point of `x` has a
/// point of `y` within tol in position and separation, and the other way round. With ids, the
/// matched points must carry equal ids.
bool same_points(const Manifold& x, const Manifold& y, real tol, bool ids) {
  if (x.count != y.count) return false;
  auto near = [&](const ContactPoint& p, const ContactPoint& q) {
    return oracle::length(v(p.point) - v(q.point)) <= tol && std::fabs(real(p.separation) - q.separation) <= tol &&
           (!ids || p.id == q.id);
  };
  if (x.count == 1) return near(x.points[0], y.points[0]);
  if (x.count == 2) {
    return (near(x.points[0], y.points[0]) && near(x.points[1], y.points[1])) ||
           (near(x.points[0], y.points[1]) && near(x.points[1], y.points[0]));
  }
  return true;
}

/// Whether a point's witnesses (on A's and B's cores) lie close to, but not at, a core vertex:
/// then a tiny motion may legitimately move the contact onto another feature.
bool near_feature_switch(const Manifold& m, const oracle::RShape& wa, const oracle::RShape& wb, real near, real at) {
  const V n = oracle::normalize(v(m.normal));
  for (int i = 0; i < m.count; ++i) {
    const real s = m.points[i].separation;
    const V xa = v(m.points[i].point) - (s / 2 + wa.radius) * n, xb = v(m.points[i].point) + (s / 2 + wb.radius) * n;
    for (const auto& [x, w] : {std::pair{xa, &wa}, std::pair{xb, &wb}}) {
      for (V c : w->core) {
        const real d = oracle::length(x - c);
        if (d > at && d < near) return true;
      }
    }
  }
  return false;
}

Manifold moved(const Manifold& m, const Transform& motion) {
  Manifold out = m;
  out.normal = pebble::rotate(motion.q, m.normal);
  for (int i = 0; i < m.count; ++i) out.points[i].point = pebble::mul(motion, Transform{m.points[i].point, {}}).p;
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Accuracy and consistency against the oracle.

TEST(Collide, MatchesOracleForEveryKindPairNearContact) {
  expect_all(random_cases(21, 60), check_manifold, "random pairs");
}

TEST(Collide, EveryIdNamesVerticesTheCoresHave) {
  // Feature ids (manifold.hpp): A's core vertex in the low 16 bits, B's in the high 16, 0 when
  // either core is a single point. A mutation that left an edge's end unwrapped (naming vertex
  // n of an n-gon) passed every other test (issue 37).
  const auto check = [](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
    const Manifold m = pebble::collide(a, xa, b, xb, 0.25f * std::min(a.extent(), b.extent()));
    for (int i = 0; i < m.count; ++i) {
      const uint32_t id = m.points[i].id, low = id & 0xffffu, high = id >> 16;
      if (a.vertex_count() == 1 || b.vertex_count() == 1) {
        ASSERT_EQ(id, 0u) << describe(Pair{ShapeSpec{a, ""}, ShapeSpec{b, ""}, xa, xb});
      } else {
        ASSERT_LT(int(low), a.vertex_count()) << std::hex << id;
        ASSERT_LT(int(high), b.vertex_count()) << std::hex << id;
      }
    }
    if (m.count == 2) {
      EXPECT_NE(m.points[0].id, m.points[1].id);
    }
  };
  int contacts = 0;
  for (const Case& c : random_cases(29, 60)) {
    const Pair& p = c.pair;
    check(p.a.shape, p.xa, p.b.shape, p.xb);
    check(p.b.shape, p.xb, p.a.shape, p.xa);
    contacts +=
        pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, 0.25f * std::min(p.a.shape.extent(), p.b.shape.extent()))
            .count;
  }
  EXPECT_GT(contacts, 1000 / test_random::kSanitizerScale);
  // Every edge of the largest cores, the last (whose end wraps to vertex 0) included: a box
  // resting on each face of an 8-gon in turn.
  std::vector<Vec2> octagon;
  for (int k = 0; k < 8; ++k) {
    const Rot q = Rot::from_angle(0.785398163f * float(k));
    octagon.push_back({2 * q.c, 2 * q.s});
  }
  const Shape big = Shape::polygon(octagon), box = Shape::box(0.3f, 0.3f);
  for (int i = 0; i < big.vertex_count(); ++i) {
    const Vec2 v0 = big.vertices()[std::size_t(i)], v1 = big.vertices()[std::size_t((i + 1) % big.vertex_count())];
    const Vec2 n = pebble::normalize(pebble::right_perp(v1 - v0));
    const Transform on{0.5f * (v0 + v1) + 0.299f * n, Rot{n.y, -n.x}};  // a face down on edge i, 0.001 deep
    check(big, Transform::identity(), box, on);
    const Manifold m = pebble::collide(big, Transform::identity(), box, on);
    ASSERT_EQ(m.count, 2) << "edge " << i;
    for (int k = 0; k < 2; ++k) {
      const int a_vertex = int(m.points[k].id & 0xffffu);
      EXPECT_TRUE(a_vertex == i || a_vertex == (i + 1) % big.vertex_count())
          << "edge " << i << " names vertex " << a_vertex;
    }
  }
}

TEST(Collide, MatchesOracleForNearlyParallelEdges) {
  // Each pair at margins 0 and 0.02.
  std::vector<Case> cases;
  for (const Pair& p :
       nearly_parallel_pairs(22, {1e-3f, 1e-4f, 1e-5f, 1e-6f, 0.0f}, {-0.05f, -1e-4f, 0.0f, 1e-4f, 0.01f, 0.03f})) {
    cases.push_back({p, 0.0f});
    cases.push_back({p, 0.02f});
  }
  expect_all(cases, check_manifold, "nearly parallel");
}

TEST(Collide, MatchesOracleForTinyShapes) { expect_all(random_cases(23, 20, 0.01f), check_manifold, "size 0.01"); }

TEST(Collide, MatchesOracleFarFromTheOrigin) {
  expect_all(random_cases(24, 20, 1, {-1e4f, 1e4f}), check_manifold, "coordinates 1e4");
}

TEST(Collide, MatchesOracleWhenOneShapeIsInsideTheOther) {
  expect_all(with_margins(containment_pairs(34, 10)), check_manifold, "containment");
}

/// Flat rounded shapes (rounded boxes, capsules of every radius up to their length, rounded
/// polygons, and sharp boxes for contrast) with B's facing edge tilted from A's by 0 to 60
/// degrees, placed along A's up or down direction from deep overlap to just beyond the margin,
/// slid along the edge: where an incident edge of a rounded shape is tilted, its clipped points
/// must lie on the rounded surface (issue 11).
std::vector<Case> tilted_incident_cases(unsigned seed, float size, Vec2 origin) {
  std::mt19937 rng(seed);
  std::vector<Case> out;
  auto flat = [&](int kind) {
    const float w = size * uniform(rng, 0.4f, 1.2f), h = size * uniform(rng, 0.2f, 0.8f);
    switch (kind) {
      case 0:
        return make_rounded_box(w, h, std::min(w, h) * uniform(rng, 0.1f, 0.9f));
      case 1:
        return make_capsule({-w, 0}, {w, 0}, w * uniform(rng, 0.1f, 1.0f));
      case 2:
        return make_polygon(random_polygon_points(rng, size), size * uniform(rng, 0.05f, 0.4f));
      default:
        return make_box(w, h);
    }
  };
  const float degrees[] = {0, 0.5f, 2, 5, 10, 20, 30, 45, 60};
  const float gaps[] = {-0.5f, -0.2f, -0.05f, -0.01f, 0, 0.01f, 0.04f};
  for (int ka = 0; ka < 4; ++ka) {
    for (int kb = 0; kb < 4; ++kb) {
      for (float deg : degrees) {
        for (float g : gaps) {
          ShapeSpec a = flat(ka), b = flat(kb);
          const float angle = uniform(rng, -3.14f, 3.14f);
          const Transform xa{{origin.x + size * uniform(rng, -2, 2), origin.y + size * uniform(rng, -2, 2)},
                             Rot::from_angle(angle)};
          const float tilt = ((rng() & 1) ? 1.0f : -1.0f) * deg * 3.14159265f / 180;
          const Rot qb = Rot::from_angle(angle + tilt + ((rng() & 1) ? 3.14159265f : 0.0f));
          const V up{-std::sin(real(angle)), std::cos(real(angle))},
              along{std::cos(real(angle)), std::sin(real(angle))};
          const real slide = size * uniform(rng, -1.0f, 1.0f);
          const Vec2 pb = place(a, xa, b, qb, g * size, (rng() & 1) ? up : V{-up.x, -up.y}, slide * along);
          out.push_back({{std::move(a), std::move(b), xa, Transform{pb, qb}}, (rng() & 1) ? 0.0f : 0.05f * size});
        }
      }
    }
  }
  return out;
}

TEST(Collide, PointsLieOnTheRoundedSurfacesOfTiltedIncidentEdges) {
  expect_all(tilted_incident_cases(39, 1, {}), check_manifold, "tilted incident edges");
  expect_all(tilted_incident_cases(40, 0.01f, {}), check_manifold, "tilted incident edges, size 0.01");
  expect_all(tilted_incident_cases(41, 1, {1e4f, -1e4f}), check_manifold, "tilted incident edges, coordinates 1e4");
}

TEST(Collide, TiltedRoundedBoxesFromTheIssueReport) {
  // Issue 11's reproducer: the second point used to be 0.04 off B's surface (tolerance 6e-4).
  const Pair p{make_rounded_box(1.4405874f, 0.966337562f, 0.223144934f),
               make_rounded_box(0.486642182f, 0.360024661f, 0.0788088888f),
               Transform{{7.03431988f, -2.34462953f}, Rot{-0.361880302f, 0.932224572f}},
               Transform{{5.39544773f, -1.51892936f}, Rot{0.556048453f, 0.831149876f}}};
  const std::string e = check_manifold({p, 0.0f});
  EXPECT_TRUE(e.empty()) << e;
  const Manifold m = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb);
  ASSERT_EQ(m.count, 2) << show(m);
  EXPECT_NEAR(m.normal.x, -0.831149877f, 1e-5f);
  EXPECT_NEAR(m.normal.y, 0.556048453f, 1e-5f);
  EXPECT_NEAR(std::min(m.points[0].separation, m.points[1].separation), -0.185438157f, 1e-5f);
}

TEST(Collide, ZeroLengthCapsuleActsAsCircle) {
  expect_all(with_margins(zero_length_pairs(35, 40)), check_manifold, "zero-length capsule");
}

TEST(Collide, ExactTouchingGivesAContactAtZeroMargin) {
  for (const Pair& p : touching_pairs()) {
    const Manifold m = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb);
    EXPECT_GT(m.count, 0) << contact_cases::describe(p);
    for (int i = 0; i < m.count; ++i) EXPECT_NEAR(m.points[i].separation, 0, 1e-6f) << contact_cases::describe(p);
    const Manifold r = pebble::collide(p.b.shape, p.xb, p.a.shape, p.xa);
    EXPECT_GT(r.count, 0) << contact_cases::describe(p);
    const std::string e = check_manifold({p, 0.0f});
    EXPECT_TRUE(e.empty()) << e << "\n    " << contact_cases::describe(p);
  }
}

TEST(Collide, OverlapAgreesWithDistanceAndWithCollideAtZeroMargin) {
  int failures = 0;
  for (const Case& c : random_cases(25, 40)) {
    const Pair& p = c.pair;
    const bool ov = pebble::overlap(p.a.shape, p.xa, p.b.shape, p.xb);
    const float d = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb).distance;
    const int count = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb).count;
    if ((ov != (d <= 0) || ov != (count > 0)) && ++failures <= max_reports()) {
      ADD_FAILURE() << "overlap " << ov << ", distance " << d << ", count " << count << "\n    " << describe(c);
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(Collide, TouchingAtADifferenceVertexGivesANormalInItsCone) {
  // Corner against corner (tests/oracle/cone.hpp), exactly touching or within 1e-5 of the size,
  // at margins 0 and 1e-4: a contact's normal lies in the cone of the difference's vertex.
  std::vector<cast_cases::CornerTouch> touches = cast_cases::corner_touches(82, 30);
  int contacts = 0;
  expect_all(
      touches,
      [&](const cast_cases::CornerTouch& c) {
        std::string err;
        for (const float margin : {0.0f, 1e-4f}) {
          const Pair& p = c.pair;
          err += check_manifold(Case{p, margin});
          const Manifold m = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, margin);
          if (m.count == 0) continue;
          ++contacts;
          err += cast_cases::check_in_cone(m.normal, world(p.a, p.xa), world(p.b, p.xb), c.from);
        }
        return err;
      },
      "corner touches");
  EXPECT_GT(contacts, int(touches.size()));
}

TEST(Collide, BoxCornerInsideATurnedBoxCornerTouchesWithANormalInTheCone) {
  // Distance.BoxCornerInsideATurnedBoxCornerIsAnOverlap's pair: A's corner (1, 1) a hair inside
  // the corner of a box turned by 30 degrees. The cone runs from 30 to 90 degrees; the closest
  // points of the preferred axis's edges once gave no contact at margin 0, and at a margin a
  // point with the normal of B's side, at 120 degrees.
  const float e = 0x1p-20f;
  const Rot q{0.866025404f, 0.5f};
  const Transform xb{Vec2{1 + e, 1 - 4 * e} - pebble::rotate(q, Vec2{-1, -1}), q};
  for (const float margin : {0.0f, 1e-4f}) {
    const Manifold m = pebble::collide(Shape::box(1, 1), kId, Shape::box(1, 1), xb, margin);
    EXPECT_GT(m.count, 0) << margin;
    if (m.count == 0) continue;
    const float angle = std::atan2(m.normal.y, m.normal.x);
    EXPECT_GE(angle, 0.5235988f - 1e-3f) << margin << ": " << show(m);
    EXPECT_LE(angle, 1.5707963f + 1e-3f) << margin << ": " << show(m);
    for (int i = 0; i < m.count; ++i) EXPECT_LE(m.points[i].separation, 0) << margin << ": " << show(m);
  }
}

TEST(Collide, FastPathsAgreeWithTheGenericPath) {
  // Circles and points take a fast path; detail::collide_generic() is the one general
  // algorithm. Both must meet the contract and give the same manifold, ids included.
  const std::vector<Pair> pairs = fast_path_pairs(36, 37);
  const std::vector<Case> cases = with_margins(pairs);
  expect_all(
      cases, [](const Case& c) { return check_manifold_with(c, pebble::detail::collide_generic); }, "generic path");
  expect_all(
      cases,
      [](const Case& c) -> std::string {
        const Pair& p = c.pair;
        const Manifold fast = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, c.margin);
        const Manifold slow = pebble::detail::collide_generic(p.a.shape, p.xa, p.b.shape, p.xb, c.margin);
        const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
        const Tolerance tol = tolerance_for(wa, wb);
        const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
        if (std::fabs(o.distance - c.margin) <= tol.length) return "";
        std::string e;
        const real size = smaller_size(p);
        const bool unique = o.normal_unique;
        if (fast.count != slow.count) {
          e = "counts differ; ";
        } else if (fast.count > 0 && unique && angle_between(v(fast.normal), v(slow.normal)) > tol.angle) {
          e = "normals differ; ";
        } else if (unique && !same_points(fast, slow, tol.length, false)) {
          e = "points differ; ";
        } else if (unique && !near_feature_switch(fast, wa, wb, 1e-3L * size, 1e-4L * size) &&
                   !same_points(fast, slow, tol.length, true)) {
          e = "ids differ; ";
        }
        if (!e.empty()) e += "\n    fast " + show(fast) + "\n    generic " + show(slow);
        return e;
      },
      "fast vs generic");
}

TEST(Collide, CapsulePairsAtTheEdgesOfTheDedicatedPath) {
  // collide() answers two capsules or segments on a path of its own (contact/manifold.cpp,
  // collide_capsules_body) that takes the common case itself and leaves the rest to the general
  // rule. Hand-made pairs where the two meet: parallel segments overlapping at exactly one
  // endpoint, collinear segments end to end (apart, touching, overlapping), crossing segments,
  // an end exactly over the other's end, a zero-length capsule (a circle) and a very short one,
  // and margins exactly equal to the distance. Each against the oracle, bit for bit against the
  // generic path (two segments), and with its count flipping exactly at the distance.
  std::vector<Pair> pairs;
  const Transform frames[] = {Transform::identity(), Transform{{3.5f, -2.25f}, Rot::from_angle(0.7f)},
                              Transform{{-1e3f, 250}, Rot::from_angle(-2.1f)}};
  for (const Transform& x : frames) {
    for (const float ra : {0.0f, 0.25f}) {
      for (const float rb : {0.0f, 0.1f}) {
        const ShapeSpec a = make_capsule({-1, 0}, {1, 0}, ra);
        const float touch = ra + rb;
        const auto add = [&](Vec2 p, Vec2 q) { pairs.push_back({a, make_capsule(p, q, rb), x, x}); };
        for (const float gap : {-0.05f, 0.0f, 0.05f}) {
          const float h = touch + gap;
          add({1, h}, {3, h});                 // parallel, overlapping at exactly one endpoint
          add({3, h}, {1, h});                 // the same, B run the other way
          add({-1, h}, {1, h});                // parallel, exactly over each other
          add({0.5f, h}, {2, h});              // parallel, half over
          add({1 + h, 0}, {3, 0});             // collinear, end to end
          add({1, h}, {1, 2});                 // an end exactly over A's end, B upright
          add({1 + h, 0.5f}, {1 + h, -0.5f});  // beside A's end, upright
          add({0.25f, h}, {1.5f, h + 1});      // an end over A's inside, tilted
        }
        add({-0.5f, 0}, {3, 0});               // collinear, overlapping
        add({0, -1}, {0, 1});                  // crossing at right angles
        add({-1, -0.5f}, {1, 0.5f});           // crossing at an angle
        add({1, -1}, {1, 1});                  // crossing at A's end
        add({0.3f, 0.2f}, {0.3f, 0.2f});       // zero length: a circle
        add({0.3f, touch}, {0.3001f, touch});  // very short
      }
    }
  }
  int failures = 0;
  for (const Pair& p : pairs) {
    const float d = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb).distance;
    const float size = float(smaller_size(p));
    for (const float margin : {0.0f, 0.05f * size, 0.5f * size, d, std::nextafter(d, -1e30f)}) {
      const Case c{p, margin};
      std::string e = check_manifold(c);
      const Manifold fast = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, margin);
      const Manifold slow = pebble::detail::collide_generic(p.a.shape, p.xa, p.b.shape, p.xb, margin);
      // (A zero-length capsule is a circle, on the point path, which may round an ulp apart.)
      const bool segments = p.a.shape.vertex_count() == 2 && p.b.shape.vertex_count() == 2;
      if (segments && std::memcmp(&fast, &slow, sizeof fast) != 0)
        e += "not the generic path's bytes: " + show(fast) + " generic " + show(slow) + "; ";
      if (margin == d && fast.count == 0) e += "no contact at a margin equal to the distance; ";
      if (margin < d && fast.count != 0) e += "a contact one float step below the distance; ";
      if (!e.empty() && ++failures <= max_reports()) ADD_FAILURE() << e << "\n    " << describe(c);
    }
  }
  EXPECT_EQ(failures, 0) << "of " << pairs.size() << " pairs";
}

TEST(Collide, TheMarginOnlyFiltersPoints) {
  // The manifold at margin m is the manifold at a larger margin without the points above m.
  std::vector<Case> cases = random_cases(26, 40);
  for (const Pair& p : nearly_parallel_pairs(38, {1e-3f, 1e-4f, 0.0f}, {-1e-3f, 0.0f, 0.002f, 0.006f}))
    cases.push_back({p, 0.005f});
  int failures = 0;
  for (const Case& c : cases) {
    const Pair& p = c.pair;
    const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
    const Tolerance tol = tolerance_for(wa, wb);
    const float big = c.margin + float(smaller_size(p));
    const Manifold small_m = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, c.margin);
    const Manifold big_m = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, big);
    if (small_m.count == 0) continue;
    Manifold filtered = big_m;
    filtered.count = 0;
    bool borderline = false;
    for (int i = 0; i < big_m.count; ++i) {
      if (std::fabs(big_m.points[i].separation - c.margin) <= tol.length) borderline = true;
      if (big_m.points[i].separation <= c.margin) filtered.points[filtered.count++] = big_m.points[i];
    }
    if (borderline) continue;
    if (!same_points(small_m, filtered, tol.length, true) && ++failures <= max_reports()) {
      ADD_FAILURE() << "margin " << c.margin << ": " << show(small_m) << "\n    margin " << big << ": " << show(big_m)
                    << "\n    " << describe(c);
    }
  }
  EXPECT_EQ(failures, 0);
}

// ---------------------------------------------------------------------------------------------
// Hand-made manifolds with exact answers.

TEST(Collide, AlignedBoxesCloserThanTheMarginGiveTwoPoints) {
  // Box2D's speculative case: two aligned boxes half a margin apart must give both corners.
  const Shape box = Shape::box(0.5f, 0.5f);
  const Manifold m = pebble::collide(box, kId, box, Transform{{0, 1.01f}, Rot::identity()}, 0.02f);
  ASSERT_EQ(m.count, 2) << show(m);
  EXPECT_NEAR(m.normal.x, 0, 1e-6f);
  EXPECT_NEAR(m.normal.y, 1, 1e-6f);
  for (const ContactPoint& c : m.points) {
    EXPECT_NEAR(c.separation, 0.01f, 1e-6f);
    EXPECT_NEAR(c.point.y, 0.505f, 1e-6f);
    EXPECT_NEAR(std::fabs(c.point.x), 0.5f, 1e-6f);
  }
  EXPECT_NE(m.points[0].id, m.points[1].id);

  // Many sizes, overlaps of the faces, gaps and poses: both ends of the shared stretch.
  std::mt19937 rng(27);
  int failures = 0;
  for (int i = 0; i < 2000; ++i) {
    const float w1 = uniform(rng, 0.2f, 2), h1 = uniform(rng, 0.2f, 2), w2 = uniform(rng, 0.2f, 2),
                h2 = uniform(rng, 0.2f, 2);
    const float margin = uniform(rng, 0.005f, 0.05f);
    const float gap = std::array<float, 5>{-0.3f * margin, 0, 0.5f * margin, 0.9f * margin, -0.05f}[size_t(i % 5)];
    const float dx = uniform(rng, -(w1 + w2 - 0.2f), w1 + w2 - 0.2f);
    const float r1 = (i % 3 == 0) ? uniform(rng, 0, 0.9f) * std::min(w1, h1) : 0;
    const float r2 = (i % 4 == 0) ? uniform(rng, 0, 0.9f) * std::min(w2, h2) : 0;
    const Shape a = r1 > 0 ? Shape::rounded_box(w1, h1, r1) : Shape::box(w1, h1);
    const Shape b = r2 > 0 ? Shape::rounded_box(w2, h2, r2) : Shape::box(w2, h2);
    // The pose: a random rigid motion of the aligned configuration.
    const Transform motion{{uniform(rng, -5, 5), uniform(rng, -5, 5)},
                           Rot::from_angle((i % 2) ? uniform(rng, -3, 3) : 0.0f)};
    const Transform xa = pebble::mul(motion, kId),
                    xb = pebble::mul(motion, Transform{{dx, h1 + h2 + gap}, Rot::identity()});
    const Manifold got = pebble::collide(a, xa, b, xb, margin);
    // Expected, in the aligned frame: the stretch where both flat faces lie over each other.
    const float lo = std::max(-(w1 - r1), dx - (w2 - r2)), hi = std::min(w1 - r1, dx + (w2 - r2));
    std::ostringstream why;
    if (hi - lo > 1e-3f) {
      Manifold want{};
      want.normal = {0, 1};
      want.count = 2;
      want.points[0] = {{lo, h1 + gap / 2}, gap, 0};
      want.points[1] = {{hi, h1 + gap / 2}, gap, 0};
      const Manifold want_world = moved(want, motion);
      if (!same_points(got, want_world, 2e-5L * 8, false)) why << "want " << show(want_world);
      if (got.count == 2 && got.points[0].id == got.points[1].id) why << " ids equal";
      if (pebble::length(got.normal - want_world.normal) > 1e-5f) why << " normal";
    }
    if (!why.str().empty() && ++failures <= max_reports()) {
      ADD_FAILURE() << why.str() << "\n    got " << show(got) << "\n    Shape a = "
                    << (r1 > 0 ? "Shape::rounded_box(" + lit(w1) + ", " + lit(h1) + ", " + lit(r1) + ")"
                               : "Shape::box(" + lit(w1) + ", " + lit(h1) + ")")
                    << "; Transform xa = " << lit(xa) << "; Shape b = "
                    << (r2 > 0 ? "Shape::rounded_box(" + lit(w2) + ", " + lit(h2) + ", " + lit(r2) + ")"
                               : "Shape::box(" + lit(w2) + ", " + lit(h2) + ")")
                    << "; Transform xb = " << lit(xb) << "; margin " << lit(margin);
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(Collide, SlightlyTiltedBoxReportsBothEndsWithinTheMargin) {
  // A box of half width w turned by a small angle over a wide box: its lower face's ends sit at
  // heights g and g + 2w sin(angle); each is reported when within the margin.
  const float w = 0.5f, h = 0.25f;
  const Shape ground = Shape::box(4, 0.5f), b = Shape::box(w, h);
  for (const float angle : {1e-6f, 1e-4f, 1e-3f, 0.01f, 0.05f}) {
    for (const float g : {-0.01f, 0.0f, 0.004f}) {
      const float margin = 0.02f;
      // Lowest corner (-w, -h) turned by angle: y = -w sin - h cos; put it at 0.5 + g.
      const float c = std::cos(angle), s = std::sin(angle);
      const Transform xb{{0.3f, 0.5f + g + w * s + h * c}, Rot{c, s}};
      const Manifold m = pebble::collide(ground, kId, b, xb, margin);
      const float low = g, high = g + 2 * w * s;
      const int want = high <= margin ? 2 : 1;
      ASSERT_EQ(m.count, want) << "angle " << angle << " gap " << g << " " << show(m);
      float least = m.points[0].separation, most = least;
      for (int i = 1; i < m.count; ++i) {
        least = std::min(least, m.points[i].separation);
        most = std::max(most, m.points[i].separation);
      }
      EXPECT_NEAR(least, low, 2e-6f) << "angle " << angle << " gap " << g;
      if (want == 2) {
        EXPECT_NEAR(most, high, 2e-6f) << "angle " << angle << " gap " << g;
      }
      EXPECT_NEAR(m.normal.y, 1, 1e-6f);
    }
  }
}

TEST(Collide, CornerToCornerReportsTheTrueDistance) {
  // Diagonal neighbours: the edge axes separate by 0.01 only; the true gap is 0.01 * sqrt(2).
  const Shape box = Shape::box(1, 1);
  const Transform xb{{2.01f, 2.01f}, Rot::identity()};
  const Manifold m = pebble::collide(box, kId, box, xb, 0.05f);
  ASSERT_EQ(m.count, 1) << show(m);
  EXPECT_NEAR(m.points[0].separation, 0.01f * std::sqrt(2.0f), 1e-6f);
  EXPECT_NEAR(m.normal.x, std::sqrt(0.5f), 1e-5f);
  EXPECT_NEAR(m.normal.y, std::sqrt(0.5f), 1e-5f);
  EXPECT_NEAR(m.points[0].point.x, 1.005f, 1e-6f);
  EXPECT_NEAR(m.points[0].point.y, 1.005f, 1e-6f);
  // Between 0.01 and 0.01 * sqrt(2) the margin decides: an axis-only test would say "contact".
  EXPECT_EQ(pebble::collide(box, kId, box, xb, 0.012f).count, 0);
  // Rounded corners: the gap between the corner circles.
  const Shape round = Shape::rounded_box(1, 1, 0.25f);
  const Manifold r = pebble::collide(round, kId, round, xb, 0.5f);
  ASSERT_EQ(r.count, 1) << show(r);
  const float core_gap = (2.01f - 1.5f) * std::sqrt(2.0f);
  EXPECT_NEAR(r.points[0].separation, core_gap - 0.5f, 1e-6f);
}

// ---------------------------------------------------------------------------------------------
// Exact alignments and equalities, where the tolerances act (random cases never land on them).

/// Whether two points of a manifold stand at one place.
bool coincident_points(const Manifold& m) {
  return m.count == 2 && pebble::length(m.points[0].point - m.points[1].point) <= 1e-6f;
}

TEST(Collide, IntegerBoxesStackedGiveExactCounts) {
  // Unit boxes (half extents 1) on integer coordinates: B on top of A offset by 0, by half a
  // width and by a whole width (corner on corner), with gaps of 0 and of exactly the margin, in
  // the four axis-aligned frames. The answers are exact in float.
  const Shape box = Shape::box(1, 1);
  const float margin = 0.25f;
  const Rot quarter[] = {Rot{1, 0}, Rot{0, 1}, Rot{-1, 0}, Rot{0, -1}};
  for (const Rot& q : quarter) {
    const Transform frame{{3, -5}, q};
    for (const float dx : {0.0f, 1.0f, -1.0f, 2.0f, -2.0f}) {
      for (const float gap : {0.0f, margin}) {
        const Transform xb = pebble::mul(frame, Transform{{dx, 2 + gap}, Rot::identity()});
        const Manifold m = pebble::collide(box, frame, box, xb, margin);
        const std::string where = "dx " + lit(dx) + " gap " + lit(gap) + " frame " + lit(frame) + ": " + show(m);
        // A corner on a corner (dx = +-2) is one contact, any overlap of the faces two.
        const int want = std::fabs(dx) == 2 ? 1 : 2;
        ASSERT_EQ(m.count, want) << where;
        EXPECT_FALSE(coincident_points(m)) << where;
        if (m.count == 2) {
          EXPECT_NE(m.points[0].id, m.points[1].id) << where;
        }
        // Corner on corner touching (gap 0): any direction between the two faces' normals is right.
        const Vec2 up = pebble::rotate(q, Vec2{0, 1}), side = pebble::rotate(q, Vec2{dx > 0 ? 1.0f : -1.0f, 0});
        if (want == 2 || gap > 0) {
          EXPECT_LT(pebble::length(m.normal - up), 1e-6f) << where;
        } else {
          EXPECT_NEAR(pebble::length(m.normal), 1, 1e-6f) << where;
          EXPECT_GE(pebble::dot(m.normal, up), -1e-6f) << where;
          EXPECT_GE(pebble::dot(m.normal, side), -1e-6f) << where;
        }
        for (int i = 0; i < m.count; ++i) {
          EXPECT_EQ(m.points[i].separation, gap) << where;
          const Vec2 local = pebble::inv_transform_point(frame, m.points[i].point);
          EXPECT_NEAR(local.y, 1 + gap / 2, 1e-6f) << where;
          // The ends of the shared stretch [max(-1, dx - 1), min(1, dx + 1)].
          const float lo = std::max(-1.0f, dx - 1), hi = std::min(1.0f, dx + 1);
          EXPECT_TRUE(std::fabs(local.x - lo) <= 1e-6f || std::fabs(local.x - hi) <= 1e-6f) << where;
        }
        // The other order gives the same contacts, flipped.
        const Manifold r = pebble::collide(box, xb, box, frame, margin);
        EXPECT_EQ(r.count, want) << where;
        EXPECT_FALSE(coincident_points(r)) << where;
      }
      // Just beyond the margin: nothing.
      const Transform far = pebble::mul(frame, Transform{{dx, 2 + 2 * margin}, Rot::identity()});
      EXPECT_EQ(pebble::collide(box, frame, box, far, margin).count, 0) << "dx " << dx;
    }
    // Diagonal neighbours touching corner to corner: one point, separation 0.
    const Manifold corner = pebble::collide(box, frame, box, pebble::mul(frame, Transform{{2, 2}, Rot::identity()}), 0);
    ASSERT_EQ(corner.count, 1) << show(corner);
    EXPECT_EQ(corner.points[0].separation, 0.0f);
  }
}

TEST(Collide, AMarginEqualToTheDistanceCountsAsContact) {
  // count > 0 exactly when distance() <= margin, also at the equality and one float step to
  // either side of it, on every kind pair (near contact, overlapping and apart).
  std::mt19937 rng(42);
  int failures = 0, tested = 0;
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < 30; ++i) {
        const Pair p = random_pair(ka, kb, rng);
        const float d = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb).distance;
        if (!(std::fabs(d) < 1e30f)) continue;
        ++tested;
        const float below = std::nextafter(d, -1e30f), above = std::nextafter(d, 1e30f);
        const int at = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, d).count;
        const int up = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, above).count;
        const int down = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, below).count;
        // The generic path against the generic distance (the fast paths of a circle may round the
        // distance differently, by an ulp).
        const float dg = pebble::detail::distance_generic(p.a.shape, p.xa, p.b.shape, p.xb).distance;
        const int generic_at = pebble::detail::collide_generic(p.a.shape, p.xa, p.b.shape, p.xb, dg).count;
        const int generic_down =
            pebble::detail::collide_generic(p.a.shape, p.xa, p.b.shape, p.xb, std::nextafter(dg, -1e30f)).count;
        if ((at == 0 || up == 0 || down != 0 || generic_at == 0 || generic_down != 0) && ++failures <= max_reports()) {
          ADD_FAILURE() << "margin = distance " << lit(d) << ": count " << at << ", one step above " << up
                        << ", one step below " << down << ", generic at its distance " << generic_at
                        << ", one step below " << generic_down << "\n    " << contact_cases::describe(p);
        }
      }
    }
  }
  EXPECT_GT(tested, 1400);
  EXPECT_EQ(failures, 0);
}

TEST(Collide, AlignedBoxesNudgedAlongTheEdgeKeepBothPointsAndTheirIds) {
  // Equal boxes in a column, B nudged sideways by 1e-7 to 5e-6 of the size (inside the clip
  // tolerance of 1e-5): still two points, the same ids as unnudged, none at one place; sharp and
  // rounded, resting and apart within the margin.
  for (const float corner : {0.0f, 0.1f}) {
    const Shape box = corner > 0 ? Shape::rounded_box(0.5f, 0.5f, corner) : Shape::box(0.5f, 0.5f);
    const float size = box.extent();
    for (const float gap : {-0.002f, 0.0f, 0.01f}) {
      const Transform xa{{10, 20}, Rot::from_angle(0.3f)};
      auto at = [&](float dx) { return pebble::mul(xa, Transform{{dx, 1 + gap}, Rot::identity()}); };
      const Manifold base = pebble::collide(box, xa, box, at(0), 0.02f);
      ASSERT_EQ(base.count, 2) << show(base);
      for (const float fraction : {1e-7f, 1e-6f, 5e-6f, -1e-7f, -1e-6f, -5e-6f}) {
        const Manifold m = pebble::collide(box, xa, box, at(fraction * size), 0.02f);
        const std::string where = "corner " + lit(corner) + " gap " + lit(gap) + " nudge " + lit(fraction) + ": " +
                                  show(m) + " base " + show(base);
        ASSERT_EQ(m.count, 2) << where;
        EXPECT_FALSE(coincident_points(m)) << where;
        EXPECT_TRUE(same_points(m, base, 1e-4L, true)) << where;
      }
    }
  }
}

TEST(Collide, BetweenExactlyParallelFacesTheFirstShapesFaceIsTheReference) {
  // Equal separations on both faces' axes: the first argument's face is the reference, so the
  // normal is its face normal exactly, in either order. Each id names one vertex of A's top edge
  // and one of B's bottom edge, and the two orders give the same ids (issue 19: a reference that
  // changes sides keeps them).
  const Shape a = Shape::box(1, 0.5f), b = Shape::box(0.5f, 0.25f);
  const Transform xa{{1, 2}, Rot::from_angle(0.5f)};
  const Transform xb = pebble::mul(xa, Transform{{0.25f, 0.75f - 0.001f}, Rot::identity()});  // B on A's top face
  const Manifold ab = pebble::collide(a, xa, b, xb, 0.01f);
  ASSERT_EQ(ab.count, 2) << show(ab);
  EXPECT_LT(pebble::length(ab.normal - pebble::rotate(xa.q, Vec2{0, 1})), 1e-6f) << show(ab);
  const Manifold ba = pebble::collide(b, xb, a, xa, 0.01f);
  ASSERT_EQ(ba.count, 2) << show(ba);
  EXPECT_LT(pebble::length(ba.normal - pebble::rotate(xa.q, Vec2{0, -1})), 1e-6f) << show(ba);
  std::vector<uint32_t> ids_ab, ids_ba;
  for (const ContactPoint& c : ab.points) {
    ids_ab.push_back(c.id);
    const uint32_t fa = c.id & 0xffffu, fb = c.id >> 16;
    EXPECT_TRUE(fa == 2u || fa == 3u) << show(ab);  // A's top edge runs from vertex 2 to 3
    EXPECT_TRUE(fb == 0u || fb == 1u) << show(ab);  // B's bottom edge from 0 to 1
  }
  for (const ContactPoint& c : ba.flipped().points) ids_ba.push_back(c.id);
  std::sort(ids_ab.begin(), ids_ab.end());
  std::sort(ids_ba.begin(), ids_ba.end());
  EXPECT_EQ(ids_ab, ids_ba) << show(ab) << "\n" << show(ba);
}

TEST(Collide, CirclesGiveOnePointOnTheLineOfCentres) {
  const Shape a = Shape::circle(1), b = Shape::circle(0.5f, {0.25f, 0});
  const Manifold m = pebble::collide(a, Transform{{1, 1}, Rot::identity()}, b,
                                     Transform{{1, 2.5f}, Rot::from_angle(1.5707964f)}, 0.3f);
  ASSERT_EQ(m.count, 1) << show(m);
  // B's centre is at (1, 2.75): centres 1.75 apart, radii 1.5.
  EXPECT_NEAR(m.points[0].separation, 0.25f, 1e-6f);
  EXPECT_NEAR(m.normal.y, 1, 1e-6f);
  EXPECT_NEAR(m.points[0].point.x, 1, 1e-6f);
  EXPECT_NEAR(m.points[0].point.y, 2.125f, 1e-6f);
  // Concentric: any normal will do, but it is unit and the separation is minus the depth.
  const Manifold c = pebble::collide(a, kId, Shape::circle(0.5f), kId);
  ASSERT_EQ(c.count, 1);
  EXPECT_NEAR(pebble::length(c.normal), 1, 1e-6f);
  EXPECT_NEAR(c.points[0].separation, -1.5f, 1e-6f);
}

// ---------------------------------------------------------------------------------------------
// Symmetry, invariance, ids.

TEST(Collide, SwappingTheShapesFlipsTheManifold) {
  int failures = 0, compared = 0;
  for (const Case& c : random_cases(28, 40)) {
    const Pair& p = c.pair;
    const Manifold ab = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, c.margin);
    const Manifold ba = pebble::collide(p.b.shape, p.xb, p.a.shape, p.xa, c.margin);
    const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
    const Tolerance tol = tolerance_for(wa, wb);
    const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
    std::string e;
    if (std::fabs(o.distance - c.margin) > tol.length && ab.count != ba.count) e += "counts differ; ";
    // Where several directions tie, each side may pick its own (both are checked elsewhere).
    if (ab.count > 0 && ba.count > 0 && o.normal_unique) {
      ++compared;
      const Manifold back = ba.flipped();
      if (angle_between(v(ab.normal), v(back.normal)) > tol.angle) {
        e += "normals not opposite; ";
      } else if (!same_points(ab, back, tol.length, false)) {
        e += "points differ; ";
      } else if (!same_points(ab, back, tol.length, true)) {
        e += "ids not flipped; ";
      }
    }
    if (!e.empty() && ++failures <= max_reports()) {
      ADD_FAILURE() << e << "\n    a,b " << show(ab) << "\n    b,a " << show(ba) << "\n    " << describe(c);
    }
  }
  EXPECT_GT(compared, 700 / test_random::kSanitizerScale);
  EXPECT_EQ(failures, 0);
}

TEST(Collide, MovingBothShapesRigidlyMovesTheManifold) {
  std::mt19937 rng(29);
  int failures = 0;
  for (const Case& c : random_cases(30, 40)) {
    const Pair& p = c.pair;
    const Transform motion{{uniform(rng, -20, 20), uniform(rng, -20, 20)},
                           Rot::from_angle(uniform(rng, -3.14f, 3.14f))};
    const Transform xa2 = pebble::mul(motion, p.xa), xb2 = pebble::mul(motion, p.xb);
    const Manifold m0 = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, c.margin);
    const Manifold m1 = pebble::collide(p.a.shape, xa2, p.b.shape, xb2, c.margin);
    const oracle::RShape wa = world(p.a, xa2), wb = world(p.b, xb2);
    const Tolerance tol = tolerance_for(wa, wb);
    const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
    std::string e = check_manifold({{p.a, p.b, xa2, xb2}, c.margin});
    if (std::fabs(o.distance - c.margin) > tol.length && m0.count != m1.count) e += "count changed; ";
    if (m0.count > 0 && m1.count > 0 && o.normal_unique && std::fabs(o.runner_up - o.distance) > tol.length) {
      const Manifold expect = moved(m0, motion);
      if (angle_between(v(expect.normal), v(m1.normal)) > tol.angle) {
        e += "normal not carried along; ";
      } else if (!same_points(expect, m1, tol.length, false)) {
        e += "points not carried along; ";
      } else if (!near_feature_switch(m0, world(p.a, p.xa), world(p.b, p.xb), 1e-3L * smaller_size(p),
                                      1e-4L * smaller_size(p)) &&
                 !same_points(expect, m1, tol.length, true)) {
        e += "ids changed; ";
      }
    }
    if (!e.empty() && ++failures <= max_reports()) {
      ADD_FAILURE() << e << "\n    before " << show(m0) << "\n    after " << show(m1) << "\n    " << describe(c)
                    << "\n    motion " << lit(motion);
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(Collide, IdsAndPointsSurviveTinyMotions) {
  std::mt19937 rng(31);
  int failures = 0, compared = 0;
  for (const Case& c : random_cases(32, 40)) {
    const Pair& p = c.pair;
    const float size = float(smaller_size(p));
    const V dir = random_direction(rng);
    const Transform xb2{{p.xb.p.x + 1e-5f * size * float(dir.x), p.xb.p.y + 1e-5f * size * float(dir.y)},
                        Rot::from_angle(p.xb.q.angle() + 1e-5f)};
    const Manifold m0 = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, c.margin);
    const Manifold m1 = pebble::collide(p.a.shape, p.xa, p.b.shape, xb2, c.margin);
    if (m0.count == 0 || m0.count != m1.count) continue;
    const oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
    const Tolerance tol = tolerance_for(wa, wb);
    const oracle::DistanceAnswer o = oracle::distance(wa, wb, tol.length, tol.conditioning);
    // At a switch of the reference axis or of a touching feature the ids may change.
    if (o.cores_overlap && !o.normal_unique) continue;
    if (near_feature_switch(m0, wa, wb, 1e-3L * size, 1e-4L * size)) continue;
    if (near_feature_switch(m1, world(p.a, p.xa), world(p.b, xb2), 1e-3L * size, 1e-4L * size)) continue;
    ++compared;
    auto ids = [](const Manifold& m) {
      std::vector<uint32_t> out;
      for (int i = 0; i < m.count; ++i) out.push_back(m.points[i].id);
      std::sort(out.begin(), out.end());
      return out;
    };
    std::string e;
    if (ids(m0) != ids(m1)) {
      e = "ids changed";
    } else {
      // Same features: each point moves about as much as B does (continuity).
      real reach = wb.radius;
      for (V q : wb.core) reach = std::max(reach, oracle::length(q - v(p.xb.p)));
      const real bound = 10 * (1e-5L * size + 1e-5L * reach) + 4 * tol.noise;
      for (int i = 0; i < m0.count; ++i) {
        for (int j = 0; j < m1.count; ++j) {
          if (m0.points[i].id != m1.points[j].id) continue;
          if (oracle::length(v(m0.points[i].point) - v(m1.points[j].point)) > bound ||
              std::fabs(real(m0.points[i].separation) - m1.points[j].separation) > bound) {
            e = "a point jumped";
          }
        }
      }
    }
    if (!e.empty() && ++failures <= max_reports()) {
      ADD_FAILURE() << e << "\n    before " << show(m0) << "\n    after " << show(m1) << "\n    " << describe(c)
                    << "\n    moved xb = " << lit(xb2);
    }
  }
  EXPECT_GT(compared, 700 / test_random::kSanitizerScale);
  EXPECT_EQ(failures, 0);
}

// Resting contact as a physics engine sees it: stacked shapes whose relative tilt jitters
// around zero by a little, with small sideways drift. A warm-started solver matches contact
// points by id from step to step, so the ids must not change while the same faces touch, and the
// reference face must not flip with the sign of a small tilt (issue 11: it flipped at 2e-5 of the
// size, i.e. at tilts of 3e-5 rad in a pyramid of unit boxes).
TEST(Collide, IdsSurviveTheJitterOfRestingContact) {
  struct Stack {
    const char* what;
    Shape lower, upper;  // the upper core's lower edge lies along its local x axis at y = -(its lowest y)
    float offset;        // sideways offset of the upper shape
  };
  const Stack stacks[] = {
      {"column of boxes", Shape::box(0.5f, 0.5f), Shape::box(0.5f, 0.5f), 0},
      {"pyramid of boxes", Shape::box(0.5f, 0.5f), Shape::box(0.5f, 0.5f), 0.5f},
      {"1:4 block across a 1:4 block", Shape::box(0.125f, 0.5f), Shape::box(0.5f, 0.125f), 0},
      {"1:4 block on a 1:4 block", Shape::box(0.5f, 0.125f), Shape::box(0.5f, 0.125f), 0.25f},
      {"wide box on a narrow one", Shape::box(0.25f, 0.5f), Shape::box(1, 0.25f), 0.1f},
      {"rounded boxes", Shape::rounded_box(0.5f, 0.5f, 0.1f), Shape::rounded_box(0.5f, 0.5f, 0.1f), 0.3f},
      {"rounded column", Shape::rounded_box(0.5f, 0.3f, 0.05f), Shape::rounded_box(0.5f, 0.3f, 0.05f), 0},
      {"capsule on a box", Shape::box(1, 0.5f), Shape::capsule({-0.5f, 0}, {0.5f, 0}, 0.1f), 0.2f},
      {"box on a capsule", Shape::capsule({-0.5f, 0}, {0.5f, 0}, 0.1f), Shape::box(0.4f, 0.2f), 0.05f},
      {"capsule on a capsule", Shape::capsule({-0.5f, 0}, {0.5f, 0}, 0.1f), Shape::capsule({-0.5f, 0}, {0.5f, 0}, 0.1f),
       0.25f},
  };
  auto extreme = [](const Shape& s, bool x, bool most) {
    float e = most ? -1e30f : 1e30f;
    for (Vec2 p : s.vertices()) e = most ? std::max(e, x ? p.x : p.y) : std::min(e, x ? p.x : p.y);
    return e;
  };
  const float margin = 4 * pebble::kLinearSlop, depth = 0.5f * pebble::kLinearSlop;
  int failures = 0, checked = 0;
  for (const Stack& st : stacks) {
    const float lower_top = extreme(st.lower, false, true) + st.lower.radius();
    const float core_half_width = extreme(st.upper, true, true), core_below = -extreme(st.upper, false, false);
    // Sideways drift small enough that no corner crosses another's side plane.
    for (const float drift : {-1e-4f, 0.0f, 1e-4f, 0.01f}) {
      for (const float frame_angle : {0.0f, 0.7f, -2.3f}) {
        const Transform frame{{3, -2}, Rot::from_angle(frame_angle)};
        std::vector<uint32_t> first;
        std::string first_m;
        for (int step = -50; step <= 50; ++step) {
          // The upper shape turned by `tilt` about the middle of its core's lower edge, then put so
          // that its lowest point is `depth` below the lower shape's top.
          const float tilt = 1e-3f * float(step) / 50;
          const float c = std::cos(tilt), sn = std::sin(tilt);
          const Vec2 mid{st.offset + drift, lower_top - depth + core_half_width * std::fabs(sn) + st.upper.radius()};
          const Transform local{{mid.x - core_below * sn, mid.y + core_below * c}, Rot{c, sn}};
          const Manifold m = pebble::collide(st.lower, frame, st.upper, pebble::mul(frame, local), margin);
          std::vector<uint32_t> ids;
          for (int i = 0; i < m.count; ++i) ids.push_back(m.points[i].id);
          std::sort(ids.begin(), ids.end());
          if (step == -50) {
            first = ids;
            first_m = show(m);
          }
          ++checked;
          // The reference stays the lower shape's face (the first argument's, between parallel
          // faces) through the jitter of a resting contact: the normal is exactly its normal.
          const Vec2 up = pebble::rotate(frame.q, Vec2{0, 1});
          const bool lower_face = std::fabs(tilt) > 2e-4f || pebble::length(m.normal - up) <= 1e-6f;
          if ((m.count != 2 || ids != first || !lower_face) && ++failures <= max_reports()) {
            ADD_FAILURE() << st.what << ", drift " << drift << ", frame angle " << frame_angle << ", tilt " << tilt
                          << ": " << show(m) << "\n    at tilt -1e-3: " << first_m;
          }
        }
      }
    }
  }
  EXPECT_EQ(failures, 0) << "of " << checked;
}

// Landing and settling at any tilt (issue 19): a shape resting on another, turned about the
// corner it stands on by tilts from 0.2 rad down to 0, through the old parallel-face bound (a sine
// of exactly 9.5e-4 and one float step either side) and the reference preference's edge. Whichever
// face is the reference, and whether one corner or both touch, every id is one of the ids of the
// flat contact: the corner that lands first keeps its id while the rest of the face comes down.
TEST(Collide, IdsHoldThroughLandingAtAnyTilt) {
  struct Stack {
    const char* what;
    Shape lower, upper;
    float offset;  // of the upper shape's core centre from the lower's, sideways
  };
  const Stack stacks[] = {
      {"pyramid of boxes", Shape::box(0.5f, 0.5f), Shape::box(0.5f, 0.5f), 0.5f},
      {"column of boxes", Shape::box(0.5f, 0.5f), Shape::box(0.5f, 0.5f), 0.01f},
      {"narrow box on a wide one", Shape::box(1, 0.5f), Shape::box(0.25f, 0.5f), -0.3f},
      {"wide box on a narrow one", Shape::box(0.25f, 0.5f), Shape::box(1, 0.25f), 0.1f},
      {"1:4 block across a 1:4 block", Shape::box(0.125f, 0.5f), Shape::box(0.5f, 0.125f), 0},
      {"rounded boxes", Shape::rounded_box(0.5f, 0.5f, 0.1f), Shape::rounded_box(0.5f, 0.5f, 0.1f), 0.3f},
      {"capsule on a box", Shape::box(1, 0.5f), Shape::capsule({-0.5f, 0}, {0.5f, 0}, 0.1f), 0.2f},
      {"box on a capsule", Shape::capsule({-0.5f, 0}, {0.5f, 0}, 0.1f), Shape::box(0.4f, 0.2f), 0.05f},
      {"rounded hexagon on a box", Shape::box(1, 0.5f),
       Shape::polygon(
           std::array<Vec2, 6>{{{0.5f, 0}, {0.25f, 0.4f}, {-0.25f, 0.4f}, {-0.5f, 0}, {-0.25f, -0.4f}, {0.25f, -0.4f}}},
           0.05f),
       0.4f},
  };
  // Sines of the tilt: the old bound exactly and a float step either side, the preference's reach
  // in a unit pyramid (4e-4 / 0.5), and tilts that only landing bodies have.
  const float bound = 9.5e-4f;
  std::vector<float> sines = {
      0,     1e-5f, 1e-4f, 8e-4f, std::nextafter(bound, 0.0f), bound, std::nextafter(bound, 1.0f), 1e-3f, 2e-3f, 5e-3f,
      0.01f, 0.03f, 0.1f,  0.2f};
  const float margin = 4 * pebble::kLinearSlop, depth = 0.5f * pebble::kLinearSlop;
  int failures = 0, checked = 0, b_reference = 0;
  for (const Stack& st : stacks) {
    float lower_top = -1e30f, upper_half = 0, upper_below = 0;
    for (Vec2 p : st.lower.vertices()) lower_top = std::max(lower_top, p.y);
    lower_top += st.lower.radius();
    for (Vec2 p : st.upper.vertices()) upper_below = std::max(upper_below, -p.y);
    for (Vec2 p : st.upper.vertices()) {
      if (p.y == -upper_below) upper_half = std::max(upper_half, std::fabs(p.x));  // the lower edge's half length
    }
    for (const float side : {1.0f, -1.0f}) {
      for (const float frame_angle : {0.0f, 0.7f, -2.3f}) {
        const Transform frame{{3, -2}, Rot::from_angle(frame_angle)};
        auto place = [&](float sine) {
          // Turned by the tilt, then lowered until the shapes overlap by `depth` (a bisection on
          // the height: where a corner lands or a corner of the lower shape meets the face).
          const float sn = side * sine, c = std::sqrt(1 - sine * sine);
          float lo = lower_top - 1, hi = lower_top + 2 * (upper_half + upper_below + st.upper.radius());
          for (int i = 0; i < 60; ++i) {
            const float mid = 0.5f * (lo + hi);
            const float d =
                pebble::distance(st.lower, frame, st.upper, pebble::mul(frame, Transform{{st.offset, mid}, Rot{c, sn}}))
                    .distance;
            (d > -depth ? hi : lo) = mid;
          }
          return pebble::mul(frame, Transform{{st.offset, hi}, Rot{c, sn}});
        };
        auto ids_of = [](const Manifold& m) {
          std::vector<uint32_t> ids;
          for (int i = 0; i < m.count; ++i) ids.push_back(m.points[i].id);
          std::sort(ids.begin(), ids.end());
          return ids;
        };
        const Manifold flat = pebble::collide(st.lower, frame, st.upper, place(0), margin);
        const std::vector<uint32_t> flat_ids = ids_of(flat);
        if (flat.count != 2) {
          ADD_FAILURE() << st.what << ": the flat contact has " << flat.count << " points: " << show(flat);
          continue;
        }
        const Vec2 up = pebble::rotate(frame.q, Vec2{0, 1});
        for (const float sine : sines) {
          const Manifold m = pebble::collide(st.lower, frame, st.upper, place(sine), margin);
          ++checked;
          if (pebble::length(m.normal - up) > 1e-6f) ++b_reference;
          bool ok = m.count >= 1;
          for (const uint32_t id : ids_of(m))
            ok = ok && std::find(flat_ids.begin(), flat_ids.end(), id) != flat_ids.end();
          // The symmetric call names the same pairs.
          const std::vector<uint32_t> mirrored =
              ids_of(pebble::collide(st.upper, place(sine), st.lower, frame, margin).flipped());
          ok = ok && mirrored == ids_of(m);
          if (!ok && ++failures <= max_reports()) {
            ADD_FAILURE() << st.what << ", side " << side << ", frame angle " << frame_angle << ", sine " << sine
                          << ": " << show(m) << "\n    flat: " << show(flat);
          }
        }
      }
    }
  }
  EXPECT_EQ(failures, 0) << "of " << checked;
  EXPECT_GT(b_reference, checked / 4) << "the sweep must take B's face as the reference often";
}

TEST(Collide, FlippedSwapsTheIdHalvesAndNegatesTheNormal) {
  Manifold m{};
  m.normal = {0.6f, 0.8f};
  m.count = 2;
  m.points[0] = {{1, 2}, -0.5f, 0x00030102u};
  m.points[1] = {{3, 4}, 0.25f, 0x01020001u};
  const Manifold f = m.flipped();
  EXPECT_EQ(f.normal, (Vec2{-0.6f, -0.8f}));
  ASSERT_EQ(f.count, 2);
  EXPECT_EQ(f.points[0].id, 0x01020003u);
  EXPECT_EQ(f.points[1].id, 0x00010102u);
  EXPECT_EQ(f.points[0].point, (Vec2{1, 2}));
  EXPECT_EQ(f.points[1].separation, 0.25f);
  const Manifold back = f.flipped();
  EXPECT_EQ(back.points[0].id, m.points[0].id);
  EXPECT_EQ(back.normal, m.normal);
}

// ---------------------------------------------------------------------------------------------
// Invalid input.

TEST(Collide, InvalidTransformsGiveNoContact) {
  for_each_invalid_placement(
      [](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, const Transform& x) {
        for (const float margin : {0.0f, 0.1f, 1e30f}) {
          const Manifold m = pebble::collide(a, xa, b, xb, margin);
          EXPECT_EQ(m.count, 0) << lit(x);
          EXPECT_TRUE(finite(m)) << lit(x);
        }
      });
}

// The contact queries check both transforms at once (with SSE where available); at the edges of
// what is_valid() accepts they must accept exactly what it accepts, on every path.
TEST(Collide, AcceptsExactlyTheTransformsIsValidAccepts) {
  std::vector<Transform> edge_cases;
  const float limit = pebble::kMaxWorldCoordinate;
  for (const float x : {limit, -limit, std::nextafter(limit, 2 * limit), std::nextafter(-limit, -2 * limit),
                        std::nextafter(limit, 0.0f)}) {
    edge_cases.push_back({{x, 0}, Rot::identity()});
    edge_cases.push_back({{0, x}, Rot::identity()});
  }
  // Rotations scaled to |q|^2 just inside and just outside 1 +- kRotationTolerance.
  for (const float angle : {0.0f, 0.7f, 2.0f, -2.9f}) {
    const Rot q = Rot::from_angle(angle);
    for (const double target : {1.0 + double(pebble::kRotationTolerance), 1.0 - double(pebble::kRotationTolerance)}) {
      const float k0 = float(std::sqrt(target));
      float k = k0;
      for (int step = 0; step < 6; ++step) k = std::nextafter(k, 0.0f);
      for (int step = 0; step < 12; ++step, k = std::nextafter(k, 2.0f))
        edge_cases.push_back({{0, 0}, Rot{k * q.c, k * q.s}});
    }
  }
  int accepted = 0, refused = 0;
  const Shape shapes[] = {Shape::circle(1), Shape::box(1, 0.5f), Shape::capsule({0, 0}, {1, 0}, 0.2f)};
  for (const Transform& x : edge_cases) {
    (pebble::is_valid(x) ? accepted : refused) += 1;
    for (const Shape& a : shapes) {
      for (const Shape& b : shapes) {
        // Both shapes under the same transform overlap, so a valid transform gives a contact.
        const Manifold m = pebble::collide(a, x, b, x);
        EXPECT_EQ(m.count > 0, pebble::is_valid(x)) << lit(x);
        EXPECT_EQ(pebble::distance(a, x, b, x).distance < 0, pebble::is_valid(x)) << lit(x);
        const Manifold other = pebble::collide(a, kId, b, x, 4e9f);  // any distance is within the margin
        EXPECT_EQ(other.count > 0, pebble::is_valid(x)) << lit(x);
      }
    }
  }
  EXPECT_GT(accepted, 10);  // the list really straddles the boundary
  EXPECT_GT(refused, 10);
}

TEST(Collide, NonFiniteMarginsKeepEveryFieldFinite) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const Shape a = Shape::box(1, 1), b = Shape::capsule({0, 0}, {1, 0}, 0.25f);
  for (const float margin : {nan, inf, -inf, 1e30f, -1e30f}) {
    for (const Vec2 pb : {Vec2{0.5f, 0.5f}, Vec2{1.1f, 0.3f}, Vec2{50, 0}}) {
      const Manifold m = pebble::collide(a, kId, b, Transform{pb, Rot::identity()}, margin);
      EXPECT_TRUE(finite(m)) << margin;
      EXPECT_GE(m.count, 0);
      EXPECT_LE(m.count, 2);
    }
  }
}

TEST(Collide, HugeButValidCoordinatesStayFinite) {
  std::mt19937 rng(33);
  for (const float far : {1e6f, 1e8f, 9e8f}) {
    for (int i = 0; i < 50; ++i) {
      const Pair p = random_pair(kAllKinds[i % 7], kAllKinds[(i / 7) % 7], rng, 1, {far, far}, 3);
      const Manifold m = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, 0.1f);
      EXPECT_TRUE(finite(m)) << contact_cases::describe(p);
      EXPECT_EQ(m.count > 0, pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb).distance <= 0.1f)
          << contact_cases::describe(p);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Ids of hand-made pairs (issue 37: a change of the id encoding was caught only by reuse_test's
// pile tolerance). docs/contacts.md: an id packs a core vertex of A in the low 16 bits and one of
// B in the high 16; between polygon cores each point is named by the incident edge's vertex at the
// point's end and the reference edge's vertex that end faces (the edges run opposite ways), the
// same pair whichever core is the reference; a circle or point has id 0. So for a box resting on a
// wider one, the point at the left end names A's top-left and B's bottom-left vertex, and the
// right one the two right vertices; a corner resting on a face names that corner and the face's
// vertex on the corner's side of the incident edge; a corner beyond a corner takes the name of an
// end of the face contact it becomes. The vertices are found by position (the makers may rotate
// the list); the points of a face contact must lie by the incident vertices their ids name.

namespace {

// The index of the core vertex of `s` at `local` (exactly; -1 if none).
int vertex_at(const Shape& s, Vec2 local) {
  for (int i = 0; i < s.vertex_count(); ++i)
    if (s.vertices()[std::size_t(i)] == local) return i;
  return -1;
}

std::uint32_t vertex_pair(int a, int b) { return std::uint32_t(a) | (std::uint32_t(b) << 16); }

// The ids of m, sorted.
std::vector<std::uint32_t> ids_of(const Manifold& m) {
  std::vector<std::uint32_t> out;
  for (int i = 0; i < m.count; ++i) out.push_back(m.points[i].id);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(Collide, HandMadePairsHaveTheIdsTheirFeaturesGive) {
  const float margin = 0.02f;
  const Shape ground = Shape::box(2, 0.5f);  // A: top face from (2, 0.5) to (-2, 0.5)
  const Shape box = Shape::box(0.5f, 0.5f);
  const int top_left = vertex_at(ground, {-2, 0.5f}), top_right = vertex_at(ground, {2, 0.5f});
  const int bottom_left = vertex_at(box, {-0.5f, -0.5f}), bottom_right = vertex_at(box, {0.5f, -0.5f});
  ASSERT_GE(std::min({top_left, top_right, bottom_left, bottom_right}), 0);
  // Face on face, level and tilted by +-1e-3 rad (B's face or A's is the reference: the same ids),
  // and with the shapes swapped (the halves swapped).
  for (const float tilt : {0.0f, 1e-3f, -1e-3f, 2e-4f}) {
    SCOPED_TRACE("tilt " + std::to_string(tilt));
    const Transform xb{{0.3f, 1.004f}, Rot::from_angle(tilt)};
    const Manifold m = pebble::collide(ground, kId, box, xb, margin);
    ASSERT_EQ(m.count, 2) << show(m);
    const std::vector<std::uint32_t> want{vertex_pair(top_left, bottom_left), vertex_pair(top_right, bottom_right)};
    std::vector<std::uint32_t> sorted_want = want;
    std::sort(sorted_want.begin(), sorted_want.end());
    EXPECT_EQ(ids_of(m), sorted_want) << show(m);
    for (int i = 0; i < m.count; ++i) {
      const int b_vertex = int(m.points[i].id >> 16);
      ASSERT_LT(b_vertex, box.vertex_count());
      const pebble::Position at = pebble::transform_point(xb, box.vertices()[std::size_t(b_vertex)]);
      EXPECT_LT(pebble::length(m.points[i].point - at), 0.01f)
          << "point " << i << " is not by the vertex its id names; " << show(m);
    }
    const Manifold swapped = pebble::collide(box, xb, ground, kId, margin);
    std::vector<std::uint32_t> want_swapped{vertex_pair(bottom_left, top_left), vertex_pair(bottom_right, top_right)};
    std::sort(want_swapped.begin(), want_swapped.end());
    EXPECT_EQ(ids_of(swapped), want_swapped) << show(swapped);
  }
  // A corner on the face: turned 40 degrees counter-clockwise, the bottom-left corner is lowest and
  // the start of the incident (bottom) edge, facing the reference edge's end, the top-left vertex;
  // turned clockwise, the bottom-right corner is lowest, the edge's end, facing the top-right one.
  for (const float angle : {0.698f, -0.698f}) {
    SCOPED_TRACE("angle " + std::to_string(angle));
    const Rot q = Rot::from_angle(angle);
    const int corner = angle > 0 ? bottom_left : bottom_right;
    const float low = pebble::rotate(q, box.vertices()[std::size_t(corner)]).y;
    const Transform xb{{0.3f, 0.5f + 0.005f - low}, q};
    for (const bool swap : {false, true}) {
      const Manifold m =
          swap ? pebble::collide(box, xb, ground, kId, margin) : pebble::collide(ground, kId, box, xb, margin);
      ASSERT_EQ(m.count, 1) << show(m);
      const int face_vertex = angle > 0 ? top_left : top_right;
      EXPECT_EQ(m.points[0].id, swap ? vertex_pair(corner, face_vertex) : vertex_pair(face_vertex, corner)) << show(m);
    }
  }
  // Corner beyond corner, apart (0.06 across and 0.02 up, then 0.02 across and 0.06 up, margin
  // 0.1): one point, named as its end would be in the face contact it becomes when it slides over
  // the edge. Across: B's left face on A's right one; B's bottom-left corner ends B's left edge (it
  // runs down), facing the start of A's right edge (it runs up): A's bottom-right vertex. Up: B's
  // bottom face on A's top one; the corner starts B's bottom edge, facing the end of A's top edge
  // (it runs left): A's top-left vertex.
  for (const bool across : {true, false}) {
    SCOPED_TRACE(across ? "corner beyond corner, across" : "corner beyond corner, up");
    const Shape a = Shape::box(0.5f, 0.5f);
    const Transform xb{across ? Vec2{1.06f, 1.02f} : Vec2{1.02f, 1.06f}, Rot::identity()};
    const int a_vertex = across ? vertex_at(a, {0.5f, -0.5f}) : vertex_at(a, {-0.5f, 0.5f});
    const Manifold m = pebble::collide(a, kId, box, xb, 0.1f);
    ASSERT_EQ(m.count, 1) << show(m);
    EXPECT_EQ(m.points[0].id, vertex_pair(a_vertex, bottom_left)) << show(m);
    // Swapped, B's face is the reference and A's corner the incident end: the name of the face
    // contact's other end, B's far vertex with A's corner (the two ends coincide in a corner pair;
    // docs/contacts.md: so collide(b, a) is not collide(a, b).flipped() in ids here).
    const int a_corner = vertex_at(a, {0.5f, 0.5f});
    const int b_far = across ? vertex_at(box, {-0.5f, 0.5f}) : vertex_at(box, {0.5f, -0.5f});
    const Manifold back = pebble::collide(box, xb, a, kId, 0.1f);
    ASSERT_EQ(back.count, 1) << show(back);
    EXPECT_EQ(back.points[0].id, vertex_pair(b_far, a_corner)) << show(back);
  }
  // A capsule lying on the face: its two ends, each with the face's vertex on its side.
  {
    const Shape capsule = Shape::capsule({-1, 0}, {1, 0}, 0.25f);
    const int left = vertex_at(capsule, {-1, 0}), right = vertex_at(capsule, {1, 0});
    ASSERT_GE(std::min(left, right), 0);
    const Manifold m = pebble::collide(ground, kId, capsule, Transform{{0.2f, 0.755f}, Rot::identity()}, margin);
    ASSERT_EQ(m.count, 2) << show(m);
    std::vector<std::uint32_t> want{vertex_pair(top_left, left), vertex_pair(top_right, right)};
    std::sort(want.begin(), want.end());
    EXPECT_EQ(ids_of(m), want) << show(m);
  }
  // Two capsules (2-vertex cores, the dedicated path; the upper one's points given right to left,
  // so that no id reads the same with its halves swapped): lying one on the other, each end names the
  // two ends on its side; the upper one tilted, its lower end alone, with the lower capsule's end on
  // that side (the same rule: the end of the incident edge and the reference end it faces).
  {
    const Shape under = Shape::capsule({-1, 0}, {1, 0}, 0.25f), over = Shape::capsule({0.5f, 0}, {-0.5f, 0}, 0.25f);
    const int ul = vertex_at(under, {-1, 0}), ur = vertex_at(under, {1, 0});
    const int ol = vertex_at(over, {-0.5f, 0}), orr = vertex_at(over, {0.5f, 0});
    ASSERT_GE(std::min({ul, ur, ol, orr}), 0);
    const Manifold flat = pebble::collide(under, kId, over, Transform{{0.1f, 0.505f}, Rot::identity()}, margin);
    ASSERT_EQ(flat.count, 2) << show(flat);
    std::vector<std::uint32_t> want{vertex_pair(ul, ol), vertex_pair(ur, orr)};
    std::sort(want.begin(), want.end());
    EXPECT_EQ(ids_of(flat), want) << show(flat);
    for (const float angle : {0.3f, -0.3f}) {
      SCOPED_TRACE("capsule angle " + std::to_string(angle));
      const Rot q = Rot::from_angle(angle);
      const int end = angle > 0 ? ol : orr;
      const float low = pebble::rotate(q, over.vertices()[std::size_t(end)]).y;
      const Transform xo{{0.1f, 0.5f + 0.005f - low}, q};
      const Manifold m = pebble::collide(under, kId, over, xo, margin);
      ASSERT_EQ(m.count, 1) << show(m);
      EXPECT_EQ(m.points[0].id, vertex_pair(angle > 0 ? ul : ur, end)) << show(m);
      const Manifold back = pebble::collide(over, xo, under, kId, margin);
      ASSERT_EQ(back.count, 1) << show(back);
      EXPECT_EQ(back.points[0].id, vertex_pair(end, angle > 0 ? ul : ur)) << show(back);
    }
  }
  // Circles: id 0 against anything, either way round.
  const Shape ball = Shape::circle(0.3f);
  const Transform on_top{{0.7f, 0.805f}, Rot::identity()};
  for (const Shape& other : {ground, box, Shape::capsule({-1, 0}, {1, 0}, 0.25f), Shape::circle(0.5f)}) {
    const Manifold m = pebble::collide(other, kId, ball, on_top, 1.0f);
    ASSERT_EQ(m.count, 1) << show(m);
    EXPECT_EQ(m.points[0].id, 0u) << show(m);
    const Manifold back = pebble::collide(ball, on_top, other, kId, 1.0f);
    ASSERT_EQ(back.count, 1) << show(back);
    EXPECT_EQ(back.points[0].id, 0u) << show(back);
  }
}
