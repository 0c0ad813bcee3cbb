// Writes the hand-made seeds of the fuzz corpus: `make_seeds <corpus dir>` creates
// <dir>/<target>/seed-<name> for the shape, query, world, primitives and decompose targets. Each seed is a
// case the random search would take long to build: exact touching, a corner on a side plane,
// parallel edges, duplicate and collinear points, zero-length rays and motions, size 0.01 at
// coordinates 1e4, NaN / infinite / 1e30 / denormal values, non-unit rotations, stale ids.
// The bytes follow FuzzInput's format (fuzz_input.hpp), written by its mirror FuzzWriter; the
// snapshot target's seeds are CollisionWorld::save() of small worlds.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <pebble/chain.hpp>
#include <pebble/world.hpp>

#include "fuzz_input.hpp"

namespace {

using pebble::Rot;
using pebble::Vec2;
using pebble_fuzz::FuzzWriter;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kDenormal = 1e-40f;

std::filesystem::path g_root;
int g_written = 0;

void save(const char* target, const std::string& name, const FuzzWriter& w) {
  const std::filesystem::path dir = g_root / target;
  std::filesystem::create_directories(dir);
  std::ofstream out(dir / ("seed-" + name), std::ios::binary);
  out.write(reinterpret_cast<const char*>(w.bytes.data()), std::streamsize(w.bytes.size()));
  ++g_written;
}

// ------------------------------------------------------------------------------------------
// shape: makers, one after another, until the input ends.

void shape_seeds() {
  save("shape", "valid-makers",
       FuzzWriter{}
           .u8(0)
           .number(1)
           .vec2({0.5f, -0.25f})  // circle
           .u8(1)
           .vec2({-1, 0})
           .vec2({1, 0})
           .number(0.25f)  // capsule
           .u8(2)
           .vec2({0, 0})
           .vec2({0, 2})  // segment
           .u8(3)
           .number(1)
           .number(0.5f)  // box
           .u8(4)
           .number(1)
           .number(0.5f)
           .vec2({2, 3})
           .number(0.3f)  // turned box
           .u8(5)
           .number(1)
           .number(0.5f)
           .number(0.5f));  // rounded box at the limit
  save("shape", "invalid-makers",
       FuzzWriter{}
           .u8(0)
           .number(-1)
           .vec2({0, 0})
           .u8(0)
           .number(kNaN)
           .vec2({0, 0})
           .u8(0)
           .number(1)
           .vec2({kInf, 0})
           .u8(3)
           .number(0)
           .number(1)
           .u8(5)
           .number(1)
           .number(0.5f)
           .number(0.75f)
           .u8(1)
           .vec2({1.0000001e7f, 0})
           .vec2({0, 0})
           .number(1)
           .u8(6)
           .u8(0)
           .number(0));  // no points
  save("shape", "degenerate-polygons",
       FuzzWriter{}
           .polygon({{0, 0}, {1, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}}, 0)   // duplicates
           .polygon({{0, 0}, {1, 1}, {2, 2}, {3, 3}}, 0.1f)                // collinear
           .polygon({{0, 0}, {1, 0}, {2, 0.0001f}, {3, 0}, {1.5f, 1}}, 0)  // nearly collinear
           .polygon({{5, 5}}, 0.5f)                                        // one point
           .polygon({{1, 1}, {1, 1}, {1, 1}}, 0));                         // one point thrice
  save("shape", "too-many-vertices",
       FuzzWriter{}.polygon({{1, 0},
                             {0.77f, 0.64f},
                             {0.17f, 0.98f},
                             {-0.5f, 0.87f},
                             {-0.94f, 0.34f},
                             {-0.94f, -0.34f},
                             {-0.5f, -0.87f},
                             {0.17f, -0.98f},
                             {0.77f, -0.64f}},
                            0));
  save("shape", "tiny-and-huge",
       FuzzWriter{}
           .u8(3)
           .number(kDenormal)
           .number(kDenormal)
           .u8(3)
           .number(1e-20f)
           .number(1e-20f)
           .u8(3)
           .number(1e7f)
           .number(1e7f)
           .polygon({{1e7f, 1e7f}, {1e7f, 9999999}, {9999999, 1e7f}}, 0)
           .polygon({{0.01f, 0}, {0.01f, 0.01f}, {0, 0.01f}}, 0.001f)
           .polygon({{1e4f, 1e4f}, {10000.01f, 1e4f}, {10000.01f, 10000.01f}}, 0));
  // Points one float step apart, written through the "nudged" point selector (how = 6).
  FuzzWriter nudged;
  nudged.u8(6)
      .u8(5)
      .vec2({0.1f, 0.1f})
      .u8(6)
      .u8(0)
      .u8(1)
      .u8(1)
      .u8(0)
      .vec2({1, 0})
      .u8(6)
      .u8(1)
      .u8(0)
      .u8(0)
      .u8(0)
      .vec2({0.5f, 1})
      .number(0);
  save("shape", "one-ulp-apart", nudged);
}

// ------------------------------------------------------------------------------------------
// query: two shapes, two transforms and every query's arguments (query_fuzz.cpp's order).

struct QueryCase {
  FuzzWriter a, b;    // shapes
  FuzzWriter xa, xb;  // transforms
  float margin = 0;
  Vec2 point{};
  Vec2 ray_origin{}, ray_translation{};
  float cast_radius = 0;
  Vec2 move_a{}, move_b{};
  float cast_target = 0;
  struct SweepArgs {
    Vec2 local_center{}, c0{}, c1{};
    float a0 = 0, a1 = 0;
  } sa, sb;
  float t_max = 1;
  bool toi_options = false;
  float toi_target = 0, toi_tolerance = 0;
  int toi_iterations = 64;
  float horizon = 1, density = 1, t_sweep = 0.5f;

