// A pebble Shape placed by a Transform, as the oracle's plain long-double shape in world
// coordinates (the core's vertices transformed in long double, the radius as is). Shared by the
// tests that hand whole scenes to the oracle; the oracle itself stays free of pebble headers.
#pragma once

#include <pebble/shape.hpp>

#include "oracle/oracle.hpp"

namespace test_oracle {

inline oracle::RShape to_oracle(const pebble::Shape& shape, const pebble::Transform& xf) {
  oracle::RShape s;
  for (const pebble::Vec2 v : shape.vertices()) {
    const long double x = v.x, y = v.y;
    s.core.push_back({xf.q.c * x - xf.q.s * y + xf.p.x, xf.q.s * x + xf.q.c * y + xf.p.y});
  }
  s.radius = shape.radius();
  return s;
}

}  // namespace test_oracle
