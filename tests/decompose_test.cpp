// decompose(): simple polygons into convex Shapes, checked against the brute-force polygon oracle
// (tests/oracle/polygon.hpp: exact simplicity over all pairs of edges, long double areas and
// winding numbers) on random families of polygons, and the hostile inputs by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <pebble/decompose.hpp>
#include "random_cases.hpp"

#include "oracle/polygon.hpp"

using namespace pebble;
namespace op = oracle::polygon;
using oracle::real;
using oracle::V;
using test_random::Rng;

namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<op::F2> to_f2(const std::vector<Vec2>& p) {
  std::vector<op::F2> out;
  for (const Vec2 q : p) out.push_back({q.x, q.y});
  return out;
}
op::F2 f2(Vec2 v) { return {v.x, v.y}; }
V lv(Vec2 v) { return {real(v.x), real(v.y)}; }

Vec2 to_float(double x, double y) { return {float(x), float(y)}; }

// ---------------------------------------------------------------------------------------------
// Families of polygons. Coordinates are computed in double and rounded to float, so that a
// family's member may stop being simple at small scales far from the origin: the oracle decides.

/// Star-shaped around the origin: n sorted random angles, radii in [min_radius, 1].
std::vector<Vec2> star(Rng& rng, int n, double min_radius) {
  std::vector<double> angle(static_cast<std::size_t>(n));
  for (double& a : angle) a = rng.uniform(0, 2 * kPi);
  std::sort(angle.begin(), angle.end());
  std::vector<Vec2> out;
  for (const double a : angle) {
    const double r = rng.uniform(min_radius, 1);
    out.push_back(to_float(r * std::cos(a), r * std::sin(a)));
  }
  return out;
}

/// Random points joined in random order, then untangled by 2-opt moves (reversing the path
/// between two edges that meet) until no two edges meet or the move budget runs out.
std::vector<Vec2> untangled(Rng& rng, int n, bool on_grid) {
  std::vector<Vec2> p;
  for (int i = 0; i < n; ++i) {
    p.push_back(on_grid ? Vec2{float(rng.integer(0, 12)), float(rng.integer(0, 12))}
                        : to_float(rng.uniform(0, 1), rng.uniform(0, 1)));
  }
  const std::size_t m = p.size();
  for (int moves = 0; moves < 20 * n; ++moves) {
    bool found = false;
    for (std::size_t i = 0; i < m && !found; ++i) {
      for (std::size_t j = i + 2; j < m && !found; ++j) {
        if (i == 0 && j == m - 1) continue;
        if (op::segments_meet(f2(p[i]), f2(p[i + 1]), f2(p[j]), f2(p[(j + 1) % m]))) {
          std::reverse(p.begin() + std::ptrdiff_t(i + 1), p.begin() + std::ptrdiff_t(j + 1));
          found = true;
        }
      }
    }
    if (!found) break;
  }
  return p;
}

/// A comb: a base with `teeth` upward teeth of random heights.
std::vector<Vec2> comb(Rng& rng, int teeth) {
  const double w = rng.uniform(0.2, 1), g = rng.uniform(0.05, 1), base = rng.uniform(0.1, 1);
  std::vector<Vec2> top;
  for (int k = 0; k < teeth; ++k) {
    const double x0 = k * (w + g), h = base + rng.uniform(0.5, 5);
    if (k > 0) top.push_back(to_float(x0, base));
    top.push_back(to_float(x0, h));
    top.push_back(to_float(x0 + w, h));
    if (k + 1 < teeth) top.push_back(to_float(x0 + w, base));
  }
  std::vector<Vec2> out{{0, 0}, top.back() - Vec2{0, top.back().y}};
  out.insert(out.end(), top.rbegin(), top.rend());
  return out;
}

/// A band whose two sides zigzag: every vertex of each side alternates convex and reflex.
std::vector<Vec2> zigzag(Rng& rng, int n) {
  const double amp = rng.uniform(0.1, 2), thick = rng.uniform(0.05, 1) + amp;
  std::vector<Vec2> out;
  for (int i = 0; i < n; ++i) out.push_back(to_float(i, (i % 2) * amp));
  for (int i = n - 1; i >= 0; --i) out.push_back(to_float(i, (i % 2) * amp + thick));
  return out;
}