  FuzzWriter bytes() const {
    FuzzWriter w;
    auto append = [&](const FuzzWriter& part) { w.bytes.insert(w.bytes.end(), part.bytes.begin(), part.bytes.end()); };
    append(a);
    append(b);
    append(xa);
    append(xb);
    w.number(margin)
        .vec2(point)
        .vec2(ray_origin)
        .vec2(ray_translation)
        .number(cast_radius)
        .vec2(move_a)
        .vec2(move_b)
        .number(cast_target);
    for (const SweepArgs* s : {&sa, &sb}) {
      w.vec2(s->local_center).vec2(s->c0);
      if (s->c1 == s->c0)
        w.flag(true);
      else
        w.flag(false).vec2(s->c1);
      w.number(s->a0);
      if (s->a1 == s->a0)
        w.flag(true);
      else
        w.flag(false).number(s->a1);
    }
    if (t_max == 1)
      w.flag(true);
    else
      w.flag(false).number(t_max);
    if (toi_options)
      w.flag(true).number(toi_target).number(toi_tolerance).u8(std::uint8_t(toi_iterations + 8));
    else
      w.flag(false);
    return w.number(horizon).number(density).number(t_sweep);
  }
};

FuzzWriter at(Vec2 p, float angle = 0) { return FuzzWriter{}.transform(p, angle); }
FuzzWriter at(Vec2 p, Rot q) { return FuzzWriter{}.transform(p, q); }

void query_seeds() {
  {  // Two unit boxes touching face to face; the point on the shared face; a ray along it.
    QueryCase c;
    c.a = FuzzWriter{}.box(1, 1);
    c.b = FuzzWriter{}.box(1, 1);
    c.xa = at({0, 0});
    c.xb = at({2, 0.5f});
    c.point = {1, 0.25f};
    c.ray_origin = {1, -3};
    c.ray_translation = {0, 6};
    c.move_b = {-1, 0};
    c.sb = {{0, 0}, {2, 0.5f}, {3, 0.5f}, 0, 0};
    save("query", "boxes-touching", c.bytes());
  }
  {  // Corner exactly on a side plane; speculative margin; circle cast grazing the corner.
    QueryCase c;
    c.a = FuzzWriter{}.box(1, 1);
    c.b = FuzzWriter{}.box(0.5f, 0.5f);
    c.xa = at({0, 0});
    c.xb = at({1.5f, 1.5f});
    c.margin = 0.02f;
    c.point = {1, 1};
    c.ray_origin = {-2, 1.5f};
    c.ray_translation = {4, 0};
    c.cast_radius = 0.5f;
    c.move_a = {0.5f, 0.5f};
    save("query", "corner-on-plane", c.bytes());
  }
  {  // Coincident circles; zero-length ray from the centre; no motion at all.
    QueryCase c;
    c.a = FuzzWriter{}.circle(1);
    c.b = FuzzWriter{}.circle(1);
    c.xa = at({3, 3});
    c.xb = at({3, 3});
    c.point = {3, 3};
    c.ray_origin = {3, 3};
    c.sa = {{0, 0}, {3, 3}, {3, 3}, 0, 0};
    c.sb = c.sa;
    c.horizon = 0;
    save("query", "coincident-circles", c.bytes());
  }
  {  // Parallel capsule and segment, exactly the capsule's radius apart; sliding motion.
    QueryCase c;
    c.a = FuzzWriter{}.capsule({-1, 0}, {1, 0}, 0.25f);
    c.b = FuzzWriter{}.segment({-2, 0}, {2, 0});
    c.xa = at({0, 0});
    c.xb = at({0, 0.25f});
    c.move_a = {1, 0};
    c.move_b = {1, 0};
    c.ray_origin = {-3, 0.25f};
    c.ray_translation = {6, 0};
    c.sa = {{0, 0}, {0, 0}, {1, 0}, 0, 0};
    c.sb = {{0, 0}, {0, 0.25f}, {1, 0.25f}, 0, 0};
    save("query", "parallel-capsule-segment", c.bytes());
  }
  {  // Size 0.01 at coordinates 1e4, rounded polygons, turning sweeps.
    QueryCase c;
    c.a = FuzzWriter{}.polygon({{0, 0}, {0.01f, 0}, {0.012f, 0.008f}, {0.002f, 0.01f}}, 0.001f);
    c.b = FuzzWriter{}.rounded_box(0.005f, 0.003f, 0.001f);
    c.xa = at({1e4f, -1e4f}, 0.3f);
    c.xb = at({10000.015f, -1e4f}, 1.1f);
    c.margin = 0.002f;
    c.point = {10000.005f, -9999.995f};
    c.ray_origin = {9999.98f, -1e4f};
    c.ray_translation = {0.05f, 0.001f};
    c.cast_radius = 0.001f;
    c.move_a = {0.01f, 0};
    c.sa = {{0.005f, 0.004f}, {10000.005f, -9999.996f}, {10000.01f, -9999.996f}, 0.3f, 2.0f};
    c.sb = {{0, 0}, {10000.015f, -1e4f}, {10000.012f, -1e4f}, 1.1f, -0.5f};
    c.toi_options = true;
    c.toi_target = 0.0005f;
    c.horizon = 2;
    save("query", "small-and-far", c.bytes());
  }
  {  // Spinning boxes: time of impact with rotation and an iteration cap.
    QueryCase c;
    c.a = FuzzWriter{}.box(2, 0.1f);
    c.b = FuzzWriter{}.box(0.5f, 0.5f);
    c.xa = at({0, 0});
    c.xb = at({3, 0});
    c.sa = {{0, 0}, {0, 0}, {0, 0}, 0, 12.566371f};
    c.sb = {{0, 0}, {3, 0}, {2.5f, 0}, 0, 0};
    c.toi_options = true;
    c.toi_iterations = 3;
    c.t_max = 0.75f;
    save("query", "spinning", c.bytes());
  }
  {  // Non-finite and absurd transforms and arguments.
    QueryCase c;
    c.a = FuzzWriter{}.box(1, 1);
    c.b = FuzzWriter{}.circle(1);
    c.xa = at({kNaN, 0});
    c.xb = at({1e30f, 0});
    c.margin = kInf;
    c.point = {kNaN, kNaN};
    c.ray_translation = {kInf, 0};
    c.cast_radius = -1;
    c.move_a = {1e30f, 0};
    c.cast_target = kNaN;
    c.sa = {{0, 0}, {kInf, 0}, {0, 0}, kNaN, 0};
    c.t_max = 2;
    c.horizon = kInf;
    c.density = -1;
    c.t_sweep = kNaN;
    save("query", "non-finite", c.bytes());
  }
  {  // Non-unit rotations: zero, doubled, just inside and outside the tolerance.
    QueryCase c;
    c.a = FuzzWriter{}.rounded_box(1, 0.5f, 0.1f);
    c.b = FuzzWriter{}.polygon({{0, 0}, {1, 0}, {0, 1}}, 0);
    c.xa = at({0, 0}, Rot{1.0009f, 0});
    c.xb = at({0.5f, 0.5f}, Rot{1.0011f, 0});
    c.point = {0.25f, 0.25f};
    save("query", "rotation-scale", c.bytes());
    c.xa = at({0, 0}, Rot{0, 0});
    c.xb = at({0, 0}, Rot{2, 0});
    save("query", "rotation-zero", c.bytes());
  }
  {  // Denormal coordinates and sizes.
    QueryCase c;
    c.a = FuzzWriter{}.box(kDenormal, kDenormal);
    c.b = FuzzWriter{}.circle(kDenormal, {kDenormal, 0});
    c.xa = at({kDenormal, -kDenormal});
    c.xb = at({0, kDenormal});
    c.margin = kDenormal;
    c.point = {kDenormal, kDenormal};
    c.ray_translation = {kDenormal, kDenormal};
    c.move_a = {kDenormal, 0};
    c.horizon = kDenormal;
    save("query", "denormals", c.bytes());
  }
  {  // Coordinates at the limit: 1e9 transforms, 1e7 shapes.
    QueryCase c;
    c.a = FuzzWriter{}.box(1e7f, 1e7f);
    c.b = FuzzWriter{}.capsule({-1e7f, 0}, {1e7f, 0}, 1e7f);
    c.xa = at({1e9f, -1e9f}, 0.7f);
    c.xb = at({1e9f, -1e9f + 3e7f}, -0.2f);
    c.margin = 1e7f;
    c.point = {1e9f, 1e9f};
    c.ray_origin = {-1e9f, -1e9f};
    c.ray_translation = {1e9f, 1e9f};
    c.move_b = {-1e9f, 1e9f};
    c.horizon = 1e9f;
    c.sa = {{1e7f, 0}, {1e9f, 1e9f}, {-1e9f, -1e9f}, 1e9f, -1e9f};
    save("query", "limits", c.bytes());
  }
}

// ------------------------------------------------------------------------------------------
// world: a settings byte, then operations (world_fuzz.cpp's switch).

void world_seeds() {
  {  // A row of boxes: add, update, move one through the others, remove, update again; stale ids.
    FuzzWriter w;
    w.u8(1);  // default margin, one thread
    for (int i = 0; i < 5; ++i) {
      w.u8(0).box(0.5f, 0.5f).transform({float(i), 0}, 0.0f).flag(false).u8(1).flag(true).u8(0);  // add, moving, solid
    }
    w.u8(8);                                                         // update
    w.u8(3).u8(0).u8(0).flag(false).transform({2.5f, 0.25f}, 0.3f);  // move collider 0
    w.u8(8);
    w.u8(2).u8(0).u8(1);  // remove collider 1
    w.u8(8);
    w.u8(2).u8(0).u8(1);                                      // remove it again: stale
    w.u8(3).u8(0).u8(1).flag(false).transform({0, 0}, 0.0f);  // move it: stale
    w.u8(2).u8(255);                                          // a garbage id
    w.u32(7).u32(1).u32(99);
    w.u8(8);
    w.u8(11).vec2({-1, 0}).vec2({10, 0}).flag(true).u8(16);  // ray through the row
    w.u8(14).vec2({0, 0}).vec2({2, 0.5f}).u8(16);            // box and point queries
    save("world", "row", w);
  }
  {  // Fixed ground, sensors, filters, circle casts and shape casts, a move of everything.
    FuzzWriter w;
    w.u8(2 | 4);                                                                          // margin 0.1, two threads
    w.u8(0).box(10, 0.5f).transform({0, -0.5f}, 0.0f).flag(true).u8(1).flag(true).u8(0);  // fixed ground
    w.u8(0).circle(0.5f).transform({0, 0.5f}, 0.0f).flag(false).u8(1).flag(true).u8(0);   // resting ball
    w.u8(0).circle(2).transform({0, 0}, 0.0f).flag(false).u8(0).flag(true).u8(0);         // sensor
    w.u8(0)
        .capsule({-1, 0}, {1, 0}, 0.25f)
        .transform({3, 0.25f}, 0.0f)
        .flag(false)
        .u8(1)
        .flag(false)
        .u8(1)
        .flag(false)
        .u8(1)
        .u8(2)
        .u8(0);  // filtered
    w.u8(8);
    w.u8(5).u8(10).u8(0);  // move everything right
    w.u8(9);
    w.u8(11).vec2({-5, 0.25f}).vec2({10, 0}).flag(false).number(0.25f).u8(16 | 32);
    w.u8(12).box(0.25f, 0.25f).transform({-5, 2}, 0.0f).vec2({10, -2}).u8(16).flag(true);
    w.u8(13).circle(1).transform({0, 0}, 0.0f).flag(false).number(0.5f).u8(16);
    w.u8(7).u8(0).u8(3).u8(0).flag(true).u8(0);  // filter change
    w.u8(6).u8(0).u8(1).box(1, 1);               // shape change
    w.u8(10);
    w.u8(15);  // optimize_fixed
    w.u8(10);
    save("world", "ground-sensor-filters", w);
  }
  {  // Invalid transforms and queries: add refused, moves refused, NaN rays.
    FuzzWriter w;
    w.u8(0);
    w.u8(0).box(1, 1).transform({kNaN, 0}, 0.0f).flag(false).u8(1).flag(true).u8(0);
    w.u8(0).box(1, 1).transform({0, 0}, Rot{2, 0}).flag(false).u8(1).flag(true).u8(0);
    w.u8(0).box(1, 1).transform({0, 0}, 0.0f).flag(false).u8(1).flag(true).u8(0);
    w.u8(3).u8(0).u8(0).flag(false).transform({1e30f, 0}, 0.0f);
    w.u8(8);
    w.u8(11).vec2({kNaN, 0}).vec2({1, 0}).flag(true).u8(16);
    w.u8(11).vec2({0, 0}).vec2({1, 0}).flag(false).number(-1).u8(16);
    w.u8(14).vec2({-kInf, 0}).vec2({1, 1}).u8(16);
    w.u8(14).vec2({-1e9f, -1e9f}).vec2({1e9f, 1e9f}).u8(16);  // a box too large for a Shape
    save("world", "invalid", w);
  }
  {  // Many small colliders at coordinates 1e4, far apart and close together.
    FuzzWriter w;
    w.u8(1);
    for (int i = 0; i < 12; ++i) {
      w.u8(0).circle(0.01f).transform({1e4f + 0.015f * float(i), -1e4f}, 0.0f).flag(i % 4 == 0).u8(1).flag(true).u8(0);
    }
    w.u8(8);
    w.u8(5).u8(1).u8(255);
    w.u8(8);
    w.u8(11).vec2({9999.9f, -1e4f}).vec2({1, 0}).flag(true).u8(16);
    save("world", "small-far", w);
  }
  // The operations on parts and the mover (op bytes 15 + 16 k: world_fuzz.cpp's 16 + k - 1).
  constexpr std::uint8_t kCompound = 31, kChain = 63, kRegrow = 95, kMakeMover = 127, kWalk = 143, kTeleport = 175,
                         kCollideShape = 191, kUpdate = 207, kMoverAndUpdate = 239;
  const auto solid = [](FuzzWriter& w, bool fixed) {
    w.flag(fixed).u8(1).flag(true).u8(0);
  };  // not a sensor, default filter
  // A chain of the points (each a step from the last after the first), at xf, fixed.
  const auto chain = [&](FuzzWriter& w, bool loop, const std::vector<Vec2>& pts, Vec2 at) {
    w.u8(kChain).flag(loop).vec2(pts[0]).u8(std::uint8_t(pts.size() - 2));
    for (std::size_t i = 1; i < pts.size(); ++i) w.u8(1).vec2(pts[i] - pts[i - 1]);
    w.transform(at, 0.0f);
    solid(w, true);
    w.u8(1);  // fixed
  };
  {  // Compounds on a fixed ground, rebuilt with more parts again and again among single adds and
     // removes; updates between, so that part-level and collider-level events come and go.
    FuzzWriter w;
    w.u8(1);
    w.u8(0).box(10, 0.5f).transform({0, -0.5f}, 0.0f);
    solid(w, true);
    w.u8(kCompound)
        .u8(2)
        .box(0.5f, 0.25f)
        .circle(0.25f, {0, 0.5f})
        .capsule({-0.5f, 0}, {0.5f, 0}, 0.1f)
        .transform({0, 0.26f}, 0.0f);
    solid(w, false);
    w.u8(kUpdate);
    for (int round = 0; round < 6; ++round) {
      w.u8(0).circle(0.25f).transform({float(round) - 3, 0.3f}, 0.0f);  // a single beside it
      solid(w, false);
      w.u8(kRegrow).u8(0).u8(std::uint8_t(2 * round + 1)).u8(std::uint8_t(round));  // the newest compound, grown
      for (int k = 0; k <= round; ++k) w.box(0.2f, 0.2f, {0.4f * float(k) - 1, 0.2f}, 0.0f);
      w.u8(8);                                                                           // update
      w.u8(2).u8(0).u8(std::uint8_t(2 + 2 * round));                                     // remove the single again
      w.u8(3).u8(0).u8(std::uint8_t(3 + 2 * round)).flag(true).u8(0).u8(16).flag(true);  // nudge the compound up
      w.u8(kUpdate);
    }
    w.u8(11).vec2({-5, 0.2f}).vec2({10, 0}).flag(true).u8(16);  // a ray along the row
    w.u8(14).vec2({-1, 0}).vec2({1, 0.5f}).u8(16);              // box and point queries
    save("world", "compound-regrow", w);
  }
  {  // A compound on two feet, and a compound table top on two of its own feet, landing on a fixed
     // ground in one update (both part pairs begin at once: the collider event names the first in
     // contacts()), lifted off in one (the end names the last in part_touch_end_events()), and a
     // sensor compound entered by both at once.
    FuzzWriter w;
    w.u8(1);
    w.u8(0).box(10, 0.5f).transform({0, -0.5f}, 0.0f);
    solid(w, true);
    w.u8(kCompound)
        .u8(2)
        .box(0.25f, 0.25f, {-1, 0}, 0.0f)
        .box(0.25f, 0.25f, {1, 0}, 0.0f)
        .box(1.25f, 0.1f, {0, 0.35f}, 0.0f)
        .transform({0, 0.5f}, 0.0f);
    solid(w, false);
    w.u8(kCompound).u8(1).capsule({-1, 0}, {-1, 1}, 0.25f).capsule({1, 0}, {1, 1}, 0.25f).transform({4, 0.5f}, 0.0f);
    solid(w, false);
    w.u8(kUpdate);
    const auto move = [&](int index, int dy) {  // collider `index` moved by dy / 64 (op 3, a small move)
      w.u8(3).u8(0).u8(std::uint8_t(index)).flag(true).u8(0).u8(std::uint8_t(std::int8_t(dy))).flag(true);
    };
    move(1, -16);  // both down by 0.25: both feet land
    move(2, -16);
    w.u8(kUpdate);
    w.u8(kCompound).u8(1).box(2, 0.5f).box(2, 0.5f, {5, 0}, 0.0f).transform({0, 2}, 0.0f);
    w.flag(false).u8(0).flag(true).u8(0);  // a sensor over both
    w.u8(kUpdate);
    move(1, 64);  // both up by 1: off the ground, into the sensor
    move(2, 64);
    w.u8(kUpdate);
    move(1, -64);  // and back down
    move(2, -64);
    w.u8(kUpdate);
    save("world", "compound-events", w);
  }
  {  // A chain floor (right to left: its front faces up) with a step, a ball and a compound on it;
     // rays and casts from above (hit) and from below (pass through); a moving loop; a sensor
     // compound crossed by the ball; collide_shape on the joint.
    FuzzWriter w;
    w.u8(2);  // margin 0.1
    chain(w, false, {{8, 0}, {2, 0}, {2, 0.25f}, {0, 0.25f}, {-8, 0.25f}}, {0, 0});
    w.u8(0).circle(0.5f).transform({1, 0.52f}, 0.0f);
    solid(w, false);
    w.u8(kCompound).u8(1).box(0.5f, 0.5f).circle(0.3f, {0, 0.6f}).transform({-3, 0.76f}, 0.0f);
    solid(w, false);
    w.u8(kCompound).u8(1).box(1, 1).box(1, 1, {2, 0}, 0.0f).transform({1, 2}, 0.0f);
    w.flag(false).u8(0).flag(true).u8(0);  // a sensor
    w.u8(kUpdate);
    w.u8(11).vec2({5, 3}).vec2({0, -6}).flag(true).u8(16);                               // from above: hits the floor
    w.u8(11).vec2({5, -3}).vec2({0, 6}).flag(true).u8(16);                               // from below: passes through
    w.u8(12).box(0.25f, 0.25f).transform({6, -2}, 0.0f).vec2({0, 4}).u8(16).flag(true);  // from below too
    w.u8(12).box(0.25f, 0.25f).transform({6, 2}, 0.0f).vec2({0, -4}).u8(16).flag(true);  // and from above
    w.u8(3).u8(0).u8(1).flag(true).u8(0).u8(64).flag(true);                              // the ball up into the sensor
    w.u8(kUpdate);
    w.u8(3).u8(0).u8(1).flag(true).u8(0).u8(192).flag(true);  // and back down
    w.u8(kUpdate);
    w.u8(kCollideShape).box(0.3f, 0.3f).transform({2, 0.3f}, 0.0f).u8(2).u8(16);
    w.u8(kChain).flag(true).vec2({0, 0}).u8(2).u8(1).vec2({1, 0}).u8(1).vec2({0, 1}).u8(1).vec2({-1, 0}).transform(
        {-4, 3}, 0.3f);
    solid(w, false);
    w.u8(0);  // this loop moves
    w.u8(kUpdate);
    w.u8(5).u8(0).u8(200);  // everything down
    w.u8(kUpdate);
    save("world", "chain-floor-sensor-compound", w);
  }
  {  // A capsule mover on a chain floor with a step, a compound wall and a drop: walked with
     // gravity, fed back; placed inside the wall; walked into the wall; the floor moved under it.
    FuzzWriter w;
    w.u8(1);
    chain(w, false, {{20, -1}, {6, -1}, {6, 0}, {3, 0}, {3, 0.2f}, {-10, 0.2f}}, {0, 0});
    w.u8(kCompound)
        .u8(2)
        .box(0.25f, 1)
        .box(0.25f, 1, {0, 2}, 0.0f)
        .capsule({0, 3}, {1, 3}, 0.2f)
        .transform({9, 0}, 0.0f);
    solid(w, true);
    w.u8(0).box(1, 0.1f).transform({-2, 2}, 0.0f);  // a platform that moves, overhead
    solid(w, false);
    w.u8(kMakeMover).capsule({0, -0.4f}, {0, 0.4f}, 0.3f).transform({-4, 0.92f}, 0.0f).u8(0).u8(0).u8(16);
    for (int i = 0; i < 6; ++i) w.u8(kWalk).u8(7).vec2({5, 0}).u8(4 | 8);  // walk right with gravity
    w.u8(kTeleport).flag(false).vec2({9, 0.5f});                           // inside the wall
    w.u8(kWalk).u8(3).vec2({-2, 0}).u8(0);
    w.u8(kTeleport).flag(false).vec2({7.5f, 0});
    w.u8(kWalk).u8(7).vec2({8, 0}).u8(1 | 8);                                          // into the wall
    w.u8(kMakeMover).box(0.3f, 0.5f).transform({-2, 2.62f}, 0.0f).u8(2).u8(0).u8(16);  // a box on the platform
    for (int i = 0; i < 4; ++i) {
      w.u8(4).u8(0).u8(2).flag(true).u8(16).u8(8).flag(true);  // the platform moves
      w.u8(kMoverAndUpdate).vec2({1, -1});
    }
    w.u8(kMakeMover)
        .polygon({{-0.3f, -0.5f}, {0.3f, -0.5f}, {0.4f, 0}, {0, 0.5f}, {-0.4f, 0}}, 0.0f)
        .transform({4, 0.51f}, 0.0f)
        .u8(3 << 6)
        .u8(2)
        .u8(16);  // up tilted (0.6, 0.8), walkable to 80 degrees
    w.u8(kWalk).u8(7).vec2({-3, 0}).u8(4 | 8);
    save("world", "mover", w);
  }
}

// ------------------------------------------------------------------------------------------
// primitives: records of one point, circle, two segments, two triangles, two boxes, two rects, a
// proper box corner pair and a box that may be inverted (primitives_fuzz.cpp's order).

void primitive_record(FuzzWriter& w, Vec2 p, Vec2 c, float r, Vec2 s0, Vec2 s1, Vec2 t0, Vec2 t1, std::vector<Vec2> tri,
                      std::vector<Vec2> tri2, Vec2 box_c = {}, Vec2 box_h = {1, 1}) {
  w.vec2(p).vec2(c).number(r).vec2(s0).vec2(s1).vec2(t0).vec2(t1);
  for (const Vec2 v : tri) w.vec2(v);
  for (const Vec2 v : tri2) w.vec2(v);
  w.vec2(box_c).vec2(box_h).vec2(box_c + Vec2{2, 0}).vec2(box_h);  // box, box2: touching
  w.vec2({0, 0}).vec2({1, 1}).vec2({1, 0}).vec2({1, 1});           // rect, rect2: touching
  w.vec2({-1, -1}).vec2({1, 1}).vec2({2, 2}).vec2({-2, -2});       // aabb, inverted aabb2
}

void primitive_seeds() {
  FuzzWriter w;
  // The exact segment / circle tangency of issue 15 item 5.
  primitive_record(w, {0, 0}, {22.544775f, -5.50697088f}, 13, {35.7326126f, 14.0712948f}, {-11.557127f, -5.63276339f},
                   {0, 0}, {1, 1}, {{0, 0}, {1, 0}, {0, 1}}, {{1, 0}, {2, 0}, {1, 1}});
  // A point on a triangle's edge, collinear overlapping segments, a zero-area triangle.
  primitive_record(w, {0.5f, 0}, {0, 0}, 0, {0, 0}, {2, 0}, {1, 0}, {3, 0}, {{0, 0}, {1, 0}, {0.5f, 1}},
                   {{0, 0}, {1, 1}, {2, 2}});
  // Zero-length segments, the exact centre of a box, huge and tiny values.
  primitive_record(w, {0, 0}, {0, 0}, -1, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {{1e30f, 0}, {0, 1e30f}, {-1e30f, -1e30f}},
                   {{kDenormal, 0}, {0, kDenormal}, {0, 0}}, {0, 0}, {0.5f, 0.25f});
  save("primitives", "exact-cases", w);
  FuzzWriter nan;
  primitive_record(nan, {kNaN, 0}, {kInf, 0}, kNaN, {kNaN, kNaN}, {0, 0}, {kInf, -kInf}, {0, 0},
                   {{kNaN, 0}, {0, 0}, {1, 1}}, {{0, 0}, {1, 0}, {0, 1}});
  save("primitives", "non-finite", nan);
}

}  // namespace

