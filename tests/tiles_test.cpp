// Tile outlines (pebble/tiles.hpp), checked against the grid itself and nothing of the library's:
// every output point is mapped back to a grid corner by the test's own arithmetic, then the
// outlines must cover each directed boundary edge of the grid exactly once (solid on the left),
// visit no point twice, meet other outlines only at corners without crossing, sum to the solid
// area, give winding number 1 inside solid cells and 0 elsewhere, and keep collinear points only
// where max_segment_length cuts a run. Hand-made shapes pin down the pinch rule and orientation.
#include <gtest/gtest.h>

#include <pebble/chain.hpp>
#include <pebble/tiles.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "random_cases.hpp"

using namespace pebble;

namespace {

constexpr int kScale = test_random::kSanitizerScale;

/// A tile map owned by the test, with the cell lookup the checks use (outside = empty).
struct Map {
  int columns = 0, rows = 0;
  std::vector<std::uint8_t> cells;
  Vec2 origin{0, 0};
  Vec2 cell_size{1, 1};

  Map(int c, int r, Vec2 o = {0, 0}, Vec2 s = {1, 1})
      : columns(c), rows(r), cells(std::size_t(c) * std::size_t(r)), origin(o), cell_size(s) {}
  /// Rows given top first, as they read on screen: '#' solid.
  static Map parse(const std::vector<std::string>& picture) {
    Map m(int(picture[0].size()), int(picture.size()));
    for (int r = 0; r < m.rows; ++r)
      for (int c = 0; c < m.columns; ++c) m.set(c, r, picture[std::size_t(m.rows - 1 - r)][std::size_t(c)] == '#');
    return m;
  }
  bool solid(long long c, long long r) const {
    return c >= 0 && r >= 0 && c < columns && r < rows && cells[std::size_t(r * columns + c)] != 0;
  }
  void set(int c, int r, bool on) { cells[std::size_t(r * columns + c)] = on ? 7 : 0; }  // any nonzero is solid
  TileGrid grid() const { return {columns, rows, cells, origin, cell_size}; }
  long long solid_count() const {
    return std::count_if(cells.begin(), cells.end(), [](std::uint8_t v) { return v != 0; });
  }
};

Map random_map(test_random::Rng& rng, int columns, int rows, double density) {
  Map m(columns, rows);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) m.set(c, r, rng.chance(density));
  return m;
}

/// Random rectangles stamped on and off: large regions with holes, islands in holes and pinches.
Map blob_map(test_random::Rng& rng, int columns, int rows) {
  Map m(columns, rows);
  const int stamps = rng.integer(1, 40);
  for (int i = 0; i < stamps; ++i) {
    const int c0 = rng.integer(0, columns - 1), r0 = rng.integer(0, rows - 1);
    const int c1 = std::min(columns, c0 + rng.integer(1, 12)), r1 = std::min(rows, r0 + rng.integer(1, 12));
    const bool on = rng.chance(0.6);
    for (int r = r0; r < r1; ++r)
      for (int c = c0; c < c1; ++c) m.set(c, r, on);
  }
  return m;
}

struct Corner {
  long long i = 0, j = 0;
  friend auto operator<=>(const Corner&, const Corner&) = default;
};

/// The directions of lattice steps, counter-clockwise (their angular order around a point).
enum Dir { kE, kN, kW, kS };
Dir dir_of(Corner a, Corner b) {
  if (b.j == a.j) return b.i > a.i ? kE : kW;
  return b.j > a.j ? kN : kS;
}
Corner step(Corner a, Dir d) {
  static constexpr int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
  return {a.i + dx[d], a.j + dy[d]};
}

/// The grid corner a float coordinate stands for: the nearest index, which must lie in the grid
/// and be within float rounding of the exact origin + index * size. Every coordinate that maps to
/// one index must have the same bits (shared corners are bit-identical).
struct AxisMapper {
  double origin, size;
  int count;
  std::map<long long, std::uint32_t> bits;
  long long index(float v) {
    const long double exact_index = (static_cast<long double>(v) - origin) / size;
    const long long i = std::llround(exact_index);
    EXPECT_GE(i, 0);
    EXPECT_LE(i, count);
    const long double exact = static_cast<long double>(origin) + static_cast<long double>(i) * size;
    const long double ulp = std::nextafter(std::fabs(v), INFINITY) - std::fabs(v);
    EXPECT_LE(std::fabs(v - exact), ulp) << v << " is not grid line " << i;
    const auto [it, fresh] = bits.emplace(i, std::bit_cast<std::uint32_t>(v));
    EXPECT_EQ(it->second, std::bit_cast<std::uint32_t>(v)) << "grid line " << i << " has two float values";
    return i;
  }
};

