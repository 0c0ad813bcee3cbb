// CollisionWorld's storage and changes: ids and their generations, part slots (a free list for
// single parts, free runs for several), add, remove, set_transform(s), set_shape, set_filter, the
// end events a removal produces, validate() and stats(). The storage itself is world/internal.hpp;
// update() and what it keeps (the pair set) are in update.cpp, the scene queries in queries.cpp.
//
// A change keeps the two trees true at once: set_transform() recomputes the collider's box (its
// shape grown by half the contact margin) and moves its proxies; a proxy that leaves its fat box
// is reinserted and lands in its tree's moved() list, which is all update() needs to find new pairs.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "world/internal.hpp"
#include "world/recorder.hpp"
#include "world/thread_pool.hpp"

namespace pebble {
namespace {

// Each world takes a serial number from here; ids carry it, so an id of another world is refused.
std::atomic<std::uint32_t> g_next_serial{1};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Construction.

WorldImpl::WorldImpl(const WorldSettings& settings)
    : settings_(settings),
      serial_(g_next_serial.fetch_add(1, std::memory_order_relaxed)),
      moving_tree_(settings.tree),
      fixed_tree_(TreeSettings{0, 0, 0}),
      pair_set_(std::make_unique<PairSet>()),
      scratch_(std::make_unique<Scratch>()) {
  if (!(settings_.contact_margin >= 0) || !std::isfinite(settings_.contact_margin)) settings_.contact_margin = 0;
  // Reuse bounds that are not positive and finite mean the contract's (ReuseBounds).
  const ReuseBounds bounds = settings_.reuse_bounds;
  reuse_distance_ = bounds.distance > 0 && std::isfinite(bounds.distance) ? bounds.distance : 0.0f;
  reuse_angle_ = bounds.angle > kReuseAngle && std::isfinite(bounds.angle) ? bounds.angle : kReuseAngle;
  if (serial_ == 0) serial_ = g_next_serial.fetch_add(1, std::memory_order_relaxed);  // after 2^32 worlds
#ifndef PEBBLE_NO_THREADS
  if (settings_.task_hook.run == nullptr && settings_.threads > 1)
    pool_ = std::make_unique<detail::ThreadPool>(settings_.threads);
#endif
}

WorldImpl::~WorldImpl() = default;

// ---------------------------------------------------------------------------------------------
// Ids.

std::uint32_t WorldImpl::slot_of(ColliderId id) const noexcept {
  if (id.world != serial_ || id.index >= colliders_.size()) return kNoSlot;
  const Collider& c = colliders_[id.index];
  return c.live && c.generation == id.generation ? id.index : kNoSlot;
}

ColliderId WorldImpl::id_of(std::uint32_t index) const noexcept {
  return {index, colliders_[index].generation, serial_};
}

const AabbTree& WorldImpl::tree_of(std::uint32_t part) const noexcept {
  return hot_[part].fixed ? fixed_tree_ : moving_tree_;
}

int WorldImpl::part_index(std::uint32_t part) const noexcept { return int(hot_[part].part_no); }

bool WorldImpl::contains(ColliderId id) const noexcept { return slot_of(id) != kNoSlot; }

const Shape* WorldImpl::shape(ColliderId id) const noexcept {
  const std::uint32_t i = slot_of(id);
  return i != kNoSlot ? &parts_[colliders_[i].first_part].shape() : nullptr;
}

int WorldImpl::part_count(ColliderId id) const noexcept {
  const std::uint32_t i = slot_of(id);
  return i != kNoSlot ? int(colliders_[i].part_count) : 0;
}

const Shape* WorldImpl::part(ColliderId id, int part) const noexcept {
  const std::uint32_t i = slot_of(id);
  if (i == kNoSlot || part < 0 || std::uint32_t(part) >= colliders_[i].part_count) return nullptr;
  return &parts_[colliders_[i].first_part + std::uint32_t(part)].shape();
}

const Transform* WorldImpl::transform(ColliderId id) const noexcept {
  const std::uint32_t i = slot_of(id);
  return i != kNoSlot ? &colliders_[i].xf : nullptr;
}

const ColliderOptions* WorldImpl::options(ColliderId id) const noexcept {
  const std::uint32_t i = slot_of(id);
  return i != kNoSlot ? &colliders_[i].options : nullptr;
}

Aabb WorldImpl::box(ColliderId id) const noexcept {
  const std::uint32_t i = slot_of(id);
  if (i == kNoSlot) return Aabb{};
  const Collider& c = colliders_[i];
  Aabb box = parts_[c.first_part].box;
  for (std::uint32_t k = 1; k < c.part_count; ++k) box = combine(box, parts_[c.first_part + k].box);
  return box;
}

// ---------------------------------------------------------------------------------------------
// Part slots: a collider of one part takes a slot from a free list, one of several parts the first
// free run at least as long (the rest of the run stays free), else the free run that ends the
// table grown to the length needed, else new slots at the end. Free runs are kept in slot order and
// merged with their neighbours when freed, so colliders of many parts that come and go (a compound
// that grows each time it is made again) reuse the table instead of growing it without bound.

std::uint32_t WorldImpl::allocate_parts(std::uint32_t count) {
  if (count == 1 && free_part_ != kNone) {
    const std::uint32_t slot = free_part_;
    free_part_ = hot_[slot].pair_head;
    return slot;
  }
  for (std::size_t r = 0; r < free_ranges_.size(); ++r) {
    auto& [first, length] = free_ranges_[r];
    if (length < count) continue;
    const std::uint32_t slot = first;
    first += count;
    length -= count;
    if (length == 0) free_ranges_.erase(free_ranges_.begin() + std::ptrdiff_t(r));
    return slot;
  }
  std::uint32_t slot = std::uint32_t(hot_.size());
  std::uint32_t grow = count;
  if (!free_ranges_.empty() && free_ranges_.back().first + free_ranges_.back().second == hot_.size()) {
    slot = free_ranges_.back().first;  // the run at the end, too short: extended
    grow = count - free_ranges_.back().second;
    free_ranges_.pop_back();
  }
  if (hot_.size() + grow >= kNone) throw std::length_error("pebble: CollisionWorld::add: too many parts");
  hot_.resize(hot_.size() + grow);
  parts_.resize(parts_.size() + grow);
  return slot;
}

void WorldImpl::release_parts(std::uint32_t first, std::uint32_t count) {
  for (std::uint32_t k = 0; k < count; ++k) hot_[first + k].live = false;
  if (count == 1) {
    hot_[first].pair_head = free_part_;
    free_part_ = first;
    return;
  }
  // In slot order, merged with the runs just before and just after it.
  auto at = std::lower_bound(free_ranges_.begin(), free_ranges_.end(), std::pair{first, 0u});
  at = free_ranges_.insert(at, {first, count});
  if (const auto next = at + 1; next != free_ranges_.end() && at->first + at->second == next->first) {
    at->second += next->second;
    free_ranges_.erase(next);
  }
  if (at != free_ranges_.begin()) {
    const auto before = at - 1;
    if (before->first + before->second == at->first) {
      before->second += at->second;
      free_ranges_.erase(at);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Changes.

namespace {
// The options of the add() overloads that take only user data: terrain (chains, heightfields) is fixed.
ColliderOptions options_of(std::uint64_t user_data, bool fixed) {
  ColliderOptions options;
  options.user_data = user_data;
  options.fixed = fixed;
  return options;
}
}  // namespace

ColliderId WorldImpl::add(const Shape& shape, const Transform& xf, std::uint64_t user_data) {
  return add(std::span<const Shape>(&shape, 1), xf, options_of(user_data, false));
}

ColliderId WorldImpl::add(const Shape& shape, const Transform& xf, const ColliderOptions& options) {
  return add(std::span<const Shape>(&shape, 1), xf, options);
}

ColliderId WorldImpl::add(std::span<const Shape> parts, const Transform& xf, std::uint64_t user_data) {
  return add(parts, xf, options_of(user_data, false));
}

ColliderId WorldImpl::add(std::span<const Shape> parts, const Transform& xf, const ColliderOptions& options) {
  const ColliderId id = add_parts(parts.size(), xf, options, [&](std::size_t k, Part& part) {
    part.piece.shape = parts[k];
    part.chain = false;
  });
  if (recorder_) [[unlikely]]
    recorder_->add_parts(parts, xf, options, id);
  return id;
}

ColliderId WorldImpl::add(const Chain& chain, const Transform& xf, std::uint64_t user_data) {
  return add(chain, xf, options_of(user_data, true));
}

ColliderId WorldImpl::add(const Chain& chain, const Transform& xf, const ColliderOptions& options) {
  const ColliderId id = add_parts(std::size_t(chain.segment_count()), xf, options, [&](std::size_t k, Part& part) {
    part.piece = chain.segment(int(k));
    part.chain = true;
  });
  if (recorder_) [[unlikely]]
    recorder_->add_chain(chain, xf, options, id);
  return id;
}

ColliderId WorldImpl::add(const Heightfield& field, const Transform& xf, std::uint64_t user_data) {
  return add(field, xf, options_of(user_data, true));
}

ColliderId WorldImpl::add(const Heightfield& field, const Transform& xf, const ColliderOptions& options) {
  const ColliderId id = add_parts(std::size_t(field.cell_count()), xf, options, [&](std::size_t k, Part& part) {
    part.piece = field.cell(int(k));
    part.chain = true;
  });
  if (recorder_) [[unlikely]]
    recorder_->add_heightfield(field, xf, options, id);
  return id;
}

template <class Fill>
ColliderId WorldImpl::add_parts(std::size_t part_count, const Transform& xf, const ColliderOptions& options,
                                Fill fill) {
  if (!is_valid(xf)) {
    std::ostringstream out;
    out << "pebble: CollisionWorld::add: the transform is not valid (p = " << xf.p.x << ", " << xf.p.y
        << "; q = " << xf.q.c << ", " << xf.q.s << "): coordinates must be finite and within " << kMaxWorldCoordinate
        << " and the rotation of unit length";
    throw std::invalid_argument(out.str());
  }
  if (part_count == 0) throw std::invalid_argument("pebble: CollisionWorld::add: a collider needs at least one part");
  if (part_count >= kNone / 2) throw std::length_error("pebble: CollisionWorld::add: too many parts");
  std::uint32_t index;
  if (free_collider_ != kNone) {
    index = free_collider_;
    free_collider_ = colliders_[index].first_part;
  } else {
    if (colliders_.size() >= kNone) throw std::length_error("pebble: CollisionWorld::add: too many colliders");
    index = std::uint32_t(colliders_.size());
    colliders_.emplace_back();
  }
  const std::uint32_t count = std::uint32_t(part_count);
  std::uint32_t first;
  try {
    first = allocate_parts(count);
  } catch (...) {
    colliders_[index].first_part = free_collider_;
    free_collider_ = index;
    throw;
  }
  Collider& c = colliders_[index];
  c.xf = xf;
  c.options = options;
  c.first_part = first;
  c.part_count = count;
  c.live = true;
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::uint32_t slot = first + k;
    Part& part = parts_[slot];
    fill(std::size_t(k), part);
    part.shape_changed();
    part.place(xf);
    part.box = collider_box(part.shape(), xf, settings_.contact_margin);
    Hot& h = hot_[slot];
    h.filter = options.filter;
    h.changed_at = h.moved_at = step_;
    h.filtered_at = h.reshaped_at = step_ - 1;
    h.pair_head = kNone;
    h.collider = index;
    h.part_no = k;
    h.several = count > 1;
    h.reuse = settings_.reuse_contacts && !options.fresh_contacts;
    h.chain = part.chain;
    h.live = true;
    h.fixed = options.fixed;
    h.sensor = options.sensor;
    h.proxy = (options.fixed ? fixed_tree_ : moving_tree_).create_proxy(part.box, slot, options.filter.category);
  }
  several_parts_ += count > 1 ? 1 : 0;
  if (options.fixed) {
    fixed_count_ += 1;
    fixed_changes_ += int(count);
  }
  ++live_;
  return id_of(index);
}

bool WorldImpl::remove(ColliderId id) {
  const bool done = remove_collider(id);
  if (recorder_) [[unlikely]]
    recorder_->remove(id, done);
  return done;
}

bool WorldImpl::remove_collider(ColliderId id) {
  const std::uint32_t index = slot_of(id);
  if (index == kNoSlot) return false;
  Collider& c = colliders_[index];
  for (std::uint32_t k = 0; k < c.part_count; ++k) {
    const std::uint32_t slot = c.first_part + k;
    destroy_pairs(slot);
    Hot& h = hot_[slot];
    (h.fixed ? fixed_tree_ : moving_tree_).destroy_proxy(h.proxy);
    h.proxy = kNullProxy;
  }
  if (c.options.fixed) {
    --fixed_count_;
    fixed_changes_ += int(c.part_count);
  }
  several_parts_ -= c.part_count > 1 ? 1 : 0;
  release_parts(c.first_part, c.part_count);
  c.live = false;
  c.part_count = 0;
  --live_;
  // A slot whose generation would wrap is retired, never reused: an old id can never match.
  if (c.generation == std::numeric_limits<std::uint32_t>::max()) return true;
  ++c.generation;
  c.first_part = free_collider_;
  free_collider_ = index;
  return true;
}

// Takes pair p out of the list of its part on `side`.
void WorldImpl::unlink_pair(std::uint32_t p, int side) {
  const Pair& pair = pairs_[p];
  const std::uint32_t part = pair.part[side];
  const std::uint32_t prev = pair.prev[side], after = pair.next[side];
  if (prev != kNone) {
    Pair& q = pairs_[prev];
    q.next[q.side_of(part)] = after;
  } else {
    hot_[part].pair_head = after;
  }
  if (after != kNone) {
    Pair& q = pairs_[after];
    q.prev[q.side_of(part)] = prev;
  }
}

// Forgets pair p (already unlinked) and puts its slot on the free list.
void WorldImpl::free_pair(std::uint32_t p) {
  Pair& pair = pairs_[p];
  pair_set_->erase(pair_key(pair.a(), pair.b()));
  pair.part[0] = kNone;
  pair.next[0] = free_pair_;
  free_pair_ = p;
}

// Whether a part pair that starts (touching) or stops touching starts or ends its collider pair's
// touch: always between colliders of one part each, else when the collider pair's count of
// touching part pairs leaves or reaches 0.
bool WorldImpl::collider_event(const Pair& pair, bool touching) {
  if (!hot_[pair.a()].several && !hot_[pair.b()].several) return true;
  const std::uint64_t key = pair_key(pair.id[0].index, pair.id[1].index);
  if (touching) return touching_parts_[key]++ == 0;
  const auto it = touching_parts_.find(key);
  if (it == touching_parts_.end() || --it->second > 0) return false;
  touching_parts_.erase(it);
  return true;
}

// The end events of a touching pair that stops: per part pair, and per collider pair when it was
// the collider pair's last.
void WorldImpl::end_events_of(const Pair& pair, std::vector<ContactEvent>& ends, std::vector<ContactEvent>& part_ends,
                              std::vector<SensorEvent>& sensor_ends) {
  const int part_a = pair.part_no[0], part_b = pair.part_no[1];
  const bool collider_end = collider_event(pair, false);
  if (pair.sensor) {
    if (collider_end)
      sensor_ends.push_back(pair.sensor == 1 ? SensorEvent{pair.id[0], pair.id[1], part_a, part_b}
                                             : SensorEvent{pair.id[1], pair.id[0], part_b, part_a});
    return;
  }
  part_ends.push_back({pair.id[0], pair.id[1], part_a, part_b});
  if (collider_end) ends.push_back({pair.id[0], pair.id[1], part_a, part_b});
}

// Ends every pair of a part now: touching ones become end events of the next update().
void WorldImpl::destroy_pairs(std::uint32_t part) {
  std::uint32_t p = hot_[part].pair_head;
  while (p != kNone) {
    const Pair& pair = pairs_[p];
    const int side = pair.side_of(part);
    const std::uint32_t next = pair.next[side];
    if (pair.touching) end_events_of(pair, pending_end_events_, pending_end_part_events_, pending_sensor_end_events_);
    unlink_pair(p, 1 - side);  // this part's own list is dropped whole below
    free_pair(p);
    p = next;
  }
  hot_[part].pair_head = kNone;
}

// The collider's parts placed at its transform, their boxes computed (or taken from `boxes`, one
// per part, computed by set_transforms()) and given to their tree.
void WorldImpl::refresh_box(std::uint32_t index, Vec2 displacement, const Aabb* boxes) {
  const Collider& c = colliders_[index];
  for (std::uint32_t k = 0; k < c.part_count; ++k) {
    const std::uint32_t slot = c.first_part + k;
    Part& part = parts_[slot];
    Hot& h = hot_[slot];
    part.place(c.xf);
    part.box = boxes != nullptr ? boxes[k] : collider_box(part.shape(), c.xf, settings_.contact_margin);
    h.changed_at = step_;
    bool reinserted;
    if (h.fixed) {
      reinserted = fixed_tree_.move_proxy(h.proxy, part.box);
      if (reinserted) ++fixed_changes_;
    } else {
      reinserted = moving_tree_.move_proxy(h.proxy, part.box, displacement);
    }
    if (reinserted) h.moved_at = step_;
  }
}

bool WorldImpl::set_transform(ColliderId id, const Transform& xf) {
  const std::uint32_t index = slot_of(id);
  const bool done = index != kNoSlot && is_valid(xf);
  if (recorder_) [[unlikely]]
    recorder_->set_transform(id, xf, done);
  if (!done) return false;
  Collider& c = colliders_[index];
  const Vec2 displacement = xf.p - c.xf.p;
  c.xf = xf;
  refresh_box(index, displacement);
  return true;
}

int WorldImpl::set_transforms(std::span<const ColliderId> ids, std::span<const Transform> transforms) {
  // 1. Which colliders, where each one's part boxes go, and which come again later in the batch.
  const std::size_t n = std::min(ids.size(), transforms.size());
  if (pool_ && settings_.task_hook.run == nullptr && n > std::size_t(kBoxChunk)) pool_->alert();
  Scratch& k = *scratch_;
  k.moves.clear();
  if (k.seen.size() < colliders_.size()) k.seen.resize(colliders_.size(), 0);
  if (++k.batch == 0) {  // the stamps wrapped: start them again
    std::fill(k.seen.begin(), k.seen.end(), 0);
    k.batch = 1;
  }
  std::uint32_t boxes = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t index = slot_of(ids[i]);
    if (index == kNoSlot || !is_valid(transforms[i])) continue;
    const bool again = k.seen[index] == k.batch;
    k.seen[index] = k.batch;
    k.moves.push_back({transforms[i], index, boxes, again, false});
    boxes += colliders_[index].part_count;
  }
  k.boxes.resize(boxes);
  // 2. In parallel: the boxes (each depends only on a part's shape and the new transform), and
  // every collider given once whose parts all stay inside their fat boxes placed outright: it
  // changes only its own records, and its trees would not have changed.
  const int tasks = int((k.moves.size() + kBoxChunk - 1) / kBoxChunk);
  parallel_for(
      tasks,
      [](int task, void* self) {
        WorldImpl& w = *static_cast<WorldImpl*>(self);
        const std::size_t end = std::min(w.scratch_->moves.size(), std::size_t(task + 1) * kBoxChunk);
        for (std::size_t i = std::size_t(task) * kBoxChunk; i < end; ++i) {
          Scratch::Move& m = w.scratch_->moves[i];
          Collider& c = w.colliders_[m.index];
          Aabb* box = w.scratch_->boxes.data() + m.first_box;
          // A collider given again later is left to step 3 whole: an earlier entry's task may be
          // placing it meanwhile, so not even its transform is read here.
          bool kept = !m.again;
          const Vec2 displacement = kept ? m.xf.p - c.xf.p : Vec2{};
          for (std::uint32_t p = 0; p < c.part_count; ++p) {
            const std::uint32_t slot = c.first_part + p;
            box[p] = collider_box(w.parts_[slot].shape(), m.xf, w.settings_.contact_margin);
            const Hot& h = w.hot_[slot];
            kept = kept && (h.fixed ? w.fixed_tree_ : w.moving_tree_).keeps(h.proxy, box[p], displacement);
          }
          if (!kept) continue;
          c.xf = m.xf;
          for (std::uint32_t p = 0; p < c.part_count; ++p) {
            const std::uint32_t slot = c.first_part + p;
            w.parts_[slot].place(m.xf);
            w.parts_[slot].box = box[p];
            w.hot_[slot].changed_at = w.step_;
          }
          m.placed = true;
        }
      },
      this);
  // 3. The rest, with their tree updates, in the order given (an id given twice ends where its
  // last transform puts it, with the displacement from the one before, as set_transform() calls do).
  for (const Scratch::Move& m : k.moves) {
    if (m.placed) continue;
    Collider& c = colliders_[m.index];
    const Vec2 displacement = m.xf.p - c.xf.p;
    c.xf = m.xf;
    refresh_box(m.index, displacement, k.boxes.data() + m.first_box);
  }
  if (recorder_) [[unlikely]]
    recorder_->set_transforms(ids, transforms, int(k.moves.size()));
  return int(k.moves.size());
}

bool WorldImpl::set_shape(ColliderId id, const Shape& shape) {
  const std::uint32_t index = slot_of(id);
  const bool done =
      index != kNoSlot && colliders_[index].part_count == 1 && !parts_[colliders_[index].first_part].chain;
  if (recorder_) [[unlikely]]
    recorder_->set_shape(id, shape, done);
  if (!done) return false;
  parts_[colliders_[index].first_part].piece.shape = shape;
  parts_[colliders_[index].first_part].shape_changed();
  hot_[colliders_[index].first_part].reshaped_at = step_;  // its manifolds are not carried over
  refresh_box(index, {});
  return true;
}

bool WorldImpl::set_filter(ColliderId id, const Filter& filter) {
  const std::uint32_t index = slot_of(id);
  if (recorder_) [[unlikely]]
    recorder_->set_filter(id, filter, index != kNoSlot);
  if (index == kNoSlot) return false;
  Collider& c = colliders_[index];
  c.options.filter = filter;
  for (std::uint32_t k = 0; k < c.part_count; ++k) {
    Hot& h = hot_[c.first_part + k];
    h.filter = filter;
    h.changed_at = h.filtered_at = step_;  // its pairs are checked against the filter again
    AabbTree& tree = h.fixed ? fixed_tree_ : moving_tree_;
    tree.set_category(h.proxy, filter.category);  // what masked scene queries skip by
    tree.touch(h.proxy);                          // and new pairs looked for
  }
  return true;
}

bool WorldImpl::set_user_data(ColliderId id, std::uint64_t user_data) {
  const std::uint32_t index = slot_of(id);
  if (recorder_) [[unlikely]]
    recorder_->set_user_data(id, user_data, index != kNoSlot);
  if (index == kNoSlot) return false;
  colliders_[index].options.user_data = user_data;
  return true;
}

void WorldImpl::optimize_fixed() {
  if (recorder_) [[unlikely]]
    recorder_->optimize_fixed();
  fixed_tree_.rebuild();
  fixed_changes_ = 0;
}

bool WorldImpl::validate() const {
  if (!moving_tree_.validate() || !fixed_tree_.validate()) return false;
  if (hot_.size() != parts_.size()) return false;
  int live = 0, fixed = 0;
  std::size_t live_parts = 0, pair_links = 0;
  for (std::uint32_t i = 0; i < colliders_.size(); ++i) {
    const Collider& c = colliders_[i];
    if (!c.live) continue;
    ++live;
    fixed += c.options.fixed ? 1 : 0;
    if (c.part_count == 0 || c.first_part + std::size_t(c.part_count) > hot_.size()) return false;
    for (std::uint32_t k = 0; k < c.part_count; ++k) {
      const std::uint32_t slot = c.first_part + k;
      const Hot& h = hot_[slot];
      const Part& part = parts_[slot];
      ++live_parts;
      if (!h.live || h.collider != i || h.part_no != k || h.several != (c.part_count > 1) || !(part.xf == c.xf) ||
          h.chain != part.chain)
        return false;
      if (h.fixed != c.options.fixed || h.sensor != c.options.sensor || !(h.filter == c.options.filter)) return false;
      const AabbTree& tree = tree_of(slot);
      if (!tree.is_proxy(h.proxy) || tree.user_data(h.proxy) != slot ||
          !pebble::contains(tree.fat_box(h.proxy), part.box))
        return false;
      if (!(part.box == collider_box(part.shape(), c.xf, settings_.contact_margin))) return false;
      // Its list: every pair names it, and links back.
      std::uint32_t prev = kNone;
      for (std::uint32_t p = h.pair_head; p != kNone;) {
        if (p >= pairs_.size() || pairs_[p].free()) return false;
        const Pair& pair = pairs_[p];
        const int side = pair.a() == slot ? 0 : pair.b() == slot ? 1 : -1;
        if (side < 0 || pair.prev[side] != prev || !(pair.id[side] == id_of(i)) || pair.part_no[side] != int(k))
          return false;
        if (++pair_links > 2 * pairs_.size()) return false;
        prev = p;
        p = pair.next[side];
      }
    }
  }
  if (live != live_ || fixed != fixed_count_ ||
      std::size_t(moving_tree_.proxy_count() + fixed_tree_.proxy_count()) != live_parts)
    return false;
  std::size_t pairs = 0, contacts = 0;
  for (const Pair& pair : pairs_) {
    if (pair.free()) continue;
    ++pairs;
    if (pair.a() >= hot_.size() || pair.b() >= hot_.size() || !hot_[pair.a()].live || !hot_[pair.b()].live)
      return false;
    if (!(pair.id[0].index < pair.id[1].index) || hot_[pair.a()].collider != pair.id[0].index ||
        hot_[pair.b()].collider != pair.id[1].index)
      return false;
    if (!pair_set_->contains(pair_key(pair.a(), pair.b()))) return false;
    // A pair the filters refuse lives only until the update after the filter change.
    if (!can_pair(pair.a(), pair.b()) && hot_[pair.a()].filtered_at != step_ && hot_[pair.b()].filtered_at != step_)
      return false;
    if (pair.touching && !pair.sensor) ++contacts;
  }
  if (pairs != pair_set_->count || 2 * pairs != pair_links) return false;
  // contacts() is as of the last update: it matches the pairs unless colliders were removed since.
  return pending_end_part_events_.empty() && pending_sensor_end_events_.empty() ? contacts == contacts_.size() : true;
}

WorldStats WorldImpl::stats() const {
  WorldStats s = last_stats_;
  s.colliders = live_;
  s.fixed = fixed_count_;
  s.part_slots = int(hot_.size());
  s.moving_tree = moving_tree_.stats();
  s.fixed_tree = fixed_tree_.stats();
  return s;
}

}  // namespace pebble
