// Large worlds and small shapes (issue 15, item 3): every query, on the same relative
// configurations placed at the origin and at coordinates 1e4, and scaled to size 0.01, against the
// long double oracle (tests/oracle/). The answers that do not depend on where the scene sits (a
// distance, a separation, a fraction times the motion's length, a normal's direction, a yes/no)
// must keep the contract's 1e-3 x size at 1e4; the world points an answer returns may in addition
// be off by the float rounding of their own coordinates (nothing finer exists at 1e4).
//
// LARGE_WORLD_SWEEP=1 ./large_world_test --gtest_filter=*Sweep* prints, per query, the worst error
// at offsets 2^0 .. 2^30 for sizes 1 and 0.01 and the largest offset at which it holds
// (docs/robustness.md quotes that table).
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <pebble/cast.hpp>
#include <pebble/distance.hpp>
#include <pebble/manifold.hpp>
#include <pebble/point.hpp>
#include <pebble/ray.hpp>
#include <pebble/world.hpp>

#include "cast_cases.hpp"
#include "oracle/cast.hpp"
#include "oracle/projection.hpp"

using namespace cast_cases;

namespace {

/// The contract's accuracy: 1e-3 x the smaller shape's size (half diameter).
constexpr real kAccuracy = 1e-3L;

/// The worst error of one query over a case set, in units of the smaller shape's size.
struct Score {
  real invariant = 0;  ///< distances, separations, fractions x motion length, normal angles (rad)
  real points = 0;     ///< world points, beyond the float rounding of their own coordinates
  int wrong = 0;       ///< yes/no answers (hit, overlap, contact, containment) that disagree with
                       ///< an oracle clear of the decision by more than kAccuracy x size
  int cases = 0;
  std::string worst;  ///< what the worst case was, for a failure message
  void add_invariant(real e, const std::string& what) {
    if (e > invariant) {
      invariant = e;
      if (e > kAccuracy) worst = what;
    }
  }
  void add_point(real e, const std::string& what) {
    if (e > points) {
      points = e;
      if (e > kAccuracy) worst = what;
    }
  }
  bool holds() const { return invariant <= kAccuracy && points <= kAccuracy && wrong == 0; }
};

/// How far a world point may be from the exact one by rounding its coordinates alone (to float,
/// or to double in a build with double positions).
real rounding(pebble::Position p) {
  return real(std::numeric_limits<pebble::Coordinate>::epsilon()) * (std::fabs(p.x) + std::fabs(p.y));
}

/// Error of world point p against the exact q, beyond p's own rounding, in units of size.
real point_error(pebble::Position p, V q, real size) {
  return std::max<real>(0, oracle::length(v(p) - q) - rounding(p)) / size;
}

Transform shifted(Transform xf, Vec2 by) { return {{xf.p.x + by.x, xf.p.y + by.y}, xf.q}; }
Vec2 vec(V p) { return {float(p.x), float(p.y)}; }
real smaller_size(const oracle::RShape& a, const oracle::RShape& b) {
  return std::min(oracle::half_diameter(a), oracle::half_diameter(b));
}
std::string at(const char* what, const Pair& p) { return std::string(what) + ": " + describe(p); }

/// Pairs of every kind near contact, generated at the origin (so the same relative
/// configurations at every offset) for shapes of the given size.
std::vector<Pair> base_pairs(unsigned seed, float size, int per_pair) {
  std::mt19937 rng(seed);
  std::vector<Pair> out;
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < per_pair; ++i) out.push_back(random_pair(ka, kb, rng, size, {}, 2));
    }
  }
  return out;
}

/// The motions of a pair: B starts back along m by half of it, so that the placed configuration
/// (near contact) is reached half way; A drifts a little.
struct Moving {
  Pair pair;  ///< at t = 0
  Vec2 ta, tb;
  float spin_a, spin_b;  ///< for time_of_impact
};