/// Twice the signed area of a lattice polygon, exactly.
long long twice_area(const std::vector<Corner>& loop) {
  long long sum = 0;
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const Corner a = loop[k], b = loop[(k + 1) % loop.size()];
    sum += a.i * b.j - b.i * a.j;
  }
  return sum;
}

/// The winding number of the closed float polygons around p (long double, exact for these inputs:
/// p lies off every grid line, so no edge passes through it).
int winding(const std::vector<Outline>& outlines, long double px, long double py) {
  int w = 0;
  for (const Outline& o : outlines) {
    const std::size_t n = o.points.size();
    for (std::size_t k = 0; k < n; ++k) {
      const long double ax = o.points[k].x, ay = o.points[k].y;
      const long double bx = o.points[(k + 1) % n].x, by = o.points[(k + 1) % n].y;
      const long double side = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
      if (ay <= py && by > py && side > 0) ++w;
      if (by <= py && ay > py && side < 0) --w;
    }
  }
  return w;
}

/// Every check of the file header on the outlines of map m (cut by max_length when > 0).
void check_outlines(const Map& m, const std::vector<Outline>& outlines, float max_length, test_random::Rng& rng) {
  AxisMapper mx{m.origin.x, m.cell_size.x, m.columns, {}}, my{m.origin.y, m.cell_size.y, m.rows, {}};

  std::vector<std::vector<Corner>> loops;
  for (const Outline& o : outlines) {
    EXPECT_TRUE(o.closed);
    EXPECT_GE(o.points.size(), 4u);  // a rectilinear loop turns at least four times
    std::vector<Corner> loop;
    for (const Vec2 p : o.points) loop.push_back({mx.index(p.x), my.index(p.y)});
    loops.push_back(loop);
  }
  if (::testing::Test::HasFailure()) return;

  // (a) segments: axis-aligned, not zero-length, no collinear consecutive triple unless cut; and
  // (d) each unit edge a segment covers, with its direction.
  std::map<std::pair<Corner, int>, int> covered;  // (start corner, direction) -> times covered
  std::map<Corner, std::vector<std::pair<std::size_t, std::pair<Dir, Dir>>>> visits;  // corner -> (loop, in, out)
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const std::vector<Corner>& loop = loops[l];
    const std::size_t n = loop.size();
    for (std::size_t k = 0; k < n; ++k) {
      const Corner a = loop[k], b = loop[(k + 1) % n], c = loop[(k + 2) % n];
      ASSERT_TRUE(a != b) << "zero-length segment in outline " << l;
      ASSERT_TRUE(a.i == b.i || a.j == b.j) << "segment not along a grid line in outline " << l;
      const Dir d = dir_of(a, b);
      if (max_length == 0) {
        EXPECT_NE(d, dir_of(b, c)) << "collinear points in outline " << l << " at " << k + 1;
      }
      for (Corner u = a; u != b; u = step(u, d)) {
        ++covered[{u, d}];
        if (u != a) visits[u].push_back({l, {d, d}});  // passed straight through
      }
      visits[b].push_back({l, {d, dir_of(b, c)}});
    }
  }
  long long expected_edges = 0;
  for (long long j = 0; j <= m.rows; ++j) {
    for (long long i = 0; i <= m.columns; ++i) {
      // The edge east of corner (i, j) between cells (i, j - 1) below and (i, j) above, and the
      // edge north of it between cells (i - 1, j) and (i, j): directed with the solid on the left.
      const bool below = m.solid(i, j - 1), above = m.solid(i, j);
      const bool west = m.solid(i - 1, j), east = m.solid(i, j);
      if (i < m.columns && below != above) {
        ++expected_edges;
        const auto key = above ? std::pair{Corner{i, j}, int(kE)} : std::pair{Corner{i + 1, j}, int(kW)};
        EXPECT_EQ(covered.count(key) ? covered[key] : 0, 1) << "horizontal edge at (" << i << ", " << j << ")";
      }
      if (j < m.rows && west != east) {
        ++expected_edges;
        const auto key = west ? std::pair{Corner{i, j}, int(kN)} : std::pair{Corner{i, j + 1}, int(kS)};
        EXPECT_EQ(covered.count(key) ? covered[key] : 0, 1) << "vertical edge at (" << i << ", " << j << ")";
      }
    }
  }
  EXPECT_EQ(static_cast<long long>(covered.size()), expected_edges) << "outlines cover edges that are not boundary";

  // No outline visits a point twice; where two outlines meet, each turns there and their two
  // pairs of directions do not interleave around the point (they touch, not cross).
  for (const auto& [corner, at] : visits) {
    ASSERT_LE(at.size(), 2u);
    if (at.size() < 2) continue;
    EXPECT_NE(at[0].first, at[1].first) << "an outline visits (" << corner.i << ", " << corner.j << ") twice";
    // A visit arriving in direction `in` uses the ray back along it, (in + 2) % 4, and the ray `out`.
    const auto rays = [](std::pair<Dir, Dir> v) { return std::pair{(v.first + 2) % 4, int(v.second)}; };
    const auto [a0, a1] = rays(at[0].second);
    const auto [b0, b1] = rays(at[1].second);
    const auto between = [](int from, int to, int x) { return (x - from + 4) % 4 < (to - from + 4) % 4 && x != from; };
    EXPECT_EQ(between(a0, a1, b0), between(a0, a1, b1)) << "outlines cross at (" << corner.i << ", " << corner.j << ")";
  }

  // (b) the signed areas sum to the solid area, exactly, on the lattice and with the floats.
  long long twice_total = 0;
  long double float_total = 0;
  for (std::size_t l = 0; l < loops.size(); ++l) {
    const long long a2 = twice_area(loops[l]);
    EXPECT_NE(a2, 0);
    twice_total += a2;
    const std::vector<Vec2>& p = outlines[l].points;
    for (std::size_t k = 0; k < p.size(); ++k) {
      const Vec2 a = p[k], b = p[(k + 1) % p.size()];
      float_total += (static_cast<long double>(a.x) * b.y - static_cast<long double>(b.x) * a.y) / 2;
    }
  }
  EXPECT_EQ(twice_total, 2 * m.solid_count());
  const long double cell_area = static_cast<long double>(m.cell_size.x) * m.cell_size.y;
  EXPECT_NEAR(double(float_total), double(m.solid_count() * cell_area),
              1e-6 * double(m.columns * m.rows * cell_area + 1));

  // (c) winding number 1 in solid cells, 0 elsewhere (a margin of empty cells around the grid).
  for (int t = 0; t < 60; ++t) {
    const double u = rng.uniform(-1, m.columns + 1), v = rng.uniform(-1, m.rows + 1);
    if (u == std::floor(u) || v == std::floor(v)) continue;
    const long double px = m.origin.x + u * static_cast<long double>(m.cell_size.x);
    const long double py = m.origin.y + v * static_cast<long double>(m.cell_size.y);
    EXPECT_EQ(winding(outlines, px, py), m.solid(std::llround(std::floor(u)), std::llround(std::floor(v))) ? 1 : 0)
        << "at cell (" << std::floor(u) << ", " << std::floor(v) << ")";
  }

  // (e) with a limit, no segment is longer, and a straight run of n cells is cut into the fewest
  // whole-cell pieces: ceil(n / floor(max_length / cell)) (dyadic sizes here, so exact).
  if (max_length > 0) {
    for (std::size_t l = 0; l < loops.size(); ++l) {
      const std::vector<Vec2>& p = outlines[l].points;
      const std::vector<Corner>& loop = loops[l];
      const std::size_t n = loop.size();
      for (std::size_t k = 0; k < n; ++k) {
        const Vec2 a = p[k], b = p[(k + 1) % n];
        EXPECT_LE(std::hypot(double(b.x) - a.x, double(b.y) - a.y), double(max_length));
      }
      // Walk each maximal straight run, starting after a turn.
      std::size_t first = 0;
      while (dir_of(loop[first], loop[(first + 1) % n]) == dir_of(loop[(first + n - 1) % n], loop[first])) ++first;
      for (std::size_t k = 0; k < n;) {
        const Corner a = loop[(first + k) % n];
        const Dir d = dir_of(a, loop[(first + k + 1) % n]);
        std::size_t pieces = 0;
        Corner b = a;
        while (k < n && dir_of(loop[(first + k) % n], loop[(first + k + 1) % n]) == d) {
          b = loop[(first + k + 1) % n];
          ++pieces;
          ++k;
        }
        const long long cells = std::max(std::llabs(b.i - a.i), std::llabs(b.j - a.j));
        const double cell = (d == kE || d == kW) ? m.cell_size.x : m.cell_size.y;
        const long long per_piece = static_cast<long long>(std::floor(double(max_length) / cell));
        EXPECT_EQ(static_cast<long long>(pieces), (cells + per_piece - 1) / per_piece)
            << "run of " << cells << " cells";
      }
    }
  }
}

