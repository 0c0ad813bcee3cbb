// Shared by ray_test.cpp and cast_test.cpp: the empty cast result, random poses, case families
// built for every kind or kind pair, and the bisection that puts a motion at the edge of contact.
#pragma once

#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include <pebble/ray.hpp>

#include "contact_cases.hpp"
#include "oracle/cone.hpp"

namespace cast_cases {

using namespace contact_cases;

inline bool finite(const pebble::CastResult& h) {
  return std::isfinite(h.fraction) && pebble::is_finite(h.point) && pebble::is_finite(h.normal);
}

/// The contract's answer without a hit (also for invalid input).
inline bool is_no_hit(const pebble::CastResult& h) {
  return !h.hit && h.fraction == 1 && h.point == Vec2{} && h.normal == Vec2{};
}

/// A random pose within 2 sizes of origin, at a uniform angle.
inline Transform random_pose(std::mt19937& rng, float size, Vec2 origin) {
  return {{origin.x + uniform(rng, -2, 2) * size, origin.y + uniform(rng, -2, 2) * size},
          Rot::from_angle(uniform(rng, -3.14159265f, 3.14159265f))};
}

/// u turned by a quarter turn counter-clockwise.
inline V perpendicular(V u) { return {-u.y, u.x}; }

/// per_kind cases of every kind from one seed: make(kind, rng) returns a case, or nothing to skip.
template <class Case, class Make>
std::vector<Case> every_kind(unsigned seed, int per_kind, Make make) {
  std::mt19937 rng(seed);
  std::vector<Case> out;
  for (Kind k : kAllKinds) {
    for (int i = 0; i < per_kind; ++i) {
      if (std::optional<Case> c = make(k, rng)) out.push_back(std::move(*c));
    }
  }
  return out;
}

/// per_pair cases of every ordered kind pair from one seed: make(kind_a, kind_b, rng).
template <class Case, class Make>
std::vector<Case> every_kind_pair(unsigned seed, int per_pair, Make make) {
  std::mt19937 rng(seed);
  std::vector<Case> out;
  for (Kind ka : kAllKinds) {
    for (Kind kb : kAllKinds) {
      for (int i = 0; i < per_pair; ++i) {
        if (std::optional<Case> c = make(ka, kb, rng)) out.push_back(std::move(*c));
      }
    }
  }
  return out;
}

/// The edge of contact between a shift that touches and one that does not: bisection `steps`
/// times on touches(shift) from [touching, missing]; returns the last shift found to miss.
/// Nothing when the ends do not bracket (touching does not touch, or missing does).
template <class Touches>
std::optional<real> edge_of_contact(Touches touches, real touching, real missing, int steps) {
  if (!touches(touching) || touches(missing)) return std::nullopt;
  for (int k = 0; k < steps; ++k) {
    const real mid = (touching + missing) / 2;
    (touches(mid) ? touching : missing) = mid;
  }
  return missing;
}

/// A hair, a tenth of a thousandth of the size: shifted by it either way or not at all, a motion
/// at the edge of contact just misses, just touches or grazes.
inline real hair(std::mt19937& rng) { return std::array<real, 3>{0, 1e-5L, -1e-5L}[rng() % 3]; }

/// Two shapes whose first touch, at half of the translations, is at a vertex of the core of their
/// Minkowski difference B - A (corner against corner for sharp shapes) or very near it.
struct CornerApproach {
  ShapeSpec a, b;
  Transform xa, xb;
  Vec2 ta, tb;
};

/// A corner approach of a kind pair, built on the difference's vertices (tests/oracle/cone.hpp):
/// a random vertex, and the relative motion along the bisector of its normal cone, turned off it
/// (by a hair, within the cone, or beyond it where the motion still runs into the difference
/// through the vertex), or shifted sideways by 1e-5 to 1e-4 of the size (the touch on an edge beside it).
/// The origin comes from L + ra + rb out along that direction and meets the difference at half
/// the motion; A moves too in half the cases.
inline CornerApproach corner_approach(Kind ka, Kind kb, std::mt19937& rng, float size = 1, Vec2 origin = {}) {
  ShapeSpec a = random_shape(ka, rng, size * uniform(rng, 0.5f, 1.5f));
  ShapeSpec b = random_shape(kb, rng, size * uniform(rng, 0.5f, 1.5f));
  const Transform xa = random_pose(rng, size, origin);
  const Rot qb = Rot::from_angle(uniform(rng, -3.14159265f, 3.14159265f));
  const std::vector<oracle::DifferenceVertex> verts =
      oracle::difference_vertices(world(a, xa), world(b, Transform{{0, 0}, qb}));
  const oracle::DifferenceVertex& vx = verts[rng() % verts.size()];
  // The cone, counter-clockwise from `before` to `after` (a whole turn for a single point).
  real lo = uniform(rng, -3.14159265f, 3.14159265f), half = 3.14159265358979L;
  if (oracle::dot(vx.before, vx.before) > 0) {
    real span = std::atan2(oracle::cross(vx.before, vx.after), oracle::dot(vx.before, vx.after));
    if (span < 0) span += 2 * 3.14159265358979L;
    lo = std::atan2(vx.before.y, vx.before.x);
    half = span / 2;
  }
  real angle = lo + half, side = 0;
  const real sign = (rng() & 1) ? 1 : -1;
  switch (rng() % 5) {
    case 0:
      break;  // the bisector
    case 1:
      angle += sign * 1e-4L;
      break;  // a hair off
    case 2:
      angle += sign * half * uniform(rng, 0, 0.95f);
      break;  // inside the cone
    case 3: {
      // Beyond it, yet within a quarter turn of both edge normals: still into the vertex head on.
      const real room = 3.14159265358979L / 2 - 2 * half;
      angle += sign * (room > 0 ? half + room * uniform(rng, 0.05f, 0.95f) : 1e-4L);
      break;
    }
    default:
      side = sign * size * uniform(rng, 1e-5f, 1e-4f);
      break;  // beside the vertex
  }
  const V m{std::cos(angle), std::sin(angle)};
  const real reach = size * uniform(rng, 0.2f, 2), grown = a.shape.radius() + b.shape.radius();
  // B at p sees the origin at -p relative to B - A: start it reach + grown out along m.
  const V start = vx.at + (reach + grown) * m + side * perpendicular(m);
  const Vec2 pb{float(-start.x), float(-start.y)};
  Vec2 ta{};
  if (rng() % 2) ta = size * Vec2{uniform(rng, -1, 1), uniform(rng, -1, 1)};
  const Vec2 tb = ta + Vec2{float(2 * reach * m.x), float(2 * reach * m.y)};
  return {std::move(a), std::move(b), xa, Transform{pb, qb}, ta, tb};
}

/// corner_approach() for every ordered kind pair.
inline std::vector<CornerApproach> corner_approaches(unsigned seed, int per_pair, float size = 1, Vec2 origin = {}) {
  return every_kind_pair<CornerApproach>(seed, per_pair, [&](Kind ka, Kind kb, std::mt19937& rng) {
    return std::optional<CornerApproach>(corner_approach(ka, kb, rng, size, origin));
  });
}

/// The corner within which a touching point counts as at a vertex of the difference: 2e-4 of the
/// smaller size (a fifth of the contract's length tolerance; collide() and distance() take the
/// first shape's face where another beats it by less than kAxisPreference, 2e-5 of the size,
/// which at a point that near a vertex is that vertex's other edge) plus the float rounding.
inline real corner_slack(const oracle::RShape& wa, const oracle::RShape& wb) {
  const Tolerance t = tolerance_for(wa, wb);
  return 4 * t.noise + 2e-4L * std::min(oracle::half_diameter(wa), oracle::half_diameter(wb));
}

/// "" when unit normal n (A to B) lies within the contract's 1e-3 rad of the normal cone of the
/// shapes wa and wb as they touch (the origin having come from `from`, relative to B - A).
inline std::string check_in_cone(Vec2 n, const oracle::RShape& wa, const oracle::RShape& wb, V from) {
  const oracle::NormalCone cone = oracle::touch_normal_cone(wa, wb, corner_slack(wa, wb), from);
  const real off = oracle::angle_outside(cone, v(n));
  if (off <= 1e-3L) return "";
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "normal (%.9g, %.9g) %.3g rad outside the cone about (%.6g, %.6g) of half angle %.6g; ", double(n.x),
                double(n.y), double(off), double(cone.centre.x), double(cone.centre.y), double(cone.half_angle));
  return buf;
}

