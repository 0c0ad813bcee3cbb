// outline_tiles(): the boundary of a tile map's solid cells as loops for one-sided chains
// (docs/tiles.md). The topology is worked out on the integer lattice of cell corners, where it is
// exact; floats appear only when a corner becomes a point, taken from one table of grid lines so
// that a corner has the same bits wherever it appears.
#include "pebble/tiles.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>

#include "geometry/invalid.hpp"
#include "pebble/constants.hpp"
#include "pebble/shape.hpp"
#include "tolerances.hpp"

namespace pebble {
namespace {

using detail::fail;  // fail(who, what): who is the function refusing its input

// Directions along the lattice, counter-clockwise, so that +1 turns left and +3 turns right.
enum : std::uint8_t { kEast = 0, kNorth = 1, kWest = 2, kSouth = 3 };

// The four cells around a lattice corner, as the bits of a 4-bit mask.
enum : unsigned { kSW = 1, kSE = 2, kNW = 4, kNE = 8 };

/// The most corners (padding column included) a grid may have: corner and cell indices are 32-bit,
/// and this keeps the last cell index (a padded row past the last corner row) far from wrapping.
constexpr std::uint64_t kMaxCorners = std::uint64_t(1) << 30;

/// The direction in which the boundary leaves a corner it reached going `in`, given the cells
/// around the corner (mask). Solid is on the left: the cell behind on the left is solid and the
/// one behind on the right empty. If the cell ahead on the left is empty the boundary turns left
/// around the solid; else if the cell ahead on the right is empty it goes straight; else it turns
/// right. At a pinch (ahead-left empty, ahead-right solid) that rule turns left, away from the
/// diagonal neighbour: solid regions are joined through edges only.
constexpr std::array<std::array<std::uint8_t, 4>, 16> make_next_table() {
  std::array<std::array<std::uint8_t, 4>, 16> table{};
  // Cells ahead-left and ahead-right of a corner for each arriving direction.
  constexpr unsigned ahead_left[4] = {kNE, kNW, kSW, kSE};
  constexpr unsigned ahead_right[4] = {kSE, kNE, kNW, kSW};
  for (unsigned mask = 0; mask < 16; ++mask) {
    for (unsigned in = 0; in < 4; ++in) {
      const unsigned out = !(mask & ahead_left[in]) ? in + 1 : !(mask & ahead_right[in]) ? in : in + 3;
      table[mask][in] = std::uint8_t(out & 3);
    }
  }
  return table;
}
constexpr auto kNext = make_next_table();

/// The directions of the boundary edges that start at a corner (solid on their left), as bits.
constexpr unsigned out_edges(unsigned mask) {
  unsigned out = 0;
  if ((mask & kNE) && !(mask & kSE)) out |= 1u << kEast;
  if ((mask & kNW) && !(mask & kNE)) out |= 1u << kNorth;
  if ((mask & kSW) && !(mask & kNW)) out |= 1u << kWest;
  if ((mask & kSE) && !(mask & kSW)) out |= 1u << kSouth;
  return out;
}

constexpr bool is_pinch(unsigned mask) { return mask == (kSW | kNE) || mask == (kSE | kNW); }

/// A validated grid: the float coordinate of every grid line, the cells with a border of empty
/// ones, and the lattice indexing shared by both.
///
/// Lattice corner (x, y), 0 <= x <= columns, 0 <= y <= rows, has index y * stride + x with
/// stride = columns + 2. The padded cells use the same stride, cell (c, r) of the grid sitting at
/// (c + 1, r + 1): then the cells around corner v are v (SW), v + 1 (SE), v + stride (NW) and
/// v + stride + 1 (NE), with no test for the grid's border.
struct Lattice {
  int columns = 0, rows = 0;
  std::uint32_t stride = 0;
  std::vector<float> xs, ys;        // grid lines: xs[i] = origin.x + i * cell_size.x, as float
  std::vector<std::uint8_t> cells;  // (rows + 2) x stride, 1 = solid
  double max_length = 0;            // longest segment allowed; 0: no limit
  bool any_solid = false;

