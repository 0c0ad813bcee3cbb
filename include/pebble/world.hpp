// pebble/world.hpp — CollisionWorld: a whole scene of colliders. Moving colliders live in one AABB
// tree with fat boxes, fixed ones in another that update() never walks for them; update() finds
// the new pairs, runs collide() on the pairs that moved (on several threads if asked) and keeps
// the touching pairs with their manifolds, plus begin/end events read after it returns. Scene
// queries (rays, circle casts, overlaps, distance) see every change at once. docs/world.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "pebble/cast.hpp"
#include "pebble/chain.hpp"
#include "pebble/constants.hpp"
#include "pebble/manifold.hpp"
#include "pebble/math.hpp"
#include "pebble/ray.hpp"
#include "pebble/shape.hpp"
#include "pebble/tree.hpp"

namespace pebble {

class Heightfield;  // pebble/heightfield.hpp

/// Names one collider of one CollisionWorld: a slot, the generation of that slot and the world's
/// serial number. A removed collider's id never names another collider: its slot's generation
/// moves on, and ids of other worlds carry another serial. The default id names nothing.
struct ColliderId {
  std::uint32_t index = 0xffffffffu;  ///< the collider's slot
  std::uint32_t generation = 0;       ///< 0 never names a collider
  std::uint32_t world = 0;            ///< serial of the world that made it; 0 is no world
  /// Same slot, generation and world.
  friend constexpr bool operator==(const ColliderId&, const ColliderId&) = default;
};

/// Which colliders may touch (the rule of Box2D's b2Filter). Two colliders touch when each one's
/// category has a bit in the other's mask, unless they share a nonzero group: a positive group
/// always touches, a negative group never does.
struct Filter {
  std::uint64_t category = 1;  ///< the bits this collider is
  std::uint64_t mask = ~0ull;  ///< the category bits it touches
  std::int32_t group = 0;      ///< shared positive group: always; shared negative: never
  /// Field by field.
  friend constexpr bool operator==(const Filter&, const Filter&) = default;
};

/// The filter rule above; symmetric.
constexpr bool should_collide(const Filter& a, const Filter& b) noexcept {
  if (a.group == b.group && a.group != 0) return a.group > 0;
  return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

/// Which colliders a scene query sees: those whose category has a bit in mask, sensors only when
/// asked.
struct QueryFilter {
  std::uint64_t mask = ~0ull;  ///< the collider categories the query sees
  bool sensors = false;        ///< whether sensors are seen too
  bool fixed = true;           ///< whether fixed colliders are seen (false: only those that move)
};

/// How a collider takes part in the world. The defaults make a solid collider that moves.
struct ColliderOptions {
  Filter filter{};  ///< which colliders it pairs with (default: all)
  /// Never (or rarely) moves: kept in the fixed tree with a tight box, never paired with another
  /// fixed collider, and costs nothing in update() unless it changes. set_transform() still works,
  /// at the cost of a tree update.
  bool fixed = false;
  /// Reports sensor events (begin and end of overlap, distance <= 0) with the colliders that pass
  /// its filter, other sensors excepted; makes no contacts; scene queries see it only when their
  /// QueryFilter asks for sensors.
  bool sensor = false;
  std::uint64_t user_data = 0;  ///< any value; given back by user_data()
  /// Runs collide() anew for every pair of this collider whose transforms changed, never reusing
  /// the last manifold (WorldSettings::reuse_contacts): for a character or anything else whose
  /// contacts must come from the geometry of this very update.
  bool fresh_contacts = false;
};

/// Two touching parts of two colliders and their contact manifold (world space, normal from a to
/// b); a has the lower slot index. A collider made of one shape has the one part 0; a compound's
/// part is the index of its shape, a chain's the index of its segment, a heightfield's its cell.
struct ContactPair {
  ///@{
  ColliderId a, b;  ///< the two colliders; a has the lower slot index
  ///@}
  Manifold manifold;  ///< collide(part of a, part of b): normal from a to b, world
  ///@{
  int part_a = 0, part_b = 0;  ///< the parts of a and of b that touch
  ///@}
};

/// Two parts of two colliders that began or ended touching, in the order of ContactPair.
struct ContactEvent {
  ///@{
  ColliderId a, b;  ///< the two colliders, a with the lower slot index; stale after a removal
  ///@}
  ///@{
  int part_a = 0, part_b = 0;  ///< the parts of a and of b
  ///@}
};

/// A collider (visitor) that began or ended overlapping a sensor, and the two parts concerned.
struct SensorEvent {
  ///@{
  ColliderId sensor, visitor;  ///< the sensor and the collider that entered or left it
  ///@}
  ///@{
  int sensor_part = 0, visitor_part = 0;  ///< the parts of each
  ///@}
};

/// The answer of the world's casts (cast_ray(), cast_circle(), cast_shape()): the collider hit,
/// which of its parts, and where (CastResult: fraction, point, normal). With no hit: the default id
/// (naming nothing), part 0 and hit {false, 1, {0,0}, {0,0}}; operator bool says which.
struct WorldCastResult {
  ColliderId id;                             ///< the collider hit; the default id when there is no hit
  CastResult hit{false, 1, {0, 0}, {0, 0}};  ///< fraction, point and normal (world; the collider's outward normal)
  int part = 0;                              ///< its part that was hit (a compound's shape, a chain's segment)

  /// True when a collider was hit (hit.hit).
  explicit constexpr operator bool() const noexcept { return hit.hit; }

  // The casts returned std::optional<RayResult> before this release; these members keep code
  // written for it compiling, and meaning the same, for one release (docs/api-changes.md).

  /// Old std::optional form: true when a collider was hit.
  [[deprecated("test the result itself: if (result)")]] constexpr bool has_value() const noexcept { return hit.hit; }
  /// Old std::optional form: the result itself (also when there is no hit; it no longer throws).
  [[deprecated("use the result itself")]] constexpr const WorldCastResult& value() const noexcept { return *this; }
  /// Old std::optional form: the result itself.
  [[deprecated("use the result itself")]] constexpr const WorldCastResult& operator*() const noexcept { return *this; }
  /// Old std::optional form: the result itself.
  [[deprecated("use the result itself")]] constexpr const WorldCastResult* operator->() const noexcept { return this; }
  /// Old std::optional form: `result == std::nullopt` is true when there is no hit.
  [[deprecated("test the result itself: if (!result)")]] friend constexpr bool operator==(const WorldCastResult& r,
                                                                                          std::nullopt_t) noexcept {
    return !r.hit.hit;
  }
  /// Old std::optional form: a std::optional that is empty when there is no hit, so that
  /// `std::optional<RayResult> r = world.cast_ray(ray);` keeps its meaning.
  [[deprecated("use the result itself")]] operator std::optional<WorldCastResult>() const& {
    return hit.hit ? std::optional<WorldCastResult>(*this) : std::nullopt;
  }
  /// As above, for a result that is not const.
  [[deprecated("use the result itself")]] operator std::optional<WorldCastResult>() & {
    return hit.hit ? std::optional<WorldCastResult>(*this) : std::nullopt;
  }
  /// As above, for a temporary (`std::optional<RayResult> r = world.cast_ray(ray);`).
  [[deprecated("use the result itself")]] operator std::optional<WorldCastResult>() && {
    return hit.hit ? std::optional<WorldCastResult>(*this) : std::nullopt;
  }
};

/// The old name of WorldCastResult (docs/api-changes.md).
using RayResult [[deprecated("use WorldCastResult")]] = WorldCastResult;

/// A collider found by CollisionWorld::nearest: which, its nearest part, and the signed distance
/// from the query shape to that part (distance(): < 0 when they overlap).
struct Neighbor {
  ColliderId id;       ///< the collider found
  int part = 0;        ///< its part nearest the query shape
  float distance = 0;  ///< signed distance to that part, < 0 overlapping
};

/// A part of a collider as CollisionWorld::parts_in_box() finds it: what a caller needs to run the
/// pair queries on it itself (collide(), cast_shape(), distance(); the ChainSegment overloads for a
/// chain's segment). The pointers point into the world's own arrays and stay valid as long as
/// shape()'s do.
struct PartView {
  ColliderId id;                          ///< the collider
  int part = 0;                           ///< which of its parts (a compound's shape, a chain's segment)
  const Shape* shape = nullptr;           ///< the part's shape, in the collider's frame
  const ChainSegment* segment = nullptr;  ///< a chain's segment with its ghost vertices (one-sided), else nullptr
  Transform xf;                           ///< the collider's transform (its frame to world)
  Aabb box;  ///< the part's box in world, as box() gives a collider's (bounds() grown by half the contact margin and a
             ///< slack), not fattened
  bool fixed = false;  ///< the collider is fixed (ColliderOptions::fixed)
};

/// Runs task(i, context) for every i in [0, count), on any threads, in any order, and returns
/// when all have finished. update() hands its parallel work to it, in pieces whose results do not
/// depend on which thread runs them or in which order. A game plugs its job system in here.
struct TaskHook {
  /// The job system's entry: runs task(i, context) for i in [0, count), returns when all are done.
  void (*run)(int count, void (*task)(int index, void* context), void* context, void* user) = nullptr;
  void* user = nullptr;  ///< given back to run
};

/// How far a touching pair may move (WorldSettings::reuse_bounds) before collide() runs on it
/// again instead of its last manifold being carried over (docs/world.md, "Contact reuse").
/// The default, zero, keeps the contract: a pair is carried over only while the motion stays
/// within collide()'s own accuracy (2e-4 of the smaller part's extent, 5e-4 rad). Larger bounds
/// trade accuracy for speed on resting stacks: a carried manifold keeps the points, ids and
/// normal the last collide() found, moved with the parts, with separations measured anew from
/// where its surface points went; a point that leaves the margin ends the reuse at once, but a
/// feature change (a box tipping onto another edge, a second point coming within the margin) is
/// noticed only once the bounds are left. A larger distance also keeps a pair found apart apart
/// while it moves less than the smaller of that distance and the contact margin: it cannot come
/// to overlap unseen, but it may be reported touching that much late.
struct ReuseBounds {
  /// How far any point of one part may move relative to the other (world units) since the last
  /// collide(); the contract's bound when that is larger. 0, negative or not finite: the contract's.
  float distance = 0;
  /// How far one part may turn relative to the other (radians); the contract's when larger.
  float angle = 0;
  /// Box2D v3's contact recycling bounds (its linear slop times 10 and about 11 degrees): what
  /// a Box2D v3 solver already tolerates.
  static constexpr ReuseBounds box2d_v3() noexcept { return {0.05f, 0.2f}; }
};

/// Thrown by CollisionWorld::restore() for bytes that are not a snapshot it can read: truncated,
/// corrupt (checksum, an index beyond its table, a broken tree or list, a shape its maker refuses),
/// or written by another snapshot format version. The message names the problem.
class InvalidSnapshot : public std::invalid_argument {
public:
  /// what: the message, naming the problem and where in the bytes it was found.
  explicit InvalidSnapshot(const std::string& what) : std::invalid_argument(what) {}
};

/// Settings of a CollisionWorld, fixed at construction.
struct WorldSettings {
  /// contacts() holds the pairs whose distance is at most this (world units): the speculative
  /// margin of collide(). >= 0.
  float contact_margin = kDefaultContactMargin;
  /// The fat boxes of moving colliders (AabbTree). The fixed tree has no margins.
  TreeSettings tree{};
  /// update() spreads its work over this many threads (the calling thread included) from a small
  /// pool the world owns, unless task_hook is set. 1: no threads at all. Ignored (1) in a build
  /// without threads (CMake option PEBBLE_THREADS=OFF).
  int threads = 1;
  /// When run is set, update() hands its parallel work to it and `threads` is ignored.
  TaskHook task_hook{};
  /// A touching pair whose colliders barely moved relative to each other since its last collide()
  /// keeps that manifold's points and ids, its separations and points recomputed from where each
  /// surface point went (docs/world.md, "Contact reuse"): within collide()'s accuracy, at a
  /// fraction of its cost. Off here, or per collider with ColliderOptions::fresh_contacts.
  bool reuse_contacts = true;
  /// How far a pair may move before its manifold is made anew (the default: the contract's
  /// accuracy; ReuseBounds::box2d_v3() for Box2D v3's looser bounds).
  ReuseBounds reuse_bounds{};
};

/// Counts from the last update().
struct WorldStats {
  int colliders = 0;        ///< live colliders
  int fixed = 0;            ///< of which fixed
  int pairs = 0;            ///< pairs whose boxes overlap (the candidates collide() may run on)
  int contacts = 0;         ///< touching pairs (contacts().size())
  int collided = 0;         ///< pairs collide() (or overlap(), for sensors) ran on
  int reused = 0;           ///< pairs whose manifold was carried over instead (reuse_contacts); with a looser
                            ///< ReuseBounds distance, also pairs kept apart without collide()
  int separated = 0;        ///< pairs found apart by their parts' boxes alone (no collide() needed)
  int part_slots = 0;       ///< the part table's length (live parts and free slots; now, not as of update())
  int new_pairs = 0;        ///< pairs found
  TreeStats moving_tree{};  ///< of the moving colliders
  TreeStats fixed_tree{};   ///< of the fixed colliders
};

namespace detail {
/// A non-owning reference to a callable (a function pointer and an object pointer), so that the
/// world's queries take any callback without templates in their implementation or allocation.
template <class Signature>
class CallbackRef;
template <class R, class... Args>
class CallbackRef<R(Args...)> {
public:
  template <class F>
  requires(!std::is_same_v<std::remove_cv_t<F>, CallbackRef>) CallbackRef(F& f)
  noexcept  // NOLINT: implicit on purpose
      : object_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, Args... args) -> R { return (*static_cast<F*>(o))(args...); }) {}
  R operator()(Args... args) const { return call_(object_, args...); }

private:
  void* object_;
  R (*call_)(void*, Args...);
};
class WorldImpl;
}  // namespace detail

