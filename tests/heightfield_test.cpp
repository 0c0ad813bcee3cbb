// Heightfields (pebble/heightfield.hpp): the maker and its errors; the cells as chain segments
// with ghost vertices, tested as tests/chain_test.cpp tests chains (no ghost normal over a flat
// field, with plain segments as the control; over a gently varying field every normal a face
// normal or in a convex corner's fan, and the least separation the oracle's distance to the whole
// field); in a world: contacts, rays and shape casts against brute force over the cells (rays
// against the oracle's own front-side crossing), part ids naming the cell; and, with the sandbox,
// bodies sliding along a field and dropped onto a bumpy one.
#include <gtest/gtest.h>

#include <pebble/heightfield.hpp>
#include <pebble/world.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "oracle/distance.hpp"
#include "random_cases.hpp"
#include "random_shapes.hpp"
#include "to_oracle.hpp"

#ifdef PEBBLE_TEST_SANDBOX
#include "sandbox/stepper.hpp"
#endif

using namespace pebble;

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr int kScale = test_random::kSanitizerScale;

using oracle::V;
using test_oracle::to_oracle;

using test_random::random_body;

// Heights of a gently varying field: a random walk whose slope changes by at most `kink` per cell.
std::vector<float> bumpy_heights(test_random::Rng& rng, int count, float spacing, float kink, float max_slope) {
  std::vector<float> h;
  float y = 0, slope = 0;
  for (int i = 0; i < count; ++i) {
    h.push_back(y);
    slope = std::clamp(slope + float(rng.uniform(-kink, kink)), -max_slope, max_slope);
    y += slope * spacing;
  }
  return h;
}

// The cell i segment in world, in long double.
struct Segment {
  V a, b;
};
Segment world_cell(const Heightfield& field, const Transform& xf, int i) {
  const auto place = [&](Vec2 p) -> V {
    const long double x = p.x, y = p.y;
    return {xf.q.c * x - xf.q.s * y + xf.p.x, xf.q.s * x + xf.q.c * y + xf.p.y};
  };
  return {place(field.cell(i).a), place(field.cell(i).b)};
}

}  // namespace

TEST(Heightfield, MakerChecksItsInputAndNamesTheProblem) {
  const std::vector<float> h = {0, 1, 0.5f, 2};
  const Heightfield field = Heightfield::make(h, 0.5f);
  EXPECT_EQ(field.cell_count(), 3);
  EXPECT_EQ(field.spacing(), 0.5f);
  ASSERT_EQ(field.heights().size(), 4u);
  EXPECT_EQ(field.heights()[3], 2.0f);
  // Cell i runs from x_{i+1} to x_i (right to left), collides on its upper side, and knows the
  // points beyond its ends.
  const ChainSegment& c1 = field.cell(1);
  EXPECT_EQ(c1.a, (Vec2{1.0f, 0.5f}));
  EXPECT_EQ(c1.b, (Vec2{0.5f, 1.0f}));
  EXPECT_GT(c1.normal.y, 0);
  EXPECT_TRUE(c1.has_prev && c1.has_next);
  EXPECT_EQ(c1.ghost_prev, (Vec2{1.5f, 2.0f}));
  EXPECT_EQ(c1.ghost_next, (Vec2{0, 0}));
  EXPECT_TRUE(field.cell(0).has_prev);
  EXPECT_FALSE(field.cell(0).has_next);  // x = 0 is a free end
  EXPECT_FALSE(field.cell(2).has_prev);  // and so is the last point
  EXPECT_TRUE(field.cell(2).has_next);

  const auto throws = [](const std::vector<float>& heights, float spacing, const char* needle) {
    try {
      (void)Heightfield::make(heights, spacing);
      ADD_FAILURE() << "no throw for " << needle;
    } catch (const InvalidShape& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("Heightfield"), std::string::npos) << e.what();
    }
  };
  const float inf = std::numeric_limits<float>::infinity();
  throws({}, 1, "at least 2 heights");
  throws({1}, 1, "got 1");
  throws({0, 1, std::nanf(""), 2}, 1, "height 2 (nan)");
  throws({0, -inf}, 1, "height 1 (-inf)");
  throws({0, 2e7f}, 1, "height 1 (2e+07)");
  throws({0, 1}, 0, "spacing 0");
  throws({0, 1}, -1, "spacing -1");
  throws({0, 1}, std::nanf(""), "spacing nan");
  throws({0, 1}, inf, "spacing inf");
  throws({0, 1, 2}, 6e6f, "width");
  // Cells so short that their ends weld (a spacing of the smallest float).
  throws({0, 0, 0}, std::numeric_limits<float>::denorm_min(), "cell 0");
  // A cell longer than kMaxShapeExtent (a steep one at the widest spacing) is refused as a chain's
  // segment is; the limits themselves are fine.
  throws({0, kMaxShapeExtent}, kMaxShapeExtent, "cell 0 (x from 0 to 1e+07)");
  EXPECT_EQ(Heightfield::make(std::vector<float>{kMaxShapeExtent, kMaxShapeExtent}, kMaxShapeExtent).cell_count(), 1);
}