std::vector<Moving> base_motions(const std::vector<Pair>& pairs, unsigned seed, float size) {
  std::mt19937 rng(seed);
  std::vector<Moving> out;
  for (const Pair& p : pairs) {
    const V d = random_direction(rng);
    const Vec2 m{float(d.x * 3 * size), float(d.y * 3 * size)};
    const Vec2 ta{uniform(rng, -0.2f, 0.2f) * size, uniform(rng, -0.2f, 0.2f) * size};
    Pair start = p;
    start.xb.p = start.xb.p - 0.5f * m + 0.5f * ta;
    out.push_back({start, ta, m + ta, uniform(rng, -0.5f, 0.5f), uniform(rng, -0.5f, 0.5f)});
  }
  return out;
}

// --- The queries, each scored on one case set placed at `offset`. -------------------------------

/// A pair moved by offset, with its oracle shapes and the smaller size.
struct Placed {
  Pair p;
  oracle::RShape wa, wb;
  real size;
};

Placed placed(const Pair& base, Vec2 offset) {
  Pair p = base;
  p.xa = shifted(base.xa, offset), p.xb = shifted(base.xb, offset);
  oracle::RShape wa = world(p.a, p.xa), wb = world(p.b, p.xb);
  const real size = smaller_size(wa, wb);
  return {std::move(p), std::move(wa), std::move(wb), size};
}

Score score_distance(const std::vector<Pair>& base, Vec2 offset) {
  Score s;
  for (const Pair& b : base) {
    const Placed pl = placed(b, offset);
    const Pair& p = pl.p;
    const oracle::RShape &wa = pl.wa, &wb = pl.wb;
    const real size = pl.size;
    const oracle::DistanceAnswer o = oracle::distance(wa, wb, kAccuracy * size, 1e-2L * size);
    const pebble::DistanceResult r = pebble::distance(p.a.shape, p.xa, p.b.shape, p.xb);
    ++s.cases;
    s.add_invariant(std::fabs(r.distance - o.distance) / size, at("distance", p));
    if (o.normal_unique)
      s.add_invariant(angle_between(oracle::normalize(v(r.normal)), o.normal), at("distance normal", p));
    const real ea = std::fabs(oracle::signed_distance_to_surface(wa, v(r.point_a))) - rounding(r.point_a);
    const real eb = std::fabs(oracle::signed_distance_to_surface(wb, v(r.point_b))) - rounding(r.point_b);
    s.add_point(std::max<real>({0, ea, eb}) / size, at("distance points", p));
  }
  return s;
}

Score score_overlap(const std::vector<Pair>& base, Vec2 offset) {
  Score s;
  for (const Pair& b : base) {
    const Placed pl = placed(b, offset);
    const Pair& p = pl.p;
    const oracle::RShape &wa = pl.wa, &wb = pl.wb;
    const real size = pl.size;
    const real d = oracle::signed_distance_between(wa, wb);
    ++s.cases;
    if (std::fabs(d) > kAccuracy * size && pebble::overlap(p.a.shape, p.xa, p.b.shape, p.xb) != (d <= 0)) ++s.wrong;
  }
  return s;
}

