// CollisionWorld (pebble/world.hpp) against brute force over the pair queries themselves: random
// worlds of thousands of colliders driven through long sequences of add, move, reshape, filter
// change and remove, whose contacts after every update() equal the O(n^2) set of collide() results
// (manifolds bit for bit), whose events equal the differences between consecutive sets, and whose
// scene queries equal the best (or the set) of cast_ray(), overlap(), distance() and contains() over
// every collider; 1, 2 and 4 threads and a user task hook giving the same bits; stale and foreign
// ids refused; hand-made cases for filters, sensors, fixed colliders, margins and bad input.
#include <gtest/gtest.h>

#include <pebble/cast.hpp>
#include <pebble/chain.hpp>
#include <pebble/mass.hpp>
#include <pebble/point.hpp>
#include <pebble/world.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <tuple>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "cast_cases.hpp"
#include "random_cases.hpp"
#include "random_shapes.hpp"

using namespace pebble;

namespace {

constexpr int kScale = test_random::kSanitizerScale;

constexpr std::uint32_t kNone32 = 0xffffffffu;

// ---------------------------------------------------------------------------------------------
// Random colliders.

Shape random_shape(test_random::Rng& rng, float size) { return test_random::random_collider(rng, size, false); }

using test_random::random_transform;

Filter random_filter(test_random::Rng& rng) {
  Filter f;
  if (rng.chance(0.7)) return f;  // mostly the default
  f.category = std::uint64_t(1) << rng.integer(0, 3);
  f.mask = std::uint64_t(rng.integer(0, 15));
  if (rng.chance(0.3)) f.group = rng.integer(-2, 2);
  return f;
}

// The same shape moved by d in its own frame (a compound's part placed off the collider's origin).
Shape moved(const Shape& shape, Vec2 d) {
  std::vector<Vec2> points;
  for (const Vec2 v : shape.vertices()) points.push_back(v + d);
  if (points.size() == 1) return Shape::circle(shape.radius(), points[0]);
  if (points.size() == 2) return Shape::capsule(points[0], points[1], shape.radius());
  return Shape::polygon(points, shape.radius());
}

// A compound of 2 to 5 random parts spread around the collider's origin, often overlapping.
std::vector<Shape> random_compound(test_random::Rng& rng, float size) {
  std::vector<Shape> parts;
  const int n = rng.integer(2, 5);
  for (int i = 0; i < n; ++i)
    parts.push_back(moved(random_shape(rng, size * float(rng.uniform(0.3, 0.8))), rng.in_disc(size)));
  return parts;
}

// ---------------------------------------------------------------------------------------------
// The brute-force reference: the world's live colliders as the test knows them.

struct Entry {
  std::vector<Shape> parts;  // one for a collider made of one shape
  Transform xf;
  ColliderOptions options;
  std::vector<ChainSegment> segments;  // a chain's (parts then holds their shapes)
};

struct IdLess {
  bool operator()(const ColliderId& a, const ColliderId& b) const {
    return std::tie(a.index, a.generation, a.world) < std::tie(b.index, b.generation, b.world);
  }
};

// Two parts of two colliders: (a, part of a, b, part of b) with a.index < b.index; for sensor pairs
// (sensor, its part, visitor, its part).
struct Key {
  ColliderId a;
  int part_a = 0;
  ColliderId b;
  int part_b = 0;
  friend bool operator==(const Key&, const Key&) = default;
};
struct KeyLess {
  bool operator()(const Key& x, const Key& y) const {
    IdLess less;
    if (less(x.a, y.a)) return true;
    if (less(y.a, x.a)) return false;
    if (x.part_a != y.part_a) return x.part_a < y.part_a;
    if (less(x.b, y.b)) return true;
    if (less(y.b, x.b)) return false;
    return x.part_b < y.part_b;
  }
};
// A hit on one part of one collider.
using PartHit = std::pair<ColliderId, int>;
struct PartHitLess {
  bool operator()(const PartHit& x, const PartHit& y) const {
    IdLess less;
    if (less(x.first, y.first)) return true;
    if (less(y.first, x.first)) return false;
    return x.second < y.second;
  }
};

struct Reference {
  std::map<ColliderId, Entry, IdLess> live;
  float margin = kDefaultContactMargin;

  bool may_pair(const Entry& a, const Entry& b) const {
    return !(a.options.fixed && b.options.fixed) && !(a.options.sensor && b.options.sensor) &&
           !(!a.segments.empty() && !b.segments.empty()) && should_collide(a.options.filter, b.options.filter);
  }

  // Bounding circles far enough apart that no query can find the pair: an independent prune.
  static bool far_apart(const Shape& sa, const Transform& xa, const Shape& sb, const Transform& xb, float reach) {
    const Position ca = transform_point(xa, sa.core_centroid()), cb = transform_point(xb, sb.core_centroid());
    const double gap = std::hypot(double(ca.x) - cb.x, double(ca.y) - cb.y) - sa.extent() - sb.extent();
    return gap > 1.01 * reach + 0.01 * (sa.extent() + sb.extent()) + 1e-3;
  }

