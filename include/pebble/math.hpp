// pebble/math.hpp — the small value types every query speaks: Vec2, Rot, Transform, Aabb.
// Conventions: float, y up, counter-clockwise; a Transform maps local to world
// (world = q * local + p). Everything here is constexpr where the standard library allows.
// Position is the type of world positions: Vec2 itself, or two doubles in a build with
// PEBBLE_DOUBLE_POSITIONS (pebble/config.hpp; docs/world.md, "Huge worlds").
#pragma once

#include <algorithm>
#include <cmath>

#include "pebble/config.hpp"
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

#if PEBBLE_DOUBLE_POSITIONS
/// The type of a world coordinate: double in this build (float without PEBBLE_DOUBLE_POSITIONS).
using Coordinate = double;
/// A world position in double: Transform::p, the world points of results, world boxes. Shapes,
/// directions and offsets stay Vec2 (float); a difference of two positions is a Vec2 rounded
/// once, so geometry relative to a nearby frame keeps float's relative precision however far
/// from the origin the frame is. From Vec2 it converts implicitly (exact); to Vec2 only through
/// to_vec2() (a rounding).
struct Position {
  ///@{
  double x = 0, y = 0;  ///< y up
  ///@}
  constexpr Position() noexcept = default;
  /// The point (x, y).
  constexpr Position(double px, double py) noexcept : x(px), y(py) {}
  /// The same point (exact).
  constexpr Position(Vec2 v) noexcept : x(v.x), y(v.y) {}  // NOLINT: widening is exact
  ///@{
  /// Moved by v, in double.
  constexpr Position& operator+=(Vec2 v) noexcept {
    x += double(v.x);
    y += double(v.y);
    return *this;
  }
  constexpr Position& operator-=(Vec2 v) noexcept {
    x -= double(v.x);
    y -= double(v.y);
    return *this;
  }
  ///@}
  /// Exact: both components equal.
  friend constexpr bool operator==(Position, Position) = default;
};
///@{
/// A position moved by an offset, in double.
constexpr Position operator+(Position a, Vec2 b) noexcept { return {a.x + double(b.x), a.y + double(b.y)}; }
constexpr Position operator+(Vec2 a, Position b) noexcept { return {double(a.x) + b.x, double(a.y) + b.y}; }
constexpr Position operator-(Position a, Vec2 b) noexcept { return {a.x - double(b.x), a.y - double(b.y)}; }
///@}
/// The offset from b to a: subtracted in double, then rounded once to float.
constexpr Vec2 operator-(Position a, Position b) noexcept { return {float(a.x - b.x), float(a.y - b.y)}; }
/// p rounded to float.
constexpr Vec2 to_vec2(Position p) noexcept { return {float(p.x), float(p.y)}; }
/// Componentwise minimum.
constexpr Position min(Position a, Position b) noexcept { return {std::min(a.x, b.x), std::min(a.y, b.y)}; }
/// Componentwise maximum.
constexpr Position max(Position a, Position b) noexcept { return {std::max(a.x, b.x), std::max(a.y, b.y)}; }
/// Componentwise absolute value.
inline Position abs(Position p) noexcept { return {std::fabs(p.x), std::fabs(p.y)}; }
/// a + t (b - a), in double.
constexpr Position lerp(Position a, Position b, float t) noexcept {
  return {a.x + double(t) * (b.x - a.x), a.y + double(t) * (b.y - a.y)};
}
/// True when both components are finite.
inline bool is_finite(Position p) noexcept { return std::isfinite(p.x) && std::isfinite(p.y); }
/// Halfway between a and b, in double.
constexpr Position midpoint(Position a, Position b) noexcept { return {0.5 * (a.x + b.x), 0.5 * (a.y + b.y)}; }
#else
/// A world position: Vec2 in this build (PEBBLE_DOUBLE_POSITIONS 0), two doubles in a build with
/// PEBBLE_DOUBLE_POSITIONS (docs/world.md, "Huge worlds").
using Position = Vec2;
/// The type of a world coordinate: float in this build (double with PEBBLE_DOUBLE_POSITIONS).
using Coordinate = float;
/// p as a Vec2 (the identity in this build; a rounding in a build with double positions).
constexpr Vec2 to_vec2(Position p) noexcept { return p; }
/// Halfway between a and b: 0.5 (a + b), in float in this build.
constexpr Vec2 midpoint(Vec2 a, Vec2 b) noexcept { return 0.5f * (a + b); }
#endif

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
  Position p{};  ///< where the local origin lands (world)
  Rot q{};       ///< the local axes' rotation to world

  /// Local equals world.
  static constexpr Transform identity() noexcept { return {}; }
  /// Exact: every field equal.
  friend constexpr bool operator==(const Transform&, const Transform&) = default;
};

