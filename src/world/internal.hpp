// Internal to CollisionWorld (world.cpp: ids, changes and checks; update.cpp: the update;
// queries.cpp: the scene queries): the storage behind the class and the helpers the three share.
// Not installed; not part of the API.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pebble/chain.hpp"
#include "pebble/heightfield.hpp"
#include "pebble/mass.hpp"
#include "pebble/point.hpp"
#include "pebble/tree.hpp"
#include "pebble/world.hpp"
#include "tolerances.hpp"

namespace pebble {
namespace world_internal {

inline constexpr std::uint32_t kNone = 0xffffffffu;

// Moved proxies per pair-finding task, pairs per narrowphase task: fixed sizes, so that the tasks'
// outputs, merged in task order, do not depend on the number of threads.
inline constexpr int kFindChunk = 128;
inline constexpr int kCollideChunk = 256;
inline constexpr int kBoxChunk = 256;  // colliders per set_transforms() task

// update() rebuilds the fixed tree (binned SAH) once this many fixed colliders changed since its
// last rebuild, and at least a quarter of them: a level loaded collider by collider gets one
// rebuild, and a slow trickle of changes costs O(log n) per change, amortized.
inline constexpr int kFixedRebuildMin = 64;
inline constexpr int kFixedRebuildFraction = 4;

// The rounding allowance of a cast whose numbers reach these points, on both axes: the casts work
// in the collider's frame, where a rotation mixes the axes and one large coordinate rounds both.
// (A collider whose own coordinates are that large and that round the cast lies near the cast.)
// The same in a build with double positions: there too a collider's own coordinates may be as
// large as the world's (a polygon given in world coordinates at an identity transform), and the
// best hit so far, rounded in its frame, decides which boxes are skipped. A slack relative to the
// cast alone lost hits (robustness_test's far rays, the decompose corpus in fuzz_corpus_test).
inline float coordinate_slack(Position a, Position b) {
  return kCastCoordinateSlack * float(std::max({std::fabs(a.x), std::fabs(a.y), std::fabs(b.x), std::fabs(b.y)}));
}

#if PEBBLE_DOUBLE_POSITIONS
// b grown by `grow` on every side, plus kBoxCoordinateSlack of the shape's reach about its frame's
// position (|core centroid|_1 + extent() bounds every point of it from there, as in bounds()):
// with double positions every query subtracts world positions in double and rounds only the
// offset, so its float work sees coordinates relative to its frames (a box at 1e7 m is as tight
// as at the origin). The sums here round by at most 2^-53 of a coordinate, for which the pad of
// 2^-50 of the position that bounds() adds for its own two roundings leaves room.
inline Aabb grown(const Aabb& b, float grow, const Shape& shape) {
  const Vec2 c = shape.core_centroid();
  const double pad = double(grow + kBoxCoordinateSlack * (std::fabs(c.x) + std::fabs(c.y) + shape.extent()));
  return {{b.lower.x - pad, b.lower.y - pad}, {b.upper.x + pad, b.upper.y + pad}};
}
#else
// b grown by `grow` on every side, plus kBoxCoordinateSlack of each coordinate. (`shape`: whose
// reach the build with double positions measures the slack by.)
inline Aabb grown(const Aabb& b, float grow, const Shape& /*shape*/) {
  const auto out = [&](auto v, float sign) { return v + sign * (grow + kBoxCoordinateSlack * std::fabs(v)); };
  return {{out(b.lower.x, -1), out(b.lower.y, -1)}, {out(b.upper.x, 1), out(b.upper.y, 1)}};
}
#endif

inline Aabb collider_box(const Shape& shape, const Transform& xf, float margin) {
  return grown(bounds(shape, xf), 0.5f * margin + kBoxSizeSlack * shape.extent(), shape);
}

// The box as a Shape placed at its centre (a segment or point when it has no width or height).
// Its half extents must be at most kMaxShapeExtent. The ends of a segment are taken as -half and
// half, as the box's corners are: box.lower - centre may round to more than half.
inline Shape box_shape(const Aabb& box, Transform& at) {
  const Vec2 half = extents(box);
  at = {center(box), Rot::identity()};
  if (half.x > 0 && half.y > 0) return Shape::box(half.x, half.y);
  const Vec2 ends[2] = {-half, half};
  return Shape::polygon(ends);
}

// Edge i of n equal spans of [lo, hi], moved outward by kTileOverlap of a span (inner edges only),
// so that neighbouring tiles overlap by far more than the rounding of their Shapes' edges.
inline Coordinate tile_edge(Coordinate lo, Coordinate hi, int i, int n, float side) {
  if (i == 0) return lo;
  if (i == n) return hi;
  const Coordinate span = (hi - lo) / Coordinate(n);
  return std::clamp(lo + Coordinate(i) * span + side * kTileOverlap * span, lo, hi);
}

// Whether the shape overlaps the box, asked of tiles of the box that the box maker accepts: their
// union is the box, so the shape overlaps one of them exactly when it overlaps the box.
inline bool overlaps_box(const Shape& shape, const Transform& xf, const Aabb& box) {
  const Vec2 size = box.upper - box.lower;
  const int nx = std::max(1, int(std::ceil(size.x / kTileSpan))), ny = std::max(1, int(std::ceil(size.y / kTileSpan)));
  for (int i = 0; i < nx; ++i) {
    for (int j = 0; j < ny; ++j) {
      const Aabb tile{
          {tile_edge(box.lower.x, box.upper.x, i, nx, -1), tile_edge(box.lower.y, box.upper.y, j, ny, -1)},
          {tile_edge(box.lower.x, box.upper.x, i + 1, nx, 1), tile_edge(box.lower.y, box.upper.y, j + 1, ny, 1)}};
      Transform at;
      const Shape part = box_shape(tile, at);
      if (overlap(shape, xf, part, at)) return true;
    }
  }
  return false;
}

inline std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
  return a < b ? (std::uint64_t(a) << 32 | b) : (std::uint64_t(b) << 32 | a);
}

// Contact reuse (WorldSettings::reuse_contacts; docs/world.md): a pair whose parts moved relative
// to each other by at most kReuseFraction x the smaller extent() (every point of part[1], in
// part[0]'s frame) and turned by at most kReuseAngle since its last collide() keeps that manifold,
// its points and separations recomputed from the surface points it found. The contract's accuracy
// decides both: collide()'s points lie within 1e-3 of the smaller half diameter of both surfaces,
// its normal within 1e-3 rad. A motion d moves each carried point by at most d/2 off the surfaces
// and its separation and the true distance by at most d each, so 2d must fit in what the kernel
// leaves of 1e-3 x the half diameter; extent() is at most twice the half diameter, so
// d <= 2e-4 x extent() spends at most 8e-4 of it. The normal may turn by half its allowance: a
// face's normal turns with the part, by the turn itself; the normal of one point against a round
// feature (a 1-vertex core) also by the motion across it over the distance of the two centres.
inline constexpr float kReuseFraction = 2e-4f;
inline constexpr float kReuseAngle = 5e-4f;

inline bool valid_ray(const Ray& ray) { return is_valid_point(ray.origin) && is_valid_point(ray.translation); }

}  // namespace world_internal
using namespace world_internal;

