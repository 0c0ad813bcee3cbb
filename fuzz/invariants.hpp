// fuzz/invariants.hpp — what every result of pebble promises whatever the input (include/pebble/*
// and DESIGN.md): finite fields, unit (or documented zero) normals, fractions and times in their
// range, counts in 0..2, exact empty results for invalid input. A violation prints what broke
// and aborts, which libFuzzer reports as a crash with the input that caused it.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include <pebble/pebble.hpp>

namespace pebble_fuzz {

using pebble::Aabb;
using pebble::ApproachResult;
using pebble::CastResult;
using pebble::DistanceResult;
using pebble::Manifold;
using pebble::MassProperties;
using pebble::Position;
using pebble::ProjectionResult;
using pebble::ToiResult;
using pebble::Vec2;

/// Set by a target to describe its current input (as C++ a regression test can paste), printed
/// with a violation.
inline std::function<std::string()> g_describe_input;

[[noreturn]] inline void violation(const char* what, const char* file, int line) {
  std::fprintf(stderr, "pebble fuzz: invariant violated at %s:%d: %s\n", file, line, what);
  if (g_describe_input) std::fprintf(stderr, "input:\n%s\n", g_describe_input().c_str());
  std::fflush(stderr);
  std::abort();
}

/// A float as a C++ expression that gives it back exactly.
inline std::string lit(float v) {
  if (std::isnan(v)) return "kNaN";
  if (std::isinf(v)) return v > 0 ? "kInf" : "-kInf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9gf", double(v));
  return buf;
}
inline std::string lit(Vec2 v) { return "Vec2{" + lit(v.x) + ", " + lit(v.y) + "}"; }
#if PEBBLE_DOUBLE_POSITIONS
inline std::string lit(Position p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "Position{%.17g, %.17g}", p.x, p.y);
  return buf;
}
#endif
inline std::string lit(const pebble::Transform& x) {
  return "Transform{" + lit(x.p) + ", Rot{" + lit(x.q.c) + ", " + lit(x.q.s) + "}}";
}
/// A maker call that builds the same core (the makers keep a hull they are given).
inline std::string lit(const pebble::Shape& s) {
  const auto v = s.vertices();
  if (v.size() == 1) return "Shape::circle(" + lit(s.radius()) + ", " + lit(v[0]) + ")";
  if (v.size() == 2) return "Shape::capsule(" + lit(v[0]) + ", " + lit(v[1]) + ", " + lit(s.radius()) + ")";
  std::string out = "Shape::polygon(std::vector<Vec2>{";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + lit(v[i]);
  return out + "}, " + lit(s.radius()) + ")";
}