/// A scene of colliders: pairs, contacts, events and scene queries.
///
/// Changes (add, remove, set_*) apply at once to the scene queries; update() then brings
/// contacts() and the events up to date. Const functions only read, so any number of threads may
/// query at once while no thread changes the world. Stale or foreign ids are refused: the setters
/// and remove() return false and change nothing, the getters return nullptr or a default.
/// A world can be moved (its ids go with it) but not copied; a moved-from world may only be
/// destroyed or assigned to.
class CollisionWorld {
public:
  /// An empty world with the default settings.
  CollisionWorld();
  /// An empty world; the settings are fixed for its life.
  explicit CollisionWorld(const WorldSettings& settings);
  ~CollisionWorld();
  /// Takes the other world's colliders; its ids stay valid for this one.
  CollisionWorld(CollisionWorld&&) noexcept;
  /// Takes the other world's colliders; its ids stay valid for this one.
  CollisionWorld& operator=(CollisionWorld&&) noexcept;
  CollisionWorld(const CollisionWorld&) = delete;
  CollisionWorld& operator=(const CollisionWorld&) = delete;

  /// Adds a moving collider. Throws std::invalid_argument when the transform is not valid
  /// (is_valid: finite, within kMaxWorldCoordinate, unit rotation).
  ColliderId add(const Shape& shape, const Transform& xf, std::uint64_t user_data = 0);
  /// Adds a collider with options (fixed, sensor, filter). Throws as above.
  ColliderId add(const Shape& shape, const Transform& xf, const ColliderOptions& options);
  /// Adds a compound: one collider made of several convex parts, each given in the collider's own
  /// frame. Each part has its own tree box and pairs; contacts name the parts (ContactPair::part_a).
  /// Throws std::invalid_argument when `parts` is empty, and as above.
  ColliderId add(std::span<const Shape> parts, const Transform& xf, std::uint64_t user_data = 0);
  /// Adds a compound with options. Throws as above.
  ColliderId add(std::span<const Shape> parts, const Transform& xf, const ColliderOptions& options);
  /// Adds a chain (terrain): one collider whose parts are the chain's segments, one-sided, with
  /// ghost vertices (docs/terrain.md); contacts and hits name the segment (ContactPair::part_a).
  /// Fixed unless the options say otherwise. Chains never pair with chains. Throws as above.
  ColliderId add(const Chain& chain, const Transform& xf, std::uint64_t user_data = 0);
  /// Adds a chain with options (a chain marked not fixed moves). Throws as above.
  ColliderId add(const Chain& chain, const Transform& xf, const ColliderOptions& options);
  /// Adds a heightfield (terrain): one collider whose part i is cell i, a one-sided chain segment
  /// with ghost vertices (Heightfield::cell(i)); contacts and hits name the cell. Fixed unless the
  /// options say otherwise; it is a chain to the world, so it never pairs with chains or other
  /// heightfields. Throws as above.
  ColliderId add(const Heightfield& field, const Transform& xf, std::uint64_t user_data = 0);
  /// Adds a heightfield with options. Throws as above.
  ColliderId add(const Heightfield& field, const Transform& xf, const ColliderOptions& options);
  /// Removes a collider: its pairs go at once; touching ones are reported as end events by the
  /// next update() (with this id, stale by then). False (nothing done) for a stale or foreign id.
  bool remove(ColliderId id);
  /// Moves a collider. False, and nothing changes, for a stale or foreign id or an invalid
  /// transform.
  bool set_transform(ColliderId id, const Transform& xf);
  /// Moves many colliders: the same as set_transform(ids[i], transforms[i]) for each i in order
  /// (the shorter span decides how many), with the same results bit for bit, but with the
  /// colliders' boxes computed on the world's threads (WorldSettings::threads, task_hook). Stale
  /// or foreign ids and invalid transforms are skipped. Returns how many were moved.
  int set_transforms(std::span<const ColliderId> ids, std::span<const Transform> transforms);
  /// Gives a collider of one part another shape. False for a stale or foreign id, for a collider
  /// of several parts and for a chain.
  bool set_shape(ColliderId id, const Shape& shape);
  /// Changes a collider's filter; its pairs are re-examined by the next update(). False for a
  /// stale or foreign id.
  bool set_filter(ColliderId id, const Filter& filter);
  /// False for a stale or foreign id.
  bool set_user_data(ColliderId id, std::uint64_t user_data);

