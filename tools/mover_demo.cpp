// `pebble mover` (tools/mover_demo.hpp): the level, the scripted walk and the GIF.
#include "tools/mover_demo.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "tools/draw.hpp"
#include "tools/gif_writer.hpp"
#include "tools/output_file.hpp"
#include "tools/scene_file.hpp"

namespace pebble::tools {
namespace {

constexpr float kStep = 1.0f / 60.0f;
constexpr float kWalkSpeed = 4.0f;
constexpr float kGravity = -20.0f;
constexpr int kMaxSteps = 60 * 40;

// The lift: a slab at x = kLiftX that rises from the ground to the ledge and back.
constexpr float kLiftX = 54.0f, kLiftHalfWidth = 1.0f, kLiftHalfHeight = 0.1f, kLedgeTop = 2.1f;
constexpr float kLiftRate = 0.9f;  // radians per second of its cosine
float lift_y(float t) {
  return kLiftHalfHeight + 0.5f * (kLedgeTop - 2 * kLiftHalfHeight) * (1 - std::cos(kLiftRate * t));
}

struct Level {
  CollisionWorld world;
  std::vector<ColliderId> chains;
  ColliderId lift;

  Level() {
    ColliderOptions fixed;
    fixed.fixed = true;
    // The ground from the start to the tile map: flat, two hills, stairs up to a plateau and down.
    std::vector<Vec2> ground{{-6, 0}, {4, 0}, {8, 1.2f}, {12, 0}, {15, 0.9f}, {18, 0}, {20, 0}};
    float x = 20, y = 0;
    for (int i = 0; i < 5; ++i) {  // up: five steps of 0.2
      y += 0.2f;
      ground.push_back({x, y});
      x += 0.8f;
      ground.push_back({x, y});
    }
    ground.push_back({x + 4, y});  // the plateau
    x += 4;
    for (int i = 0; i < 5; ++i) {  // down: five drops of 0.2 (snapped)
      y -= 0.2f;
      ground.push_back({x, y});
      x += 0.8f;
      ground.push_back({x, y});
    }
    ground.push_back({34, 0});
    // A chain runs counter-clockwise around the solid: the floor from right to left.
    std::reverse(ground.begin(), ground.end());
    chains.push_back(world.add(Chain::open(ground), Transform::identity(), fixed));
    // A tile map from x = 34 to 44, cells 0.5 x 0.25, its top at 0 with bumps one cell high.
    const int columns = 20, rows = 4;
    std::vector<std::uint8_t> solid(std::size_t(columns * rows), 0);
    for (int c = 0; c < columns; ++c) {
      for (int r = 0; r < 3; ++r) solid[std::size_t(r * columns + c)] = 1;
      if ((c >= 4 && c < 8) || (c >= 12 && c < 14)) solid[std::size_t(3 * columns + c)] = 1;
    }
    for (const Outline& o : outline_tiles(TileGrid{columns, rows, solid, {34, -0.75f}, {0.5f, 0.25f}}))
      chains.push_back(
          world.add(o.closed ? Chain::loop(o.points) : Chain::open(o.points), Transform::identity(), fixed));
    // The floor to the lift, the pit under it, the ledge beyond and the wall.
    chains.push_back(world.add(Chain::open(std::vector<Vec2>{{kMoverLevelWall, 6},
                                                             {kMoverLevelWall, kLedgeTop},
                                                             {kLiftX + kLiftHalfWidth + 0.05f, kLedgeTop},
                                                             {kLiftX + kLiftHalfWidth + 0.05f, 0},
                                                             {44, 0}}),
                               Transform::identity(), fixed));
    lift = world.add(Shape::box(kLiftHalfWidth, kLiftHalfHeight), Transform{{kLiftX, lift_y(0)}, Rot::identity()});
  }
};

Shape mover_shape(const std::string& name) {
  if (name == "capsule") return Shape::capsule({0, -0.45f}, {0, 0.45f}, 0.3f);
  if (name == "box") return Shape::box(0.3f, 0.75f);
  if (name == "rounded-box") return Shape::rounded_box(0.3f, 0.75f, 0.1f);
  if (name == "circle") return Shape::circle(0.45f);
  if (name == "polygon") {
    const Vec2 points[] = {{0.3f, -0.75f}, {0.4f, 0.f}, {0.25f, 0.75f}, {-0.25f, 0.75f}, {-0.4f, 0.f}, {-0.3f, -0.75f}};
    return Shape::polygon(points);
  }
  throw InputError("mover: unknown --shape '" + name + "' (capsule, box, rounded-box, circle or polygon)");
}

// The scripted input: walk right; before the lift, wait until it is down; on it, stand until it
// is up; then walk on to the wall.
struct Script {
  bool lifted = false;  // rode the lift to the top: walk on from now on

