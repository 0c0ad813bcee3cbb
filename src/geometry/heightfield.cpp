// Heightfield: validation, and each cell as a chain segment with its neighbours' far points as
// ghost vertices (docs/terrain.md, "Heightfields").
#include "pebble/heightfield.hpp"

#include <climits>
#include <cmath>
#include <sstream>

#include "pebble/constants.hpp"

namespace pebble {
namespace {

[[noreturn]] void fail(const std::string& what) { throw InvalidShape("pebble: Heightfield: " + what); }

}  // namespace

Heightfield Heightfield::make(std::span<const float> heights, float spacing) {
  const std::size_t n = heights.size();
  std::ostringstream out;
  if (n < 2) {
    out << "needs at least 2 heights (one cell), got " << n;
    fail(out.str());
  }
  if (n - 1 > std::size_t(INT_MAX)) {
    out << "too many heights: " << n;
    fail(out.str());
  }
  if (!(std::isfinite(spacing) && spacing > 0)) {
    out << "the spacing " << spacing << " is not finite and > 0";
    fail(out.str());
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!(std::isfinite(heights[i]) && std::fabs(heights[i]) <= kMaxShapeExtent)) {
      out << "height " << i << " (" << heights[i] << ") is not finite or beyond kMaxShapeExtent (there are no holes: "
          << "split a field with a gap into two heightfields; place a field with its transform)";
      fail(out.str());
    }
  }
  // The last x is the largest: the whole field lies within kMaxShapeExtent of its frame's origin.
  const float width = float(n - 1) * spacing;
  if (!(width <= kMaxShapeExtent)) {
    out << "its width, " << n - 1 << " cells x " << spacing << " = " << width
        << ", is beyond kMaxShapeExtent (place a field with its transform; split a wider one)";
    fail(out.str());
  }

  Heightfield field;
  field.heights_.assign(heights.begin(), heights.end());
  field.spacing_ = spacing;
  field.cells_.reserve(n - 1);
  // Cell i runs from its right end to its left (a floor runs right to left, so that its right
  // side, the side a chain segment collides on, faces up); the ghosts are the points beyond.
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const Vec2 a = field.point(int(i + 1)), b = field.point(int(i));
    const Vec2 prev = i + 2 < n ? field.point(int(i + 2)) : Vec2{};
    const Vec2 next = i > 0 ? field.point(int(i - 1)) : Vec2{};
    try {
      field.cells_.push_back(ChainSegment::make(a, b, i + 2 < n ? &prev : nullptr, i > 0 ? &next : nullptr));
    } catch (const InvalidShape& e) {
      out << "cell " << i << " (x from " << b.x << " to " << a.x << ") is not a valid segment: " << e.what();
      fail(out.str());
    }
  }
  return field;
}

Chain Heightfield::chain() const {
  std::vector<Vec2> points;
  points.reserve(heights_.size());
  for (int i = int(heights_.size()) - 1; i >= 0; --i) points.push_back(point(i));
  return Chain::open(points);
}

}  // namespace pebble
