// pebble/pebble.hpp — the umbrella header: everything pebble offers.
#pragma once

#include "pebble/constants.hpp"
#include "pebble/math.hpp"
#include "pebble/shape.hpp"
#include "pebble/mass.hpp"
#include "pebble/point.hpp"
#include "pebble/distance.hpp"
#include "pebble/manifold.hpp"
#include "pebble/ray.hpp"
#include "pebble/cast.hpp"
#include "pebble/primitives.hpp"
#include "pebble/simd.hpp"
#include "pebble/tree.hpp"
#include "pebble/world.hpp"
#include "pebble/chain.hpp"
#include "pebble/tiles.hpp"
#include "pebble/decompose.hpp"
