// sandbox/demo_scene.hpp — the scene `pebble demo` runs and the settling test checks: a U-shaped
// container on a wide floor, and rows of rounded shapes of every kind and several sizes released
// above it one row at a time, so that they rain into the container and settle into a pile.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sandbox/stepper.hpp"

namespace pebble::sandbox {

/// The kinds of shape in the demo (for colours and the legend).
enum class ShapeKind : uint8_t { ground, box, rounded_box, capsule, circle, polygon, rounded_polygon, concave };
inline constexpr int kShapeKindCount = 8;
/// "ground", "box", "rounded box", "capsule", "circle", "polygon", "rounded polygon", "concave".
std::string_view kind_name(ShapeKind kind);

/// What the demo scene holds; the container grows with the shape count.
struct DemoSceneSettings {
  int shape_count = 200;       ///< falling shapes
  uint32_t seed = 1;           ///< the same seed gives the same shapes, places and spins
  float row_interval = 0.25f;  ///< s between the release of two rows
};

/// Builds the shapes once; adds the container, then each row when its time comes.
class DemoScene {
public:
  explicit DemoScene(const DemoSceneSettings& settings);

  /// Adds the static container (floor and two walls) to the stepper; call once, first.
  void add_container(Stepper& stepper);
  /// Adds every shape due by `time` (s since the start) that is not in yet; returns how many.
  int release(Stepper& stepper, float time);
  /// True once every shape is in the stepper.
  bool all_released() const { return next_ == pending_.size(); }
  /// Time (s) at which the last row is released.
  float last_release_time() const;

  /// The kind of each body added so far, by body index.
  const std::vector<ShapeKind>& kinds() const { return kinds_; }
  /// A box around everything that happens: the container, the ground and the release height.
  Aabb view() const { return view_; }
  /// A box around the container (where the pile ends up).
  Aabb container_view() const { return container_view_; }

private:
  struct Pending {
    BodyDef def;
    ShapeKind kind;
    float time;
  };
  std::vector<Pending> pending_;
  size_t next_ = 0;
  std::vector<ShapeKind> kinds_;
  float inner_width_ = 10, wall_height_ = 5;
  Aabb view_{}, container_view_{};
};

}  // namespace pebble::sandbox