/// Aborts with the condition's text when it does not hold.
#define FUZZ_REQUIRE(cond)                                            \
  do {                                                                \
    if (!(cond)) ::pebble_fuzz::violation(#cond, __FILE__, __LINE__); \
  } while (0)

/// A check that fails because of a bug reported but not yet fixed in code this branch may not
/// change (src/contact/core.hpp and src/kernels*, being rewritten on another branch): the fuzz
/// run counts and prints such failures, once per check, without aborting, so that it can guard
/// everything else meanwhile. PEBBLE_FUZZ_STRICT=1 in the environment makes them abort too; once
/// the bug is fixed, the check becomes a FUZZ_REQUIRE. `issue` says where it is reported.
#define FUZZ_KNOWN_ISSUE(cond, issue)                                          \
  do {                                                                         \
    if (!(cond)) ::pebble_fuzz::known_issue(#cond, issue, __FILE__, __LINE__); \
  } while (0)

inline void known_issue(const char* what, const char* issue, const char* file, int line) {
  static const bool strict = [] {
    const char* env = std::getenv("PEBBLE_FUZZ_STRICT");
    return env != nullptr && env[0] == '1';
  }();
  if (strict) violation(what, file, line);
  static std::vector<int> seen;
  if (std::find(seen.begin(), seen.end(), line) != seen.end()) return;
  seen.push_back(line);
  std::fprintf(stderr, "pebble fuzz: known issue (%s) at %s:%d: %s\n", issue, file, line, what);
  if (g_describe_input) std::fprintf(stderr, "input:\n%s\n", g_describe_input().c_str());
}

/// A normal is unit when its length is within this of 1: a float normalization is off by a few
/// ulps; anything further is a scaled or broken vector...
inline constexpr float kUnitTolerance = 1e-5f;

/// ...plus how far the rotations involved are from unit length: queries use a rotation as given,
/// and is_valid() accepts |q|^2 within kRotationTolerance of 1, so a normal turned by q is off by
/// as much. Set per query by UnitToleranceOf.
inline double g_unit_tolerance = kUnitTolerance;

/// How far |q|^2 is from 1 (0 for a rotation that is not finite): a vector turned by q and then
/// by q's inverse transpose (into a frame and back) is off unit length by about that much.
inline double rotation_deviation(const pebble::Transform& x) {
  const double len2 = double(x.q.c) * x.q.c + double(x.q.s) * x.q.s;
  return std::isfinite(len2) ? std::fabs(len2 - 1) : 0;
}

/// Sets g_unit_tolerance for the queries on the given transforms while it lives.
struct UnitToleranceOf {
  explicit UnitToleranceOf(std::initializer_list<pebble::Transform> xs) {
    double worst = 0;
    for (const pebble::Transform& x : xs) {
      if (pebble::is_valid(x)) worst = std::max(worst, rotation_deviation(x));
    }
    g_unit_tolerance = kUnitTolerance + 2 * worst;
  }
  ~UnitToleranceOf() { g_unit_tolerance = kUnitTolerance; }
  UnitToleranceOf(const UnitToleranceOf&) = delete;
  UnitToleranceOf& operator=(const UnitToleranceOf&) = delete;
};

inline bool finite(float v) { return std::isfinite(v); }
inline bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }
#if PEBBLE_DOUBLE_POSITIONS
inline bool finite(Position v) { return std::isfinite(v.x) && std::isfinite(v.y); }
#endif
inline bool is_zero(Vec2 v) { return v.x == 0 && v.y == 0; }
#if PEBBLE_DOUBLE_POSITIONS
inline bool is_zero(Position v) { return v.x == 0 && v.y == 0; }
#endif
inline bool is_unit(Vec2 v) {
  return finite(v) && std::fabs(std::sqrt(double(v.x) * v.x + double(v.y) * v.y) - 1) <= g_unit_tolerance;
}
inline bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }
inline bool same_bits(Vec2 a, Vec2 b) { return same_bits(a.x, b.x) && same_bits(a.y, b.y); }
#if PEBBLE_DOUBLE_POSITIONS
inline bool same_bits(Position a, Position b) {
  return std::bit_cast<std::uint64_t>(a.x) == std::bit_cast<std::uint64_t>(b.x) &&
         std::bit_cast<std::uint64_t>(a.y) == std::bit_cast<std::uint64_t>(b.y);
}
#endif

/// A manifold from valid input: 0..2 points, a unit normal when it has points (features a
/// denormal apart too: tests/robustness_test.cpp UnitNormalsForFeaturesADenormalApart), every
/// field finite (unused ones too), no point's separation beyond the margin.
inline void check_manifold(const Manifold& m, float margin) {
  FUZZ_REQUIRE(m.count >= 0 && m.count <= 2);
  FUZZ_REQUIRE(finite(m.normal));
  for (const pebble::ContactPoint& p : m.points) {
    FUZZ_REQUIRE(finite(p.point));
    FUZZ_REQUIRE(finite(p.separation));
  }
  if (m.count > 0) FUZZ_REQUIRE(is_unit(m.normal));
  for (int i = 0; i < m.count; ++i) FUZZ_REQUIRE(m.points[i].separation <= margin);
}

/// collide()'s answer for invalid input: no points, every field finite.
inline void check_empty_manifold(const Manifold& m) {
  FUZZ_REQUIRE(m.count == 0);
  FUZZ_REQUIRE(finite(m.normal));
  for (const pebble::ContactPoint& p : m.points) FUZZ_REQUIRE(finite(p.point) && finite(p.separation));
}

inline bool same_bits(const Manifold& a, const Manifold& b) {
  if (a.count != b.count || !same_bits(a.normal, b.normal)) return false;
  for (int i = 0; i < 2; ++i) {
    if (!same_bits(a.points[i].point, b.points[i].point) ||
        !same_bits(a.points[i].separation, b.points[i].separation) || a.points[i].id != b.points[i].id) {
      return false;
    }
  }
  return true;
}

inline bool same_bits(const DistanceResult& a, const DistanceResult& b) {
  return same_bits(a.distance, b.distance) && same_bits(a.normal, b.normal) && same_bits(a.point_a, b.point_a) &&
         same_bits(a.point_b, b.point_b);
}

