// Internal: how the shape makers refuse their input (shape.cpp, chain.cpp, decompose.cpp,
// tiles.cpp, mass.cpp), written once so that every message reads alike: "pebble: <maker>: <what is
// wrong> <the value>", and every point is checked and named the same way. Not installed.
#pragma once

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>

#include "pebble/constants.hpp"
#include "pebble/math.hpp"
#include "pebble/shape.hpp"

namespace pebble::detail {

/// Throws InvalidShape("pebble: <maker>: <what>"), or "pebble: <what>" when maker is empty.
[[noreturn, gnu::cold]] inline void fail(std::string_view maker, const std::string& what) {
  std::string message = "pebble: ";
  if (!maker.empty()) message.append(maker).append(": ");
  throw InvalidShape(message + what);
}

/// A point as "(x, y)" with the given significant digits (6 is the stream's default; 9 shows every
/// float apart).
inline std::string describe(Vec2 v, int digits = 6) {
  std::ostringstream out;
  out.precision(digits);
  out << '(' << v.x << ", " << v.y << ')';
  return out.str();
}

/// Throws for point `index`, which check_point() refused: a non-finite coordinate, or one beyond
/// kMaxShapeExtent (then `hint`, if any, follows the message).
[[noreturn, gnu::noinline, gnu::cold]] inline void fail_point(std::string_view maker, Vec2 p, std::size_t index,
                                                              int digits = 6, std::string_view hint = {}) {
  std::ostringstream out;
  if (!(std::isfinite(p.x) && std::isfinite(p.y))) {
    out << "point " << index << " has a non-finite coordinate " << describe(p, digits);
  } else {
    out << "point " << index << ' ' << describe(p, digits) << " lies beyond the largest supported extent "
        << kMaxShapeExtent << hint;
  }
  fail(maker, out.str());
}

/// A maker's input point must be finite and within kMaxShapeExtent: the queries' tolerances and the
/// exact predicates assume it. One comparison per coordinate (NaN fails it too).
inline void check_point(std::string_view maker, Vec2 p, std::size_t index, int digits = 6, std::string_view hint = {}) {
  if (!(std::fabs(p.x) <= kMaxShapeExtent && std::fabs(p.y) <= kMaxShapeExtent))
    fail_point(maker, p, index, digits, hint);
}

}  // namespace pebble::detail
