// pebble/math.hpp — the small value types every query speaks: Vec2, Rot, Transform, Aabb.
// Conventions: float, y up, counter-clockwise; a Transform maps local to world
// (world = q * local + p). Everything here is constexpr where the standard library allows.
#pragma once

#include <algorithm>
#include <cmath>

#include "pebble/constants.hpp"

namespace pebble {

/// A 2D vector or point.
struct Vec2 {
  ///@{
  float x = 0, y = 0;  ///< y up
  ///@}

  ///@{
  /// Componentwise, in place.
  constexpr Vec2& operator+=(Vec2 v) noexcept {
    x += v.x;
    y += v.y;
    return *this;
  }
  constexpr Vec2& operator-=(Vec2 v) noexcept {
    x -= v.x;
    y -= v.y;
    return *this;
  }
  constexpr Vec2& operator*=(float s) noexcept {
    x *= s;
    y *= s;
    return *this;
  }
  ///@}
  /// Exact: both components equal (so -0 == 0, and NaN is unequal to itself).
  friend constexpr bool operator==(Vec2, Vec2) = default;
};

///@{
/// Componentwise arithmetic, one float rounding per component.
constexpr Vec2 operator+(Vec2 a, Vec2 b) noexcept { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) noexcept { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator-(Vec2 a) noexcept { return {-a.x, -a.y}; }
constexpr Vec2 operator*(float s, Vec2 v) noexcept { return {s * v.x, s * v.y}; }
constexpr Vec2 operator*(Vec2 v, float s) noexcept { return {s * v.x, s * v.y}; }
constexpr Vec2 operator/(Vec2 v, float s) noexcept { return {v.x / s, v.y / s}; }
///@}

/// a.x b.x + a.y b.y, in float.
constexpr float dot(Vec2 a, Vec2 b) noexcept { return a.x * b.x + a.y * b.y; }
/// z of the 3D cross product: positive when b is counter-clockwise from a.
constexpr float cross(Vec2 a, Vec2 b) noexcept { return a.x * b.y - a.y * b.x; }
/// v rotated by -90 degrees (the outward normal direction of a CCW edge v).
constexpr Vec2 right_perp(Vec2 v) noexcept { return {v.y, -v.x}; }
/// v rotated by +90 degrees.
constexpr Vec2 left_perp(Vec2 v) noexcept { return {-v.y, v.x}; }
/// dot(v, v): no square root, for comparisons.
constexpr float length_squared(Vec2 v) noexcept { return dot(v, v); }
/// |v|. Also for a vector so short that its squared length is a float denormal (below 2^-120):
/// then it is measured scaled by 2^100 (exactly), so that v / length(v) stays unit down to
/// lengths of float's smallest normal number (about 1.2e-38; normalize() goes below that too).
inline float length(Vec2 v) noexcept {
  const float len2 = dot(v, v);
  if (!(len2 < 0x1p-120f)) return std::sqrt(len2);  // the common case (NaN too)
  const float x = v.x * 0x1p100f, y = v.y * 0x1p100f;
  return std::sqrt(x * x + y * y) * 0x1p-100f;
}
/// |b - a|.
inline float distance(Vec2 a, Vec2 b) noexcept { return length(b - a); }
/// |b - a|^2: no square root, for comparisons.
constexpr float distance_squared(Vec2 a, Vec2 b) noexcept { return length_squared(b - a); }
/// Unit vector along v, or {0, 0} when v is zero (or not finite).
inline Vec2 normalize(Vec2 v) noexcept {
  const float len2 = dot(v, v);
  // Below 2^-120 the square is a float denormal (or 0) with few bits left: scale v by 2^100
  // (exact) first, which brings even the smallest denormal's square back into the normal range.
  if (!(len2 >= 0x1p-120f)) {
    const Vec2 w{v.x * 0x1p100f, v.y * 0x1p100f};
    const float w2 = dot(w, w);
    if (!(w2 > 0)) return Vec2{};
    const float wlen = std::sqrt(w2);
    return Vec2{w.x / wlen, w.y / wlen};
  }
  const float len = std::sqrt(len2);
  return Vec2{v.x / len, v.y / len};
}
/// Componentwise minimum (the lower corner of a box holding both).
constexpr Vec2 min(Vec2 a, Vec2 b) noexcept { return {std::min(a.x, b.x), std::min(a.y, b.y)}; }
/// Componentwise maximum (the upper corner of a box holding both).
constexpr Vec2 max(Vec2 a, Vec2 b) noexcept { return {std::max(a.x, b.x), std::max(a.y, b.y)}; }
/// Componentwise absolute value.
inline Vec2 abs(Vec2 v) noexcept { return {std::fabs(v.x), std::fabs(v.y)}; }
/// a + t (b - a): a at t = 0, b at t = 1.
constexpr Vec2 lerp(Vec2 a, Vec2 b, float t) noexcept { return {a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)}; }
/// True when both components are finite.
inline bool is_finite(Vec2 v) noexcept { return std::isfinite(v.x) && std::isfinite(v.y); }

/// A rotation stored as cosine and sine of its angle.
struct Rot {
  float c = 1;  ///< cosine of the angle
  float s = 0;  ///< sine of the angle (counter-clockwise positive)