// ---------------------------------------------------------------------------------------------
// The world itself. CollisionWorld (world.hpp) holds one behind a pointer and forwards each call to
// it (facade.cpp), so that world.hpp shows only what a user calls and a change here rebuilds only
// the library. Everything is public to the library's world files, none of it to users.

namespace detail {

class ThreadPool;
class Recorder;

struct WorldImpl {
  explicit WorldImpl(const WorldSettings& settings);
  ~WorldImpl();
  WorldImpl(const WorldImpl&) = delete;
  WorldImpl& operator=(const WorldImpl&) = delete;

  // CollisionWorld's calls, as world.hpp documents them.
  ColliderId add(const Shape& shape, const Transform& xf, std::uint64_t user_data = 0);
  ColliderId add(const Shape& shape, const Transform& xf, const ColliderOptions& options);
  ColliderId add(std::span<const Shape> parts, const Transform& xf, std::uint64_t user_data = 0);
  ColliderId add(std::span<const Shape> parts, const Transform& xf, const ColliderOptions& options);
  ColliderId add(const Chain& chain, const Transform& xf, std::uint64_t user_data = 0);
  ColliderId add(const Chain& chain, const Transform& xf, const ColliderOptions& options);
  ColliderId add(const Heightfield& field, const Transform& xf, std::uint64_t user_data = 0);
  ColliderId add(const Heightfield& field, const Transform& xf, const ColliderOptions& options);
  bool remove(ColliderId id);
  bool set_transform(ColliderId id, const Transform& xf);
  int set_transforms(std::span<const ColliderId> ids, std::span<const Transform> transforms);
  bool set_shape(ColliderId id, const Shape& shape);
  bool set_filter(ColliderId id, const Filter& filter);
  bool set_user_data(ColliderId id, std::uint64_t user_data);
  bool contains(ColliderId id) const noexcept;
  const Shape* shape(ColliderId id) const noexcept;
  int part_count(ColliderId id) const noexcept;
  const Shape* part(ColliderId id, int part) const noexcept;
  const Transform* transform(ColliderId id) const noexcept;
  const ColliderOptions* options(ColliderId id) const noexcept;
  Aabb box(ColliderId id) const noexcept;
  void update();
  WorldStats stats() const;
  bool validate() const;
  void optimize_fixed();
  void start_recording(std::ostream& out);
  void start_recording(const std::string& path);
  void stop_recording() noexcept;
  std::vector<std::byte> save() const;
  WorldCastResult cast_ray(const Ray& ray, const QueryFilter& filter = {}) const;
  WorldCastResult cast_circle(const Ray& ray, float radius, const QueryFilter& filter = {}) const;
  WorldCastResult cast_shape(const Shape& shape, const Transform& xf, Vec2 translation, const QueryFilter& filter = {},
                             const ShapeCastOptions& options = {}) const;
  int nearest(const Shape& shape, const Transform& xf, std::span<Neighbor> out,
              float max_distance = std::numeric_limits<float>::infinity(),
              const QueryFilter& filter = {}) const noexcept;
  int parts_in_box(const Aabb& box, std::span<PartView> out, const QueryFilter& filter = {}) const noexcept;
  static std::unique_ptr<WorldImpl> restore(std::span<const std::byte> bytes);