/// A thick Archimedean spiral arm: `per_turn` points a turn on each side.
std::vector<Vec2> spiral(Rng& rng, double turns, int per_turn) {
  const double spacing = 1, width = rng.uniform(0.2, 0.8) * spacing, start = 1;
  const int m = int(turns * per_turn);
  std::vector<Vec2> outer, inner;
  for (int i = 0; i <= m; ++i) {
    const double t = 2 * kPi * i / per_turn, r = start + spacing * t / (2 * kPi);
    outer.push_back(to_float((r + width / 2) * std::cos(t), (r + width / 2) * std::sin(t)));
    inner.push_back(to_float((r - width / 2) * std::cos(t), (r - width / 2) * std::sin(t)));
  }
  std::vector<Vec2> out(outer.begin(), outer.end());
  out.insert(out.end(), inner.rbegin(), inner.rend());
  return out;
}

/// An L with a notch, every side cut into several exactly collinear pieces, and some points
/// repeated.
std::vector<Vec2> collinear_runs(Rng& rng) {
  const std::vector<Vec2> corners{{0, 0}, {8, 0}, {8, 3}, {5, 3}, {5, 2}, {4, 2}, {4, 8}, {0, 8}};
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < corners.size(); ++i) {
    const Vec2 a = corners[i], b = corners[(i + 1) % corners.size()];
    const int cuts = rng.integer(1, 5);
    for (int k = 0; k < cuts; ++k) {
      out.push_back(a + (float(k) / float(cuts)) * (b - a));
      if (rng.chance(0.1)) out.push_back(out.back());
    }
  }
  return out;
}

/// Scaled by s and moved by offset, in float.
std::vector<Vec2> placed(const std::vector<Vec2>& p, double s, Vec2 offset) {
  std::vector<Vec2> out;
  for (const Vec2 q : p) out.push_back(to_float(offset.x + s * q.x, offset.y + s * q.y));
  return out;
}

std::vector<Vec2> reversed(std::vector<Vec2> p) {
  std::reverse(p.begin(), p.end());
  return p;
}

// ---------------------------------------------------------------------------------------------
// The checks.

/// The weld tolerance Shape::polygon documents for a point set of this size and largest
/// coordinate (shape.hpp). A piece is no bigger than the polygon, so the polygon's is an upper
/// bound for every piece's.
real weld_tolerance(const std::vector<Vec2>& p) {
  real lo_x = p[0].x, hi_x = lo_x, lo_y = p[0].y, hi_y = lo_y, biggest = 0;
  for (const Vec2 q : p) {
    lo_x = std::min<real>(lo_x, q.x), hi_x = std::max<real>(hi_x, q.x);
    lo_y = std::min<real>(lo_y, q.y), hi_y = std::max<real>(hi_y, q.y);
    biggest = std::max({biggest, std::fabs(real(q.x)), std::fabs(real(q.y))});
  }
  return std::max(
      {real(kWeldFraction) * std::max(hi_x - lo_x, hi_y - lo_y), 4 * 1.2e-7L * biggest, real(kMinWeldDistance)});
}

real core_area(const Shape& s) {
  const auto v = s.vertices();
  real sum = 0;
  for (std::size_t i = 1; i + 1 < v.size(); ++i) sum += oracle::cross(lv(v[i]) - lv(v[0]), lv(v[i + 1]) - lv(v[0]));
  return sum / 2;
}

/// Distance from p to the core (0 inside), long double.
real core_distance(const Shape& s, V p) {
  const auto v = s.vertices();
  const std::size_t n = v.size();
  if (n == 1) return std::sqrt(oracle::dot(p - lv(v[0]), p - lv(v[0])));
  bool inside = n >= 3;
  real best = INFINITY;
  for (std::size_t i = 0; i < n; ++i) {
    const V a = lv(v[i]), b = lv(v[(i + 1) % n]);
    if (oracle::cross(b - a, p - a) < 0) inside = false;
    best = std::min(best, op::segment_distance(p, a, b));
  }
  return inside ? 0 : best;
}

struct Box {
  float lo_x, lo_y, hi_x, hi_y;
};
Box box_of(std::span<const Vec2> v) {
  Box b{v[0].x, v[0].y, v[0].x, v[0].y};
  for (const Vec2 q : v) {
    b.lo_x = std::min(b.lo_x, q.x), b.hi_x = std::max(b.hi_x, q.x);
    b.lo_y = std::min(b.lo_y, q.y), b.hi_y = std::max(b.hi_y, q.y);
  }
  return b;
}
bool boxes_overlap(const Box& a, const Box& b) {
  return a.lo_x <= b.hi_x && b.lo_x <= a.hi_x && a.lo_y <= b.hi_y && b.lo_y <= a.hi_y;
}

