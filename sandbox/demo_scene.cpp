// The demo scene: sizes, kinds and the release schedule.
#include "sandbox/demo_scene.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <pebble/chain.hpp>
#include <pebble/decompose.hpp>
#include <pebble/tiles.hpp>

namespace pebble::sandbox {
namespace {

/// Largest extent of a falling shape (m): the release grid's spacing leaves room for it.
constexpr float kMaxShapeSize = 0.8f;
/// Spacing of the release grid (m).
constexpr float kCellSize = 0.9f;
/// Downward speed at release (m/s): fast enough that a row is a cell below the next one when
/// that one is released (4 m/s x 0.25 s > kCellSize).
constexpr float kReleaseSpeed = 4.0f;
/// Thickness of the container's walls (m).
constexpr float kWallThickness = 0.4f;
/// The container's floor: hills of this height (m) around kFloorHeight, points kFloorStep apart.
constexpr float kFloorHeight = 0.2f;
constexpr float kHillHeight = 0.12f;
constexpr float kHillFrequency = 1.9f;  // rad/m
constexpr float kFloorStep = 0.5f;
/// The tile map's cell (m).
constexpr float kTile = 0.5f;

/// A float in [lo, hi) from the generator's 32 bits: the same on every standard library (the
/// std:: distributions are not specified bit for bit).
float uniform(std::mt19937& rng, float lo, float hi) {
  return lo + (hi - lo) * static_cast<float>(rng() >> 8) * (1.0f / 16777216.0f);
}

Shape make_shape(ShapeKind kind, std::mt19937& rng) {
  const float half = 0.5f * kMaxShapeSize;
  switch (kind) {
    case ShapeKind::box:
      return Shape::box(uniform(rng, 0.1f, half * 0.7f), uniform(rng, 0.1f, half * 0.7f));
    case ShapeKind::rounded_box: {
      const float w = uniform(rng, 0.12f, half * 0.7f), h = uniform(rng, 0.12f, half * 0.7f);
      return Shape::rounded_box(w, h, uniform(rng, 0.02f, 0.6f * std::min(w, h)));
    }
    case ShapeKind::capsule: {
      const float r = uniform(rng, 0.07f, 0.16f), l = uniform(rng, 0.1f, half - r);
      return Shape::capsule({-l, 0}, {l, 0}, r);
    }
    case ShapeKind::circle:
      return Shape::circle(uniform(rng, 0.1f, half * 0.8f));
    case ShapeKind::polygon:
    case ShapeKind::rounded_polygon: {
      const int n = 3 + static_cast<int>(rng() % 6);  // 3..8 vertices
      const float rounding = kind == ShapeKind::rounded_polygon ? uniform(rng, 0.02f, 0.08f) : 0.0f;
      const float size = uniform(rng, 0.14f, half) - rounding;
      Vec2 points[kMaxPolygonVertices];
      const float turn = uniform(rng, 0, 1);
      for (int i = 0; i < n; ++i) {
        const float a = 2 * std::numbers::pi_v<float> * (static_cast<float>(i) + turn + uniform(rng, -0.25f, 0.25f)) /
                        static_cast<float>(n);
        const float r = size * uniform(rng, 0.75f, 1.0f);
        const Rot q = Rot::from_angle(a);  // pebble's trig: the same pile on every platform
        points[i] = {r * q.c, r * q.s};
      }
      return Shape::polygon(std::span<const Vec2>(points, static_cast<size_t>(n)), rounding);
    }
    case ShapeKind::ground:
    case ShapeKind::concave:
      break;
  }
  return Shape::circle(0.2f);
}

/// A concave piece (an L, a U, a T or a notched star), cut by decompose() into the convex parts
/// of a compound body, rounded a little.
std::vector<Shape> make_concave(std::mt19937& rng) {
  const float s = uniform(rng, 0.22f, 0.5f * kMaxShapeSize - 0.05f), t = s * uniform(rng, 0.35f, 0.5f);
  std::vector<Vec2> p;
  switch (rng() % 4) {
    case 0:
      p = {{-s, -s}, {s, -s}, {s, -s + t}, {-s + t, -s + t}, {-s + t, s}, {-s, s}};
      break;  // L
    case 1:
      p = {{-s, -s}, {s, -s}, {s, s}, {s - t, s}, {s - t, -s + t}, {-s + t, -s + t}, {-s + t, s}, {-s, s}};
      break;  // U
    case 2:
      p = {{-0.5f * t, -s}, {0.5f * t, -s}, {0.5f * t, s - t}, {s, s - t},
           {s, s},          {-s, s},        {-s, s - t},       {-0.5f * t, s - t}};
      break;    // T
    default: {  // a star with 5 to 7 points
      const int n = 5 + static_cast<int>(rng() % 3);
      for (int i = 0; i < 2 * n; ++i) {
        const float a = std::numbers::pi_v<float> * static_cast<float>(i) / static_cast<float>(n);
        const float r = i % 2 ? 0.55f * s : s;
        const Rot q = Rot::from_angle(a);
        p.push_back({r * q.c, r * q.s});
      }
    }
  }
  return decompose(p, uniform(rng, 0.0f, 0.03f));
}

}  // namespace

std::string_view kind_name(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::ground:
      return "ground";
    case ShapeKind::box:
      return "box";
    case ShapeKind::rounded_box:
      return "rounded box";
    case ShapeKind::capsule:
      return "capsule";
    case ShapeKind::circle:
      return "circle";
    case ShapeKind::polygon:
      return "polygon";
    case ShapeKind::rounded_polygon:
      return "rounded polygon";
    case ShapeKind::concave:
      return "concave";
  }
  return "?";
}