  // The touching contact part pairs (manifold count > 0 at the margin), with their manifolds, and
  // the overlapping sensor part pairs as (sensor, visitor).
  void pairs(std::map<Key, Manifold, KeyLess>& contacts, std::set<Key, KeyLess>& sensed) const {
    std::vector<const std::pair<const ColliderId, Entry>*> all;
    for (const auto& e : live) all.push_back(&e);
    for (std::size_t i = 0; i < all.size(); ++i) {
      for (std::size_t j = i + 1; j < all.size(); ++j) {
        const auto* p = all[i];
        const auto* q = all[j];
        if (p->first.index > q->first.index) std::swap(p, q);
        const Entry& a = p->second;
        const Entry& b = q->second;
        if (!may_pair(a, b)) continue;
        for (int ka = 0; ka < int(a.parts.size()); ++ka) {
          for (int kb = 0; kb < int(b.parts.size()); ++kb) {
            const Shape& sa = a.parts[std::size_t(ka)];
            const Shape& sb = b.parts[std::size_t(kb)];
            if (far_apart(sa, a.xf, sb, b.xf, margin)) continue;
            if (a.options.sensor || b.options.sensor) {
              if (overlap(sa, a.xf, sb, b.xf))
                sensed.insert(a.options.sensor ? Key{p->first, ka, q->first, kb} : Key{q->first, kb, p->first, ka});
            } else {
              // A chain's segment collides with its ghosts, one-sided (pebble/chain.hpp).
              const Manifold m = !a.segments.empty() ? collide(a.segments[std::size_t(ka)], a.xf, sb, b.xf, margin)
                                 : !b.segments.empty()
                                     ? collide(b.segments[std::size_t(kb)], b.xf, sa, a.xf, margin).flipped()
                                     : collide(sa, a.xf, sb, b.xf, margin);
              if (m.count > 0) contacts[{p->first, ka, q->first, kb}] = m;
            }
          }
        }
      }
    }
  }
};

bool same_bits(const Manifold& a, const Manifold& b) {
  if (a.count != b.count || std::memcmp(&a.normal, &b.normal, sizeof a.normal) != 0) return false;
  for (int i = 0; i < a.count; ++i)
    if (std::memcmp(&a.points[i], &b.points[i], sizeof a.points[i]) != 0) return false;
  return true;
}

// Part k's ray (or circle) cast and shape cast, one-sided for a chain's segment.
CastResult ray_at(const Entry& e, int k, const Ray& ray, float radius) {
  if (!e.segments.empty()) return cast_ray(e.segments[std::size_t(k)], e.xf, ray, radius);
  const Shape& part = e.parts[std::size_t(k)];
  return radius > 0 ? cast_ray(part, e.xf, ray, radius) : cast_ray(part, e.xf, ray);
}
CastResult cast_at(const Entry& e, int k, const Shape& probe, const Transform& at, Vec2 motion,
                   const ShapeCastOptions& options) {
  if (!e.segments.empty()) return cast_shape(probe, at, motion, e.segments[std::size_t(k)], e.xf, {}, options);
  return cast_shape(probe, at, motion, e.parts[std::size_t(k)], e.xf, {}, options);
}

bool sees(const Entry& e, const QueryFilter& f) {
  return (e.options.filter.category & f.mask) != 0 && (f.sensors || !e.options.sensor);
}

// Every scene query against brute force over every live collider.
void check_queries(const CollisionWorld& world, const Reference& ref, test_random::Rng& rng, float span) {
  QueryFilter filter;
  if (rng.chance(0.3)) filter.mask = std::uint64_t(rng.integer(1, 15));
  filter.sensors = rng.chance(0.3);

  // Closest ray and circle hits, and all hits.
  for (const float radius : {0.0f, float(rng.uniform(0.01, 1))}) {
    const Ray ray{{float(rng.uniform(-span, span)), float(rng.uniform(-span, span))},
                  {float(rng.uniform(-span, span)), float(rng.uniform(-span, span))}};
    std::optional<float> best;
    std::set<PartHit, PartHitLess> all;
    for (const auto& [id, e] : ref.live) {
      if (!sees(e, filter)) continue;
      for (int k = 0; k < int(e.parts.size()); ++k) {
        const CastResult h = ray_at(e, k, ray, radius);
        if (!h.hit) continue;
        all.insert({id, k});
        if (!best || h.fraction < *best) best = h.fraction;
      }
    }
    const WorldCastResult got = radius > 0 ? world.cast_circle(ray, radius, filter) : world.cast_ray(ray, filter);
    ASSERT_EQ(bool(got), best.has_value()) << "radius " << radius;
    if (got) {
      EXPECT_EQ(got.hit.fraction, *best) << "radius " << radius;
      const Entry& e = ref.live.at(got.id);
      ASSERT_LT(std::size_t(got.part), e.parts.size());
      const CastResult again = ray_at(e, got.part, ray, radius);
      EXPECT_TRUE(again.hit);
      EXPECT_EQ(again.fraction, got.hit.fraction);
      EXPECT_EQ(again.point, got.hit.point);
      EXPECT_EQ(again.normal, got.hit.normal);
    }
    std::set<PartHit, PartHitLess> seen;
    const auto collect = [&](const WorldCastResult& r) {
      EXPECT_TRUE(seen.insert({r.id, r.part}).second);
      return 1.0f;
    };
    if (radius > 0) {
      world.cast_circle(ray, radius, collect, filter);
    } else {
      world.cast_ray(ray, collect, filter);
    }
    EXPECT_EQ(seen, all) << "radius " << radius;
  }

  // Overlap and distance with a shape.
  const Shape probe = random_shape(rng, float(rng.log_uniform(0.05, 3)));
  const Transform at = random_transform(rng, span);

  // Shape casts (with and without a target separation): the closest, and all hits.
  const Vec2 motion{float(rng.uniform(-span, span)) / 2, float(rng.uniform(-span, span)) / 2};
  for (const float target : {0.0f, float(rng.uniform(0, 0.3))}) {
    const ShapeCastOptions options{target};
    std::optional<float> best;
    std::set<PartHit, PartHitLess> all;
    for (const auto& [id, e] : ref.live) {
      if (!sees(e, filter)) continue;
      for (int k = 0; k < int(e.parts.size()); ++k) {
        const CastResult h = cast_at(e, k, probe, at, motion, options);
        if (!h.hit) continue;
        all.insert({id, k});
        if (!best || h.fraction < *best) best = h.fraction;
      }
    }
    const WorldCastResult got = world.cast_shape(probe, at, motion, filter, options);
    ASSERT_EQ(bool(got), best.has_value()) << "target " << target;
    if (got) {
      EXPECT_EQ(got.hit.fraction, *best);
      const Entry& e = ref.live.at(got.id);
      ASSERT_LT(std::size_t(got.part), e.parts.size());
      const CastResult again = cast_at(e, got.part, probe, at, motion, options);
      EXPECT_EQ(again.fraction, got.hit.fraction);
      EXPECT_EQ(again.point, got.hit.point);
      EXPECT_EQ(-again.normal, got.hit.normal);
    }
    std::set<PartHit, PartHitLess> seen;
    world.cast_shape(
        probe, at, motion,
        [&](const WorldCastResult& r) {
          return seen.insert({r.id, r.part}).second ? 1.0f : -1.0f;
        },
        filter, options);
    EXPECT_EQ(seen, all) << "target " << target;
  }
  for (const float d : {0.0f, float(rng.uniform(0, 2))}) {
    std::set<ColliderId, IdLess> want, got;
    for (const auto& [id, e] : ref.live) {
      if (!sees(e, filter)) continue;
      for (const Shape& part : e.parts)
        if (d == 0 ? overlap(part, e.xf, probe, at) : distance(part, e.xf, probe, at).distance <= d) want.insert(id);
    }
    const auto collect = [&](ColliderId id) { return got.insert(id).second; };
    if (d == 0) {
      world.overlap_shape(probe, at, collect, filter);
    } else {
      world.within_distance(probe, at, d, collect, filter);
    }
    EXPECT_EQ(got, want) << "distance " << d;
  }

  // Box and point.
  const Vec2 c{float(rng.uniform(-span, span)), float(rng.uniform(-span, span))};
  const Vec2 h{float(rng.uniform(0, 4)), float(rng.uniform(0, 4))};
  const Aabb box{c - h, c + h};
  const Shape box_shape = Shape::box(h.x, h.y);
  const Transform box_at{center(box), Rot::identity()};
  std::set<ColliderId, IdLess> want_box, got_box, want_point, got_point;
  for (const auto& [id, e] : ref.live) {
    if (!sees(e, filter)) continue;
    for (const Shape& part : e.parts) {
      if (overlap(part, e.xf, box_shape, box_at)) want_box.insert(id);
      if (contains(part, e.xf, c)) want_point.insert(id);
    }
  }
  world.overlap_aabb(
      box, [&](ColliderId id) { return got_box.insert(id).second; }, filter);
  world.overlap_point(
      c, [&](ColliderId id) { return got_point.insert(id).second; }, filter);
  EXPECT_EQ(got_box, want_box);
  EXPECT_EQ(got_point, want_point);
}

// One random world driven through `steps` updates. `world_settings` differ between runs that must
// agree bit for bit; the sequence of calls depends only on the seed.
struct Recording {
  std::vector<std::vector<ContactPair>> contacts;
  std::vector<std::vector<ContactEvent>> begins, ends;
  std::vector<std::vector<SensorEvent>> sensor_begins, sensor_ends;
};

void drive(CollisionWorld& world, unsigned seed, int steps, int colliders, bool check, Recording* recording) {
  test_random::Rng rng(seed);
  Reference ref;
  ref.margin = world.settings().contact_margin;
  const float span = std::sqrt(float(colliders)) * 1.2f;
  std::vector<ColliderId> ids;
  std::map<Key, Manifold, KeyLess> previous_contacts;
  std::set<Key, KeyLess> previous_sensed;
  std::vector<ColliderId> removed;

  const auto add_one = [&] {
    ColliderOptions options;
    options.fixed = rng.chance(0.2);
    options.sensor = rng.chance(0.05);
    options.filter = random_filter(rng);
    options.user_data = rng.gen();
    const float size = float(rng.log_uniform(0.05, 2));
    const Transform xf = random_transform(rng, span);
    Entry e{{}, xf, options, {}};
    ColliderId id;
    const double kind = rng.uniform(0, 1);
    if (kind < 0.05) {
      // A chain of 3 to 6 points (open or a loop) around the place.
      std::vector<Vec2> points;
      const int n = rng.integer(3, 6);
      for (int i = 0; i < n; ++i) points.push_back(rng.in_disc(3 * size));
      const Chain chain = rng.chance(0.5) ? Chain::open(points) : Chain::loop(points);
      e.segments.assign(chain.segments().begin(), chain.segments().end());
      for (const ChainSegment& seg : e.segments) e.parts.push_back(seg.shape);
      id = world.add(chain, xf, options);
    } else if (kind < 0.15) {
      e.parts = random_compound(rng, size);
      id = world.add(e.parts, xf, options);
    } else {
      e.parts = {random_shape(rng, size)};
      id = world.add(e.parts[0], xf, options);
    }
    EXPECT_EQ(world.part_count(id), int(e.parts.size()));
    ids.push_back(id);
    ref.live.emplace(id, std::move(e));
  };
  for (int i = 0; i < colliders; ++i) add_one();

  for (int step = 0; step < steps; ++step) {
    // Changes.
    const int changes = colliders / 4;
    for (int k = 0; k < changes; ++k) {
      const std::size_t pick = std::size_t(rng.integer(0, int(ids.size()) - 1));
      const ColliderId id = ids[pick];
      Entry& e = ref.live.at(id);
      const double r = rng.uniform(0, 1);
      if (r < 0.02) {
        ASSERT_TRUE(world.remove(id));
        ref.live.erase(id);
        removed.push_back(id);
        ids[pick] = ids.back();
        ids.pop_back();
        add_one();
      } else if (r < 0.04) {
        e.options.filter = random_filter(rng);
        ASSERT_TRUE(world.set_filter(id, e.options.filter));
      } else if (r < 0.05) {
        const Shape shape = random_shape(rng, float(rng.log_uniform(0.05, 2)));
        if (e.parts.size() == 1 && e.segments.empty()) {
          e.parts[0] = shape;
          ASSERT_TRUE(world.set_shape(id, shape));
        } else {
          ASSERT_FALSE(world.set_shape(id, shape));  // a compound or a chain keeps its parts
        }
      } else if (!e.options.fixed || r < 0.07) {
        // Mostly small steps (and turns), sometimes jumps.
        if (rng.chance(0.95)) {
          e.xf.p += Vec2{float(rng.uniform(-0.1, 0.1)), float(rng.uniform(-0.1, 0.1))};
          e.xf.q = mul(Rot::from_angle(float(rng.uniform(-0.1, 0.1))), e.xf.q);
          e.xf.q = Rot::from_angle(e.xf.q.angle());  // keep it unit
        } else {
          e.xf = random_transform(rng, span);
        }
        ASSERT_TRUE(world.set_transform(id, e.xf));
      }
      // The trees and the pair lists stay consistent after every single change (checked over the
      // first steps: validate() is O(n)).
      if (check && step < 2) {
        ASSERT_TRUE(world.validate()) << "step " << step << " change " << k;
      }
    }
    world.update();
    if (recording) {
      recording->contacts.emplace_back(world.contacts().begin(), world.contacts().end());
      recording->begins.emplace_back(world.touch_begin_events().begin(), world.touch_begin_events().end());
      recording->ends.emplace_back(world.touch_end_events().begin(), world.touch_end_events().end());
      recording->sensor_begins.emplace_back(world.sensor_begin_events().begin(), world.sensor_begin_events().end());
      recording->sensor_ends.emplace_back(world.sensor_end_events().begin(), world.sensor_end_events().end());
    }
    if (!check) continue;

    ASSERT_TRUE(world.validate()) << "step " << step;
    std::map<Key, Manifold, KeyLess> contacts;
    std::set<Key, KeyLess> sensed;
    ref.pairs(contacts, sensed);

    // contacts() == the brute-force set, manifolds bit for bit, each pair once.
    std::map<Key, Manifold, KeyLess> got;
    for (const ContactPair& c : world.contacts()) {
      EXPECT_LT(c.a.index, c.b.index);
      EXPECT_TRUE(got.emplace(Key{c.a, c.part_a, c.b, c.part_b}, c.manifold).second) << "pair listed twice";
    }
    EXPECT_EQ(got.size(), contacts.size()) << "step " << step;
    for (const auto& [key, m] : contacts) {
      const auto it = got.find(key);
      if (it == got.end()) {
        ADD_FAILURE() << "step " << step << ": missing contact " << key.a.index << "." << key.part_a << "-"
                      << key.b.index << "." << key.part_b;
        continue;
      }
      EXPECT_TRUE(same_bits(it->second, m)) << "step " << step << ": manifold differs";
    }
    for (const auto& [key, m] : got) EXPECT_TRUE(contacts.count(key)) << "step " << step << ": extra contact";

    // Events: the differences between consecutive sets (removed colliders' pairs end too), per
    // part pair and per collider pair (a collider event names one of the part pairs that made it).
    const auto colliders_of = [](const auto& keys) {
      std::set<Key, KeyLess> out;
      for (const auto& entry : keys) {
        Key k;
        if constexpr (std::is_same_v<std::decay_t<decltype(entry)>, Key>)
          k = entry;
        else
          k = entry.first;
        out.insert({k.a, 0, k.b, 0});
      }
      return out;
    };
    const auto differences = [](const std::set<Key, KeyLess>& now, const std::set<Key, KeyLess>& before,
                                std::set<Key, KeyLess>& begins, std::set<Key, KeyLess>& ends) {
      for (const Key& k : now)
        if (!before.count(k)) begins.insert(k);
      for (const Key& k : before)
        if (!now.count(k)) ends.insert(k);
    };
    std::set<Key, KeyLess> now_parts, before_parts;
    for (const auto& [key, m] : contacts) now_parts.insert(key);
    for (const auto& [key, m] : previous_contacts) before_parts.insert(key);
    std::set<Key, KeyLess> want_begin, want_end, got_begin, got_end, want_pbegin, want_pend, got_pbegin, got_pend;
    differences(now_parts, before_parts, want_pbegin, want_pend);
    differences(colliders_of(contacts), colliders_of(previous_contacts), want_begin, want_end);
    for (const ContactEvent& e : world.part_touch_begin_events())
      EXPECT_TRUE(got_pbegin.insert({e.a, e.part_a, e.b, e.part_b}).second);
    for (const ContactEvent& e : world.part_touch_end_events())
      EXPECT_TRUE(got_pend.insert({e.a, e.part_a, e.b, e.part_b}).second);
    for (const ContactEvent& e : world.touch_begin_events()) {
      EXPECT_TRUE(got_begin.insert({e.a, 0, e.b, 0}).second);
      EXPECT_TRUE(now_parts.count({e.a, e.part_a, e.b, e.part_b}))
          << "a begin event names a part pair that does not touch";
    }
    for (const ContactEvent& e : world.touch_end_events()) {
      EXPECT_TRUE(got_end.insert({e.a, 0, e.b, 0}).second);
      EXPECT_TRUE(before_parts.count({e.a, e.part_a, e.b, e.part_b}))
          << "an end event names a part pair that did not touch";
    }
    EXPECT_EQ(got_pbegin, want_pbegin) << "step " << step;
    EXPECT_EQ(got_pend, want_pend) << "step " << step;
    EXPECT_EQ(got_begin, want_begin) << "step " << step;
    EXPECT_EQ(got_end, want_end) << "step " << step;
    std::set<Key, KeyLess> want_sbegin, want_send, got_sbegin, got_send;
    differences(colliders_of(sensed), colliders_of(previous_sensed), want_sbegin, want_send);
    for (const SensorEvent& e : world.sensor_begin_events())
      EXPECT_TRUE(got_sbegin.insert({e.sensor, 0, e.visitor, 0}).second);
    for (const SensorEvent& e : world.sensor_end_events())
      EXPECT_TRUE(got_send.insert({e.sensor, 0, e.visitor, 0}).second);
    EXPECT_EQ(got_sbegin, want_sbegin) << "step " << step;
    EXPECT_EQ(got_send, want_send) << "step " << step;
    previous_contacts = std::move(contacts);
    previous_sensed = std::move(sensed);

    // Stale ids are refused and leave the world alone.
    for (const ColliderId& old : removed) {
      EXPECT_FALSE(world.contains(old));
      EXPECT_FALSE(world.set_transform(old, Transform::identity()));
      EXPECT_FALSE(world.remove(old));
      EXPECT_EQ(world.shape(old), nullptr);
    }
    removed.clear();

    if (step % 5 == 0) check_queries(world, ref, rng, span);
  }
}

}  // namespace