// The chain a heightfield is: chain() gives the same segments bit for bit (segment k is cell
// n-1-k), and a world of the field gives the same contacts as a world of that chain, with the cell
// as the part.
TEST(Heightfield, IsTheChainOfItsPointsWithCellsAsParts) {
  test_random::Rng rng(31);
  const std::vector<float> h = bumpy_heights(rng, 60, 0.4f, 0.3f, 0.6f);
  const Heightfield field = Heightfield::make(h, 0.4f);
  const Chain chain = field.chain();
  ASSERT_EQ(chain.segment_count(), field.cell_count());
  const int n = field.cell_count();
  for (int k = 0; k < n; ++k) {
    const ChainSegment &s = chain.segment(k), &c = field.cell(n - 1 - k);
    EXPECT_EQ(s.a, c.a);
    EXPECT_EQ(s.b, c.b);
    EXPECT_EQ(s.normal, c.normal);
    EXPECT_EQ(s.has_prev, c.has_prev);
    EXPECT_EQ(s.has_next, c.has_next);
    if (s.has_prev) {
      EXPECT_EQ(s.ghost_prev, c.ghost_prev);
    }
    if (s.has_next) {
      EXPECT_EQ(s.ghost_next, c.ghost_next);
    }
  }
  const float margin = 0.02f;
  CollisionWorld by_field(WorldSettings{.contact_margin = margin}), by_chain(WorldSettings{.contact_margin = margin});
  const Transform xs{{-3, 2}, Rot::from_angle(0.2f)};
  const ColliderId f = by_field.add(field, xs);
  const ColliderId c = by_chain.add(chain, xs);
  EXPECT_EQ(by_field.part_count(f), n);
  EXPECT_TRUE(by_field.options(f)->fixed);
  for (int i = 0; i < 200 / kScale; ++i) {
    const Shape b = random_body(rng, float(rng.log_uniform(0.1, 0.6)));
    const float x = float(rng.uniform(0, 0.4 * n));
    const int cell = std::min(n - 1, int(x / 0.4f));
    const float y = field.cell(cell).b.y + float(rng.uniform(-0.1, 0.8));
    const Transform xb = mul(xs, Transform{{x, y}, Rot::from_angle(float(rng.uniform(-kPi, kPi)))});
    by_field.add(b, xb);
    by_chain.add(b, xb);
  }
  by_field.update();
  by_chain.update();
  ASSERT_TRUE(by_field.validate());
  std::map<std::tuple<std::uint32_t, int>, Manifold> want;
  for (const ContactPair& p : by_chain.contacts())
    if (p.a == c) want[{p.b.index, n - 1 - p.part_a}] = p.manifold;  // the chain was added first
  EXPECT_EQ(by_field.contacts().size(), by_chain.contacts().size());
  EXPECT_GT(want.size(), 30u / kScale);
  std::size_t field_contacts = 0;
  for (const ContactPair& p : by_field.contacts()) {
    if (p.a != f) continue;
    ++field_contacts;
    const auto it = want.find({p.b.index, p.part_a});
    ASSERT_NE(it, want.end()) << "cell " << p.part_a;
    ASSERT_EQ(p.manifold.count, it->second.count);
    EXPECT_EQ(p.manifold.normal, it->second.normal);
    for (int k = 0; k < p.manifold.count; ++k) {
      EXPECT_EQ(p.manifold.points[k].point, it->second.points[k].point);
      EXPECT_EQ(p.manifold.points[k].separation, it->second.points[k].separation);
      EXPECT_EQ(p.manifold.points[k].id, it->second.points[k].id);
    }
  }
  EXPECT_EQ(field_contacts, want.size());
}