  /// True when id names a live collider of this world.
  bool contains(ColliderId id) const noexcept;
  /// The collider's shape (its first part's, for a collider of several parts), transform (world)
  /// or options; nullptr for a stale or foreign id. These pointers, and part()'s, point into the
  /// world's own arrays: they stay valid until the next add() (which may grow the arrays), the
  /// collider's remove() or set_shape(), or the world's end. Copy the Shape to keep it longer (a
  /// batch query, pebble/batch.hpp, may hold them for its call).
  const Shape* shape(ColliderId id) const noexcept;
  /// How many parts the collider has (1 for a collider made of one shape); 0 for a stale or foreign id.
  int part_count(ColliderId id) const noexcept;
  /// Part `part` of the collider, in the collider's frame; nullptr for a stale or foreign id or an
  /// index out of range.
  const Shape* part(ColliderId id, int part) const noexcept;
  /// The collider's transform (its frame to world); nullptr for a stale or foreign id.
  const Transform* transform(ColliderId id) const noexcept;
  /// The collider's options as last set; nullptr for a stale or foreign id.
  const ColliderOptions* options(ColliderId id) const noexcept;
  /// The box the trees hold for it (the union of its parts' boxes): bounds() grown by half the
  /// contact margin (and a slack that covers collide()'s tolerance), world; the empty box {} for a
  /// stale or foreign id.
  Aabb box(ColliderId id) const noexcept;
  /// Live colliders.
  int size() const noexcept;

