// pebble/detail/exact.hpp — not API: the double-precision 2D vector and the exact predicates
// that the hull, the point queries, the mass integrals and the toolbox (primitives.hpp) share.
// It is a public header only because primitives.hpp is inline and uses it; nothing in it is
// promised to users, and it may change with any release.
//
// The predicates follow Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
// Geometric Predicates" (1997). Each is the sign of a polynomial of degree 1 to 4 in float
// inputs, first evaluated in double with a bound on its rounding error; only when the value is
// within that bound of zero is it evaluated again exactly, as a sum of doubles kept free of
// rounding error (an "expansion"). A product of two floats is exact in double (24 + 24 <= 53
// bits), so most exact terms are plain products; a product of two doubles is split into its
// rounded value and its exact error (two_product).
#pragma once

#include <cmath>
#include <type_traits>

#include "pebble/math.hpp"

namespace pebble::detail {

/// A 2D vector in double: float inputs convert to it exactly.
struct D2 {
  double x = 0, y = 0;
};
constexpr D2 d2(Vec2 v) noexcept { return {v.x, v.y}; }
constexpr D2 operator+(D2 a, D2 b) noexcept { return {a.x + b.x, a.y + b.y}; }
constexpr D2 operator-(D2 a, D2 b) noexcept { return {a.x - b.x, a.y - b.y}; }
constexpr D2 operator*(double s, D2 v) noexcept { return {s * v.x, s * v.y}; }
constexpr double dot(D2 a, D2 b) noexcept { return a.x * b.x + a.y * b.y; }
/// Positive when b is counter-clockwise from a.
constexpr double cross(D2 a, D2 b) noexcept { return a.x * b.y - a.y * b.x; }
/// Rotated by -90 degrees: the outward side of a counter-clockwise edge.
constexpr D2 right_perp(D2 v) noexcept { return {v.y, -v.x}; }

// std::fabs at run time (one and-not, where the ternary compiles to a branch that random signs
// mispredict), the ternary at compile time (std::fabs is constexpr only from C++23).
constexpr double abs(double v) noexcept {
  if (std::is_constant_evaluated()) return v < 0 ? -v : v;
  return std::fabs(v);
}

// The exact evaluations run only near zero: kept out of line so that the filtered fast path
// stays small enough to inline.
#if defined(__GNUC__)
#define PEBBLE_EXACT_COLD [[gnu::noinline, gnu::cold]]
#else
#define PEBBLE_EXACT_COLD
#endif

// Unit roundoff of double: a single rounded operation errs by at most this, relative.
inline constexpr double kUnitRoundoff = 0x1p-53;

// A value computed in double through `depth` rounded operations along any path, whose exact
// terms have absolute values summing to `magnitude` (computed alike), errs by at most
// depth * kUnitRoundoff * magnitude (1 + O(kUnitRoundoff)); one more unit covers the O() and the
// rounding of this product. Float inputs cannot underflow or overflow these doubles (a float
// product of degree 4 stays within 2^-596 .. 2^512), so the relative error model holds.
constexpr double error_bound(int depth, double magnitude) noexcept { return (depth + 1) * kUnitRoundoff * magnitude; }

// s + e == a + b exactly, s the rounded sum (Knuth's TwoSum; additions only, so a fused
// multiply-add cannot change it).
struct Exact2 {
  double s = 0, e = 0;
};
constexpr Exact2 two_sum(double a, double b) noexcept {
  const double s = a + b, bv = s - a, av = s - bv;
  return {s, (a - av) + (b - bv)};
}
// s + e == a * b exactly. With hardware fused multiply-add the error is one fma; otherwise (and
// at compile time) Dekker's split of each factor into two 26-bit halves, whose products are exact.
constexpr Exact2 two_product(double a, double b) noexcept {
  const double p = a * b;
#if defined(__FMA__) || defined(__FP_FAST_FMA)
  if (!std::is_constant_evaluated()) return {p, std::fma(a, b, -p)};
#endif
  constexpr double kSplitter = 134217729.0;  // 2^27 + 1
  const double ca = kSplitter * a, a_hi = ca - (ca - a), a_lo = a - a_hi;
  const double cb = kSplitter * b, b_hi = cb - (cb - b), b_lo = b - b_hi;
  return {p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo};
}

// An exact sum of up to N doubles, kept as a nonoverlapping expansion of increasing magnitude
// with zero components dropped (Shewchuk's Grow-Expansion), so the last component carries the
// sign of the whole and approximates it to about 1e-16 relative.
template <int N>
struct ExactSum {
  double part[N]{};
  int count = 0;
  constexpr void add(double v) noexcept {
    int kept = 0;
    for (int i = 0; i < count; ++i) {
      const Exact2 r = two_sum(v, part[i]);
      if (r.e != 0) part[kept++] = r.e;
      v = r.s;
    }
    if (v != 0 && kept < N) part[kept++] = v;
    count = kept;
  }
  // Adds a * b for floats (exact in double).
  constexpr void add_product(float a, float b) noexcept { add(double(a) * double(b)); }
  // Adds a * b for doubles, as its rounded product and the exact error.
  constexpr void add_exact_product(double a, double b) noexcept {
    const Exact2 p = two_product(a, b);
    add(p.e);
    add(p.s);
  }
  // The most significant component: 0 exactly when the sum is 0, else of the sum's sign.
  constexpr double leading() const noexcept { return count > 0 ? part[count - 1] : 0.0; }
};

// a x b + b x p + p x a == cross(b - a, p - a), each term a product of floats.
PEBBLE_EXACT_COLD constexpr ExactSum<6> exact_orient(Vec2 a, Vec2 b, Vec2 p) noexcept {
  ExactSum<6> s;
  s.add_product(a.x, b.y);
  s.add_product(-a.y, b.x);
  s.add_product(b.x, p.y);
  s.add_product(-b.y, p.x);
  s.add_product(p.x, a.y);
  s.add_product(-p.y, a.x);
  return s;
}

/// Twice the signed area of abp: > 0 when p is to the left of a->b (counter-clockwise), 0 exactly
/// when the three points are collinear. Shewchuk's orient2d: the double value when it is clear
/// of its error bound, else the leading component of the exact value (right sign, ~1e-16 close).
constexpr double orient(Vec2 a, Vec2 b, Vec2 p) noexcept {
  const double left = (double(b.x) - a.x) * (double(p.y) - a.y), right = (double(b.y) - a.y) * (double(p.x) - a.x);
  const double det = left - right, bound = error_bound(3, abs(left) + abs(right));
  // One well-predicted test: past the bound the double's sign is the exact one.
  if (abs(det) > bound) return det;
  return exact_orient(a, b, p).leading();
}

}  // namespace pebble::detail