Score score_collide(const std::vector<Pair>& base, Vec2 offset) {
  Score s;
  for (const Pair& b : base) {
    const Placed pl = placed(b, offset);
    const Pair& p = pl.p;
    const oracle::RShape &wa = pl.wa, &wb = pl.wb;
    const real size = pl.size;
    const float margin = float(0.1L * size);
    const oracle::DistanceAnswer o = oracle::distance(wa, wb, kAccuracy * size, 1e-2L * size);
    const pebble::Manifold m = pebble::collide(p.a.shape, p.xa, p.b.shape, p.xb, margin);
    ++s.cases;
    if (std::fabs(o.distance - margin) > kAccuracy * size && (m.count > 0) != (o.distance <= margin)) ++s.wrong;
    if (m.count == 0) continue;
    real least = HUGE_VALL;
    for (int i = 0; i < m.count; ++i) least = std::min<real>(least, m.points[i].separation);
    s.add_invariant(std::fabs(least - o.distance) / size, at("collide least separation", p));
    if (o.normal_unique)
      s.add_invariant(angle_between(oracle::normalize(v(m.normal)), o.normal), at("collide normal", p));
    // Each point is midway between the surfaces: its separation is the gap along the normal.
    const V n = oracle::normalize(v(m.normal));
    for (int i = 0; i < m.count; ++i) {
      const V c = v(m.points[i].point), half = real(m.points[i].separation) / 2 * n;
      const real ea = std::fabs(oracle::signed_distance_to_surface(wa, c - half));
      const real eb = std::fabs(oracle::signed_distance_to_surface(wb, c + half));
      // A surface point of a speculative or penetrating contact lies on the surface only up to the
      // normal's tilt across the manifold: the contract tolerance of collide() (size x angle).
      s.add_point(std::max<real>(0, std::max(ea, eb) - rounding(m.points[i].point)) / size / 2, at("collide point", p));
    }
  }
  return s;
}

Score score_point(const std::vector<Pair>& base, Vec2 offset, unsigned seed) {
  Score s;
  std::mt19937 rng(seed);
  for (const Pair& b : base) {
    const Transform xf = shifted(b.xa, offset);
    const oracle::RShape w = world(b.a, xf);
    const real size = oracle::half_diameter(w);
    for (int k = 0; k < 3; ++k) {
      const pebble::Position q =
          b.xa.p + Vec2{uniform(rng, -2, 2) * float(size), uniform(rng, -2, 2) * float(size)} + offset;
      const oracle::Projection o = oracle::project(w, v(q));
      const pebble::ProjectionResult r = pebble::project_point(b.a.shape, xf, q);
      const std::string what = "project_point " + lit(q) + " on " + b.a.maker + " at " + lit(xf);
      ++s.cases;
      s.add_invariant(std::fabs(r.distance - o.distance) / size, what);
      if (o.normal_margin > 1e-2L * size) s.add_invariant(angle_between(v(r.normal), o.normal), what + " (normal)");
      s.add_point(point_error(r.point, o.point, size), what + " (point)");
      if (std::fabs(o.distance) > kAccuracy * size &&
          (r.inside != o.inside || pebble::contains(b.a.shape, xf, q) != o.inside))
        ++s.wrong;
    }
  }
  return s;
}

/// The level at which the oracle's searches count a touch: a ray across a segment (no area) comes
/// to distance 0 at one instant only, which a search in long double lands on to about 1e-19.
constexpr real kTouchLevel = 1e-9L;

/// First fraction at which a disc of radius `radius` moving along the ray touches w (the signed
/// distance to the surface is convex along a line), and how close it comes at best.
std::pair<real, real> oracle_ray(const oracle::RShape& w, V origin, V translation, real radius) {
  const oracle::ConvexTrack track(
      [&](real t) { return oracle::signed_distance_to_surface(w, origin + t * translation) - radius; });
  return {track.first_at_or_below(kTouchLevel * oracle::half_diameter(w)), track.least()};
}