  /// Finds new pairs, runs the narrowphase on the pairs whose colliders changed since the last
  /// update(), refreshes contacts() and replaces the events with this update's.
  void update();
  /// The touching pairs (manifold count > 0 at the contact margin) as of the last update(), in an
  /// order that depends only on the calls made (never on threads). Ids may have been removed
  /// since.
  std::span<const ContactPair> contacts() const noexcept;
  /// Collider pairs that began touching in the last update() (their first touching part pair, which
  /// the event names), in the order of contacts().
  std::span<const ContactEvent> touch_begin_events() const noexcept;
  /// Collider pairs that stopped touching (their last part pair did, which the event names) in the
  /// last update() or were removed since the one before (their ids are stale then): removals
  /// first, in call order, then the rest in pair order.
  std::span<const ContactEvent> touch_end_events() const noexcept;
  /// The same per part pair: every part pair of two colliders (a compound's shape, a chain's
  /// segment) that began or stopped touching. Between colliders of one part each, the same as the
  /// collider events.
  std::span<const ContactEvent> part_touch_begin_events() const noexcept;
  /// Part pairs that stopped touching in the last update(), as touch_end_events() orders them.
  std::span<const ContactEvent> part_touch_end_events() const noexcept;
  /// Visitors that began overlapping a sensor in the last update() (per collider pair, naming the
  /// first part pair that overlaps).
  std::span<const SensorEvent> sensor_begin_events() const noexcept;
  /// Visitors that stopped overlapping a sensor (or were removed, or whose sensor was), per
  /// collider pair.
  std::span<const SensorEvent> sensor_end_events() const noexcept;
  /// The old name of touch_begin_events() (docs/api-changes.md).
  [[deprecated("use touch_begin_events")]] std::span<const ContactEvent> begin_touch_events() const noexcept {
    return touch_begin_events();
  }
  /// The old name of touch_end_events() (docs/api-changes.md).
  [[deprecated("use touch_end_events")]] std::span<const ContactEvent> end_touch_events() const noexcept {
    return touch_end_events();
  }
  /// The old name of part_touch_begin_events() (docs/api-changes.md).
  [[deprecated("use part_touch_begin_events")]] std::span<const ContactEvent> begin_part_touch_events() const noexcept {
    return part_touch_begin_events();
  }
  /// The old name of part_touch_end_events() (docs/api-changes.md).
  [[deprecated("use part_touch_end_events")]] std::span<const ContactEvent> end_part_touch_events() const noexcept {
    return part_touch_end_events();
  }
  /// Counts from the last update(), and the trees' statistics now (O(n)).
  WorldStats stats() const;
  /// Checks the trees (AabbTree::validate), that every collider is in the right tree with its
  /// box, and that the pair set, the pairs' lists and contacts() agree. For tests; O(n + pairs).
  bool validate() const;
  /// Rebuilds the fixed colliders' tree by binned SAH now; update() also does it by itself when
  /// many fixed colliders changed since the last rebuild.
  void optimize_fixed();
  /// The settings given at construction (a negative or non-finite margin became 0).
  const WorldSettings& settings() const noexcept;

