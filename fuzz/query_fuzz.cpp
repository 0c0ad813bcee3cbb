// Fuzz target: every query on two arbitrary shapes at arbitrary transforms, with arbitrary points,
// rays, motions, sweeps and options (NaN, infinities, 1e30, denormals, zero-length rays and
// motions, non-unit rotations). Each result must keep its documented invariants (invariants.hpp),
// invalid input must give the documented empty result, the queries that promise to agree must
// agree (collide / distance / overlap, contains / project_point), and every SIMD copy of the
// contact kernels must give the same bits.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "fuzz_input.hpp"
#include "invariants.hpp"
#include "test_hooks.hpp"  // pebble::test_hooks (src/, not installed)

namespace pebble_fuzz::query_target {
namespace {

using pebble::Ray;
using pebble::Shape;
using pebble::Sweep;
using pebble::Transform;

bool valid_point(pebble::Position p) { return pebble::is_valid_point(p); }

/// The shape's core alone (radius 0).
Shape core_of(const Shape& s) {
  const auto v = s.vertices();
  if (v.size() == 1) return Shape::circle(0, v[0]);
  if (v.size() == 2) return Shape::capsule(v[0], v[1], 0);
  return Shape::polygon(v, 0);
}

/// The cores at these transforms are closer than 1e-30 (measured on the cores themselves:
/// distance() + radii would be rounding noise of the radii).
bool tiny_gap(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  return std::fabs(pebble::distance(core_of(a), xa, core_of(b), xb).distance) < 1e-30f;
}

/// The accuracy the contract promises a pair (DESIGN.md): 1e-3 x the smaller shape's size plus
/// float rounding of the coordinates (8 ulps of the largest one). Queries that decide "touching"
/// by different computations may disagree within it. Plus what a rotation off unit length (valid
/// up to kRotationTolerance) leaves undefined: a query that sees B from A's frame turns B's offset
/// by A's rotation, which scales it by |q| (world = q local + p holds for each shape's own
/// vertices, not for the frame change). A pair of radius 6.9e6 whose positions are 6.9e6 apart,
/// with |q|^2 = 1 + 1.5e-5, moved by 52 units that way: distance() said -16.5 where the shapes
/// overlap by 69, and cast_shape() missed the deep start (the fuzzer's first finding of it; with
/// the rotation normalized both are right). Rot::from_angle is within 1e-7 of unit length.
/// The kernels' tolerances are fractions of the pair's size but never of less than 1e-6
/// (kMinPairScale, src/tolerances.hpp): an overlap of two shapes 2e-14 across by 1e-14 is
/// measured as touching (a chain segment inside such a box: the test command's fuzz minute of
/// issue 33, fuzz/corpus/query/chain-segment-inside-a-2e-14-box).
constexpr float kMinPairScale = 1e-6f;

float accuracy(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  float biggest = 0;
  for (const Aabb& box : {pebble::bounds(a, xa), pebble::bounds(b, xb)}) {
    biggest = std::max({biggest, float(std::fabs(box.lower.x)), float(std::fabs(box.lower.y)),
                        float(std::fabs(box.upper.x)), float(std::fabs(box.upper.y))});
  }
  const auto scale_error = [](const Transform& x) { return 0.5f * std::fabs(x.q.c * x.q.c + x.q.s * x.q.s - 1); };
  const float frames =
      std::max(scale_error(xa), scale_error(xb)) * (pebble::length(xb.p - xa.p) + a.extent() + b.extent());
  return 1e-3f * std::max(std::min(a.extent(), b.extent()), kMinPairScale) +
         8 * std::numeric_limits<float>::epsilon() * biggest + frames;
}

/// The contact queries on one pair, checked; with the results kept for the SIMD comparison.
struct ContactAnswers {
  Manifold touching, speculative;
  DistanceResult dist;
  bool overlapping;
};

ContactAnswers contact_queries(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, float margin) {
  ContactAnswers out{pebble::collide(a, xa, b, xb), pebble::collide(a, xa, b, xb, margin),
                     pebble::distance(a, xa, b, xb), pebble::overlap(a, xa, b, xb)};
  const bool valid = pebble::is_valid(xa) && pebble::is_valid(xb);
  if (!valid) {
    check_empty_manifold(out.touching);
    check_empty_manifold(out.speculative);
    check_empty_distance(out.dist);
    FUZZ_REQUIRE(!out.overlapping);
    return out;
  }
  check_manifold(out.touching, 0);
  check_distance(out.dist);
  // collide() at margin 0, overlap() and distance() <= 0 are one decision (manifold.hpp,
  // distance.hpp).
  FUZZ_REQUIRE((out.touching.count > 0) == out.overlapping);
  if (out.overlapping)
    FUZZ_REQUIRE(out.dist.distance <= 0);
  else
    FUZZ_REQUIRE(!(out.dist.distance <= 0));
  // Any margin: the points are those within it; a finite margin has points exactly when the
  // distance is within it.
  check_manifold(out.speculative, margin);
  if (std::isfinite(margin)) {
    if (out.speculative.count > 0)
      FUZZ_REQUIRE(out.dist.distance <= margin);
    else
      FUZZ_REQUIRE(!(out.dist.distance <= margin));
  }
  return out;
}

void point_queries(const Shape& s, const Transform& xf, Vec2 p) {
  const ProjectionResult proj = pebble::project_point(s, xf, p);
  const bool inside = pebble::contains(s, xf, p);
  if (!pebble::is_valid(xf) || !valid_point(p)) {
    check_empty_projection(proj);
    FUZZ_REQUIRE(!inside);
    return;
  }
  check_projection(proj);
  FUZZ_REQUIRE(inside == proj.inside);
}

void ray_queries(const Shape& s, const Transform& xf, const Ray& ray, float radius) {
  const bool valid = pebble::is_valid(xf) && valid_point(ray.origin) && valid_point(ray.translation);
  const CastResult h = pebble::cast_ray(s, xf, ray);
  check_cast(h, true);
  if (!valid) FUZZ_REQUIRE(!h.hit);
  const CastResult c = pebble::cast_ray(s, xf, ray, radius);
  check_cast(c, true);
  if (!valid || !(radius >= 0)) FUZZ_REQUIRE(!c.hit);
  // A circle cast of radius 0 is the ray cast (ray.hpp).
  const CastResult zero = pebble::cast_ray(s, xf, ray, 0.0f);
  FUZZ_REQUIRE(zero.hit == h.hit && same_bits(zero.fraction, h.fraction));
}

}  // namespace

int run(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const Shape a = in.shape_or(Shape::box(1, 0.5f));
  const Shape b = in.shape_or(Shape::circle(0.5f));
  const Transform xa = in.transform(), xb = in.transform();
  const UnitToleranceOf unit_tolerance{xa, xb};
  const float margin = in.number();
  const Vec2 point = in.vec2();
  const Ray ray{in.vec2(), in.vec2()};
  const float cast_radius = in.number();
  const Vec2 move_a = in.vec2(), move_b = in.vec2();
  const pebble::ShapeCastOptions cast_options{in.number()};
  Sweep sa{}, sb{};
  for (Sweep* s : {&sa, &sb}) {
    s->local_center = in.vec2();
    s->c0 = in.vec2();
    s->c1 = in.flag() ? s->c0 : in.vec2();  // no motion, often
    s->a0 = in.number();
    s->a1 = in.flag() ? s->a0 : in.number();
  }
  const float t_max = in.flag() ? 1.0f : in.number();
  pebble::ToiOptions toi_options;
  if (in.flag()) {
    toi_options.target_separation = in.number();
    toi_options.tolerance = in.number();
    toi_options.max_iterations = int(in.u8()) - 8;
  }
  const float horizon = in.number();
  const float density = in.number();
  const float t_sweep = in.number();
  Vec2 p0{}, p1{}, g0{}, g1{};  // the chain segment's, read last (below)
  bool has_prev = false, has_next = false;
  g_describe_input = [&] {
    const auto sweep = [](const Sweep& s) {
      return "Sweep{" + lit(s.local_center) + ", " + lit(s.c0) + ", " + lit(s.c1) + ", " + lit(s.a0) + ", " +
             lit(s.a1) + "}";
    };
    return "  a = " + lit(a) + "; xa = " + lit(xa) + ";\n  b = " + lit(b) + "; xb = " + lit(xb) + ";\n  margin " +
           lit(margin) + ", point " + lit(point) + ", ray " + lit(ray.origin) + " + " + lit(ray.translation) +
           ", cast radius " + lit(cast_radius) + "\n  move_a " + lit(move_a) + ", move_b " + lit(move_b) +
           ", cast target " + lit(cast_options.target_separation) + "\n  sa " + sweep(sa) + ", sb " + sweep(sb) +
           ", t_max " + lit(t_max) + ", toi options {" + lit(toi_options.target_separation) + ", " +
           lit(toi_options.tolerance) + ", " + std::to_string(toi_options.max_iterations) + "}\n  horizon " +
           lit(horizon) + ", density " + lit(density) + ", t " + lit(t_sweep) + "\n  chain segment " + lit(p0) +
           " -> " + lit(p1) + ", ghosts " + (has_prev ? lit(g0) : std::string("none")) + ", " +
           (has_next ? lit(g1) : std::string("none"));
  };

  // Contacts, on every SIMD copy of the kernels: the same bits on each (simd.hpp).
  const pebble::SimdPath start_path = pebble::simd_path();
  const ContactAnswers first = contact_queries(a, xa, b, xb, margin);
  for (const pebble::SimdPath path :
       {pebble::SimdPath::scalar, pebble::SimdPath::sse2, pebble::SimdPath::avx2, pebble::SimdPath::neon}) {
    if (path == start_path || !pebble::detail::use_simd_path(path)) continue;
    const ContactAnswers other = contact_queries(a, xa, b, xb, margin);
    FUZZ_REQUIRE(same_bits(first.touching, other.touching));
    FUZZ_REQUIRE(same_bits(first.speculative, other.speculative));
    FUZZ_REQUIRE(same_bits(first.dist, other.dist));
    FUZZ_REQUIRE(first.overlapping == other.overlapping);
  }
  pebble::detail::use_simd_path(start_path);
  // The generic paths (without the circle fast paths) keep the same invariants.
  if (pebble::is_valid(xa) && pebble::is_valid(xb)) {
    check_manifold(pebble::detail::collide_generic(a, xa, b, xb), 0);
    check_distance(pebble::detail::distance_generic(a, xa, b, xb));
  }

  point_queries(a, xa, point);
  point_queries(b, xb, point);
  ray_queries(a, xa, ray, cast_radius);
  ray_queries(b, xb, ray, cast_radius);

  // Shape casts: with the default options and with the fuzzed ones.
  const bool cast_valid = pebble::is_valid(xa) && pebble::is_valid(xb) && valid_point(move_a) && valid_point(move_b);
  const CastResult cast = pebble::cast_shape(a, xa, move_a, b, xb, move_b);
  check_cast(cast, false);
  if (!cast_valid) FUZZ_REQUIRE(!cast.hit);
  const CastResult cast_opt = pebble::cast_shape(a, xa, move_a, b, xb, move_b, cast_options);
  check_cast(cast_opt, false);
  if (!cast_valid || !(cast_options.target_separation >= 0)) FUZZ_REQUIRE(!cast_opt.hit);
  // Shapes that start overlapping (beyond the accuracy, where "touching" is a matter of
  // rounding) hit at fraction 0 (cast.hpp).
  const bool deep = first.dist.distance < -accuracy(a, xa, b, xb);
  if (cast_valid && deep) FUZZ_REQUIRE(cast.hit && cast.fraction == 0);

  // Time of impact, default options and fuzzed ones.
  const auto valid_sweep = [](const Sweep& s) {
    const float far = std::max({std::fabs(s.c0.x), std::fabs(s.c0.y), std::fabs(s.c1.x), std::fabs(s.c1.y)});
    return valid_point(s.local_center) && valid_point(s.c0) && valid_point(s.c1) &&
           std::fabs(s.a0) <= pebble::kMaxWorldCoordinate && std::fabs(s.a1) <= pebble::kMaxWorldCoordinate &&
           far + (std::fabs(s.local_center.x) + std::fabs(s.local_center.y)) <= pebble::kMaxWorldCoordinate;
  };
  const bool toi_valid = valid_sweep(sa) && valid_sweep(sb) && t_max >= 0 && t_max <= 1;
  for (const bool with_options : {false, true}) {
    const ToiResult r = with_options ? pebble::time_of_impact(a, sa, b, sb, t_max, toi_options)
                                     : pebble::time_of_impact(a, sa, b, sb, t_max);
    const bool options_valid =
        !with_options || (toi_options.target_separation >= 0 &&
                          toi_options.target_separation <= pebble::kMaxShapeExtent && toi_options.tolerance >= 0 &&
                          toi_options.tolerance <= pebble::kMaxShapeExtent && toi_options.max_iterations >= 1);
    if (toi_valid && options_valid) {
      check_toi(r, t_max);
    } else {
      FUZZ_REQUIRE(r.state == ToiResult::State::failed && r.fraction == 0 && is_zero(r.point) && is_zero(r.normal));
    }
  }
  if (valid_sweep(sa) && std::isfinite(t_sweep) && t_sweep >= 0 && t_sweep <= 1) {
    const Transform x = pebble::sweep_transform(sa, t_sweep);
    FUZZ_REQUIRE(finite(x.p) && finite(x.q.c) && finite(x.q.s));
    FUZZ_REQUIRE(std::fabs(x.q.c * x.q.c + x.q.s * x.q.s - 1) <= pebble::kRotationTolerance);
  } else {
    (void)pebble::sweep_transform(sa, t_sweep);  // anything, but no crash and no sanitizer report
  }

  // Closest approach: velocities are move_a and move_b.
  const ApproachResult ap = pebble::closest_approach(a, xa, move_a, b, xb, move_b, horizon);
  if (cast_valid && horizon >= 0 && horizon <= pebble::kMaxWorldCoordinate && valid_point(xa.p + horizon * move_a) &&
      valid_point(xb.p + horizon * move_b)) {
    check_approach(ap, horizon);
    if (deep) FUZZ_REQUIRE(ap.hit && ap.time == 0);
  } else {
    check_empty_approach(ap);
  }

  // time_to_collision(): closest_approach()'s time exactly when that is a hit. The batch forms:
  // the single answers, bit for bit, in a full lane group and a partial one (disc pairs run in
  // SIMD lanes, every other kind one at a time).
  const float ttc = pebble::time_to_collision(a, xa, move_a, b, xb, move_b, horizon);
  FUZZ_REQUIRE(ap.hit ? same_bits(ttc, ap.time) : ttc == pebble::kNoCollision);
  {
    constexpr int kCopies = 11;
    pebble::BatchPair pairs[kCopies];
    for (pebble::BatchPair& p : pairs) p = {{&a, xa, move_a}, {&b, xb, move_b}};
    ApproachResult approaches[kCopies];
    float times[kCopies];
    DistanceResult distances[kCopies];
    bool overlaps[kCopies];
    pebble::batch::closest_approach(pairs, horizon, approaches);
    pebble::batch::time_to_collision(pairs, horizon, times);
    pebble::batch::distance(pairs, distances);
    pebble::batch::overlap(pairs, overlaps);
    const DistanceResult d = pebble::distance(a, xa, b, xb);
    const bool o = pebble::overlap(a, xa, b, xb);
    for (int i = 0; i < kCopies; ++i) {
      const ApproachResult& r = approaches[i];
      FUZZ_REQUIRE(r.hit == ap.hit && same_bits(r.time, ap.time) && same_bits(r.distance, ap.distance) &&
                   same_bits(r.point_a, ap.point_a) && same_bits(r.point_b, ap.point_b) &&
                   same_bits(r.normal, ap.normal));
      FUZZ_REQUIRE(same_bits(times[i], ttc) && same_bits(distances[i], d) && overlaps[i] == o);
    }
  }

  // A chain segment with its ghosts (read last, so that older inputs keep their meaning): the
  // manifold keeps its invariants, is one-sided, and never reports a point nearer than the
  // segment's distance; rays and casts keep theirs and pass through from behind.
  {
    p0 = in.vec2();
    p1 = in.vec2();
    g0 = in.vec2();
    g1 = in.vec2();
    has_prev = in.flag();
    has_next = in.flag();
    try {
      const pebble::ChainSegment seg =
          pebble::ChainSegment::make(p0, p1, has_prev ? &g0 : nullptr, has_next ? &g1 : nullptr);
      const bool valid = pebble::is_valid(xa) && pebble::is_valid(xb);
      const Manifold m = pebble::collide(seg, xa, b, xb, margin);
      if (!valid) {
        check_empty_manifold(m);
      } else {
        const bool tiny = tiny_gap(seg.shape, xa, b, xb);
        check_manifold(m, margin);
        const Vec2 c = pebble::inv_transform_point(xa, pebble::transform_point(xb, b.core_centroid()));
        // (Behind by more than the rounding of the two ways of placing the centroid.)
        const float slack =
            1e-5f * (std::fabs(c.x) + std::fabs(c.y) + std::fabs(seg.a.x) + std::fabs(seg.a.y) + b.extent() +
                     std::fabs(xa.p.x) + std::fabs(xa.p.y) + std::fabs(xb.p.x) + std::fabs(xb.p.y));
        if (pebble::dot(seg.normal, c - seg.a) < -slack) FUZZ_REQUIRE(m.count == 0);
        // Clearly apart, no gap along any normal is below the distance. (Touching or overlapping,
        // the depth along the face normal a ghost is replaced by may exceed the least translation:
        // a body through a corner lies in the solid behind the segment's neighbours too.)
        const float d = pebble::distance(seg.shape, xa, b, xb).distance;
        if (m.count > 0 && !tiny && d > accuracy(seg.shape, xa, b, xb)) {
          for (int k = 0; k < m.count; ++k)
            FUZZ_REQUIRE(m.points[k].separation >= d - 2 * accuracy(seg.shape, xa, b, xb));
        }
      }
      const CastResult h = pebble::cast_ray(seg, xa, ray, cast_radius);
      check_cast(h, true);
      if (h.hit) FUZZ_REQUIRE(pebble::dot(seg.normal, pebble::inv_transform_point(xa, ray.origin) - seg.a) >= 0);
      const ToiResult ts = pebble::time_of_impact(b, sb, seg, sa, t_max, toi_options);
      FUZZ_REQUIRE(ts.fraction >= 0 && ts.fraction <= 1 && finite(ts.point) && finite(ts.normal));
      if (ts.state == ToiResult::State::hit || ts.state == ToiResult::State::overlapped)
        FUZZ_REQUIRE(is_unit(ts.normal) || is_zero(ts.normal));
      const ApproachResult as = pebble::closest_approach(b, xb, move_b, seg, xa, move_a, horizon);
      FUZZ_REQUIRE(finite(as.time) && finite(as.distance) && finite(as.point_a) && finite(as.point_b) &&
                   finite(as.normal));
      const CastResult hc = pebble::cast_shape(b, xb, move_b, seg, xa, move_a, cast_options);
      check_cast(hc, false);
    } catch (const pebble::InvalidShape&) {
      // Only for bad points: non-finite or beyond kMaxShapeExtent, ends so close that they weld
      // (within the maker's weld tolerance of the pair's size), or a ghost that is bad or on its end.
      const auto ok = [](Vec2 p) {
        return std::isfinite(p.x) && std::isfinite(p.y) && std::fabs(p.x) <= pebble::kMaxShapeExtent &&
               std::fabs(p.y) <= pebble::kMaxShapeExtent;
      };
      const float far = std::max({std::fabs(p0.x), std::fabs(p0.y), std::fabs(p1.x), std::fabs(p1.y)});
      FUZZ_REQUIRE(!ok(p0) || !ok(p1) ||
                   pebble::length(p1 - p0) <=
                       8 * std::numeric_limits<float>::epsilon() * far + 2 * pebble::kMinWeldDistance ||
                   pebble::length(p1 - p0) > pebble::kMaxShapeExtent ||
                   (has_prev && (!pebble::is_valid_point(g0) || g0 == p0)) ||
                   (has_next && (!pebble::is_valid_point(g1) || g1 == p1)));
    }
  }

  // One-shape queries.
  for (const Shape* s : {&a, &b}) {
    try {
      check_mass(pebble::mass_properties(*s, density));
      FUZZ_REQUIRE(std::isfinite(density) && density >= 0);
    } catch (const pebble::InvalidShape&) {
      // Only for a negative, non-finite or overflowing density (mass.hpp); density 1 never fails.
      FUZZ_REQUIRE(!(density >= 0 && density <= 1));
    }
    const float area = pebble::area(*s);
    FUZZ_REQUIRE(finite(area) && area >= 0);
    for (const Transform* x : {&xa, &xb}) {
      const Aabb box = pebble::bounds(*s, *x);
      const Aabb portable = pebble::detail::bounds_portable(*s, *x);
      FUZZ_REQUIRE(same_bits(box.lower, portable.lower) && same_bits(box.upper, portable.upper));
      if (!pebble::is_valid(*x)) {
        FUZZ_REQUIRE(is_zero(box.lower) && is_zero(box.upper));
        continue;
      }
      check_box(box);
      // The box holds the shape: every core vertex, placed exactly, grown by the radius.
      for (const Vec2 v : s->vertices()) {
        const long double wx = (long double)x->q.c * v.x - (long double)x->q.s * v.y + x->p.x;
        const long double wy = (long double)x->q.s * v.x + (long double)x->q.c * v.y + x->p.y;
        FUZZ_REQUIRE(box.lower.x <= wx - s->radius() && wx + s->radius() <= box.upper.x);
        FUZZ_REQUIRE(box.lower.y <= wy - s->radius() && wy + s->radius() <= box.upper.y);
      }
    }
  }
  return 0;
}

}  // namespace pebble_fuzz::query_target

#ifndef PEBBLE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pebble_fuzz::query_target::run(data, size);
}
#endif