/// Some edge of a (counter-clockwise, convex) has all of b on its outer side or on its line.
bool separated_by_edge_of(std::span<const Vec2> a, std::span<const Vec2> b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    const op::F2 p = f2(a[i]), q = f2(a[(i + 1) % a.size()]);
    if (std::all_of(b.begin(), b.end(), [&](Vec2 x) { return op::orient(p, q, f2(x)) <= 0; })) return true;
  }
  return false;
}

/// Piece counts of a family, against the lower bound ceil(reflex / 2) + 1 (each cut resolves at
/// most two reflex corners; Chazelle & Dobkin 1985) or, when larger, ceil(convex / 8) (each
/// strictly convex corner is a corner of the piece holding it).
struct Tally {
  long pieces = 0, bound = 0, cases = 0, failures_expected = 0;
  double worst = 0;
};
std::map<std::string, Tally>& tallies() {
  static std::map<std::string, Tally> t;
  return t;
}

/// Decomposes poly and checks every promise of decompose.hpp against the oracle; returns the
/// pieces (empty when the oracle says the polygon is not simple, and decompose threw).
std::vector<Shape> check(const std::vector<Vec2>& poly, float radius, const char* family) {
  const std::vector<op::F2> fp = to_f2(poly);
  const std::string why = op::why_not_simple(fp);
  Tally& tally = tallies()[family];
  std::vector<Shape> pieces;
  if (!why.empty()) {
    EXPECT_THROW((void)decompose(poly, radius), InvalidShape) << family << ": the oracle says " << why;
    ++tally.failures_expected;
    return pieces;
  }
  try {
    pieces = decompose(poly, radius);
  } catch (const InvalidShape& e) {
    ADD_FAILURE() << family << ": a simple polygon of " << poly.size() << " points threw: " << e.what();
    return pieces;
  }
  const real tol = weld_tolerance(poly);
  const real poly_area = std::fabs(op::twice_signed_area(fp)) / 2;

  // Each piece: the radius asked for, a core of corners that are input points, strictly convex
  // and counter-clockwise (exactly), at most kMaxPolygonVertices of them.
  std::vector<Vec2> sorted = poly;
  const auto less = [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); };
  std::sort(sorted.begin(), sorted.end(), less);
  real area = 0;
  std::vector<Box> boxes;
  for (const Shape& s : pieces) {
    EXPECT_EQ(s.radius(), radius);
    const auto v = s.vertices();
    EXPECT_LE(v.size(), std::size_t(kMaxPolygonVertices));
    EXPECT_GE(v.size(), 1u);
    // (A 1-vertex core is the centre of its welded points.)
    for (const Vec2 q : v) {
      if (v.size() >= 2) {
        EXPECT_TRUE(std::binary_search(sorted.begin(), sorted.end(), q, less))
            << family << ": a corner that is no input point";
      }
    }
    if (v.size() >= 3) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        EXPECT_GT(op::orient(f2(v[i]), f2(v[(i + 1) % v.size()]), f2(v[(i + 2) % v.size()])), 0)
            << family << ": not convex";
      }
    }
    area += core_area(s);
    boxes.push_back(box_of(v));
  }

  // Interior-disjoint, exactly: a separating edge for every pair of cores whose boxes meet.
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    for (std::size_t j = i + 1; j < pieces.size(); ++j) {
      const auto a = pieces[i].vertices(), b = pieces[j].vertices();
      if (a.size() < 3 || b.size() < 3 || !boxes_overlap(boxes[i], boxes[j])) continue;
      EXPECT_TRUE(separated_by_edge_of(a, b) || separated_by_edge_of(b, a))
          << family << ": pieces " << i << " and " << j << " overlap";
    }
  }

  // Inside the polygon: no core edge crosses a polygon edge, no polygon point lies strictly inside
  // a core, and the core's centroid has winding number 1 (or -1 for clockwise input).
  const int turn = op::twice_signed_area(fp) > 0 ? 1 : -1;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const auto v = pieces[i].vertices();
    if (v.size() < 3) continue;
    V c{0, 0};
    for (const Vec2 q : v) c = c + lv(q);
    c = (1.0L / real(v.size())) * c;
    EXPECT_EQ(op::winding_number(fp, c), turn) << family << ": piece " << i << " lies outside";
    for (std::size_t k = 0; k < poly.size(); ++k) {
      const Vec2 a = poly[k], b = poly[(k + 1) % poly.size()];
      const Box e = box_of(std::vector<Vec2>{a, b});
      if (!boxes_overlap(e, boxes[i])) continue;
      bool strictly_inside = true;
      for (std::size_t m = 0; m < v.size(); ++m) {
        const op::F2 p = f2(v[m]), q = f2(v[(m + 1) % v.size()]);
        if (op::orient(p, q, f2(a)) <= 0) strictly_inside = false;
        const int o1 = op::orient(p, q, f2(a)), o2 = op::orient(p, q, f2(b));
        const int o3 = op::orient(f2(a), f2(b), p), o4 = op::orient(f2(a), f2(b), q);
        EXPECT_FALSE(o1 * o2 < 0 && o3 * o4 < 0) << family << ": piece " << i << " crosses the boundary";
      }
      EXPECT_FALSE(strictly_inside) << family << ": a polygon point inside piece " << i;
    }
  }

  // Area: the cores lie inside the polygon without overlap, so they cover at most its area; what
  // they miss is what welding took off (within the weld tolerance of a piece's boundary).
  if (radius == 0) {
    real perimeters = 0;
    for (const Shape& s : pieces) {
      const auto v = s.vertices();
      for (std::size_t i = 0; i < v.size(); ++i) {
        const V e = lv(v[(i + 1) % v.size()]) - lv(v[i]);
        perimeters += std::sqrt(oracle::dot(e, e));
      }
    }
    EXPECT_LE(area, poly_area * (1 + 1e-12L)) << family;
    // (Within tol of a core lies at most tol x its perimeter + pi tol^2 more than the core.)
    EXPECT_GE(area, poly_area * (1 - 1e-5L) - 2 * tol * perimeters - 4 * tol * tol * real(pieces.size()))
        << family << ": the pieces miss more than welding explains";
  }

  // Cover: random points of the polygon lie within the weld tolerance of some core (grown by the
  // radius).
  {
    Rng rng(unsigned(poly.size() * 7919 + pieces.size()));
    const Box b = box_of(poly);
    int samples = 0;
    for (int attempt = 0; attempt < 2000 && samples < 150; ++attempt) {
      const V p{real(rng.uniform(b.lo_x, b.hi_x)), real(rng.uniform(b.lo_y, b.hi_y))};
      if (op::winding_number(fp, p) == 0) continue;
      ++samples;
      real best = INFINITY;
      for (const Shape& s : pieces) best = std::min(best, core_distance(s, p) - radius);
      EXPECT_LE(best, tol * 1.001L) << family << ": a point of the polygon far from every piece";
    }
  }

  // Count against the lower bound.
  const op::Corners corners = op::corners(fp);
  const long bound = std::max<long>((corners.reflex + 1) / 2 + 1, (corners.convex + 7) / 8);
  EXPECT_LE(long(pieces.size()), 4 * bound) << family << ": more than 4x the lower bound";
  tally.pieces += long(pieces.size());
  tally.bound += bound;
  tally.cases += 1;
  tally.worst = std::max(tally.worst, double(pieces.size()) / double(bound));
  return pieces;
}