std::vector<Vec2> rotated_to(const std::vector<Vec2>& points, Vec2 first) {
  std::vector<Vec2> out = points;
  const auto it = std::find(out.begin(), out.end(), first);
  if (it != out.end()) std::rotate(out.begin(), it, out.end());
  return out;
}

long long twice_area(const Outline& o) {
  long double sum = 0;
  for (std::size_t k = 0; k < o.points.size(); ++k) {
    const Vec2 a = o.points[k], b = o.points[(k + 1) % o.points.size()];
    sum += static_cast<long double>(a.x) * b.y - static_cast<long double>(b.x) * a.y;
  }
  return std::llround(sum);
}

std::vector<long long> sorted_areas(const std::vector<Outline>& outlines) {
  std::vector<long long> areas;
  for (const Outline& o : outlines) areas.push_back(twice_area(o));
  std::sort(areas.begin(), areas.end());
  return areas;
}

// ---------------------------------------------------------------------------------------------
// Hand-made shapes.

TEST(OutlineTiles, SingleCellIsOneCounterClockwiseSquare) {
  Map m(1, 1, {2, 3}, {0.5f, 0.25f});
  m.set(0, 0, true);
  const std::vector<Outline> out = outline_tiles(m.grid());
  ASSERT_EQ(out.size(), 1u);
  const std::vector<Vec2> expected{{2, 3}, {2.5f, 3}, {2.5f, 3.25f}, {2, 3.25f}};
  EXPECT_EQ(rotated_to(out[0].points, expected[0]), expected);
  test_random::Rng rng(1);
  check_outlines(m, out, 0, rng);
}