/// Shapes exactly at the first touch of a corner approach, or moved on from it (deeper) or back
/// (apart) along the approach by 1e-7 to 1e-5 of the size: the gray zone where float rounding
/// and the cores' true overlap are of one size. `from`: the side the origin came from, relative
/// to B - A (for touch_normal_cone).
struct CornerTouch {
  Pair pair;
  V from;
};

inline std::string describe(const CornerTouch& c) { return contact_cases::describe(c.pair); }

inline std::vector<CornerTouch> corner_touches(unsigned seed, int per_pair, float size = 1, Vec2 origin = {}) {
  std::mt19937 rng(seed + 2000);
  std::vector<CornerTouch> out;
  constexpr float kDepths[] = {0, 1e-7f, -1e-7f, 1e-6f, -1e-6f, 3e-6f, -3e-6f, 1e-5f, -1e-5f};
  for (const CornerApproach& c : corner_approaches(seed, per_pair, size, origin)) {
    const V rel = v(c.tb - c.ta);
    const V u = oracle::normalize(rel);
    const real depth = size * kDepths[rng() % std::size(kDepths)];
    // (Float sums, so that both position builds get the same inputs.)
    const Transform xa{pebble::to_vec2(c.xa.p) + 0.5f * c.ta, c.xa.q};
    const Vec2 pb = pebble::to_vec2(c.xb.p) + 0.5f * c.tb;
    const Transform xb{{float(pb.x + depth * u.x), float(pb.y + depth * u.y)}, c.xb.q};
    out.push_back({{c.a, c.b, xa, xb}, rel});
  }
  return out;
}

}  // namespace cast_cases
