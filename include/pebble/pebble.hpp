// pebble/pebble.hpp — the umbrella header: everything pebble offers.
#pragma once

/// \mainpage pebble: 2D collision detection on rounded convex polygons
///
/// Every collider is one thing, a convex core of 1 to 8 vertices grown by a radius (pebble::Shape),
/// so circles, capsules, boxes and rounded polygons go through the same queries. Conventions, as
/// every page here says them: float, y up, counter-clockwise cores; a Transform maps local to
/// world; result normals are unit, in world space, from A to B; signed distances are negative
/// when shapes overlap. Queries are noexcept, allocate nothing and give a defined empty result for
/// non-finite input; the shape makers throw pebble::InvalidShape.
///
/// Start from the namespace pebble (the queries and types), pebble::batch (many pairs per call) and
/// pebble::prim (the toolbox on plain structs). The repository's README and docs/ explain the
/// algorithms, accuracy and speed.

/// \namespace pebble
/// The library: shapes, pair and point queries, casts, the AABB tree, the collision world, chains, heightfields,
/// tiles, decomposition and the character mover.

/// \namespace pebble::batch
/// Pair queries over many pairs per call, each result the one-at-a-time query's bits (batch.hpp).

/// \namespace pebble::prim
/// The toolbox on plain structs (primitives.hpp): exact yes/no tests without a Shape.

#include "pebble/batch.hpp"
#include "pebble/cast.hpp"
#include "pebble/chain.hpp"
#include "pebble/constants.hpp"
#include "pebble/decompose.hpp"
#include "pebble/distance.hpp"
#include "pebble/heightfield.hpp"
#include "pebble/manifold.hpp"
#include "pebble/mass.hpp"
#include "pebble/math.hpp"
#include "pebble/mover.hpp"
#include "pebble/point.hpp"
#include "pebble/primitives.hpp"
#include "pebble/ray.hpp"
#include "pebble/recording.hpp"
#include "pebble/shape.hpp"
#include "pebble/simd.hpp"
#include "pebble/tiles.hpp"
#include "pebble/tree.hpp"
#include "pebble/world.hpp"