Score score_ray(const std::vector<Pair>& base, Vec2 offset, unsigned seed, bool circle) {
  Score s;
  std::mt19937 rng(seed);
  for (const Pair& b : base) {
    const Transform xf = shifted(b.xa, offset);
    const oracle::RShape w = world(b.a, xf);
    const real size = oracle::half_diameter(w);
    const V from = random_direction(rng), aim{uniform(rng, -1, 1) * size, uniform(rng, -1, 1) * size};
    const pebble::Position origin = xf.p + vec(3 * size * from);
    const Vec2 translation = vec(aim - 3 * size * from) * uniform(rng, 0.5f, 2);
    const float radius = circle ? float(size) * uniform(rng, 0.05f, 0.5f) : 0;
    const pebble::CastResult h = pebble::cast_ray(b.a.shape, xf, {origin, translation}, radius);
    const auto [t, least] = oracle_ray(w, v(origin), v(translation), radius);
    const real length = oracle::length(v(translation));
    const std::string what = std::string(circle ? "circle cast " : "raycast ") + lit(origin) + " + " +
                             lit(translation) + " r " + lit(radius) + " on " + b.a.maker + " at " + lit(xf);
    ++s.cases;
    if (std::fabs(least) > kAccuracy * size && h.hit != (t >= 0)) ++s.wrong;
    if (!h.hit || t < 0) continue;
    s.add_invariant(std::fabs(h.fraction - t) * length / size, what);
    // The point is where the disc touches the shape, on its surface; a disc that starts touching
    // or overlapping hits at fraction 0 with point = origin (ray.hpp). (Such starts come up where
    // the shape's core lies far from its frame's origin; the ARM64 build's inputs found one.)
    const bool starts_touching = oracle::signed_distance_to_surface(w, v(origin)) - radius <= kAccuracy * size;
    if (h.fraction == 0 && starts_touching) {
      s.add_point(oracle::length(v(h.point) - v(origin)) / size, what + " (point at a start touching)");
      continue;
    }
    s.add_point(
        std::max<real>(0, std::fabs(oracle::signed_distance_to_surface(w, v(h.point))) - rounding(h.point)) / size,
        what + " (point)");
  }
  return s;
}

/// The pair's signed distance with A moved by da and B by db (oracle).
real moved_distance(const oracle::RShape& wa, const oracle::RShape& wb, V da, V db) {
  oracle::RShape a = wa, b = wb;
  for (V& p : a.core) p = p + da;
  for (V& p : b.core) p = p + db;
  return oracle::signed_distance_between(a, b);
}

/// target: the options' target separation, as a fraction of the smaller size (0: first touch).
Score score_shape_cast(const std::vector<Moving>& base, Vec2 offset, real target_fraction) {
  Score s;
  for (const Moving& mv : base) {
    const Placed pl = placed(mv.pair, offset);
    const Pair& p = pl.p;
    const oracle::RShape &wa = pl.wa, &wb = pl.wb;
    const real size = pl.size;
    const float target = float(target_fraction * size);
    const oracle::ConvexTrack track(
        [&](real t) { return moved_distance(wa, wb, t * v(mv.ta), t * v(mv.tb)) - target; });
    const real t = track.first_at_or_below(kTouchLevel * size);
    const pebble::CastResult h = pebble::cast_shape(p.a.shape, p.xa, mv.ta, p.b.shape, p.xb, mv.tb, {target});
    const std::string what = "shape_cast (target " + lit(target) + ")";
    ++s.cases;
    if (std::fabs(track.least()) > kAccuracy * size && h.hit != (t >= 0)) ++s.wrong;
    if (!h.hit || t < 0) continue;
    const real length = oracle::length(v(mv.tb - mv.ta));
    if (t == 0) continue;  // within the target at the start: the point is from distance()
    s.add_invariant(std::fabs(h.fraction - t) * length / size, at(what.c_str(), p));
    // The point is midway between the surfaces at the time of the hit, target / 2 from each.
    const V pa = real(h.fraction) * v(mv.ta), pb = real(h.fraction) * v(mv.tb);
    oracle::RShape ma = wa, mb = wb;
    for (V& q : ma.core) q = q + pa;
    for (V& q : mb.core) q = q + pb;
    const real e = std::max(std::fabs(oracle::signed_distance_to_surface(ma, v(h.point)) - real(target) / 2),
                            std::fabs(oracle::signed_distance_to_surface(mb, v(h.point)) - real(target) / 2));
    s.add_point(std::max<real>(0, e - rounding(h.point)) / size, at((what + " point").c_str(), p));
  }
  return s;
}

/// The shape's core relative to its rotation centre (the transform's origin), for oracle::Motion.
oracle::RShape centred(const ShapeSpec& s) { return world(s, Transform{}); }