// ------------------------------------------------------------------------------------------
// decompose: up to four polygons, each a mode byte (0 points, 1 star, 2 grid walk, 3 nudged
// star), a radius flag (and radius), then the mode's data (decompose_fuzz.cpp).

FuzzWriter& points_case(FuzzWriter& w, const std::vector<Vec2>& pts, float radius = 0) {
  w.u8(0);
  if (radius != 0)
    w.u8(1).number(radius);
  else
    w.u8(0);
  w.u8(std::uint8_t(pts.size()));
  for (const Vec2 p : pts) w.vec2(p);
  return w;
}

void decompose_seeds() {
  {
    FuzzWriter w;
    points_case(w, {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}});                  // an L
    points_case(w, {{0, 2}, {1, 2}, {1, 1}, {2, 1}, {2, 0}, {0, 0}}, 0.25f);           // clockwise, rounded
    points_case(w, {{0, 0}, {1, 0}, {1, 0}, {2, 0}, {2, 2}, {0, 2}, {0, 1}, {0, 0}});  // repeats, collinear runs
    save("decompose", "valid-polygons", w);
  }
  {
    FuzzWriter w;
    points_case(w, {{0, 0}, {2, 2}, {2, 0}, {0, 2}});                                  // bow-tie
    points_case(w, {{0, 0}, {4, 0}, {4, 4}, {2, 0}, {0, 4}});                          // a point on an edge
    points_case(w, {{0, 0}, {1, 0}, {1, 1}, {2, 1}, {2, 2}, {1, 2}, {1, 1}, {0, 1}});  // a point twice
    points_case(w, {{0, 0}, {2, 0}, {2, 2}, {1, 2}, {1, 3}, {1, 2.5f}, {0, 2}});       // folding back
    save("decompose", "not-simple", w);
  }
  {
    FuzzWriter w;
    points_case(w, {{0, 0}, {1, 1}});                  // 2 points
    points_case(w, {{0, 0}, {1, 1}, {3, 3}, {2, 2}});  // collinear
    points_case(w, {{0, 0}, {1, kNaN}, {0, 1}});       // NaN
    points_case(w, {{0, 0}, {1, 0}, {0, kInf}}, -1);   // infinity, negative radius
    save("decompose", "degenerate", w);
  }
  {
    FuzzWriter w;
    points_case(w, {{-1e7f, -1e7f}, {1e7f, -1e7f}, {1e7f, 1e7f}, {0, 0}, {-1e7f, 1e7f}});  // the largest extent
    points_case(w, {{0, 0}, {1.0000001e7f, 0}, {0, 1}});                                   // just beyond it
    points_case(w, {{0, 0}, {2, 0}, {2, 2}, {1.00001f, 2}, {1, 10}, {1, 2}, {0, 2}});      // a spike 1e-5 wide
    points_case(
        w, {{10000, 10000}, {10000.01f, 10000}, {10000.01f, 10000.01f}, {10000.005f, 10000.005f}, {10000, 10000.01f}});
    save("decompose", "extremes", w);
  }
  {
    // A 1,000-vertex star of radius 10, with steps and radii from a fixed sequence.
    FuzzWriter w;
    w.u8(1).u8(0).u16(997).number(10).vec2({0, 0});
    std::uint32_t state = 12345;
    for (int i = 0; i < 1000; ++i) {
      state = state * 1664525u + 1013904223u;
      w.u8(std::uint8_t(state >> 24)).u8(std::uint8_t(77 + (state >> 16) % 179));
    }
    save("decompose", "star-1000", w);
  }
  {
    // A comb walked on the grid (teeth 2 wide, 1 apart), and a star nudged into near-touching.
    FuzzWriter w;
    const std::vector<std::pair<int, int>> comb{{0, 0}, {11, 0}, {11, 6}, {9, 6}, {9, 2}, {8, 2}, {8, 6}, {6, 6},
                                                {6, 2}, {5, 2},  {5, 6},  {3, 6}, {3, 2}, {2, 2}, {2, 6}, {0, 6}};
    w.u8(2).u8(0).u8(std::uint8_t(comb.size() - 3)).number(0.5f).vec2({-3, -2});
    for (const auto& [x, y] : comb) w.u8(std::uint8_t(x)).u8(std::uint8_t(y));
    w.u8(3).u8(0).u16(37).number(1).vec2({1e4f, 1e4f});
    for (int i = 0; i < 40; ++i) w.u8(std::uint8_t(i * 37)).u8(std::uint8_t(100 + (i * 91) % 156));
    w.u8(6);  // six edits of point k * 7: nudged up, moved between two others, a copy of another
    for (int k = 0; k < 6; ++k) {
      w.u16(std::uint16_t(k * 7)).u16(std::uint16_t(k * 7 + 5)).u16(std::uint16_t(k * 7 + 9)).u8(std::uint8_t(k % 3));
      if (k % 3 == 0) w.u8(1).u8(0);
      if (k % 3 == 1) w.u8(std::uint8_t(64 * k));
    }
    save("decompose", "comb-and-nudged-star", w);
  }
  {
    // Rounded pieces far out (queried as a compound of a world: overlap_point, rays and discs).
    FuzzWriter w;
    points_case(w, {{1e4f, 1e4f}, {1e4f + 4, 1e4f}, {1e4f + 4, 1e4f + 3}, {1e4f + 2, 1e4f + 1}, {1e4f, 1e4f + 3}},
                0.5f);
    points_case(w, {{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}}, 0.0f);
    save("decompose", "world-compound", w);
  }
}