  /// The cells around corner v as a mask of kSW, kSE, kNW, kNE.
  unsigned mask(std::uint32_t v) const {
    const std::uint8_t* c = cells.data();
    return c[v] | unsigned(c[v + 1]) << 1 | unsigned(c[v + stride]) << 2 | unsigned(c[v + stride + 1]) << 3;
  }
};

/// Throws unless the grid lines origin + i * size, i = 0..count, stay within kMaxShapeExtent, the
/// coordinates Chain takes (a map farther out is placed by the chain's transform). Returns the
/// larger of the two ends' magnitudes.
double check_extent(const char* who, char axis, float origin, float size, int count) {
  const double o = origin, far = o + double(count) * double(size);
  if (!(std::fabs(o) <= kMaxShapeExtent && std::fabs(far) <= kMaxShapeExtent)) {
    std::ostringstream out;
    out << "the grid's " << axis << " extent [" << o << ", " << far << "] goes beyond kMaxShapeExtent ("
        << kMaxShapeExtent << "), the coordinates Chain takes: place the map with the chain's transform";
    fail(who, out.str());
  }
  return std::max(std::fabs(o), std::fabs(far));
}

/// The grid lines origin + i * size, i = 0..count, each computed in double and rounded to float.
/// Every output point is read from these tables, so a corner has the same bits in every loop that
/// holds it. Throws where two neighbouring lines are closer than a chain segment can be long: its
/// maker welds ends within 4 units in the last place of the largest coordinate, and within
/// kMinWeldDistance (the hull's tolerance, geometry/shape.cpp), so a shorter cell edge would not
/// survive Chain::loop. `biggest`: the largest coordinate of the grid (check_extent()).
std::vector<float> grid_lines(const char* who, char axis, float origin, float size, int count, double biggest) {
  const double o = origin, s = size;
  const double shortest = std::max(kHullRoundingFraction * biggest, double(kMinWeldDistance));
  std::vector<float> lines(std::size_t(count) + 1);
  for (int i = 0; i <= count; ++i) {
    lines[std::size_t(i)] = float(o + double(i) * s);
    if (i > 0 && !(double(lines[std::size_t(i)]) - double(lines[std::size_t(i) - 1]) > shortest)) {
      std::ostringstream out;
      out << "cell_size." << axis << " = " << size << " is too small for float at " << axis << " = "
          << lines[std::size_t(i)] << ": grid lines " << i - 1 << " and " << i << " are "
          << double(lines[std::size_t(i)]) - double(lines[std::size_t(i) - 1])
          << " apart, and a chain segment must be longer than " << shortest;
      fail(who, out.str());
    }
  }
  return lines;
}

/// The widest cell along one axis, as the exact distance between its float grid lines.
double widest_cell(const std::vector<float>& lines) {
  double widest = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) widest = std::max(widest, double(lines[i]) - double(lines[i - 1]));
  return widest;
}

Lattice prepare(const char* who, const TileGrid& grid, float max_segment_length) {
  std::ostringstream out;
  if (grid.columns < 0 || grid.rows < 0) {
    out << "negative grid size " << grid.columns << " x " << grid.rows;
    fail(who, out.str());
  }
  if ((std::uint64_t(grid.columns) + 2) * (std::uint64_t(grid.rows) + 1) > kMaxCorners) {
    out << "grid " << grid.columns << " x " << grid.rows
        << " is too large (more than 2^30 cell corners, about 32000 x 32000 cells)";
    fail(who, out.str());
  }
  const std::uint64_t count = std::uint64_t(grid.columns) * std::uint64_t(grid.rows);
  if (grid.solid.size() != count) {
    out << "solid has " << grid.solid.size() << " entries, a " << grid.columns << " x " << grid.rows << " grid needs "
        << count;
    fail(who, out.str());
  }
  if (!(std::isfinite(grid.cell_size.x) && std::isfinite(grid.cell_size.y) && grid.cell_size.x > 0 &&
        grid.cell_size.y > 0)) {
    out << "cell_size (" << grid.cell_size.x << ", " << grid.cell_size.y << ") is not finite and positive";
    fail(who, out.str());
  }
  if (!is_finite(grid.origin)) {
    out << "origin (" << grid.origin.x << ", " << grid.origin.y << ") is not finite";
    fail(who, out.str());
  }
  if (!(max_segment_length >= 0)) {
    out << "max_segment_length " << max_segment_length << " is negative or NaN";
    fail(who, out.str());
  }

  Lattice g;
  g.columns = grid.columns;
  g.rows = grid.rows;
  const double biggest = std::max(check_extent(who, 'x', grid.origin.x, grid.cell_size.x, grid.columns),
                                  check_extent(who, 'y', grid.origin.y, grid.cell_size.y, grid.rows));
  // No cell, no outline: skip the tables of grid lines, which a grid of a billion columns and no
  // row could not afford.
  if (count == 0) return g;
  g.xs = grid_lines(who, 'x', grid.origin.x, grid.cell_size.x, grid.columns, biggest);
  g.ys = grid_lines(who, 'y', grid.origin.y, grid.cell_size.y, grid.rows, biggest);
  if (max_segment_length > 0 && std::isfinite(max_segment_length)) {
    // A run is cut at cell corners only, so a cell must fit in a segment.
    const double widest = std::max(widest_cell(g.xs), widest_cell(g.ys));
    if (double(max_segment_length) < widest) {
      out << "max_segment_length " << max_segment_length << " is shorter than a cell (" << widest
          << "): runs are cut only at cell corners";
      fail(who, out.str());
    }
    g.max_length = max_segment_length;
  }

  g.stride = std::uint32_t(grid.columns) + 2;
  g.cells.assign(std::size_t(g.stride) * (std::size_t(grid.rows) + 2), 0);
  for (int r = 0; r < grid.rows; ++r) {
    const std::uint8_t* src = grid.solid.data() + std::size_t(r) * std::size_t(grid.columns);
    std::uint8_t* dst = g.cells.data() + std::size_t(r + 1) * g.stride + 1;
    for (int c = 0; c < grid.columns; ++c) {
      dst[c] = src[c] != 0;
      g.any_solid |= src[c] != 0;
    }
  }
  return g;
}

/// Appends the points that cut the straight run between grid lines `from` and `to` (either
/// order; neither end included) into pieces no longer than max_length, measured between the float
/// lines: k pieces of as equal whole numbers of cells as can be, k from the mean cell width and
/// raised while rounding makes a piece too long. The cuts do not depend on the run's direction.
template <class MakePoint>
void cut_run(std::vector<Vec2>& out, const std::vector<float>& lines, double max_length, std::uint32_t from,
             std::uint32_t to, MakePoint make_point) {
  const std::uint32_t lo = std::min(from, to), hi = std::max(from, to);
  if (max_length == 0 || double(lines[hi]) - double(lines[lo]) <= max_length) return;
  const std::uint64_t n = hi - lo;
  // First guess from the mean cell width; float rounding of the lines may make a piece of that
  // many cells too long somewhere, then the pieces shrink by a cell until none is. One cell always
  // fits (checked in prepare()).
  const double mean_cell = (double(lines[hi]) - double(lines[lo])) / double(n);
  std::uint64_t cells = std::uint64_t(std::clamp(std::floor(max_length / mean_cell), 1.0, double(n)));
  auto cut = [&](std::uint64_t k, std::uint64_t j) { return lo + std::uint32_t(j * n / k); };
  std::uint64_t k = 0;
  for (;;) {
    k = (n + cells - 1) / cells;
    bool fits = true;
    for (std::uint64_t j = 0; j < k && fits; ++j) {
      fits = double(lines[cut(k, j + 1)]) - double(lines[cut(k, j)]) <= max_length;
    }
    if (fits || cells == 1) break;
    cells = (n + k - 1) / k - 1;  // the largest piece of this k, less one
  }
  if (from < to) {
    for (std::uint64_t j = 1; j < k; ++j) out.push_back(make_point(cut(k, j)));
  } else {
    for (std::uint64_t j = k - 1; j >= 1; --j) out.push_back(make_point(cut(k, j)));
  }
}

/// A corner where a traced boundary turns, and the direction it leaves in.
struct Turn {
  std::uint32_t x, y;
  std::uint8_t dir;
};

/// The per-corner marks of the tracer: bit d (0..3) once the boundary edge leaving the corner in
/// direction d is traced, and kInPath while the path being traced holds the corner (set for pinch
/// corners only, the one kind a path can come back to).
constexpr std::uint8_t kInPath = 1u << 4;

/// The closed boundary turns[0..count) as an outline, runs cut by max_length. Every entry is a
/// turn except perhaps the first, the traced loop's start, which may lie inside a straight run:
/// then it is left out.
Outline make_loop(const Lattice& g, const Turn* turns, std::size_t count) {
  const std::size_t first = turns[0].dir == turns[count - 1].dir ? 1 : 0;
  Outline loop;
  loop.points.reserve(count - first);
  for (std::size_t i = first; i < count; ++i) {
    const Turn& t = turns[i];
    loop.points.push_back({g.xs[t.x], g.ys[t.y]});
    if (g.max_length == 0) continue;
    const Turn& next = i + 1 < count ? turns[i + 1] : turns[first];  // the run's end
    if (t.dir == kEast || t.dir == kWest) {
      cut_run(loop.points, g.xs, g.max_length, t.x, next.x, [&](std::uint32_t x) { return Vec2{g.xs[x], g.ys[t.y]}; });
    } else {
      cut_run(loop.points, g.ys, g.max_length, t.y, next.y, [&](std::uint32_t y) { return Vec2{g.xs[t.x], g.ys[y]}; });
    }
  }
  return loop;
}

constexpr auto kOutEdges = [] {
  std::array<std::uint8_t, 16> table{};
  for (unsigned mask = 0; mask < 16; ++mask) table[mask] = std::uint8_t(out_edges(mask));
  return table;
}();

}  // namespace