  /// The rotation by `radians` (counter-clockwise). pebble's own cosine and sine, not the C
  /// library's, so that every platform (x86-64, ARM64, WebAssembly) gives the same bits: each
  /// within 0.5 ulp (plus 1e-7 ulp) of the exact value, so c*c + s*s is within 3e-7 of 1. A
  /// non-finite angle gives NaN (a rotation no query accepts). Beyond 2^19 rad the angle is
  /// reduced modulo a double 2 pi, off by |radians| x 4e-17 rad.
  static Rot from_angle(float radians) noexcept;
  /// No rotation: c = 1, s = 0.
  static constexpr Rot identity() noexcept { return {1, 0}; }
  /// The angle in [-pi, pi] (atan2(s, c), pebble's own, within 0.5 ulp plus 1e-7 ulp; -pi only
  /// for s = -0).
  float angle() const noexcept;
  /// Exact: both fields equal.
  friend constexpr bool operator==(Rot, Rot) = default;
};

/// q scaled to unit length (computed in double, rounded once: within 3e-7 of unit), for rotations
/// composed many times over (kRotationTolerance); the identity for a zero or non-finite q.
inline Rot normalize(Rot q) noexcept {
  const double c = q.c, s = q.s, len = std::sqrt(c * c + s * s);
  if (!(len > 0) || !(len <= 1e30)) return Rot::identity();
  return {float(c / len), float(s / len)};
}

/// q applied to v.
constexpr Vec2 rotate(Rot q, Vec2 v) noexcept { return {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y}; }
/// The inverse of q applied to v.
constexpr Vec2 inv_rotate(Rot q, Vec2 v) noexcept { return {q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y}; }
/// Rotation by q then r: r * q.
constexpr Rot mul(Rot r, Rot q) noexcept { return {r.c * q.c - r.s * q.s, r.s * q.c + r.c * q.s}; }
/// r^-1 * q: the rotation of q relative to r.
constexpr Rot inv_mul(Rot r, Rot q) noexcept { return {r.c * q.c + r.s * q.s, r.c * q.s - r.s * q.c}; }

/// A rigid motion mapping local coordinates to world: world = q * local + p.
struct Transform {
  Vec2 p{};  ///< where the local origin lands (world)
  Rot q{};   ///< the local axes' rotation to world