Score score_toi(const std::vector<Moving>& base, Vec2 offset) {
  Score s;
  for (const Moving& mv : base) {
    Pair p = mv.pair;
    p.xa = shifted(p.xa, offset), p.xb = shifted(p.xb, offset);
    const float aa = p.xa.q.angle(), ab = p.xb.q.angle();
    const pebble::Sweep sa{{}, p.xa.p, p.xa.p + mv.ta, aa, aa + mv.spin_a};
    const pebble::Sweep sb{{}, p.xb.p, p.xb.p + mv.tb, ab, ab + mv.spin_b};
    const oracle::Motion ma{v(sa.c0), v(sa.c1), sa.a0, sa.a1}, mb{v(sb.c0), v(sb.c1), sb.a0, sb.a1};
    const oracle::RShape ca = centred(p.a), cb = centred(p.b);
    const real size = smaller_size(ca, cb);
    const pebble::ToiResult r = pebble::time_of_impact(p.a.shape, sa, p.b.shape, sb);
    const oracle::FirstTouch o = oracle::first_time_at_or_below(ca, ma, cb, mb, 0, 1, 1e-7L);
    real least = HUGE_VALL;
    for (int i = 0; i <= 200; ++i) least = std::min(least, oracle::moving_distance(ca, ma, cb, mb, i / 200.0L));
    ++s.cases;
    const bool touched = r.state == pebble::ToiResult::State::hit || r.state == pebble::ToiResult::State::overlapped;
    if (std::fabs(least) > kAccuracy * size && r.state != pebble::ToiResult::State::failed &&
        touched != (o.certain >= 0))
      ++s.wrong;
    if (r.state != pebble::ToiResult::State::hit) continue;
    // A hit stops within the tolerance (kToiToleranceFraction x the smaller extent, at most
    // kToiTolerance) above contact, and never after the first touch.
    const real tolerance = std::min<real>(
        pebble::kToiToleranceFraction * std::min(p.a.shape.extent(), p.b.shape.extent()), pebble::kToiTolerance);
    const real d = oracle::moving_distance(ca, ma, cb, mb, r.fraction);
    s.add_invariant((std::max<real>(0, -d) + std::max<real>(0, d - tolerance)) / size, at("time_of_impact", p));
    if (o.certain >= 0 && r.fraction > o.certain + 1e-6L)
      s.add_invariant(1, at("time_of_impact after the first touch", p));
  }
  return s;
}

Score score_approach(const std::vector<Moving>& base, Vec2 offset) {
  Score s;
  for (const Moving& mv : base) {
    const Placed pl = placed(mv.pair, offset);
    const Pair& p = pl.p;
    const oracle::RShape &wa = pl.wa, &wb = pl.wb;
    const real size = pl.size;
    const oracle::ConvexTrack track([&](real t) { return moved_distance(wa, wb, t * v(mv.ta), t * v(mv.tb)); });
    const pebble::ApproachResult r = pebble::closest_approach(p.a.shape, p.xa, mv.ta, p.b.shape, p.xb, mv.tb, 1);
    ++s.cases;
    if (std::fabs(track.least()) > kAccuracy * size && r.hit != (track.least() <= kTouchLevel * size)) ++s.wrong;
    const real speed = oracle::length(v(mv.tb - mv.ta));
    if (r.hit && track.least() <= kTouchLevel * size) {
      s.add_invariant(std::fabs(r.time - track.first_at_or_below(kTouchLevel * size)) * speed / size,
                      at("closest_approach time", p));
    } else if (!r.hit && track.least() > kTouchLevel * size) {
      s.add_invariant(std::fabs(r.distance - track.least()) / size, at("closest_approach distance", p));
    }
    // The distance it reports is the distance at the time it reports.
    s.add_invariant(std::fabs(r.distance - track.at(r.time)) / size, at("closest_approach distance at its time", p));
  }
  return s;
}