  struct Hot;
  struct Part;
  struct Snapshot;  // snapshot.cpp
  struct Collider;
  struct Pair;
  struct PairSet;
  struct Scratch;

  // The slot of a live collider of this world, or kNoSlot.
  static constexpr std::uint32_t kNoSlot = 0xffffffffu;
  std::uint32_t slot_of(ColliderId id) const noexcept;
  ColliderId id_of(std::uint32_t index) const noexcept;
  // The tree of a part (by part slot), the part's index in its collider.
  const AabbTree& tree_of(std::uint32_t part) const noexcept;
  int part_index(std::uint32_t part) const noexcept;
  std::uint32_t allocate_parts(std::uint32_t count);
  template <class Fill>
  ColliderId add_parts(std::size_t count, const Transform& xf, const ColliderOptions& options, Fill fill);
  void release_parts(std::uint32_t first, std::uint32_t count);
  bool remove_collider(ColliderId id);  // remove() without its record
  void refresh_box(std::uint32_t index, Vec2 displacement, const Aabb* boxes = nullptr);
  void unlink_pair(std::uint32_t pair, int side);
  void free_pair(std::uint32_t pair);
  bool collider_event(const Pair& pair, bool touching);
  void collider_events();
  void end_events_of(const Pair& pair, std::vector<ContactEvent>& ends, std::vector<ContactEvent>& part_ends,
                     std::vector<SensorEvent>& sensor_ends);
  void destroy_pairs(std::uint32_t index);
  void parallel_for(int count, void (*task)(int, void*), void* context);
  bool can_pair(std::uint32_t a, std::uint32_t b) const noexcept;
  void find_pairs_chunk(int chunk);
  void collide_chunk(int chunk);
  static void relative_motion(const Part& pa, const Part& pb, Vec2& p, Rot& q);
  void keep_for_reuse(Pair& pair, const Part& pa, const Part& pb) const;
  bool reuse_manifold(Pair& pair, const Part& pa, const Part& pb) const;
  bool query_sees(std::uint32_t index, const QueryFilter& filter) const noexcept;
  void sweep(const Ray& ray, Vec2 half_extents, const QueryFilter& filter,
             detail::CallbackRef<CastResult(std::uint32_t)> cast_one,
             detail::CallbackRef<float(const WorldCastResult&)> on_hit) const;
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
  template <class Accept>
  void visit_overlapping(const Aabb& box, const QueryFilter& filter, Accept accept,
                         detail::CallbackRef<bool(ColliderId)> on_hit) const;
  void point_impl(Position point, const QueryFilter& filter, detail::CallbackRef<bool(ColliderId)> on_hit) const;