class DecomposeRandom : public ::testing::Test {
protected:
  static void TearDownTestSuite() {
    std::printf("decompose: pieces vs lower bound max(ceil(reflex/2)+1, ceil(convex/8)) by family\n");
    std::printf("  %-22s %6s %8s %8s %7s %7s %9s\n", "family", "cases", "pieces", "bound", "ratio", "worst",
                "nonsimple");
    for (const auto& [name, t] : tallies()) {
      std::printf("  %-22s %6ld %8ld %8ld %7.3f %7.3f %9ld\n", name.c_str(), t.cases, t.pieces, t.bound,
                  t.bound ? double(t.pieces) / double(t.bound) : 0.0, t.worst, t.failures_expected);
    }
  }
};

/// A scale in [0.01, 1000] and an offset up to 1e4, and half the time clockwise.
std::vector<Vec2> somewhere(Rng& rng, const std::vector<Vec2>& p) {
  const double s = rng.log_uniform(0.01, 1000);
  const double far = rng.chance(0.5) ? 0 : rng.log_uniform(1, 1e4);
  const Vec2 offset = to_float(rng.uniform(-far, far), rng.uniform(-far, far));
  const std::vector<Vec2> out = placed(p, s, offset);
  return rng.chance(0.5) ? reversed(out) : out;
}

}  // namespace

TEST_F(DecomposeRandom, Stars) {
  Rng rng(1);
  for (int k = 0; k < 300 / test_random::kSanitizerScale; ++k) {
    const int n = rng.integer(3, 60);
    check(somewhere(rng, star(rng, n, rng.uniform(0.05, 0.9))), 0, "star");
  }
}

TEST_F(DecomposeRandom, LargeStars) {
  Rng rng(2);
  for (int k = 0; k < 6; ++k) check(somewhere(rng, star(rng, 1000, 0.3)), 0, "star 1000");
}