/// A cluster of colliders of the given size around `offset`: contacts after update(), ray, circle
/// and shape casts through it, shape, distance and point queries, against the oracle over every
/// collider.
Score score_world(unsigned seed, float size, Vec2 offset, bool contacts) {
  Score s;
  std::mt19937 rng(seed);
  pebble::WorldSettings settings;
  settings.contact_margin = 0.1f * size;
  pebble::CollisionWorld world(settings);
  std::vector<ShapeSpec> shapes;
  std::vector<Transform> xfs;
  std::vector<pebble::ColliderId> ids;
  for (int i = 0; i < 40; ++i) {
    shapes.push_back(random_shape(kAllKinds[i % 7], rng, size * uniform(rng, 0.5f, 1.5f)));
    xfs.push_back({offset + Vec2{uniform(rng, -6, 6) * size, uniform(rng, -6, 6) * size},
                   Rot::from_angle(uniform(rng, -3.14159265f, 3.14159265f))});
    ids.push_back(world.add(shapes.back().shape, xfs.back(), std::uint64_t(i)));
  }
  world.update();
  std::vector<oracle::RShape> ws;
  for (int i = 0; i < 40; ++i) ws.push_back(::contact_cases::world(shapes[i], xfs[i]));
  auto index_of = [&](pebble::ColliderId id) { return id.index; };
  if (contacts) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, float> found;
    for (const pebble::ContactPair& c : world.contacts()) {
      float least = HUGE_VALF;
      for (int i = 0; i < c.manifold.count; ++i) least = std::min(least, c.manifold.points[i].separation);
      found[{std::min(c.a.index, c.b.index), std::max(c.a.index, c.b.index)}] = least;
    }
    for (int i = 0; i < 40; ++i) {
      for (int j = i + 1; j < 40; ++j) {
        const real size_ij = smaller_size(ws[i], ws[j]);
        const real d = oracle::signed_distance_between(ws[i], ws[j]);
        const auto it =
            found.find({std::min(index_of(ids[i]), index_of(ids[j])), std::max(index_of(ids[i]), index_of(ids[j]))});
        ++s.cases;
        if (std::fabs(d - settings.contact_margin) > kAccuracy * size_ij &&
            (it != found.end()) != (d <= settings.contact_margin))
          ++s.wrong;
        if (it != found.end()) {
          s.add_invariant(std::fabs(it->second - d) / size_ij, "world contact " + shapes[i].maker + " at " +
                                                                   lit(xfs[i]) + " and " + shapes[j].maker + " at " +
                                                                   lit(xfs[j]));
        }
      }
    }
    return s;
  }
  // Ray, circle and shape casts through the cluster: the closest hit is the least first-touch
  // fraction over every collider.
  for (int k = 0; k < 60; ++k) {
    const int kind = k % 3;  // 0 ray, 1 circle, 2 shape
    const V from = random_direction(rng);
    const Vec2 origin = offset + vec(8 * real(size) * from);
    const Vec2 translation =
        vec(-16 * real(size) * from) + Vec2{uniform(rng, -3, 3) * size, uniform(rng, -3, 3) * size};
    const float radius = kind == 1 ? size * uniform(rng, 0.05f, 0.5f) : 0;
    const ShapeSpec probe = random_shape(kAllKinds[k % 7], rng, size * uniform(rng, 0.3f, 1));
    const Transform probe_xf{origin, Rot::from_angle(uniform(rng, -3.14159265f, 3.14159265f))};
    const oracle::RShape wp = ::contact_cases::world(probe, probe_xf);
    real best = HUGE_VALL, best_size = size;
    bool clear_hit = false, clear_miss = true;
    for (int i = 0; i < 40; ++i) {
      const real size_i = kind == 2 ? smaller_size(wp, ws[i]) : oracle::half_diameter(ws[i]);
      real t = -1, least = 0;
      if (kind == 2) {
        const oracle::ConvexTrack track([&](real u) { return moved_distance(wp, ws[i], u * v(translation), {}); });
        t = track.first_at_or_below(kTouchLevel * size_i), least = track.least();
      } else {
        std::tie(t, least) = oracle_ray(ws[i], v(origin), v(translation), radius);
      }
      clear_hit = clear_hit || least < -kAccuracy * size_i;
      clear_miss = clear_miss && least > kAccuracy * size_i;
      if (t >= 0 && t < best) best = t, best_size = size_i;
    }
    const pebble::WorldCastResult r = kind == 0   ? world.cast_ray({origin, translation})
                                      : kind == 1 ? world.cast_circle({origin, translation}, radius)
                                                  : world.cast_shape(probe.shape, probe_xf, translation);
    const real length = oracle::length(v(translation));
    const std::string what = std::string(kind == 0   ? "world cast_ray "
                                         : kind == 1 ? "world cast_circle "
                                                     : "world cast_shape ") +
                             lit(origin) + " + " + lit(translation) + (kind == 2 ? " " + probe.maker : "");
    ++s.cases;
    if (bool(r) ? clear_miss : clear_hit) ++s.wrong;
    if (bool(r) && best <= 1) s.add_invariant(std::fabs(r.hit.fraction - best) * length / best_size, what);
  }
  // overlap_shape and within_distance with a probe shape placed in the cluster.
  for (int k = 0; k < 40; ++k) {
    const ShapeSpec probe = random_shape(kAllKinds[k % 7], rng, size * uniform(rng, 0.3f, 1.5f));
    const Transform probe_xf{offset + Vec2{uniform(rng, -6, 6) * size, uniform(rng, -6, 6) * size},
                             Rot::from_angle(uniform(rng, -3.14159265f, 3.14159265f))};
    const oracle::RShape wp = ::contact_cases::world(probe, probe_xf);
    const float within = k % 2 == 0 ? 0 : 0.2f * size;
    std::set<std::uint32_t> hits;
    const auto collect = [&](pebble::ColliderId id) {
      hits.insert(id.index);
      return true;
    };
    if (within == 0)
      world.overlap_shape(probe.shape, probe_xf, collect);
    else
      world.within_distance(probe.shape, probe_xf, within, collect);
    for (int i = 0; i < 40; ++i) {
      const real d = oracle::signed_distance_between(wp, ws[i]);
      ++s.cases;
      if (std::fabs(d - within) > kAccuracy * smaller_size(wp, ws[i]) &&
          (hits.count(index_of(ids[i])) > 0) != (d <= within))
        ++s.wrong;
    }
  }
  for (int k = 0; k < 200; ++k) {
    const Vec2 q = offset + Vec2{uniform(rng, -7, 7) * size, uniform(rng, -7, 7) * size};
    std::set<std::uint32_t> hits;
    world.overlap_point(q, [&](pebble::ColliderId id) {
      hits.insert(id.index);
      return true;
    });
    for (int i = 0; i < 40; ++i) {
      const real d = oracle::signed_distance_to_surface(ws[i], v(q));
      ++s.cases;
      if (std::fabs(d) > kAccuracy * oracle::half_diameter(ws[i]) && (hits.count(index_of(ids[i])) > 0) != (d <= 0))
        ++s.wrong;
    }
  }
  return s;
}