  WorldSettings settings_;
  float reuse_distance_ = 0;  // settings_.reuse_bounds, checked (keep_for_reuse)
  float reuse_angle_ = 0;
  std::uint32_t serial_ = 0;
  std::vector<Hot> hot_;     // per part slot
  std::vector<Part> parts_;  // per part slot
  std::vector<Collider> colliders_;
  std::uint32_t free_collider_ = 0xffffffffu;
  std::uint32_t free_part_ = 0xffffffffu;                             // free single part slots
  std::vector<std::pair<std::uint32_t, std::uint32_t>> free_ranges_;  // free runs of part slots: first, count
  int live_ = 0;
  int several_parts_ = 0;  // live colliders of more than one part
  int fixed_count_ = 0;
  int fixed_changes_ = 0;   // fixed colliders added, moved or removed since the fixed tree's last rebuild
  std::uint32_t step_ = 0;  // updates so far (mod 2^32): the stamp of changes made before the next one
  AabbTree moving_tree_;
  AabbTree fixed_tree_;
  std::vector<Pair> pairs_;
  std::uint32_t free_pair_ = 0xffffffffu;
  std::unique_ptr<PairSet> pair_set_;
  std::unique_ptr<Scratch> scratch_;
  std::unique_ptr<detail::ThreadPool> pool_;
  std::vector<ContactPair> contacts_;
  std::vector<ContactEvent> begin_events_, end_events_, pending_end_events_;
  std::vector<ContactEvent> begin_part_events_, end_part_events_, pending_end_part_events_;
  // Touching part pairs per collider pair (lower slot << 32 | higher slot), kept only for pairs
  // with a collider of several parts: a collider event fires when the count leaves or reaches 0.
  std::unordered_map<std::uint64_t, std::uint32_t> touching_parts_;
  std::vector<SensorEvent> sensor_begin_events_, sensor_end_events_, pending_sensor_end_events_;
  WorldStats last_stats_;
  std::unique_ptr<detail::Recorder> recorder_;  // while recording (start_recording)
};

}  // namespace detail
using detail::WorldImpl;

// ---------------------------------------------------------------------------------------------
// Storage.

// A collider owns a range of part slots [first_part, first_part + part_count): one per shape of a
// compound, one per segment of a chain, one for a collider made of one shape. Each part has its own
// tree proxy and pairs, so the trees, the pair set and the narrowphase work on parts; a pair of parts
// of the same collider never forms.

// What update() and the queries need of a part: compact, so that the pair loops touch little
// memory; the collider's filter, kind and change stamps are copied into each of its parts. Step
// stamps are compared for equality with step_ only; when they wrap (after 2^32 updates) an old stamp
// may look current, which costs one extra narrowphase call and is otherwise harmless.
struct WorldImpl::Hot {
  Filter filter;                    // a copy of the collider's options.filter
  std::uint32_t changed_at = 0;     // == step_: transform, shape or filter changed since the last update()
  std::uint32_t moved_at = 0;       // == step_: its tree box was reinserted since the last update()
  std::uint32_t filtered_at = 0;    // == step_: its filter changed since the last update()
  std::uint32_t reshaped_at = 0;    // == step_: set_shape() since the last update() (no contact reuse)
  ProxyId proxy = kNullProxy;       // in moving_tree_ or fixed_tree_
  std::uint32_t pair_head = kNone;  // first of its pairs; the next free part slot when free
  std::uint32_t collider = kNone;   // the collider's slot
  std::uint32_t part_no = 0;        // its index in the collider
  bool live = false;
  bool fixed = false;
  bool sensor = false;
  bool several = false;  // the collider has other parts
  bool chain = false;    // a chain's segment (chain segments of two chains never pair)
  bool reuse = true;     // its pairs may reuse manifolds (settings and options allow it)
};

