// bench/casts_bench.cpp — casts (issue 12) beside Box2D 2.4.1: pebble::raycast against
// b2PolygonShape::RayCast and b2CircleShape::RayCast. Every ray starts outside its shape (Box2D
// reports no hit from inside a polygon, pebble a hit at fraction 0) and is aimed at a random point
// of the shape's bounding disc, so that about two in three hit.
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
    const pebble::Vec2 origin = centre + extent * uniform(rng, 1.5f, 4) * pebble::Vec2{std::cos(angle), std::sin(angle)};
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

/// The share of cases that hit, and the mean fraction of the hits: equal on both sides when both
/// answered the same questions.
template <class Cases, class Query>
void hit_counters(benchmark::State& state, const Cases& cases, Query query) {
  double hits = 0, fractions = 0;
  for (const auto& c : cases) {
    const auto [hit, fraction] = query(c);
    hits += hit ? 1 : 0;
    fractions += hit ? static_cast<double>(fraction) : 0;
  }
  state.counters["hit"] = hits / static_cast<double>(cases.size());
  state.counters["fraction"] = hits > 0 ? fractions / hits : 0;
}

// ---------------------------------------------------------------------------------------------
// Ray casts.

template <class Cases>
void raycast_pebble(benchmark::State& state, const Cases& cases) {
  auto query = [](const auto& c) { return pebble::raycast(c.shape, c.xf, c.ray); };
  run_cases(state, cases, query);
  hit_counters(state, cases, [&](const auto& c) {
    const pebble::CastHit h = query(c);
    return std::pair{h.hit, h.fraction};
  });
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
    return std::pair{hit, output};
  };
  run_cases(state, cases, query);
  hit_counters(state, cases, [&](const auto& c) {
    const auto [hit, output] = query(c);
    return std::pair{hit, output.fraction};
  });
}

}  // namespace

void register_cast_benchmarks() {
  add_pair("BM_RaycastPolygon", "ray cast, 8-gon (b2PolygonShape::RayCast)",
           [](benchmark::State& s) { raycast_pebble(s, octagon_rays()); },
           [](benchmark::State& s) { raycast_box2d(s, octagon_rays()); });
  add_pair("BM_RaycastBox", "ray cast, box (b2PolygonShape::RayCast)",
           [](benchmark::State& s) { raycast_pebble(s, box_rays()); },
           [](benchmark::State& s) { raycast_box2d(s, box_rays()); });
  add_pair("BM_RaycastCircle", "ray cast, circle (b2CircleShape::RayCast)",
           [](benchmark::State& s) { raycast_pebble(s, circle_rays()); },
           [](benchmark::State& s) { raycast_box2d(s, circle_rays()); });
}

}  // namespace bench
