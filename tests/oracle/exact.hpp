// tests/oracle/exact.hpp — exact answers for predicates on float inputs, in integer arithmetic.
//
// A float is m * 2^e with an integer m below 2^24, so every input of one question, scaled by a
// common power of two, is an integer, and any polynomial of them is an integer computed exactly
// here (a small sign-magnitude multiprecision integer). long double is not enough: a product of
// two doubles, or a sum of floats 2^30 apart, already needs more than its 64 bits.
// Shares no code with include/pebble: plain floats in, the geometric question answered directly.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace oracle::exact {

/// A signed integer of up to 1280 bits (enough for degree 4 in floats of any exponent).
class Int {
public:
  Int() = default;
  /// The integer v * 2^-scale; v must be a finite multiple of 2^scale (see Scale).
  static Int from_float(float v, int scale);
  friend Int operator+(const Int& a, const Int& b);
  friend Int operator-(const Int& a, const Int& b);
  friend Int operator*(const Int& a, const Int& b);
  Int operator-() const;
  /// -1, 0 or 1.
  int sign() const { return size_ == 0 ? 0 : (negative_ ? -1 : 1); }
  friend bool operator<(const Int& a, const Int& b) { return (a - b).sign() < 0; }
  friend bool operator<=(const Int& a, const Int& b) { return (a - b).sign() <= 0; }
  friend bool operator==(const Int& a, const Int& b) { return (a - b).sign() == 0; }

private:
  static constexpr int kLimbs = 40;  // degree 4 in floats of any exponents needs 35
  static int compare_magnitude(const Int& a, const Int& b);
  static Int add_magnitude(const Int& a, const Int& b);
  static Int subtract_magnitude(const Int& a, const Int& b);  // |a| >= |b|
  void trim();
  uint32_t limb_[kLimbs];  // only the first size_ are meaningful (not cleared: speed)
  int size_ = 0;
  bool negative_ = false;
};

/// A point with float coordinates (the inputs as given).
struct F2 {
  float x = 0, y = 0;
};

/// The common scale of one question: the exponent of the least significant bit of its smallest
/// input, so that every input is an integer after scaling (homogeneous predicates keep their
/// sign). Feed it every float of the question, then convert with it.
class Scale {
public:
  explicit Scale(std::initializer_list<float> values);
  Scale(const std::vector<float>& values);
  Int operator()(float v) const { return Int::from_float(v, exponent_); }

private:
  int exponent_ = 0;
};

/// An exact point: two scaled integers.
struct I2 {
  Int x, y;
};
I2 to_int(const Scale& s, F2 p);
I2 operator-(const I2& a, const I2& b);
Int dot(const I2& a, const I2& b);
Int cross(const I2& a, const I2& b);

/// p on the closed segment ab (a == b: p == a).
bool on_segment(const I2& a, const I2& b, const I2& p);

/// The closed segments ab and cd share a point (every endpoint orientation, then the endpoints
/// lying on the other segment).
bool segments_meet(const I2& a, const I2& b, const I2& c, const I2& d);

/// The closed segment ab meets the disc (center, radius r): the least of the quadratic
/// |a - center + t (b - a)|^2 - r^2 over t in [0, 1] is <= 0 (r2 = r^2, scaled alike).
bool segment_meets_disc(const I2& a, const I2& b, const I2& center, const Int& r2);

/// p in the convex hull of the points (1 to 3 of them; boundary included).
bool hull_contains(const std::vector<I2>& points, const I2& p);

/// The convex hulls of two point sets share a point: no separating axis among the differences
/// of two points and their perpendiculars (complete for convex polygons in the plane).
bool hulls_meet(const std::vector<I2>& a, const std::vector<I2>& b);

/// Squared distance from p to the axis-aligned rectangle [lo, hi] (each end exact); 0 inside.
/// lo > hi on an axis: the rectangle is empty and this is not called.
Int squared_distance_to_rectangle(const I2& lo, const I2& hi, const I2& p);

}  // namespace oracle::exact
