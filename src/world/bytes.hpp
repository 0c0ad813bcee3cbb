// Little-endian fields, whatever the machine's byte order, for the two formats that hold a world:
// snapshots (snapshot.cpp) and recordings (recording.cpp). Both lay out a number, a vector, a
// position and a transform the same way; docs/world.md gives the formats.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "pebble/math.hpp"

namespace pebble::detail {

inline void store_le32(std::byte* p, std::uint32_t v) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, 4);
  } else {
    for (int k = 0; k < 4; ++k) p[k] = std::byte(std::uint8_t(v >> (8 * k)));
  }
}

inline std::uint32_t load_le32(const std::byte* p) noexcept {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::big) {
    v = 0;
    for (int k = 0; k < 4; ++k) v |= std::uint32_t(std::uint8_t(p[k])) << (8 * k);
  }
  return v;
}

inline std::uint64_t load_le64(const std::byte* p) noexcept {
  return std::uint64_t(load_le32(p)) | std::uint64_t(load_le32(p + 4)) << 32;
}

/// The fields, written through Out::put(const std::byte*, std::size_t), which appends bytes.
/// A position is a Vec2 (two floats), or two doubles in a build with double positions.
template <class Out>
class FieldWriter {
public:
  void u8(std::uint8_t v) {
    const std::byte b{v};
    out().put(&b, 1);
  }
  void u16(std::uint16_t v) {
    u8(std::uint8_t(v));
    u8(std::uint8_t(v >> 8));
  }
  void u32(std::uint32_t v) {
    std::byte b[4];
    store_le32(b, v);
    out().put(b, 4);
  }
  void u64(std::uint64_t v) {
    u32(std::uint32_t(v));
    u32(std::uint32_t(v >> 32));
  }
  void i32(std::int32_t v) { u32(std::uint32_t(v)); }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
  void vec(Vec2 v) {
    f32(v.x);
    f32(v.y);
  }
#if PEBBLE_DOUBLE_POSITIONS
  void position(Position p) {
    f64(p.x);
    f64(p.y);
  }
#else
  void position(Vec2 p) { vec(p); }
#endif
  void transform(const Transform& xf) {
    position(xf.p);
    f32(xf.q.c);
    f32(xf.q.s);
  }

private:
  Out& out() { return static_cast<Out&>(*this); }
};

/// The same fields read back through In::take(std::byte*, std::size_t n, const char* what), which
/// gives the next n bytes or throws the format's error naming `what`. No check of the values here:
/// each format decides what it refuses.
template <class In>
class FieldReader {
public:
  std::uint8_t u8(const char* what = "a byte") {
    std::byte b;
    in().take(&b, 1, what);
    return std::uint8_t(b);
  }
  std::uint32_t u32(const char* what = "a number") {
    std::byte b[4];
    in().take(b, 4, what);
    return load_le32(b);
  }
  std::uint64_t u64(const char* what = "a number") {
    std::byte b[8];
    in().take(b, 8, what);
    return load_le64(b);
  }
  std::int32_t i32(const char* what = "a number") { return std::int32_t(u32(what)); }
  float f32(const char* what = "a number") { return std::bit_cast<float>(u32(what)); }
  double f64(const char* what = "a number") { return std::bit_cast<double>(u64(what)); }
  Vec2 vec(const char* what = "a vector") {
    const float x = f32(what);
    return {x, f32(what)};
  }
  Position position(const char* what = "a position") {
#if PEBBLE_DOUBLE_POSITIONS
    const double x = f64(what);
    return {x, f64(what)};
#else
    return vec(what);
#endif
  }
  Transform transform(const char* what = "a transform") {
    const Position p = position(what);
    const float c = f32(what);
    return {p, Rot{c, f32(what)}};
  }

private:
  In& in() { return static_cast<In&>(*this); }
};

}  // namespace pebble::detail
