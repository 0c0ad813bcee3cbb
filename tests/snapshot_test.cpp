// CollisionWorld::save() and restore() (pebble/world.hpp, docs/world.md "Snapshot and restore").
// The independent check is the world that never went through a snapshot: random worlds (single
// shapes, compounds, chains; fixed, sensor, filtered; adds, removes, re-adds, moves, reshapes,
// filter changes, updates) are saved at several points, restored, and then the original and the
// restored world are given the same further calls: their contacts (ids, parts, manifolds byte for
// byte), events and scene query answers must be the same bits after every call. Corrupt,
// truncated and foreign bytes must be refused with InvalidSnapshot (or, when a corruption is
// given a correct checksum, give a world that passes validate() and keeps working).
#include <gtest/gtest.h>

#include <pebble/chain.hpp>
#include <pebble/world.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "random_cases.hpp"
#include "random_shapes.hpp"

using namespace pebble;

namespace {

constexpr float kPi = 3.14159265358979f;
using Bytes = std::vector<std::byte>;

Shape random_shape(test_random::Rng& rng, float size) { return test_random::random_collider(rng, size, true); }

using test_random::random_transform;

Filter random_filter(test_random::Rng& rng) {
  Filter f;
  if (rng.chance(0.7)) return f;
  f.category = std::uint64_t(1) << rng.integer(0, 3);
  f.mask = std::uint64_t(rng.integer(0, 15));
  if (rng.chance(0.3)) f.group = rng.integer(-2, 2);
  return f;
}

// Everything a caller can observe of a world, as bytes: contacts, all six event lists and the
// answers of a fixed set of scene queries (closest and all hits of rays, circle and shape casts,
// box and point overlaps, nearest neighbours, parts in a box), in the order the world gives them.
struct Observer {
  Bytes out;
  template <class T>
  void put(const T& v) {
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    out.insert(out.end(), p, p + sizeof v);
  }
  void id(ColliderId i) {
    put(i.index);
    put(i.generation);
    put(i.world);
  }
  void hit(const WorldCastResult& r) {
    id(r.id);
    put(r.part);
    put(r.hit.hit);
    put(r.hit.fraction);
    put(r.hit.point);
    put(r.hit.normal);
  }
  void manifold(const Manifold& m) {
    put(m.normal);
    put(m.count);
    for (const ContactPoint& p : m.points) {
      put(p.point);
      put(p.separation);
      put(p.id);
    }
  }
};

Bytes observe(const CollisionWorld& w, unsigned seed) {
  Observer o;
  for (const ContactPair& c : w.contacts()) {
    o.id(c.a);
    o.id(c.b);
    o.put(c.part_a);
    o.put(c.part_b);
    o.manifold(c.manifold);
  }
  for (const auto events :
       {w.touch_begin_events(), w.touch_end_events(), w.part_touch_begin_events(), w.part_touch_end_events()}) {
    o.put(events.size());
    for (const ContactEvent& e : events) {
      o.id(e.a);
      o.id(e.b);
      o.put(e.part_a);
      o.put(e.part_b);
    }
  }
  for (const auto events : {w.sensor_begin_events(), w.sensor_end_events()}) {
    o.put(events.size());
    for (const SensorEvent& e : events) {
      o.id(e.sensor);
      o.id(e.visitor);
      o.put(e.sensor_part);
      o.put(e.visitor_part);
    }
  }
  test_random::Rng rng(seed);
  const QueryFilter all{~0ull, true, true};
  for (int q = 0; q < 12; ++q) {
    const Ray ray{rng.in_disc(14), rng.in_disc(20)};
    const QueryFilter filter = q % 3 == 0 ? all : QueryFilter{};
    if (const auto r = w.cast_ray(ray, filter)) o.hit(r);
    o.put(-1);
    w.cast_ray(
        ray,
        [&](const WorldCastResult& r) {
          o.hit(r);
          return 1.0f;
        },
        filter);
    if (const auto r = w.cast_circle(ray, 0.3f, filter)) o.hit(r);
    o.put(-2);
    const Shape probe = Shape::box(0.4f, 0.2f);
    const Transform at{ray.origin, Rot::from_angle(float(q))};
    if (const auto r = w.cast_shape(probe, at, ray.translation, filter)) o.hit(r);
    o.put(-3);
    w.overlap_shape(
        probe, at,
        [&](ColliderId i) {
          o.id(i);
          return true;
        },
        filter);
    const Vec2 c = rng.in_disc(12);
    w.overlap_aabb(
        Aabb{c - Vec2{2, 2}, c + Vec2{2, 2}},
        [&](ColliderId i) {
          o.id(i);
          return true;
        },
        filter);
    w.overlap_point(
        c,
        [&](ColliderId i) {
          o.id(i);
          return true;
        },
        filter);
    Neighbor near[4];
    const int n = w.nearest(Shape::circle(0.1f), {c, Rot::identity()}, near, 6.0f, filter);
    for (int k = 0; k < n; ++k) {
      o.id(near[k].id);
      o.put(near[k].part);
      o.put(near[k].distance);
    }
    PartView parts[64];
    const int m = std::min(w.parts_in_box(Aabb{c - Vec2{3, 3}, c + Vec2{3, 3}}, parts, filter), 64);
    for (int k = 0; k < m; ++k) {
      o.id(parts[k].id);
      o.put(parts[k].part);
      o.put(parts[k].box);
    }
  }
  const WorldStats s = w.stats();
  for (const int v :
       {s.colliders, s.fixed, s.pairs, s.contacts, s.collided, s.reused, s.separated, s.part_slots, s.new_pairs,
        s.moving_tree.height, s.fixed_tree.height, s.moving_tree.node_count, s.fixed_tree.node_count})
    o.put(v);
  return o.out;
}

// Random calls on every world of a set at once (the same ids name the same colliders in a world
// and in its restored copy: a snapshot keeps the world's serial).
class Driver {
public:
  explicit Driver(unsigned seed) : rng_(seed) {}

