// bench/primitives_bench.cpp — the seed-004 toolbox (pebble/primitives.hpp). Box2D has no
// counterpart for these plain-struct tests, so the rows are pebble's alone; they exist to show
// that the exact predicates cost little in the common case (docs/primitives.md, "Cost").
// Inputs: random shapes with coordinates in [-4, 4], so that about half of the pairs meet.
#include <vector>

#include "bench_common.hpp"
#include "pebble/primitives.hpp"

namespace bench {
namespace {

namespace pr = pebble::prim;

struct PrimCase {
  pr::Circle c1, c2;
  pr::Segment s1;
  pr::Triangle t1, t2;
  pr::Box b1, b2;
  pebble::Vec2 p;
};

const std::vector<PrimCase>& prim_cases() {
  static const std::vector<PrimCase> cases = [] {
    Rng rng(kSeed);
    const auto point = [&] { return pebble::Vec2{uniform(rng, -4, 4), uniform(rng, -4, 4)}; };
    std::vector<PrimCase> out;
    for (std::size_t i = 0; i < kCaseCount; ++i) {
      PrimCase k;
      k.c1 = {point(), uniform(rng, 0.2f, 2)};
      k.c2 = {point(), uniform(rng, 0.2f, 2)};
      k.s1 = {point(), point()};
      k.t1 = {point(), point(), point()};
      k.t2 = {point(), point(), point()};
      k.b1 = {point(), {uniform(rng, 0.2f, 2), uniform(rng, 0.2f, 2)}};
      k.b2 = {point(), {uniform(rng, 0.2f, 2), uniform(rng, 0.2f, 2)}};
      k.p = point();
      out.push_back(k);
    }
    return out;
  }();
  return cases;
}

template <class F>
void prim_row(const char* name, const char* label, F f) {
  add_pebble_only(name, label, [f](benchmark::State& state) { run_cases(state, prim_cases(), f); });
}

}  // namespace

void register_primitives_benchmarks() {
  prim_row("BM_PrimContainsCircle", "toolbox: contains(Circle, p)",
           [](const PrimCase& k) { return pr::contains(k.c1, k.p); });
  prim_row("BM_PrimContainsBox", "toolbox: contains(Box, p)",
           [](const PrimCase& k) { return pr::contains(k.b1, k.p); });
  prim_row("BM_PrimContainsTriangle", "toolbox: contains(Triangle, p)",
           [](const PrimCase& k) { return pr::contains(k.t1, k.p); });
  prim_row("BM_PrimCircleCircle", "toolbox: overlaps(Circle, Circle)",
           [](const PrimCase& k) { return pr::overlaps(k.c1, k.c2); });
  prim_row("BM_PrimCircleBox", "toolbox: overlaps(Circle, Box)",
           [](const PrimCase& k) { return pr::overlaps(k.c1, k.b1); });
  prim_row("BM_PrimSegmentCircle", "toolbox: overlaps(Segment, Circle)",
           [](const PrimCase& k) { return pr::overlaps(k.s1, k.c1); });
  prim_row("BM_PrimCircleTriangle", "toolbox: overlaps(Circle, Triangle)",
           [](const PrimCase& k) { return pr::overlaps(k.c1, k.t1); });
  prim_row("BM_PrimSegmentSegment", "toolbox: intersect(Segment, Segment)", [](const PrimCase& k) {
    return pr::intersect(k.s1, pr::Segment{k.t1.a, k.t1.b});
  });
  prim_row("BM_PrimTriangleTriangle", "toolbox: overlaps(Triangle, Triangle)",
           [](const PrimCase& k) { return pr::overlaps(k.t1, k.t2); });
  prim_row("BM_PrimBoxBox", "toolbox: overlaps(Box, Box)", [](const PrimCase& k) { return pr::overlaps(k.b1, k.b2); });
  prim_row("BM_PrimPenetration", "toolbox: penetration(Box, Box)",
           [](const PrimCase& k) { return pr::penetration(k.b1, k.b2); });
}

}  // namespace bench
