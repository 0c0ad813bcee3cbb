// The `pebble` program: `pebble demo`, `pebble query scene.json`, `pebble render scene.json -o
// out.png`. Bad input (files, JSON, flags) gets one clear line on stderr and exit code 2; nothing
// partial is written.
#include <iostream>
#include <sstream>

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <CLI/CLI.hpp>
#include <pebble/version.hpp>

#include "tools/crowd_demo.hpp"
#include "tools/demo.hpp"
#include "tools/mover_demo.hpp"
#include "tools/output_file.hpp"
#include "tools/query.hpp"
#include "tools/render.hpp"
#include "tools/replay.hpp"

namespace {

/// Exit codes: 0 done, 2 bad input (the message says what and where), 1 anything else.
constexpr int kBadInput = 2;

std::string lowercase_extension(const std::string& path) {
  const size_t dot = path.rfind('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace

/// Frees cairo's and fontconfig's caches at exit, so that leak checkers (the sanitizer build runs
/// the program) see only leaks of our own.
struct FontCacheCleanup {
  ~FontCacheCleanup() {
    cairo_debug_reset_static_data();
    FcFini();
  }
};

int main(int argc, char** argv) {
  using namespace pebble::tools;
  const FontCacheCleanup cleanup;
  CLI::App app{
      "pebble: 2D collision detection on rounded convex shapes.\n"
      "  pebble demo                      a pile of ~200 shapes: pile.png, fall.gif\n"
      "  pebble query scene.json          the scene's queries, answered as JSON\n"
      "  pebble render scene.json -o x.png  the scene and its answers as a picture (.png or .svg)\n"
      "  pebble mover                     a character walks a level: walk.gif\n"
      "  pebble crowd                     10,000 agents cross a plaza, avoiding each other: crowd.gif\n"
      "  pebble replay FILE               replay a world's recorded calls, check every update\n"
      "Scene files: docs/scene-format.md",
      "pebble"};
  app.set_version_flag("-V,--version", std::string("pebble ") + pebble::version());
  app.require_subcommand(1);

  DemoOptions demo;
  CLI::App* demo_cmd = app.add_subcommand("demo",
                                          "Drop rounded shapes of every kind into a container until they "
                                          "settle; write a PNG of the pile and a GIF of the fall");
  demo_cmd->add_option("-n,--shapes", demo.shapes, "Number of falling shapes")
      ->capture_default_str()
      ->check(CLI::Range(1, 5000));
  demo_cmd->add_option("-s,--seed", demo.seed, "Random seed: the same seed gives the same pile")->capture_default_str();
  demo_cmd->add_option("--steps", demo.steps, "Steps of 1/60 s to simulate")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  demo_cmd->add_option("-o,--output", demo.output, "Folder for pile.png and fall.gif (created if missing)")
      ->capture_default_str();
  demo_cmd->add_option("-w,--width", demo.width, "Width of the PNG in pixels")
      ->capture_default_str()
      ->check(CLI::Range(64, 8000));
  demo_cmd->add_option("--gif-width", demo.gif_width, "Width of the GIF in pixels")
      ->capture_default_str()
      ->check(CLI::Range(64, 4000));
  demo_cmd->add_option("--gif-every", demo.gif_every, "One GIF frame every this many steps")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  bool no_progress = false;
  demo_cmd->add_flag("--no-progress", no_progress, "No progress bar on the terminal");
  demo_cmd->add_option("--record", demo.record,
                       "Record the world's calls into this file (check it with pebble replay FILE)");

  std::string replay_path;
  CLI::App* replay_cmd = app.add_subcommand("replay",
                                            "Replay a recording of a world's calls (CollisionWorld::start_recording, "
                                            "pebble demo --record) and check every update's digest");
  replay_cmd->add_option("recording", replay_path, "The recording file")->required();

  std::string query_scene, query_output;
  CLI::App* query_cmd =
      app.add_subcommand("query", "Answer the queries of a scene file as JSON (standard output, or -o FILE)");
  query_cmd->add_option("scene", query_scene, "Scene file (JSON, see docs/scene-format.md)")->required();
  query_cmd->add_option("-o,--output", query_output, "Write the JSON to this file instead of standard output");

  std::string render_scene_path, render_output;
  RenderSettings render_settings;
  CLI::App* render_cmd = app.add_subcommand("render", "Draw a scene and the answers to its queries (PNG or SVG)");
  render_cmd->add_option("scene", render_scene_path, "Scene file (JSON, see docs/scene-format.md)")->required();
  render_cmd->add_option("-o,--output", render_output, "Picture to write: a .png or .svg file")->required();
  render_cmd->add_option("-w,--width", render_settings.width, "Width in pixels, legend included")
      ->capture_default_str()
      ->check(CLI::Range(480, 8000));

  MoverDemoOptions mover;
  CLI::App* mover_cmd = app.add_subcommand("mover",
                                           "A character walks hills, stairs, a tile map and a lift along a scripted "
                                           "input (pebble::CharacterMover); write a GIF of the walk");
  mover_cmd->add_option("--shape", mover.shape, "capsule, box, rounded-box, circle or polygon")->capture_default_str();
  mover_cmd->add_option("-o,--output", mover.output, "Folder for walk.gif (created if missing)")->capture_default_str();
  mover_cmd->add_option("--gif-width", mover.gif_width, "Width of the GIF in pixels")
      ->capture_default_str()
      ->check(CLI::Range(64, 4000));
  mover_cmd->add_option("--gif-every", mover.gif_every, "One GIF frame every this many steps")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));

  CrowdOptions crowd;
  CLI::App* crowd_cmd =
      app.add_subcommand("crowd",
                         "An ORCA-style crowd of discs, capsules and rounded boxes crosses a plaza in "
                         "four streams through the doorways of a wall; write a GIF, print the speed");
  crowd_cmd->add_option("-n,--agents", crowd.agents, "Number of agents")
      ->capture_default_str()
      ->check(CLI::Range(4, 200000));
  crowd_cmd
      ->add_option("-k,--neighbors", crowd.neighbors,
                   "Nearest agents each agent avoids (more when closer ones could touch)")
      ->capture_default_str()
      ->check(CLI::Range(1, 32));
  crowd_cmd->add_option("--steps", crowd.max_steps, "Most steps (plaza: of 0.1 s; circle: of 0.25 s)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  crowd_cmd->add_option("-s,--seed", crowd.seed, "Random seed: the same seed gives the same crowd")
      ->capture_default_str();
  crowd_cmd->add_option("-o,--output", crowd.output, "Folder for crowd.gif (created if missing)")
      ->capture_default_str();
  crowd_cmd->add_option("--gif-width", crowd.gif_width, "Width (and height) of the GIF in pixels")
      ->capture_default_str()
      ->check(CLI::Range(64, 4000));
  crowd_cmd->add_option("--gif-every", crowd.gif_every, "One GIF frame every this many steps")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  crowd_cmd->add_option("--png-at", crowd.png_step, "Write crowd.png, the plaza after this many steps (0: none)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  std::string crowd_split = "ordered";
  crowd_cmd
      ->add_option("--split", crowd_split,
                   "How a pair shares its half-plane: clamped (always solvable), priority (clamped, streams in a fixed "
                   "order), ordered (one agent after another, leaders first) or mean (ORCA's)")
      ->capture_default_str()
      ->check(CLI::IsMember({"clamped", "priority", "ordered", "mean"}));
  std::string crowd_scene = "plaza";
  crowd_cmd
      ->add_option("--scene", crowd_scene,
                   "plaza (four streams of mixed shapes through a wall) or circle (RVO2's Circle example: discs)")
      ->capture_default_str()
      ->check(CLI::IsMember({"plaza", "circle"}));
  crowd_cmd
      ->add_option("--neighbor-dist", crowd.neighbor_dist,
                   "Metres between centres beyond which a candidate is not ranked (0: the scene's)")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 1000.0f));
  std::string crowd_steer = "off";
  crowd_cmd->add_option("--steer", crowd_steer, "Look ahead and turn away from the first touch")
      ->capture_default_str()
      ->check(CLI::IsMember({"on", "off"}));
  std::string crowd_signals = "on";
  crowd_cmd
      ->add_option("--signals", crowd_signals, "Signals at the doorways: the crossing pairs of streams enter in turn")
      ->capture_default_str()
      ->check(CLI::IsMember({"on", "off"}));
  bool no_gif = false;
  crowd_cmd->add_flag("--no-gif", no_gif, "Write no GIF (for timing runs)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the message and a hint to use --help
    return kBadInput;
  }

  try {
    if (*demo_cmd) {
      demo.progress = !no_progress;
      run_demo(demo, std::cout);
    } else if (*query_cmd) {
      const Scene scene = load_scene(query_scene);
      const std::string text = pretty(results_json(scene, run_queries(scene)));
      if (query_output.empty()) {
        std::cout << text << std::flush;
      } else {
        write_file(query_output, text);
      }
    } else if (*crowd_cmd) {
      if (no_gif) crowd.output.clear();
      crowd.signals = crowd_signals == "on";
      crowd.steer = crowd_steer == "on";
      crowd.scene = crowd_scene == "circle" ? CrowdScene::circle : CrowdScene::plaza;
      crowd.split = crowd_split == "mean"       ? CrowdSplit::mean
                    : crowd_split == "priority" ? CrowdSplit::priority
                    : crowd_split == "ordered"  ? CrowdSplit::ordered
                                                : CrowdSplit::clamped;
      run_crowd_demo(crowd, std::cout);
    } else if (*replay_cmd) {
      return run_replay(replay_path, std::cout);
    } else if (*mover_cmd) {
      run_mover_demo(mover, std::cout);
    } else if (*render_cmd) {
      const std::string ext = lowercase_extension(render_output);
      if (ext != "png" && ext != "svg")
        throw InputError(render_output + ": expected a picture file name ending in .png or .svg");
      const Scene scene = load_scene(render_scene_path);
      const std::string bytes =
          render_scene(scene, run_queries(scene), ext == "svg" ? ImageFormat::svg : ImageFormat::png, render_settings);
      write_file(render_output, bytes);
      std::cout << "wrote " << render_output << "\n";
    }
  } catch (const InputError& e) {
    std::cerr << "pebble: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "pebble: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