// Bit for bit against collide(), so without contact reuse (tests/reuse_test.cpp checks reuse
// against the oracle).
TEST(CollisionWorld, RandomWorldsMatchBruteForce) {
  for (const unsigned seed : {1u, 2u}) {
    CollisionWorld world(WorldSettings{.reuse_contacts = false});
    drive(world, seed, 40 / kScale, 2000 / kScale, true, nullptr);
  }
}

TEST(CollisionWorld, WithoutMarginAndWithABigOne) {
  for (const float margin : {0.0f, 0.3f}) {
    WorldSettings settings;
    settings.contact_margin = margin;
    settings.reuse_contacts = false;
    CollisionWorld world(settings);
    drive(world, 7, 15 / kScale, 1200 / kScale, true, nullptr);
  }
}

TEST(CollisionWorld, ThreadCountsAndTaskHooksGiveTheSameBits) {
  // A hook that runs the tasks backwards on fresh threads: any order, any thread.
  TaskHook backwards;
  backwards.run = [](int count, void (*task)(int, void*), void* context, void*) {
    std::vector<std::thread> threads;
    for (int i = count - 1; i >= 0; --i) threads.emplace_back([=] { task(i, context); });
    for (std::thread& t : threads) t.join();
  };
  std::vector<Recording> runs;
  for (int variant = 0; variant < 4; ++variant) {
    WorldSettings settings;
    settings.threads = variant == 3 ? 1 : 1 << variant;  // 1, 2, 4 threads, then the hook
    if (variant == 3) settings.task_hook = backwards;
    CollisionWorld world(settings);
    Recording r;
    drive(world, 99, 25 / kScale, 3000 / kScale, false, &r);
    runs.push_back(std::move(r));
  }
  const auto same_ids = [](ColliderId x, ColliderId y) { return x.index == y.index && x.generation == y.generation; };
  for (std::size_t v = 1; v < runs.size(); ++v) {
    ASSERT_EQ(runs[v].contacts.size(), runs[0].contacts.size());
    for (std::size_t s = 0; s < runs[0].contacts.size(); ++s) {
      const auto& a = runs[0].contacts[s];
      const auto& b = runs[v].contacts[s];
      ASSERT_EQ(a.size(), b.size()) << "variant " << v << " step " << s;
      for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_TRUE(same_ids(a[i].a, b[i].a) && same_ids(a[i].b, b[i].b))
            << "variant " << v << " step " << s << " contact " << i;
        ASSERT_TRUE(same_bits(a[i].manifold, b[i].manifold)) << "variant " << v << " step " << s << " contact " << i;
      }
      const auto same_events = [&](const auto& x, const auto& y) {
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i) {
          if (std::memcmp(&x[i], &y[i], sizeof x[i]) != 0) {
            // ids differ only in the world serial
            const auto* p = reinterpret_cast<const ColliderId*>(&x[i]);
            const auto* q = reinterpret_cast<const ColliderId*>(&y[i]);
            if (!same_ids(p[0], q[0]) || !same_ids(p[1], q[1])) return false;
          }
        }
        return true;
      };
      EXPECT_TRUE(same_events(runs[0].begins[s], runs[v].begins[s])) << "variant " << v << " step " << s;
      EXPECT_TRUE(same_events(runs[0].ends[s], runs[v].ends[s])) << "variant " << v << " step " << s;
      EXPECT_TRUE(same_events(runs[0].sensor_begins[s], runs[v].sensor_begins[s])) << "variant " << v << " step " << s;
      EXPECT_TRUE(same_events(runs[0].sensor_ends[s], runs[v].sensor_ends[s])) << "variant " << v << " step " << s;
    }
  }
  // The scene is busy enough to exercise several tasks per phase.
  EXPECT_GT(runs[0].contacts.back().size(), 300u / kScale);
}

