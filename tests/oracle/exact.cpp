// tests/oracle/exact.cpp — the exact integers and predicates of exact.hpp.
#include "oracle/exact.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>

namespace oracle::exact {

void Int::trim() {
  while (size_ > 0 && limb_[size_ - 1] == 0) --size_;
  if (size_ == 0) negative_ = false;
}

Int Int::from_float(float v, int scale) {
  Int r;
  if (v == 0) return r;
  int e = 0;
  const float f = std::frexp(std::fabs(v), &e);  // |v| = f 2^e, f in [0.5, 1)
  const uint64_t m = static_cast<uint64_t>(std::ldexp(f, 24));
  int shift = e - 24 - scale;
  if (shift < 0) std::abort();  // the scale must come from this question's inputs
  const int words = shift / 32;
  shift %= 32;
  if (words + 3 > kLimbs) std::abort();
  for (int i = 0; i < words; ++i) r.limb_[i] = 0;
  const unsigned __int128 wide = static_cast<unsigned __int128>(m) << shift;
  for (int i = 0; i < 3; ++i) r.limb_[words + i] = static_cast<uint32_t>(wide >> (32 * i));
  r.size_ = words + 3;
  r.negative_ = v < 0;
  r.trim();
  return r;
}

int Int::compare_magnitude(const Int& a, const Int& b) {
  if (a.size_ != b.size_) return a.size_ < b.size_ ? -1 : 1;
  for (int i = a.size_ - 1; i >= 0; --i)
    if (a.limb_[i] != b.limb_[i]) return a.limb_[i] < b.limb_[i] ? -1 : 1;
  return 0;
}

Int Int::add_magnitude(const Int& a, const Int& b) {
  Int r;
  const int n = std::max(a.size_, b.size_);
  uint64_t carry = 0;
  for (int i = 0; i < n; ++i) {
    carry += uint64_t(i < a.size_ ? a.limb_[i] : 0) + (i < b.size_ ? b.limb_[i] : 0);
    r.limb_[i] = static_cast<uint32_t>(carry);
    carry >>= 32;
  }
  r.size_ = n;
  if (carry) {
    if (n >= kLimbs) std::abort();
    r.limb_[n] = static_cast<uint32_t>(carry);
    r.size_ = n + 1;
  }
  return r;
}

Int Int::subtract_magnitude(const Int& a, const Int& b) {
  Int r;
  int64_t borrow = 0;
  for (int i = 0; i < a.size_; ++i) {
    int64_t d = int64_t(a.limb_[i]) - (i < b.size_ ? b.limb_[i] : 0) - borrow;
    borrow = d < 0;
    if (d < 0) d += int64_t(1) << 32;
    r.limb_[i] = static_cast<uint32_t>(d);
  }
  r.size_ = a.size_;
  r.trim();
  return r;
}

Int operator+(const Int& a, const Int& b) {
  Int r;
  if (a.negative_ == b.negative_) {
    r = Int::add_magnitude(a, b);
    r.negative_ = a.negative_;
  } else if (Int::compare_magnitude(a, b) >= 0) {
    r = Int::subtract_magnitude(a, b);
    r.negative_ = a.negative_;
  } else {
    r = Int::subtract_magnitude(b, a);
    r.negative_ = b.negative_;
  }
  r.trim();
  return r;
}

Int Int::operator-() const {
  Int r = *this;
  if (r.size_ != 0) r.negative_ = !r.negative_;
  return r;
}

Int operator-(const Int& a, const Int& b) { return a + (-b); }

Int operator*(const Int& a, const Int& b) {
  Int r;
  if (a.size_ == 0 || b.size_ == 0) return r;
  if (a.size_ + b.size_ > Int::kLimbs) std::abort();
  for (int i = 0; i < a.size_ + b.size_; ++i) r.limb_[i] = 0;
  for (int i = 0; i < a.size_; ++i) {
    uint64_t carry = 0;
    for (int j = 0; j < b.size_; ++j) {
      const uint64_t t = uint64_t(a.limb_[i]) * b.limb_[j] + r.limb_[i + j] + carry;
      r.limb_[i + j] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    r.limb_[i + b.size_] = static_cast<uint32_t>(carry);
  }
  r.size_ = a.size_ + b.size_;
  r.negative_ = a.negative_ != b.negative_;
  r.trim();
  return r;
}

namespace {
int lowest_exponent(const float* begin, const float* end) {
  int lowest = INT_MAX;
  for (const float* v = begin; v != end; ++v) {
    if (*v == 0 || !std::isfinite(*v)) continue;
    int e = 0;
    std::frexp(*v, &e);
    // The least significant bit of a float's 24-bit significand (subnormals included: their
    // frexp exponent is lower and the bits below 2^-149 are zero).
    lowest = std::min(lowest, e - 24);
  }
  return lowest == INT_MAX ? 0 : lowest;
}
}  // namespace

Scale::Scale(std::initializer_list<float> values) : exponent_(lowest_exponent(values.begin(), values.end())) {}
Scale::Scale(const std::vector<float>& values)
    : exponent_(lowest_exponent(values.data(), values.data() + values.size())) {}

I2 to_int(const Scale& s, F2 p) { return {s(p.x), s(p.y)}; }
I2 operator-(const I2& a, const I2& b) { return {a.x - b.x, a.y - b.y}; }
Int dot(const I2& a, const I2& b) { return a.x * b.x + a.y * b.y; }
Int cross(const I2& a, const I2& b) { return a.x * b.y - a.y * b.x; }

bool on_segment(const I2& a, const I2& b, const I2& p) {
  // Collinear, and p - a and p - b point away from each other (or one is zero).
  return cross(b - a, p - a).sign() == 0 && dot(p - a, p - b).sign() <= 0;
}

bool segments_meet(const I2& a, const I2& b, const I2& c, const I2& d) {
  const int o1 = cross(b - a, c - a).sign(), o2 = cross(b - a, d - a).sign();
  const int o3 = cross(d - c, a - c).sign(), o4 = cross(d - c, b - c).sign();
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return on_segment(a, b, c) || on_segment(a, b, d) || on_segment(c, d, a) || on_segment(c, d, b);
}

bool segment_meets_disc(const I2& a, const I2& b, const I2& center, const Int& r2) {
  // f(t) = A t^2 + 2 B t + C with A = |b - a|^2, B = (a - center).(b - a), C = |a - center|^2 - r^2.
  const I2 u = b - a, w = a - center;
  const Int A = dot(u, u), B = dot(w, u), C = dot(w, w) - r2;
  if (C.sign() <= 0) return true;                // t = 0
  if ((A + B + B + C).sign() <= 0) return true;  // t = 1
  // The vertex t = -B / A lies strictly inside (0, 1) when B < 0 and -B < A; its value is
  // C - B^2 / A, <= 0 exactly when A C - B^2 <= 0.
  if (A.sign() > 0 && B.sign() < 0 && (A + B).sign() > 0) return (A * C - B * B).sign() <= 0;
  return false;
}

bool hull_contains(const std::vector<I2>& points, const I2& p) { return hulls_meet(points, {p}); }

bool hulls_meet(const std::vector<I2>& a, const std::vector<I2>& b) {
  std::vector<I2> all = a;
  all.insert(all.end(), b.begin(), b.end());
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = i + 1; j < all.size(); ++j) {
      const I2 d = all[j] - all[i];
      if (d.x.sign() == 0 && d.y.sign() == 0) continue;
      for (const I2& axis : {d, I2{-d.y, d.x}}) {
        Int a_lo = dot(axis, a[0]), a_hi = a_lo, b_lo = dot(axis, b[0]), b_hi = b_lo;
        for (const I2& p : a) {
          const Int v = dot(axis, p);
          if (v < a_lo) a_lo = v;
          if (a_hi < v) a_hi = v;
        }
        for (const I2& p : b) {
          const Int v = dot(axis, p);
          if (v < b_lo) b_lo = v;
          if (b_hi < v) b_hi = v;
        }
        if (a_hi < b_lo || b_hi < a_lo) return false;
      }
    }
  // No separating axis (all points equal gives none, and then they meet).
  return true;
}

Int squared_distance_to_rectangle(const I2& lo, const I2& hi, const I2& p) {
  const auto gap = [](const Int& l, const Int& h, const Int& v) {
    if (v < l) return l - v;
    if (h < v) return v - h;
    return Int{};
  };
  const Int gx = gap(lo.x, hi.x, p.x), gy = gap(lo.y, hi.y, p.y);
  return gx * gx + gy * gy;
}

}  // namespace oracle::exact