TEST(OutlineTiles, FlatRowIsOneSegmentPerSide) {
  Map m(500, 1);
  for (int c = 0; c < 500; ++c) m.set(c, 0, true);
  const std::vector<Outline> out = outline_tiles(m.grid());
  ASSERT_EQ(out.size(), 1u);
  const std::vector<Vec2> expected{{0, 0}, {500, 0}, {500, 1}, {0, 1}};
  EXPECT_EQ(rotated_to(out[0].points, expected[0]), expected);
  // The floor a body slides on runs right to left (solid below, on its left): one chain segment.
  const Chain chain = Chain::loop(out[0].points);
  EXPECT_EQ(chain.segment_count(), 4);

  // Cut into pieces of at most 120: 500 = 5 pieces of 100 on the long sides.
  const std::vector<Outline> cut = outline_tiles(m.grid(), 120);
  ASSERT_EQ(cut.size(), 1u);
  const std::vector<Vec2> expected_cut{{0, 0},   {100, 0}, {200, 0}, {300, 0}, {400, 0}, {500, 0},
                                       {500, 1}, {400, 1}, {300, 1}, {200, 1}, {100, 1}, {0, 1}};
  EXPECT_EQ(rotated_to(cut[0].points, expected_cut[0]), expected_cut);
}

TEST(OutlineTiles, LAndUShapes) {
  const Map l = Map::parse({"#..",  //
                            "#..",  //
                            "###"});
  std::vector<Outline> out = outline_tiles(l.grid());
  ASSERT_EQ(out.size(), 1u);
  const std::vector<Vec2> expected_l{{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 3}, {0, 3}};
  EXPECT_EQ(rotated_to(out[0].points, expected_l[0]), expected_l);

  const Map u = Map::parse({"#.#",  //
                            "#.#",  //
                            "###"});
  out = outline_tiles(u.grid());
  ASSERT_EQ(out.size(), 1u);
  const std::vector<Vec2> expected_u{{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}};
  EXPECT_EQ(rotated_to(out[0].points, expected_u[0]), expected_u);
  test_random::Rng rng(2);
  check_outlines(l, outline_tiles(l.grid()), 0, rng);
  check_outlines(u, out, 0, rng);
}