// The rest of a part. The collider's transform is copied into each of its parts (refresh_box()
// visits them all anyway), so that the narrowphase and the queries read one record per part.
// The fields the narrowphase reads of every part of a moved pair (xf to box) share its first cache
// line.
struct alignas(64) WorldImpl::Part {
  Transform xf;   // the collider's
  Vec2 centroid;  // piece.shape's core_centroid() and extent(), next to xf for contact reuse
  float extent;
  Position world_centroid;  // transform_point(xf, centroid)
  Aabb box;                 // what its tree holds before fattening
  ChainSegment piece;       // piece.shape is the part's shape (collider's frame); the rest serves chain segments
  bool chain = false;       // a chain's segment: one-sided, with ghost vertices

  const Shape& shape() const { return piece.shape; }
  void shape_changed() {
    centroid = piece.shape.core_centroid();
    extent = piece.shape.extent();
  }
  void place(const Transform& t) {
    xf = t;
    world_centroid = transform_point(t, centroid);
  }
};

struct WorldImpl::Collider {
  Transform xf;
  ColliderOptions options;
  std::uint32_t generation = 1;      // of the live collider; the next one's once freed
  std::uint32_t first_part = kNone;  // the next free collider slot when free
  std::uint32_t part_count = 0;
  bool live = false;
};

struct WorldImpl::Pair {
  ColliderId id[2];       // the colliders of part[0] and part[1]: id[0].index < id[1].index
  std::uint32_t part[2];  // part slots; part[0] == kNone: free
  int part_no[2];         // the parts' indices in their colliders
  std::uint32_t next[2];  // next pair in the list of part[k] (next[0]: next free pair)
  std::uint32_t prev[2];
  Manifold manifold;  // as of the last narrowphase (contact pairs)
  // What contact reuse needs of the last collide() (valid when `reusable`): each point's two
  // surface points in their own part's frame, the normal in part[0]'s frame, and where part[1]'s
  // core centroid and rotation were in part[0]'s frame (relative_motion()).
  Vec2 anchor[2][2];  // [point][side]
  Vec2 local_normal;
  Vec2 relative_p;
  Rot relative_q;
  float reuse_limit;   // how far part[1] may move relative to part[0] (kReuseFraction)
  float normal_lever;  // the normal turns by at most the motion over this (infinite: face)
  bool reusable;
  std::uint8_t sensor;  // 0: contact pair; 1 or 2: id[sensor - 1] is the sensor
  bool touching;        // as of the last update()
  bool touching_now;    // written by the narrowphase
  bool fresh;           // found by this update()
  bool doomed;          // boxes apart or filter fails: removed by this update()

  std::uint32_t a() const { return part[0]; }
  std::uint32_t b() const { return part[1]; }
  bool free() const { return part[0] == kNone; }
  int side_of(std::uint32_t p) const { return part[0] == p ? 0 : 1; }
};