TEST_F(DecomposeRandom, UntangledRandomPolygons) {
  Rng rng(3);
  for (int k = 0; k < 200 / test_random::kSanitizerScale; ++k) {
    const bool grid = rng.chance(0.4);
    check(somewhere(rng, untangled(rng, rng.integer(3, 40), grid)), 0, grid ? "2-opt on a grid" : "2-opt");
  }
}

TEST_F(DecomposeRandom, Combs) {
  Rng rng(4);
  for (int k = 0; k < 60; ++k) check(somewhere(rng, comb(rng, rng.integer(1, 40))), 0, "comb");
}

TEST_F(DecomposeRandom, Zigzags) {
  Rng rng(5);
  for (int k = 0; k < 60; ++k) check(somewhere(rng, zigzag(rng, rng.integer(2, 60))), 0, "zigzag");
}

TEST_F(DecomposeRandom, Spirals) {
  Rng rng(6);
  for (int k = 0; k < 30; ++k) check(somewhere(rng, spiral(rng, rng.uniform(0.5, 4), rng.integer(8, 40))), 0, "spiral");
}

TEST_F(DecomposeRandom, CollinearRuns) {
  Rng rng(7);
  for (int k = 0; k < 100; ++k) check(somewhere(rng, collinear_runs(rng)), 0, "collinear runs");
}

TEST_F(DecomposeRandom, RoundedPiecesCoverTheGrownPolygon) {
  Rng rng(8);
  for (int k = 0; k < 40; ++k) {
    const std::vector<Vec2> p = placed(star(rng, rng.integer(3, 30), 0.2), rng.log_uniform(0.1, 10), {});
    const float radius = float(rng.log_uniform(0.001, 2));
    const std::vector<Shape> sharp = check(p, 0, "star, rounded");
    const std::vector<Shape> round = check(p, radius, "star, rounded");
    if (round.empty()) continue;
    // The same cores, grown.
    ASSERT_EQ(sharp.size(), round.size());
    for (std::size_t i = 0; i < sharp.size(); ++i) {
      ASSERT_EQ(sharp[i].vertex_count(), round[i].vertex_count());
      for (int j = 0; j < sharp[i].vertex_count(); ++j)
        EXPECT_EQ(sharp[i].vertices()[std::size_t(j)], round[i].vertices()[std::size_t(j)]);
    }
    // A point within radius of the polygon is in some piece, one further than that in none.
    const std::vector<op::F2> fp = to_f2(p);
    const real tol = weld_tolerance(p);
    const Box b = box_of(p);
    for (int s = 0; s < 300; ++s) {
      const V q{real(rng.uniform(b.lo_x - 2 * radius, b.hi_x + 2 * radius)),
                real(rng.uniform(b.lo_y - 2 * radius, b.hi_y + 2 * radius))};
      const real d = op::winding_number(fp, q) != 0 ? 0 : op::boundary_distance(fp, q);
      real best = INFINITY;
      for (const Shape& piece : round) best = std::min(best, core_distance(piece, q) - piece.radius());
      if (d <= radius) {
        EXPECT_LE(best, tol * 1.001L + 1e-6L * radius);
      }
      if (d > radius * (1 + 1e-5L)) {
        EXPECT_GT(best, 0);
      }
    }
  }
}

