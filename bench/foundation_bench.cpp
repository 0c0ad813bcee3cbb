// bench/foundation_bench.cpp — shape making and the one-shape queries (issue 2) beside their
// Box2D 2.4.1 equivalents: hull building, mass properties, point containment and bounding
// boxes, each pair timed on one shared set of kCaseCount random inputs.
#include <array>

#include "bench_common.hpp"

namespace bench {
namespace {

// ---------------------------------------------------------------------------------------------
// Inputs.

/// 8 points uniform in a square of half size [0.5, 2], in both libraries' types.
struct HullCase {
  std::array<pebble::Vec2, 8> pebble;
  std::array<b2Vec2, 8> box2d;
};

const std::vector<HullCase>& hull_cases() {
  static const std::vector<HullCase> cases = [] {
    Rng rng(kSeed + 1);
    std::vector<HullCase> out(kCaseCount);
    for (HullCase& c : out) {
      const float half = uniform(rng, 0.5f, 2);
      for (std::size_t i = 0; i < 8; ++i) {
        c.pebble[i] = {uniform(rng, -half, half), uniform(rng, -half, half)};
        c.box2d[i] = to_b2(c.pebble[i]);
      }
    }
    return out;
  }();
  return cases;
}

/// A shape at a random transform, with a query point drawn uniformly from the square of half
/// size 1.2 x the shape's extent around its world centroid (about half the points fall inside).
template <class B2Shape>
struct ShapeCase {
  Made<B2Shape> shape;
  pebble::Transform xf;
  b2Transform b2_xf;
  pebble::Vec2 point;
  b2Vec2 b2_point;
};

template <class Make>
auto make_shape_cases(std::uint32_t seed, Make make) {
  using B2Shape = decltype(make(std::declval<Rng&>()).box2d);
  Rng rng(seed);
  std::vector<ShapeCase<B2Shape>> out;
  out.reserve(kCaseCount);
  for (std::size_t i = 0; i < kCaseCount; ++i) {
    Made<B2Shape> shape = make(rng);
    const pebble::Transform xf = random_transform(rng);
    const pebble::Vec2 center = pebble::transform_point(xf, shape.pebble.core_centroid());
    const float reach = 1.2f * shape.pebble.extent();
    const pebble::Vec2 point = center + pebble::Vec2{uniform(rng, -reach, reach), uniform(rng, -reach, reach)};
    out.push_back({shape, xf, to_b2(xf), point, to_b2(point)});
  }
  return out;
}

const std::vector<ShapeCase<b2PolygonShape>>& octagon_cases() {
  static const auto cases = make_shape_cases(kSeed + 2, make_octagon);
  return cases;
}

const std::vector<ShapeCase<b2CircleShape>>& circle_cases() {
  static const auto cases = make_shape_cases(kSeed + 3, make_circle);
  return cases;
}

/// The mean of f over the cases: a sanity counter printed beside the timings, showing that
/// both libraries saw the same inputs (equal means) without timing it.
template <class Case, class F>
double mean_of(const std::vector<Case>& cases, F f) {
  double sum = 0;
  for (const Case& c : cases) sum += static_cast<double>(f(c));
  return sum / static_cast<double>(cases.size());
}

// ---------------------------------------------------------------------------------------------
// The pairs.

void hull_pebble(benchmark::State& state) {
  const auto& cases = hull_cases();
  run_cases(state, cases, [](const HullCase& c) { return pebble::Shape::polygon(c.pebble); });
  state.counters["vertices"] =
      mean_of(cases, [](const HullCase& c) { return pebble::Shape::polygon(c.pebble).vertex_count(); });
}

void hull_box2d(benchmark::State& state) {
  const auto& cases = hull_cases();
  auto make = [](const HullCase& c) {
    b2PolygonShape poly;
    poly.Set(c.box2d.data(), 8);
    return poly;
  };
  run_cases(state, cases, make);
  state.counters["vertices"] = mean_of(cases, [&](const HullCase& c) { return make(c).m_count; });
}

template <class Cases>
void mass_pebble(benchmark::State& state, const Cases& cases) {
  auto mass = [](const auto& c) { return pebble::mass_properties(c.shape.pebble, 1.0f); };
  run_cases(state, cases, mass);
  state.counters["mass"] = mean_of(cases, [&](const auto& c) { return mass(c).mass; });
}

template <class Cases>
void mass_box2d(benchmark::State& state, const Cases& cases) {
  auto mass = [](const auto& c) {
    b2MassData data;
    c.shape.box2d.ComputeMass(&data, 1.0f);
    return data;
  };
  run_cases(state, cases, mass);
  state.counters["mass"] = mean_of(cases, [&](const auto& c) { return mass(c).mass; });
}

template <class Cases>
void contains_pebble(benchmark::State& state, const Cases& cases) {
  auto inside = [](const auto& c) { return pebble::contains(c.shape.pebble, c.xf, c.point); };
  run_cases(state, cases, inside);
  state.counters["inside"] = mean_of(cases, inside);
}

template <class Cases>
void contains_box2d(benchmark::State& state, const Cases& cases) {
  auto inside = [](const auto& c) { return c.shape.box2d.TestPoint(c.b2_xf, c.b2_point); };
  run_cases(state, cases, inside);
  state.counters["inside"] = mean_of(cases, inside);
}

template <class Cases>
void bounds_pebble(benchmark::State& state, const Cases& cases) {
  auto box = [](const auto& c) { return pebble::bounds(c.shape.pebble, c.xf); };
  run_cases(state, cases, box);
  state.counters["width"] = mean_of(cases, [&](const auto& c) { return box(c).upper.x - box(c).lower.x; });
}

template <class Cases>
void bounds_box2d(benchmark::State& state, const Cases& cases) {
  auto box = [](const auto& c) {
    b2AABB aabb;
    c.shape.box2d.ComputeAABB(&aabb, c.b2_xf, 0);
    return aabb;
  };
  run_cases(state, cases, box);
  state.counters["width"] = mean_of(cases, [&](const auto& c) { return box(c).upperBound.x - box(c).lowerBound.x; });
}

/// Angles uniform in [-8, 8] rad (a few turns either way, as a game's bodies have).
const std::vector<float>& angle_cases() {
  static const std::vector<float> cases = [] {
    Rng rng(kSeed + 7);
    std::vector<float> out(kCaseCount);
    for (float& a : out) a = uniform(rng, -8, 8);
    return out;
  }();
  return cases;
}

// Rot::from_angle (pebble's own cosine and sine, the same bits on every platform) beside
// b2Rot(angle), which calls the C library's sinf and cosf.
void rotation_pebble(benchmark::State& state) {
  run_cases(state, angle_cases(), [](float a) { return pebble::Rot::from_angle(a); });
}
void rotation_box2d(benchmark::State& state) {
  run_cases(state, angle_cases(), [](float a) { return b2Rot(a); });
}

}  // namespace

void register_foundation_benchmarks() {
  add_pair("BM_RotFromAngle", "rotation from an angle (Rot::from_angle / b2Rot(angle), the C library's sinf and cosf)",
           rotation_pebble, rotation_box2d);
  add_pair("BM_Hull", "hull of 8 random points (Shape::polygon / b2PolygonShape::Set)", hull_pebble, hull_box2d);
  add_pair(
      "BM_MassPolygon", "mass properties, 8-gon", [](benchmark::State& s) { mass_pebble(s, octagon_cases()); },
      [](benchmark::State& s) { mass_box2d(s, octagon_cases()); });
  add_pair(
      "BM_MassCircle", "mass properties, circle", [](benchmark::State& s) { mass_pebble(s, circle_cases()); },
      [](benchmark::State& s) { mass_box2d(s, circle_cases()); });
  add_pair(
      "BM_ContainsPolygon", "point containment, 8-gon (contains / TestPoint)",
      [](benchmark::State& s) { contains_pebble(s, octagon_cases()); },
      [](benchmark::State& s) { contains_box2d(s, octagon_cases()); });
  add_pair(
      "BM_ContainsCircle", "point containment, circle (contains / TestPoint)",
      [](benchmark::State& s) { contains_pebble(s, circle_cases()); },
      [](benchmark::State& s) { contains_box2d(s, circle_cases()); });
  add_pair(
      "BM_BoundsPolygon", "AABB, 8-gon (bounds / ComputeAABB)",
      [](benchmark::State& s) { bounds_pebble(s, octagon_cases()); },
      [](benchmark::State& s) { bounds_box2d(s, octagon_cases()); });
  add_pair(
      "BM_BoundsCircle", "AABB, circle (bounds / ComputeAABB)",
      [](benchmark::State& s) { bounds_pebble(s, circle_cases()); },
      [](benchmark::State& s) { bounds_box2d(s, circle_cases()); });
}

}  // namespace bench
