// The dynamic AABB tree (pebble/tree.hpp) against brute force over every proxy: long random
// sequences of create, move, destroy and rebuild with the structure validated after every
// operation; box, point and swept-box queries and moved-pair finding compared with the oracle's
// answers (tests/oracle/broadphase.hpp); hand-made degenerate cases; no allocation per query.
#include <gtest/gtest.h>

#include <pebble/tree.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <new>
#include <set>
#include <utility>
#include <vector>

#include "oracle/broadphase.hpp"
#include "random_cases.hpp"

// Counts heap allocations, so that a test can check that queries make none. (GCC cannot see that
// the replaced operator new below uses malloc, and warns about the matching frees.)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void* operator new(std::size_t size, std::align_val_t align) {
  ++g_allocations;
  const std::size_t a = std::size_t(align);
  if (void* p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t align) { return operator new(size, align); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

using namespace pebble;
using oracle::real;

namespace {

constexpr int kScale = test_random::kSanitizerScale;

oracle::Box to_oracle(const Aabb& b) { return {b.lower.x, b.lower.y, b.upper.x, b.upper.y}; }

// What the test knows of each live proxy: its last tight box.
struct Model {
  std::map<ProxyId, Aabb> tight;
  std::set<ProxyId> moved;
};

Aabb random_box(test_random::Rng& rng, real span) {
  const float cx = float(rng.uniform(-span, span)), cy = float(rng.uniform(-span, span));
  const float hx = float(rng.log_uniform(0.01, 5)), hy = float(rng.log_uniform(0.01, 5));
  return {{cx - hx, cy - hy}, {cx + hx, cy + hy}};
}

std::set<ProxyId> query_set(const AabbTree& tree, const Aabb& box) {
  std::set<ProxyId> out;
  tree.query(box, [&](ProxyId id) {
    EXPECT_TRUE(out.insert(id).second) << "proxy " << id << " reported twice";
    return true;
  });
  return out;
}

std::set<ProxyId> brute_query(const AabbTree& tree, const Model& model, const Aabb& box) {
  std::set<ProxyId> out;
  for (const auto& [id, tight] : model.tight)
    if (oracle::boxes_overlap(to_oracle(tree.fat_box(id)), to_oracle(box))) out.insert(id);
  return out;
}

// Checks one swept-box query: every proxy the sweep clearly reaches is reported exactly once,
// none it clearly misses is; and a closest-hit search (the callback shortens the sweep to each
// box's entry) ends at the least entry of the brute force.
void check_sweep(const AabbTree& tree, const Model& model, Vec2 origin, Vec2 half, Vec2 translation,
                 float max_fraction) {
  const oracle::V o{origin.x, origin.y}, d{translation.x, translation.y};
  // Nearly-touching boxes may go either way: float rounding of the entry times.
  const real scale = 1 + std::fabs(real(origin.x)) + std::fabs(real(origin.y)) + std::fabs(real(translation.x)) +
                     std::fabs(real(translation.y)) + half.x + half.y;
  const real delta = 1e-5L * scale;
  std::set<ProxyId> must, may;
  real closest = std::numeric_limits<real>::infinity();
  for (const auto& [id, tight] : model.tight) {
    oracle::Box b = to_oracle(tree.fat_box(id));
    const oracle::SweepInterval exact = oracle::sweep_box(o, half.x, half.y, d, b, max_fraction);
    oracle::Box shrunk{b.lo_x + delta, b.lo_y + delta, b.hi_x - delta, b.hi_y - delta};
    oracle::Box grown{b.lo_x - delta, b.lo_y - delta, b.hi_x + delta, b.hi_y + delta};
    const bool clear_hit = shrunk.lo_x <= shrunk.hi_x && shrunk.lo_y <= shrunk.hi_y &&
                           oracle::sweep_box(o, half.x, half.y, d, shrunk, max_fraction * (1 - 1e-5L)).hit;
    const bool maybe = oracle::sweep_box(o, half.x, half.y, d, grown, max_fraction * (1 + 1e-5L) + 1e-6L).hit;
    if (clear_hit) must.insert(id);
    if (maybe) may.insert(id);
    if (exact.hit) closest = std::min(closest, exact.enter);
  }
  std::set<ProxyId> got;
  const float left = tree.cast_box(origin, half, translation, max_fraction, [&](ProxyId id, float current) {
    EXPECT_TRUE(got.insert(id).second) << "proxy " << id << " reported twice";
    EXPECT_EQ(current, max_fraction);
    return current;
  });
  EXPECT_EQ(left, max_fraction);
  for (ProxyId id : must) EXPECT_TRUE(got.count(id)) << "missed proxy " << id;
  for (ProxyId id : got) EXPECT_TRUE(may.count(id)) << "reported proxy " << id << " the sweep misses";

  // Closest entry: the callback shortens the sweep to the box's (exact) entry time.
  const float found = tree.cast_box(origin, half, translation, max_fraction, [&](ProxyId id, float current) {
    const oracle::SweepInterval s = oracle::sweep_box(o, half.x, half.y, d, to_oracle(tree.fat_box(id)), current);
    return s.hit ? std::min(current, std::max(float(s.enter), std::numeric_limits<float>::min())) : current;
  });
  if (closest <= max_fraction && !must.empty()) {
    EXPECT_NEAR(found, std::max(real(closest), real(std::numeric_limits<float>::min())), 1e-5L * scale);
  }
}

void check_moved_pairs(AabbTree& tree, Model& model) {
  std::set<std::pair<ProxyId, ProxyId>> want;
  for (const auto& [a, ta] : model.tight)
    for (const auto& [b, tb] : model.tight)
      if (a < b && (model.moved.count(a) || model.moved.count(b)) &&
          oracle::boxes_overlap(to_oracle(tree.fat_box(a)), to_oracle(tree.fat_box(b))))
        want.insert({a, b});
  std::set<std::pair<ProxyId, ProxyId>> got;
  tree.find_moved_pairs([&](ProxyId a, ProxyId b) {
    EXPECT_LT(a, b);
    EXPECT_TRUE(got.insert({a, b}).second) << "pair " << a << "," << b << " reported twice";
  });
  EXPECT_EQ(got, want);
  EXPECT_TRUE(tree.moved().empty());
  model.moved.clear();
}

void check_moved_list(const AabbTree& tree, const Model& model) {
  const std::set<ProxyId> listed(tree.moved().begin(), tree.moved().end());
  EXPECT_EQ(listed.size(), tree.moved().size());
  EXPECT_EQ(listed, model.moved);
}

}  // namespace

TEST(AabbTree, RandomOperationsAgreeWithBruteForce) {
  test_random::Rng rng(2024);
  AabbTree tree;
  Model model;
  const int operations = 12000 / kScale;
  int reinserted = 0, kept = 0;
  for (int op = 0; op < operations; ++op) {
    const int live = int(model.tight.size());
    const double r = rng.uniform(0, 1);
    if (live < 400 || r < 0.25) {
      const Aabb box = random_box(rng, 60);
      const ProxyId id = tree.create_proxy(box, std::uint64_t(op));
      ASSERT_FALSE(model.tight.count(id));
      model.tight[id] = box;
      model.moved.insert(id);
      EXPECT_EQ(tree.user_data(id), std::uint64_t(op));
    } else if (r < 0.4 && live > 0) {
      auto it = model.tight.begin();
      std::advance(it, rng.integer(0, live - 1));
      tree.destroy_proxy(it->first);
      EXPECT_FALSE(tree.is_proxy(it->first));
      model.moved.erase(it->first);
      model.tight.erase(it);
    } else if (live > 0) {
      auto it = model.tight.begin();
      std::advance(it, rng.integer(0, live - 1));
      const Aabb before = tree.fat_box(it->first);
      // Mostly small steps (absorbed by the fat box), sometimes jumps.
      const float step = rng.chance(0.8) ? float(rng.uniform(0, 0.15)) : float(rng.uniform(0, 20));
      const Vec2 d{float(rng.uniform(-step, step)), float(rng.uniform(-step, step))};
      Aabb box{it->second.lower + d, it->second.upper + d};
      if (rng.chance(0.1)) box = random_box(rng, 60);  // also resized
      const bool moved = tree.move_proxy(it->first, box, d);
      if (moved) {
        ++reinserted;
        model.moved.insert(it->first);
      } else {
        ++kept;
        EXPECT_EQ(tree.fat_box(it->first), before);
      }
      it->second = box;
    }
    if (rng.chance(0.002)) tree.rebuild();
    ASSERT_TRUE(tree.validate()) << "after operation " << op;
    for (const auto& [id, tight] : model.tight) ASSERT_TRUE(contains(tree.fat_box(id), tight)) << "proxy " << id;
    ASSERT_EQ(tree.proxy_count(), int(model.tight.size()));
    if (op % 25 == 0) check_moved_list(tree, model);
    if (op % 40 == 0) {
      const Aabb q = random_box(rng, 60);
      EXPECT_EQ(query_set(tree, q), brute_query(tree, model, q));
      const Vec2 p{float(rng.uniform(-60, 60)), float(rng.uniform(-60, 60))};
      std::set<ProxyId> at_point;
      tree.query_point(p, [&](ProxyId id) { return at_point.insert(id).second; });
      EXPECT_EQ(at_point, brute_query(tree, model, Aabb{p, p}));
      const Vec2 origin{float(rng.uniform(-70, 70)), float(rng.uniform(-70, 70))};
      const Vec2 translation{float(rng.uniform(-100, 100)), float(rng.uniform(-100, 100))};
      check_sweep(tree, model, origin, {}, translation, 1);
      check_sweep(tree, model, origin, {float(rng.uniform(0, 2)), float(rng.uniform(0, 2))}, translation,
                  float(rng.uniform(0.1, 1)));
      // Axis-parallel sweeps (one direction component zero).
      check_sweep(tree, model, origin, {}, {translation.x, 0}, 1);
      check_sweep(tree, model, origin, {0.5f, 0.5f}, {0, -0.0f}, 1);
    }
    if (op % 97 == 0) check_moved_pairs(tree, model);
  }
  // Both kinds of move happened.
  EXPECT_GT(reinserted, operations / 20);
  EXPECT_GT(kept, operations / 20);
  const TreeStats s = tree.stats();
  EXPECT_EQ(s.proxy_count, int(model.tight.size()));
  EXPECT_EQ(s.node_count, s.proxy_count - 1);
  EXPECT_LE(s.height, 4 * int(std::log2(s.proxy_count)) + 2);
}

// Masked queries (issue 20): each proxy has category bits, every node the union of its subtree's,
// and query(box, mask, f) and cast_box(..., mask) report exactly the brute-force answer restricted
// to proxies whose category has a bit in the mask, through creates, category changes, moves,
// destroys and rebuilds (validate() checks every node's unions). A mask that no proxy matches
// visits no node below the root.
TEST(AabbTree, MaskedQueriesSkipSubtreesWithoutTheCategory) {
  test_random::Rng rng(77);
  AabbTree tree;
  Model model;
  std::map<ProxyId, std::uint64_t> category;
  const int operations = 6000 / kScale;
  for (int op = 0; op < operations; ++op) {
    const int live = int(model.tight.size());
    const double r = rng.uniform(0, 1);
    // Four categories, one rare (bit 3), so that masks select sparse subsets.
    const std::uint64_t bits = rng.chance(0.05) ? 8u : (1u << rng.integer(0, 2));
    if (live < 300 || r < 0.25) {
      const Aabb box = random_box(rng, 60);
      const ProxyId id = tree.create_proxy(box, 0, bits);
      model.tight[id] = box;
      category[id] = bits;
    } else if (r < 0.35) {
      auto it = model.tight.begin();
      std::advance(it, rng.integer(0, live - 1));
      tree.destroy_proxy(it->first);
      category.erase(it->first);
      model.tight.erase(it);
    } else if (r < 0.5) {
      auto it = model.tight.begin();
      std::advance(it, rng.integer(0, live - 1));
      tree.set_category(it->first, bits);
      category[it->first] = bits;
      EXPECT_EQ(tree.category(it->first), bits);
    } else {
      auto it = model.tight.begin();
      std::advance(it, rng.integer(0, live - 1));
      const Aabb box = random_box(rng, 60);
      tree.move_proxy(it->first, box, {});
      it->second = box;
    }
    if (rng.chance(0.003)) tree.rebuild();
    ASSERT_TRUE(tree.validate()) << "after operation " << op;
    if (op % 20 != 0) continue;
    tree.clear_moved();
    const std::uint64_t mask = rng.chance(0.3) ? 8u : std::uint64_t(rng.integer(1, 15));
    const Aabb q = random_box(rng, 60);
    std::set<ProxyId> want, got;
    for (ProxyId id : brute_query(tree, model, q))
      if (category[id] & mask) want.insert(id);
    tree.query(q, mask, [&](ProxyId id) {
      EXPECT_TRUE(got.insert(id).second);
      return true;
    });
    EXPECT_EQ(got, want) << "mask " << mask;
    // A ray through everything: the masked cast reports the masked subset of the unmasked one.
    const Vec2 origin{float(rng.uniform(-70, 70)), -70}, translation{float(rng.uniform(-50, 50)), 140};
    std::set<ProxyId> all, masked;
    tree.cast_ray(origin, translation, 1, [&](ProxyId id, float f) { return all.insert(id), f; });
    tree.cast_ray(
        origin, translation, 1, [&](ProxyId id, float f) { return masked.insert(id), f; }, mask);
    std::set<ProxyId> expected;
    for (ProxyId id : all)
      if (category[id] & mask) expected.insert(id);
    EXPECT_EQ(masked, expected) << "mask " << mask;
  }
  // No proxy has bit 4: the masked query finds nothing and enters no subtree.
  int calls = 0;
  tree.query(Aabb{{-1e6f, -1e6f}, {1e6f, 1e6f}}, 16u, [&](ProxyId) { return ++calls, true; });
  EXPECT_EQ(calls, 0);
}

TEST(AabbTree, RebuildKeepsProxiesAndImprovesTheTree) {
  test_random::Rng rng(7);
  AabbTree tree;
  std::vector<std::pair<ProxyId, Aabb>> proxies;
  // Inserted in sorted order along x: the worst case for incremental insertion.
  for (int i = 0; i < 4000 / kScale; ++i) {
    const float x = float(i) * 0.5f, y = float(rng.uniform(-3, 3));
    const Aabb box{{x, y}, {x + 0.4f, y + 0.4f}};
    proxies.push_back({tree.create_proxy(box, std::uint64_t(i)), box});
  }
  ASSERT_TRUE(tree.validate());
  const TreeStats before = tree.stats();
  tree.rebuild();
  ASSERT_TRUE(tree.validate());
  const TreeStats after = tree.stats();
  EXPECT_LE(after.area_ratio, before.area_ratio * 1.01f);
  EXPECT_LE(after.height, int(std::log2(double(proxies.size()))) + 6);
  for (const auto& [id, box] : proxies) {
    EXPECT_TRUE(contains(tree.fat_box(id), box));
    const auto hits = query_set(tree, box);
    EXPECT_TRUE(hits.count(id));
  }
}

TEST(AabbTree, DegenerateSetsStayShallow) {
  // Many identical boxes, many points on one line, and boxes of size 0: the builder splits by
  // median where surface area cannot decide, and the height stays logarithmic.
  for (int kind = 0; kind < 3; ++kind) {
    AabbTree tree(TreeSettings{0, 0, 0});
    std::vector<ProxyId> ids;
    for (int i = 0; i < 3000 / kScale; ++i) {
      Aabb box{{1, 2}, {3, 4}};
      if (kind == 1) box = {{float(i), 5}, {float(i), 5}};
      if (kind == 2) box = {{float(i % 7), float(i % 5)}, {float(i % 7), float(i % 5)}};
      ids.push_back(tree.create_proxy(box));
    }
    ASSERT_TRUE(tree.validate());
    EXPECT_LT(tree.stats().height, kMaxTreeHeight);
    tree.rebuild();
    ASSERT_TRUE(tree.validate());
    EXPECT_LE(tree.stats().height, int(std::log2(double(ids.size()))) + 3) << "kind " << kind;
    // A query over everything finds everything.
    EXPECT_EQ(query_set(tree, {{-1, -1}, {4000, 4000}}).size(), ids.size());
  }
}

TEST(AabbTree, EmptyAndSingleProxyTrees) {
  AabbTree tree;
  EXPECT_TRUE(tree.validate());
  EXPECT_EQ(tree.bounds(), Aabb{});
  int calls = 0;
  tree.query({{-1e9f, -1e9f}, {1e9f, 1e9f}}, [&](ProxyId) {
    ++calls;
    return true;
  });
  EXPECT_EQ(tree.cast_ray({0, 0}, {1, 1}, 0.7f,
                          [&](ProxyId, float t) {
                            ++calls;
                            return t;
                          }),
            0.7f);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(tree.stats().height, 0);

  const ProxyId id = tree.create_proxy({{0, 0}, {1, 1}}, 42);
  EXPECT_TRUE(tree.validate());
  EXPECT_EQ(tree.stats().height, 1);
  // Even an infinite query box never reports the root's empty slot.
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<ProxyId> seen;
  tree.query({{-inf, -inf}, {inf, inf}}, [&](ProxyId p) {
    seen.push_back(p);
    return true;
  });
  EXPECT_EQ(seen, std::vector<ProxyId>{id});
  seen.clear();
  tree.cast_ray({-5, 0.5f}, {10, 0}, 1, [&](ProxyId p, float t) {
    seen.push_back(p);
    return t;
  });
  EXPECT_EQ(seen, std::vector<ProxyId>{id});
  tree.destroy_proxy(id);
  EXPECT_TRUE(tree.validate());
  EXPECT_EQ(tree.proxy_count(), 0);
  // The id comes back.
  EXPECT_EQ(tree.create_proxy({{0, 0}, {1, 1}}), id);
  EXPECT_TRUE(tree.validate());
}

TEST(AabbTree, TouchingCountsForBoxesPointsAndSweeps) {
  AabbTree tree(TreeSettings{0, 0, 0});  // fat box = box
  const ProxyId a = tree.create_proxy({{0, 0}, {1, 1}});
  const ProxyId b = tree.create_proxy({{1, 0}, {2, 1}});  // shares the edge x = 1 with a
  const ProxyId c = tree.create_proxy({{5, 5}, {5, 5}});  // a point
  EXPECT_EQ(tree.fat_box(a), (Aabb{{0, 0}, {1, 1}}));
  EXPECT_EQ(query_set(tree, {{1, 1}, {1, 1}}), (std::set<ProxyId>{a, b}));  // the shared corner
  EXPECT_EQ(query_set(tree, {{5, 5}, {6, 6}}), (std::set<ProxyId>{c}));
  std::set<std::pair<ProxyId, ProxyId>> pairs;
  tree.find_moved_pairs([&](ProxyId p, ProxyId q) { pairs.insert({p, q}); });
  EXPECT_EQ(pairs, (std::set<std::pair<ProxyId, ProxyId>>{{a, b}}));
  // A ray along the top edge y = 1 (direction y exactly 0, and -0) touches both boxes.
  for (float zero : {0.0f, -0.0f}) {
    std::set<ProxyId> hit;
    tree.cast_ray({-1, 1}, {10, zero}, 1, [&](ProxyId p, float t) {
      hit.insert(p);
      return t;
    });
    EXPECT_EQ(hit, (std::set<ProxyId>{a, b})) << zero;
  }
  // A ray straight down through the point c, and one passing 1e-3 beside it.
  std::set<ProxyId> hit;
  tree.cast_ray({5, 10}, {0, -10}, 1, [&](ProxyId p, float t) {
    hit.insert(p);
    return t;
  });
  EXPECT_EQ(hit, (std::set<ProxyId>{c}));
  hit.clear();
  tree.cast_ray({5.001f, 10}, {0, -10}, 1, [&](ProxyId p, float t) {
    hit.insert(p);
    return t;
  });
  EXPECT_TRUE(hit.empty());
  // A zero-length sweep is a point (or box) overlap test at t = 0.
  hit.clear();
  tree.cast_box({0.5f, 0.5f}, {0.1f, 0.1f}, {0, 0}, 1, [&](ProxyId p, float t) {
    hit.insert(p);
    return t;
  });
  EXPECT_EQ(hit, (std::set<ProxyId>{a}));
  // A circle cast (half extents r) grazing the point c at exactly r.
  hit.clear();
  tree.cast_box({4, 10}, {1, 1}, {0, -10}, 1, [&](ProxyId p, float t) {
    hit.insert(p);
    return t;
  });
  EXPECT_EQ(hit, (std::set<ProxyId>{c}));
}

TEST(AabbTree, CallbacksStopAndShortenTheSweep) {
  AabbTree tree(TreeSettings{0, 0, 0});
  // A row of unit boxes along x at 0, 2, 4, ... 18.
  for (int i = 0; i < 10; ++i) tree.create_proxy({{float(2 * i), 0}, {float(2 * i + 1), 1}}, std::uint64_t(i));
  // Closest hit by shortening: the first box, entered at x = 0 from x = -10: t = 0.1 of 100.
  const float t = tree.cast_ray({-10, 0.5f}, {100, 0}, 1, [&](ProxyId id, float current) {
    const float entry = (float(2 * tree.user_data(id)) + 10) / 100;
    return std::min(current, entry);
  });
  EXPECT_FLOAT_EQ(t, 0.1f);
  // Front to back: with no shortening, the first box reported is the nearest one.
  std::vector<std::uint64_t> order;
  tree.cast_ray({-10, 0.5f}, {100, 0}, 1, [&](ProxyId id, float current) {
    order.push_back(tree.user_data(id));
    return current;
  });
  ASSERT_EQ(order.size(), 10u);
  EXPECT_EQ(order.front(), 0u);
  // Stopping: returning 0 ends the query after one call.
  int calls = 0;
  EXPECT_EQ(tree.cast_ray({-10, 0.5f}, {100, 0}, 1,
                          [&](ProxyId, float) {
                            ++calls;
                            return 0.0f;
                          }),
            0.0f);
  EXPECT_EQ(calls, 1);
  calls = 0;
  tree.query({{-100, -100}, {100, 100}}, [&](ProxyId) {
    ++calls;
    return calls < 3;
  });
  EXPECT_EQ(calls, 3);
}

TEST(AabbTree, BadSweepInputReportsNothing) {
  AabbTree tree;
  tree.create_proxy({{0, 0}, {1, 1}});
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  int calls = 0;
  const auto count = [&](ProxyId, float t) {
    ++calls;
    return t;
  };
  tree.cast_ray({nan, 0}, {1, 1}, 1, count);
  tree.cast_ray({0, 0}, {inf, 1}, 1, count);
  tree.cast_box({0, 0}, {nan, 1}, {1, 1}, 1, count);
  tree.cast_ray({0, 0}, {1, 1}, nan, count);
  tree.cast_ray({0, 0}, {1, 1}, -1, count);
  tree.query({{nan, nan}, {nan, nan}}, [&](ProxyId) {
    ++calls;
    return true;
  });
  EXPECT_EQ(calls, 0);
}

TEST(AabbTree, InvalidBoxesBecomeThePointAtTheOrigin) {
  AabbTree tree;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const ProxyId good = tree.create_proxy({{5, 5}, {6, 6}});
  const ProxyId bad = tree.create_proxy({{nan, 0}, {1, 1}});
  EXPECT_TRUE(tree.validate());
  EXPECT_TRUE(contains(tree.fat_box(bad), Vec2{0, 0}));
  EXPECT_TRUE(tree.move_proxy(good, {{1, 1}, {0, 0}}, {inf, 0}));  // inverted box, infinite displacement
  EXPECT_TRUE(tree.validate());
  EXPECT_TRUE(is_valid(tree.fat_box(good)));
  EXPECT_TRUE(contains(tree.fat_box(good), Vec2{0, 0}));
  EXPECT_FALSE(tree.move_proxy(bad, {{-inf, -inf}, {inf, inf}}));  // the origin again: still inside
  EXPECT_TRUE(is_valid(tree.bounds()));
}

TEST(AabbTree, FatBoxesFollowTheSettings) {
  AabbTree tree(TreeSettings{0.1f, 0.5f, 2.0f});
  // Large box: the full margin of 0.1.
  const ProxyId big = tree.create_proxy({{0, 0}, {2, 2}});
  // (2 + 0.1f in the coordinate type: 2.1f in float, a little more in double.)
  const Coordinate margin = 0.1f, side = 2;
  EXPECT_EQ(tree.fat_box(big), (Aabb{{-margin, -margin}, {side + margin, side + margin}}));
  // Small box (half extent 0.02): at most half of that.
  const ProxyId small = tree.create_proxy({{10, 10}, {10.04f, 10.02f}});
  const Aabb fat = tree.fat_box(small);
  EXPECT_NEAR(fat.lower.x, 10 - 0.01, 1e-5);
  EXPECT_NEAR(fat.upper.y, 10.02 + 0.01, 1e-5);
  // A move that leaves the fat box reinserts, stretched twice the displacement ahead.
  EXPECT_TRUE(tree.move_proxy(big, {{1, 0}, {3, 2}}, {1, 0}));
  EXPECT_NEAR(tree.fat_box(big).upper.x, 3.1 + 2, 1e-5);
  EXPECT_NEAR(tree.fat_box(big).lower.x, 0.9, 1e-5);
  // A move inside the fat box at the same speed changes nothing.
  const Aabb stretched = tree.fat_box(big);
  EXPECT_FALSE(tree.move_proxy(big, {{1.3f, 0}, {3.3f, 2}}, {1, 0}));
  EXPECT_EQ(tree.fat_box(big), stretched);
  // Standing still: the stretched fat box reaches more than 4 margins beyond the one it would get
  // now, so it is made again, tight around the box plus the margin.
  EXPECT_TRUE(tree.move_proxy(big, {{1.3f, 0}, {3.3f, 2}}, {0, 0}));
  EXPECT_NEAR(tree.fat_box(big).upper.x, 3.4, 1e-5);
  // A tree without margins keeps a box until it changes at all.
  AabbTree tight(TreeSettings{0, 0, 0});
  const ProxyId t = tight.create_proxy({{0, 0}, {1, 1}});
  EXPECT_FALSE(tight.move_proxy(t, {{0, 0}, {1, 1}}));
  EXPECT_TRUE(tight.move_proxy(t, {{0, 0}, {0.5f, 1}}));
  EXPECT_EQ(tight.fat_box(t), (Aabb{{0, 0}, {0.5f, 1}}));
  EXPECT_TRUE(tree.validate());
}

// keeps() (and so move_proxy()'s answer) is the rule TreeSettings documents, written out here
// with math.hpp's box operations: the new box lies in the fat box, and the fat box lies in the
// box grown by (1 + kShrinkMargins) margins and stretched by prediction x displacement on the side
// it points to. Boxes are drawn so that most cases sit within a few rounding steps of a bound
// (the double build compares two lanes at a time there; both builds must give the rule's answer).
TEST(AabbTree, KeepsIsTheFatBoxRule) {
  test_random::Rng rng(29);
  constexpr float kShrink = 4;  // kShrinkMargins, src/world/tree.cpp
  int kept = 0, moved = 0;
  for (const TreeSettings settings : {TreeSettings{}, TreeSettings{0.1f, 0.25f, 4.0f}, TreeSettings{0, 0, 0}}) {
    AabbTree tree(settings);
    for (int i = 0; i < 4000; ++i) {
      const Coordinate far = i % 3 == 0 ? Coordinate(1e4) : Coordinate(10);
      const Position at{Coordinate(rng.uniform(-1, 1)) * far, Coordinate(rng.uniform(-1, 1)) * far};
      const Vec2 size{float(rng.uniform(0.01, 3)), float(rng.uniform(0.01, 3))};
      const Vec2 d0{float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.3, 0.3))};
      const ProxyId id = tree.create_proxy({at, at + size});
      if (settings.prediction > 0) tree.move_proxy(id, {at + Vec2{5, 5}, at + Vec2{5, 5} + size}, d0);
      const Aabb fat = tree.fat_box(id);
      // A new box: a corner of the fat box, the old box, or in between, moved by up to a margin.
      const Vec2 inset = 0.2f * (fat.upper - fat.lower);
      const Aabb old = {fat.lower + inset, fat.upper - inset};
      const int pick = i % 4;
      const Vec2 nudge{float(rng.uniform(-1, 1)) * (pick == 0 ? 1e-6f : 0.2f),
                       float(rng.uniform(-1, 1)) * (pick == 1 ? 1e-6f : 0.2f)};
      Aabb box = pick == 2 ? Aabb{fat.lower + nudge, fat.upper + nudge} : Aabb{old.lower + nudge, old.upper + nudge};
      if (!(box.lower.x <= box.upper.x && box.lower.y <= box.upper.y)) box = old;
      const Vec2 d = i % 5 == 0 ? Vec2{} : Vec2{float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5))};
      // The rule.
      const Vec2 half = extents(box);
      const float margin =
          std::max(0.0f, std::min(settings.margin, settings.margin_fraction * std::max(half.x, half.y)));
      Aabb grown = inflate(box, margin);
      const Vec2 ahead = settings.prediction * d;
      (ahead.x < 0 ? grown.lower.x : grown.upper.x) += ahead.x;
      (ahead.y < 0 ? grown.lower.y : grown.upper.y) += ahead.y;
      const bool want = contains(fat, box) && contains(inflate(grown, kShrink * margin), fat);
      ASSERT_EQ(tree.keeps(id, box, d), want) << "case " << i;
      ASSERT_EQ(tree.move_proxy(id, box, d), !want) << "case " << i;
      (want ? kept : moved) += 1;
      tree.destroy_proxy(id);
    }
  }
  EXPECT_GT(kept, 1000);
  EXPECT_GT(moved, 1000);
}