TEST_F(DecomposeRandom, SmallPolygonsAgainstTheOptimum) {
  // The fewest pieces (oracle dynamic programming over chords, same rules: diagonals only, at most
  // kMaxPolygonVertices corners) against what decompose() makes.
  Rng rng(9);
  struct Family {
    const char* name;
    long pieces = 0, optimum = 0, cases = 0, optimal = 0;
    double worst = 0;
  };
  Family families[] = {{"star"}, {"2-opt"}, {"zigzag"}, {"spiral"}, {"star 100"}, {"2-opt 50"}, {"zigzag 30"}};
  for (int k = 0; k < 424 / test_random::kSanitizerScale; ++k) {
    // 400 small ones of each family in turn, then a few of medium size.
    const int which = k < 400 ? k % 4 : 4 + k % 3;
    std::vector<Vec2> p;
    if (which == 0) p = star(rng, rng.integer(4, 13), rng.uniform(0.1, 0.9));
    if (which == 1) p = untangled(rng, rng.integer(4, 13), false);
    if (which == 2) p = zigzag(rng, rng.integer(2, 7));
    if (which == 3) p = spiral(rng, rng.uniform(0.3, 1), rng.integer(5, 8));
    if (which == 4) p = star(rng, rng.integer(90, 100), 0.3);
    if (which == 5) p = untangled(rng, rng.integer(40, 50), false);
    if (which == 6) p = zigzag(rng, 15);
    if (!op::why_not_simple(to_f2(p)).empty()) continue;
    const int optimum = op::fewest_convex_pieces(to_f2(p), kMaxPolygonVertices);
    if (optimum < 0) continue;
    const std::vector<Shape> pieces = check(p, 0, "small, vs optimum");
    Family& f = families[which];
    EXPECT_GE(long(pieces.size()), optimum);
    EXPECT_LE(long(pieces.size()), 2 * optimum);
    f.pieces += long(pieces.size());
    f.optimum += optimum;
    f.cases += 1;
    f.optimal += long(pieces.size()) == optimum;
    f.worst = std::max(f.worst, double(pieces.size()) / optimum);
  }
  // Each family's pieces held near what decompose() makes now (the table in docs/decompose.md):
  // within 2% of the measured ratio to the optimum, so that a change giving 10% more pieces fails
  // here (issue 37). The sanitizer builds run half the cases (other ratios): not checked there.
  const double ceiling[] = {1.034, 1.008, 1.166, 1.000, 1.126, 1.025, 1.298};
  for (std::size_t i = 0; test_random::kSanitizerScale == 1 && i < std::size(families); ++i) {
    const Family& f = families[i];
    EXPECT_LE(double(f.pieces), (ceiling[i] + 0.02) * double(f.optimum))
        << f.name << ": more pieces than decompose() made";
  }
  std::printf("decompose: pieces vs the optimum (oracle DP), small polygons\n");
  std::printf("  %-10s %6s %8s %8s %7s %7s %8s\n", "family", "cases", "pieces", "optimum", "ratio", "worst", "optimal");
  for (const Family& f : families) {
    std::printf("  %-10s %6ld %8ld %8ld %7.3f %7.3f %7.0f%%\n", f.name, f.cases, f.pieces, f.optimum,
                f.optimum ? double(f.pieces) / double(f.optimum) : 0.0, f.worst,
                f.cases ? 100.0 * double(f.optimal) / double(f.cases) : 0.0);
  }
}

// ---------------------------------------------------------------------------------------------
// By hand.

namespace {

std::string message_of(const std::vector<Vec2>& p, float radius = 0) {
  try {
    (void)decompose(p, radius);
  } catch (const InvalidShape& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

}  // namespace

TEST(Decompose, ConvexPolygonIsOnePiece) {
  const std::vector<Vec2> p{{0, 0}, {2, 0}, {3, 1}, {2, 2}, {0, 2}};
  const std::vector<Shape> pieces = decompose(p);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].vertex_count(), 5);
}

TEST(Decompose, ConvexPolygonOfMoreThanEightCornersIsSeveralPieces) {
  std::vector<Vec2> p;
  for (int i = 0; i < 20; ++i) p.push_back(to_float(std::cos(2 * kPi * i / 20), std::sin(2 * kPi * i / 20)));
  const std::vector<Shape> pieces = check(p, 0, "by hand");
  EXPECT_GE(pieces.size(), 3u);  // 20 corners, at most 8 a piece
  EXPECT_LE(pieces.size(), 4u);
}