TEST(OutlineTiles, RingHasClockwiseHole) {
  const Map m = Map::parse({"####",  //
                            "#..#",  //
                            "#..#",  //
                            "####"});
  const std::vector<Outline> out = outline_tiles(m.grid());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(sorted_areas(out), (std::vector<long long>{-8, 32}));  // twice the areas: hole -4, outer 16
  for (const Outline& o : out) {
    if (twice_area(o) > 0) continue;
    const std::vector<Vec2> expected_hole{{1, 1}, {1, 3}, {3, 3}, {3, 1}};  // clockwise
    EXPECT_EQ(rotated_to(o.points, expected_hole[0]), expected_hole);
  }
  test_random::Rng rng(3);
  check_outlines(m, out, 0, rng);
}

TEST(OutlineTiles, DiagonalNeighboursAreSeparateLoopsSharingOnePoint) {
  const Map m = Map::parse({".#",  //
                            "#."});
  const std::vector<Outline> out = outline_tiles(m.grid());
  ASSERT_EQ(out.size(), 2u);
  for (const Outline& o : out) {
    EXPECT_EQ(o.points.size(), 4u);
    EXPECT_EQ(twice_area(o), 2);
    EXPECT_EQ(std::count(o.points.begin(), o.points.end(), Vec2{1, 1}), 1);
  }
  test_random::Rng rng(4);
  check_outlines(m, out, 0, rng);
}

TEST(OutlineTiles, RegionClosingOnItselfAtAPinchSplitsOffItsHole) {
  // The empty cell in the middle reaches the outside only through the corner (1, 1).
  const Map m = Map::parse({"###",  //
                            "#.#",  //
                            ".##"});
  const std::vector<Outline> out = outline_tiles(m.grid());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(sorted_areas(out), (std::vector<long long>{-2, 16}));
  for (const Outline& o : out) EXPECT_EQ(std::count(o.points.begin(), o.points.end(), Vec2{1, 1}), 1);
  test_random::Rng rng(5);
  check_outlines(m, out, 0, rng);
}

TEST(OutlineTiles, HolesTouchingAtACornerAreTwoLoops) {
  const Map m = Map::parse({"####",  //
                            "##.#",  //
                            "#.##",  //
                            "####"});
  const std::vector<Outline> out = outline_tiles(m.grid());
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(sorted_areas(out), (std::vector<long long>{-2, -2, 32}));
  test_random::Rng rng(6);
  check_outlines(m, out, 0, rng);
}

TEST(OutlineTiles, CheckerboardIsOneSquarePerCell) {
  Map m(9, 7, {-3, 1}, {0.5f, 2});
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.columns; ++c) m.set(c, r, (r + c) % 2 == 0);
  const std::vector<Outline> out = outline_tiles(m.grid());
  EXPECT_EQ(static_cast<long long>(out.size()), m.solid_count());
  for (const Outline& o : out) EXPECT_EQ(o.points.size(), 4u);
  test_random::Rng rng(7);
  check_outlines(m, out, 0, rng);
  // A solid block with a checkerboard of holes inside, touching each other at corners: the solid
  // cells between four holes are islands of their own (solid joins through edges only), and the
  // holes' boundary is cut at every pinch point it would pass twice.
  Map holes(9, 7);
  long long hole_count = 0;
  for (int r = 0; r < holes.rows; ++r) {
    for (int c = 0; c < holes.columns; ++c) {
      const bool hole = r > 0 && c > 0 && r < holes.rows - 1 && c < holes.columns - 1 && (r + c) % 2 == 0;
      holes.set(c, r, !hole);
      hole_count += hole;
    }
  }
  const std::vector<Outline> inv = outline_tiles(holes.grid());
  long long islands = 0, twice_holes = 0;
  for (const Outline& o : inv) {
    const long long a2 = twice_area(o);
    if (a2 < 0) twice_holes += a2;
    if (a2 == 2) ++islands;
    EXPECT_TRUE(a2 < 0 || a2 == 2 || a2 == 2 * 9 * 7) << a2;  // holes, islands, the outer loop
  }
  EXPECT_EQ(islands, 7);                                // the cells at (2..6, 2..4) with an odd row + column
  EXPECT_EQ(twice_holes, -2 * (hole_count + islands));  // the hole loops enclose the islands
  check_outlines(holes, inv, 0, rng);
}

