// Shared by ray_test.cpp and cast_test.cpp: the empty cast result, random poses, case families
// built for every kind or kind pair, and the bisection that puts a motion at the edge of contact.
#pragma once

#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include <pebble/ray.hpp>

#include "contact_cases.hpp"

namespace cast_cases {

using namespace contact_cases;

inline bool finite(const pebble::CastHit& h) {
  return std::isfinite(h.fraction) && pebble::is_finite(h.point) && pebble::is_finite(h.normal);
}

/// The contract's answer without a hit (also for invalid input).
inline bool is_no_hit(const pebble::CastHit& h) { return !h.hit && h.fraction == 1 && h.point == Vec2{} && h.normal == Vec2{}; }

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

}  // namespace cast_cases