TEST(AabbTree, QueriesAllocateNothing) {
  test_random::Rng rng(11);
  AabbTree tree;
  for (int i = 0; i < 2000; ++i) tree.create_proxy(random_box(rng, 50));
  long found = 0;
  const long before = g_allocations.load();
  for (int i = 0; i < 200; ++i) {
    tree.query(random_box(rng, 50), [&](ProxyId) {
      ++found;
      return true;
    });
    tree.cast_ray({float(rng.uniform(-60, 60)), -60}, {0, 120}, 1, [&](ProxyId, float t) {
      ++found;
      return t;
    });
    tree.cast_box({-60, float(rng.uniform(-60, 60))}, {0.5f, 0.5f}, {120, 0}, 1, [&](ProxyId, float t) {
      ++found;
      return t;
    });
  }
  EXPECT_EQ(g_allocations.load(), before);
  EXPECT_GT(found, 0);
}

TEST(AabbTree, LargeCoordinatesAndTinyBoxes) {
  // Boxes of size 0.01 at coordinates near 1e4, and of size 100 at 1e6.
  test_random::Rng rng(5);
  AabbTree tree;
  Model model;
  for (int i = 0; i < 1500; ++i) {
    const bool tiny = i % 2 == 0;
    const real at = tiny ? 1e4L : 1e6L;
    const float cx = float(at + rng.uniform(-5, 5) * (tiny ? 1 : 1000)),
                cy = float(rng.uniform(-5, 5) * (tiny ? 1 : 1000));
    const float h = tiny ? 0.005f : 50.0f;
    const Aabb box{{cx - h, cy - h}, {cx + h, cy + h}};
    model.tight[tree.create_proxy(box)] = box;
  }
  ASSERT_TRUE(tree.validate());
  for (int i = 0; i < 50; ++i) {
    const float cx = float(1e4L + rng.uniform(-5, 5)), cy = float(rng.uniform(-5, 5));
    const Aabb q{{cx - 0.5f, cy - 0.5f}, {cx + 0.5f, cy + 0.5f}};
    EXPECT_EQ(query_set(tree, q), brute_query(tree, model, q));
    check_sweep(tree, model, {cx, cy}, {}, {float(rng.uniform(-10, 10)), float(rng.uniform(-10, 10))}, 1);
  }
}
