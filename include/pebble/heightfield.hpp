// pebble/heightfield.hpp — terrain given as heights at evenly spaced x: a one-sided chain whose
// cells collide as chain segments with ghost vertices (pebble/chain.hpp), solid below, so that
// nothing catches on the joints between cells. docs/terrain.md, "Heightfields".
#pragma once

#include <span>
#include <vector>

#include "pebble/chain.hpp"

namespace pebble {

/// Heights at x = i * spacing (i = 0 .. n-1) in its own frame; the solid lies below the polyline
/// through them, and bodies meet it from above only. Cell i is the piece from x = i * spacing to
/// (i + 1) * spacing; in a world it is the collider's part i (ContactPair::part_a, WorldCastResult::part).
/// A small value type: it keeps the heights and each cell's ChainSegment.
class Heightfield {
public:
  /// A heightfield of heights.size() - 1 cells. x_i is float(i) * spacing, rounded once. Throws
  /// InvalidShape naming the problem and the value: fewer than 2 heights; a height that is not
  /// finite (there are no holes: a field with a gap is two heightfields) or beyond
  /// kMaxShapeExtent; a spacing that is not finite or not > 0; a field wider than kMaxShapeExtent
  /// (place it with the collider's transform); a cell whose ends (nearly) coincide (a spacing
  /// below what float x coordinates that far out can tell apart).
  static Heightfield make(std::span<const float> heights, float spacing);

  /// Cells: heights().size() - 1.
  int cell_count() const noexcept { return int(cells_.size()); }
  /// Cell i (0 <= i < cell_count()) as a chain segment a -> b with its ghost vertices: a is the
  /// cell's right end (x_{i+1}), b its left end (x_i), its normal faces up (the right side of a -> b).
  const ChainSegment& cell(int i) const { return cells_[std::size_t(i)]; }
  /// Every cell in order of i.
  std::span<const ChainSegment> cells() const noexcept { return cells_; }
  /// The heights as given.
  std::span<const float> heights() const noexcept { return heights_; }
  /// The distance between neighbouring heights along x, as given.
  float spacing() const noexcept { return spacing_; }
  /// The point of height i in the heightfield's frame: (float(i) * spacing(), heights()[i]).
  Vec2 point(int i) const noexcept { return {float(i) * spacing_, heights_[std::size_t(i)]}; }
  /// The same terrain as an open Chain (points right to left, so its segment k is cell
  /// cell_count() - 1 - k, with the same segment bit for bit): for code that takes chains.
  Chain chain() const;

private:
  Heightfield() = default;
  std::vector<float> heights_;
  std::vector<ChainSegment> cells_;
  float spacing_ = 0;
};

}  // namespace pebble
