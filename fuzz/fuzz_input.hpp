// fuzz/fuzz_input.hpp — turns the fuzzer's bytes into pebble inputs (numbers, points, shapes,
// transforms, rays, sweeps), and FuzzWriter, its mirror, which writes the hand-made seeds.
//
// Most numbers come out as small dyadic values (k / 256), where exact touching, collinear points
// and parallel edges happen often; a tag byte also asks for any bit pattern (NaN, infinities,
// denormals), a value from a table of troublemakers (1e30, 1e9, the largest float, ...), tiny
// values, or large ones. Bytes past the end read as zero, so every input means something.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <pebble/shape.hpp>

namespace pebble_fuzz {

using pebble::Rot;
using pebble::Shape;
using pebble::Transform;
using pebble::Vec2;

/// The values a fuzzer would rarely build from random bits but that break code: signed zeros,
/// the limits pebble checks against and their neighbours, non-finite values, denormals.
inline constexpr float kSpecialValues[] = {
    0.0f,
    -0.0f,
    1.0f,
    -1.0f,
    0.5f,
    0.01f,
    1e4f,
    -1e4f,
    1e7f,          // kMaxShapeExtent
    1.0000001e7f,  // just beyond it
    1e9f,          // kMaxWorldCoordinate
    -1e9f,
    1.00000006e9f,  // just beyond it
    1e30f,
    -1e30f,
    std::numeric_limits<float>::max(),
    -std::numeric_limits<float>::max(),
    std::numeric_limits<float>::infinity(),
    -std::numeric_limits<float>::infinity(),
    std::numeric_limits<float>::quiet_NaN(),
    std::numeric_limits<float>::min(),  // smallest normal
    std::numeric_limits<float>::denorm_min(),
    -std::numeric_limits<float>::denorm_min(),
    1e-40f,  // a denormal
    std::numeric_limits<float>::epsilon(),
    1e-20f,
    1e-10f,
    3.0e38f,  // kHugeDistance
    0.005f,   // kLinearSlop
    1.001f,   // a rotation just off unit length
    0.70710678f,
    1e-3f,
};
inline constexpr int kSpecialCount = int(sizeof(kSpecialValues) / sizeof(kSpecialValues[0]));

/// How number() reads a value: the low 3 bits of its tag byte.
enum NumberTag : std::uint8_t {
  kRawBits = 0,  ///< 4 bytes: any float at all
  kSpecial = 1,  ///< 1 byte: an entry of kSpecialValues
  kDyadic = 2,   ///< 2 bytes: int16 / 256 (tags 2, 3 and 4 all read this way)
  kTiny = 5,     ///< 2 bytes: int16 / 65536
  kLarge = 6,    ///< 4 bytes: int32 / 256, up to about 8e6
  kInteger = 7,  ///< 2 bytes: int16
};

/// Reads the fuzzer's bytes front to back.
class FuzzInput {
public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  std::uint8_t u8() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint16_t u16() { return std::uint16_t(u8() | (u8() << 8)); }
  std::uint32_t u32() { return std::uint32_t(u16()) | (std::uint32_t(u16()) << 16); }
  std::int16_t i16() { return std::int16_t(u16()); }
  bool flag() { return (u8() & 1) != 0; }
  /// An integer in [0, n).
  int below(int n) { return n > 0 ? int(u8() % unsigned(n)) : 0; }

  float number() {
    const float v = read_number();
    return std::fabs(v) < flush_below_ ? 0.0f : v;
  }
  /// From now on number() reads nonzero values of magnitude below `limit` as 0.
  void flush_below(float limit) { flush_below_ = limit; }
  Vec2 vec2() {
    const float x = number();
    return {x, number()};
  }
  /// A length for a maker that wants one >= 0: |number()| (non-finite values stay so).
  float length() { return std::fabs(number()); }

  Rot rotation() {
    switch (u8() & 3) {
      case 0:
        return Rot::from_angle(number());
      case 1: {  // any pair at all: zero, non-unit, non-finite
        const float c = number();
        return Rot{c, number()};
      }
      case 2:
        return Rot::identity();
      default: {  // exact quarter turns and a 3-4-5 rotation: edges exactly axis-aligned
        static constexpr Rot kExact[] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {0.6f, 0.8f}, {-0.8f, 0.6f}};
        return kExact[u8() % 6];
      }
    }
  }
  Transform transform() {
    const Vec2 p = vec2();
    return {p, rotation()};
  }

  /// Points for Shape::polygon: up to 11, some repeating, lying between or nudged next to earlier
  /// ones, so that duplicates, collinear runs and near-equal points come often.
  std::vector<Vec2> points() {
    std::vector<Vec2> out;
    const int n = below(12);
    for (int i = 0; i < n; ++i) {
      // After the first point, a byte says how: 4 repeats an earlier point, 5 puts one between two
      // earlier ones, 6 moves an earlier one by a float step; anything else reads a new point.
      const int how = out.empty() ? 0 : below(8);
      const auto earlier = [&] { return out[std::size_t(below(int(out.size())))]; };
      if (how == 4) {
        out.push_back(earlier());
      } else if (how == 5) {
        const Vec2 first = earlier(), second = earlier();
        out.push_back(pebble::lerp(first, second, float(u8()) / 255.0f));
      } else if (how == 6) {
        const Vec2 from = earlier();
        const float toward = flag() ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
        out.push_back(flag() ? Vec2{std::nextafter(from.x, toward), from.y}
                             : Vec2{from.x, std::nextafter(from.y, toward)});
      } else {
        out.push_back(vec2());
      }
    }
    return out;
  }