TEST(Decompose, LShapeIsTwoPieces) {
  const std::vector<Vec2> p{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  EXPECT_EQ(check(p, 0, "by hand").size(), 2u);
  EXPECT_EQ(check(reversed(p), 0, "by hand").size(), 2u);
}

TEST(Decompose, CombIsOnePiecePerToothAndTheBase) {
  Rng rng(11);
  const std::vector<Vec2> p = comb(rng, 10);
  // 18 reflex corners: at least 10 pieces; the teeth and the strip below them take 11 at most.
  const std::size_t n = check(p, 0, "by hand").size();
  EXPECT_GE(n, 10u);
  EXPECT_LE(n, 12u);
}

TEST(Decompose, BowTieNamesTheCrossingEdgesAndPoint) {
  const std::string m = message_of({{0, 0}, {2, 2}, {2, 0}, {0, 2}});
  EXPECT_TRUE(has(m, "not simple")) << m;
  EXPECT_TRUE(has(m, "the edge from point 0 to point 1")) << m;
  EXPECT_TRUE(has(m, "the edge from point 2 to point 3")) << m;
  EXPECT_TRUE(has(m, "(1, 1)")) << m;
}

TEST(Decompose, VertexOnAnotherEdgeIsNamed) {
  const std::string m = message_of({{0, 0}, {4, 0}, {4, 4}, {2, 0}, {0, 4}});
  EXPECT_TRUE(has(m, "point 3 (2, 0) lies on the edge from point 0 to point 1")) << m;
}

TEST(Decompose, TouchingAtARepeatedPointIsNamed) {
  // Two squares sharing the corner (1, 1).
  const std::string m = message_of({{0, 0}, {1, 0}, {1, 1}, {2, 1}, {2, 2}, {1, 2}, {1, 1}, {0, 1}});
  EXPECT_TRUE(has(m, "points 2 and 6 are the same point (1, 1)")) << m;
}

TEST(Decompose, EdgesFoldingBackAreNamed) {
  // A zero-width spike: up to (1, 3) and straight back.
  const std::string m = message_of({{0, 0}, {2, 0}, {2, 2}, {1, 2}, {1, 3}, {1, 2.5f}, {0, 2}});
  EXPECT_TRUE(has(m, "fold back")) << m;
  EXPECT_TRUE(has(m, "point 4 (1, 3)")) << m;
}

TEST(Decompose, OverlappingCollinearEdgesAreNamed) {
  // The top edge runs back over part of the bottom one's line: edges 0 and 3 overlap.
  const std::string m = message_of({{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 0}, {-1, 0}, {-1, -1}, {0, -1}});
  EXPECT_TRUE(has(m, "not simple")) << m;
}

TEST(Decompose, RepeatedConsecutivePointsAndCollinearPointsAreDropped) {
  const std::vector<Vec2> p{{0, 0}, {0, 0}, {1, 0}, {2, 0}, {2, 0}, {2, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}, {0, 0}};
  const std::vector<Shape> pieces = check(p, 0, "by hand");
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].vertex_count(), 4);
}

TEST(Decompose, DegenerateInputsThrowNamingTheProblem) {
  EXPECT_TRUE(has(message_of({{0, 0}, {1, 1}}), "at least 3 points, got 2"));
  EXPECT_TRUE(has(message_of({}), "at least 3 points, got 0"));
  EXPECT_TRUE(has(message_of({{0, 0}, {1, 1}, {3, 3}, {2, 2}}), "zero area"));
  EXPECT_TRUE(has(message_of({{1, 1}, {1, 1}, {1, 1}}), "zero area"));
  EXPECT_TRUE(has(message_of({{0, 0}, {1, kNaN}, {0, 1}}), "point 1 has a non-finite coordinate"));
  EXPECT_TRUE(has(message_of({{0, 0}, {1, 0}, {0, -kInf}}), "point 2 has a non-finite coordinate"));
  EXPECT_TRUE(has(message_of({{0, 0}, {2e7f, 0}, {0, 1}}), "point 1 (20000000, 0) lies beyond"));
  EXPECT_TRUE(has(message_of({{0, 0}, {1, 0}, {0, 1}}, -1), "radius -1"));
  EXPECT_TRUE(has(message_of({{0, 0}, {1, 0}, {0, 1}}, kNaN), "radius nan"));
  EXPECT_TRUE(has(message_of({{0, 0}, {1, 0}, {0, 1}}, 1e8f), "radius 1e+08"));
  for (const char* start : {"pebble: decompose: "}) EXPECT_EQ(message_of({{0, 0}, {1, 1}}).rfind(start, 0), 0u);
}

TEST(Decompose, HugeCoordinatesWork) {
  const std::vector<Vec2> p{{-1e7f, -1e7f}, {1e7f, -1e7f}, {1e7f, 1e7f}, {0, 0}, {-1e7f, 1e7f}};
  EXPECT_EQ(check(p, 0, "by hand").size(), 2u);
}