/// distance() from valid input: finite fields and a unit normal.
inline void check_distance(const DistanceResult& d) {
  FUZZ_REQUIRE(finite(d.distance));
  FUZZ_REQUIRE(is_unit(d.normal));
  FUZZ_REQUIRE(finite(d.point_a) && finite(d.point_b));
}

/// distance()'s documented answer for invalid transforms.
inline void check_empty_distance(const DistanceResult& d) {
  FUZZ_REQUIRE(d.distance == pebble::kHugeDistance);
  FUZZ_REQUIRE(is_zero(d.normal) && is_zero(d.point_a) && is_zero(d.point_b));
}

/// project_point() from valid input: finite, unit normal, inside exactly when distance <= 0.
inline void check_projection(const ProjectionResult& p) {
  FUZZ_REQUIRE(finite(p.point) && finite(p.distance));
  FUZZ_REQUIRE(is_unit(p.normal));
  FUZZ_REQUIRE(p.inside == (p.distance <= 0));
}

inline void check_empty_projection(const ProjectionResult& p) {
  FUZZ_REQUIRE(is_zero(p.point) && is_zero(p.normal) && p.distance == pebble::kHugeDistance && !p.inside);
}

/// A cast's answer: no hit is exactly {false, 1, 0, 0}; a hit has a fraction in [0, 1], a finite
/// point and a unit normal, or the zero normal at fraction 0 when `zero_normal_at_start` (rays and
/// circle casts starting inside).
inline void check_cast(const CastResult& h, bool zero_normal_at_start) {
  if (!h.hit) {
    FUZZ_REQUIRE(h.fraction == 1 && is_zero(h.point) && is_zero(h.normal));
    return;
  }
  FUZZ_REQUIRE(h.fraction >= 0 && h.fraction <= 1);
  FUZZ_REQUIRE(finite(h.point));
  if (zero_normal_at_start && is_zero(h.normal)) {
    FUZZ_REQUIRE(h.fraction == 0);
  } else {
    FUZZ_REQUIRE(is_unit(h.normal));
  }
}

/// time_of_impact() from valid input: fraction in [0, t_max]; a point and unit normal for hit and overlapped, zero
/// ones otherwise; separated at t_max; overlapped at 0.
inline void check_toi(const ToiResult& r, float t_max) {
  using State = ToiResult::State;
  FUZZ_REQUIRE(r.state == State::hit || r.state == State::separated || r.state == State::overlapped ||
               r.state == State::failed);
  FUZZ_REQUIRE(finite(r.fraction) && r.fraction >= 0);
  FUZZ_REQUIRE(finite(r.point) && finite(r.normal));
  if (r.state == State::hit || r.state == State::overlapped) {
    FUZZ_REQUIRE(r.fraction <= t_max);
    FUZZ_REQUIRE(is_unit(r.normal));
  } else {
    FUZZ_REQUIRE(is_zero(r.point) && is_zero(r.normal));
  }
  if (r.state == State::separated) FUZZ_REQUIRE(r.fraction == t_max);
  if (r.state == State::overlapped) FUZZ_REQUIRE(r.fraction == 0);
  if (r.state == State::failed) FUZZ_REQUIRE(r.fraction <= t_max);
}

/// closest_approach() from valid input: time in [0, horizon], finite, unit normal.
inline void check_approach(const ApproachResult& a, float horizon) {
  FUZZ_REQUIRE(finite(a.time) && a.time >= 0 && a.time <= horizon);
  FUZZ_REQUIRE(finite(a.distance));
  FUZZ_REQUIRE(finite(a.point_a) && finite(a.point_b));
  FUZZ_REQUIRE(is_unit(a.normal));
}

inline void check_empty_approach(const ApproachResult& a) {
  FUZZ_REQUIRE(!a.hit && a.time == 0 && a.distance == pebble::kHugeDistance);
  FUZZ_REQUIRE(is_zero(a.point_a) && is_zero(a.point_b) && is_zero(a.normal));
}

/// Mass, centre and inertia: finite, mass and inertia never negative.
inline void check_mass(const MassProperties& m) {
  FUZZ_REQUIRE(finite(m.mass) && m.mass >= 0);
  FUZZ_REQUIRE(finite(m.inertia) && m.inertia >= 0);
  FUZZ_REQUIRE(finite(m.center));
}

/// A box from valid input: finite, lower <= upper.
inline void check_box(const Aabb& b) {
  FUZZ_REQUIRE(finite(b.lower) && finite(b.upper));
  FUZZ_REQUIRE(b.lower.x <= b.upper.x && b.lower.y <= b.upper.y);
}

}  // namespace pebble_fuzz
