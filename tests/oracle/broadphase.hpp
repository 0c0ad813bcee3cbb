// tests/oracle/broadphase.hpp — reference answers for box queries, in long double, by brute force
// over every box: overlap of two closed boxes, and the interval of times at which a box moving
// along a segment overlaps another box. No pebble header is included.
#pragma once

#include "oracle/oracle.hpp"

namespace oracle {

/// A closed axis-aligned box.
struct Box {
  real lo_x = 0, lo_y = 0, hi_x = 0, hi_y = 0;
};

/// True when the closed boxes share a point (touching counts).
bool boxes_overlap(const Box& a, const Box& b);

/// How far apart two boxes are, signed: the larger of the two axis gaps (positive: that far
/// apart along that axis; negative or zero: overlapping, by at least that much on both axes).
real box_gap(const Box& a, const Box& b);

/// The times t in [0, t_max] at which a box of half extents (hx, hy) centred at origin + t *
/// translation overlaps the closed box b: per axis the interval where the centres are within the
/// summed half widths, intersected. hit is false when the interval is empty.
struct SweepInterval {
  bool hit = false;
  real enter = 0;  ///< first time of overlap
  real leave = 0;  ///< last time of overlap (within t_max)
};
SweepInterval sweep_box(V origin, real hx, real hy, V translation, const Box& b, real t_max);

}  // namespace oracle
