// Random shapes and placements the world, snapshot, chain and heightfield tests share. Each
// function's sequence of draws is part of the tests that use it: changing it changes their cases.
#pragma once

#include <pebble/shape.hpp>
#include <vector>

#include "random_cases.hpp"

namespace test_random {

/// A collider of any kind about `size` across: an offset circle, a capsule, a box, a rounded box, a
/// segment, (offset_boxes) a box away from its frame's origin and turned, or a polygon of 8 random
/// points, sharp or rounded.
inline pebble::Shape random_collider(Rng& rng, float size, bool offset_boxes = false) {
  using pebble::Shape;
  constexpr float kPi = 3.14159265358979f;
  switch (rng.integer(0, offset_boxes ? 6 : 5)) {
    case 0:
      return Shape::circle(size * float(rng.uniform(0.3, 1)), {float(rng.uniform(-0.2, 0.2)) * size, 0});
    case 1:
      return Shape::capsule({-size * 0.6f, 0}, {size * 0.6f, float(rng.uniform(-0.3, 0.3)) * size},
                            size * float(rng.uniform(0.1, 0.5)));
    case 2:
      return Shape::box(size * float(rng.uniform(0.2, 1)), size * float(rng.uniform(0.2, 1)));
    case 3:
      return Shape::rounded_box(size * float(rng.uniform(0.4, 1)), size * float(rng.uniform(0.4, 1)), size * 0.2f);
    case 4:
      return Shape::segment({-size, 0}, {size, float(rng.uniform(-0.5, 0.5)) * size});
    case 5:
      if (offset_boxes)
        return Shape::box(size * float(rng.uniform(0.2, 1)), size * float(rng.uniform(0.2, 1)), rng.in_disc(size),
                          float(rng.uniform(-kPi, kPi)));
      [[fallthrough]];
    default: {
      std::vector<pebble::Vec2> points;
      for (int i = 0; i < 8; ++i) points.push_back(rng.in_disc(size));
      return Shape::polygon(points, rng.chance(0.5) ? size * 0.1f : 0.0f);
    }
  }
}

/// A body to drop on terrain: a box, a rounded box, a capsule, a circle or a polygon of 7 random
/// points, sharp or rounded.
inline pebble::Shape random_body(Rng& rng, float size) {
  using pebble::Shape;
  switch (rng.integer(0, 4)) {
    case 0:
      return Shape::box(size * float(rng.uniform(0.3, 1)), size * float(rng.uniform(0.3, 1)));
    case 1:
      return Shape::rounded_box(size, size * float(rng.uniform(0.4, 1)), size * 0.2f);
    case 2:
      return Shape::capsule({-size * 0.7f, 0}, {size * 0.7f, 0}, size * 0.3f);
    case 3:
      return Shape::circle(size * float(rng.uniform(0.3, 1)));
    default: {
      std::vector<pebble::Vec2> points;
      for (int i = 0; i < 7; ++i) points.push_back(rng.in_disc(size));
      return Shape::polygon(points, rng.chance(0.5) ? size * 0.1f : 0.0f);
    }
  }
}

/// A frame anywhere in [-span, span]² at any angle.
inline pebble::Transform random_transform(Rng& rng, float span) {
  constexpr float kPi = 3.14159265358979f;
  return {{float(rng.uniform(-span, span)), float(rng.uniform(-span, span))},
          pebble::Rot::from_angle(float(rng.uniform(-kPi, kPi)))};
}

}  // namespace test_random