/// Local point to world.
constexpr Position transform_point(const Transform& xf, Vec2 v) noexcept { return rotate(xf.q, v) + xf.p; }
/// Local point to the frame of a relative transform (inv_mul()'s result, whose position is an
/// offset that fits a float), in float: transform_point() without the world position's precision.
constexpr Vec2 relative_point(const Transform& rel, Vec2 v) noexcept { return rotate(rel.q, v) + to_vec2(rel.p); }
/// World point to local (the offset from xf.p rounded to float first, then rotated).
constexpr Vec2 inv_transform_point(const Transform& xf, Position v) noexcept { return inv_rotate(xf.q, v - xf.p); }
#if PEBBLE_DOUBLE_POSITIONS
/// The composition a * b (apply b, then a), b's position rotated in double.
constexpr Transform mul(const Transform& a, const Transform& b) noexcept {
  const double c = a.q.c, s = a.q.s;
  return {Position{c * b.p.x - s * b.p.y + a.p.x, s * b.p.x + c * b.p.y + a.p.y}, mul(a.q, b.q)};
}
/// The inverse transform, its position rotated in double.
constexpr Transform inverse(const Transform& xf) noexcept {
  const double c = xf.q.c, s = xf.q.s;
  return {Position{-(c * xf.p.x + s * xf.p.y), -(-s * xf.p.x + c * xf.p.y)}, Rot{xf.q.c, -xf.q.s}};
}
#else
/// The composition a * b (apply b, then a).
constexpr Transform mul(const Transform& a, const Transform& b) noexcept {
  return {rotate(a.q, b.p) + a.p, mul(a.q, b.q)};
}
/// The inverse transform.
constexpr Transform inverse(const Transform& xf) noexcept {
  const Rot qi{xf.q.c, -xf.q.s};
  return {-rotate(qi, xf.p), qi};
}
#endif
/// a^-1 * b: b expressed in a's frame (the relative transform of b with respect to a). The offset
/// b.p - a.p is rounded to float once (with double positions: subtracted in double first), so the
/// result has float's precision relative to the distance between the frames, not to their
/// distance from the origin; every query works on such relative geometry.
constexpr Transform inv_mul(const Transform& a, const Transform& b) noexcept {
  return {inv_rotate(a.q, b.p - a.p), inv_mul(a.q, b.q)};
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
inline bool is_valid_point(Position p) noexcept {
  return std::fabs(p.x) <= kMaxWorldCoordinate && std::fabs(p.y) <= kMaxWorldCoordinate;
}

/// An axis-aligned box by its lower-left and upper-right corners (boundary included).
/// (World boxes, the trees' boxes: in a build with PEBBLE_DOUBLE_POSITIONS the corners are doubles.)
struct Aabb {
  Position lower{};  ///< the least x and y
  Position upper{};  ///< the greatest x and y
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
constexpr bool contains(const Aabb& a, Position p) noexcept {
  return a.lower.x <= p.x && p.x <= a.upper.x && a.lower.y <= p.y && p.y <= a.upper.y;
}
/// True when the boxes share at least one point (touching counts).
constexpr bool overlaps(const Aabb& a, const Aabb& b) noexcept {
  return a.lower.x <= b.upper.x && b.lower.x <= a.upper.x && a.lower.y <= b.upper.y && b.lower.y <= a.upper.y;
}
#if PEBBLE_DOUBLE_POSITIONS
/// Perimeter, the cost measure of the AABB tree's surface-area heuristic.
constexpr float perimeter(const Aabb& a) noexcept {
  return float(2.0 * ((a.upper.x - a.lower.x) + (a.upper.y - a.lower.y)));
}
/// The midpoint of the corners.
constexpr Position center(const Aabb& a) noexcept {
  return {0.5 * (a.lower.x + a.upper.x), 0.5 * (a.lower.y + a.upper.y)};
}
#else
/// Perimeter, the cost measure of the AABB tree's surface-area heuristic.
constexpr float perimeter(const Aabb& a) noexcept { return 2.0f * ((a.upper.x - a.lower.x) + (a.upper.y - a.lower.y)); }
/// The midpoint of the corners.
constexpr Vec2 center(const Aabb& a) noexcept { return 0.5f * (a.lower + a.upper); }
#endif
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
