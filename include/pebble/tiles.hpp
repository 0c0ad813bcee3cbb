// pebble/tiles.hpp — a tile map's solid cells as outlines ready for one-sided chains, so that a
// floor of tiles becomes one smooth surface instead of boxes laid edge to edge, on whose seams a
// sliding body catches (ghost collisions). docs/tiles.md.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pebble/math.hpp"

namespace pebble {

/// A grid of cells, row-major with row 0 at the bottom (y up): cell (col, row) is
/// solid[row * columns + col] (nonzero = solid) and covers
/// [origin.x + col * cell_size.x, origin.x + (col + 1) * cell_size.x] x
/// [origin.y + row * cell_size.y, origin.y + (row + 1) * cell_size.y].
/// Cells outside the grid count as empty.
struct TileGrid {
  ///@{
  int columns = 0, rows = 0;  ///< the grid's size in cells, >= 0
  ///@}
  std::span<const std::uint8_t> solid;  ///< columns * rows entries
  Vec2 origin{0, 0};                    ///< the lower-left corner of cell (0, 0)
  Vec2 cell_size{1, 1};                 ///< width and height of a cell, > 0
};

/// One outline: its points in order, a loop when closed (the last point joins the first, which
/// is not repeated) or an open chain.
struct Outline {
  std::vector<Vec2>
      points;  ///< in the grid's frame, counter-clockwise around the solid (solid on the left), as Chain takes them
  bool closed = true;  ///< a loop (Chain::loop); false: an open run (Chain::open)
};

/// The boundary of the solid cells as closed outlines whose points run counter-clockwise around
/// the solid: each segment has the solid on its left and the empty side on its right, so every
/// outline is ready for Chain::loop. An outer boundary runs counter-clockwise, the boundary of a
/// hole (empty cells enclosed by solid) clockwise.
///
/// - Collinear points are merged: a flat floor of 500 tiles is one segment. With
///   max_segment_length > 0 a straight run longer than that is cut at cell corners into pieces of
///   as equal whole numbers of cells as can be, as few as keep each piece no longer than
///   max_segment_length (measured between the float points); shorter segments keep the boxes of a
///   broadphase small. 0 or +infinity: no limit.
/// - Cells touching only at a corner (a pinch point) are not joined there: the boundary turns
///   around the cell it came along, so solid regions join through edges only and each island is a
///   loop of its own. Where a loop would still pass a pinch point twice (a region that closes on
///   itself at a corner around empty cells, or holes that touch at a corner), it is cut there into
///   two loops. So no outline visits a point twice; outlines never cross, and two may share a pinch
///   point, where each has a corner.
/// - Every point is a grid corner origin + (i, j) * cell_size, rounded once to float, so a point
///   that two outlines share has the same bits in both.
/// - The order of the outlines and their first points depend on the grid only (deterministic).
///
/// An empty grid (no solid cell, or 0 columns or rows) gives no outline. Throws InvalidShape for
/// negative sizes, solid.size() != columns * rows, a grid of more than about 2^30 cell corners, a cell
/// size that is not finite and positive, an origin that is not finite, corners beyond
/// kMaxShapeExtent (the coordinates Chain takes: place a map farther out with the chain's
/// transform), cells too small for a chain segment at the grid's coordinates (within 4 units in the
/// last place of its largest coordinate, or below kMinWeldDistance), a negative or NaN max_segment_length, or one
/// shorter than a cell (runs are cut at cell corners only). Time and memory are linear in the number of cells.
std::vector<Outline> outline_tiles(const TileGrid& grid, float max_segment_length = 0);

/// The upward-facing surfaces of the solid cells (a solid cell under an empty one or the top of
/// the grid) as open outlines, one per maximal horizontal run, points from right to left: the
/// open chains of one-way platforms, which collide only from above. Runs are cut by
/// max_segment_length as outline_tiles() cuts them. Throws as outline_tiles() does.
std::vector<Outline> outline_tile_tops(const TileGrid& grid, float max_segment_length = 0);

}  // namespace pebble