// ------------------------------------------------------------------------------------------
// snapshot: CollisionWorld::save() of small worlds of every kind (each under fuzz.sh's 2048 bytes).

void save_world(const std::string& name, const pebble::CollisionWorld& world) {
  const std::vector<std::byte> bytes = world.save();
  FuzzWriter w;
  for (const std::byte b : bytes) w.u8(std::uint8_t(b));
  save("snapshot", name, w);
}

void snapshot_seeds() {
  using pebble::CollisionWorld;
  using pebble::Shape;
  using pebble::Transform;
  save_world("empty", CollisionWorld());
  {
    // Three touching shapes after an update: pairs, kept manifolds, contacts, begin events.
    CollisionWorld w;
    w.add(Shape::box(1, 1), Transform::identity());
    w.add(Shape::circle(0.5f), {{1.4f, 0}, Rot::identity()});
    w.add(Shape::capsule({-1, 0}, {1, 0}, 0.25f), {{0, 1.2f}, Rot::from_angle(0.1f)});
    w.update();
    w.update();
    save_world("touching-three", w);
  }
  {
    // A compound on a chain beside a sensor; then one removed, its end events pending.
    pebble::WorldSettings settings;
    settings.reuse_bounds = pebble::ReuseBounds::box2d_v3();
    CollisionWorld w(settings);
    const Vec2 ground[] = {{-4, 0}, {-1, 0.2f}, {2, 0}, {4, 0.5f}};
    w.add(pebble::Chain::open(ground), Transform::identity());
    const Shape parts[] = {Shape::box(0.5f, 0.25f), Shape::circle(0.3f, {0.6f, 0.2f})};
    const pebble::ColliderId body = w.add(std::span<const Shape>(parts), {{0, 0.4f}, Rot::identity()});
    pebble::ColliderOptions sensor;
    sensor.sensor = true;
    w.add(Shape::circle(1.5f), {{0.5f, 0.5f}, Rot::identity()}, sensor);
    pebble::ColliderOptions filtered;
    filtered.filter.category = 2;
    filtered.filter.group = -1;
    const pebble::ColliderId box =
        w.add(Shape::rounded_box(0.4f, 0.3f, 0.1f), {{-2, 0.5f}, Rot::from_angle(0.3f)}, filtered);
    w.update();
    w.set_transform(body, {{0.01f, 0.41f}, Rot::identity()});
    w.update();
    w.remove(box);
    save_world("compound-chain-sensor-removed", w);
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seeds <corpus dir>\n");
    return 2;
  }
  g_root = argv[1];
  shape_seeds();
  query_seeds();
  world_seeds();
  primitive_seeds();
  decompose_seeds();
  snapshot_seeds();
  std::printf("wrote %d seeds under %s\n", g_written, argv[1]);
  return 0;
}
