// bench/contacts_bench.cpp — contact manifolds and distance (issue 3) beside Box2D 2.4.1:
// pebble::collide against b2CollidePolygons / b2CollidePolygonAndCircle / b2CollideCircles, and
// pebble::distance against b2Distance with a cold simplex cache. Every pair is placed near
// contact by bench_common.hpp's brute-force signed distance, never by the code under test.
#include "bench_common.hpp"

namespace bench {
namespace {

// ---------------------------------------------------------------------------------------------
// Inputs: kCaseCount pairs per query, 3 in 4 touching (see near_contact_target).

const auto& box_box() {
  static const auto cases = make_pair_cases(kSeed + 11, make_box, make_box, near_contact_target);
  return cases;
}
const auto& octagon_octagon() {
  static const auto cases = make_pair_cases(kSeed + 12, make_octagon, make_octagon, near_contact_target);
  return cases;
}
const auto& octagon_circle() {
  static const auto cases = make_pair_cases(kSeed + 13, make_octagon, make_circle, near_contact_target);
  return cases;
}
const auto& circle_circle() {
  static const auto cases = make_pair_cases(kSeed + 14, make_circle, make_circle, near_contact_target);
  return cases;
}
const auto& capsule_capsule() {
  static const auto cases = make_pair_cases(kSeed + 15, make_capsule, make_capsule, near_contact_target);
  return cases;
}
const auto& rounded_rounded() {
  static const auto cases = make_pair_cases(kSeed + 16, make_rounded_box, make_rounded_box, near_contact_target);
  return cases;
}
const auto& octagon_box_separated() {
  static const auto cases = make_pair_cases(kSeed + 17, make_octagon, make_box, separated_target);
  return cases;
}
const auto& octagon_box_near() {
  static const auto cases = make_pair_cases(kSeed + 18, make_octagon, make_box, near_contact_target);
  return cases;
}

/// Share of cases for which pred holds: printed as a counter beside the timings so that a reader
/// sees both libraries found (about) the same number of contacts on the same inputs.
template <class Cases, class Pred>
double share(const Cases& cases, Pred pred) {
  double hits = 0;
  for (const auto& c : cases) hits += pred(c) ? 1 : 0;
  return hits / static_cast<double>(cases.size());
}

// ---------------------------------------------------------------------------------------------
// Manifolds.

template <class Cases>
void collide_pebble(benchmark::State& state, const Cases& cases) {
  auto manifold = [](const auto& c) { return pebble::collide(c.pa, c.xa, c.pb, c.xb); };
  run_cases(state, cases, manifold);
  state.counters["touching"] = share(cases, [&](const auto& c) { return manifold(c).count > 0; });
}

/// b2Collide* as a b2Contact::Evaluate calls it: shape A, its transform, shape B, its transform.
template <class Collide>
auto box2d_manifold(Collide collide) {
  return [collide](const auto& c) {
    b2Manifold m;
    collide(&m, &c.ba, c.bxa, &c.bb, c.bxb);
    return m;
  };
}

/// The share of cases Box2D's local manifold calls touching (the "touching" counter).
template <class Cases, class Collide>
double box2d_touching(const Cases& cases, Collide collide) {
  return share(cases, [manifold = box2d_manifold(collide)](const auto& c) { return manifold(c).pointCount > 0; });
}

template <class Cases, class Collide>
void collide_box2d(benchmark::State& state, const Cases& cases, Collide collide) {
  run_cases(state, cases, box2d_manifold(collide));
  state.counters["touching"] = box2d_touching(cases, collide);
}

/// The same, plus b2WorldManifold::Initialize when there is contact: what a Box2D user calls to
/// get what pebble::collide returns (world points between the surfaces, world normal,
/// separations). Box2D's own solver reads the local manifold instead, so both rows are shown.
template <class Cases, class Collide>
void collide_box2d_world(benchmark::State& state, const Cases& cases, Collide collide) {
  auto manifold = [local = box2d_manifold(collide)](const auto& c) {
    const b2Manifold m = local(c);
    b2WorldManifold world;
    if (m.pointCount > 0)
      world.Initialize(&m, c.bxa, c.ba.m_radius, c.bxb, c.bb.m_radius);
    else
      world.normal.SetZero();
    return world;
  };
  run_cases(state, cases, manifold);
  state.counters["touching"] = box2d_touching(cases, collide);
}

// ---------------------------------------------------------------------------------------------
// Distance.

template <class Cases>
void distance_pebble(benchmark::State& state, const Cases& cases) {
  auto query = [](const auto& c) { return pebble::distance(c.pa, c.xa, c.pb, c.xb); };
  run_cases(state, cases, query);
  double sum = 0;
  for (const auto& c : cases) sum += static_cast<double>(query(c).distance);
  state.counters["distance"] = sum / static_cast<double>(cases.size());
}

/// As a user calls it without warm starting: a proxy per shape, an empty simplex cache.
template <class Cases>
void distance_box2d(benchmark::State& state, const Cases& cases) {
  auto query = [](const auto& c) {
    b2DistanceInput input;
    input.proxyA.Set(&c.ba, 0);
    input.proxyB.Set(&c.bb, 0);
    input.transformA = c.bxa;
    input.transformB = c.bxb;
    input.useRadii = true;
    b2SimplexCache cache;
    cache.count = 0;
    b2DistanceOutput output;
    b2Distance(&output, &cache, &input);
    return output;
  };
  run_cases(state, cases, query);
  double sum = 0;
  for (const auto& c : cases) sum += static_cast<double>(query(c).distance);
  state.counters["distance"] = sum / static_cast<double>(cases.size());
}

}  // namespace

void register_contact_benchmarks() {
  add_pair(
      "BM_CollideBoxBox", "manifold, box / box (b2CollidePolygons)",
      [](benchmark::State& s) { collide_pebble(s, box_box()); },
      [](benchmark::State& s) { collide_box2d(s, box_box(), b2CollidePolygons); });
  add_pair(
      "BM_CollidePolygonPolygon", "manifold, 8-gon / 8-gon (b2CollidePolygons)",
      [](benchmark::State& s) { collide_pebble(s, octagon_octagon()); },
      [](benchmark::State& s) { collide_box2d(s, octagon_octagon(), b2CollidePolygons); });
  add_pair(
      "BM_CollidePolygonCircle", "manifold, 8-gon / circle (b2CollidePolygonAndCircle)",
      [](benchmark::State& s) { collide_pebble(s, octagon_circle()); },
      [](benchmark::State& s) { collide_box2d(s, octagon_circle(), b2CollidePolygonAndCircle); });
  add_pair(
      "BM_CollideCircleCircle", "manifold, circle / circle (b2CollideCircles)",
      [](benchmark::State& s) { collide_pebble(s, circle_circle()); },
      [](benchmark::State& s) { collide_box2d(s, circle_circle(), b2CollideCircles); });
  add_pair(
      "BM_CollideCapsuleCapsule", "manifold, capsule / capsule (Box2D: thin box + m_radius, b2CollidePolygons)",
      [](benchmark::State& s) { collide_pebble(s, capsule_capsule()); },
      [](benchmark::State& s) { collide_box2d(s, capsule_capsule(), b2CollidePolygons); });
  add_pair(
      "BM_CollideRoundedBoxRoundedBox", "manifold, rounded box / rounded box (box + m_radius, b2CollidePolygons)",
      [](benchmark::State& s) { collide_pebble(s, rounded_rounded()); },
      [](benchmark::State& s) { collide_box2d(s, rounded_rounded(), b2CollidePolygons); });
  // The same pairs against Box2D's collide plus b2WorldManifold (world points, as pebble returns).
  add_pair(
      "BM_CollideBoxBoxWorld", "manifold + world points, box / box (+ b2WorldManifold)",
      [](benchmark::State& s) { collide_pebble(s, box_box()); },
      [](benchmark::State& s) { collide_box2d_world(s, box_box(), b2CollidePolygons); });
  add_pair(
      "BM_CollidePolygonCircleWorld", "manifold + world points, 8-gon / circle (+ b2WorldManifold)",
      [](benchmark::State& s) { collide_pebble(s, octagon_circle()); },
      [](benchmark::State& s) { collide_box2d_world(s, octagon_circle(), b2CollidePolygonAndCircle); });
  add_pair(
      "BM_CollideCircleCircleWorld", "manifold + world points, circle / circle (+ b2WorldManifold)",
      [](benchmark::State& s) { collide_pebble(s, circle_circle()); },
      [](benchmark::State& s) { collide_box2d_world(s, circle_circle(), b2CollideCircles); });
  add_pair(
      "BM_CollideCapsuleCapsuleWorld", "manifold + world points, capsule / capsule (+ b2WorldManifold)",
      [](benchmark::State& s) { collide_pebble(s, capsule_capsule()); },
      [](benchmark::State& s) { collide_box2d_world(s, capsule_capsule(), b2CollidePolygons); });
  add_pair(
      "BM_CollideRoundedBoxRoundedBoxWorld", "manifold + world points, rounded box / rounded box (+ b2WorldManifold)",
      [](benchmark::State& s) { collide_pebble(s, rounded_rounded()); },
      [](benchmark::State& s) { collide_box2d_world(s, rounded_rounded(), b2CollidePolygons); });
  add_pair(
      "BM_DistancePolygonBox", "distance, 8-gon / box, separated (b2Distance, cold cache)",
      [](benchmark::State& s) { distance_pebble(s, octagon_box_separated()); },
      [](benchmark::State& s) { distance_box2d(s, octagon_box_separated()); });
  add_pair(
      "BM_DistancePolygonBoxNearContact", "distance, 8-gon / box, 3 in 4 overlapping (Box2D: 0 when overlapping)",
      [](benchmark::State& s) { distance_pebble(s, octagon_box_near()); },
      [](benchmark::State& s) { distance_box2d(s, octagon_box_near()); });
}

}  // namespace bench
