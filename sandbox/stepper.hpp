// sandbox/stepper.hpp — a small rigid-body stepper that makes pebble's contacts move things: the
// demo's pile and the settling test. Sequential impulses on soft contacts, after Catto's "soft
// step" (sub-steps, a soft biased pass, then rigid relax passes), warm-started through the
// manifolds' feature ids, with Coulomb friction, restitution and speculative contacts up to the
// collision margin. Not part of the core library: it allocates, and it is tuned for the demo.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <pebble/constants.hpp>
#include <pebble/mass.hpp>
#include "sandbox/pair_source.hpp"

namespace pebble::sandbox {

/// How a body starts: shape, world pose of the shape's frame, motion and material.
struct BodyDef {
  Shape shape = Shape::circle(0.5f);
  /// A compound body: these shapes (in the body's frame) instead of `shape`, when not empty.
  std::vector<Shape> parts;
  Transform xf = Transform::identity();  ///< the shape's frame, local to world
  Vec2 velocity{};                       ///< of the centre of mass, m/s
  float angular_velocity = 0;            ///< rad/s, counter-clockwise
  float density = 1;                     ///< kg/m²; 0 makes the body static (never moves)
  float friction = 0.6f;                 ///< Coulomb coefficient; a pair uses sqrt(fa * fb)
  float restitution = 0;                 ///< bounce, 0..1; a pair uses the larger one
  /// Rolling resistance coefficient: a contact resists relative rolling with a torque of at most
  /// this x the normal force x the smaller body's reach. Without it a rounded shape rocking on
  /// its round side in the pile never stops (friction does no work on rolling). A pair uses the
  /// larger one.
  float rolling_resistance = 0.05f;
};

/// A body as the stepper moves it (world frame unless said otherwise).
struct Body {
  Shape shape = Shape::circle(0.5f);  ///< its first part
  std::vector<Shape> parts;           ///< every part: the one shape, a compound's shapes, a chain's segments
  Transform xf{};                     ///< the shape's frame, local to world
  Vec2 local_center{};                ///< centre of mass in the shape's frame
  Vec2 center{};                      ///< centre of mass, world
  float angle = 0;                    ///< of xf, radians
  Vec2 velocity{};                    ///< of the centre of mass, m/s
  float angular_velocity = 0;         ///< rad/s
  float inv_mass = 0;                 ///< 0 for static bodies
  float inv_inertia = 0;              ///< about the centre of mass; 0 for static bodies
  float friction = 0.6f;
  float restitution = 0;
  float rolling_resistance = 0;
  float reach = 0;  ///< farthest distance from the centre of mass to the shape's surface
  int chain =
      -1;  ///< a static chain or heightfield: its index in Stepper::chains() (shape is then its first segment or cell)

  bool is_static() const { return inv_mass == 0; }
  /// The fastest any point of the body moves: |v| + |w| x (distance from the centre of mass to
  /// the farthest point of the shape).
  float max_point_speed() const;
};

/// The stepper's tuning; the defaults hold a pile of a few hundred bodies of 0.1 to 1 m at rest.
struct StepSettings {
  Vec2 gravity{0, -10};  ///< m/s²
  /// Collision, soft solve and relax this many times per step(). Sub-steps beat iterations
  /// (Catto, "Solver2D"): on the demo's pile (20 seeds), 8 x 1 x 1 left at most 3.2 mm of
  /// penetration at rest where 4 sub-steps x 4 solve x 4 relax passes left 17.5 mm (docs/demo.md).
  int substeps = 8;
  int solve_iterations = 1;  ///< soft passes (with position bias) per sub-step
  int relax_iterations = 1;  ///< rigid passes (no bias) per sub-step, after moving the bodies
  /// Speculative contacts: pairs closer than this (m) get contact points, and the solver lets
  /// them approach only as far as the gap, so a fast body stops on the surface instead of sinking
  /// into it. It should cover one sub-step of the fastest approach (15 m/s at 480 Hz: 0.03 m).
  float margin = 0.04f;
  /// Stiffness (Hz) and damping ratio of the soft contact that removes penetration; at most a
  /// quarter of the sub-step rate is stable (Catto, "Solver2D", 2024).
  float contact_hertz = 120;
  float contact_damping_ratio = 10;
  float max_push_speed = 3;         ///< m/s, fastest a penetration is pushed apart
  float restitution_threshold = 1;  ///< m/s; slower approaches never bounce (resting contacts)
  float max_speed = 100;            ///< m/s, a cap on body speed that keeps bad input finite
};

/// Per-step figures for the demo's summary.
struct StepStats {
  int manifolds = 0;          ///< touching or speculative pairs, last sub-step
  int points = 0;             ///< their contact points
  float max_penetration = 0;  ///< largest -separation among the points (0 when none overlap)
  int warm_started = 0;       ///< points whose impulses came from the previous sub-step by id
  /// Feature ids lost, summed over the step's sub-steps: for a pair in contact in two sub-steps
  /// running, the points that could have kept an id (the smaller of the two counts) minus those
  /// whose id is found again. A point that appears (a corner lands) or goes (a corner lifts) is
  /// not a loss; a point that changes its id while its features still touch is (issue 19). A
  /// point that carried no normal impulse loses nothing when its id goes, and is not counted.
  int ids_lost = 0;
  /// Points of pairs in contact in two sub-steps running, summed over the step's sub-steps: the
  /// denominator of ids_lost.
  int ids_tracked = 0;
};

/// Bodies, their contacts and the solver. Contacts come from a PairSource (by default the
/// brute-force one; the demo hands it a CollisionWorld).
class Stepper {
public:
  explicit Stepper(StepSettings settings = {}, std::unique_ptr<PairSource> pairs = nullptr);