// --- Case sets and the scores of every query at one placement. ----------------------------------

struct CaseSet {
  float size;
  std::vector<Pair> pairs;
  std::vector<Moving> motions;
};

const CaseSet& cases(float size) {
  static std::map<float, CaseSet> sets;
  auto it = sets.find(size);
  if (it == sets.end()) {
    CaseSet c{size, base_pairs(1501, size, 3), {}};
    c.motions = base_motions(c.pairs, 1502, size);
    it = sets.emplace(size, std::move(c)).first;
  }
  return it->second;
}

using Scorer = std::function<Score(const CaseSet&, Vec2)>;

const std::vector<std::pair<const char*, Scorer>>& queries() {
  static const std::vector<std::pair<const char*, Scorer>> all = {
      {"collide", [](const CaseSet& c, Vec2 o) { return score_collide(c.pairs, o); }},
      {"distance", [](const CaseSet& c, Vec2 o) { return score_distance(c.pairs, o); }},
      {"overlap", [](const CaseSet& c, Vec2 o) { return score_overlap(c.pairs, o); }},
      {"project_point, contains", [](const CaseSet& c, Vec2 o) { return score_point(c.pairs, o, 1503); }},
      {"raycast", [](const CaseSet& c, Vec2 o) { return score_ray(c.pairs, o, 1504, false); }},
      {"circle cast", [](const CaseSet& c, Vec2 o) { return score_ray(c.pairs, o, 1505, true); }},
      {"shape_cast", [](const CaseSet& c, Vec2 o) { return score_shape_cast(c.motions, o, 0); }},
      {"shape_cast, target 0.1", [](const CaseSet& c, Vec2 o) { return score_shape_cast(c.motions, o, 0.1L); }},
      {"time_of_impact", [](const CaseSet& c, Vec2 o) { return score_toi(c.motions, o); }},
      {"closest_approach", [](const CaseSet& c, Vec2 o) { return score_approach(c.motions, o); }},
      {"CollisionWorld contacts", [](const CaseSet& c, Vec2 o) { return score_world(1506, c.size, o, true); }},
      {"CollisionWorld queries", [](const CaseSet& c, Vec2 o) { return score_world(1506, c.size, o, false); }},
  };
  return all;
}

