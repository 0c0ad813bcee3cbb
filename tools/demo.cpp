// The demo loop: release rows, step, draw a GIF frame now and then, then the final picture.
#include "tools/demo.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "sandbox/demo_scene.hpp"
#include "tools/draw.hpp"
#include "tools/gif_writer.hpp"
#include "tools/output_file.hpp"
#include "tools/scene_file.hpp"

namespace pebble::tools {
namespace {

using sandbox::ShapeKind;

constexpr float kStep = 1.0f / 60.0f;

Rgb kind_color(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::ground:
      return colors::ground;
    case ShapeKind::box:
      return colors::fills[0];
    case ShapeKind::rounded_box:
      return colors::fills[1];
    case ShapeKind::capsule:
      return colors::fills[2];
    case ShapeKind::circle:
      return colors::fills[3];
    case ShapeKind::polygon:
      return colors::fills[4];
    case ShapeKind::rounded_polygon:
      return colors::fills[5];
    case ShapeKind::concave:
      return colors::fills[6];
  }
  return colors::fills[6];
}

/// Every body in its kind's colour, outlined a little darker.
void draw_bodies(cairo_t* cr, const View& view, const sandbox::Stepper& stepper, const std::vector<ShapeKind>& kinds,
                 double line_px) {
  const auto& bodies = stepper.bodies();
  for (size_t i = 0; i < bodies.size(); ++i) {
    const Rgb fill = kind_color(kinds[i]);
    if (bodies[i].chain >= 0) {
      // Terrain: a loop is the boundary of solid ground (filled); an open chain a line.
      const Chain& chain = stepper.chains()[static_cast<size_t>(bodies[i].chain)];
      const auto points = chain.points();
      for (size_t k = 0; k < points.size(); ++k) {
        const Vec2 p = transform_point(bodies[i].xf, points[k]);
        if (k == 0) {
          cairo_move_to(cr, view.px(p.x), view.py(p.y));
        } else {
          cairo_line_to(cr, view.px(p.x), view.py(p.y));
        }
      }
      if (chain.closed()) {
        cairo_close_path(cr);
        set_color(cr, fill, 0.45);
        cairo_fill_preserve(cr);
      }
      set_color(cr, mix(fill, colors::outline, 0.55));
      cairo_set_line_width(cr, line_px);
      cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
      cairo_stroke(cr);
      continue;
    }
    for (const Shape& part : bodies[i].parts)
      draw_shape(cr, view, part, bodies[i].xf, fill, 1.0, mix(fill, colors::outline, 0.55), line_px);
  }
}

/// A cairo image surface with a cairo context on it, freed together.
/// The size of an image of the world box `world` `width` pixels wide (a multiple of 2 high).
int height_for(const Aabb& world, int width) {
  const double aspect = double(world.upper.y - world.lower.y) / double(world.upper.x - world.lower.x);
  return std::max(2, 2 * static_cast<int>(std::lround(0.5 * width * aspect)));
}

std::string picture_of_pile(const sandbox::Stepper& stepper, const sandbox::DemoScene& scene, int width) {
  const Aabb world = scene.container_view();
  const int legend = 34;
  const int height = height_for(world, width) + legend;
  Canvas canvas(width, height);
  cairo_t* cr = canvas.cr;
  set_color(cr, colors::background);
  cairo_paint(cr);
  const View view = View::fit(world, 0, legend, width, height - legend);
  draw_bodies(cr, view, stepper, scene.kinds(), std::max(1.0, width / 640.0));
  // One row of legend: a swatch and a name per kind of shape.
  double x = 12;
  for (int k = 1; k < sandbox::kShapeKindCount; ++k) {
    const auto kind = static_cast<ShapeKind>(k);
    const Rgb c = kind_color(kind);
    cairo_rectangle(cr, x, 11, 16, 12);
    set_color(cr, c);
    cairo_fill_preserve(cr);
    set_color(cr, mix(c, colors::outline, 0.55));
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    const std::string name(sandbox::kind_name(kind));
    draw_text(cr, x + 22, 22, name.c_str(), 13, colors::text);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, name.c_str(), &ext);
    x += 22 + ext.x_advance + 18;
  }
  return png_bytes(canvas.surface);
}