TEST(CollisionWorld, StaleAndForeignIdsAreRefused) {
  CollisionWorld world, other;
  const Shape s = Shape::box(1, 1);
  const ColliderId a = world.add(s, {{0, 0}, {}}, 7);
  const ColliderId foreign = other.add(s, {{0, 0}, {}}, 8);
  EXPECT_EQ(a.index, foreign.index);  // the same slot and generation in both worlds...
  EXPECT_EQ(a.generation, foreign.generation);
  EXPECT_FALSE(world.contains(foreign));  // ...told apart by the world serial
  EXPECT_FALSE(world.set_transform(foreign, {{5, 5}, {}}));
  EXPECT_FALSE(world.remove(foreign));
  EXPECT_EQ(*world.transform(a), (Transform{{0, 0}, {}}));
  EXPECT_FALSE(world.contains(ColliderId{}));
  EXPECT_FALSE(world.remove(ColliderId{}));
  EXPECT_EQ(world.options(ColliderId{}), nullptr);
  EXPECT_EQ(world.box(ColliderId{}), Aabb{});

  EXPECT_TRUE(world.remove(a));
  const ColliderId b = world.add(s, {{3, 0}, {}}, 9);  // reuses a's slot
  EXPECT_EQ(b.index, a.index);
  EXPECT_NE(b.generation, a.generation);
  EXPECT_FALSE(world.contains(a));
  EXPECT_FALSE(world.set_transform(a, {{0, 0}, {}}));
  EXPECT_FALSE(world.set_filter(a, Filter{}));
  EXPECT_FALSE(world.set_user_data(a, 1));
  EXPECT_FALSE(world.set_shape(a, s));
  EXPECT_FALSE(world.remove(a));
  // b was left alone.
  EXPECT_EQ(*world.transform(b), (Transform{{3, 0}, {}}));
  EXPECT_EQ(world.options(b)->user_data, 9u);
  // A forged id with the slot's next generation is refused too.
  ColliderId forged = b;
  ++forged.generation;
  EXPECT_FALSE(world.contains(forged));
  // Bad transforms are refused by set_transform and thrown by add.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(world.set_transform(b, {{nan, 0}, {}}));
  EXPECT_FALSE(world.set_transform(b, {{0, 0}, {2, 0}}));
  EXPECT_FALSE(world.set_transform(b, {{1e30f, 0}, {}}));
  EXPECT_EQ(*world.transform(b), (Transform{{3, 0}, {}}));
  EXPECT_THROW(world.add(s, {{0, nan}, {}}), std::invalid_argument);
  EXPECT_EQ(world.size(), 1);
  EXPECT_TRUE(world.validate());
}

TEST(CollisionWorld, FiltersDecideWhoTouches) {
  CollisionWorld world;
  const Shape s = Shape::circle(1);
  ColliderOptions red, blue;
  red.filter = {1, 0b01, 0};   // touches only red
  blue.filter = {2, 0b11, 0};  // touches red and blue
  const ColliderId r1 = world.add(s, {{0, 0}, {}}, red);
  const ColliderId r2 = world.add(s, {{1, 0}, {}}, red);
  const ColliderId b1 = world.add(s, {{0, 1}, {}}, blue);
  const ColliderId b2 = world.add(s, {{1, 1}, {}}, blue);
  world.update();
  std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (const ContactPair& c : world.contacts()) pairs.insert({c.a.index, c.b.index});
  // red-red and blue-blue; red-blue not (red's mask lacks blue).
  EXPECT_EQ(pairs, (std::set<std::pair<std::uint32_t, std::uint32_t>>{{r1.index, r2.index}, {b1.index, b2.index}}));
  // A shared negative group never touches, whatever the bits; a shared positive group always.
  EXPECT_TRUE(world.set_filter(b1, {2, 0b11, -1}));
  EXPECT_TRUE(world.set_filter(b2, {2, 0b11, -1}));
  EXPECT_TRUE(world.set_filter(r1, {1, 0, 3}));
  EXPECT_TRUE(world.set_filter(r2, {1, 0, 3}));
  world.update();
  pairs.clear();
  for (const ContactPair& c : world.contacts()) pairs.insert({c.a.index, c.b.index});
  EXPECT_EQ(pairs, (std::set<std::pair<std::uint32_t, std::uint32_t>>{{r1.index, r2.index}}));
  ASSERT_EQ(world.touch_end_events().size(), 1u);
  EXPECT_EQ(world.touch_end_events()[0].a, b1);
  EXPECT_TRUE(world.touch_begin_events().empty());
  // Back on: a begin event.
  EXPECT_TRUE(world.set_filter(b2, Filter{2, 0b11, 0}));
  world.update();
  ASSERT_EQ(world.touch_begin_events().size(), 1u);
  EXPECT_EQ(world.touch_begin_events()[0].b, b2);
  EXPECT_TRUE(world.validate());
}

