// CollisionWorld::update() (docs/world.md has the picture):
//   1. pair finding, in tasks of kFindChunk moved proxies: each task queries the trees and keeps
//      the candidates not yet in the pair set in its own buffer (parallel, read only);
//   2. the buffers are merged into the pair set in task order (serial);
//   3. the narrowphase, in tasks of kCollideChunk pairs: each pair with a changed collider gets its
//      manifold (or sensor overlap) anew or carried over, or is marked for removal when its boxes
//      came apart; in the same pass the task lists its pairs' events, contacts and removals
//      (parallel; each task writes only its own pairs and lists);
//   4. the lists joined in task order: events, removals (serial), contacts() (copied in parallel).
// Tasks are cut by fixed sizes and merged in a fixed order, so the result is the same bit for bit
// for any number of threads and any task hook (the tasks run the same code on the same data).
//
// The pair set holds every pair of parts whose tree boxes overlap (fat boxes for moving colliders,
// tight ones for fixed colliders) and that may touch (filters, not two fixed colliders, not two
// sensors). A tree box changes only when its proxy is reinserted, and then the proxy is in its
// tree's moved() list; so step 1 finds every new pair by querying the trees with the moved proxies
// only, and a pair can only end when one of its colliders changed. Every box holds its shape grown
// by half the contact margin, so the pair set holds every pair within the margin.
#include <algorithm>
#include <unordered_map>

#include "positions.hpp"
#include "world/internal.hpp"
#include "world/recorder.hpp"
#include "world/thread_pool.hpp"