  // One random call, made on each world; what each returns must agree.
  void step(std::vector<CollisionWorld*> worlds) {
    const int op = rng_.integer(0, 99);
    if (op < 14 || ids_.size() < 8) {
      add(worlds);
    } else if (op < 24) {
      const std::size_t k = std::size_t(rng_.integer(0, int(ids_.size()) - 1));
      for (CollisionWorld* w : worlds) ASSERT_TRUE(w->remove(ids_[k]));
      for (CollisionWorld* w : worlds) ASSERT_FALSE(w->remove(ids_[k]));  // stale at once
      ids_.erase(ids_.begin() + std::ptrdiff_t(k));
    } else if (op < 50) {
      const ColliderId id = pick();
      const Transform* now = worlds[0]->transform(id);
      Transform xf = *now;
      const double scale = rng_.chance(0.4) ? 1e-5 : rng_.chance(0.5) ? 0.02 : 0.5;
      xf.p = xf.p + Vec2{float(rng_.uniform(-scale, scale)), float(rng_.uniform(-scale, scale))};
      xf.q = Rot::from_angle(xf.q.angle() + float(rng_.uniform(-scale, scale)));
      for (CollisionWorld* w : worlds) ASSERT_TRUE(w->set_transform(id, xf));
    } else if (op < 58) {
      std::vector<ColliderId> ids;
      std::vector<Transform> xfs;
      for (int k = rng_.integer(1, 20); k > 0; --k) {
        ids.push_back(pick());
        xfs.push_back(random_transform(rng_, 8));
      }
      int moved = -1;
      for (CollisionWorld* w : worlds) {
        const int n = w->set_transforms(ids, xfs);
        if (moved >= 0) {
          ASSERT_EQ(n, moved);
        }
        moved = n;
      }
    } else if (op < 64) {
      const ColliderId id = pick();
      const Shape shape = random_shape(rng_, float(rng_.uniform(0.3, 1.2)));
      const bool first = worlds[0]->set_shape(id, shape);
      for (CollisionWorld* w : worlds) ASSERT_EQ(w->set_shape(id, shape), first);
    } else if (op < 69) {
      const ColliderId id = pick();
      const Filter f = random_filter(rng_);
      for (CollisionWorld* w : worlds) ASSERT_TRUE(w->set_filter(id, f));
    } else if (op < 71) {
      const ColliderId id = pick();
      const std::uint64_t u = rng_.gen();
      for (CollisionWorld* w : worlds) ASSERT_TRUE(w->set_user_data(id, u));
    } else if (op < 72) {
      for (CollisionWorld* w : worlds) w->optimize_fixed();
    } else {
      for (CollisionWorld* w : worlds) w->update();
    }
  }