  Vec2 input(const MoverStep& last, const Level& level, float t) {
    float vx = kWalkSpeed;
    const float x = last.transform.p.x;
    const bool on_lift = last.ground.grounded && last.ground.collider == level.lift;
    if (on_lift && lift_y(t) >= kLedgeTop - kLiftHalfHeight - 0.02f) lifted = true;
    if (on_lift && !lifted) {
      vx = 0;  // ride it up
    } else if (!lifted && x > kLiftX - kLiftHalfWidth - 1.0f && x < kLiftX - kLiftHalfWidth - 0.3f &&
               lift_y(t) > kLiftHalfHeight + 0.02f) {
      vx = 0;  // wait at the foot of the lift until it comes down
    }
    return {vx, last.velocity.y + kGravity * kStep};
  }
};

void draw_frame(Canvas& canvas, const Level& level, const Shape& shape, const MoverStep& s,
                const std::vector<Vec2>& trail) {
  cairo_t* cr = canvas.cr;
  const int w = cairo_image_surface_get_width(canvas.surface), h = cairo_image_surface_get_height(canvas.surface);
  const float cx = s.transform.p.x;
  const Aabb window{{cx - 8, -1.5f}, {cx + 8, -1.5f + 16.0f * float(h) / float(w)}};
  const View view = View::fit(window, 0, 0, w, h);
  set_color(cr, colors::background);
  cairo_paint(cr);
  for (const ColliderId id : level.chains) {
    for (int k = 0; k < level.world.part_count(id); ++k)
      draw_shape(cr, view, *level.world.part(id, k), *level.world.transform(id), colors::ground, 1, colors::outline, 2);
  }
  draw_shape(cr, view, *level.world.shape(level.lift), *level.world.transform(level.lift), colors::fills[1], 0.9,
             colors::outline, 1.5);
  for (std::size_t i = 1; i < trail.size(); ++i) {
    cairo_move_to(cr, view.px(trail[i - 1].x), view.py(trail[i - 1].y));
    cairo_line_to(cr, view.px(trail[i].x), view.py(trail[i].y));
  }
  set_color(cr, colors::closest, 0.5);
  cairo_set_line_width(cr, 1.5);
  cairo_stroke(cr);
  draw_shape(cr, view, shape, s.transform, s.ground.grounded ? colors::fills[0] : colors::fills[3], 0.9,
             colors::outline, 1.5);
  if (s.ground.grounded) {
    draw_dot(cr, view, s.ground.point, 3, colors::contact);
    draw_arrow(cr, view, s.ground.point, s.ground.normal, 28, colors::contact, 2);
  }
  char text[128];
  std::snprintf(text, sizeof text, "%s%s%s", s.ground.grounded ? "grounded" : "in the air", s.stepped ? "  step" : "",
                s.snapped ? "  snap" : "");
  draw_text(cr, 10, 20, text, 14, colors::text, true);
  cairo_surface_flush(canvas.surface);
}

// The picture of docs/mover.md: a capsule in a corner of a floor and a 60-degree wall, its contact
// planes (mover_planes) drawn as lines with their normals, the velocity asked (grey) and what
// clip_vector leaves of it (green).
std::string planes_picture(int width) {
  CollisionWorld world;
  ColliderOptions fixed;
  fixed.fixed = true;
  const float rise = std::tan(60 * 3.14159265f / 180);
  world.add(Chain::open(std::vector<Vec2>{{3.0f, 2.5f * rise}, {0.5f, 0}, {-3, 0}}), Transform::identity(), fixed);
  const Shape capsule = Shape::capsule({0, -0.45f}, {0, 0.45f}, 0.3f);
  CharacterMover mover(capsule, Transform{{-0.5f, 1.0f}, Rot::identity()});
  for (int i = 0; i < 90; ++i) mover.step(world, {3, -5}, kStep);  // walked into the corner
  MoverPlane planes[8];
  const int n = mover_planes(world, capsule, mover.transform(), 0.05f, planes);
  const Vec2 asked{3, -1.5f};
  const Vec2 clipped = clip_vector(asked, std::span<const MoverPlane>(planes, std::size_t(n)));

  const int height = width * 5 / 8;
  Canvas canvas(width, height);
  cairo_t* cr = canvas.cr;
  const View view = View::fit(Aabb{{-2.2f, -0.6f}, {2.2f, 2.15f}}, 0, 0, width, height);
  set_color(cr, colors::background);
  cairo_paint(cr);
  world.overlap_aabb(Aabb{{-10, -10}, {10, 10}}, [&](ColliderId id) {
    for (int k = 0; k < world.part_count(id); ++k)
      draw_shape(cr, view, *world.part(id, k), *world.transform(id), colors::ground, 1, colors::outline, 2.5);
    return true;
  });
  draw_shape(cr, view, capsule, mover.transform(), colors::fills[0], 0.85, colors::outline, 2);
  for (int i = 0; i < n; ++i) {
    const Vec2 along{-planes[i].normal.y, planes[i].normal.x};
    const Vec2 a = planes[i].point - 1.2f * along, b = planes[i].point + 1.2f * along;
    cairo_move_to(cr, view.px(a.x), view.py(a.y));
    cairo_line_to(cr, view.px(b.x), view.py(b.y));
    set_color(cr, colors::contact, 0.8);
    cairo_set_line_width(cr, 2);
    const double dash[] = {8, 5};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_stroke(cr);
    cairo_set_dash(cr, nullptr, 0, 0);
    draw_dot(cr, view, planes[i].point, 4, colors::contact);
    draw_arrow(cr, view, planes[i].point, planes[i].normal, 50, colors::contact, 2.5);
  }
  // A second velocity, away from the wall and into the floor: clipping keeps its level part.
  const Vec2 back{-2.5f, -1.5f};
  const Vec2 back_clipped = clip_vector(back, std::span<const MoverPlane>(planes, std::size_t(n)));
  const Vec2 c = mover.transform().p;
  for (const auto& [v, w] : {std::pair{asked, clipped}, std::pair{back, back_clipped}}) {
    draw_arrow(cr, view, c, normalize(v), 40 * length(v), colors::axis, 3);
    if (length(w) > 0.05f) draw_arrow(cr, view, c, normalize(w), 40 * length(w), colors::hit, 3);
  }
  draw_text(cr, 12, 24, "contact planes (red); velocities asked (grey) and clipped against the planes (green):", 15,
            colors::text);
  draw_text(cr, 12, 44, "into the corner, what runs up along the wall is left; away from the wall, the level part", 15,
            colors::text);
  return png_bytes(canvas.surface);
}

}  // namespace

MoverDemoSummary run_mover_demo(const MoverDemoOptions& options, std::ostream& out) {
  namespace fs = std::filesystem;
  const Shape shape = mover_shape(options.shape);
  if (options.gif_width < 64 || options.gif_every < 1)
    throw InputError("mover: expected --gif-width >= 64 and --gif-every >= 1");
  std::error_code ec;
  fs::create_directories(options.output, ec);
  if (ec || !fs::is_directory(options.output))
    throw InputError(options.output + ": cannot create the output folder (" + (ec ? ec.message() : "not a folder") +
                     ")");

  Level level;
  float bottom = 0;
  for (const Vec2 v : shape.vertices()) bottom = std::max(bottom, -v.y);
  bottom += shape.radius();
  CharacterMover mover(shape, Transform{{-4, bottom + 0.3f}, Rot::identity()});

  const int gif_height = 2 * (options.gif_width * 3 / 8 / 2);
  const std::vector<Rgb> keys{colors::background, colors::outline, colors::ground,  colors::fills[0], colors::fills[1],
                              colors::fills[3],   colors::closest, colors::contact, colors::text};
  const Palette palette(keys);
  GifWriter gif(options.gif_width, gif_height, palette);
  Canvas canvas(options.gif_width, gif_height);
  const int delay = std::max(2, static_cast<int>(std::lround(100.0 * options.gif_every * kStep)));

  MoverDemoSummary summary;
  summary.least_gap = 1e30L;
  std::vector<Vec2> trail;
  MoverStep last;
  last.transform = mover.transform();
  double seconds = 0;
  int at_wall = 0;
  Script script;
  for (int i = 0; i < kMaxSteps && at_wall < 60; ++i) {
    const float t = float(i + 1) * kStep;
    level.world.set_transform(level.lift, Transform{{kLiftX, lift_y(t)}, Rot::identity()});
    const Vec2 input = script.input(last, level, t - kStep);
    const auto start = std::chrono::steady_clock::now();
    const MoverStep s = mover.step(level.world, input, kStep);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++summary.steps;
    summary.grounded_steps += s.ground.grounded;
    summary.stepped += s.stepped;
    summary.snapped += s.snapped;
    summary.pushed += s.pushed;
    summary.riding_steps += s.ground.grounded && s.ground.collider == level.lift;
    level.world.collide_shape(shape, s.transform, 0, [&](ColliderId id, int, const Manifold& m) {
      if (id != level.lift) {
        for (int k = 0; k < m.count; ++k)
          summary.least_gap = std::min<long double>(summary.least_gap, m.points[k].separation);
      }
      return true;
    });
    if (i % 3 == 0) trail.push_back(s.transform.p);
    if (trail.size() > 120) trail.erase(trail.begin());
    if (i % options.gif_every == 0) {
      draw_frame(canvas, level, shape, s, trail);
      gif.add_frame(cairo_image_surface_get_data(canvas.surface), cairo_image_surface_get_stride(canvas.surface),
                    delay);
    }
    at_wall = s.transform.p.x > kMoverLevelWall - 1.5f && std::fabs(s.transform.p.x - last.transform.p.x) < 1e-5f
                  ? at_wall + 1
                  : 0;
    last = s;
  }
  if (summary.least_gap > 1e29L) summary.least_gap = 0;
  summary.end_x = last.transform.p.x;
  summary.microseconds_per_step = 1e6 * seconds / std::max(1, summary.steps);
  summary.gif_frames = gif.frame_count();
  const std::vector<uint8_t> bytes = gif.finish();
  summary.gif = (fs::path(options.output) / "walk.gif").string();
  write_file(summary.gif, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  const std::string planes_png = (fs::path(options.output) / "planes.png").string();
  write_file(planes_png, planes_picture(std::max(320, options.gif_width)));

  char line[256];
  out << "pebble mover: a " << options.shape << " walks hills, stairs, a tile map and a lift to the wall, "
      << summary.steps << " steps of 1/60 s\n";
  std::snprintf(
      line, sizeof line,
      "  grounded %d steps, climbed %d steps, snapped down %d times, pushed %d times, rode the lift %d steps\n",
      summary.grounded_steps, summary.stepped, summary.snapped, summary.pushed, summary.riding_steps);
  out << line;
  std::snprintf(line, sizeof line,
                "  stopped at x = %.3f (the wall is at %.1f); least gap to the level %.4f m (skin %.3f)\n",
                summary.end_x, kMoverLevelWall, double(summary.least_gap), mover.settings().skin);
  out << line;
  std::snprintf(line, sizeof line, "  %.1f microseconds per mover step\n", summary.microseconds_per_step);
  out << line;
  out << "  wrote " << summary.gif << " (" << summary.gif_frames << " frames) and " << planes_png
      << " (the contact planes)\n";
  return summary;
}

}  // namespace pebble::tools
