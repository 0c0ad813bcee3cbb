// Fuzz target: decompose() (decompose.hpp) on arbitrary point lists, stars, grid walks and stars
// nudged into near-touching. decompose() either throws pebble::InvalidShape, exactly when the
// brute-force oracle (tests/oracle/polygon.hpp: all pairs of edges, exact) says the input is not
// a simple polygon of positive area or an argument is out of range, or returns pieces that keep
// the header's promises: 1 to kMaxPolygonVertices core vertices that are input points, strictly
// convex and counter-clockwise, the radius asked for, pairwise interior-disjoint, inside the
// polygon (no crossing, no polygon point inside a piece, each piece's corners within the polygon's
// angle there), and covering its area up to the weld tolerance. The pieces then go into a
// CollisionWorld as one compound, whose point and ray queries must agree with the pieces' own.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "invariants.hpp"
#include "oracle/polygon.hpp"

namespace pebble_fuzz::decompose_target {
namespace {

using real = long double;
namespace op = oracle::polygon;

bool valid_point(Vec2 p) {
  return finite(p) && std::fabs(p.x) <= pebble::kMaxShapeExtent && std::fabs(p.y) <= pebble::kMaxShapeExtent;
}
op::F2 f2(Vec2 v) { return {v.x, v.y}; }

std::string describe(const std::vector<Vec2>& poly, float radius) {
  std::string out = "pebble::decompose(std::vector<Vec2>{";
  for (std::size_t i = 0; i < poly.size(); ++i) out += (i ? ", " : "") + lit(poly[i]);
  return out + "}, " + lit(radius) + ")";
}

/// The weld tolerance Shape::polygon documents (shape.hpp) for the whole polygon: at least any
/// piece's.
real weld_tolerance(const std::vector<Vec2>& p) {
  real lo_x = p[0].x, hi_x = lo_x, lo_y = p[0].y, hi_y = lo_y, biggest = 0;
  for (const Vec2 q : p) {
    lo_x = std::min<real>(lo_x, q.x), hi_x = std::max<real>(hi_x, q.x);
    lo_y = std::min<real>(lo_y, q.y), hi_y = std::max<real>(hi_y, q.y);
    biggest = std::max({biggest, std::fabs(real(q.x)), std::fabs(real(q.y))});
  }
  return std::max({real(pebble::kWeldFraction) * std::max(hi_x - lo_x, hi_y - lo_y), 4 * 1.2e-7L * biggest,
                   real(pebble::kMinWeldDistance)});
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
bool meet(const Box& a, const Box& b) {
  return a.lo_x <= b.hi_x && b.lo_x <= a.hi_x && a.lo_y <= b.hi_y && b.lo_y <= a.hi_y;
}

/// The pieces as one compound in a CollisionWorld (at xf): the world's queries on it against the
/// pieces' own free queries. A point inside a piece (its core's centroid) is reported by
/// overlap_point() exactly when a piece contains() it; a ray from outside the polygon's box
/// toward each piece hits first where the least cast_ray() over the pieces does, on a piece that
/// gives that very hit; a point outside the box is reported by nothing.
void check_in_world(const std::vector<Shape>& pieces, const Transform& xf) {
  pebble::CollisionWorld world;
  const pebble::ColliderId id = world.add(std::span<const Shape>(pieces), xf);
  FUZZ_REQUIRE(world.part_count(id) == int(pieces.size()));
  world.update();
  FUZZ_REQUIRE(world.contacts().empty());  // the parts of one collider never pair
  Aabb box = pebble::bounds(pieces[0], xf);
  for (const Shape& s : pieces) box = pebble::combine(box, pebble::bounds(s, xf));
  const float reach = std::max(1.0f, pebble::length(box.upper - box.lower));
  const std::size_t step = std::max<std::size_t>(1, pieces.size() / 8);  // about 8 pieces asked
  for (std::size_t i = 0; i < pieces.size(); i += step) {
    const pebble::Position inside = pebble::transform_point(xf, pieces[i].core_centroid());
    bool expected = false;
    for (const Shape& s : pieces) expected = expected || pebble::contains(s, xf, inside);
    int reported = 0;
    world.overlap_point(inside, [&](pebble::ColliderId got) {
      FUZZ_REQUIRE(got == id);
      ++reported;
      return true;
    });
    FUZZ_REQUIRE(reported == (expected ? 1 : 0));
    // A ray from outside the box, toward the point, in a direction that turns with i.
    const float angle = 2.399963f * float(i);
    const Vec2 dir{std::cos(angle), std::sin(angle)};
    for (const float radius : {0.0f, 0.01f * pieces[i].extent()}) {
      const pebble::Ray ray{inside - (2 * reach) * dir, (3 * reach) * dir};
      if (!pebble::is_valid_point(ray.origin) || !pebble::is_valid_point(ray.translation)) continue;
      float best = 2;
      for (const Shape& s : pieces) {
        const CastResult h = radius > 0 ? pebble::cast_ray(s, xf, ray, radius) : pebble::cast_ray(s, xf, ray);
        if (h.hit) best = std::min(best, h.fraction);
      }
      const pebble::WorldCastResult got = radius > 0 ? world.cast_circle(ray, radius) : world.cast_ray(ray);
      FUZZ_REQUIRE(bool(got) == (best < 2));
      if (!got) continue;
      FUZZ_REQUIRE(got.id == id && got.part >= 0 && got.part < int(pieces.size()));
      const Shape& s = pieces[std::size_t(got.part)];
      const CastResult own = radius > 0 ? pebble::cast_ray(s, xf, ray, radius) : pebble::cast_ray(s, xf, ray);
      FUZZ_REQUIRE(own.hit && same_bits(own.fraction, got.hit.fraction) && same_bits(own.point, got.hit.point) &&
                   same_bits(own.normal, got.hit.normal));
      // (Far from the origin cast_ray() places hits up to about 4 x 2^-20 of the coordinates off
      // the shape; the world's casts keep 2^-16 for it: fuzz/corpus/decompose/far-*ray-false-hit,
      // docs/robustness.md.)
      if (got.hit.fraction != best) {
        std::fprintf(stderr, "ray %s + %s, radius %g: the world's hit %.9g on piece %d, the least cast_ray() %.9g\n",
                     lit(ray.origin).c_str(), lit(ray.translation).c_str(), double(radius), double(got.hit.fraction),
                     got.part, double(best));
      }
      FUZZ_REQUIRE(got.hit.fraction == best);
    }
  }
  const pebble::Position outside = box.upper + Vec2{reach, reach};
  if (pebble::is_valid_point(outside)) {
    world.overlap_point(outside, [&](pebble::ColliderId) {
      FUZZ_REQUIRE(!"a point outside the pieces' box overlaps the compound");
      return true;
    });
  }
}

void check(const std::vector<Vec2>& poly, float radius) {
  g_describe_input = [&] { return describe(poly, radius); };
  const bool arguments_ok = poly.size() >= 3 && std::all_of(poly.begin(), poly.end(), valid_point) &&
                            std::isfinite(radius) && radius >= 0 && radius <= pebble::kMaxShapeExtent;
  std::vector<op::F2> fp;
  for (const Vec2 q : poly) fp.push_back(f2(q));
  const bool simple = arguments_ok && op::why_not_simple(fp).empty();
  std::vector<Shape> pieces;
  try {
    pieces = pebble::decompose(poly, radius);
  } catch (const pebble::InvalidShape& e) {
    FUZZ_REQUIRE(!simple);
    FUZZ_REQUIRE(std::strncmp(e.what(), "pebble: decompose: ", 19) == 0);
    g_describe_input = nullptr;
    return;
  } catch (...) {
    FUZZ_REQUIRE(!"decompose threw something other than pebble::InvalidShape");
  }
  FUZZ_REQUIRE(simple);  // accepted only what the oracle calls a simple polygon

  // The polygon counter-clockwise, its exact repeats of the previous point dropped.
  std::vector<op::F2> ring;
  for (const op::F2 q : fp) {
    if (ring.empty() || !(ring.back().x == q.x && ring.back().y == q.y)) ring.push_back(q);
  }
  while (ring.size() > 1 && ring.back().x == ring.front().x && ring.back().y == ring.front().y) ring.pop_back();
  if (op::twice_signed_area(ring) < 0) std::reverse(ring.begin(), ring.end());
  const std::size_t n = ring.size();
  const auto index_of = [&](Vec2 q) {
    for (std::size_t i = 0; i < n; ++i) {
      if (ring[i].x == q.x && ring[i].y == q.y) return i;
    }
    return n;
  };

  FUZZ_REQUIRE(!pieces.empty() && pieces.size() + 2 <= n);
  const real area = op::twice_signed_area(ring) / 2, tol = weld_tolerance(poly);
  real sum = 0, perimeters = 0;
  std::vector<Box> boxes;
  for (const Shape& s : pieces) {
    FUZZ_REQUIRE(same_bits(s.radius(), radius));
    const auto v = s.vertices();
    FUZZ_REQUIRE(v.size() >= 1 && v.size() <= std::size_t(pebble::kMaxPolygonVertices));
    for (const Vec2 q : v) FUZZ_REQUIRE(v.size() < 2 || index_of(q) < n);  // corners are input points
    for (std::size_t i = 0; v.size() >= 3 && i < v.size(); ++i) {
      FUZZ_REQUIRE(op::orient(f2(v[i]), f2(v[(i + 1) % v.size()]), f2(v[(i + 2) % v.size()])) > 0);
    }
    std::vector<op::F2> core;
    for (const Vec2 q : v) core.push_back(f2(q));
    sum += op::twice_signed_area(core) / 2;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const Vec2 a = v[i], b = v[(i + 1) % v.size()];
      perimeters += std::hypot(real(b.x) - a.x, real(b.y) - a.y);
    }
    boxes.push_back(box_of(v));
  }
  // The cores lie inside the polygon without overlap, and miss only what welding took off. Both
  // areas are fans of long double cross products around a first point, so each is off by up to
  // `slack` (a few roundings of 64-bit products of coordinate differences): at 1e7 that is about
  // 1e-3, far above the 1e-31 of area that a polygon of needles 1e-38 apart has. Overlapping cores
  // are caught exactly by the pairwise check below; this one bounds the total.
  real extent = 0;
  for (const op::F2 q : ring) extent = std::max({extent, std::fabs(real(q.x)), std::fabs(real(q.y))});
  const real slack = 32 * real(n) * (2 * extent) * (2 * extent) * std::numeric_limits<real>::epsilon();
  FUZZ_REQUIRE(sum <= area * (1 + 1e-9L) + slack);
  // (Within tol of a core lies at most tol x its perimeter + pi tol^2 more than the core.)
  FUZZ_REQUIRE(sum >= area * (1 - 1e-5L) - 2 * tol * perimeters - 4 * tol * tol * real(pieces.size()) - slack);

  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const auto a = pieces[i].vertices();
    if (a.size() < 3) continue;
    // Interior-disjoint: a separating edge for each pair whose boxes meet.
    for (std::size_t j = i + 1; j < pieces.size(); ++j) {
      const auto b = pieces[j].vertices();
      if (b.size() < 3 || !meet(boxes[i], boxes[j])) continue;
      const auto separated_by = [](std::span<const Vec2> x, std::span<const Vec2> y) {
        for (std::size_t k = 0; k < x.size(); ++k) {
          const op::F2 p = f2(x[k]), q = f2(x[(k + 1) % x.size()]);
          if (std::all_of(y.begin(), y.end(), [&](Vec2 z) { return op::orient(p, q, f2(z)) <= 0; })) return true;
        }
        return false;
      };
      FUZZ_REQUIRE(separated_by(a, b) || separated_by(b, a));
    }
    // Inside the polygon: no core edge crosses a polygon edge, no polygon point lies strictly
    // inside the core, and at its first corner the core's edges lie within the polygon's angle.
    for (std::size_t k = 0; k < n; ++k) {
      const op::F2 c = ring[k], d = ring[(k + 1) % n];
      const Box edge{std::min(c.x, d.x), std::min(c.y, d.y), std::max(c.x, d.x), std::max(c.y, d.y)};
      if (!meet(boxes[i], edge)) continue;
      bool strictly_inside = true;
      for (std::size_t m = 0; m < a.size(); ++m) {
        const op::F2 p = f2(a[m]), q = f2(a[(m + 1) % a.size()]);
        const int o1 = op::orient(p, q, c), o2 = op::orient(p, q, d), o3 = op::orient(c, d, p),
                  o4 = op::orient(c, d, q);
        FUZZ_REQUIRE(!(o1 * o2 < 0 && o3 * o4 < 0));
        if (o1 <= 0) strictly_inside = false;
      }
      FUZZ_REQUIRE(!strictly_inside);
    }
    const std::size_t corner = index_of(a[0]);
    const op::F2 at = ring[corner], before = ring[(corner + n - 1) % n], after = ring[(corner + 1) % n];
    const auto in_angle = [&](Vec2 x) {
      // x seen from the polygon's corner: within its (closed) angle from `after` round to `before`.
      const op::F2 q = f2(x);
      if (op::orient(before, at, after) >= 0) return op::orient(at, after, q) >= 0 && op::orient(at, q, before) >= 0;
      return !(op::orient(at, after, q) < 0 && op::orient(at, q, before) < 0);
    };
    FUZZ_REQUIRE(in_angle(a[1]) && in_angle(a[a.size() - 1]));
  }
  // The pieces as one compound of a world, placed as they are and turned by an exact rotation.
  check_in_world(pieces, Transform{});
  check_in_world(pieces, Transform{{0.5f, -0.25f}, pebble::Rot{0.6f, 0.8f}});
  g_describe_input = nullptr;
}

/// A star around center: n angles increasing by 1 + a byte each (all of them a full turn), radii
/// (1 + a byte) / 256 x scale.
std::vector<Vec2> star(FuzzInput& in, int n) {
  const float scale = in.number();
  const Vec2 center = in.vec2();
  std::vector<double> step(static_cast<std::size_t>(n)), radius(static_cast<std::size_t>(n));
  double total = 0;
  for (int i = 0; i < n; ++i) {
    step[std::size_t(i)] = 1 + in.u8();
    radius[std::size_t(i)] = (1 + in.u8()) / 256.0;
    total += step[std::size_t(i)];
  }
  std::vector<Vec2> out;
  double angle = 0;
  for (int i = 0; i < n; ++i) {
    const double r = scale * radius[std::size_t(i)];
    out.push_back({float(center.x + r * std::cos(angle)), float(center.y + r * std::sin(angle))});
    angle += 2 * std::numbers::pi * step[std::size_t(i)] / total;
  }
  return out;
}

}  // namespace