TEST(CollisionWorld, SensorsReportOverlapsAndNeverContacts) {
  CollisionWorld world;
  ColliderOptions sensor;
  sensor.sensor = true;
  sensor.fixed = true;
  const ColliderId zone = world.add(Shape::box(2, 2), {{0, 0}, {}}, sensor);
  ColliderOptions moving_sensor;
  moving_sensor.sensor = true;
  const ColliderId probe = world.add(Shape::circle(0.5f), {{10, 0}, {}}, moving_sensor);
  ColliderOptions wall;
  wall.fixed = true;
  world.add(Shape::box(1, 1), {{0, 0}, {}}, wall);  // inside the fixed zone: never reported (both fixed)
  const ColliderId ball = world.add(Shape::circle(0.5f), {{5, 0}, {}});
  world.update();
  EXPECT_TRUE(world.sensor_begin_events().empty());
  EXPECT_TRUE(world.contacts().empty());
  // The ball enters the zone: a sensor begin event, no contact.
  world.set_transform(ball, {{2.4f, 0}, {}});
  world.update();
  ASSERT_EQ(world.sensor_begin_events().size(), 1u);
  EXPECT_EQ(world.sensor_begin_events()[0].sensor, zone);
  EXPECT_EQ(world.sensor_begin_events()[0].visitor, ball);
  EXPECT_TRUE(world.contacts().empty());
  // Within the contact margin of the zone but not overlapping: sensors use distance <= 0.
  world.set_transform(ball, {{2.51f, 0}, {}});
  world.update();
  ASSERT_EQ(world.sensor_end_events().size(), 1u);
  // The moving sensor reaches the ball and the wall: two begin events, with itself as sensor.
  world.set_transform(probe, {{1.4f, 0}, {}});
  world.set_transform(ball, {{2.2f, 0}, {}});
  world.update();
  std::set<std::pair<std::uint32_t, std::uint32_t>> events;
  for (const SensorEvent& e : world.sensor_begin_events()) events.insert({e.sensor.index, e.visitor.index});
  EXPECT_TRUE(events.count({probe.index, ball.index}));
  EXPECT_TRUE(events.count({zone.index, ball.index}));
  EXPECT_FALSE(events.count({zone.index, probe.index}));  // sensors do not sense sensors
  // Removing the zone ends its overlap (reported by the next update, with the stale id).
  world.remove(zone);
  world.update();
  bool ended = false;
  for (const SensorEvent& e : world.sensor_end_events()) ended |= e.sensor == zone && e.visitor == ball;
  EXPECT_TRUE(ended);
  // Queries see sensors only when asked.
  int seen = 0;
  world.overlap_point({0.95f, 0}, [&](ColliderId) {
    ++seen;
    return true;
  });
  EXPECT_EQ(seen, 1);  // the wall, not the probe
  QueryFilter with_sensors;
  with_sensors.sensors = true;
  seen = 0;
  world.overlap_point(
      {0.95f, 0},
      [&](ColliderId) {
        ++seen;
        return true;
      },
      with_sensors);
  EXPECT_EQ(seen, 2);
  EXPECT_TRUE(world.validate());
}

TEST(CollisionWorld, FixedCollidersCostNothingWhenStill) {
  CollisionWorld world;
  ColliderOptions fixed;
  fixed.fixed = true;
  // A level of 5000 touching fixed tiles: no pairs among them, ever.
  for (int i = 0; i < 5000; ++i) world.add(Shape::box(0.5f, 0.5f), {{float(i % 100), float(i / 100)}, {}}, fixed);
  world.update();
  WorldStats s = world.stats();
  EXPECT_EQ(s.pairs, 0);
  EXPECT_EQ(s.collided, 0);
  EXPECT_EQ(s.fixed, 5000);
  // One ball resting on the level: its pairs only, and none re-collided while nothing moves.
  const ColliderId ball = world.add(Shape::circle(0.3f), {{10, 49.75f}, {}});  // sinks 0.05 into tile (10, 49)
  world.update();
  s = world.stats();
  EXPECT_EQ(s.contacts, 1);
  EXPECT_GT(s.collided, 0);
  world.update();
  EXPECT_EQ(world.stats().collided, 0);
  EXPECT_EQ(world.contacts().size(), 1u);
  EXPECT_TRUE(world.touch_begin_events().empty());
  // It moves: only its own pairs are collided.
  world.set_transform(ball, {{10.05f, 49.75f}, {}});
  world.update();
  EXPECT_LE(world.stats().collided, 4);
  // A fixed tile can still be moved (from under the ball): the contact ends.
  ColliderId tile{};
  world.overlap_point({10, 49.4f}, [&](ColliderId id) {
    tile = id;
    return false;
  });
  ASSERT_TRUE(world.contains(tile));
  EXPECT_TRUE(world.set_transform(tile, {{-100, -100}, {}}));
  world.update();
  EXPECT_EQ(world.contacts().size(), 0u);
  EXPECT_EQ(world.touch_end_events().size(), 1u);
  EXPECT_TRUE(world.validate());
}

TEST(CollisionWorld, MarginAndPersistentFeatureIds) {
  WorldSettings settings;
  settings.contact_margin = 0.1f;
  CollisionWorld world(settings);
  ColliderOptions ground;
  ground.fixed = true;
  world.add(Shape::box(10, 1), {{0, -1}, {}}, ground);
  // A box 0.05 above the ground: within the margin, two speculative points.
  const ColliderId box = world.add(Shape::box(0.5f, 0.5f), {{0, 0.55f}, {}});
  world.update();
  ASSERT_EQ(world.contacts().size(), 1u);
  const Manifold first = world.contacts()[0].manifold;
  ASSERT_EQ(first.count, 2);
  EXPECT_NEAR(first.points[0].separation, 0.05f, 1e-5f);
  // Slid sideways: same features, same ids.
  world.set_transform(box, {{0.3f, 0.54f}, {}});
  world.update();
  ASSERT_EQ(world.contacts().size(), 1u);
  const Manifold second = world.contacts()[0].manifold;
  ASSERT_EQ(second.count, 2);
  EXPECT_EQ(second.points[0].id, first.points[0].id);
  EXPECT_EQ(second.points[1].id, first.points[1].id);
  EXPECT_TRUE(world.touch_begin_events().empty());
  // Lifted beyond the margin: the contact ends.
  world.set_transform(box, {{0.3f, 0.65f}, {}});
  world.update();
  EXPECT_TRUE(world.contacts().empty());
  EXPECT_EQ(world.touch_end_events().size(), 1u);
}

TEST(CollisionWorld, RemovalEndsTouchingPairsAtTheNextUpdate) {
  CollisionWorld world;
  const ColliderId a = world.add(Shape::circle(1), {{0, 0}, {}});
  const ColliderId b = world.add(Shape::circle(1), {{1.5f, 0}, {}});
  world.update();
  ASSERT_EQ(world.touch_begin_events().size(), 1u);
  EXPECT_TRUE(world.remove(b));
  // contacts() stays as of the last update until the next one.
  EXPECT_EQ(world.contacts().size(), 1u);
  world.update();
  EXPECT_TRUE(world.contacts().empty());
  ASSERT_EQ(world.touch_end_events().size(), 1u);
  EXPECT_EQ(world.touch_end_events()[0].a, a);
  EXPECT_EQ(world.touch_end_events()[0].b, b);  // stale by now
  EXPECT_FALSE(world.contains(b));
  world.update();
  EXPECT_TRUE(world.touch_end_events().empty());
}