  /// Local equals world.
  static constexpr Transform identity() noexcept { return {}; }
  /// Exact: every field equal.
  friend constexpr bool operator==(const Transform&, const Transform&) = default;
};

/// Local point to world.
constexpr Vec2 transform_point(const Transform& xf, Vec2 v) noexcept { return rotate(xf.q, v) + xf.p; }
/// World point to local.
constexpr Vec2 inv_transform_point(const Transform& xf, Vec2 v) noexcept { return inv_rotate(xf.q, v - xf.p); }
/// The composition a * b (apply b, then a).
constexpr Transform mul(const Transform& a, const Transform& b) noexcept {
  return {rotate(a.q, b.p) + a.p, mul(a.q, b.q)};
}
/// a^-1 * b: b expressed in a's frame (the relative transform of b with respect to a).
constexpr Transform inv_mul(const Transform& a, const Transform& b) noexcept {
  return {inv_rotate(a.q, b.p - a.p), inv_mul(a.q, b.q)};
}
/// The inverse transform.
constexpr Transform inverse(const Transform& xf) noexcept {
  const Rot qi{xf.q.c, -xf.q.s};
  return {-rotate(qi, xf.p), qi};
}
/// True when every field is finite, the translation is within kMaxWorldCoordinate and the
/// rotation is a unit rotation. Queries return their empty result for any other transform.
/// (Every comparison with NaN is false and infinities fail the bounds, so three comparisons
/// cover non-finite fields too.)
/// (Combined with & rather than &&: one branch for the caller instead of three; as ints, so that
/// clang's -Wbitwise-instead-of-logical stays quiet in users' builds.)
inline bool is_valid(const Transform& xf) noexcept {
  return (int(std::fabs(xf.p.x) <= kMaxWorldCoordinate) & int(std::fabs(xf.p.y) <= kMaxWorldCoordinate) &
          int(std::fabs(xf.q.c * xf.q.c + xf.q.s * xf.q.s - 1.0f) <= kRotationTolerance)) != 0;
}
/// True when p is finite and within kMaxWorldCoordinate.
inline bool is_valid_point(Vec2 p) noexcept {
  return std::fabs(p.x) <= kMaxWorldCoordinate && std::fabs(p.y) <= kMaxWorldCoordinate;
}

/// An axis-aligned box by its lower-left and upper-right corners (boundary included).
struct Aabb {
  Vec2 lower{};  ///< the least x and y
  Vec2 upper{};  ///< the greatest x and y
  /// Exact: both corners equal.
  friend constexpr bool operator==(const Aabb&, const Aabb&) = default;
};

/// The smallest box holding both.
constexpr Aabb combine(const Aabb& a, const Aabb& b) noexcept { return {min(a.lower, b.lower), max(a.upper, b.upper)}; }
/// True when b lies inside a (boundary included).
constexpr bool contains(const Aabb& a, const Aabb& b) noexcept {
  return a.lower.x <= b.lower.x && a.lower.y <= b.lower.y && b.upper.x <= a.upper.x && b.upper.y <= a.upper.y;
}
/// True when p lies inside a (boundary included).
constexpr bool contains(const Aabb& a, Vec2 p) noexcept {
  return a.lower.x <= p.x && p.x <= a.upper.x && a.lower.y <= p.y && p.y <= a.upper.y;
}
/// True when the boxes share at least one point (touching counts).
constexpr bool overlaps(const Aabb& a, const Aabb& b) noexcept {
  return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y && b.lower.y <= a.upper.y;
}
/// Perimeter, the cost measure of the AABB tree's surface-area heuristic.
constexpr float perimeter(const Aabb& a) noexcept { return 2.0f * ((a.upper.x - a.lower.x) + (a.upper.y - a.lower.y)); }
/// The midpoint of the corners.
constexpr Vec2 center(const Aabb& a) noexcept { return 0.5f * (a.lower + a.upper); }
/// Half width and half height.
constexpr Vec2 extents(const Aabb& a) noexcept { return 0.5f * (a.upper - a.lower); }
/// The box grown by margin on every side.
constexpr Aabb inflate(const Aabb& a, float margin) noexcept {
  return {{a.lower.x - margin, a.lower.y - margin}, {a.upper.x + margin, a.upper.y + margin}};
}
/// True when lower <= upper and every coordinate is finite.
inline bool is_valid(const Aabb& a) noexcept {
  return is_finite(a.lower) && is_finite(a.upper) && a.lower.x <= a.upper.x && a.lower.y <= a.upper.y;
}

}  // namespace pebble