void expect_holds(float size, Vec2 offset) {
  for (const auto& [name, scorer] : queries()) {
    const Score s = scorer(cases(size), offset);
    std::printf("%-24s size %-5g at %-22s invariant %.2e  points %.2e  wrong %d of %d\n", name, size,
                lit(offset).c_str(), double(s.invariant), double(s.points), s.wrong, s.cases);
    const real bound = kAccuracy;
    EXPECT_TRUE(s.invariant <= bound && s.points <= bound && s.wrong == 0)
        << name << " at size " << size << ", offset " << lit(offset) << ": worst invariant error "
        << double(s.invariant) << " x size, worst point error " << double(s.points) << " x size (bound "
        << double(bound) << "), " << s.wrong << " of " << s.cases << " answers wrong; worst: " << s.worst;
  }
}

TEST(LargeWorld, EveryQueryAtTheOrigin) { expect_holds(1, {}); }
TEST(LargeWorld, EveryQueryAtCoordinates1e4) {
  expect_holds(1, {1e4f, -1e4f});
  expect_holds(1, {-1e4f, 1e4f});
}
TEST(LargeWorld, EveryQueryForSize001) { expect_holds(0.01f, {}); }
TEST(LargeWorld, EveryQueryForSize001At100) { expect_holds(0.01f, {100, -100}); }
/// Worst error at offsets 2^0 .. 2^29 (both coordinates), for sizes 1 and 0.01: the table of
/// docs/robustness.md. Prints only when LARGE_WORLD_SWEEP is set (it takes a while).
TEST(LargeWorld, Sweep) {
  if (std::getenv("LARGE_WORLD_SWEEP") == nullptr) GTEST_SKIP() << "set LARGE_WORLD_SWEEP=1 to print the table";
  for (float size : {1.0f, 0.01f}) {
    std::printf("\nsize %g: worst error (invariant / points, x size; wrong answers) by offset\n", size);
    for (const auto& [name, scorer] : queries()) {
      float largest = -1;
      bool broken = false;
      std::printf("%-24s", name);
      // Up to 2^29, the largest power of 2 within kMaxWorldCoordinate (beyond it every query
      // rejects its input, and CollisionWorld::add throws).
      for (int k = 0; k <= 29; k += 1) {
        const float o = std::ldexp(1.0f, k);
        const Score s = scorer(cases(size), {o, -o});
        if (s.holds() && !broken) largest = o;
        if (!s.holds()) broken = true;
        if (k % 2 == 0 || !s.holds())
          std::printf(" 2^%d:%.1e/%.1e/%d", k, double(s.invariant), double(s.points), s.wrong);
        if (broken) break;
      }
      std::printf("\n  -> holds up to coordinates %g\n", double(largest));
      std::fflush(stdout);
    }
  }
}

}  // namespace
