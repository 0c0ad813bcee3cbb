// bench/cost/cost.cpp — instructions per call of pebble's queries, for callgrind
// (scripts/cost.sh). Wall-clock benchmarks wander with the machine's load; instruction counts do
// not, so a change that must keep a query's cost ("within 2% per call") is checked with these.
// Each row runs one query over 256 fixed pairs placed near contact (3 in 4 within 10% of the
// smaller size), inside pebble_cost_loop(), the only function callgrind counts.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <pebble/pebble.hpp>

using namespace pebble;

namespace {

struct Pair {
  Shape a, b;
  Transform xa, xb;
};

Shape make(const std::string& kind) {
  if (kind == "box") return Shape::box(0.5f, 0.3f);
  if (kind == "circle") return Shape::circle(0.4f);
  if (kind == "capsule") return Shape::capsule({-0.4f, 0}, {0.4f, 0}, 0.2f);
  if (kind == "rounded") return Shape::rounded_box(0.5f, 0.3f, 0.1f);
  std::vector<Vec2> octagon;
  for (int i = 0; i < 8; ++i)
    octagon.push_back({0.5f * std::cos(0.785398f * float(i)), 0.5f * std::sin(0.785398f * float(i))});
  return Shape::polygon(octagon);
}

/// B placed along a random direction from A at a signed distance drawn from [-0.1, 0.3] x 0.5
/// (bisection on pebble::distance: the cost harness only needs inputs near contact).
std::vector<Pair> pairs(const std::string& ka, const std::string& kb) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> angle(-3.14159f, 3.14159f), gap(-0.05f, 0.15f);
  std::vector<Pair> out;
  for (int i = 0; i < 256; ++i) {
    Pair p{make(ka), make(kb), {{0.3f, -0.2f}, Rot::from_angle(angle(rng))}, {}};
    const float dir = angle(rng), target = gap(rng);
    const Rot qb = Rot::from_angle(angle(rng));
    float lo = 0, hi = 4;
    for (int k = 0; k < 40; ++k) {
      const float mid = 0.5f * (lo + hi);
      const Transform xb{p.xa.p + mid * Vec2{std::cos(dir), std::sin(dir)}, qb};
      (distance(p.a, p.xa, p.b, xb).distance < target ? lo : hi) = mid;
    }
    p.xb = {p.xa.p + hi * Vec2{std::cos(dir), std::sin(dir)}, qb};
    out.push_back(p);
  }
  return out;
}

volatile float g_sink;

/// The world rows: every pair's two shapes in one CollisionWorld, pair i at (4 i mod 160, 4 (i / 40)).
struct WorldScene {
  CollisionWorld world;
  std::vector<ColliderId> ids;
  std::vector<Transform> places;
};

WorldScene& world_scene(const std::vector<Pair>& ps) {
  static WorldScene scene;
  if (!scene.ids.empty()) return scene;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const Vec2 offset{4.0f * float(i % 40), 4.0f * float(i / 40)};
    for (int k = 0; k < 2; ++k) {
      const Transform xf{(k == 0 ? ps[i].xa.p : ps[i].xb.p) + offset, k == 0 ? ps[i].xa.q : ps[i].xb.q};
      scene.ids.push_back(scene.world.add(k == 0 ? ps[i].a : ps[i].b, xf));
      scene.places.push_back(xf);
    }
  }
  scene.world.update();
  return scene;
}

}  // namespace

extern "C" [[gnu::noinline]] void pebble_cost_loop(const char* query, const std::vector<Pair>& ps, int rounds) {
  float sink = 0;
  const bool is_collide = std::strcmp(query, "collide") == 0, is_distance = std::strcmp(query, "distance") == 0;
  const bool is_cast = std::strcmp(query, "shape_cast") == 0, is_ray = std::strcmp(query, "raycast") == 0;
  const bool is_toi = std::strcmp(query, "toi") == 0;
  if (std::strcmp(query, "world_step") == 0 || std::strcmp(query, "world_query") == 0) {
    // Per call: one collider moved and updated (world_step: all of them moved a little, then
    // update(), divided by the collider count), or one ray and one box query (world_query).
    WorldScene& w = world_scene(ps);
    for (int r = 0; r < rounds; ++r) {
      if (query[6] == 's') {
        const float wiggle = 0.01f * float(r % 4 < 2 ? 1 : -1);
        for (std::size_t i = 0; i < w.ids.size(); ++i) {
          w.places[i].p.x += wiggle;
          w.world.set_transform(w.ids[i], w.places[i]);
        }
        w.world.update();
        sink += float(w.world.contacts().size());
      } else {
        for (const Pair& p : ps) {
          const Position at = p.xa.p + Vec2{4.0f * float(&p - ps.data()) / 40.0f, 0};
          if (const auto hit = w.world.cast_ray(Ray{at - Vec2{3, 1}, {6, 2}})) sink += hit.hit.fraction;
          w.world.overlap_aabb(Aabb{at - Vec2{1, 1}, at + Vec2{1, 1}}, [&](ColliderId) { return sink += 1, true; });
        }
      }
    }
    g_sink = sink;
    return;
  }
  for (int r = 0; r < rounds; ++r) {
    for (const Pair& p : ps) {
      if (is_collide) {
        const Manifold m = collide(p.a, p.xa, p.b, p.xb, 0.02f);
        sink += float(m.count) + (m.count > 0 ? m.points[0].separation + float(m.points[0].id) : 0);
      } else if (is_distance) {
        sink += distance(p.a, p.xa, p.b, p.xb).distance;
      } else if (is_cast) {
        sink += cast_shape(p.a, p.xa, {0.3f, 0.1f}, p.b, p.xb, {-0.4f, 0.05f}).fraction;
      } else if (is_ray) {
        sink += cast_ray(p.a, p.xa, Ray{p.xb.p, 2.0f * (p.xa.p - p.xb.p)}).fraction;
      } else if (is_toi) {
        const Sweep sa{{}, p.xa.p, p.xa.p + Vec2{0.2f, 0.1f}, p.xa.q.angle(), p.xa.q.angle() + 0.5f};
        const Sweep sb{{}, p.xb.p, p.xb.p - Vec2{0.3f, 0}, p.xb.q.angle(), p.xb.q.angle() - 0.3f};
        sink += time_of_impact(p.a, sa, p.b, sb).fraction;
      } else {
        sink += closest_approach(p.a, p.xa, {0.3f, 0.1f}, p.b, p.xb, {-0.4f, 0.05f}, 2.0f).time;
      }
    }
  }
  g_sink = sink;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: cost QUERY KIND_A KIND_B [ROUNDS]\n");
    return 2;
  }
  const std::vector<Pair> ps = pairs(argv[2], argv[3]);
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 40;
  if (std::strcmp(argv[1], "world_step") == 0 || std::strcmp(argv[1], "world_query") == 0) world_scene(ps);
  pebble_cost_loop(argv[1], ps, rounds);
  // world_step: per collider per step (two colliders per pair); otherwise per query.
  std::printf("%d calls\n", rounds * int(ps.size()) * (std::strcmp(argv[1], "world_step") == 0 ? 2 : 1));
  return 0;
}