TEST(CollisionWorld, QueriesRefuseBadInputAndStop) {
  CollisionWorld world;
  for (int i = 0; i < 10; ++i) world.add(Shape::box(0.4f, 0.4f), {{float(i), 0}, {}});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(bool(world.cast_ray({{nan, 0}, {1, 0}})));
  EXPECT_FALSE(bool(world.cast_ray({{-5, 0}, {1e30f, 0}})));
  EXPECT_FALSE(bool(world.cast_circle({{-5, 0}, {20, 0}}, -1)));
  int calls = 0;
  world.overlap_point({nan, 0}, [&](ColliderId) {
    ++calls;
    return true;
  });
  world.overlap_aabb({{1, 1}, {0, 0}}, [&](ColliderId) {
    ++calls;
    return true;
  });  // inverted
  world.within_distance(Shape::circle(1), {{0, 0}, {}}, -1, [&](ColliderId) {
    ++calls;
    return true;
  });
  EXPECT_EQ(calls, 0);
  // Closest hit along a row: the first box, entered at x = -0.4 from x = -5 over 20: t = 0.23.
  const auto hit = world.cast_ray({{-5, 0}, {20, 0}});
  ASSERT_TRUE(bool(hit));
  EXPECT_NEAR(hit.hit.fraction, 0.23f, 1e-6f);
  EXPECT_EQ(*world.transform(hit.id), (Transform{{0, 0}, {}}));
  // A callback that stops after the first hit, and one that ignores every hit.
  world.cast_ray({{-5, 0}, {20, 0}}, [&](const WorldCastResult&) {
    ++calls;
    return 0.0f;
  });
  EXPECT_EQ(calls, 1);
  calls = 0;
  world.cast_ray({{-5, 0}, {20, 0}}, [&](const WorldCastResult&) {
    ++calls;
    return -1.0f;
  });
  EXPECT_EQ(calls, 10);
  calls = 0;
  world.overlap_aabb({{-10, -10}, {20, 10}}, [&](ColliderId) { return ++calls < 3; });
  EXPECT_EQ(calls, 3);
  // A box too large for a Shape still works (clipped to each collider).
  calls = 0;
  world.overlap_aabb({{-1e9f, -1e9f}, {1e9f, 1e9f}}, [&](ColliderId) {
    ++calls;
    return true;
  });
  EXPECT_EQ(calls, 10);
  // A degenerate box (a segment through the row).
  calls = 0;
  world.overlap_aabb({{-1, 0}, {20, 0}}, [&](ColliderId) {
    ++calls;
    return true;
  });
  EXPECT_EQ(calls, 10);
}

TEST(CollisionWorld, FarCoordinatesAndTinyShapes) {
  // Shapes of size 0.01 near coordinates of 1e4, touching exactly and within the margin.
  CollisionWorld world;
  const Shape tiny = Shape::box(0.005f, 0.005f);
  const ColliderId a = world.add(tiny, {{10000, 10000}, {}});
  const ColliderId b = world.add(tiny, {{10000.01f, 10000}, {}});  // touching (to float rounding)
  world.update();
  Reference ref;
  ref.live.emplace(a, Entry{{tiny}, *world.transform(a), {}, {}});
  ref.live.emplace(b, Entry{{tiny}, *world.transform(b), {}, {}});
  std::map<Key, Manifold, KeyLess> contacts;
  std::set<Key, KeyLess> sensed;
  ref.pairs(contacts, sensed);
  EXPECT_EQ(world.contacts().size(), contacts.size());
  EXPECT_EQ(world.contacts().size(), 1u);
  const auto hit = world.cast_ray({{9999, 10000}, {2, 0}});
  ASSERT_TRUE(bool(hit));
  EXPECT_EQ(hit.id, a);
}

