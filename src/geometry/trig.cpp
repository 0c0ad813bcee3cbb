// pebble's own cosine, sine and arctangent: Rot::from_angle, Rot::angle (pebble/math.hpp) and the
// double forms in geometry/trig.hpp.
//
// The C library's cosf, sinf and atan2 differ between platforms in the last bit (glibc against
// Emscripten's musl: 137 of 3,000 random angles), and a rotation that differs by one bit changes
// every result computed with it. These are built from operations IEEE 754 rounds exactly (+ - * /,
// and fmod, which is exact), compiled without fused multiply-add (CMakeLists.txt), so x86-64, ARM64
// and WebAssembly give the same bits. Everything is computed in double and rounded to float once,
// which leaves the float results within 0.5 ulp plus about 1e-7 ulp of the exact values
// (docs/robustness.md, Cross-platform results; tests/math_test.cpp measures it against long double).
//
// cos and sin: Cody and Waite's reduction by pi/2 in three parts (Muller, "Elementary Functions",
// ch. 11), then the Taylor series on |r| <= pi/4. atan: atan(t) = pi/6 + atan((t sqrt3 - 1)/(t + sqrt3))
// brings t in [0, 1] to |u| <= tan(pi/12), where the Taylor series converges fast.
#include "geometry/trig.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "pebble/math.hpp"