// chain_test's NoGhostNormalsOverAFlatFloor on a flat heightfield of 12 unit cells.
TEST(Heightfield, NoGhostNormalsOverAFlatField) {
  test_random::Rng rng(32);
  const Heightfield floor = Heightfield::make(std::vector<float>(13, 0.0f), 1.0f);
  const float margin = 0.02f;
  int ghosts_without = 0, cases = 0;
  for (int trial = 0; trial < 6000 / kScale; ++trial) {
    const float size = float(rng.log_uniform(0.05, 0.8));
    const Shape b = random_body(rng, size);
    const Transform xs{{float(rng.uniform(-50, 50)), float(rng.uniform(-50, 50))},
                       Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
    const float x = float(rng.integer(2, 10)) + float(rng.uniform(-1.2, 1.2)) * size;  // over a joint
    Transform local{{x, 0}, Rot::from_angle(float(rng.uniform(-0.4, 0.4)))};
    const long double lowest = -oracle::support(to_oracle(b, local), {0, -1});
    const float gap = float(rng.uniform(-0.05, 0.05)) * size + (rng.chance(0.2) ? margin : 0.0f);
    local.p.y = float(gap - lowest);
    const Transform xb = mul(xs, local);
    const long double true_gap = -oracle::support(to_oracle(b, local), {0, -1});
    const long double tol = 2e-3L * size + 1e-5L * 50;
    ++cases;
    long double least = 1e30L;
    bool any = false;
    for (int i = 0; i < floor.cell_count(); ++i) {
      const ChainSegment& s = floor.cell(i);
      const Manifold m = collide(s, xs, b, xb, margin);
      if (m.count == 0) continue;
      any = true;
      const Vec2 n = inv_rotate(xs.q, m.normal);
      EXPECT_NEAR(n.x, 0, 1e-3) << "trial " << trial << " cell " << i;
      EXPECT_NEAR(n.y, 1, 1e-6) << "trial " << trial;
      for (int k = 0; k < m.count; ++k) {
        const Vec2 p = inv_transform_point(xs, m.points[k].point);
        least = std::min<long double>(least, m.points[k].separation);
        EXPECT_NEAR(p.y, 0.5L * m.points[k].separation, tol) << "trial " << trial << ": not midway";
        EXPECT_GE(p.x, float(i) - tol) << "trial " << trial << ": beyond cell "
                                       << i;  // within the cell, x from i to i+1
        EXPECT_LE(p.x, float(i + 1) + tol) << "trial " << trial << ": beyond cell " << i;
      }
    }
    if (true_gap <= margin - tol) {
      ASSERT_TRUE(any) << "trial " << trial << ": no contact at gap " << double(true_gap);
      EXPECT_NEAR(least, true_gap, tol) << "trial " << trial;
    } else if (true_gap > margin + tol) {
      EXPECT_FALSE(any) << "trial " << trial;
    }
    // The control: the cells' plain segments show ghost normals at the joints.
    for (int i = 0; i < floor.cell_count(); ++i) {
      const Manifold m = collide(floor.cell(i).shape, xs, b, xb, margin);
      if (m.count > 0 && std::fabs(inv_rotate(xs.q, m.normal).x) > 1e-2f) {
        ++ghosts_without;
        break;
      }
    }
  }
  EXPECT_GT(ghosts_without, cases / 50) << "plain segments should show ghost normals at the joints";
}

// A gently varying field (kinks up to about 17 degrees, slopes up to 0.6) with bodies of every kind
// placed over its joints, from sunk 10% of their size to beyond the margin, against the oracle's
// long-double distance of the body to every cell (the field's surface is their union): each normal
// is its cell's face normal or lies in the fan of the convex corner the cell starts at (x_{i+1});
// each point lies midway between a point of its cell and a point of the body's surface; no contact
// beyond the margin, some contact within it, and the least separation equals the field's distance
// when the body is apart from it.
TEST(Heightfield, ContactsOverAGentleFieldAgreeWithTheOracle) {
  test_random::Rng rng(33);
  const float margin = 0.02f, spacing = 0.5f;
  int cases = 0, touching = 0;
  std::map<std::string, int> failures;
  Heightfield field = Heightfield::make(bumpy_heights(rng, 24, spacing, 0.3f, 0.6f), spacing);
  for (int trial = 0; trial < 6000 / kScale; ++trial) {
    if (trial % 200 == 199) field = Heightfield::make(bumpy_heights(rng, 24, spacing, 0.3f, 0.6f), spacing);
    const float size = float(rng.log_uniform(0.05, 0.6));
    const Shape b = random_body(rng, size);
    const Transform xs{{float(rng.uniform(-30, 30)), float(rng.uniform(-30, 30))},
                       Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
    const int joint = rng.integer(3, field.cell_count() - 3);
    const Vec2 j = field.point(joint);
    // Over the joint at a random tilt, its lowest point (straight down in the field's frame) at
    // about the joint's height plus a gap.
    Transform local{{j.x + float(rng.uniform(-1, 1)) * size, 0}, Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
    const long double lowest = -oracle::support(to_oracle(b, local), {0, -1});
    local.p.y = float(j.y - lowest + float(rng.uniform(-0.1, 0.06)) * size);
    const Transform xb = mul(xs, local);
    const oracle::RShape body = to_oracle(b, xb);
    const long double tol = 1e-3L * oracle::half_diameter(body) + 8e-7L * 40;
    const Vec2 c = to_vec2(transform_point(local, b.core_centroid()));  // in the field's frame
    long double whole = 1e30L;
    bool in_front = true;  // the body's centroid above every cell it spans
    for (int i = 0; i < field.cell_count(); ++i) {
      const ChainSegment& s = field.cell(i);
      whole = std::min(whole, oracle::distance(to_oracle(s.shape, xs), body).distance);
      if (c.x >= s.b.x && c.x <= s.a.x) in_front = in_front && dot(s.normal, c - s.a) > 0;
    }
    if (!in_front) continue;
    ++cases;
    long double least = 1e30L;
    int total = 0;
    std::vector<std::string> bad;
    for (int i = 0; i < field.cell_count(); ++i) {
      const ChainSegment& s = field.cell(i);
      const Manifold m = collide(s, xs, b, xb, margin);
      if (m.count == 0) continue;
      total += m.count;
      const Vec2 n = inv_rotate(xs.q, m.normal);
      const bool face = length(n - s.normal) < 1e-3f;
      const bool convex_start = s.has_prev && cross(s.a - s.ghost_prev, s.b - s.a) > 0;
      const bool fan =
          convex_start && cross(right_perp(s.a - s.ghost_prev), n) >= -1e-3f && cross(s.normal, n) <= 1e-3f;
      if (!face && !fan)
        bad.push_back("a normal neither its cell's face normal nor in the fan of the corner it starts at");
      for (int k = 0; k < m.count; ++k) {
        const ContactPoint& p = m.points[k];
        least = std::min<long double>(least, p.separation);
        if (p.separation > margin) bad.push_back("a separation above the margin");
        const Position on_body = p.point + 0.5f * p.separation * m.normal;
        const Vec2 on_cell = inv_transform_point(xs, p.point - 0.5f * p.separation * m.normal);
        if (std::fabs(oracle::signed_distance_to_surface(body, {on_body.x, on_body.y})) > tol)
          bad.push_back("a point not on the body's surface");
        if (oracle::closest_segments({on_cell.x, on_cell.y}, {on_cell.x, on_cell.y}, {s.a.x, s.a.y}, {s.b.x, s.b.y})
                .distance > tol)
          bad.push_back("a point not on its cell");
      }
    }
    if (whole > margin + tol && total > 0) bad.push_back("a contact beyond the margin");
    if (whole <= margin - tol && total == 0) bad.push_back("no contact within the margin");
    if (whole >= 0 && whole <= margin - tol && total > 0 && std::fabs(least - whole) > tol)
      bad.push_back("least separation not the field's distance");
    if (total > 0) ++touching;
    for (const std::string& what : bad)
      if (failures[what]++ == 0)
        ADD_FAILURE() << "trial " << trial << ": " << what << " (distance " << double(whole) << ", least "
                      << double(least) << ")";
  }
  for (const auto& [what, count] : failures) ADD_FAILURE() << count << " x " << what;
  EXPECT_GT(touching, cases / 3);
}

// The world's contacts with a field placed anywhere: collide() of every cell with every body (the
// brute force), with the cell index as the part; a field marked not fixed moves.
TEST(Heightfield, WorldContactsNameTheCell) {
  test_random::Rng rng(34);
  const float margin = 0.02f, spacing = 0.25f;
  const Heightfield field = Heightfield::make(bumpy_heights(rng, 121, spacing, 0.2f, 0.8f), spacing);
  CollisionWorld world(WorldSettings{.contact_margin = margin});
  const Transform xs{{7, -3}, Rot::from_angle(-0.4f)};
  const ColliderId id = world.add(field, xs, 42);
  EXPECT_EQ(world.options(id)->user_data, 42u);
  std::vector<std::pair<Shape, Transform>> bodies;
  std::vector<ColliderId> ids;
  for (int i = 0; i < 300 / kScale; ++i) {
    const Shape b = random_body(rng, float(rng.log_uniform(0.05, 0.5)));
    const int cell = rng.integer(0, field.cell_count() - 1);
    const Vec2 at = field.point(cell) + Vec2{float(rng.uniform(0, spacing)), float(rng.uniform(-0.2, 0.6))};
    const Transform xb = mul(xs, Transform{at, Rot::from_angle(float(rng.uniform(-kPi, kPi)))});
    bodies.push_back({b, xb});
    ids.push_back(world.add(b, xb));
  }
  world.update();
  std::map<std::tuple<int, std::uint32_t>, Manifold> got;
  for (const ContactPair& c : world.contacts())
    if (c.a == id) got[{c.part_a, c.b.index}] = c.manifold;
  std::size_t want = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    for (int k = 0; k < field.cell_count(); ++k) {
      const Manifold m = collide(field.cell(k), xs, bodies[i].first, bodies[i].second, margin);
      if (m.count == 0) continue;
      ++want;
      const auto it = got.find({k, ids[i].index});
      ASSERT_NE(it, got.end()) << "body " << i << " cell " << k;
      EXPECT_EQ(it->second.count, m.count);
      EXPECT_EQ(it->second.normal, m.normal);
    }
  }
  EXPECT_EQ(got.size(), want);
  EXPECT_GT(want, 50u / kScale);

  // Not fixed: it moves with set_transform, and its contacts follow.
  ColliderOptions moving;
  moving.fixed = false;
  CollisionWorld other;
  const ColliderId f = other.add(field, Transform::identity(), moving);
  EXPECT_FALSE(other.options(f)->fixed);
  const ColliderId ball =
      other.add(Shape::circle(0.1f), {{1.125f, 10.0f}, Rot::identity()});  // over the middle of cell 4
  other.update();
  EXPECT_TRUE(other.contacts().empty());
  const ChainSegment& four = field.cell(4);
  const float under =
      10.0f - 0.5f * (four.a.y + four.b.y) - 0.1f / four.normal.y + 0.001f;  // sunk 1 mm along the vertical
  ASSERT_TRUE(other.set_transform(f, {{0.0f, under}, Rot::identity()}));
  other.update();
  ASSERT_EQ(other.contacts().size(), 1u);
  EXPECT_TRUE(other.contacts()[0].b == ball || other.contacts()[0].a == ball);
  EXPECT_EQ(other.contacts()[0].a == f ? other.contacts()[0].part_a : other.contacts()[0].part_b, 4);
  EXPECT_FALSE(other.set_shape(f, Shape::circle(1)));  // a field's cells are not a shape to swap
}

// world.cast_ray against a field placed anywhere, against the oracle's own crossing of the ray with
// each cell's segment in long double, front side only (the ray starts above the cell's line and
// comes down through it): the closest crossing's fraction, point, normal and cell.
TEST(Heightfield, WorldRaysHitTheFrontSideAsTheOracleSays) {
  test_random::Rng rng(35);
  const float spacing = 0.3f;
  const Heightfield field = Heightfield::make(bumpy_heights(rng, 101, spacing, 0.3f, 1.0f), spacing);
  CollisionWorld world;
  const Transform xs{{-5, 8}, Rot::from_angle(0.7f)};
  const ColliderId id = world.add(field, xs);
  const int n = field.cell_count();
  int hits = 0, misses = 0, from_below = 0;
  for (int trial = 0; trial < 4000 / kScale; ++trial) {
    const Vec2 local_origin{float(rng.uniform(-2, 32)), float(rng.uniform(-8, 8))};
    const Vec2 local_dir = float(rng.uniform(0.5, 15)) * Vec2{float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))};
    const Ray ray{transform_point(xs, local_origin), rotate(xs.q, local_dir)};
    const V o{ray.origin.x, ray.origin.y}, d{ray.translation.x, ray.translation.y};
    long double best = 2;
    int best_cell = -1;
    std::vector<long double> fraction(std::size_t(n), 2);
    for (int i = 0; i < n; ++i) {
      const Segment s = world_cell(field, xs, i);
      const V e = s.b - s.a;
      const V normal{e.y, -e.x};  // the right side of a -> b (unnormalized: only signs and ratios are used)
      const long double front = oracle::dot(normal, o - s.a), along = oracle::dot(normal, d);
      if (!(front > 0 && along < 0)) continue;
      const long double t = -front / along;
      if (t > 1) continue;
      const V p = o + t * d;
      const long double u = oracle::dot(p - s.a, e) / oracle::dot(e, e);
      if (u < 0 || u > 1) continue;
      fraction[std::size_t(i)] = t;
      if (t < best) {
        best = t;
        best_cell = i;
      }
    }
    // Rays that start under the field (below the height at their x) pass through its back.
    const int under = std::clamp(int(local_origin.x / spacing), 0, n - 1);
    if (local_origin.x > 0 && local_origin.x < float(n) * spacing &&
        dot(field.cell(under).normal, local_origin - field.cell(under).a) < 0)
      ++from_below;
    const WorldCastResult hit = world.cast_ray(ray);
    if (best_cell < 0) {
      ++misses;
      EXPECT_FALSE(bool(hit)) << "trial " << trial << ": a hit at " << hit.hit.fraction << " on cell " << hit.part;
      continue;
    }
    ++hits;
    ASSERT_TRUE(bool(hit)) << "trial " << trial << ": the ray crosses cell " << best_cell << " at " << double(best);
    EXPECT_EQ(hit.id, id);
    const long double len = std::sqrt(oracle::dot(d, d));
    EXPECT_NEAR(hit.hit.fraction * len, best * len, 1e-4L) << "trial " << trial;
    // The cell: the oracle's, or a neighbour crossed at the same place (a ray through a joint).
    EXPECT_TRUE(hit.part == best_cell || std::fabs(fraction[std::size_t(hit.part)] - best) * len < 1e-4L)
        << "trial " << trial << ": cell " << hit.part << ", the oracle's " << best_cell;
    const V p = o + best * d;
    EXPECT_NEAR(hit.hit.point.x, p.x, 1e-4L);
    EXPECT_NEAR(hit.hit.point.y, p.y, 1e-4L);
    if (hit.part == best_cell) {
      EXPECT_LT(length(hit.hit.normal - rotate(xs.q, field.cell(best_cell).normal)), 1e-5f);
    }
  }
  EXPECT_GT(hits, 4000 / kScale / 40);
  EXPECT_GT(misses, 4000 / kScale / 10);
  EXPECT_GT(from_below, 0);
}

