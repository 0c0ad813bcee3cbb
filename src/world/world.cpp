// CollisionWorld: colliders in two AABB trees, persistent pairs, the update and the scene queries.
//
// The pair set holds every pair of colliders whose tree boxes overlap (fat boxes for moving
// colliders, tight ones for fixed colliders) and that may touch (filters, not two fixed colliders,
// not two sensors). A tree box changes only when its proxy is reinserted, and then the proxy is in
// its tree's moved() list; so update() finds every new pair by querying the trees with the moved
// proxies only, and a pair can only end when one of its colliders changed. Every collider box holds
// its shape grown by half the contact margin, so the pair set holds every pair within the margin.
//
// update() (docs/world.md has the picture):
//   1. pair finding, in tasks of kFindChunk moved proxies: each task queries the trees and keeps
//      the candidates not yet in the pair set in its own buffer (parallel, read only);
//   2. the buffers are merged into the pair set in task order (serial);
//   3. the narrowphase, in tasks of kCollideChunk pairs: each pair with a changed collider gets its
//      manifold (or sensor overlap) anew, or is marked for removal when its boxes came apart
//      (parallel; each task writes only its own pairs);
//   4. events, removals and contacts() in pair order (serial).
// Tasks are cut by fixed sizes and merged in a fixed order, so the result is the same bit for bit
// for any number of threads and any task hook (the tasks run the same code on the same data).
#include "pebble/world.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "pebble/mass.hpp"
#include "pebble/point.hpp"
#include "tolerances.hpp"
#include "world/thread_pool.hpp"

