// pebble/batch.hpp — many pair queries in one call: closest approach, time to collision,
// distance and overlap for one shape against N others or for N independent pairs (a crowd's
// agents and their neighbours). docs/crowds.md gives the layout and the cost per query.
//
// Each result equals, bit for bit, what the one-at-a-time function (cast.hpp, distance.hpp)
// returns for that pair, on every instruction set. Pairs of two discs (1-vertex cores) run
// several queries at once in SIMD lanes (8 with AVX2, 4 with SSE2 or plain C++): the lanes run
// across queries, not across a shape's edges. A call sorts its pairs as it goes: disc pairs are
// gathered into full lanes, every other pair (capsules, boxes, polygons) is answered by the
// one-at-a-time function as it is met. Nothing is allocated.
#pragma once

#include <span>

#include "pebble/cast.hpp"
#include "pebble/distance.hpp"
#include "pebble/shape.hpp"

namespace pebble {

/// One shape of a batch query: the shape (not owned; it must outlive the call), where it is, and
/// its velocity (world units per unit of time; ignored by distance and overlap). A null shape
/// gives the query's empty result.
struct BatchBody {
  const Shape* shape = nullptr;  ///< not owned; null gives the empty result
  Transform transform{};         ///< shape frame to world
  Vec2 velocity{};               ///< world units per unit of time
};

/// Two bodies of an independent pair query (A first: normals read from A to B).
struct BatchPair {
  ///@{
  /// A and B of the pair query: results' normals point from a to b.
  BatchBody a, b;
  ///@}
};

/// The batch forms. Each writes result i for pair i (or for a against others[i]) into out[i],
/// for i below the smaller of the two sizes, and leaves the rest of out untouched. They never
/// throw; invalid input gives, pair by pair, the one-at-a-time function's empty result.
namespace batch {

/// closest_approach() of every pair over [0, horizon].
void closest_approach(std::span<const BatchPair> pairs, float horizon, std::span<ApproachResult> out) noexcept;
/// closest_approach() of a against each of others.
void closest_approach(const BatchBody& a, std::span<const BatchBody> others, float horizon,
                      std::span<ApproachResult> out) noexcept;

/// time_to_collision() of every pair: the first time in [0, horizon] they touch, else kNoCollision.
void time_to_collision(std::span<const BatchPair> pairs, float horizon, std::span<float> out) noexcept;
/// time_to_collision() of a against each of others.
void time_to_collision(const BatchBody& a, std::span<const BatchBody> others, float horizon,
                       std::span<float> out) noexcept;

/// distance() of every pair (velocities ignored).
void distance(std::span<const BatchPair> pairs, std::span<DistanceResult> out) noexcept;
/// distance() of a against each of others.
void distance(const BatchBody& a, std::span<const BatchBody> others, std::span<DistanceResult> out) noexcept;

/// overlap() of every pair (velocities ignored).
void overlap(std::span<const BatchPair> pairs, std::span<bool> out) noexcept;
/// overlap() of a against each of others.
void overlap(const BatchBody& a, std::span<const BatchBody> others, std::span<bool> out) noexcept;

}  // namespace batch
}  // namespace pebble
