// bench/casts_bench.cpp — casts (issue 12) beside Box2D 2.4.1: pebble::cast_ray against
// b2PolygonShape::RayCast and b2CircleShape::RayCast, cast_shape against b2ShapeCast,
// time_of_impact against b2TimeOfImpact (alone, and followed by the b2Distance that gives what
// pebble returns: the contact point and normal), and closest_approach against b2ShapeCast plus
// b2Distance. Every ray and cast starts with the shapes apart (Box2D reports no hit from inside
// or from an initial overlap): about two rays in three hit, nine casts in ten. Pairs are placed
// by bench_common.hpp's brute-force signed distance, never by the code under test.
#include <box2d/b2_time_of_impact.h>

#include "bench_common.hpp"

namespace bench {
namespace {

// ---------------------------------------------------------------------------------------------
// Inputs.

/// One shape at a transform and one ray, in both libraries' types.
template <class B2Shape>
struct RayCase {
  pebble::Shape shape;
  pebble::Transform xf;
  pebble::Ray ray;
  B2Shape b2_shape;
  b2Transform b2_xf;
  b2RayCastInput b2_input;
};

/// kCaseCount rays: the origin 0.5 to 3 extents outside the shape's bounding disc (so outside the
/// shape), aimed at a point uniform in the square of half size extent around the centroid, with
/// a translation of 0.7 to 1.5 times the distance to that point.
template <class Make>
auto make_ray_cases(std::uint32_t seed, Make make) {
  using B2Shape = decltype(make(std::declval<Rng&>()).box2d);
  Rng rng(seed);
  std::vector<RayCase<B2Shape>> out;
  out.reserve(kCaseCount);
  for (std::size_t i = 0; i < kCaseCount; ++i) {
    Made<B2Shape> shape = make(rng);
    const pebble::Transform xf = random_transform(rng);
    const pebble::Vec2 centre = pebble::transform_point(xf, shape.pebble.core_centroid());
    const float extent = shape.pebble.extent();
    const float angle = uniform(rng, -kPi, kPi);
    const pebble::Vec2 origin =
        centre + extent * uniform(rng, 1.5f, 4) * pebble::Vec2{std::cos(angle), std::sin(angle)};
    const pebble::Vec2 aim = centre + pebble::Vec2{uniform(rng, -extent, extent), uniform(rng, -extent, extent)};
    const pebble::Ray ray{origin, uniform(rng, 0.7f, 1.5f) * (aim - origin)};
    b2RayCastInput input;
    input.p1 = to_b2(ray.origin);
    input.p2 = to_b2(ray.origin + ray.translation);
    input.maxFraction = 1;
    out.push_back({shape.pebble, xf, ray, shape.box2d, to_b2(xf), input});
  }
  return out;
}

const auto& octagon_rays() {
  static const auto cases = make_ray_cases(kSeed + 31, make_octagon);
  return cases;
}
const auto& box_rays() {
  static const auto cases = make_ray_cases(kSeed + 32, make_box);
  return cases;
}
const auto& circle_rays() {
  static const auto cases = make_ray_cases(kSeed + 33, make_circle);
  return cases;
}

/// Times query on the cases (run_cases), then reports the share of cases that hit and the mean
/// fraction of the hits, read from each result by hit_of as (hit, fraction): equal on both sides
/// when both answered the same questions.
template <class Cases, class Query, class HitOf>
void run_casts(benchmark::State& state, const Cases& cases, Query query, HitOf hit_of) {
  run_cases(state, cases, query);
  double hits = 0, fractions = 0;
  for (const auto& c : cases) {
    const auto [hit, fraction] = hit_of(query(c));
    hits += hit ? 1 : 0;
    fractions += hit ? static_cast<double>(fraction) : 0;
  }
  state.counters["hit"] = hits / static_cast<double>(cases.size());
  state.counters["fraction"] = hits > 0 ? fractions / hits : 0;
}

/// (hit, fraction) of pebble's CastResult.
inline std::pair<bool, float> cast_hit(const pebble::CastResult& h) { return {h.hit, h.fraction}; }

// ---------------------------------------------------------------------------------------------
// Ray casts.

template <class Cases>
void raycast_pebble(benchmark::State& state, const Cases& cases) {
  run_casts(
      state, cases, [](const auto& c) { return pebble::cast_ray(c.shape, c.xf, c.ray); }, cast_hit);
}

/// b2Shape::RayCast as a user calls it on a fixture's shape: the output, the input, the body
/// transform, child 0.
template <class Cases>
void raycast_box2d(benchmark::State& state, const Cases& cases) {
  auto query = [](const auto& c) {
    b2RayCastOutput output;
    output.fraction = 1;
    output.normal.SetZero();
    const bool hit = c.b2_shape.RayCast(&output, c.b2_input, c.b2_xf, 0);
    return std::pair{hit, output.fraction};
  };
  run_casts(state, cases, query, [](std::pair<bool, float> r) { return r; });
}

// ---------------------------------------------------------------------------------------------
// Two moving shapes.

/// A pair apart, with B's motion (and A's rotation for the time of impact) in both libraries'
/// types.
template <class SA, class SB>
struct MotionCase {
  PairCase<SA, SB> pair;
  pebble::Vec2 translation_b;      ///< shape cast and closest approach (A at rest)
  pebble::Sweep sweep_a, sweep_b;  ///< time of impact
  b2Sweep b2_sweep_a, b2_sweep_b;
};

using bench::to_b2;
b2Sweep to_b2(const pebble::Sweep& s) {
  b2Sweep out;
  out.localCenter = to_b2(s.local_center);
  out.c0 = to_b2(s.c0);
  out.c = to_b2(s.c1);
  out.a0 = s.a0;
  out.a = s.a1;
  out.alpha0 = 0;
  return out;
}

/// kCaseCount pairs apart by (0.02 to 1) x half the smaller extent (pairs a broadphase finds near
/// contact), B moving back toward A by 0.3 to 2 times the distance between their centroids with a
/// sideways offset of up to two of its extents (about nine casts in ten hit), turning by up to
/// `spin` radians over the step (A by up to half that).
template <class MakeA, class MakeB>
auto make_motion_cases(std::uint32_t seed, MakeA make_a, MakeB make_b, float spin) {
  using SA = decltype(make_a(std::declval<Rng&>()).box2d);
  using SB = decltype(make_b(std::declval<Rng&>()).box2d);
  const auto pairs =
      make_pair_cases(seed, make_a, make_b, [](Rng& rng, float size) { return 0.5 * size * uniform(rng, 0.04f, 2); });
  Rng rng(seed + 1000);
  std::vector<MotionCase<SA, SB>> out;
  out.reserve(pairs.size());
  for (const auto& p : pairs) {
    const pebble::Vec2 ca = pebble::transform_point(p.xa, p.pa.core_centroid()),
                       cb = pebble::transform_point(p.xb, p.pb.core_centroid());
    const pebble::Vec2 dir = pebble::normalize(cb - ca);
    const float reach = (pebble::distance(ca, cb)) * uniform(rng, 0.3f, 2);
    const pebble::Vec2 translation = -reach * dir + uniform(rng, -2, 2) * p.pb.extent() * pebble::left_perp(dir);
    const float angle_a = p.xa.q.angle(), angle_b = p.xb.q.angle();
    const pebble::Sweep sa{{0, 0}, p.xa.p, p.xa.p, angle_a, angle_a + 0.5f * uniform(rng, -spin, spin)};
    const pebble::Sweep sb{{0, 0}, p.xb.p, p.xb.p + translation, angle_b, angle_b + uniform(rng, -spin, spin)};
    out.push_back({p, translation, sa, sb, to_b2(sa), to_b2(sb)});
  }
  return out;
}

const auto& box_box_motion() {
  static const auto cases = make_motion_cases(kSeed + 41, make_box, make_box, 1);
  return cases;
}
const auto& octagon_octagon_motion() {
  static const auto cases = make_motion_cases(kSeed + 42, make_octagon, make_octagon, 1);
  return cases;
}
const auto& capsule_box_motion() {
  static const auto cases = make_motion_cases(kSeed + 43, make_capsule, make_box, 1);
  return cases;
}
const auto& circle_octagon_motion() {
  static const auto cases = make_motion_cases(kSeed + 44, make_circle, make_octagon, 1);
  return cases;
}

/// b2ShapeCast as a user calls it: a proxy per shape, A at rest, B translated. (It stops a linear
/// slop short of contact; pebble's cast_shape() does the same work for a target separation.)
template <class Case>
std::pair<bool, b2ShapeCastOutput> box2d_shape_cast(const Case& c, b2ShapeCastInput& input) {
  input.proxyA.Set(&c.pair.ba, 0);
  input.proxyB.Set(&c.pair.bb, 0);
  input.transformA = c.pair.bxa;
  input.transformB = c.pair.bxb;
  input.translationB = to_b2(c.translation_b);
  b2ShapeCastOutput output;
  const bool hit = b2ShapeCast(&output, &input);
  return {hit, output};
}

/// b2Distance at the given transforms, as a user calls it: a cold cache, radii included.
inline b2DistanceOutput box2d_distance(const b2DistanceProxy& a, const b2Transform& xa, const b2DistanceProxy& b,
                                       const b2Transform& xb) {
  b2DistanceInput input;
  input.proxyA = a;
  input.proxyB = b;
  input.transformA = xa;
  input.transformB = xb;
  input.useRadii = true;
  b2SimplexCache cache;
  cache.count = 0;
  b2DistanceOutput output;
  b2Distance(&output, &cache, &input);
  return output;
}

template <class Cases>
void shape_cast_pebble(benchmark::State& state, const Cases& cases) {
  auto query = [](const auto& c) {
    return pebble::cast_shape(c.pair.pa, c.pair.xa, {0, 0}, c.pair.pb, c.pair.xb, c.translation_b);
  };
  run_casts(state, cases, query, cast_hit);
}

template <class Cases>
void shape_cast_box2d(benchmark::State& state, const Cases& cases) {
  auto query = [](const auto& c) {
    b2ShapeCastInput input;
    return box2d_shape_cast(c, input);
  };
  run_casts(state, cases, query, [](const auto& r) { return std::pair{r.first, r.second.lambda}; });
}

template <class Cases>
void toi_pebble(benchmark::State& state, const Cases& cases) {
  // Box2D's time of impact stops a linear slop short of contact; so does this.
  pebble::ToiOptions options;
  options.target_separation = pebble::kLinearSlop;
  auto query = [options](const auto& c) {
    return pebble::time_of_impact(c.pair.pa, c.sweep_a, c.pair.pb, c.sweep_b, 1, options);
  };
  run_casts(state, cases, query, [](const pebble::ToiResult& r) {
    return std::pair{r.state == pebble::ToiResult::State::hit, r.fraction};
  });
}

/// b2TimeOfImpact as b2World::SolveTOI calls it; with_distance adds the b2Distance at the time
/// of impact that gives the contact point and normal pebble returns.
template <class Cases>
void toi_box2d(benchmark::State& state, const Cases& cases, bool with_distance) {
  auto query = [with_distance](const auto& c) {
    b2TOIInput input;
    input.proxyA.Set(&c.pair.ba, 0);
    input.proxyB.Set(&c.pair.bb, 0);
    input.sweepA = c.b2_sweep_a;
    input.sweepB = c.b2_sweep_b;
    input.tMax = 1;
    b2TOIOutput output;
    b2TimeOfImpact(&output, &input);
    b2DistanceOutput contact{};
    if (with_distance && output.state == b2TOIOutput::e_touching) {
      b2Transform xa, xb;
      c.b2_sweep_a.GetTransform(&xa, output.t);
      c.b2_sweep_b.GetTransform(&xb, output.t);
      contact = box2d_distance(input.proxyA, xa, input.proxyB, xb);
    }
    return std::pair{output, contact};
  };
  run_casts(state, cases, query, [](const auto& r) {
    return std::pair{r.first.state == b2TOIOutput::e_touching, r.first.t};
  });
}

template <class Cases>
void approach_pebble(benchmark::State& state, const Cases& cases) {
  auto query = [](const auto& c) {
    return pebble::closest_approach(c.pair.pa, c.pair.xa, {0, 0}, c.pair.pb, c.pair.xb, c.translation_b, 1);
  };
  run_casts(state, cases, query, [](const pebble::ApproachResult& a) { return std::pair{a.hit, a.time}; });
}

/// What a Box2D user calls for a closest approach: b2ShapeCast for a touch, then b2Distance at
/// that time (or at the end of the motion) for the distance and witness points.
template <class Cases>
void approach_box2d(benchmark::State& state, const Cases& cases) {
  auto query = [](const auto& c) {
    b2ShapeCastInput input;
    const auto [hit, cast] = box2d_shape_cast(c, input);
    b2Transform xb = input.transformB;
    xb.p += (hit ? cast.lambda : 1.0f) * input.translationB;
    const b2DistanceOutput d = box2d_distance(input.proxyA, input.transformA, input.proxyB, xb);
    return std::pair{hit, hit ? cast.lambda : d.distance};
  };
  run_casts(state, cases, query, [](std::pair<bool, float> r) { return r; });
}

}  // namespace

void register_cast_benchmarks() {
  add_pair(
      "BM_RaycastPolygon", "ray cast, 8-gon (b2PolygonShape::RayCast)",
      [](benchmark::State& s) { raycast_pebble(s, octagon_rays()); },
      [](benchmark::State& s) { raycast_box2d(s, octagon_rays()); });
  add_pair(
      "BM_RaycastBox", "ray cast, box (b2PolygonShape::RayCast)",
      [](benchmark::State& s) { raycast_pebble(s, box_rays()); },
      [](benchmark::State& s) { raycast_box2d(s, box_rays()); });
  add_pair(
      "BM_RaycastCircle", "ray cast, circle (b2CircleShape::RayCast)",
      [](benchmark::State& s) { raycast_pebble(s, circle_rays()); },
      [](benchmark::State& s) { raycast_box2d(s, circle_rays()); });
  add_pair(
      "BM_ShapeCastBoxBox", "shape cast, box / box (b2ShapeCast)",
      [](benchmark::State& s) { shape_cast_pebble(s, box_box_motion()); },
      [](benchmark::State& s) { shape_cast_box2d(s, box_box_motion()); });
  add_pair(
      "BM_ShapeCastPolygonPolygon", "shape cast, 8-gon / 8-gon (b2ShapeCast)",
      [](benchmark::State& s) { shape_cast_pebble(s, octagon_octagon_motion()); },
      [](benchmark::State& s) { shape_cast_box2d(s, octagon_octagon_motion()); });
  add_pair(
      "BM_ShapeCastCapsuleBox", "shape cast, capsule / box (b2ShapeCast)",
      [](benchmark::State& s) { shape_cast_pebble(s, capsule_box_motion()); },
      [](benchmark::State& s) { shape_cast_box2d(s, capsule_box_motion()); });
  add_pair(
      "BM_ShapeCastCirclePolygon", "shape cast, circle / 8-gon (b2ShapeCast)",
      [](benchmark::State& s) { shape_cast_pebble(s, circle_octagon_motion()); },
      [](benchmark::State& s) { shape_cast_box2d(s, circle_octagon_motion()); });
  add_pair(
      "BM_TimeOfImpactBoxBox", "time of impact, box / box, turning (b2TimeOfImpact)",
      [](benchmark::State& s) { toi_pebble(s, box_box_motion()); },
      [](benchmark::State& s) { toi_box2d(s, box_box_motion(), false); });
  add_pair(
      "BM_TimeOfImpactPolygonPolygon", "time of impact, 8-gon / 8-gon, turning (b2TimeOfImpact)",
      [](benchmark::State& s) { toi_pebble(s, octagon_octagon_motion()); },
      [](benchmark::State& s) { toi_box2d(s, octagon_octagon_motion(), false); });
  add_pair(
      "BM_TimeOfImpactPolygonPolygonContact", "time of impact + contact, 8-gon / 8-gon (+ b2Distance at the time)",
      [](benchmark::State& s) { toi_pebble(s, octagon_octagon_motion()); },
      [](benchmark::State& s) { toi_box2d(s, octagon_octagon_motion(), true); });
  add_pair(
      "BM_ClosestApproachPolygonPolygon", "closest approach, 8-gon / 8-gon (b2ShapeCast + b2Distance)",
      [](benchmark::State& s) { approach_pebble(s, octagon_octagon_motion()); },
      [](benchmark::State& s) { approach_box2d(s, octagon_octagon_motion()); });
  add_pair(
      "BM_ClosestApproachCirclePolygon", "closest approach, circle / 8-gon (b2ShapeCast + b2Distance)",
      [](benchmark::State& s) { approach_pebble(s, circle_octagon_motion()); },
      [](benchmark::State& s) { approach_box2d(s, circle_octagon_motion()); });
}

}  // namespace bench