namespace pebble {
namespace {

constexpr std::uint32_t kNone = 0xffffffffu;

// Each world takes a serial number from here; ids carry it, so an id of another world is refused.
std::atomic<std::uint32_t> g_next_serial{1};

// Moved proxies per pair-finding task, pairs per narrowphase task: fixed sizes, so that the tasks'
// outputs, merged in task order, do not depend on the number of threads.
constexpr int kFindChunk = 128;
constexpr int kCollideChunk = 256;

// update() rebuilds the fixed tree (binned SAH) once this many fixed colliders changed since its
// last rebuild, and at least a quarter of them: a level loaded collider by collider gets one
// rebuild, and a slow trickle of changes costs O(log n) per change, amortized.
constexpr int kFixedRebuildMin = 64;
constexpr int kFixedRebuildFraction = 4;

// The rounding allowance of a cast whose numbers reach these points, on both axes: the casts work
// in the collider's frame, where a rotation mixes the axes and one large coordinate rounds both.
// (A collider whose own coordinates are that large and that round the cast lies near the cast.)
float coordinate_slack(Vec2 a, Vec2 b) {
  return kBoxCoordinateSlack * std::max({std::fabs(a.x), std::fabs(a.y), std::fabs(b.x), std::fabs(b.y)});
}

// b grown by `grow` on every side, plus kBoxCoordinateSlack of each coordinate.
Aabb grown(const Aabb& b, float grow) {
  const auto out = [&](float v, float sign) { return v + sign * (grow + kBoxCoordinateSlack * std::fabs(v)); };
  return {{out(b.lower.x, -1), out(b.lower.y, -1)}, {out(b.upper.x, 1), out(b.upper.y, 1)}};
}

Aabb collider_box(const Shape& shape, const Transform& xf, float margin) {
  return grown(bounds(shape, xf), 0.5f * margin + kBoxSizeSlack * shape.extent());
}

// The box as a Shape placed at its centre (a segment or point when it has no width or height).
// Its half extents must be at most kMaxShapeExtent. The ends of a segment are taken as -half and
// half, as the box's corners are: box.lower - centre may round to more than half.
Shape box_shape(const Aabb& box, Transform& at) {
  const Vec2 half = extents(box);
  at = {center(box), Rot::identity()};
  if (half.x > 0 && half.y > 0) return Shape::box(half.x, half.y);
  const Vec2 ends[2] = {-half, half};
  return Shape::polygon(ends);
}

// Tiles of a box too large for one Shape: at most this wide, which leaves room below the box
// maker's 2 kMaxShapeExtent for the overlap of neighbours (kTileOverlap) and rounding.
constexpr float kTileSpan = 1.8f * kMaxShapeExtent;
constexpr float kTileOverlap = 1e-3f;

// Edge i of n equal spans of [lo, hi], moved outward by kTileOverlap of a span (inner edges only),
// so that neighbouring tiles overlap by far more than the rounding of their Shapes' edges.
float tile_edge(float lo, float hi, int i, int n, float side) {
  if (i == 0) return lo;
  if (i == n) return hi;
  const float span = (hi - lo) / float(n);
  return std::clamp(lo + float(i) * span + side * kTileOverlap * span, lo, hi);
}

// Whether the shape overlaps the box, asked of tiles of the box that the box maker accepts: their
// union is the box, so the shape overlaps one of them exactly when it overlaps the box.
bool overlaps_box(const Shape& shape, const Transform& xf, const Aabb& box) {
  const Vec2 size = box.upper - box.lower;
  const int nx = std::max(1, int(std::ceil(size.x / kTileSpan))), ny = std::max(1, int(std::ceil(size.y / kTileSpan)));
  for (int i = 0; i < nx; ++i) {
    for (int j = 0; j < ny; ++j) {
      const Aabb tile{{tile_edge(box.lower.x, box.upper.x, i, nx, -1), tile_edge(box.lower.y, box.upper.y, j, ny, -1)},
                      {tile_edge(box.lower.x, box.upper.x, i + 1, nx, 1), tile_edge(box.lower.y, box.upper.y, j + 1, ny, 1)}};
      Transform at;
      const Shape part = box_shape(tile, at);
      if (overlap(shape, xf, part, at)) return true;
    }
  }
  return false;
}

std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
  return a < b ? (std::uint64_t(a) << 32 | b) : (std::uint64_t(b) << 32 | a);
}

bool valid_ray(const Ray& ray) { return is_valid_point(ray.origin) && is_valid_point(ray.translation); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Storage.

// What update() and the queries need of a collider, apart from its shape and transform: compact,
// so that the pair loops touch little memory. Step stamps are compared for equality with step_
// only; when they wrap (after 2^32 updates) an old stamp may look current, which costs one extra
// narrowphase call and is otherwise harmless.
struct CollisionWorld::Hot {
  Filter filter;                   // a copy of options.filter
  std::uint32_t generation = 1;    // of the live collider; the next one's once freed
  std::uint32_t changed_at = 0;    // == step_: transform, shape or filter changed since the last update()
  std::uint32_t moved_at = 0;      // == step_: its tree box was reinserted since the last update()
  std::uint32_t filtered_at = 0;   // == step_: its filter changed since the last update()
  ProxyId proxy = kNullProxy;      // in moving_tree_ or fixed_tree_
  std::uint32_t pair_head = kNone;  // first of its pairs; the next free slot when free
  bool live = false;
  bool fixed = false;
  bool sensor = false;
};

// The rest of a collider.
struct CollisionWorld::Collider {
  Shape shape;
  Transform xf;
  ColliderOptions options;
  Aabb box;  // what its tree holds before fattening
};

struct CollisionWorld::Pair {
  ColliderId id[2];           // id[0].index < id[1].index; id[0].index == kNone: free
  std::uint32_t next[2];      // next pair in the list of collider id[k] (next[0]: next free pair)
  std::uint32_t prev[2];
  Manifold manifold;          // as of the last narrowphase (contact pairs)
  std::uint8_t sensor;        // 0: contact pair; 1 or 2: id[sensor - 1] is the sensor
  bool touching;              // as of the last update()
  bool touching_now;          // written by the narrowphase
  bool fresh;                 // found by this update()
  bool doomed;                // boxes apart or filter fails: removed by this update()

  std::uint32_t a() const { return id[0].index; }
  std::uint32_t b() const { return id[1].index; }
  bool free() const { return id[0].index == kNone; }
  int side_of(std::uint32_t collider) const { return id[0].index == collider ? 0 : 1; }
};

// An open-addressing hash set of pair keys (min index << 32 | max index) mapping to pair slots:
// linear probing, deletion by shifting back (no tombstones). Looked up by many threads at once
// during pair finding, changed only by the serial steps.
struct CollisionWorld::PairSet {
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
struct CollisionWorld::Scratch {
  std::vector<std::vector<std::uint64_t>> found;  // per pair-finding task: new pair keys
  std::vector<int> collided;                      // per narrowphase task: pairs collided
};

// ---------------------------------------------------------------------------------------------
// Construction.

CollisionWorld::CollisionWorld() : CollisionWorld(WorldSettings{}) {}

CollisionWorld::CollisionWorld(const WorldSettings& settings)
    : settings_(settings),
      serial_(g_next_serial.fetch_add(1, std::memory_order_relaxed)),
      moving_tree_(settings.tree),
      fixed_tree_(TreeSettings{0, 0, 0}),
      pair_set_(std::make_unique<PairSet>()),
      scratch_(std::make_unique<Scratch>()) {
  if (!(settings_.contact_margin >= 0) || !std::isfinite(settings_.contact_margin)) settings_.contact_margin = 0;
  if (serial_ == 0) serial_ = g_next_serial.fetch_add(1, std::memory_order_relaxed);  // after 2^32 worlds
#ifndef PEBBLE_NO_THREADS
  if (settings_.task_hook.run == nullptr && settings_.threads > 1) pool_ = std::make_unique<detail::ThreadPool>(settings_.threads);
#endif
}

CollisionWorld::~CollisionWorld() = default;
CollisionWorld::CollisionWorld(CollisionWorld&&) noexcept = default;
CollisionWorld& CollisionWorld::operator=(CollisionWorld&&) noexcept = default;

// ---------------------------------------------------------------------------------------------
// Ids.

std::uint32_t CollisionWorld::slot_of(ColliderId id) const noexcept {
  if (id.world != serial_ || id.index >= hot_.size()) return kNoSlot;
  const Hot& h = hot_[id.index];
  return h.live && h.generation == id.generation ? id.index : kNoSlot;
}

ColliderId CollisionWorld::id_of(std::uint32_t index) const noexcept { return {index, hot_[index].generation, serial_}; }

const AabbTree& CollisionWorld::tree_of(std::uint32_t index) const noexcept {
  return hot_[index].fixed ? fixed_tree_ : moving_tree_;
}

bool CollisionWorld::contains(ColliderId id) const noexcept { return slot_of(id) != kNoSlot; }

const Shape* CollisionWorld::shape(ColliderId id) const noexcept {
  const std::uint32_t i = slot_of(id);
  return i != kNoSlot ? &colliders_[i].shape : nullptr;
}

const Transform* CollisionWorld::transform(ColliderId id) const noexcept {
  const std::uint32_t i = slot_of(id);
  return i != kNoSlot ? &colliders_[i].xf : nullptr;
}

const ColliderOptions* CollisionWorld::options(ColliderId id) const noexcept {
  const std::uint32_t i = slot_of(id);
  return i != kNoSlot ? &colliders_[i].options : nullptr;
}

Aabb CollisionWorld::box(ColliderId id) const noexcept {
  const std::uint32_t i = slot_of(id);
  return i != kNoSlot ? colliders_[i].box : Aabb{};
}

// ---------------------------------------------------------------------------------------------
// Changes.

ColliderId CollisionWorld::add(const Shape& shape, const Transform& xf, std::uint64_t user_data) {
  ColliderOptions options;
  options.user_data = user_data;
  return add(shape, xf, options);
}

ColliderId CollisionWorld::add(const Shape& shape, const Transform& xf, const ColliderOptions& options) {
  if (!is_valid(xf)) {
    std::ostringstream out;
    out << "pebble: CollisionWorld::add: the transform is not valid (p = " << xf.p.x << ", " << xf.p.y
        << "; q = " << xf.q.c << ", " << xf.q.s << "): coordinates must be finite and within " << kMaxWorldCoordinate
        << " and the rotation of unit length";
    throw std::invalid_argument(out.str());
  }
  const Aabb box = collider_box(shape, xf, settings_.contact_margin);
  std::uint32_t index;
  if (free_collider_ != kNone) {
    index = free_collider_;
    free_collider_ = hot_[index].pair_head;
    colliders_[index] = Collider{shape, xf, options, box};
  } else {
    if (hot_.size() >= kNone) throw std::length_error("pebble: CollisionWorld::add: too many colliders");
    index = std::uint32_t(hot_.size());
    colliders_.push_back(Collider{shape, xf, options, box});
    hot_.emplace_back();
  }
  Hot& h = hot_[index];
  h.filter = options.filter;
  h.changed_at = h.moved_at = step_;
  h.filtered_at = step_ - 1;
  h.pair_head = kNone;
  h.live = true;
  h.fixed = options.fixed;
  h.sensor = options.sensor;
  if (options.fixed) {
    h.proxy = fixed_tree_.create_proxy(box, index, options.filter.category);
    ++fixed_count_;
    ++fixed_changes_;
  } else {
    h.proxy = moving_tree_.create_proxy(box, index, options.filter.category);
  }
  ++live_;
  return id_of(index);
}

bool CollisionWorld::remove(ColliderId id) {
  const std::uint32_t index = slot_of(id);
  if (index == kNoSlot) return false;
  destroy_pairs(index);
  Hot& h = hot_[index];
  if (h.fixed) {
    fixed_tree_.destroy_proxy(h.proxy);
    --fixed_count_;
    ++fixed_changes_;
  } else {
    moving_tree_.destroy_proxy(h.proxy);
  }
  h.proxy = kNullProxy;
  h.live = false;
  --live_;
  // A slot whose generation would wrap is retired, never reused: an old id can never match.
  if (h.generation == std::numeric_limits<std::uint32_t>::max()) return true;
  ++h.generation;
  h.pair_head = free_collider_;
  free_collider_ = index;
  return true;
}

// Takes pair p out of the list of its collider on `side`.
void CollisionWorld::unlink_pair(std::uint32_t p, int side) {
  const Pair& pair = pairs_[p];
  const std::uint32_t collider = pair.id[side].index;
  const std::uint32_t prev = pair.prev[side], after = pair.next[side];
  if (prev != kNone) {
    Pair& q = pairs_[prev];
    q.next[q.side_of(collider)] = after;
  } else {
    hot_[collider].pair_head = after;
  }
  if (after != kNone) {
    Pair& q = pairs_[after];
    q.prev[q.side_of(collider)] = prev;
  }
}

// Forgets pair p (already unlinked) and puts its slot on the free list.
void CollisionWorld::free_pair(std::uint32_t p) {
  Pair& pair = pairs_[p];
  pair_set_->erase(pair_key(pair.a(), pair.b()));
  pair.id[0].index = kNone;
  pair.next[0] = free_pair_;
  free_pair_ = p;
}

// Ends every pair of a collider now: touching ones become end events of the next update().
void CollisionWorld::destroy_pairs(std::uint32_t index) {
  std::uint32_t p = hot_[index].pair_head;
  while (p != kNone) {
    const Pair& pair = pairs_[p];
    const int side = pair.side_of(index);
    const std::uint32_t next = pair.next[side];
    if (pair.touching) {
      if (pair.sensor) {
        pending_sensor_end_events_.push_back(pair.sensor == 1 ? SensorEvent{pair.id[0], pair.id[1]} : SensorEvent{pair.id[1], pair.id[0]});
      } else {
        pending_end_events_.push_back({pair.id[0], pair.id[1]});
      }
    }
    unlink_pair(p, 1 - side);  // this collider's own list is dropped whole below
    free_pair(p);
    p = next;
  }
  hot_[index].pair_head = kNone;
}

void CollisionWorld::refresh_box(std::uint32_t index, Vec2 displacement) {
  Collider& c = colliders_[index];
  Hot& h = hot_[index];
  c.box = collider_box(c.shape, c.xf, settings_.contact_margin);
  h.changed_at = step_;
  bool reinserted;
  if (h.fixed) {
    reinserted = fixed_tree_.move_proxy(h.proxy, c.box);
    if (reinserted) ++fixed_changes_;
  } else {
    reinserted = moving_tree_.move_proxy(h.proxy, c.box, displacement);
  }
  if (reinserted) h.moved_at = step_;
}

bool CollisionWorld::set_transform(ColliderId id, const Transform& xf) {
  const std::uint32_t index = slot_of(id);
  if (index == kNoSlot || !is_valid(xf)) return false;
  Collider& c = colliders_[index];
  const Vec2 displacement = xf.p - c.xf.p;
  c.xf = xf;
  refresh_box(index, displacement);
  return true;
}

bool CollisionWorld::set_shape(ColliderId id, const Shape& shape) {
  const std::uint32_t index = slot_of(id);
  if (index == kNoSlot) return false;
  colliders_[index].shape = shape;
  refresh_box(index, {});
  return true;
}

bool CollisionWorld::set_filter(ColliderId id, const Filter& filter) {
  const std::uint32_t index = slot_of(id);
  if (index == kNoSlot) return false;
  Hot& h = hot_[index];
  colliders_[index].options.filter = filter;
  h.filter = filter;
  h.changed_at = h.filtered_at = step_;  // its pairs are checked against the filter again
  AabbTree& tree = h.fixed ? fixed_tree_ : moving_tree_;
  tree.set_category(h.proxy, filter.category);  // what masked scene queries skip by
  tree.touch(h.proxy);                          // and new pairs looked for
  return true;
}

bool CollisionWorld::set_user_data(ColliderId id, std::uint64_t user_data) {
  const std::uint32_t index = slot_of(id);
  if (index == kNoSlot) return false;
  colliders_[index].options.user_data = user_data;
  return true;
}

void CollisionWorld::optimize_fixed() {
  fixed_tree_.rebuild();
  fixed_changes_ = 0;
}

// ---------------------------------------------------------------------------------------------
// The update.

bool CollisionWorld::can_pair(std::uint32_t a, std::uint32_t b) const noexcept {
  const Hot& ha = hot_[a];
  const Hot& hb = hot_[b];
  return !(ha.fixed && hb.fixed) && !(ha.sensor && hb.sensor) && should_collide(ha.filter, hb.filter);
}

void CollisionWorld::parallel_for(int count, void (*task)(int, void*), void* context) {
  if (count <= 0) return;
  if (count > 1 && settings_.task_hook.run != nullptr) {
    settings_.task_hook.run(count, task, context, settings_.task_hook.user);
  } else if (count > 1 && pool_) {
    pool_->run(count, task, context);
  } else {
    for (int i = 0; i < count; ++i) task(i, context);
  }
}

// Task `chunk` of step 1: the moved proxies [chunk * kFindChunk, ...) of the moving tree's moved()
// list followed by the fixed tree's. A pair whose two proxies both moved is found once: moving
// with moving from the larger proxy id's query; moving with fixed from the moving one's query.
void CollisionWorld::find_pairs_chunk(int chunk) {
  std::vector<std::uint64_t>& out = scratch_->found[std::size_t(chunk)];
  out.clear();
  const std::span<const ProxyId> moving = moving_tree_.moved();
  const std::span<const ProxyId> fixed = fixed_tree_.moved();
  const std::size_t total = moving.size() + fixed.size();
  const std::size_t end = std::min(total, std::size_t(chunk + 1) * kFindChunk);
  const auto consider = [&](std::uint32_t a, std::uint32_t b) {
    if (!can_pair(a, b)) return;
    const std::uint64_t key = pair_key(a, b);
    if (!pair_set_->contains(key)) out.push_back(key);
  };
  for (std::size_t i = std::size_t(chunk) * kFindChunk; i < end; ++i) {
    if (i < moving.size()) {
      const ProxyId p = moving[i];
      const std::uint32_t a = std::uint32_t(moving_tree_.user_data(p));
      const Aabb fat = moving_tree_.fat_box(p);
      moving_tree_.query(fat, [&](ProxyId q) {
        if (q != p && !(q > p && moving_tree_.was_moved(q))) consider(a, std::uint32_t(moving_tree_.user_data(q)));
        return true;
      });
      fixed_tree_.query(fat, [&](ProxyId q) {
        consider(a, std::uint32_t(fixed_tree_.user_data(q)));
        return true;
      });
    } else {
      const ProxyId p = fixed[i - moving.size()];
      const std::uint32_t a = std::uint32_t(fixed_tree_.user_data(p));
      moving_tree_.query(fixed_tree_.fat_box(p), [&](ProxyId q) {
        if (!moving_tree_.was_moved(q)) consider(a, std::uint32_t(moving_tree_.user_data(q)));
        return true;
      });
    }
  }
}

// Task `chunk` of step 3: pairs [chunk * kCollideChunk, ...). A pair is looked at only when one of
// its colliders changed; its boxes are compared only when one was reinserted (a tree box changes
// only then), its filters only when one changed.
void CollisionWorld::collide_chunk(int chunk) {
  const std::size_t begin = std::size_t(chunk) * kCollideChunk;
  const std::size_t end = std::min(pairs_.size(), begin + kCollideChunk);
  int collided = 0;
  for (std::size_t i = begin; i < end; ++i) {
    Pair& pair = pairs_[i];
    if (pair.free()) continue;
    pair.touching_now = pair.touching;
    const std::uint32_t a = pair.a(), b = pair.b();
    const Hot& ha = hot_[a];
    const Hot& hb = hot_[b];
    if (!pair.fresh && ha.changed_at != step_ && hb.changed_at != step_) continue;
    if (((ha.moved_at == step_ || hb.moved_at == step_) && !overlaps(tree_of(a).fat_box(ha.proxy), tree_of(b).fat_box(hb.proxy))) ||
        ((ha.filtered_at == step_ || hb.filtered_at == step_) && !can_pair(a, b))) {
      pair.doomed = true;
      pair.touching_now = false;
      continue;
    }
    ++collided;
    const Collider& ca = colliders_[a];
    const Collider& cb = colliders_[b];
    if (pair.sensor) {
      pair.touching_now = overlap(ca.shape, ca.xf, cb.shape, cb.xf);
    } else {
      pair.manifold = collide(ca.shape, ca.xf, cb.shape, cb.xf, settings_.contact_margin);
      pair.touching_now = pair.manifold.count > 0;
    }
  }
  scratch_->collided[std::size_t(chunk)] = collided;
}

void CollisionWorld::update() {
  begin_events_.clear();
  end_events_.swap(pending_end_events_);
  pending_end_events_.clear();
  sensor_begin_events_.clear();
  sensor_end_events_.swap(pending_sensor_end_events_);
  pending_sensor_end_events_.clear();

  if (fixed_changes_ >= kFixedRebuildMin && fixed_changes_ * kFixedRebuildFraction >= fixed_count_) optimize_fixed();

  // 1. Pair finding, the moved proxies in Z-order (queries in a row then share cached nodes).
  moving_tree_.sort_moved();
  fixed_tree_.sort_moved();
  const std::size_t moved = moving_tree_.moved().size() + fixed_tree_.moved().size();
  const int find_tasks = int((moved + kFindChunk - 1) / kFindChunk);
  if (scratch_->found.size() < std::size_t(find_tasks)) scratch_->found.resize(std::size_t(find_tasks));
  parallel_for(find_tasks, [](int i, void* self) { static_cast<CollisionWorld*>(self)->find_pairs_chunk(i); }, this);

  // 2. New pairs, in task order, each linked at the head of both colliders' lists.
  int new_pairs = 0;
  for (int t = 0; t < find_tasks; ++t) {
    for (const std::uint64_t key : scratch_->found[std::size_t(t)]) {
      std::uint32_t slot = free_pair_ != kNone ? free_pair_ : std::uint32_t(pairs_.size());
      if (!pair_set_->insert(key, slot)) continue;  // found twice (the rules above prevent it)
      if (slot == pairs_.size()) {
        pairs_.emplace_back();
      } else {
        free_pair_ = pairs_[slot].next[0];
      }
      ++new_pairs;
      Pair& pair = pairs_[slot];
      const std::uint32_t a = std::uint32_t(key >> 32), b = std::uint32_t(key);
      pair.id[0] = id_of(a);
      pair.id[1] = id_of(b);
      pair.manifold = Manifold{};
      pair.sensor = hot_[a].sensor ? 1 : hot_[b].sensor ? 2 : 0;
      pair.touching = pair.touching_now = false;
      pair.fresh = true;
      pair.doomed = false;
      for (int side = 0; side < 2; ++side) {
        const std::uint32_t c = pair.id[side].index;
        const std::uint32_t head = hot_[c].pair_head;
        pair.prev[side] = kNone;
        pair.next[side] = head;
        if (head != kNone) {
          Pair& h = pairs_[head];
          h.prev[h.side_of(c)] = slot;
        }
        hot_[c].pair_head = slot;
      }
    }
  }
  moving_tree_.clear_moved();
  fixed_tree_.clear_moved();

  // 3. Narrowphase.
  const int collide_tasks = int((pairs_.size() + kCollideChunk - 1) / kCollideChunk);
  scratch_->collided.assign(std::size_t(collide_tasks), 0);
  parallel_for(collide_tasks, [](int i, void* self) { static_cast<CollisionWorld*>(self)->collide_chunk(i); }, this);

  // 4. Events, removals and contacts, in pair order.
  contacts_.clear();
  int pair_count = 0;
  for (std::uint32_t p = 0; p < pairs_.size(); ++p) {
    Pair& pair = pairs_[p];
    if (pair.free()) continue;
    const bool now = pair.touching_now;
    if (pair.touching != now) {
      if (pair.sensor) {
        (now ? sensor_begin_events_ : sensor_end_events_)
            .push_back(pair.sensor == 1 ? SensorEvent{pair.id[0], pair.id[1]} : SensorEvent{pair.id[1], pair.id[0]});
      } else {
        (now ? begin_events_ : end_events_).push_back({pair.id[0], pair.id[1]});
      }
    }
    pair.touching = now;
    pair.fresh = false;
    if (pair.doomed) {
      unlink_pair(p, 0);
      unlink_pair(p, 1);
      free_pair(p);
      continue;
    }
    ++pair_count;
    if (now && !pair.sensor) contacts_.push_back({pair.id[0], pair.id[1], pair.manifold});
  }

  int collided = 0;
  for (const int n : scratch_->collided) collided += n;
  last_stats_.pairs = pair_count;
  last_stats_.contacts = int(contacts_.size());
  last_stats_.collided = collided;
  last_stats_.new_pairs = new_pairs;
  ++step_;
}

bool CollisionWorld::validate() const {
  if (!moving_tree_.validate() || !fixed_tree_.validate()) return false;
  int live = 0, fixed = 0;
  std::size_t pair_links = 0;
  for (std::uint32_t i = 0; i < hot_.size(); ++i) {
    const Hot& h = hot_[i];
    if (!h.live) continue;
    const Collider& c = colliders_[i];
    ++live;
    fixed += h.fixed ? 1 : 0;
    const AabbTree& tree = tree_of(i);
    if (h.fixed != c.options.fixed || h.sensor != c.options.sensor || !(h.filter == c.options.filter)) return false;
    if (!tree.is_proxy(h.proxy) || tree.user_data(h.proxy) != i || !pebble::contains(tree.fat_box(h.proxy), c.box)) return false;
    if (!(c.box == collider_box(c.shape, c.xf, settings_.contact_margin))) return false;
    // Its list: every pair names it, and links back.
    std::uint32_t prev = kNone;
    for (std::uint32_t p = h.pair_head; p != kNone;) {
      if (p >= pairs_.size() || pairs_[p].free()) return false;
      const Pair& pair = pairs_[p];
      const int side = pair.a() == i ? 0 : pair.b() == i ? 1 : -1;
      if (side < 0 || pair.prev[side] != prev || !(pair.id[side] == id_of(i))) return false;
      if (++pair_links > 2 * pairs_.size()) return false;
      prev = p;
      p = pair.next[side];
    }
  }
  if (live != live_ || fixed != fixed_count_ || moving_tree_.proxy_count() + fixed_tree_.proxy_count() != live) return false;
  std::size_t pairs = 0, contacts = 0;
  for (const Pair& pair : pairs_) {
    if (pair.free()) continue;
    ++pairs;
    if (!(pair.a() < pair.b()) || pair.b() >= hot_.size() || !hot_[pair.a()].live || !hot_[pair.b()].live) return false;
    if (!pair_set_->contains(pair_key(pair.a(), pair.b()))) return false;
    // A pair the filters refuse lives only until the update after the filter change.
    if (!can_pair(pair.a(), pair.b()) && hot_[pair.a()].filtered_at != step_ && hot_[pair.b()].filtered_at != step_) return false;
    if (pair.touching && !pair.sensor) ++contacts;
  }
  if (pairs != pair_set_->count || 2 * pairs != pair_links) return false;
  // contacts() is as of the last update: it matches the pairs unless colliders were removed since.
  return pending_end_events_.empty() && pending_sensor_end_events_.empty() ? contacts == contacts_.size() : true;
}

WorldStats CollisionWorld::stats() const {
  WorldStats s = last_stats_;
  s.colliders = live_;
  s.fixed = fixed_count_;
  s.moving_tree = moving_tree_.stats();
  s.fixed_tree = fixed_tree_.stats();
  return s;
}

// ---------------------------------------------------------------------------------------------
// Scene queries.

bool CollisionWorld::query_sees(std::uint32_t index, const QueryFilter& filter) const noexcept {
  const Hot& h = hot_[index];
  return (h.filter.category & filter.mask) != 0 && (filter.sensors || !h.sensor);
}

// The swept-box traversal of both trees that every cast shares: cast_one(index) casts against one
// collider the filter passes; hits before the current end of the sweep go to on_hit, whose answer
// ignores (< 0), stops (0) or shortens the sweep.
void CollisionWorld::sweep(const Ray& ray, Vec2 half_extents, const QueryFilter& filter,
                           detail::CallbackRef<CastHit(std::uint32_t)> cast_one,
                           detail::CallbackRef<float(const RayResult&)> on_hit) const {
  float max_fraction = 1;
  for (const AabbTree* tree : {&moving_tree_, &fixed_tree_}) {
    max_fraction = tree->cast_box(ray.origin, half_extents, ray.translation, max_fraction, [&](ProxyId p, float current) {
      const std::uint32_t index = std::uint32_t(tree->user_data(p));
      if (!query_sees(index, filter)) return current;
      const CastHit hit = cast_one(index);
      if (!hit.hit || hit.fraction > current) return current;
      const float answer = on_hit(RayResult{id_of(index), hit});
      if (answer < 0) return current;
      return std::min(current, answer);
    }, filter.mask);
    if (!(max_fraction > 0)) return;
  }
}

void CollisionWorld::ray_impl(const Ray& ray, float radius, const QueryFilter& filter,
                              detail::CallbackRef<float(const RayResult&)> on_hit) const {
  if (!valid_ray(ray) || !(radius >= 0) || !(radius <= kMaxShapeExtent)) return;
  const auto cast_one = [&](std::uint32_t index) {
    const Collider& c = colliders_[index];
    return radius > 0 ? raycast(c.shape, c.xf, ray, radius) : raycast(c.shape, c.xf, ray);
  };
  const float reach = radius + coordinate_slack(ray.origin, ray.origin + ray.translation);
  sweep(ray, {reach, reach}, filter, cast_one, on_hit);
}

void CollisionWorld::shape_cast_impl(const Shape& shape, const Transform& xf, Vec2 translation, const QueryFilter& filter,
                                     const ShapeCastOptions& options, detail::CallbackRef<float(const RayResult&)> on_hit) const {
  if (!is_valid(xf) || !is_valid_point(translation)) return;
  const float target = options.target_separation;
  if (!(target >= 0) || !(target <= kMaxShapeExtent)) return;
  // The shape's box, grown by the target (shapes that far apart count as touching) and the slacks.
  const Aabb box = grown(bounds(shape, xf), target + kBoxSizeSlack * shape.extent());
  const auto cast_one = [&](std::uint32_t index) {
    const Collider& c = colliders_[index];
    CastHit hit = pebble::shape_cast(shape, xf, translation, c.shape, c.xf, Vec2{}, options);
    hit.normal = -hit.normal;  // the collider's outward normal, as for rays
    return hit;
  };
  const float slack = std::max(coordinate_slack(box.lower, box.upper), coordinate_slack(box.lower + translation, box.upper + translation));
  const Vec2 half = extents(box) + Vec2{slack, slack};
  sweep(Ray{center(box), translation}, half, filter, cast_one, on_hit);
}

std::optional<RayResult> CollisionWorld::cast_ray(const Ray& ray, const QueryFilter& filter) const {
  std::optional<RayResult> best;
  const auto closest = [&](const RayResult& r) {
    best = r;
    return r.hit.fraction;
  };
  ray_impl(ray, 0, filter, closest);
  return best;
}

std::optional<RayResult> CollisionWorld::cast_circle(const Ray& ray, float radius, const QueryFilter& filter) const {
  std::optional<RayResult> best;
  const auto closest = [&](const RayResult& r) {
    best = r;
    return r.hit.fraction;
  };
  ray_impl(ray, radius, filter, closest);
  return best;
}

std::optional<RayResult> CollisionWorld::cast_shape(const Shape& shape, const Transform& xf, Vec2 translation,
                                                    const QueryFilter& filter, const ShapeCastOptions& options) const {
  std::optional<RayResult> best;
  const auto closest = [&](const RayResult& r) {
    best = r;
    return r.hit.fraction;
  };
  shape_cast_impl(shape, xf, translation, filter, options, closest);
  return best;
}

// Calls on_hit for each collider the filter passes whose tree box overlaps `box` and that
// accept(collider) accepts, both trees; stops when on_hit returns false.
template <class Accept>
void CollisionWorld::visit_overlapping(const Aabb& box, const QueryFilter& filter, Accept accept,
                                       detail::CallbackRef<bool(ColliderId)> on_hit) const {
  bool going = true;
  for (const AabbTree* tree : {&moving_tree_, &fixed_tree_}) {
    tree->query(box, filter.mask, [&](ProxyId p) {
      const std::uint32_t index = std::uint32_t(tree->user_data(p));
      if (query_sees(index, filter) && accept(colliders_[index])) going = on_hit(id_of(index));
      return going;
    });
    if (!going) return;
  }
}

void CollisionWorld::within_impl(const Shape& shape, const Transform& xf, float distance, const QueryFilter& filter,
                                 detail::CallbackRef<bool(ColliderId)> on_hit) const {
  if (!is_valid(xf) || !(distance >= 0) || !(distance <= kMaxWorldCoordinate)) return;
  // The query shape's box grown by the distance: every collider within it has its box overlap this.
  const Aabb query = grown(bounds(shape, xf), distance + kBoxSizeSlack * shape.extent());
  visit_overlapping(query, filter, [&](const Collider& c) {
    return distance == 0 ? overlap(c.shape, c.xf, shape, xf) : pebble::distance(c.shape, c.xf, shape, xf).distance <= distance;
  }, on_hit);
}

void CollisionWorld::aabb_impl(const Aabb& box, const QueryFilter& filter, detail::CallbackRef<bool(ColliderId)> on_hit) const {
  if (!is_valid(box) || !is_valid_point(box.lower) || !is_valid_point(box.upper)) return;
  const Vec2 half = extents(box);
  if (half.x <= kMaxShapeExtent && half.y <= kMaxShapeExtent) {
    Transform at;
    const Shape shape = box_shape(box, at);
    within_impl(shape, at, 0, filter, on_hit);
    return;
  }
  // Too large for a Shape: a collider overlaps the box exactly when it overlaps the part of the box
  // inside its own tree box, which holds it.
  visit_overlapping(box, filter, [&](const Collider& c) {
    Aabb part{max(box.lower, c.box.lower), min(box.upper, c.box.upper)};
    if (!is_valid(part)) return false;
    if (!(extents(part).x <= kMaxShapeExtent && extents(part).y <= kMaxShapeExtent)) {
      // A shape up to 2.4e7 from its position, or a large contact margin: clipped also to the
      // shape's bounds grown by 1e-3 of its size (beyond what overlap() could call touching),
      // which are at most 4.9e7 wide, then asked tile by tile.
      const Aabb near = grown(bounds(c.shape, c.xf), kBoxSizeSlack * c.shape.extent());
      part = {max(part.lower, near.lower), min(part.upper, near.upper)};
      return is_valid(part) && overlaps_box(c.shape, c.xf, part);
    }
    Transform at;
    const Shape shape = box_shape(part, at);
    return overlap(c.shape, c.xf, shape, at);
  }, on_hit);
}

void CollisionWorld::point_impl(Vec2 point, const QueryFilter& filter, detail::CallbackRef<bool(ColliderId)> on_hit) const {
  if (!is_valid_point(point)) return;
  visit_overlapping(Aabb{point, point}, filter, [&](const Collider& c) { return pebble::contains(c.shape, c.xf, point); }, on_hit);
}

}  // namespace pebble
