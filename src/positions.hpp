// The few position operations whose float-build form must stay the bare expression it replaced.
// With PEBBLE_DOUBLE_POSITIONS (pebble/config.hpp) they are math.hpp's functions; without, the
// expressions themselves, because even an inlined function layer moves GCC's inlining and
// scheduling decisions, and the float build's machine code is kept as it was (docs/world.md,
// "Huge worlds").
#pragma once

#include "pebble/math.hpp"

#if PEBBLE_DOUBLE_POSITIONS
/// A position known to be small (a point in a relative frame) as a Vec2.
#define PEBBLE_LOCAL(p) ::pebble::to_vec2(p)
/// Halfway between two world positions.
#define PEBBLE_MIDPOINT(a, b) ::pebble::midpoint(a, b)
/// A local point carried into the frame of a relative transform (inv_mul()'s result), in float.
#define PEBBLE_RELATIVE_POINT(rel, v) ::pebble::relative_point(rel, v)
#else
#define PEBBLE_LOCAL(p) (p)
#define PEBBLE_MIDPOINT(a, b) (0.5f * ((a) + (b)))
#define PEBBLE_RELATIVE_POINT(rel, v) ::pebble::transform_point(rel, v)
#endif