  std::vector<ColliderId> ids_;

private:
  ColliderId pick() { return ids_[std::size_t(rng_.integer(0, int(ids_.size()) - 1))]; }

  void add(std::vector<CollisionWorld*> worlds) {
    ColliderOptions options;
    options.filter = random_filter(rng_);
    options.fixed = rng_.chance(0.2);
    options.sensor = rng_.chance(0.08);
    options.fresh_contacts = rng_.chance(0.1);
    options.user_data = rng_.gen();
    const Transform xf = random_transform(rng_, 8);
    const int kind = rng_.integer(0, 9);
    ColliderId id;
    if (kind < 6) {
      const Shape shape = random_shape(rng_, float(rng_.uniform(0.3, 1.2)));
      for (CollisionWorld* w : worlds) id = same(id, w->add(shape, xf, options));
    } else if (kind < 8) {
      std::vector<Shape> parts;
      for (int k = rng_.integer(2, 4); k > 0; --k) {
        const Shape s = random_shape(rng_, float(rng_.uniform(0.2, 0.6)));
        std::vector<Vec2> points;
        const Vec2 d = rng_.in_disc(1.0);
        for (const Vec2 v : s.vertices()) points.push_back(v + d);
        parts.push_back(Shape::polygon(points, s.radius()));
      }
      for (CollisionWorld* w : worlds) id = same(id, w->add(std::span<const Shape>(parts), xf, options));
    } else {
      std::vector<Vec2> points;
      const int n = rng_.integer(3, 7);
      const bool loop = rng_.chance(0.5);
      for (int k = 0; k < n; ++k) {
        const float a = loop ? -2 * kPi * float(k) / float(n) : float(k);  // a loop runs clockwise: solid outside
        points.push_back(loop ? Vec2{3 * std::cos(a), 3 * std::sin(a)}
                              : Vec2{float(k) * 1.5f - 4, float(rng_.uniform(-0.5, 0.5))});
      }
      const Chain chain = loop ? Chain::loop(points) : Chain::open(points);
      options.fixed = !rng_.chance(0.2);
      options.sensor = false;
      for (CollisionWorld* w : worlds) id = same(id, w->add(chain, xf, options));
    }
    ids_.push_back(id);
  }
  static ColliderId same(ColliderId before, ColliderId now) {
    EXPECT_TRUE(before == ColliderId{} || before == now);
    return now;
  }

