// pebble/mover.hpp — moving a character (any shape) through a CollisionWorld: a cast that
// tolerates starting in light contact, the contact planes around a shape, a plane solver with
// push limits, velocity clipping, and on top of them CharacterMover, which walks, slides, climbs
// steps, snaps to the ground and rides platforms. The method (Box2D v3's mover functions and the
// collide-and-slide loop of game engines, generalised to every shape) is in docs/mover.md.
#pragma once

#include <cstdint>
#include <limits>
#include <span>

#include "pebble/math.hpp"
#include "pebble/shape.hpp"
#include "pebble/world.hpp"

namespace pebble {

namespace detail {
struct MoverNearby;  // the parts around one step (src/mover/mover.cpp)
}

/// One contact plane of a mover: a translation t of the mover keeps it clear of the collider
/// when dot(normal, t) + separation >= 0 (to first order: the plane is the collider's surface
/// seen from the contact point, the mover being a convex shape).
struct MoverPlane {
  Vec2 normal{};         ///< unit, world frame, from the collider toward the mover
  float separation = 0;  ///< signed gap along normal at the pose asked (< 0: overlapping)
  Position point{};      ///< the contact point (world frame), midway between the surfaces
  /// How far solve_planes() may push the mover along this plane in one solve (world units,
  /// >= 0); infinity makes the plane hard. A soft limit lets a character be pushed out of an
  /// overlap over several steps instead of all at once.
  float push_limit = std::numeric_limits<float>::infinity();
  bool clip_velocity = true;  ///< whether clip_vector() clips against this plane
  ColliderId collider{};      ///< which collider...
  int part = 0;               ///< ...and which of its parts
};

/// What solve_planes() found.
struct PlaneSolution {
  Vec2 translation{};      ///< the translation nearest the one asked that the planes allow
  int iterations = 0;      ///< passes over the planes made
  bool converged = false;  ///< every plane holds within the tolerance (false: push limits or iterations ran out)
};

/// A mover's shape cast: where the shape moving by `translation` first comes within `skin` of a
/// collider it moves toward. Unlike CollisionWorld::cast_shape, a collider the shape already
/// touches (or overlaps) does not stop it when the motion does not go deeper into that collider
/// (dot(translation, its normal) >= 0): a character standing on the floor can walk along it and
/// step off it. Convex parts make this exact: moving away from a convex part at the start, the
/// distance to it only grows.
struct MoverCastResult {
  bool hit = false;       ///< a collider stops the translation before its end
  float fraction = 1;     ///< of the translation that can be made, in [0, 1]
  Position point{};       ///< where the shapes touch then (world frame)
  Vec2 normal{};          ///< the collider's outward normal there (unit, world frame)
  ColliderId collider{};  ///< the collider met, when hit
  int part = 0;           ///< its part met (a compound's shape, a chain's segment)

