// A seeded random source for the tests: every test draws from a fixed seed, so a failure
// reproduces exactly.
#pragma once

#include <cmath>
#include <random>

#include <pebble/math.hpp>

namespace test_random {

/// Random-sequence tests divide their sizes by this: 2 under AddressSanitizer (GCC and Clang set
/// __SANITIZE_ADDRESS__), whose build runs the suite again several times slower, else 1.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr int kSanitizerScale = 2;
#else
inline constexpr int kSanitizerScale = 1;
#endif

struct Rng {
  std::mt19937 gen;
  explicit Rng(unsigned seed) : gen(seed) {}
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(gen); }
  /// Uniform in log space: sizes spread evenly over orders of magnitude.
  double log_uniform(double a, double b) { return std::exp(uniform(std::log(a), std::log(b))); }
  int integer(int a, int b) { return std::uniform_int_distribution<int>(a, b)(gen); }
  bool chance(double p) { return uniform(0, 1) < p; }
  /// A point uniform over the disc of the given radius around the origin.
  pebble::Vec2 in_disc(double radius) {
    const double t = uniform(0, 2 * 3.14159265358979), s = radius * std::sqrt(uniform(0, 1));
    return {float(s * std::cos(t)), float(s * std::sin(t))};
  }
};

}  // namespace test_random