// world.cast_shape against a field: the brute force over the cells (cast_shape() on each cell's
// ChainSegment, front side only) gives the world's fraction and cell; and by the oracle, the body
// at the hit's fraction touches the field (its distance to the nearest cell within the contract's
// tolerance of 0), and no sampled time before it (or along a miss) has it overlapping the field.
TEST(Heightfield, WorldShapeCastsMatchTheCellsAndTouchTheField) {
  test_random::Rng rng(36);
  const float spacing = 0.4f;
  const Heightfield field = Heightfield::make(bumpy_heights(rng, 81, spacing, 0.25f, 0.7f), spacing);
  CollisionWorld world;
  const Transform xs{{3, -1}, Rot::from_angle(-0.3f)};
  world.add(field, xs);
  const int n = field.cell_count();
  int hits = 0, misses = 0;
  for (int trial = 0; trial < 1500 / kScale; ++trial) {
    const float size = float(rng.log_uniform(0.05, 0.5));
    const Shape b = random_body(rng, size);
    // Above the field's interior, moving mostly downwards, staying over it.
    const float x = float(rng.uniform(4, 28));
    const int cell = int(x / spacing);
    float top = -1e30f;  // the highest point of the field within reach
    for (int i = std::max(0, cell - 4); i <= std::min(n, cell + 5); ++i) top = std::max(top, field.point(i).y);
    const Vec2 local_at{x, top + size * 1.2f + float(rng.uniform(0, 2))};
    const Vec2 local_move{float(rng.uniform(-2, 2)), -float(rng.uniform(0, 4))};
    const Transform xb = mul(xs, Transform{local_at, Rot::from_angle(float(rng.uniform(-kPi, kPi)))});
    const Vec2 move = rotate(xs.q, local_move);
    float best = 2;
    int best_cell = -1;
    std::vector<float> fraction(std::size_t(n), 2);
    for (int i = 0; i < n; ++i) {
      const CastResult h = cast_shape(b, xb, move, field.cell(i), xs, {0, 0});
      if (h.hit) fraction[std::size_t(i)] = h.fraction;
      if (h.hit && h.fraction < best) {
        best = h.fraction;
        best_cell = i;
      }
    }
    const WorldCastResult hit = world.cast_shape(b, xb, move);
    ASSERT_EQ(bool(hit), best_cell >= 0) << "trial " << trial;
    const auto field_distance = [&](float t) {
      const oracle::RShape body = to_oracle(b, {xb.p + t * move, xb.q});
      long double d = 1e30L;
      for (int i = 0; i < n; ++i) d = std::min(d, oracle::distance(to_oracle(field.cell(i).shape, xs), body).distance);
      return d;
    };
    const long double tol = 1e-3L * size + 1e-5L;
    const float end = hit ? hit.hit.fraction : 1.0f;
    for (int k = 0; k < 8; ++k)
      EXPECT_GT(field_distance(end * float(k) / 8), -tol) << "trial " << trial << ": overlaps before the hit";
    if (!hit) {
      ++misses;
      EXPECT_GT(field_distance(1), -tol) << "trial " << trial;
      continue;
    }
    ++hits;
    EXPECT_EQ(hit.hit.fraction, best) << "trial " << trial;
    EXPECT_EQ(fraction[std::size_t(hit.part)], best)
        << "trial " << trial << ": cell " << hit.part << ", the brute force's "
        << best_cell;  // (a tie at a joint: either)
    EXPECT_NEAR(field_distance(hit.hit.fraction), 0.0L, tol) << "trial " << trial;
  }
  EXPECT_GT(hits, 1500 / kScale / 4);
  EXPECT_GT(misses, 1500 / kScale / 20);
}