  /// Starts recording: from now on every call that changes the world (each add, remove,
  /// set_transform(s), set_shape, set_filter, set_user_data and optimize_fixed, with what it
  /// returned, and each update() with its update_digest()) is written to `out`, after the
  /// settings, in a binary format that replay() (pebble/recording.hpp) and `pebble replay FILE`
  /// read back. `out` must outlive the recording; the records reach it at each update() (and
  /// every 64 KB, and when the recording stops), whole. A world that is not new (calls were made
  /// on it) begins the recording with its save(), which the replay restores.
  void start_recording(std::ostream& out);
  /// The same into a file the world opens (truncating it) and closes when the recording stops.
  /// Throws std::runtime_error when the file cannot be opened.
  void start_recording(const std::string& path);
  /// Stops recording (flushes and, for a path, closes the file). Nothing when not recording.
  void stop_recording() noexcept;
  /// True while a recording is on.
  bool recording() const noexcept;

  // --- Snapshot and restore (docs/world.md, "Snapshot and restore").

  /// The whole state as bytes: colliders, parts, transforms, filters, options, settings, both
  /// trees node for node, the part table, pairs with their kept manifolds, contacts(), events and
  /// id generations. restore() of them gives a world that answers every later call bit for bit
  /// as this one does. Not saved: the thread pool and the task hook (the restored world has the
  /// same `threads` and no hook) and scratch buffers. O(n); allocates the buffer.
  std::vector<std::byte> save() const;
  /// The world save() wrote, with the saved world's ids (the same serial: they stay valid, for
  /// rollback). Throws InvalidSnapshot naming the problem for truncated, corrupt or foreign bytes;
  /// never reads out of bounds or allocates more than the bytes can describe.
  static CollisionWorld restore(std::span<const std::byte> bytes);

