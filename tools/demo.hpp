// tools/demo.hpp — `pebble demo`: about 200 rounded shapes of every kind rain into a container and
// settle into a pile (sandbox/demo_scene.hpp), moved by the sandbox stepper on contacts from
// pebble; writes a PNG of the pile and an animated GIF of the fall, and prints a summary.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace pebble::tools {

/// The demo's options (the command line's flags).
struct DemoOptions {
  int shapes = 200;                    ///< falling shapes
  uint32_t seed = 1;                   ///< the same seed gives the same pile
  int steps = 720;                     ///< steps of 1/60 s (720: 12 s, enough for 200 shapes to settle)
  std::string output = "pebble-demo";  ///< folder for pile.png and fall.gif (created if missing)
  int width = 960;                     ///< of the PNG, pixels
  int gif_width = 480;                 ///< of the GIF, pixels
  int gif_every = 3;                   ///< one GIF frame every this many steps (3: 20 frames per second)
  bool progress = true;                ///< a progress bar on the terminal (only when stderr is one)
  std::string record;                  ///< when set, the world's calls are recorded into this file (`pebble replay`)
};

/// The figures the summary prints.
struct DemoSummary {
  int bodies = 0;
  double seconds = 0;  ///< wall time of the simulation (pictures excluded)
  double steps_per_second = 0;
  double pairs_per_step = 0, points_per_step = 0;  ///< contact manifolds and points, mean over steps
  float max_penetration = 0;                       ///< at the end, metres
  float kinetic_energy = 0;                        ///< at the end, joules
  float max_speed = 0;                             ///< fastest point of any body at the end, m/s
  std::string png, gif;                            ///< the files written
  std::uint64_t digest = 0;  ///< update_digest() of the world's last update (pebble/recording.hpp)
  int gif_frames = 0;
};

/// Runs the demo, writes the pictures and prints the summary to `out` (progress to stderr).
/// Throws InputError for an unusable output folder; nothing is written then.
DemoSummary run_demo(const DemoOptions& options, std::ostream& out);

}  // namespace pebble::tools