#ifdef PEBBLE_TEST_SANDBOX

namespace {

constexpr float kDt = 1.0f / 60.0f;

// A body launched to the left without friction over a flat floor at y = 0 (x from 0 to 100): a
// 500-cell heightfield, or one long box top. Returns the largest sideways normal (sine) of its
// floor contacts, its largest vertical speed after the first steps, and the distance travelled.
struct Slide {
  float worst_normal = 0, worst_vertical_speed = 0, travelled = 0;
};
Slide slide(const Shape& shape, float speed, bool on_field) {
  using namespace pebble::sandbox;
  StepSettings settings;
  Stepper stepper(settings, make_pair_source(settings.margin));
  if (on_field) {
    stepper.add_heightfield(Heightfield::make(std::vector<float>(501, 0.0f), 0.2f), Transform::identity(), 0);
  } else {
    BodyDef ground;
    ground.shape = Shape::box(50, 0.5f);
    ground.xf = {{50, -0.5f}, Rot::identity()};
    ground.density = 0;
    ground.friction = 0;
    stepper.add(ground);
  }
  BodyDef def;
  def.shape = shape;
  def.xf = {{90, -bounds(shape, Transform::identity()).lower.y + 0.001f}, Rot::identity()};
  def.velocity = {-speed, 0};
  def.friction = 0;
  def.rolling_resistance = 0;
  const int body = stepper.add(def);
  Slide run;
  const float start = stepper.bodies()[std::size_t(body)].center.x;
  for (int i = 0; i < int(3 / kDt); ++i) {
    stepper.step(kDt);
    const Body& b = stepper.bodies()[std::size_t(body)];
    if (b.center.x < 5) break;
    for (const BodyContact& c : stepper.contacts())
      run.worst_normal = std::max(run.worst_normal, std::fabs(c.manifold.normal.x));
    if (i > 10) run.worst_vertical_speed = std::max(run.worst_vertical_speed, std::fabs(b.velocity.y));
    run.travelled = start - b.center.x;
  }
  return run;
}

}  // namespace