  // --- Scene queries. Each sees every add, remove and set_* made so far.

  /// The closest hit of the ray on a collider the filter passes (pebble::cast_ray() on each candidate);
  /// no hit: the result is false (hit.hit false, the default id).
  WorldCastResult cast_ray(const Ray& ray, const QueryFilter& filter = {}) const;
  /// Every hit of the ray, nearer boxes first but not sorted: calls on_hit(const WorldCastResult&) ->
  /// float for each collider the filter passes and the ray hits. The return value: < 0 ignores
  /// the hit and goes on, 0 stops, otherwise the ray is clipped to min(current length, value)
  /// (return 1 to keep everything, the hit's fraction to search for the closest).
  template <class F>
  requires std::is_invocable_r_v<float, F&, const WorldCastResult&>
  void cast_ray(const Ray& ray, F&& on_hit, const QueryFilter& filter = {}) const {
    ray_impl(ray, 0, filter, detail::CallbackRef<float(const WorldCastResult&)>(on_hit));
  }
  /// The closest hit of a disc of the given radius whose centre moves along the ray ([seed-rounded §8]:
  /// the ray against the colliders grown by radius, the tree's boxes grown too).
  WorldCastResult cast_circle(const Ray& ray, float radius, const QueryFilter& filter = {}) const;
  /// Every hit of the circle cast, as cast_ray(ray, on_hit, filter) does for rays.
  template <class F>
  requires std::is_invocable_r_v<float, F&, const WorldCastResult&>
  void cast_circle(const Ray& ray, float radius, F&& on_hit, const QueryFilter& filter = {}) const {
    ray_impl(ray, radius, filter, detail::CallbackRef<float(const WorldCastResult&)>(on_hit));
  }
  /// The closest hit of `shape` placed at xf and moved by `translation` (the colliders stay where
  /// they are): cast_shape() on each candidate, the tree's boxes swept by the shape's box. In the
  /// result, hit.normal is the collider's outward surface normal (cast_shape()'s normal from the
  /// moving shape to the collider, negated, as for rays) and hit.point where they touch at that
  /// time. A shape that starts within options.target_separation of a collider hits it at fraction 0.
  WorldCastResult cast_shape(const Shape& shape, const Transform& xf, Vec2 translation, const QueryFilter& filter = {},
                             const ShapeCastOptions& options = {}) const;
  /// Every hit of the shape cast, as cast_ray(ray, on_hit, filter) does for rays.
  template <class F>
  requires std::is_invocable_r_v<float, F&, const WorldCastResult&>
  void cast_shape(const Shape& shape, const Transform& xf, Vec2 translation, F&& on_hit, const QueryFilter& filter = {},
                  const ShapeCastOptions& options = {}) const {
    cast_shape_impl(shape, xf, translation, filter, options,
                    detail::CallbackRef<float(const WorldCastResult&)>(on_hit));
  }