  /// One of the shape makers with arguments read from the input; throws what the maker throws.
  /// With `non_negative`, lengths (radii, half extents) are read by length(), so that most shapes
  /// are valid (the query and world targets); without, any value (the shape target).
  Shape shape(bool non_negative) {
    auto len = [&] { return non_negative ? length() : number(); };
    switch (below(7)) {
      case 0: {
        const float r = len();
        return Shape::circle(r, vec2());
      }
      case 1: {
        const Vec2 a = vec2(), b = vec2();
        return Shape::capsule(a, b, len());
      }
      case 2: {
        const Vec2 a = vec2();
        return Shape::segment(a, vec2());
      }
      case 3: {
        const float hw = len();
        return Shape::box(hw, len());
      }
      case 4: {
        const float hw = len(), hh = len();
        const Vec2 c = vec2();
        return Shape::box(hw, hh, c, number());
      }
      case 5: {
        const float hw = len(), hh = len();
        return Shape::rounded_box(hw, hh, len());
      }
      default: {
        const std::vector<Vec2> pts = points();
        return Shape::polygon(pts, len());
      }
    }
  }

  /// shape(true), or `fallback` when the maker refuses the input.
  Shape shape_or(const Shape& fallback) {
    try {
      return shape(true);
    } catch (const pebble::InvalidShape&) {
      return fallback;
    }
  }

private:
  float read_number() {
    const std::uint8_t tag = u8();
    switch (tag & 7) {
      case kRawBits:
        return std::bit_cast<float>(u32());
      case kSpecial:
        return kSpecialValues[u8() % kSpecialCount];
      case kTiny:
        return float(i16()) / 65536.0f;
      case kLarge:
        return float(std::int32_t(u32())) / 256.0f;
      case kInteger:
        return float(i16());
      default:
        return float(i16()) / 256.0f;
    }
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  float flush_below_ = 0;
};

/// Writes bytes that FuzzInput reads back as the given values: for the hand-made seeds.
class FuzzWriter {
public:
  std::vector<std::uint8_t> bytes;

  FuzzWriter& u8(std::uint8_t v) {
    bytes.push_back(v);
    return *this;
  }
  FuzzWriter& u16(std::uint16_t v) { return u8(std::uint8_t(v)).u8(std::uint8_t(v >> 8)); }
  FuzzWriter& u32(std::uint32_t v) { return u16(std::uint16_t(v)).u16(std::uint16_t(v >> 16)); }

  /// The shortest encoding of v: a dyadic k / 256, an entry of kSpecialValues, else its bits.
  FuzzWriter& number(float v) {
    const float k = v * 256.0f;
    if (std::isfinite(v) && k == std::trunc(k) && std::fabs(k) <= 32767 && !(v == 0 && std::signbit(v))) {
      return u8(kDyadic).u16(std::uint16_t(std::int16_t(k)));
    }
    for (int i = 0; i < kSpecialCount; ++i) {
      if (std::bit_cast<std::uint32_t>(kSpecialValues[i]) == std::bit_cast<std::uint32_t>(v))
        return u8(kSpecial).u8(std::uint8_t(i));
    }
    return u8(kRawBits).u32(std::bit_cast<std::uint32_t>(v));
  }
  FuzzWriter& vec2(Vec2 v) { return number(v.x).number(v.y); }
  FuzzWriter& flag(bool v) { return u8(v ? 1 : 0); }

  FuzzWriter& angle(float radians) { return u8(0).number(radians); }
  FuzzWriter& rotation(Rot q) { return u8(1).number(q.c).number(q.s); }
  FuzzWriter& identity() { return u8(2); }
  FuzzWriter& transform(Vec2 p, float radians) { return vec2(p).angle(radians); }
  FuzzWriter& transform(Vec2 p, Rot q) { return vec2(p).rotation(q); }

  FuzzWriter& circle(float r, Vec2 c = {}) { return u8(0).number(r).vec2(c); }
  FuzzWriter& capsule(Vec2 a, Vec2 b, float r) { return u8(1).vec2(a).vec2(b).number(r); }
  FuzzWriter& segment(Vec2 a, Vec2 b) { return u8(2).vec2(a).vec2(b); }
  FuzzWriter& box(float hw, float hh) { return u8(3).number(hw).number(hh); }
  FuzzWriter& box(float hw, float hh, Vec2 c, float angle) { return u8(4).number(hw).number(hh).vec2(c).number(angle); }
  FuzzWriter& rounded_box(float hw, float hh, float r) { return u8(5).number(hw).number(hh).number(r); }
  /// A polygon of the given points (each written as a new point), then its radius.
  FuzzWriter& polygon(const std::vector<Vec2>& pts, float r) {
    u8(6).u8(std::uint8_t(pts.size()));
    for (std::size_t i = 0; i < pts.size(); ++i) {
      if (i > 0) u8(0);  // "a new point"
      vec2(pts[i]);
    }
    return number(r);
  }
};

}  // namespace pebble_fuzz