// The sandbox's Ghosts runs on a heightfield: a box, a rounded box, a capsule, a circle and a small
// box sliding at 1, 5 and 15 m/s over 500 flat cells behave as on one long segment.
TEST(Heightfield, NothingCatchesOnAFlatFieldAtAnySpeed) {
  const std::vector<std::pair<const char*, Shape>> sliders = {{"box", Shape::box(0.4f, 0.25f)},
                                                              {"rounded box", Shape::rounded_box(0.4f, 0.25f, 0.05f)},
                                                              {"capsule", Shape::capsule({-0.4f, 0}, {0.4f, 0}, 0.15f)},
                                                              {"circle", Shape::circle(0.3f)},
                                                              {"small box", Shape::box(0.1f, 0.1f)}};
  for (const auto& [name, shape] : sliders) {
    for (const float speed : {1.0f, 5.0f, 15.0f}) {
      SCOPED_TRACE(std::string(name) + " at " + std::to_string(speed) + " m/s");
      const Slide flat = slide(shape, speed, false), field = slide(shape, speed, true);
      EXPECT_LT(field.worst_normal, 1e-3f);
      EXPECT_LT(field.worst_vertical_speed, 2 * flat.worst_vertical_speed + 0.02f);
      EXPECT_NEAR(field.travelled, flat.travelled, 0.01f * flat.travelled + 0.01f);
    }
  }
}

