// tools/scene_file.hpp — scene files for `pebble query` and `pebble render`: named objects (a
// shape and where it is) and the queries to ask about them, read from JSON and checked whole
// before anything runs. docs/scene-format.md is the reference of the format.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <pebble/pebble.hpp>

namespace pebble::tools {

/// Bad input: the message names the file and the place (line and column for malformed JSON, a
/// JSON pointer for the rest) and what was expected. The program exits with code 2.
class InputError : public std::runtime_error {
public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

/// A named object placed in the world: one convex shape, or a collider of several parts (a
/// compound, a concave polygon cut by decompose(), a chain or a heightfield).
struct SceneObject {
  std::string name;
  /// the "type" of its shape: circle, capsule, segment, box, rounded_box, polygon; or chain, loop,
  /// concave, compound, heightfield
  std::string kind;
  Shape shape = Shape::circle(1);  ///< the one shape; the first part of an object of several
  std::vector<Shape>
      parts;  ///< every part (object frame) of a compound, concave, chain or heightfield object; else empty
  std::optional<Chain> chain;              ///< a chain or loop object's chain
  std::optional<Heightfield> heightfield;  ///< a heightfield object's field (parts: its cells in order)
  /// True for an object of one convex shape (what the pair queries take).
  bool convex() const { return parts.empty(); }
  Transform xf{};   ///< the shape's frame, local to world
  float angle = 0;  ///< xf's angle as written (radians; may lie outside (-pi, pi])
};

/// The queries a scene can ask; objects are indices into Scene::objects.
struct CollideQuery {
  int a, b;
  float margin;
};
struct DistanceQuery {
  int a, b;
};
struct OverlapQuery {
  int a, b;
};
struct ProjectPointQuery {
  int object;
  Vec2 point;
};
struct ContainsQuery {
  int object;
  Vec2 point;
};
struct MassQuery {
  int object;
  float density;
};
struct BoundsQuery {
  int object;
};
/// A ray cast, or a circle cast when radius > 0.
struct RaycastQuery {
  int object;
  Ray ray;
  float radius;
};
/// a and b translating together: when they first touch (or come within target_separation).
struct ShapeCastQuery {
  int a, b;
  Vec2 translation_a, translation_b;
  float target_separation;
};
/// Where an object's motion for time_of_impact ends: position and angle at t = 1 (the rotation is
/// about its centre of mass, at a constant rate).
struct Pose {
  Vec2 position;
  float angle;
};
/// a and b moving from their placements to a_to and b_to over t in [0, 1], turning as they go.
struct ToiQuery {
  int a, b;
  Pose a_to, b_to;
  float t_max;
  float target_separation;
};
/// a and b moving at constant velocities over [0, horizon]: their closest approach.
struct ApproachQuery {
  int a, b;
  Vec2 velocity_a, velocity_b;
  float horizon;
};
/// Every object in one CollisionWorld: its touching pairs at the margin.
struct WorldContactsQuery {
  float margin;
};
/// A ray (or circle) cast through the whole CollisionWorld: the closest hit, or every hit.
struct WorldRaycastQuery {
  Ray ray;
  float radius;
  bool all;
};

using Query =
    std::variant<CollideQuery, DistanceQuery, OverlapQuery, ProjectPointQuery, ContainsQuery, MassQuery, BoundsQuery,
                 RaycastQuery, ShapeCastQuery, ToiQuery, ApproachQuery, WorldContactsQuery, WorldRaycastQuery>;

/// The name a query has in scene files ("collide", "distance", ...).
std::string_view query_name(const Query& query);
/// Every query name a scene file may use, in the order of the docs.
const std::vector<std::string_view>& query_names();

/// A parsed, checked scene.
struct Scene {
  std::vector<SceneObject> objects;
  std::vector<Query> queries;
};

/// Reads and checks a scene file. Throws InputError naming `path` for a missing file, malformed
/// JSON (line and column), a wrong document, a missing or mistyped field, an invalid shape (with
/// the shape maker's own message) or an unknown query (JSON pointer).
Scene load_scene(const std::string& path);
/// The same from text already read; `source` names it in messages.
Scene parse_scene(std::string_view text, const std::string& source);

}  // namespace pebble::tools