  test_random::Rng rng_;
};

WorldSettings random_settings(test_random::Rng& rng) {
  WorldSettings s;
  if (rng.chance(0.3)) s.reuse_bounds = ReuseBounds::box2d_v3();
  if (rng.chance(0.2)) s.reuse_contacts = false;
  if (rng.chance(0.3)) s.contact_margin = 0.05f;
  if (rng.chance(0.3)) s.tree.margin = 0.3f;
  return s;
}

// The runs: a world driven by random calls is saved at several points; each snapshot is restored
// and from then on given every call the original gets; after each call both are observed.
void run_and_compare(unsigned seed, int steps, int snapshots) {
  test_random::Rng rng(seed);
  CollisionWorld original(random_settings(rng));
  Driver driver(seed * 7 + 1);
  std::vector<CollisionWorld> restored;
  std::vector<int> taken_at;
  for (int step = 0; step < steps; ++step) {
    if (int(restored.size()) < snapshots && step > 0 && step % (steps / (snapshots + 1)) == 0) {
      const Bytes bytes = original.save();
      restored.push_back(CollisionWorld::restore(bytes));
      taken_at.push_back(step);
      ASSERT_TRUE(restored.back().validate());
      ASSERT_EQ(restored.back().save(), bytes) << "a snapshot of the restored world differs, step " << step;
      ASSERT_EQ(observe(restored.back(), unsigned(step)), observe(original, unsigned(step)))
          << "right after restore, step " << step;
    }
    std::vector<CollisionWorld*> worlds{&original};
    for (CollisionWorld& w : restored) worlds.push_back(&w);
    driver.step(worlds);
    if (testing::Test::HasFatalFailure()) return;
    const Bytes expected = observe(original, unsigned(step));
    for (std::size_t k = 0; k < restored.size(); ++k) {
      ASSERT_EQ(observe(restored[k], unsigned(step)), expected)
          << "seed " << seed << ", restored at step " << taken_at[k] << ", step " << step;
    }
    if (step % 25 == 0) {
      const Bytes now = original.save();
      for (std::size_t k = 0; k < restored.size(); ++k)
        ASSERT_EQ(restored[k].save(), now) << "seed " << seed << ", step " << step;
    }
  }
  ASSERT_TRUE(original.validate());
  EXPECT_GT(original.size(), 0);
}

TEST(Snapshot, RestoredWorldsAnswerEveryLaterCallAsTheOriginal) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE(seed);
    run_and_compare(seed, 600, 4);
    if (HasFatalFailure()) return;
  }
}

// A busy pile, where most pairs touch and carry their manifolds over between updates: contact
// reuse is what a snapshot that forgot the kept manifolds would get wrong.
TEST(Snapshot, RestoredPileCarriesContactsOverAsTheOriginal) {
  CollisionWorld original;
  std::vector<ColliderId> ids;
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 10; ++j) {
      const Shape s = (i + j) % 3 == 0   ? Shape::circle(0.5f)
                      : (i + j) % 3 == 1 ? Shape::box(0.5f, 0.5f)
                                         : Shape::capsule({-0.3f, 0}, {0.3f, 0}, 0.2f);
      ids.push_back(original.add(s, {{float(i) * 0.98f, float(j) * 0.98f}, Rot::from_angle(0.01f * float(i - j))}));
    }
  }
  const Vec2 ground[] = {{-5, -0.5f}, {30, -0.5f}};
  original.add(Chain::open(ground), Transform::identity());
  original.update();
  test_random::Rng rng(5);
  const auto jiggle = [&](std::vector<CollisionWorld*> worlds) {
    for (int k = 0; k < 40; ++k) {
      const ColliderId id = ids[std::size_t(rng.integer(0, int(ids.size()) - 1))];
      Transform xf = *worlds[0]->transform(id);
      xf.p = xf.p + Vec2{float(rng.uniform(-2e-5, 2e-5)), float(rng.uniform(-2e-5, 2e-5))};
      for (CollisionWorld* w : worlds) w->set_transform(id, xf);
    }
    for (CollisionWorld* w : worlds) w->update();
  };
  for (int i = 0; i < 5; ++i) jiggle({&original});
  CollisionWorld restored = CollisionWorld::restore(original.save());
  int reused = 0;
  for (int i = 0; i < 30; ++i) {
    jiggle({&original, &restored});
    reused += original.stats().reused;
    ASSERT_EQ(observe(restored, unsigned(i)), observe(original, unsigned(i))) << "update " << i;
  }
  EXPECT_GT(reused, 1000);  // the scene does exercise contact reuse
}

TEST(Snapshot, EmptyWorldRoundTrips) {
  CollisionWorld empty;
  const Bytes bytes = empty.save();
  CollisionWorld restored = CollisionWorld::restore(bytes);
  EXPECT_EQ(restored.size(), 0);
  EXPECT_TRUE(restored.validate());
  EXPECT_EQ(restored.save(), bytes);
  const ColliderId a = empty.add(Shape::circle(1), Transform::identity());
  const ColliderId b = restored.add(Shape::circle(1), Transform::identity());
  EXPECT_TRUE(a == b);
  empty.update();
  restored.update();
  EXPECT_EQ(observe(restored, 1), observe(empty, 1));
}