  /// Calls on_hit(ColliderId) -> bool for every collider (passing the filter) that overlaps the
  /// shape placed at xf (overlap(), touching counts), once per collider however many of its parts
  /// overlap; returning false stops.
  template <class F>
  void overlap_shape(const Shape& shape, const Transform& xf, F&& on_hit, const QueryFilter& filter = {}) const {
    within_impl(shape, xf, 0, filter, detail::CallbackRef<bool(ColliderId)>(on_hit));
  }
  /// The same for the colliders within `distance` (>= 0) of the shape: distance() <= distance.
  template <class F>
  void within_distance(const Shape& shape, const Transform& xf, float distance, F&& on_hit,
                       const QueryFilter& filter = {}) const {
    within_impl(shape, xf, distance, filter, detail::CallbackRef<bool(ColliderId)>(on_hit));
  }
  /// The contacts `shape` placed at xf would have: for every part of a collider the filter passes
  /// whose manifold with the shape has a point within `margin` (>= 0), calls
  /// on_contact(ColliderId, int part, const Manifold&) -> bool (false stops). The manifold is
  /// collide(part, shape, margin) with the part first: its normal points from the collider to the
  /// shape, the way that pushes the shape out. Chain segments are one-sided, as in update(). What
  /// a character mover asks (pebble/mover.hpp); Box2D v3's b2World_CollideMover.
  template <class F>
  requires std::is_invocable_r_v<bool, F&, ColliderId, int, const Manifold&>
  void collide_shape(const Shape& shape, const Transform& xf, float margin, F&& on_contact,
                     const QueryFilter& filter = {}) const {
    collide_impl(shape, xf, margin, filter, detail::CallbackRef<bool(ColliderId, int, const Manifold&)>(on_contact));
  }
  /// The colliders nearest to `shape` placed at xf, by distance() to their nearest part (signed),
  /// written to `out` nearest first, ties by slot: the out.size() nearest within max_distance
  /// (>= 0). Returns how many. Branch and bound over both trees (a subtree whose box is farther
  /// than the k-th distance found is not entered); nothing allocated. A point is a
  /// Shape::circle(0) there. What a crowd agent asks of its neighbours each step.
  int nearest(const Shape& shape, const Transform& xf, std::span<Neighbor> out,
              float max_distance = std::numeric_limits<float>::infinity(),
              const QueryFilter& filter = {}) const noexcept;
  /// The colliders within `radius` (>= 0) of the shape, nearest first: nearest(shape, xf, out,
  /// radius, filter). At most out.size() of them, the nearest.
  int within_radius(const Shape& shape, const Transform& xf, float radius, std::span<Neighbor> out,
                    const QueryFilter& filter = {}) const noexcept {
    return nearest(shape, xf, out, radius, filter);
  }
  /// The parts (of colliders the filter passes) whose tree boxes overlap `box`: the candidates of
  /// every query confined to that box, for a caller that asks several queries in it and walks the
  /// trees once (a character mover's step). No exact test: a part found may be well apart from
  /// the box's contents. Written to `out` in the trees' order (moving colliders first); returns
  /// how many were found, which may exceed out.size() (then only the first out.size() are
  /// written). Invalid box: 0. Nothing allocated.
  int parts_in_box(const Aabb& box, std::span<PartView> out, const QueryFilter& filter = {}) const noexcept;
  /// The colliders whose shape overlaps the box (a box-shaped Shape, touching counts).
  template <class F>
  void overlap_aabb(const Aabb& box, F&& on_hit, const QueryFilter& filter = {}) const {
    aabb_impl(box, filter, detail::CallbackRef<bool(ColliderId)>(on_hit));
  }
  /// The colliders containing the point (contains(), boundary included).
  template <class F>
  void overlap_point(Position point, F&& on_hit, const QueryFilter& filter = {}) const {
    point_impl(point, filter, detail::CallbackRef<bool(ColliderId)>(on_hit));
  }

private:
  explicit CollisionWorld(std::unique_ptr<detail::WorldImpl> impl) noexcept;
  // What the query templates above call with their callbacks.
  void ray_impl(const Ray& ray, float radius, const QueryFilter& filter,
                detail::CallbackRef<float(const WorldCastResult&)> on_hit) const;
  void cast_shape_impl(const Shape& shape, const Transform& xf, Vec2 translation, const QueryFilter& filter,
                       const ShapeCastOptions& options,
                       detail::CallbackRef<float(const WorldCastResult&)> on_hit) const;
  void within_impl(const Shape& shape, const Transform& xf, float distance, const QueryFilter& filter,
                   detail::CallbackRef<bool(ColliderId)> on_hit) const;
  void aabb_impl(const Aabb& box, const QueryFilter& filter, detail::CallbackRef<bool(ColliderId)> on_hit) const;
  void collide_impl(const Shape& shape, const Transform& xf, float margin, const QueryFilter& filter,
                    detail::CallbackRef<bool(ColliderId, int, const Manifold&)> on_contact) const;
  void point_impl(Position point, const QueryFilter& filter, detail::CallbackRef<bool(ColliderId)> on_hit) const;

  std::unique_ptr<detail::WorldImpl> impl_;  // the colliders, trees, pairs and events (src/world/)
};

}  // namespace pebble

/// ColliderIds as keys of unordered containers.
template <>
struct std::hash<pebble::ColliderId> {
  /// Mixes slot, generation and world.
  std::size_t operator()(const pebble::ColliderId& id) const noexcept {
    const std::uint64_t key =
        (std::uint64_t(id.generation) << 32 | id.index) ^ (std::uint64_t(id.world) * 0x9e3779b97f4a7c15ull);
    return std::size_t(key ^ (key >> 29));
  }
};