TEST(Decompose, TinyPolygonFarAway) {
  // Size 0.01 at 1e4: the float grid there is 0.001 apart.
  const std::vector<Vec2> p = placed({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 0.005, {1e4f, 1e4f});
  check(p, 0, "by hand");
}

TEST(Decompose, NearZeroWidthSpikesGiveValidPieces) {
  for (const float width : {1e-3f, 1e-5f, 1e-7f}) {
    // A square with a spike of the given width on top.
    const std::vector<Vec2> p{{0, 0}, {2, 0}, {2, 2}, {1 + width, 2}, {1, 10}, {1, 2}, {0, 2}};
    const std::vector<Shape> pieces = check(p, 0, "by hand");
    EXPECT_GE(pieces.size(), 1u);
    // Rounded, the spike's piece is kept even where welding makes it a segment.
    const std::vector<Shape> rounded = check(p, 0.1f, "by hand");
    real tip = INFINITY;
    for (const Shape& s : rounded) tip = std::min(tip, core_distance(s, {1, 10}) - s.radius());
    EXPECT_LE(tip, 0) << width;
  }
}

TEST(Decompose, FuzzyCollinearAndNearlyTouchingStillDecompose) {
  // A vertex one float step off another edge: simple, and must not throw.
  const float y = std::nextafter(0.0f, 1.0f);
  check({{0, 0}, {4, 0}, {4, 4}, {2, y}, {0, 4}}, 0, "by hand");
  check({{0, 0}, {4, 0}, {4, 4}, {2, std::nextafter(1e-3f, 1.0f)}, {0, 4}}, 0, "by hand");
}

// Piece counts of polygons whose fewest pieces are known (issue 37: a change giving 10% more pieces
// was caught only by reuse_test's pile tolerance). Each optimum is the oracle's
// (fewest_convex_pieces, the same rules: diagonals only, at most 8 corners a piece), and agrees with
// the count argued here:
//  - a convex n-gon: p pieces cut by p - 1 diagonals have n + 2 (p - 1) corners in all, at most 8
//    each, so p >= (n - 2) / 6, and a fan of 8-corner pieces reaches it: ceil((n - 2) / 6);
//  - orthogonal shapes: each cut resolves at most two reflex corners, so at least ceil(r / 2) + 1
//    pieces (an L: 1 reflex corner, 2 pieces; a T: 2 facing each other across one cut, 2; a plus: 4
//    in two facing pairs, 3); a U's 2 reflex corners face no common cut (the cut joining them
//    leaves the polygon), so 3;
//  - a comb of k teeth of width 1, gaps of 1, on a base strip: the base corners under each inner
//    tooth face each other, so the k - 2 inner teeth come off by one cut each; the base with the two
//    end teeth has two reflex corners no cut joins, so 3 more: k + 1.
// decompose() reaches the optimum on all of them but the convex polygons of 10 to 14 and 22 to 24
// corners, where merging the fan's triangles greedily (step 7 of docs/decompose.md) leaves one piece
// more than the optimum (3 for 2, 5 for 4): those are held to the optimum plus one, and all the
// convex ones together to the 60 pieces it makes now (the optimum is 52).
TEST(Decompose, PieceCountsOfKnownPolygons) {
  const auto count = [](const std::vector<Vec2>& p, const char* what, int want) {
    const long n = long(check(p, 0, what).size());
    EXPECT_EQ(op::fewest_convex_pieces(to_f2(p), kMaxPolygonVertices), want) << what << ": the oracle's optimum";
    return n;
  };
  long convex_total = 0;
  for (int n = 3; n <= 24; ++n) {
    std::vector<Vec2> p;
    for (int i = 0; i < n; ++i) p.push_back(to_float(std::cos(2 * kPi * i / n), std::sin(2 * kPi * i / n)));
    const int want = (n - 2 + 5) / 6;
    const long got = count(p, "regular polygon", want);
    const bool greedy_misses = (n >= 10 && n <= 14) || n >= 22;
    EXPECT_EQ(got, want + (greedy_misses ? 1 : 0)) << n << " corners";
    convex_total += got;
  }
  EXPECT_LE(convex_total, 60);
  const std::vector<Vec2> l{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  const std::vector<Vec2> t{{1, 0}, {2, 0}, {2, 2}, {3, 2}, {3, 3}, {0, 3}, {0, 2}, {1, 2}};
  const std::vector<Vec2> plus{{1, 0}, {2, 0}, {2, 1}, {3, 1}, {3, 2}, {2, 2},
                               {2, 3}, {1, 3}, {1, 2}, {0, 2}, {0, 1}, {1, 1}};
  const std::vector<Vec2> u{{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}};
  EXPECT_EQ(count(l, "L", 2), 2);
  EXPECT_EQ(count(reversed(l), "L reversed", 2), 2);
  EXPECT_EQ(count(t, "T", 2), 2);
  EXPECT_EQ(count(reversed(t), "T reversed", 2), 2);
  EXPECT_EQ(count(plus, "plus", 3), 3);
  EXPECT_EQ(count(u, "U", 3), 3);
  for (int k = 2; k <= 7; ++k) {
    std::vector<Vec2> p{{0, 0}, {float(2 * k - 1), 0}};
    for (int i = k - 1; i >= 0; --i) {
      const float x0 = float(2 * i), x1 = x0 + 1;
      if (i < k - 1) p.push_back({x1, 1});
      p.push_back({x1, 3});
      p.push_back({x0, 3});
      if (i > 0) p.push_back({x0, 1});
    }
    EXPECT_EQ(count(p, "comb", k + 1), k + 1) << k << " teeth";
  }
}