// Bodies of every kind dropped onto a bumpy field (a random walk, kinks up to about 11 degrees)
// come to rest on it: none falls through (each rests above the field's surface under it, by the
// oracle's distance to the cells, no deeper than the stepper's slop), none is left moving, and
// every contact with the field names a cell the body lies over.
TEST(Heightfield, BodiesDroppedOnABumpyFieldComeToRest) {
  using namespace pebble::sandbox;
  test_random::Rng rng(37);
  const float spacing = 0.25f;
  const Heightfield field = Heightfield::make(bumpy_heights(rng, 161, spacing, 0.2f, 0.35f), spacing);
  StepSettings settings;
  Stepper stepper(settings, make_pair_source(settings.margin));
  // Walls at both ends, so that nothing rolls off.
  const int ground = stepper.add_heightfield(field);
  BodyDef wall;
  wall.density = 0;
  wall.shape = Shape::box(0.5f, 20);
  wall.xf = {{-0.5f, field.heights()[0]}, Rot::identity()};
  stepper.add(wall);
  wall.xf = {{40.5f, field.heights()[160]}, Rot::identity()};
  stepper.add(wall);
  std::vector<int> bodies;
  for (int i = 0; i < 40; ++i) {
    BodyDef def;
    def.shape = random_body(rng, float(rng.uniform(0.15, 0.4)));
    const float x = 1 + float(i) * 0.95f;
    def.xf = {{x, field.point(int(x / spacing)).y + 1.5f + float(rng.uniform(0, 2))},
              Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
    def.rolling_resistance = 0.2f;
    bodies.push_back(stepper.add(def));
  }
  for (int i = 0; i < int(8 / kDt); ++i) stepper.step(kDt);
  EXPECT_LT(stepper.max_point_speed(), 0.05f);
  for (const int i : bodies) {
    const Body& b = stepper.bodies()[std::size_t(i)];
    ASSERT_GT(b.center.x, 0);
    ASSERT_LT(b.center.x, 40);
    long double d = 1e30L;
    for (int k = 0; k < field.cell_count(); ++k)
      d = std::min(
          d,
          oracle::distance(to_oracle(field.cell(k).shape, Transform::identity()), to_oracle(b.shape, b.xf)).distance);
    EXPECT_GT(d, -2.0L * kLinearSlop) << "body " << i << " sunk into the field";
    // Above the surface, not under it: the body's centre is above the field's height there.
    const int cell = std::min(field.cell_count() - 1, int(b.center.x / spacing));
    const ChainSegment& s = field.cell(cell);
    EXPECT_GT(dot(s.normal, b.center - s.a), 0) << "body " << i << " fell through";
  }
  int field_contacts = 0;
  for (const BodyContact& c : stepper.contacts()) {
    if (c.a != ground) continue;
    ++field_contacts;
    const Body& b = stepper.bodies()[std::size_t(c.b)];
    const Aabb box = bounds(b.shape, b.xf);
    ASSERT_GE(c.part_a, 0);
    ASSERT_LT(c.part_a, field.cell_count());
    // The cell named lies under the body.
    EXPECT_LE(float(c.part_a) * spacing, box.upper.x + settings.margin);
    EXPECT_GE(float(c.part_a + 1) * spacing, box.lower.x - settings.margin);
  }
  EXPECT_GE(field_contacts, 30);
}

#endif  // PEBBLE_TEST_SANDBOX