namespace pebble {
namespace detail {
namespace {

// pi/2 as P1 + P2 + P3: P1 and P2 have 33 significant bits, so k * P1 and k * P2 are exact for the
// whole quarter-turn counts k < 2^20 that |x| <= kExactTurnLimit gives.
constexpr double kHalfPi1 = 0x1.921fb544p0;
constexpr double kHalfPi2 = 0x1.0b4611a6p-34;
constexpr double kHalfPi3 = 2.02226624879595063154e-21;
constexpr double kTwoOverPi = 0.6366197723675814;
constexpr double kTwoPi = 6.283185307179586;
// pi, pi/2 and pi/6 each as a double plus the double nearest its remainder.
constexpr double kPi = 3.141592653589793, kPiLow = 1.2246467991473532e-16;
constexpr double kHalfPi = 1.5707963267948966, kHalfPiLow = 6.123233995736766e-17;
constexpr double kSixthPi = 0.5235987755982989, kSixthPiLow = -5.360408832255455e-17;
constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kTanTwelfthPi = 0.2679491924311227;  // 2 - sqrt3: where the reduction starts

/// sin(r) - r and cos(r) on |r| <= pi/4: the Taylor series to r^17 and r^18, whose first omitted
/// terms are below 1e-19 there. Horner in r^2; the two chains are independent.
inline void taylor(double r, double& c, double& s) noexcept {
  const double z = r * r;
  constexpr double f3 = 6, f5 = f3 * 20, f7 = f5 * 42, f9 = f7 * 72, f11 = f9 * 110, f13 = f11 * 156, f15 = f13 * 210,
                   f17 = f15 * 272;
  constexpr double f2 = 2, f4 = f2 * 12, f6 = f4 * 30, f8 = f6 * 56, f10 = f8 * 90, f12 = f10 * 132, f14 = f12 * 182,
                   f16 = f14 * 240, f18 = f16 * 306;
  const double ps =
      -1 / f3 +
      z * (1 / f5 + z * (-1 / f7 + z * (1 / f9 + z * (-1 / f11 + z * (1 / f13 + z * (-1 / f15 + z * (1 / f17)))))));
  const double pc =
      -1 / f2 +
      z * (1 / f4 +
           z * (-1 / f6 +
                z * (1 / f8 + z * (-1 / f10 + z * (1 / f12 + z * (-1 / f14 + z * (1 / f16 + z * (-1 / f18))))))));
  s = r + r * (z * ps);
  c = 1 + z * pc;
}

/// atan(u) for |u| <= tan(pi/12), to u^33: the first omitted term is below 1e-19 of u.
constexpr auto kAtanTerms = [] {
  std::array<double, 16> t{};  // t[i] = (-1)^(i+1) / (2i + 3): -1/3, 1/5, ..., 1/33
  for (int i = 0; i < 16; ++i) t[std::size_t(i)] = (i % 2 == 0 ? -1.0 : 1.0) / (2 * i + 3);
  return t;
}();
inline double atan_small(double u) noexcept {
  const double z = u * u;
  double p = kAtanTerms[15];
  for (int i = 14; i >= 0; --i) p = kAtanTerms[std::size_t(i)] + z * p;
  return u + u * (z * p);
}

}  // namespace

namespace {

/// x reduced by whole quarter turns: x = k pi/2 + r with |r| <= pi/4 (and a little more for
/// |x| > kExactTurnLimit, first reduced modulo 2 pi). A non-finite x gives a NaN r.
inline double reduce(double x, std::int64_t& k) noexcept {
  if (!(std::fabs(x) <= kExactTurnLimit)) {
    if (!std::isfinite(x)) {
      k = 0;
      return x - x;  // NaN
    }
    x = std::fmod(x, kTwoPi);  // exact: the angle is off by x / 2pi times 2pi's rounding (2.4e-16)
  }
  // k, the nearest whole number of quarter turns (|k| < 2^19), by adding and removing 1.5 x 2^52,
  // which rounds to a whole number without a branch on the sign (random angles would mispredict).
  constexpr double kRoundingShift = 0x1.8p52;
  const double kd = (x * kTwoOverPi + kRoundingShift) - kRoundingShift;
  k = static_cast<std::int64_t>(kd);
  return ((x - kd * kHalfPi1) - kd * kHalfPi2) - kd * kHalfPi3;
}

/// cos and sin of k pi/2 + r from those of r: the quadrant k mod 4 without a branch (random angles
/// would mispredict one): odd k swaps cos and sin, and the sign bits of cos and sin flip for
/// k mod 4 in {1, 2} and {2, 3}.
inline void to_quadrant(std::int64_t k, double cr, double sr, double& c, double& s) noexcept {
  const std::uint64_t odd = 0 - (std::uint64_t(k) & 1), ub = std::bit_cast<std::uint64_t>(cr),
                      vb = std::bit_cast<std::uint64_t>(sr);
  const std::uint64_t cb = (ub & ~odd) | (vb & odd), sb = (vb & ~odd) | (ub & odd);
  c = std::bit_cast<double>(cb ^ (std::uint64_t((k + 1) & 2) << 62));
  s = std::bit_cast<double>(sb ^ (std::uint64_t(k & 2) << 62));
}

/// from_angle's polynomials: the Taylor series to r^13 and r^14, whose first omitted terms are
/// below 2e-14 of the value on |r| <= pi/4 (3e-7 of a float ulp), in Estrin's order (Muller, ch. 5)
/// for a shorter chain of dependent operations than Horner's.
inline void taylor_for_float(double r, double& c, double& s) noexcept {
  constexpr double f3 = 6, f5 = f3 * 20, f7 = f5 * 42, f9 = f7 * 72, f11 = f9 * 110, f13 = f11 * 156;
  constexpr double f2 = 2, f4 = f2 * 12, f6 = f4 * 30, f8 = f6 * 56, f10 = f8 * 90, f12 = f10 * 132, f14 = f12 * 182;
  const double z = r * r, z2 = z * z, z4 = z2 * z2;
  const double ps = (-1 / f3 + z * (1 / f5)) + z2 * ((-1 / f7 + z * (1 / f9)) + z2 * (-1 / f11 + z * (1 / f13)));
  const double pc =
      ((-1 / f2 + z * (1 / f4)) + z2 * (-1 / f6 + z * (1 / f8))) + z4 * ((-1 / f10 + z * (1 / f12)) + z2 * (-1 / f14));
  s = r + r * (z * ps);
  c = 1 + z * pc;
}

}  // namespace

void cos_sin(double x, double& c, double& s) noexcept {
  if (x == 0) {  // sin(-0) = -0, which the series would round to +0
    c = 1, s = x;
    return;
  }
  std::int64_t k;
  const double r = reduce(x, k);
  double cr, sr;
  taylor(r, cr, sr);
  to_quadrant(k, cr, sr, c, s);
}

double atan2(double y, double x) noexcept {
  if (std::isnan(x) || std::isnan(y)) return x + y;
  const double ax = std::fabs(x), ay = std::fabs(y);
  double a;
  if (std::isinf(ax) && std::isinf(ay)) {
    a = kHalfPi / 2;
  } else if (ax == 0 && ay == 0) {
    a = 0;
  } else {
    const bool steep = ay > ax;
    const double t = steep ? ax / ay : ay / ax;  // in [0, 1]
    a = t <= kTanTwelfthPi ? atan_small(t) : kSixthPi + (atan_small((t * kSqrt3 - 1) / (t + kSqrt3)) + kSixthPiLow);
    if (steep) a = (kHalfPi - a) + kHalfPiLow;
  }
  if (std::signbit(x)) a = (kPi - a) + kPiLow;
  return std::copysign(a, y);
}

}  // namespace detail

Rot Rot::from_angle(float radians) noexcept {
  if (radians == 0) return {1, radians};  // sin(-0) = -0
  std::int64_t k;
  const double r = detail::reduce(double(radians), k);
  double cr, sr, c, s;
  detail::taylor_for_float(r, cr, sr);
  detail::to_quadrant(k, cr, sr, c, s);
  return {float(c), float(s)};
}

float Rot::angle() const noexcept { return float(detail::atan2(double(s), double(c))); }

}  // namespace pebble
