// tools/query.hpp — runs a scene's queries and turns the answers into JSON (`pebble query`), or
// hands them to the renderer (`pebble render`). Every field is world space, normals from A to B.
#pragma once

#include <variant>
#include <vector>

#include <nlohmann/json.hpp>
#include <pebble/cast.hpp>

#include "tools/scene_file.hpp"

namespace pebble::tools {

/// std::visit with one lambda per alternative.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

/// One query's answer, beside the query itself.
struct ContainsAnswer {
  bool inside;
};
struct OverlapAnswer {
  bool overlap;
};
/// A touching pair of objects (indices a < b) in the world, normal from a to b.
struct ObjectContact {
  int a, b;
  Manifold manifold;
  int part_a = 0, part_b = 0;
};
struct WorldContactsAnswer {
  std::vector<ObjectContact> pairs;
};
/// A ray hit on one object.
struct ObjectHit {
  int object;
  CastResult hit;
  int part = 0;
};
/// Every hit by fraction when the query asked for all, else the closest one (or none).
struct WorldRaycastAnswer {
  std::vector<ObjectHit> hits;
};
using Answer = std::variant<Manifold, DistanceResult, OverlapAnswer, ProjectionResult, ContainsAnswer, MassProperties,
                            Aabb, CastResult, ToiResult, ApproachResult, WorldContactsAnswer, WorldRaycastAnswer>;

/// The sweep of object `index` of a time_of_impact query: about its centre of mass, from its
/// placement to `to`.
Sweep sweep_of(const SceneObject& object, const Pose& to);

/// The answers of scene.queries, in order. Throws InputError for a query the library refuses
/// (a density whose mass overflows).
std::vector<Answer> run_queries(const Scene& scene);

/// The document `pebble query` prints: {"results": [{"type": ..., the query's objects, "result":
/// the answer's fields}, ...]}, keys in that order. Floats are written with the fewest digits
/// that read back as the same float.
nlohmann::ordered_json results_json(const Scene& scene, const std::vector<Answer>& answers);

/// JSON text with one member per line and short arrays of numbers ([x, y]) on one line.
std::string pretty(const nlohmann::ordered_json& value);

}  // namespace pebble::tools