// An open-addressing hash set of pair keys (min part << 32 | max part) mapping to pair slots:
// linear probing, deletion by shifting back (no tombstones). Looked up by many threads at once
// during pair finding, changed only by the serial steps.
struct WorldImpl::PairSet {
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);  // never a key: indices are < kNone
  std::vector<std::uint64_t> keys;
  std::vector<std::uint32_t> values;
  std::size_t count = 0;

  static std::size_t hash(std::uint64_t key) {
    key ^= key >> 33;  // the finalizer of MurmurHash3
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ull;
    return std::size_t(key ^ (key >> 33));
  }
  std::size_t mask() const { return keys.size() - 1; }
  // Asks the cache for the slot where contains(key) starts (pair finding looks keys up in groups).
  void prefetch(std::uint64_t key) const {
    if (!keys.empty()) __builtin_prefetch(&keys[hash(key) & mask()]);
  }
  bool contains(std::uint64_t key) const {
    if (keys.empty()) return false;
    for (std::size_t i = hash(key) & mask();; i = (i + 1) & mask()) {
      if (keys[i] == key) return true;
      if (keys[i] == kEmpty) return false;
    }
  }
  bool insert(std::uint64_t key, std::uint32_t value) {
    if (2 * (count + 1) > keys.size()) grow();
    for (std::size_t i = hash(key) & mask();; i = (i + 1) & mask()) {
      if (keys[i] == key) return false;
      if (keys[i] == kEmpty) {
        keys[i] = key;
        values[i] = value;
        ++count;
        return true;
      }
    }
  }
  void erase(std::uint64_t key) {
    std::size_t i = hash(key) & mask();
    while (keys[i] != key) i = (i + 1) & mask();
    // Shift back the entries after i that probed past it.
    for (std::size_t j = (i + 1) & mask(); keys[j] != kEmpty; j = (j + 1) & mask()) {
      const std::size_t home = hash(keys[j]) & mask();
      // Move j into i when its home is not in (i, j] (cyclically).
      if (((j - home) & mask()) >= ((j - i) & mask())) {
        keys[i] = keys[j];
        values[i] = values[j];
        i = j;
      }
    }
    keys[i] = kEmpty;
    --count;
  }
  void grow() {
    std::vector<std::uint64_t> old_keys = std::move(keys);
    std::vector<std::uint32_t> old_values = std::move(values);
    const std::size_t size = std::max<std::size_t>(64, 2 * old_keys.size());
    keys.assign(size, kEmpty);
    values.assign(size, 0);
    count = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i)
      if (old_keys[i] != kEmpty) insert(old_keys[i], old_values[i]);
  }
};

// Buffers update() reuses from step to step.
struct WorldImpl::Scratch {
  std::vector<std::vector<std::uint64_t>> found;  // per pair-finding task: new pair keys
  // Per narrowphase task: pairs collided, manifolds reused, pairs whose part boxes are apart.
  struct Tally {
    int collided = 0, reused = 0, separated = 0;
  };
  // Part pairs of colliders of several parts that began (+1) or stopped touching (-1), in pair
  // order: their collider events are decided once all are counted.
  struct Change {
    std::uint64_t key;    // the collider pair
    ContactEvent event;   // the part pair, in the pair's order
    std::uint8_t sensor;  // as Pair::sensor
    bool began;
  };
  // What one narrowphase task found of its pairs, in pair order (collide_chunk()).
  struct Chunk {
    Tally tally;
    int pairs = 0;                  // live pairs that stay
    std::size_t first_contact = 0;  // where its contacts go in contacts_
    std::vector<ContactPair> contacts;
    std::vector<ContactEvent> begin_part, end_part, begin, end;
    std::vector<SensorEvent> sensor_begin, sensor_end;
    std::vector<Change> changes;
    std::vector<std::uint32_t> doomed;  // pairs to free
    void clear() {
      tally = {};
      pairs = 0;
      contacts.clear();
      begin_part.clear();
      end_part.clear();
      begin.clear();
      end.clear();
      sensor_begin.clear();
      sensor_end.clear();
      changes.clear();
      doomed.clear();
    }
  };
  std::vector<Chunk> chunks;
  bool serial = true;  // this update's narrowphase chunks run in order on the calling thread
  // set_transforms(): each collider to move, and its parts' boxes.
  struct Move {
    Transform xf;
    std::uint32_t index;      // collider slot
    std::uint32_t first_box;  // its parts' boxes start here in `boxes`
    bool again;               // the collider came earlier in the same batch
    bool placed;              // done in the parallel step (no tree change)
  };
  std::vector<Move> moves;
  std::vector<Aabb> boxes;
  std::vector<std::uint32_t> seen;  // per collider slot: the last batch that named it
  std::uint32_t batch = 0;
  std::vector<Change> changes;      // all chunks' changes
  std::vector<std::uint64_t> keys;  // the collider pairs of `changes`, in order of first change
};

}  // namespace pebble