TEST(OutlineTiles, EmptyGridsGiveNothing) {
  EXPECT_TRUE(outline_tiles(TileGrid{}).empty());
  EXPECT_TRUE(outline_tiles(Map(0, 5).grid()).empty());
  EXPECT_TRUE(outline_tiles(Map(6, 5).grid()).empty());
  EXPECT_TRUE(outline_tile_tops(Map(6, 5).grid()).empty());
  EXPECT_TRUE(
      outline_tiles(TileGrid{1'000'000'000, 0, {}, {0, 0}, {0.001f, 1}}).empty());  // no table of a billion grid lines
}

// ---------------------------------------------------------------------------------------------
// Random grids.

TEST(OutlineTiles, RandomGridsPassEveryCheck) {
  test_random::Rng rng(20261);
  const double densities[] = {0.03, 0.15, 0.3, 0.45, 0.5, 0.55, 0.7, 0.85, 0.97};
  for (int t = 0; t < 400 / kScale; ++t) {
    const int columns = rng.integer(1, 64), rows = rng.integer(1, 64);
    Map m = t % 4 == 3 ? blob_map(rng, columns, rows) : random_map(rng, columns, rows, densities[t % 9]);
    m.origin = {float(rng.integer(-100, 100)), float(rng.integer(-100, 100)) * 0.5f};
    m.cell_size = {std::ldexp(1.0f, rng.integer(-3, 3)), std::ldexp(1.0f, rng.integer(-3, 3))};
    const std::vector<Outline> out = outline_tiles(m.grid());
    SCOPED_TRACE(::testing::Message() << "case " << t << ": " << columns << " x " << rows);
    check_outlines(m, out, 0, rng);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(OutlineTiles, RandomGridsCutByMaxSegmentLength) {
  test_random::Rng rng(20262);
  for (int t = 0; t < 200 / kScale; ++t) {
    const int columns = rng.integer(1, 64), rows = rng.integer(1, 64);
    Map m = t % 2 ? blob_map(rng, columns, rows) : random_map(rng, columns, rows, rng.uniform(0.3, 0.95));
    m.cell_size = {std::ldexp(1.0f, rng.integer(-2, 2)), std::ldexp(1.0f, rng.integer(-2, 2))};
    const float cell = std::max(m.cell_size.x, m.cell_size.y);
    const float max_length = cell * float(rng.integer(1, 9)) * (rng.chance(0.5) ? 1.0f : 1.25f);
    const std::vector<Outline> out = outline_tiles(m.grid(), max_length);
    SCOPED_TRACE(::testing::Message() << "case " << t << ": " << columns << " x " << rows << ", max " << max_length);
    check_outlines(m, out, max_length, rng);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(OutlineTiles, AwkwardOriginAndCellSizeKeepSharedPointsIdentical) {
  // Neither origin nor cell size is a binary fraction: points are rounded, and a corner two loops
  // share (pinches) must still have one value. AxisMapper checks both.
  test_random::Rng rng(20263);
  for (int t = 0; t < 60 / kScale; ++t) {
    Map m = random_map(rng, rng.integer(1, 64), rng.integer(1, 64), rng.uniform(0.2, 0.8));
    m.origin = {1000.3f, -77.7f};
    m.cell_size = {0.1f, 0.37f};
    const std::vector<Outline> out = outline_tiles(m.grid());
    AxisMapper mx{m.origin.x, m.cell_size.x, m.columns, {}}, my{m.origin.y, m.cell_size.y, m.rows, {}};
    long long twice_total = 0;
    for (const Outline& o : out) {
      std::vector<Corner> loop;
      for (const Vec2 p : o.points) loop.push_back({mx.index(p.x), my.index(p.y)});
      twice_total += twice_area(loop);
      EXPECT_NO_THROW(Chain::loop(o.points));
    }
    EXPECT_EQ(twice_total, 2 * m.solid_count());
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(OutlineTiles, OutlinesAreAcceptedByChainLoop) {
  test_random::Rng rng(20264);
  for (int t = 0; t < 20; ++t) {
    const Map m = blob_map(rng, 48, 48);
    for (const Outline& o : outline_tiles(m.grid(), t % 2 ? 4.0f : 0.0f)) {
      const Chain chain = Chain::loop(o.points);
      EXPECT_EQ(chain.segment_count(), int(o.points.size()));
    }
  }
}

TEST(OutlineTiles, EveryGridItAcceptsGivesOutlinesChainLoopAccepts) {
  // "Ready for Chain::loop" at the edges of the range too (issue 37 found grids beyond 1e7 and
  // cells 1e-40 wide whose outlines Chain::loop refused): origins up to kMaxShapeExtent and beyond,
  // cell sizes from 1e-40 to 1e6, at the thresholds where the refusal starts. Whatever
  // outline_tiles() accepts, Chain::loop must accept, segment for segment.
  test_random::Rng rng(20265);
  int accepted = 0, refused = 0;
  for (int t = 0; t < 3000; ++t) {
    Map m = random_map(rng, rng.integer(1, 6), rng.integer(1, 6), 0.6);
    const float reach = float(std::pow(10.0, rng.uniform(-3, 7.3)));
    m.origin = {float(rng.uniform(-1, 1)) * reach, float(rng.uniform(-1, 1)) * reach};
    const double size_exponent = rng.uniform(-40, 6);
    // Near the thresholds: 4 ulps of the coordinates, and kMinWeldDistance.
    const double near_ulps = 4.0 * 1.2e-7 * (std::fabs(m.origin.x) + std::fabs(m.origin.y) + 1) * rng.uniform(0.5, 2);
    const double size = t % 3 == 0   ? near_ulps
                        : t % 3 == 1 ? 1e-15 * rng.uniform(0.5, 2)
                                     : std::pow(10.0, size_exponent);
    m.cell_size = {float(size), float(size * rng.uniform(0.5, 2))};
    if (!(m.cell_size.x > 0 && m.cell_size.y > 0)) continue;
    std::vector<Outline> out;
    try {
      out = outline_tiles(m.grid());
    } catch (const pebble::InvalidShape&) {
      ++refused;
      continue;
    }
    ++accepted;
    for (const Outline& o : out) {
      try {
        const Chain chain = Chain::loop(o.points);
        EXPECT_EQ(chain.segment_count(), int(o.points.size()));
      } catch (const pebble::InvalidShape& e) {
        ADD_FAILURE() << "origin (" << m.origin.x << ", " << m.origin.y << "), cell (" << m.cell_size.x << ", "
                      << m.cell_size.y << "): Chain::loop refused an outline: " << e.what();
        return;
      }
    }
  }
  EXPECT_GT(accepted, 500);
  EXPECT_GT(refused, 500);
}

TEST(OutlineTiles, LargeRandomGridCoversEveryBoundaryEdge) {
  // 1000 x 1000 at 50%: the sum of the areas and the number of boundary edges (a cheaper check
  // than check_outlines at this size).
  test_random::Rng rng(20265);
  const int n = 1000 / kScale;
  const Map m = random_map(rng, n, n, 0.5);
  const std::vector<Outline> out = outline_tiles(m.grid());
  long long twice_total = 0, perimeter = 0;
  for (const Outline& o : out) {
    twice_total += twice_area(o);
    for (std::size_t k = 0; k < o.points.size(); ++k) {
      const Vec2 a = o.points[k], b = o.points[(k + 1) % o.points.size()];
      perimeter += std::llround(std::fabs(double(b.x) - a.x) + std::fabs(double(b.y) - a.y));
    }
  }
  long long edges = 0;
  for (long long j = 0; j <= n; ++j)
    for (long long i = 0; i <= n; ++i)
      edges += (m.solid(i, j - 1) != m.solid(i, j)) + (m.solid(i - 1, j) != m.solid(i, j));
  EXPECT_EQ(twice_total, 2 * m.solid_count());
  EXPECT_EQ(perimeter, edges);
}

// ---------------------------------------------------------------------------------------------
// Top surfaces.

TEST(OutlineTileTops, EachUpwardEdgeOnceRightToLeft) {
  test_random::Rng rng(20266);
  for (int t = 0; t < 200 / kScale; ++t) {
    const int columns = rng.integer(1, 40), rows = rng.integer(1, 40);
    const Map m = t % 2 ? blob_map(rng, columns, rows) : random_map(rng, columns, rows, rng.uniform(0.1, 0.9));
    const float max_length = t % 3 == 0 ? float(rng.integer(1, 6)) : 0.0f;
    const std::vector<Outline> tops = outline_tile_tops(m.grid(), max_length);
    std::map<std::pair<long long, long long>, int> covered;  // unit edge (i, j) -> (i + 1, j)
    std::set<std::pair<float, float>> ends;
    for (const Outline& o : tops) {
      EXPECT_FALSE(o.closed);
      ASSERT_GE(o.points.size(), 2u);
      for (std::size_t k = 0; k + 1 < o.points.size(); ++k) {
        const Vec2 a = o.points[k], b = o.points[k + 1];
        EXPECT_EQ(a.y, b.y);
        EXPECT_GT(a.x, b.x);  // right to left: up is on the right
        if (max_length > 0) {
          EXPECT_LE(a.x - b.x, max_length);
        }
        for (long long i = std::llround(b.x); i < std::llround(a.x); ++i) ++covered[{i, std::llround(a.y)}];
      }
      // Runs are maximal: no two share an end.
      EXPECT_TRUE(ends.insert({o.points.front().x, o.points.front().y}).second);
      EXPECT_TRUE(ends.insert({o.points.back().x, o.points.back().y}).second);
    }
    long long expected = 0;
    for (long long j = 1; j <= m.rows; ++j) {
      for (long long i = 0; i < m.columns; ++i) {
        if (!(m.solid(i, j - 1) && !m.solid(i, j))) continue;
        ++expected;
        EXPECT_EQ((covered[{i, j}]), 1);
      }
    }
    long long total = 0;
    for (const auto& [edge, times] : covered) total += times;
    EXPECT_EQ(total, expected);
    if (::testing::Test::HasFailure()) return;
  }
}

// ---------------------------------------------------------------------------------------------
// Bad input.

void expect_invalid(const TileGrid& grid, float max_length, const std::string& needle) {
  for (int f = 0; f < 2; ++f) {
    try {
      if (f == 0) {
        outline_tiles(grid, max_length);
      } else {
        outline_tile_tops(grid, max_length);
      }
      ADD_FAILURE() << "no exception; expected one naming " << needle;
    } catch (const InvalidShape& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  }
}

TEST(OutlineTiles, BadInputThrowsNamingTheProblem) {
  const Map m(4, 3);
  TileGrid g = m.grid();
  const float nan = std::nanf(""), inf = INFINITY;

  g.columns = -1;
  expect_invalid(g, 0, "negative grid size");
  g = m.grid();
  g.rows = 4;
  expect_invalid(g, 0, "solid has 12 entries");
  expect_invalid(TileGrid{1 << 20, 1 << 20, {}}, 0, "too large");
  g = m.grid();
  g.solid = g.solid.first(11);
  expect_invalid(g, 0, "solid has 11 entries");

  for (const Vec2 size : {Vec2{0, 1}, Vec2{1, -1}, Vec2{nan, 1}, Vec2{1, inf}}) {
    g = m.grid();
    g.cell_size = size;
    expect_invalid(g, 0, "cell_size");
  }
  for (const Vec2 origin : {Vec2{nan, 0}, Vec2{0, -inf}}) {
    g = m.grid();
    g.origin = origin;
    expect_invalid(g, 0, "origin");
  }
  g = m.grid();
  g.origin = {0, 1e7f - 2};
  expect_invalid(g, 0, "kMaxShapeExtent");
  g = m.grid();
  g.cell_size = {3e6f, 1};
  expect_invalid(g, 0, "kMaxShapeExtent");
  g = m.grid();
  g.origin = {1e6f, 0};
  g.cell_size = {0.01f, 1};
  expect_invalid(g, 0, "too small for float");

  g = m.grid();
  expect_invalid(g, -1, "max_segment_length");
  expect_invalid(g, nan, "max_segment_length");
  g.cell_size = {1, 2};
  expect_invalid(g, 1.5f, "shorter than a cell");
  EXPECT_NO_THROW(outline_tiles(g, 2));
  EXPECT_NO_THROW(outline_tiles(g, inf));  // no limit
}

}  // namespace