DemoScene::DemoScene(const DemoSceneSettings& settings) {
  const int count = std::max(0, settings.shape_count);
  std::mt19937 rng(settings.seed);
  // About 10 m wide for 200 shapes, keeping the pile's height near half its width.
  const int columns = std::max(3, static_cast<int>(std::lround(11.0 * std::sqrt(count / 200.0))));
  inner_width_ = static_cast<float>(columns) * kCellSize + 0.5f;
  const int rows = (count + columns - 1) / columns;

  std::vector<BodyDef> defs;
  float total_area = 0;
  for (int i = 0; i < count; ++i) {
    // Every kind appears once among the first shapes, then kinds are drawn at random.
    const auto kind =
        static_cast<ShapeKind>(1 + (i < kShapeKindCount - 1 ? i : static_cast<int>(rng() % (kShapeKindCount - 1))));
    BodyDef def;
    if (kind == ShapeKind::concave) {
      def.parts = make_concave(rng);
      def.shape = def.parts[0];
    } else {
      def.shape = make_shape(kind, rng);
    }
    def.friction = 0.6f;
    def.restitution = uniform(rng, 0.0f, 0.3f);
    def.angular_velocity = uniform(rng, -2.0f, 2.0f);
    def.velocity = {uniform(rng, -0.5f, 0.5f), -kReleaseSpeed};
    def.xf.q = Rot::from_angle(uniform(rng, -std::numbers::pi_v<float>, std::numbers::pi_v<float>));
    for (const Shape& part : def.parts.empty() ? std::vector<Shape>{def.shape} : def.parts) total_area += area(part);
    pending_.push_back({def, kind, 0});
  }
  // Walls high enough for the pile: its area over the width at a packing of 0.6, plus half a
  // metre. (The 200-shape piles of seeds 1 to 20 fill 0.68 to 0.75 of the box up to their highest
  // point, so they stop a metre or more below the top.)
  wall_height_ = std::max(2.0f, total_area / (0.6f * inner_width_) + 0.5f);
  const float release_y = wall_height_ + 1.0f;
  for (int i = 0; i < count; ++i) {
    const int row = i / columns, column = i % columns;
    // Odd rows shift by half a cell so that shapes land between those of the row below.
    const float x =
        (static_cast<float>(column) - 0.5f * static_cast<float>(columns - 1) + (row % 2 ? 0.25f : -0.25f)) * kCellSize;
    pending_[static_cast<size_t>(i)].def.xf.p = Vec2{x + uniform(rng, -0.05f, 0.05f), release_y};
    pending_[static_cast<size_t>(i)].time = static_cast<float>(row) * settings.row_interval;
  }
  (void)rows;
  const float half = 0.5f * inner_width_ + 0.1f * wall_height_;  // the walls lean out by a tenth of their height
  const float ground_half = half + kWallThickness + 2.0f;
  view_ = {{-ground_half, -2 * kTile - 0.2f}, {ground_half, release_y + kMaxShapeSize}};
  container_view_ = {{-half - kWallThickness - 0.5f, -0.2f}, {half + kWallThickness + 0.5f, wall_height_ + 0.5f}};
}