int run(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  for (int cases = 0; cases < 4 && !in.empty(); ++cases) {
    const int mode = in.below(4);
    const float radius = in.flag() ? in.number() : 0.0f;
    std::vector<Vec2> poly;
    switch (mode) {
      case 0: {  // any points at all
        const int n = in.below(64);
        for (int i = 0; i < n; ++i) poly.push_back(in.vec2());
        break;
      }
      case 1:  // a star: simple unless rounding or the scale break it
        poly = star(in, 3 + in.u16() % 1200);
        break;
      case 2: {  // a walk on a small grid: collinear runs, touching, repeats
        const int n = 3 + in.below(40);
        const float scale = in.number();
        const Vec2 offset = in.vec2();
        for (int i = 0; i < n; ++i) {
          const float gx = float(in.u8() % 16), gy = float(in.u8() % 16);
          poly.push_back({offset.x + scale * gx, offset.y + scale * gy});
        }
        break;
      }
      default: {  // a star with points nudged by a float step, moved onto a chord, or repeated
        poly = star(in, 3 + in.u16() % 200);
        const int edits = in.below(8);
        for (int k = 0; k < edits; ++k) {
          const std::size_t i = std::size_t(in.u16()) % poly.size(), j = std::size_t(in.u16()) % poly.size();
          const std::size_t m = std::size_t(in.u16()) % poly.size();
          switch (in.below(3)) {
            case 0: {
              const float toward = in.flag() ? INFINITY : -INFINITY;
              if (in.flag())
                poly[i].x = std::nextafter(poly[i].x, toward);
              else
                poly[i].y = std::nextafter(poly[i].y, toward);
              break;
            }
            case 1:
              poly[i] = pebble::lerp(poly[j], poly[m], float(in.u8()) / 255.0f);
              break;
            default:
              poly.insert(poly.begin() + std::ptrdiff_t(i), poly[j]);
              break;
          }
        }
        break;
      }
    }
    check(poly, radius);
  }
  return 0;
}

}  // namespace pebble_fuzz::decompose_target

#ifndef PEBBLE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pebble_fuzz::decompose_target::run(data, size);
}
#endif