/// A progress bar on stderr: [#####.....]  45%  step 324/720.
void show_progress(int done, int total) {
  const int width = 30, filled = done * width / total;
  std::fprintf(stderr, "\r  [%.*s%.*s] %3d%%  step %d/%d", filled, "##############################", width - filled,
               "..............................", done * 100 / total, done, total);
  if (done == total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

}  // namespace

DemoSummary run_demo(const DemoOptions& options, std::ostream& out) {
  namespace fs = std::filesystem;
  if (options.shapes < 1 || options.steps < 1 || options.width < 64 || options.gif_width < 64 || options.gif_every < 1)
    throw InputError("demo: expected --shapes, --steps, --gif-every >= 1 and widths >= 64");
  std::error_code ec;
  fs::create_directories(options.output, ec);
  if (ec || !fs::is_directory(options.output))
    throw InputError(options.output + ": cannot create the output folder (" + (ec ? ec.message() : "not a folder") +
                     ")");

  sandbox::DemoScene scene(sandbox::DemoSceneSettings{options.shapes, options.seed});
  const sandbox::StepSettings settings;
  auto source = std::make_unique<sandbox::WorldPairs>(settings.margin);
  sandbox::WorldPairs& world = *source;
  if (!options.record.empty()) {
    try {
      world.start_recording(options.record);
    } catch (const std::runtime_error& e) {
      throw InputError(options.record + ": cannot record into it (" + e.what() + ")");
    }
  }
  sandbox::Stepper stepper(settings, std::move(source));
  scene.add_container(stepper);

  // The GIF shows everything from the release height down; frames are drawn at full quality and
  // mapped to a palette made from the picture's own colours.
  const Aabb gif_world = scene.view();
  const int gif_height = height_for(gif_world, options.gif_width);
  std::vector<Rgb> keys = {colors::background, colors::outline, colors::ground,
                           mix(colors::ground, colors::outline, 0.55)};
  for (int k = 1; k < sandbox::kShapeKindCount; ++k) keys.push_back(kind_color(static_cast<ShapeKind>(k)));
  keys.push_back(colors::text);
  const Palette palette(keys);
  GifWriter gif(options.gif_width, gif_height, palette);
  Canvas frame(options.gif_width, gif_height);
  const View gif_view = View::fit(gif_world, 0, 0, options.gif_width, gif_height);
  auto add_frame = [&](int delay_cs) {
    set_color(frame.cr, colors::background);
    cairo_paint(frame.cr);
    draw_bodies(frame.cr, gif_view, stepper, scene.kinds(), 1.0);
    cairo_surface_flush(frame.surface);
    gif.add_frame(cairo_image_surface_get_data(frame.surface), cairo_image_surface_get_stride(frame.surface), delay_cs);
  };

  const bool progress = options.progress && isatty(STDERR_FILENO);
  const int frame_delay = std::max(2, static_cast<int>(std::lround(100.0 * options.gif_every * kStep)));
  DemoSummary summary;
  double simulated = 0;
  long long pairs = 0, points = 0;
  for (int i = 0; i < options.steps; ++i) {
    scene.release(stepper, static_cast<float>(i) * kStep);
    const auto start = std::chrono::steady_clock::now();
    stepper.step(kStep);
    simulated += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    pairs += stepper.stats().manifolds;
    points += stepper.stats().points;
    if (i % options.gif_every == 0) add_frame(frame_delay);
    if (progress && (i + 1 == options.steps || (i + 1) % std::max(1, options.steps / 100) == 0))
      show_progress(i + 1, options.steps);
  }
  add_frame(300);  // the pile at rest stays on screen for 3 s before the loop restarts

  const sandbox::StepStats end = stepper.measure();
  summary.bodies = static_cast<int>(stepper.bodies().size());
  summary.seconds = simulated;
  summary.steps_per_second = simulated > 0 ? options.steps / simulated : 0;
  summary.pairs_per_step = static_cast<double>(pairs) / options.steps;
  summary.points_per_step = static_cast<double>(points) / options.steps;
  summary.max_penetration = end.max_penetration;
  summary.kinetic_energy = stepper.kinetic_energy();
  summary.max_speed = stepper.max_point_speed();
  summary.gif_frames = gif.frame_count();
  summary.digest = world.digest();

  const std::string png_bytes = picture_of_pile(stepper, scene, options.width);
  const std::vector<uint8_t> gif_bytes = gif.finish();
  summary.png = (fs::path(options.output) / "pile.png").string();
  summary.gif = (fs::path(options.output) / "fall.gif").string();
  write_file(summary.png, png_bytes);
  write_file(summary.gif, std::string_view(reinterpret_cast<const char*>(gif_bytes.data()), gif_bytes.size()));

  char line[256];
  out << "pebble demo: " << options.shapes << " shapes (seed " << options.seed << ") in a container, " << options.steps
      << " steps of 1/60 s\n";
  std::snprintf(line, sizeof line, "  simulated %.1f s in %.2f s: %.0f steps per second (%d sub-steps each)\n",
                options.steps * kStep, summary.seconds, summary.steps_per_second, stepper.settings().substeps);
  out << line;
  std::snprintf(line, sizeof line, "  contacts per step: %.0f touching or speculative pairs, %.0f points\n",
                summary.pairs_per_step, summary.points_per_step);
  out << line;
  std::snprintf(line, sizeof line,
                "  at the end: largest penetration %.4f m (2 x kLinearSlop = %.3f m), kinetic energy %.3g J,\n",
                summary.max_penetration, 2 * kLinearSlop, summary.kinetic_energy);
  out << line;
  std::snprintf(line, sizeof line, "              fastest point %.4f m/s: %s\n", summary.max_speed,
                summary.max_speed < 0.01f ? "the pile is at rest" : "still moving (try more --steps)");
  out << line;
  out << "  wrote " << summary.png << " (the pile) and " << summary.gif << " (the fall, " << summary.gif_frames
      << " frames)\n";
  if (!options.record.empty()) {
    std::snprintf(line, sizeof line,
                  "  recorded the world's calls into %s (last update's digest %016llx; check with pebble replay)\n",
                  options.record.c_str(), static_cast<unsigned long long>(summary.digest));
    out << line;
  }
  return summary;
}

}  // namespace pebble::tools