void DemoScene::add_container(Stepper& stepper) {
  const float half = 0.5f * inner_width_, t = kWallThickness, top = wall_height_;
  constexpr float kFriction = 0.6f;
  // The container is terrain: a block of ground with a valley carved in it, one loop whose points
  // run counter-clockwise around the solid (docs/terrain.md). Its inner walls lean out a little and
  // its floor rolls in low hills, so the pile rests on convex and concave corners of one chain.
  std::vector<Vec2> block;
  const float lean = 0.1f * top;
  block.push_back({half + lean + t, top});  // outer right top
  block.push_back({half + lean, top});      // inner right top
  const int bumps = std::max(4, static_cast<int>(std::lround(inner_width_ / kFloorStep)));
  for (int i = 0; i <= bumps; ++i) {
    const float x = half - inner_width_ * static_cast<float>(i) / static_cast<float>(bumps);
    block.push_back({x, kFloorHeight + kHillHeight * Rot::from_angle(kHillFrequency * x).s});
  }
  block.push_back({-half - lean, top});      // inner left top
  block.push_back({-half - lean - t, top});  // outer left top
  block.push_back({-half - lean - t, 0});    // down the outside, across the bottom
  block.push_back({half + lean + t, 0});
  stepper.add_chain(Chain::loop(block), Transform::identity(), kFriction);
  kinds_.push_back(ShapeKind::ground);

  // Around it, a tile map: a floor two cells deep with steps near its ends, outlined into loops
  // (outline_tiles) so that a shape that bounces out slides over the tiles without catching.
  const float ground_half = half + lean + t + 2.0f;
  const int columns = static_cast<int>(std::ceil(2 * ground_half / kTile));
  std::vector<std::uint8_t> solid(static_cast<size_t>(3 * columns), 0);
  for (int c = 0; c < columns; ++c) {
    solid[static_cast<size_t>(c)] = solid[static_cast<size_t>(columns + c)] = 1;
    if (c < 2 || c >= columns - 2) solid[static_cast<size_t>(2 * columns + c)] = 1;  // a step at each end
  }
  const TileGrid grid{columns, 3, solid, {-0.5f * kTile * static_cast<float>(columns), -2 * kTile}, {kTile, kTile}};
  for (const Outline& outline : outline_tiles(grid)) {
    stepper.add_chain(Chain::loop(outline.points), Transform::identity(), kFriction);
    kinds_.push_back(ShapeKind::ground);
  }
}

int DemoScene::release(Stepper& stepper, float time) {
  int added = 0;
  while (next_ < pending_.size() && pending_[next_].time <= time) {
    stepper.add(pending_[next_].def);
    kinds_.push_back(pending_[next_].kind);
    ++next_;
    ++added;
  }
  return added;
}

float DemoScene::last_release_time() const { return pending_.empty() ? 0.0f : pending_.back().time; }

}  // namespace pebble::sandbox