std::vector<Outline> outline_tiles(const TileGrid& grid, float max_segment_length) {
  const Lattice g = prepare("outline_tiles", grid, max_segment_length);
  std::vector<Outline> loops;
  if (!g.any_solid) return loops;

  const std::uint32_t stride = g.stride;
  // Reserve room for every loop at once: a vector grown by doubling moves each Outline into fresh
  // memory again and again. A loop's least corner (lowest, then leftmost) is where it turns from
  // south to east (counter-clockwise) or from west to north (clockwise), which only four cell
  // configurations allow, each for one loop: counting them bounds the loops. The unused part of
  // the reservation is never touched.
  std::size_t bound = 0;
  for (std::uint32_t y = 0; y <= std::uint32_t(g.rows); ++y) {
    for (std::uint32_t v = y * stride, end = v + std::uint32_t(g.columns); v <= end; ++v) {
      const unsigned m = g.mask(v);
      bound += m == kNE || m == (kNE | kSW) || m == (kNW | kSE) || m == (kNW | kSE | kSW);
    }
  }
  loops.reserve(bound);
  // Steps per direction as unsigned numbers that wrap: adding 0 - 1 subtracts 1.
  const std::uint32_t step[4] = {1, stride, 0u - 1u, 0u - stride};
  constexpr std::uint32_t dx[4] = {1, 0, 0u - 1u, 0}, dy[4] = {0, 1, 0, 0u - 1u};
  std::vector<std::uint8_t> marks(std::size_t(stride) * std::size_t(g.rows + 1));
  std::vector<Turn> path;

  // Emits path[from..) as a loop and takes it off the path.
  const auto close = [&](std::size_t from) {
    loops.push_back(make_loop(g, path.data() + from, path.size() - from));
    for (std::size_t i = from; i < path.size(); ++i) marks[path[i].y * stride + path[i].x] &= std::uint8_t(~kInPath);
    path.resize(from);
  };

  // Each loop is traced once, from the first of its edges met in this scan (corners bottom to
  // top, left to right), which makes the output depend on the grid only.
  for (std::uint32_t y = 0; y <= std::uint32_t(g.rows); ++y) {
    for (std::uint32_t x = 0; x <= std::uint32_t(g.columns); ++x) {
      const std::uint32_t start = y * stride + x;
      const unsigned mask = g.mask(start);
      for (unsigned todo; (todo = kOutEdges[mask] & ~unsigned(marks[start]) & 15u) != 0;) {
        const std::uint8_t d0 = std::uint8_t(std::countr_zero(todo));
        path.push_back({x, y, d0});
        if (is_pinch(mask)) marks[start] |= kInPath;
        std::uint32_t at = start, cx = x, cy = y;
        std::uint8_t dir = d0;
        for (;;) {
          marks[at] |= std::uint8_t(1u << dir);
          at += step[dir];
          cx += dx[dir];
          cy += dy[dir];
          const unsigned m = g.mask(at);
          const std::uint8_t next = kNext[m][dir];
          if (at == start && next == d0) break;
          if (next == dir) continue;
          // Back at a pinch corner this path holds: the turns since then close a loop of their
          // own. Emitting it keeps every outline free of repeated points. (The search back costs
          // what the emitted loop costs.)
          if (is_pinch(m)) {
            if (marks[at] & kInPath) {
              std::size_t pos = path.size();
              do --pos;
              while (path[pos].x != cx || path[pos].y != cy);
              close(pos);
            }
            marks[at] |= kInPath;
          }
          path.push_back({cx, cy, next});
          dir = next;
        }
        close(0);
      }
    }
  }
  return loops;
}