TEST(Snapshot, KeepsSettingsIdsAndSerial) {
  WorldSettings s;
  s.contact_margin = 0.125f;
  s.tree.margin = 0.25f;
  s.reuse_bounds = ReuseBounds::box2d_v3();
  s.threads = 2;
  CollisionWorld w(s);
  const ColliderId a = w.add(Shape::box(1, 1), Transform::identity(), 77);
  const ColliderId b = w.add(Shape::circle(1), {{1.5f, 0}, Rot::identity()});
  w.remove(b);
  CollisionWorld r = CollisionWorld::restore(w.save());
  EXPECT_EQ(r.settings().contact_margin, 0.125f);
  EXPECT_EQ(r.settings().tree.margin, 0.25f);
  EXPECT_EQ(r.settings().reuse_bounds.distance, ReuseBounds::box2d_v3().distance);
  EXPECT_EQ(r.settings().threads, 2);
  EXPECT_TRUE(r.contains(a));
  EXPECT_FALSE(r.contains(b));
  EXPECT_EQ(r.options(a)->user_data, 77u);
  CollisionWorld other;
  EXPECT_FALSE(r.contains(other.add(Shape::circle(1), Transform::identity())));
}

// The header layout and checksum as docs/world.md gives them, so that a test can make a
// corruption whose checksum passes: FNV-1a's step on 64-bit little-endian words in four lanes
// (word i to lane i mod 4, the last word zero-padded), the lanes folded by the same step; over
// header bytes 0..31, then the payload.
constexpr std::size_t kHeader = 40;
std::uint64_t checksum(const Bytes& b) {
  constexpr std::uint64_t kBasis = 0xcbf29ce484222325ull, kPrime = 0x100000001b3ull;
  Bytes words(b.begin(), b.begin() + 32);
  words.insert(words.end(), b.begin() + kHeader, b.end());
  while (words.size() % 8 != 0) words.push_back(std::byte{0});
  std::uint64_t lane[4] = {kBasis, kBasis, kBasis, kBasis};
  for (std::size_t i = 0; i < words.size(); i += 8) {
    std::uint64_t w = 0;
    for (int k = 0; k < 8; ++k) w |= std::uint64_t(words[i + std::size_t(k)]) << (8 * k);
    lane[i / 8 % 4] = (lane[i / 8 % 4] ^ w) * kPrime;
  }
  std::uint64_t h = kBasis;
  for (const std::uint64_t l : lane) h = (h ^ l) * kPrime;
  return h;
}
void fix_header(Bytes& b) {
  const std::uint64_t length = b.size() - kHeader;
  for (int k = 0; k < 8; ++k) b[24 + std::size_t(k)] = std::byte(std::uint8_t(length >> (8 * k)));
  const std::uint64_t sum = checksum(b);
  for (int k = 0; k < 8; ++k) b[32 + std::size_t(k)] = std::byte(std::uint8_t(sum >> (8 * k)));
}

TEST(Snapshot, HeaderChecksumIsTheDocumentedOne) {
  Bytes b = CollisionWorld().save();
  const Bytes before = b;
  fix_header(b);
  EXPECT_EQ(b, before);
}

// A small world of every kind, with pairs, contacts, pending events and free slots.
CollisionWorld small_world() {
  CollisionWorld w;
  Driver driver(99);
  for (int i = 0; i < 160; ++i) driver.step({&w});
  w.update();
  for (int i = 0; i < 10; ++i) driver.step({&w});
  return w;
}

// A world restore() accepted must keep working: checks, an update, the queries, a snapshot again.
void exercise(CollisionWorld& w) {
  ASSERT_TRUE(w.validate());
  const Bytes again = w.save();
  CollisionWorld copy = CollisionWorld::restore(again);
  ASSERT_EQ(copy.save(), again);
  w.update();
  copy.update();
  ASSERT_TRUE(w.validate());
  ASSERT_EQ(observe(copy, 3), observe(w, 3));
}