namespace pebble {

// ---------------------------------------------------------------------------------------------
// The update.

bool WorldImpl::can_pair(std::uint32_t a, std::uint32_t b) const noexcept {
  const Hot& ha = hot_[a];
  const Hot& hb = hot_[b];
  return ha.collider != hb.collider && !(ha.fixed && hb.fixed) && !(ha.chain && hb.chain) &&
         !(ha.sensor && hb.sensor) && should_collide(ha.filter, hb.filter);
}

void WorldImpl::parallel_for(int count, void (*task)(int, void*), void* context) {
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
void WorldImpl::find_pairs_chunk(int chunk) {
  std::vector<std::uint64_t>& out = scratch_->found[std::size_t(chunk)];
  out.clear();
  const std::span<const ProxyId> moving = moving_tree_.moved();
  const std::span<const ProxyId> fixed = fixed_tree_.moved();
  const std::size_t total = moving.size() + fixed.size();
  const std::size_t end = std::min(total, std::size_t(chunk + 1) * kFindChunk);
  // Candidates are looked up in the pair set in groups, their slots asked of the cache first, so
  // that the lookups' cache misses overlap (in the order found, as one by one).
  constexpr std::size_t kGroup = 32;
  std::uint64_t group[kGroup];
  std::size_t grouped = 0;
  const auto look_up = [&] {
    for (std::size_t k = 0; k < grouped; ++k) pair_set_->prefetch(group[k]);
    for (std::size_t k = 0; k < grouped; ++k) {
      if (!pair_set_->contains(group[k])) out.push_back(group[k]);
    }
    grouped = 0;
  };
  const auto consider = [&](std::uint32_t a, std::uint32_t b) {
    if (!can_pair(a, b)) return;
    group[grouped++] = pair_key(a, b);
    if (grouped == kGroup) look_up();
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
  look_up();
}

// Task `chunk` of steps 3 and 4: pairs [chunk * kCollideChunk, ...). A pair is looked at only
// when one of its colliders changed; its boxes are compared only when one was reinserted (a tree
// box changes only then), its filters only when one changed. Then each live pair's events, its
// contact and whether it goes are written to the chunk's lists, which update() joins in chunk
// order, so that everything comes out in pair order whatever the threads.
void WorldImpl::collide_chunk(int chunk) {
  const std::size_t begin = std::size_t(chunk) * kCollideChunk;
  const std::size_t end = std::min(pairs_.size(), begin + kCollideChunk);
  Scratch::Chunk& out = scratch_->chunks[std::size_t(chunk)];
  out.clear();
  // Run in order on the calling thread, the chunks append their contacts to contacts_ directly.
  std::vector<ContactPair>& contacts = scratch_->serial ? contacts_ : out.contacts;
  Scratch::Tally& tally = out.tally;
  const auto narrow = [&](Pair& pair) {
    pair.touching_now = pair.touching;
    const std::uint32_t a = pair.a(), b = pair.b();
    const Hot& ha = hot_[a];
    const Hot& hb = hot_[b];
    if (!pair.fresh && ha.changed_at != step_ && hb.changed_at != step_) return;
    if (((ha.moved_at == step_ || hb.moved_at == step_) &&
         !overlaps(tree_of(a).fat_box(ha.proxy), tree_of(b).fat_box(hb.proxy))) ||
        ((ha.filtered_at == step_ || hb.filtered_at == step_) && !can_pair(a, b))) {
      pair.doomed = true;
      pair.touching_now = false;
      return;
    }
    const Part& pa = parts_[a];
    const Part& pb = parts_[b];
    // The parts' own boxes hold their shapes grown by half the margin (and collide()'s tolerance):
    // apart, the parts are farther apart than the margin, and collide() would find no point.
    if (!overlaps(pa.box, pb.box)) {
      ++tally.separated;
      pair.touching_now = false;
      pair.reusable = false;
      pair.manifold.count = 0;
      return;
    }
    if (pair.sensor) {
      ++tally.collided;
      pair.touching_now = overlap(pa.shape(), pa.xf, pb.shape(), pb.xf);
      return;
    }
    if (pair.reusable && ha.reshaped_at != step_ && hb.reshaped_at != step_ && reuse_manifold(pair, pa, pb)) {
      ++tally.reused;
      return;
    }
    ++tally.collided;
    const float margin = settings_.contact_margin;
    if (pa.chain) {
      pair.manifold = collide(pa.piece, pa.xf, pb.shape(), pb.xf, margin);
    } else if (pb.chain) {
      pair.manifold = collide(pb.piece, pb.xf, pa.shape(), pa.xf, margin).flipped();
    } else {
      pair.manifold = collide(pa.shape(), pa.xf, pb.shape(), pb.xf, margin);
    }
    pair.touching_now = pair.manifold.count > 0;
    // A manifold of one point between two cores of 2+ vertices is not carried over within the
    // contract's bounds: its second point, just beyond the margin, may come within it while the
    // pair moves less than the bound, and a solver would then miss the step where both points are
    // there (and lose the first id). Looser bounds (reuse_distance_ > 0) accept that, as Box2D v3's
    // recycling does (ReuseBounds).
    // Looser bounds also keep a pair found apart apart while it moves less than the smaller of the
    // bound and the margin, as Box2D v3 does: it cannot overlap unseen, only begin touching late.
    // A chain segment's manifold is never carried: the ghost rules hand a contact from one segment
    // to the next as it crosses their joint, a jump within any motion bound, and a carried manifold
    // stayed beside the next segment's new one (the same corner twice; tests/reuse_test.cpp).
    pair.reusable = ha.reuse && hb.reuse && !ha.chain && !hb.chain &&
                    (pair.touching_now ? pair.manifold.count == 2 || reuse_distance_ > 0 ||
                                             pa.shape().vertex_count() == 1 || pb.shape().vertex_count() == 1
                                       : reuse_distance_ > 0);
    if (pair.reusable) keep_for_reuse(pair, pa, pb);
  };
  for (std::size_t i = begin; i < end; ++i) {
    Pair& pair = pairs_[i];
    if (pair.free()) continue;
    narrow(pair);
    const bool now = pair.touching_now;
    if (pair.touching != now) {
      const int part_a = pair.part_no[0], part_b = pair.part_no[1];
      if (!pair.sensor) (now ? out.begin_part : out.end_part).push_back({pair.id[0], pair.id[1], part_a, part_b});
      if (hot_[pair.a()].several || hot_[pair.b()].several) {
        out.changes.push_back(
            {pair_key(pair.id[0].index, pair.id[1].index), {pair.id[0], pair.id[1], part_a, part_b}, pair.sensor, now});
      } else if (pair.sensor) {
        (now ? out.sensor_begin : out.sensor_end)
            .push_back(pair.sensor == 1 ? SensorEvent{pair.id[0], pair.id[1], part_a, part_b}
                                        : SensorEvent{pair.id[1], pair.id[0], part_b, part_a});
      } else {
        (now ? out.begin : out.end).push_back({pair.id[0], pair.id[1], part_a, part_b});
      }
    }
    pair.touching = now;
    pair.fresh = false;
    if (pair.doomed) {
      out.doomed.push_back(std::uint32_t(i));
      continue;
    }
    ++out.pairs;
    if (now && !pair.sensor)
      contacts.push_back({pair.id[0], pair.id[1], pair.manifold, pair.part_no[0], pair.part_no[1]});
  }
}

// Where part b's core centroid is and how it is turned, in part a's frame.
inline void WorldImpl::relative_motion(const Part& pa, const Part& pb, Vec2& p, Rot& q) {
  p = inv_rotate(pa.xf.q, pb.world_centroid - pa.world_centroid);
  q = inv_mul(pa.xf.q, pb.xf.q);
}

// Keeps what reuse_manifold() needs of the manifold collide() just made: each point's surface
// points (the point minus and plus half its separation along the normal) in their parts' frames.
void WorldImpl::keep_for_reuse(Pair& pair, const Part& pa, const Part& pb) const {
  const Manifold& m = pair.manifold;
  for (int i = 0; i < m.count; ++i) {
    const ContactPoint& cp = m.points[i];
    const Vec2 half = (0.5f * cp.separation) * m.normal;
    pair.anchor[i][0] = inv_transform_point(pa.xf, cp.point - half);
    pair.anchor[i][1] = inv_transform_point(pb.xf, cp.point + half);
  }
  pair.local_normal = inv_rotate(pa.xf.q, m.normal);
  relative_motion(pa, pb, pair.relative_p, pair.relative_q);
  pair.reuse_limit = m.count > 0 ? std::max(kReuseFraction * std::min(pa.extent, pb.extent), reuse_distance_)
                                 : std::min(reuse_distance_, settings_.contact_margin);
  // One point (a 1-vertex core on one side): the normal may join two round features, and then
  // turns by the motion across it over their distance, radii included. Looser bounds let the
  // normal turn with part a only (ReuseBounds), so they bound the turn of the parts alone.
  pair.normal_lever = m.count == 1 && reuse_distance_ == 0
                          ? std::max(0.0f, pa.shape().radius() + pb.shape().radius() + m.points[0].separation)
                          : kInfinity;
}

// The manifold of the last collide() carried to the parts' transforms now, when part b moved
// relative to part a within the bounds (kReuseFraction and kReuseAngle, which internal.hpp
// derives, or WorldSettings::reuse_bounds when larger) and every carried point stays within the
// margin; false (nothing changed) otherwise. An empty manifold (looser bounds only) stays empty.
bool WorldImpl::reuse_manifold(Pair& pair, const Part& pa, const Part& pb) const {
  Vec2 p;
  Rot q;
  relative_motion(pa, pb, p, q);
  // The chord |q - q0| is how far a unit vector of b turned; a point of b at most extent() from
  // its core centroid moved by at most |p - p0| + chord x extent() in a's frame.
  const Vec2 turn{q.c - pair.relative_q.c, q.s - pair.relative_q.s};
  const float chord = length(turn);
  const float moved = length(p - pair.relative_p) + chord * pb.extent;
  // (A face's normal has no lever: the division, slow and then 0, is skipped.)
  const float swing = pair.normal_lever == kInfinity ? 0.0f : moved / pair.normal_lever;
  if (!(moved <= pair.reuse_limit && chord + swing <= reuse_angle_)) return false;
  const float margin = settings_.contact_margin;
  Manifold& m = pair.manifold;
  const Vec2 normal = rotate(pa.xf.q, pair.local_normal);
  ContactPoint points[2];
  for (int i = 0; i < m.count; ++i) {
    const Position on_a = transform_point(pa.xf, pair.anchor[i][0]);
    const Position on_b = transform_point(pb.xf, pair.anchor[i][1]);
    const float separation = dot(on_b - on_a, normal);
    if (!(separation <= margin)) return false;
    points[i].point = PEBBLE_MIDPOINT(on_a, on_b);
    points[i].separation = separation;
  }
  m.normal = normal;
  for (int i = 0; i < m.count; ++i) {
    m.points[i].point = points[i].point;
    m.points[i].separation = points[i].separation;
  }
  return true;
}

void WorldImpl::update() {
  if (pool_ && settings_.task_hook.run == nullptr) pool_->alert();  // the first job comes soon
  begin_events_.clear();
  end_events_.swap(pending_end_events_);
  pending_end_events_.clear();
  begin_part_events_.clear();
  end_part_events_.swap(pending_end_part_events_);
  pending_end_part_events_.clear();
  sensor_begin_events_.clear();
  sensor_end_events_.swap(pending_sensor_end_events_);
  pending_sensor_end_events_.clear();

  if (fixed_changes_ >= kFixedRebuildMin && fixed_changes_ * kFixedRebuildFraction >= fixed_tree_.proxy_count())
    optimize_fixed();

  // 1. Pair finding, the moved proxies in Z-order (queries in a row then share cached nodes).
  moving_tree_.sort_moved();
  fixed_tree_.sort_moved();
  const std::size_t moved = moving_tree_.moved().size() + fixed_tree_.moved().size();
  const int find_tasks = int((moved + kFindChunk - 1) / kFindChunk);
  if (scratch_->found.size() < std::size_t(find_tasks)) scratch_->found.resize(std::size_t(find_tasks));
  parallel_for(
      find_tasks, [](int i, void* self) { static_cast<WorldImpl*>(self)->find_pairs_chunk(i); }, this);

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
      // Side 0 is the part of the collider with the lower slot (with one part per collider, the
      // part slots are in the same order).
      std::uint32_t a = std::uint32_t(key >> 32), b = std::uint32_t(key);
      if (hot_[a].collider > hot_[b].collider) std::swap(a, b);
      pair.part[0] = a;
      pair.part[1] = b;
      pair.id[0] = id_of(hot_[a].collider);
      pair.id[1] = id_of(hot_[b].collider);
      pair.part_no[0] = part_index(a);
      pair.part_no[1] = part_index(b);
      pair.manifold = Manifold{};
      pair.sensor = hot_[a].sensor ? 1 : hot_[b].sensor ? 2 : 0;
      pair.touching = pair.touching_now = false;
      pair.reusable = false;
      pair.fresh = true;
      pair.doomed = false;
      for (int side = 0; side < 2; ++side) {
        const std::uint32_t c = pair.part[side];
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

  // 3. Narrowphase, with each chunk's events, removals and contacts, in pair order.
  const int collide_tasks = int((pairs_.size() + kCollideChunk - 1) / kCollideChunk);
  if (scratch_->chunks.size() < std::size_t(collide_tasks)) scratch_->chunks.resize(std::size_t(collide_tasks));
  scratch_->serial = collide_tasks <= 1 || (settings_.task_hook.run == nullptr && !pool_);
  contacts_.clear();
  parallel_for(
      collide_tasks, [](int i, void* self) { static_cast<WorldImpl*>(self)->collide_chunk(i); }, this);

  // 4. The chunks joined: events and removals here, the contacts copied in parallel.
  int pair_count = 0;
  Scratch::Tally total;
  std::size_t contact_count = 0;
  for (int t = 0; t < collide_tasks; ++t) {
    Scratch::Chunk& c = scratch_->chunks[std::size_t(t)];
    const auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
    append(begin_part_events_, c.begin_part);
    append(end_part_events_, c.end_part);
    append(begin_events_, c.begin);
    append(end_events_, c.end);
    append(sensor_begin_events_, c.sensor_begin);
    append(sensor_end_events_, c.sensor_end);
    append(scratch_->changes, c.changes);
    for (const std::uint32_t p : c.doomed) {
      unlink_pair(p, 0);
      unlink_pair(p, 1);
      free_pair(p);
    }
    pair_count += c.pairs;
    total.collided += c.tally.collided;
    total.reused += c.tally.reused;
    total.separated += c.tally.separated;
    c.first_contact = contact_count;
    contact_count += c.contacts.size();  // 0 when serial: they are in contacts_ already
  }
  if (!scratch_->serial) {
    contacts_.resize(contact_count);
    parallel_for(
        collide_tasks,
        [](int i, void* self) {
          WorldImpl& w = *static_cast<WorldImpl*>(self);
          const Scratch::Chunk& c = w.scratch_->chunks[std::size_t(i)];
          std::copy(c.contacts.begin(), c.contacts.end(), w.contacts_.begin() + std::ptrdiff_t(c.first_contact));
        },
        this);
  }

  collider_events();

  last_stats_.reused = total.reused;
  last_stats_.separated = total.separated;
  last_stats_.pairs = pair_count;
  last_stats_.contacts = int(contacts_.size());
  last_stats_.collided = total.collided;
  last_stats_.new_pairs = new_pairs;
  ++step_;
  if (recorder_) [[unlikely]]
    recorder_->update(digest_of({contacts_, begin_events_, end_events_, begin_part_events_, end_part_events_,
                                 sensor_begin_events_, sensor_end_events_}),
                      contacts_.size());
}

// The collider events of colliders of several parts, from step 4's changes: a collider pair begins
// touching when its count of touching part pairs leaves 0 (the event names its first part pair to
// begin) and ends when the count reaches 0 (naming its last part pair to end); a pair that loses one
// part pair and gains another in the same update has no event. These events follow the others.
void WorldImpl::collider_events() {
  std::vector<Scratch::Change>& changes = scratch_->changes;
  if (changes.empty()) return;
  std::vector<std::uint64_t>& keys = scratch_->keys;
  keys.clear();
  struct Count {
    std::uint32_t before, after;
    const Scratch::Change* first_begin = nullptr;
    const Scratch::Change* last_end = nullptr;
  };
  std::unordered_map<std::uint64_t, Count> counts;
  for (const Scratch::Change& c : changes) {
    auto [it, added] = counts.try_emplace(c.key);
    if (added) {
      const auto known = touching_parts_.find(c.key);
      it->second.before = it->second.after = known == touching_parts_.end() ? 0 : known->second;
      keys.push_back(c.key);
    }
    Count& n = it->second;
    if (c.began) {
      ++n.after;
      if (!n.first_begin) n.first_begin = &c;
    } else {
      --n.after;
      n.last_end = &c;
    }
  }
  const auto emit = [&](const Scratch::Change& c, bool began) {
    const ContactEvent& e = c.event;
    if (c.sensor) {
      (began ? sensor_begin_events_ : sensor_end_events_)
          .push_back(c.sensor == 1 ? SensorEvent{e.a, e.b, e.part_a, e.part_b}
                                   : SensorEvent{e.b, e.a, e.part_b, e.part_a});
    } else {
      (began ? begin_events_ : end_events_).push_back(e);
    }
  };
  for (const std::uint64_t key : keys) {
    const Count& n = counts.at(key);
    if (n.before == 0 && n.after > 0) emit(*n.first_begin, true);
    if (n.before > 0 && n.after == 0) emit(*n.last_end, false);
    if (n.after > 0) {
      touching_parts_[key] = n.after;
    } else {
      touching_parts_.erase(key);
    }
  }
  changes.clear();
}

}  // namespace pebble