std::vector<Outline> outline_tile_tops(const TileGrid& grid, float max_segment_length) {
  const Lattice g = prepare("outline_tile_tops", grid, max_segment_length);
  std::vector<Outline> tops;
  if (!g.any_solid) return tops;
  const std::uint32_t stride = g.stride;
  // Grid line y is a top surface where the cell below it is solid and the one above empty.
  for (std::uint32_t y = 1; y <= std::uint32_t(g.rows); ++y) {
    const std::uint8_t* below = g.cells.data() + std::size_t(y) * stride;
    const std::uint8_t* above = below + stride;
    std::uint32_t c = 1;
    while (c <= std::uint32_t(g.columns)) {
      if (!(below[c] && !above[c])) {
        ++c;
        continue;
      }
      const std::uint32_t first = c;
      while (c <= std::uint32_t(g.columns) && below[c] && !above[c]) ++c;
      // Padded cells first..c-1 are grid cells first-1..c-2: the run spans grid lines first-1 to c-1.
      const std::uint32_t left = first - 1, right = c - 1;
      Outline top;
      top.closed = false;
      top.points.push_back({g.xs[right], g.ys[y]});  // right to left: the outside (up) on the right
      cut_run(top.points, g.xs, g.max_length, right, left, [&](std::uint32_t x) { return Vec2{g.xs[x], g.ys[y]}; });
      top.points.push_back({g.xs[left], g.ys[y]});
      tops.push_back(std::move(top));
    }
  }
  return tops;
}

}  // namespace pebble