TEST(CollisionWorld, ConstQueriesFromManyThreadsAtOnce) {
  test_random::Rng rng(31);
  CollisionWorld world;
  for (int i = 0; i < 3000 / kScale; ++i) {
    ColliderOptions options;
    options.fixed = rng.chance(0.5);
    world.add(random_shape(rng, float(rng.log_uniform(0.1, 1.5))), random_transform(rng, 60), options);
  }
  world.update();
  struct Query {
    Ray ray;
    Shape shape;
    Transform xf;
  };
  std::vector<Query> queries;
  for (int i = 0; i < 300; ++i) {
    queries.push_back({{{float(rng.uniform(-60, 60)), float(rng.uniform(-60, 60))},
                        {float(rng.uniform(-40, 40)), float(rng.uniform(-40, 40))}},
                       random_shape(rng, 1),
                       random_transform(rng, 60)});
  }
  // One answer per query: the closest ray hit, the closest shape cast and the overlap count.
  const auto answer = [&](const Query& q) {
    const auto ray = world.cast_ray(q.ray);
    const auto cast = world.cast_shape(q.shape, q.xf, q.ray.translation);
    int overlaps = 0;
    world.within_distance(q.shape, q.xf, 0.5f, [&](ColliderId) {
      ++overlaps;
      return true;
    });
    return std::tuple(ray ? ray.id.index : kNone32, ray ? ray.hit.fraction : 2.0f, cast ? cast.id.index : kNone32,
                      cast ? cast.hit.fraction : 2.0f, overlaps);
  };
  std::vector<decltype(answer(queries[0]))> serial;
  for (const Query& q : queries) serial.push_back(answer(q));
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const std::size_t k = (i * 7 + std::size_t(t) * 13) % queries.size();  // each thread its own order
        if (answer(queries[k]) != serial[k]) ++mismatches[std::size_t(t)];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

TEST(CollisionWorld, CastShapeOntoACornerGivesANormalInItsCone) {
  // Corner approaches (tests/cast_cases.hpp) with B a fixed collider and A cast by the relative
  // motion: the hit's normal (the collider's outward normal) lies in the normal cone of the
  // touch, reversed.
  const std::vector<cast_cases::CornerApproach> cases = cast_cases::corner_approaches(74, 10);
  int failures = 0, hits = 0;
  for (const cast_cases::CornerApproach& c : cases) {
    CollisionWorld world;
    const ColliderId id = world.add(c.b.shape, c.xb);
    world.update();
    const Vec2 motion = c.ta - c.tb;
    const WorldCastResult r = world.cast_shape(c.a.shape, c.xa, motion);
    if (!r || !(r.id == id)) continue;
    ++hits;
    const Transform at{c.xa.p + r.hit.fraction * motion, c.xa.q};
    const std::string err = cast_cases::check_in_cone(-r.hit.normal, contact_cases::world(c.a, at),
                                                      contact_cases::world(c.b, c.xb), cast_cases::v(-motion));
    if (!err.empty() && ++failures <= 6)
      ADD_FAILURE() << err << "\n    " << contact_cases::describe(contact_cases::Pair{c.a, c.b, c.xa, c.xb});
  }
  EXPECT_EQ(failures, 0) << failures << " of " << hits << " hits";
  EXPECT_GT(hits, int(cases.size()) * 9 / 10);
}

TEST(CollisionWorld, CompoundsPairByPartsAndReportColliders) {
  // An L of two boxes (parts 0 and 1, in the collider's frame) resting on a fixed floor, a ball on
  // its foot, and colliders of one and several parts added and removed so that part slots are reused.
  CollisionWorld world;
  ColliderOptions floor_options;
  floor_options.fixed = true;
  const ColliderId floor = world.add(Shape::box(10, 0.5f), {{0, -0.5f}, Rot::identity()}, floor_options);
  const std::vector<Shape> l_parts = {Shape::box(1, 0.25f, {0, 0.25f}, 0), Shape::box(0.25f, 1, {-0.75f, 1.5f}, 0)};
  const ColliderId l = world.add(l_parts, {{0, 0}, Rot::identity()});
  const ColliderId ball = world.add(Shape::circle(0.25f), {{0.5f, 0.75f}, Rot::identity()});
  world.update();
  ASSERT_TRUE(world.validate());
  EXPECT_EQ(world.part_count(l), 2);
  EXPECT_EQ(world.part_count(ball), 1);
  ASSERT_NE(world.part(l, 1), nullptr);
  EXPECT_EQ(world.part(l, 1)->vertices()[0], l_parts[1].vertices()[0]);
  EXPECT_EQ(world.part(l, 2), nullptr);
  EXPECT_EQ(world.part(l, -1), nullptr);
  EXPECT_FALSE(world.set_shape(l, Shape::circle(1)));
  const Aabb whole = world.box(l);
  EXPECT_LE(whole.lower.x, -1.0f);
  EXPECT_GE(whole.upper.y, 2.5f);

  // Floor (slot 0) with the L's foot (part 0); the L's foot with the ball; nothing with the upright.
  std::set<std::tuple<std::uint32_t, int, std::uint32_t, int>> touching;
  for (const ContactPair& c : world.contacts()) touching.insert({c.a.index, c.part_a, c.b.index, c.part_b});
  const std::set<std::tuple<std::uint32_t, int, std::uint32_t, int>> want = {{floor.index, 0, l.index, 0},
                                                                             {l.index, 0, ball.index, 0}};
  EXPECT_EQ(touching, want);
  EXPECT_EQ(world.touch_begin_events().size(), 2u);

  // Queries name the part hit, and report a collider once however many parts they meet.
  const auto hit = world.cast_ray({{-3, 2}, {6, 0}});
  ASSERT_TRUE(bool(hit));
  EXPECT_EQ(hit.id, l);
  EXPECT_EQ(hit.part, 1);
  int calls = 0;
  world.overlap_aabb({{-2, 0.1f}, {2, 3}}, [&](ColliderId id) {
    calls += id == l ? 1 : 0;
    return true;
  });
  EXPECT_EQ(calls, 1);
  calls = 0;
  world.overlap_shape(Shape::circle(3), {{0, 1}, Rot::identity()}, [&](ColliderId id) {
    calls += id == l ? 1 : 0;
    return true;
  });
  EXPECT_EQ(calls, 1);

  // Moving the compound moves every part; removing it ends its part pairs.
  ASSERT_TRUE(world.set_transform(l, {{0, 5}, Rot::identity()}));
  world.update();
  EXPECT_EQ(world.contacts().size(), 0u);
  EXPECT_EQ(world.touch_end_events().size(), 2u);
  ASSERT_TRUE(world.set_transform(l, {{0, 0}, Rot::identity()}));
  world.update();
  EXPECT_EQ(world.contacts().size(), 2u);
  ASSERT_TRUE(world.remove(l));
  world.update();
  EXPECT_EQ(world.contacts().size(), 0u);
  EXPECT_EQ(world.touch_end_events().size(), 2u);
  ASSERT_TRUE(world.validate());

  // Freed part ranges are reused: a compound of 3 parts, then colliders of one part, then 2 parts.
  std::vector<ColliderId> ids;
  for (int round = 0; round < 20; ++round) {
    const std::vector<Shape> parts(std::size_t(1 + round % 4), Shape::box(0.1f, 0.1f));
    ids.push_back(world.add(parts, {{float(round), 3}, Rot::identity()}));
    if (round % 3 == 2) {
      ASSERT_TRUE(world.remove(ids[std::size_t(round / 2)]));
    }
    world.update();
    ASSERT_TRUE(world.validate()) << "round " << round;
  }
  EXPECT_THROW(world.add(std::span<const Shape>{}, Transform::identity()), std::invalid_argument);
}

// Colliders of many parts that come and go (a compound rebuilt one part larger each time, between
// other adds and removes) reuse the part table: its length stays within a small multiple of the
// live parts, and the world stays valid and answers as a fresh one does.
TEST(CollisionWorld, PartTableStaysBoundedAsCompoundsComeAndGo) {
  CollisionWorld world;
  std::vector<ColliderId> singles;
  ColliderId compound{};
  int most_live = 0;
  for (int n = 2; n <= 120; ++n) {
    if (world.contains(compound)) world.remove(compound);
    std::vector<Shape> parts;
    for (int k = 0; k < n; ++k) parts.push_back(Shape::circle(0.1f, {0.25f * float(k), 0}));
    compound = world.add(parts, Transform{{0, 0}, Rot::identity()}, ColliderOptions{});
    // Singles and small compounds in between, some removed again.
    singles.push_back(world.add(Shape::box(0.2f, 0.2f), Transform{{float(n), 3}, Rot::identity()}));
    const Shape two[] = {Shape::circle(0.1f), Shape::circle(0.1f, {0.3f, 0})};
    const ColliderId small = world.add(two, Transform{{float(n), 5}, Rot::identity()}, ColliderOptions{});
    if (n % 3 == 0) world.remove(small);
    if (n % 4 == 0) {
      world.remove(singles.front());
      singles.erase(singles.begin());
    }
    world.update();
    int live = 0;
    for (const ColliderId id : {compound}) live += world.part_count(id);
    live += int(singles.size()) + 2 * (n - n / 3 - 1);  // bound from above: the small compounds kept
    most_live = std::max(most_live, live);
    ASSERT_TRUE(world.validate()) << n;
  }
  // A never-merging table would hold the sum of every compound's size (about 7,300 slots).
  EXPECT_LT(world.stats().part_slots, 3 * most_live) << "live parts at most " << most_live;
  std::printf("  part table: %d slots for at most %d live parts\n", world.stats().part_slots, most_live);
  // The last compound touches nothing but answers queries as it should.
  const auto hit = world.cast_ray(Ray{{10.0f, -1}, {0, 2}});
  ASSERT_TRUE(bool(hit));
  EXPECT_EQ(hit.id, compound);
  EXPECT_EQ(hit.part, 40);
}

// parts_in_box() against brute force: every part whose bounds overlap the box is found once, with
// its collider, index, shape, chain segment, transform and kind; nothing far away is found (the
// moving tree's fat boxes reach at most a little beyond); the filter's mask, sensors and fixed
// flag apply; a full buffer gets the first parts and the true count; a bad box finds nothing.
TEST(CollisionWorld, PartsInBoxAreTheTreeCandidatesOfTheBox) {
  CollisionWorld world;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> pos(-8, 8), angle(-3.1f, 3.1f), size(0.1f, 0.8f);
  struct Known {
    ColliderId id;
    std::vector<Shape> parts;
    Transform xf;
    bool fixed, sensor, chain;
    std::uint64_t category;
  };
  std::vector<Known> known;
  for (int i = 0; i < 60; ++i) {
    ColliderOptions o;
    o.fixed = i % 3 == 0;
    o.sensor = i % 7 == 3;
    o.filter.category = i % 5 == 4 ? 2 : 1;
    const Transform xf{{pos(rng), pos(rng)}, Rot::from_angle(angle(rng))};
    std::vector<Shape> parts;
    if (i % 4 == 1) {
      parts = {Shape::box(size(rng), size(rng), {size(rng), 0}, 0.3f), Shape::circle(size(rng), {-size(rng), 0.2f})};
      known.push_back({world.add(parts, xf, o), parts, xf, o.fixed, o.sensor, false, o.filter.category});
    } else {
      parts = {i % 2 == 0 ? Shape::circle(size(rng)) : Shape::capsule({-size(rng), 0}, {size(rng), 0}, 0.1f)};
      known.push_back({world.add(parts[0], xf, o), parts, xf, o.fixed, o.sensor, false, o.filter.category});
    }
  }
  std::vector<Vec2> points;
  for (int k = 40; k >= 0; --k) points.push_back({-10 + 0.5f * float(k), -2 + std::sin(0.7f * float(k))});
  const Chain chain = Chain::open(points);
  ColliderOptions fixed_options;
  fixed_options.fixed = true;
  std::vector<Shape> segments;
  for (const ChainSegment& s : chain.segments()) segments.push_back(s.shape);
  known.push_back(
      {world.add(chain, Transform::identity(), fixed_options), segments, Transform::identity(), true, false, true, 1});
  for (int i = 0; i < 20; ++i)
    ASSERT_TRUE(world.set_transform(known[std::size_t(i)].id, {{pos(rng), pos(rng)}, Rot::from_angle(angle(rng))}));
  for (int i = 0; i < 20; ++i) known[std::size_t(i)].xf = *world.transform(known[std::size_t(i)].id);
  world.update();

  std::vector<PartView> out(512);
  int total = 0;
  for (int q = 0; q < 300; ++q) {
    const Vec2 c{pos(rng), pos(rng)}, half{size(rng) * 3, size(rng) * 3};
    const Aabb box{c - half, c + half};
    QueryFilter filter;
    filter.fixed = q % 3 != 1;
    filter.sensors = q % 4 == 2;
    filter.mask = q % 5 == 0 ? 2 : ~0ull;
    const int n = world.parts_in_box(box, out, filter);
    ASSERT_LE(n, int(out.size()));
    total += n;
    std::set<std::pair<std::uint32_t, int>> found;
    for (int i = 0; i < n; ++i) {
      const PartView& v = out[std::size_t(i)];
      ASSERT_TRUE(found.insert({v.id.index, v.part}).second) << "a part found twice";
      const auto k = std::find_if(known.begin(), known.end(), [&](const Known& x) { return x.id == v.id; });
      ASSERT_NE(k, known.end());
      EXPECT_EQ(v.shape, world.part(v.id, v.part));
      EXPECT_EQ(v.xf.p, k->xf.p);
      EXPECT_EQ(v.fixed, k->fixed);
      EXPECT_EQ(v.segment != nullptr, k->chain);
      if (v.segment != nullptr) {
        EXPECT_EQ(v.segment->a, chain.segment(v.part).a);
        EXPECT_EQ(v.segment->b, chain.segment(v.part).b);
      }
      EXPECT_TRUE(filter.fixed || !k->fixed);
      EXPECT_TRUE(filter.sensors || !k->sensor);
      EXPECT_NE(k->category & filter.mask, 0u);
      // Near: within the moving tree's fat margins (TreeSettings) of the box.
      const Aabb near = inflate(box, 2.0f);
      EXPECT_TRUE(overlaps(near, bounds(k->parts[std::size_t(v.part)], k->xf))) << "query " << q;
    }
    for (const Known& k : known) {
      if ((!filter.fixed && k.fixed) || (!filter.sensors && k.sensor) || (k.category & filter.mask) == 0) continue;
      for (std::size_t p = 0; p < k.parts.size(); ++p) {
        if (overlaps(box, bounds(k.parts[p], k.xf))) {
          EXPECT_TRUE(found.count({k.id.index, int(p)})) << "query " << q << " missed a part";
        }
      }
    }
    // A short buffer: the first parts, and the full count.
    if (n >= 2) {
      std::vector<PartView> two(2);
      EXPECT_EQ(world.parts_in_box(box, two, filter), n);
      EXPECT_EQ(two[0].id, out[0].id);
      EXPECT_EQ(two[1].part, out[1].part);
      EXPECT_EQ(world.parts_in_box(box, std::span<PartView>{}, filter), n);
    }
  }
  EXPECT_GT(total, 500);  // the queries found something to check (933)
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(world.parts_in_box(Aabb{{nan, 0}, {1, 1}}, out), 0);
  EXPECT_EQ(world.parts_in_box(Aabb{{1, 1}, {0, 0}}, out), 0);
}

// Which part pair a collider event names (world.hpp, docs/world.md "Events come at both levels"):
// a compound pair's begin-touch event names its first part pair to begin (the first of that
// collider pair among part_touch_begin_events(), in pair order), its end event the last to end;
// sensor events name the first part pair to overlap and the last to stop. Two combs of four boxes
// (parts 0-3 one metre apart, B's teeth at heights 0.3 x stagger): with no stagger all four part
// pairs begin, and end, in one update; staggered they begin one update apart and end one apart.
// The same moves with the comb A a sensor: the parts a sensor event names are those of the collider
// event of the same world with A not a sensor (the pairs come in the same order).
TEST(CollisionWorld, CompoundEventsNameTheFirstPartPairToBeginAndTheLastToEnd) {
  using Key = std::tuple<std::uint32_t, int, std::uint32_t, int>;
  const auto key = [](const ContactEvent& e) { return Key{e.a.index, e.part_a, e.b.index, e.part_b}; };
  const auto comb = [&](float stagger) {
    std::vector<Shape> parts;
    for (int i = 0; i < 4; ++i) parts.push_back(Shape::box(0.2f, 0.2f, {float(i), stagger * 0.3f * float(i)}, 0));
    return parts;
  };
  for (const bool staggered : {false, true}) {
    SCOPED_TRACE(staggered ? "staggered" : "level");
    // The heights of comb B, update by update: apart, touching (staggered: tooth 0 only, then 0
    // and 1, then all), back up the same way, apart.
    const std::vector<float> heights = staggered ? std::vector<float>{2.0f, 0.35f, 0.05f, -0.55f, 0.05f, 0.35f, 2.0f}
                                                 : std::vector<float>{2.0f, 0.35f, 0.30f, 2.0f};
    CollisionWorld world, sensing;
    const ColliderId a = world.add(comb(0), Transform::identity());
    const ColliderId b = world.add(comb(staggered ? 1.0f : 0.0f), {{0, heights[0]}, Rot::identity()});
    ColliderOptions sensor;
    sensor.sensor = true;
    const ColliderId sa = sensing.add(comb(0), Transform::identity(), sensor);
    const ColliderId sb = sensing.add(comb(staggered ? 1.0f : 0.0f), {{0, heights[0]}, Rot::identity()});
    ASSERT_EQ(a.index, sa.index);
    ASSERT_EQ(b.index, sb.index);
    int touching_parts = 0, begins = 0, ends = 0, several_at_once = 0;
    for (std::size_t u = 0; u < heights.size(); ++u) {
      SCOPED_TRACE("update " + std::to_string(u));
      world.set_transform(b, {{0, heights[u]}, Rot::identity()});
      sensing.set_transform(sb, {{0, heights[u]}, Rot::identity()});
      world.update();
      sensing.update();
      // The part events of (a, b) this update, in their order.
      std::vector<Key> part_begins, part_ends;
      for (const ContactEvent& e : world.part_touch_begin_events()) part_begins.push_back(key(e));
      for (const ContactEvent& e : world.part_touch_end_events()) part_ends.push_back(key(e));
      for (const Key& k : part_begins) EXPECT_EQ(std::get<0>(k), a.index);
      const int before = touching_parts;
      touching_parts += int(part_begins.size()) - int(part_ends.size());
      EXPECT_EQ(touching_parts, int(world.contacts().size()));
      several_at_once += part_begins.size() > 1 || part_ends.size() > 1;
      // Collider events: one when the count of touching part pairs leaves 0 or returns to it.
      const bool began = before == 0 && touching_parts > 0;
      const bool ended = before > 0 && touching_parts == 0;
      ASSERT_EQ(world.touch_begin_events().size(), began ? 1u : 0u);
      ASSERT_EQ(world.touch_end_events().size(), ended ? 1u : 0u);
      if (began) {
        ++begins;
        EXPECT_EQ(key(world.touch_begin_events()[0]), part_begins.front());
        // The part pair it names touches.
        bool listed = false;
        for (const ContactPair& c : world.contacts())
          listed = listed || Key{c.a.index, c.part_a, c.b.index, c.part_b} == part_begins.front();
        EXPECT_TRUE(listed);
      }
      if (ended) {
        ++ends;
        EXPECT_EQ(key(world.touch_end_events()[0]), part_ends.back());
      }
      // The sensor world: the same moves, one event when the count leaves or returns to 0, naming
      // the parts the collider event above names (the sensor is a, the visitor b).
      ASSERT_EQ(sensing.sensor_begin_events().size(), began ? 1u : 0u);
      ASSERT_EQ(sensing.sensor_end_events().size(), ended ? 1u : 0u);
      if (began) {
        const SensorEvent& s = sensing.sensor_begin_events()[0];
        EXPECT_EQ(s.sensor, sa);
        EXPECT_EQ(s.visitor, sb);
        EXPECT_EQ(s.sensor_part, world.touch_begin_events()[0].part_a);
        EXPECT_EQ(s.visitor_part, world.touch_begin_events()[0].part_b);
        EXPECT_TRUE(overlap(*sensing.part(sa, s.sensor_part), *sensing.transform(sa), *sensing.part(sb, s.visitor_part),
                            *sensing.transform(sb)));
      }
      if (ended) {
        const SensorEvent& s = sensing.sensor_end_events()[0];
        EXPECT_EQ(s.sensor_part, world.touch_end_events()[0].part_a);
        EXPECT_EQ(s.visitor_part, world.touch_end_events()[0].part_b);
      }
      EXPECT_TRUE(sensing.contacts().empty());
    }
    EXPECT_EQ(begins, 1);
    EXPECT_EQ(ends, 1);
    // Level: four part pairs at once each way; staggered, part pairs swap at the deepest update.
    EXPECT_EQ(several_at_once, 2);
  }
}