  /// True when a collider stops the translation (`hit`).
  explicit constexpr operator bool() const noexcept { return hit; }
};

/// The old name of MoverCastResult (docs/api-changes.md).
using MoverCast [[deprecated("use MoverCastResult")]] = MoverCastResult;

/// The cast above, against the colliders the filter passes, `ignore` excepted (the character's
/// own collider, if it has one). Invalid input: no hit.
MoverCastResult cast_mover(const CollisionWorld& world, const Shape& shape, const Transform& xf, Vec2 translation,
                           float skin, const QueryFilter& filter = {}, ColliderId ignore = {}) noexcept;

/// The contact planes of `shape` at xf: one per manifold point within `margin` of a collider the
/// filter passes (`ignore` excepted), written to `out` (at most out.size(), the deepest kept when
/// there are more). Returns how many were written. Their push limits are infinite.
int mover_planes(const CollisionWorld& world, const Shape& shape, const Transform& xf, float margin,
                 std::span<MoverPlane> out, const QueryFilter& filter = {}, ColliderId ignore = {}) noexcept;

/// The translation nearest `translation` with dot(normal, t) + separation >= 0 for every plane,
/// each plane pushing at most its push_limit (projected Gauss-Seidel on the planes' pushes, as
/// Box2D v3's b2SolvePlanes). `tolerance`: the push change below which a pass counts as converged.
/// Any input gives a finite translation: a normal off unit length is normalized, a zero or
/// non-finite normal or separation skips its plane, separations are clamped to
/// +-kMaxWorldCoordinate, and pushes that would leave float's range return `translation` with
/// converged false.
PlaneSolution solve_planes(Vec2 translation, std::span<const MoverPlane> planes, int max_iterations = 20,
                           float tolerance = 1e-5f) noexcept;

/// The vector nearest v with dot(v, normal) >= 0 for every plane whose clip_velocity is set (a
/// velocity that no longer drives into those planes). In two dimensions exact: the nearest such
/// vector is v, v projected on one plane, or zero.
Vec2 clip_vector(Vec2 v, std::span<const MoverPlane> planes) noexcept;

/// CharacterMover's settings. Lengths in world units, angles in radians.
struct MoverSettings {
  Vec2 up{0, 1};                 ///< unit; what "ground", "slope" and "step" are measured against
  float max_slope = 0.8726646f;  ///< 50 degrees: steeper surfaces are walls the mover slides down
  float step_height = 0.3f;      ///< highest step climbed without jumping (0: no stepping)
  float snap_distance = 0.2f;    ///< a drop at most this deep keeps a walking mover on the ground
  float skin = 0.01f;            ///< the gap the mover keeps to colliders (> 0)
  float push_speed = 10;         ///< how fast an overlap is pushed out, world units per second
  QueryFilter filter{};          ///< the colliders the mover meets
  int max_iterations = 8;        ///< casts per slide
};

/// The surface a mover stands on.
struct MoverGround {
  bool grounded = false;  ///< standing on a surface no steeper than max_slope
  Vec2 normal{};          ///< unit, world frame (up when not grounded)
  Position point{};       ///< world frame
  ColliderId collider{};  ///< which collider (and part) holds the mover up
  int part = 0;           ///< that collider's part
};

/// What one CharacterMover::step did.
struct MoverStep {
  Transform transform;   ///< the mover's pose after the step
  Vec2 velocity{};       ///< the velocity asked, clipped by what the mover met (feed it back, plus gravity)
  MoverGround ground;    ///< where it stands after the step
  bool stepped = false;  ///< it climbed a step
  bool snapped = false;  ///< it was pulled down onto the ground
  bool pushed = false;   ///< it started overlapping (a platform moved into it) and was pushed out
};

/// A character of any shape moved through a world, one step at a time. The world is not changed:
/// the mover keeps its own pose (give its collider, if it has one, that pose after each step and
/// name it in set_self() so that its queries ignore it).
class CharacterMover {
public:
  /// Throws InvalidSettings (for one release an InvalidShape too) when the settings or the transform
  /// are unusable (non-finite, skin <= 0, up not unit), naming the setting.
  CharacterMover(const Shape& shape, const Transform& xf, const MoverSettings& settings = {});

  /// Moves by desired_velocity * dt, with everything described in docs/mover.md: carried by the
  /// ground it stood on if that moved, pushed out of overlaps, sliding along what it meets,
  /// climbing steps and snapping down small drops while walking. dt <= 0 or non-finite input:
  /// no motion.
  MoverStep step(const CollisionWorld& world, Vec2 desired_velocity, float dt) noexcept;

  /// Where the mover is now (its shape's frame to world).
  const Transform& transform() const noexcept { return xf_; }
  /// Places the mover (a teleport: no casts, the ground is forgotten).
  void set_transform(const Transform& xf) noexcept;
  /// The shape it moves, in its own frame.
  const Shape& shape() const noexcept { return shape_; }
  /// What it stood on at the end of the last step().
  const MoverGround& ground() const noexcept { return ground_; }
  /// The settings it was made with.
  const MoverSettings& settings() const noexcept { return settings_; }
  /// The mover's own collider in the world, which its queries then ignore.
  void set_self(ColliderId id) noexcept { self_ = id; }

private:
  bool walkable(Vec2 normal) const noexcept;
  Vec2 slide(const CollisionWorld& world, const detail::MoverNearby* near, Vec2 delta, Vec2& velocity, bool grounded,
             MoverPlane* hit_wall) noexcept;
  bool push_out(const CollisionWorld& world, const detail::MoverNearby* near, float limit,
                const QueryFilter& filter) noexcept;
  bool push_out(const CollisionWorld& world, const detail::MoverNearby* near, float limit, std::span<MoverPlane> planes,
                Vec2& moved) noexcept;

  Shape shape_;
  Transform xf_;
  MoverSettings settings_;
  MoverGround ground_;
  Transform ground_xf_;  // the ground collider's transform when last stood on
  ColliderId self_{};
  float cos_max_slope_;
};

}  // namespace pebble