  /// Adds a body and returns its index. Throws InvalidShape (from mass_properties) for bad density.
  int add(const BodyDef& def);
  /// Adds a static chain (terrain) and returns its body index.
  int add_chain(const Chain& chain, const Transform& xf = Transform::identity(), float friction = 0.6f);
  /// Adds a static heightfield (terrain) and returns its body index: a chain whose part i is cell
  /// i (chains() holds it as field.chain(), for drawing).
  int add_heightfield(const Heightfield& field, const Transform& xf = Transform::identity(), float friction = 0.6f);
  /// The chains added (and the heightfields, as chains), by Body::chain.
  const std::vector<Chain>& chains() const { return chains_; }
  /// Advances by dt seconds in settings().substeps sub-steps.
  void step(float dt);

  const std::vector<Body>& bodies() const { return bodies_; }
  const StepSettings& settings() const { return settings_; }
  /// Figures of the last step().
  const StepStats& stats() const { return stats_; }
  /// The contacts of the last sub-step (indices a < b, normal from a to b).
  const std::vector<BodyContact>& contacts() const { return contacts_; }

  /// Fresh figures at the current positions (a collision pass at margin 0): the largest
  /// penetration and the number of touching pairs.
  StepStats measure();
  /// Total kinetic energy (J): translation and rotation of every moving body.
  float kinetic_energy() const;
  /// The largest max_point_speed() of any moving body.
  float max_point_speed() const;

private:
  // A static chain or heightfield's body (its parts the segments' shapes); returns its index.
  int add_terrain(std::span<const ChainSegment> segments, const Chain& chain, const Transform& xf, float friction);
  struct PointConstraint {
    uint32_t id = 0;
    Vec2 ra{}, rb{};            // contact point from each centre of mass, at collision time
    float base_separation = 0;  // separation at collision time
    float normal_mass = 0, tangent_mass = 0;
    float normal_impulse = 0, tangent_impulse = 0;
    float max_normal_impulse = 0;
    float approach_speed = 0;  // normal relative velocity before solving (for restitution)
  };
  struct Constraint {
    int a = 0, b = 0;
    int part_a = 0, part_b = 0;
    Vec2 normal{};
    int count = 0;
    float friction = 0, restitution = 0;
    float rolling_limit = 0;  // torque impulse limit per unit normal impulse (m)
    float rolling_mass = 0;   // 1 / (iA + iB)
    float rolling_impulse = 0;
    PointConstraint points[2];
  };

  void substep(float h);
  void prepare();
  void solve(float h, bool use_bias);
  void apply_restitution();
  float current_separation(const Constraint& c, const PointConstraint& p) const;

  StepSettings settings_;
  std::unique_ptr<PairSource> pairs_;
  std::vector<Body> bodies_;
  std::vector<Chain> chains_;
  std::vector<Vec2> start_center_;  // centre of mass at the sub-step's collision pass
  std::vector<float> start_angle_;  // angle at that pass
  std::vector<Rot> turned_;         // rotation since that pass
  std::vector<BodyContact> contacts_;
  std::vector<Constraint> constraints_, previous_;
  StepStats stats_;
  int warm_started_ = 0;                // points of the current sub-step that found their impulses by id
  int ids_lost_ = 0, ids_tracked_ = 0;  // over the current step (StepStats)
};

}  // namespace pebble::sandbox