TEST(Snapshot, EveryTruncationIsRefused) {
  const Bytes bytes = small_world().save();
  ASSERT_GT(bytes.size(), 2000u);
  RecordProperty("bytes", int(bytes.size()));
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    Bytes cut(bytes.begin(), bytes.begin() + std::ptrdiff_t(n));
    EXPECT_THROW(CollisionWorld::restore(cut), InvalidSnapshot) << n;
    // The same with a header that agrees with the cut: the sections themselves must notice.
    if (n >= kHeader) {
      fix_header(cut);
      EXPECT_THROW(CollisionWorld::restore(cut), InvalidSnapshot) << n;
    }
  }
  Bytes longer = bytes;
  longer.push_back(std::byte{0});
  EXPECT_THROW(CollisionWorld::restore(longer), InvalidSnapshot);
  fix_header(longer);
  EXPECT_THROW(CollisionWorld::restore(longer), InvalidSnapshot);
}

TEST(Snapshot, CorruptBytesAreRefusedOrGiveAWorkingWorld) {
  const Bytes bytes = small_world().save();
  test_random::Rng rng(7);
  int refused_by_checksum = 0, refused = 0, accepted = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    Bytes b = bytes;
    const std::size_t at = std::size_t(rng.integer(0, int(b.size()) - 1));
    const std::uint8_t old = std::uint8_t(b[at]);
    std::uint8_t v = std::uint8_t(rng.integer(0, 255));
    if (v == old) v ^= 1;
    b[at] = std::byte(v);
    try {
      (void)CollisionWorld::restore(b);
      ADD_FAILURE() << "a changed byte " << at << " passed the checksum";
    } catch (const InvalidSnapshot&) {
      ++refused_by_checksum;
    }
    if (at >= 24 && at < kHeader) continue;  // length and checksum: fix_header() would undo the change
    fix_header(b);                           // past the checksum: the reader's own checks
    try {
      CollisionWorld w = CollisionWorld::restore(b);
      ++accepted;
      exercise(w);
      if (HasFatalFailure()) {
        ADD_FAILURE() << "byte " << at << " set to " << int(v);
        return;
      }
    } catch (const InvalidSnapshot& e) {
      ++refused;
      EXPECT_GT(std::strlen(e.what()), 30u);
    }
  }
  EXPECT_EQ(refused_by_checksum, 6000);
  EXPECT_GT(refused, 1000);
  RecordProperty("accepted", accepted);
}

TEST(Snapshot, ForeignVersionsAndOtherBytesAreRefused) {
  const Bytes bytes = small_world().save();
  Bytes b = bytes;
  b[8] = std::byte{2};  // format version 2
  try {
    (void)CollisionWorld::restore(b);
    ADD_FAILURE() << "version 2 accepted";
  } catch (const InvalidSnapshot& e) {
    EXPECT_NE(std::string(e.what()).find("format version 2"), std::string::npos) << e.what();
  }
  b = bytes;
  b[0] = std::byte{'X'};
  EXPECT_THROW(CollisionWorld::restore(b), InvalidSnapshot);
  EXPECT_THROW(CollisionWorld::restore(Bytes{}), InvalidSnapshot);
  Bytes noise(5000);
  test_random::Rng rng(3);
  for (std::byte& x : noise) x = std::byte(rng.integer(0, 255));
  EXPECT_THROW(CollisionWorld::restore(noise), InvalidSnapshot);
  // InvalidSnapshot is an std::invalid_argument.
  EXPECT_THROW(CollisionWorld::restore(noise), std::invalid_argument);
}

// A count that claims more records than the bytes can hold is refused before anything is
// allocated for it (the collider count is the first count after the 65-byte settings block).
TEST(Snapshot, HugeCountsAreRefusedWithoutAllocating) {
  Bytes b = CollisionWorld().save();
  const std::size_t at = kHeader + 65;
  for (int k = 0; k < 4; ++k) b[at + std::size_t(k)] = std::byte{0xff};
  fix_header(b);
  try {
    (void)CollisionWorld::restore(b);
    ADD_FAILURE() << "accepted";
  } catch (const InvalidSnapshot& e) {
    EXPECT_NE(std::string(e.what()).find("collider count"), std::string::npos) << e.what();
  }
}

}  // namespace
