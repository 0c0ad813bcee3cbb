// tools/mover_demo.hpp — `pebble mover`: a character (any shape) walks a built-in level of hills,
// stairs, a tile map, a moving platform and a wall along a scripted input, moved by
// pebble::CharacterMover; writes an animated GIF that follows it and prints what it did.
#pragma once

#include <ostream>
#include <string>

#include <pebble/pebble.hpp>

namespace pebble::tools {

/// The program's options (the command line's flags).
struct MoverDemoOptions {
  std::string shape = "capsule";        ///< capsule, box, rounded-box, circle or polygon
  std::string output = "pebble-mover";  ///< folder for walk.gif (created if missing)
  int gif_width = 640;                  ///< pixels
  int gif_every = 2;                    ///< one frame every this many steps
};

/// What the walk did (printed, and checked by the tests).
struct MoverDemoSummary {
  int steps = 0;
  float end_x = 0;         ///< where the character stopped (the wall is at kMoverLevelWall)
  int grounded_steps = 0;  ///< steps that ended on the ground
  int stepped = 0, snapped = 0, pushed = 0;
  int riding_steps = 0;       ///< steps that ended standing on the moving platform
  long double least_gap = 0;  ///< least distance to a fixed collider after any step (>= -skin)
  double microseconds_per_step = 0;
  std::string gif;
  int gif_frames = 0;
};

/// The x of the wall that ends the level.
inline constexpr float kMoverLevelWall = 62.0f;

/// Runs the walk, writes the GIF, prints the summary to `out`. Throws InputError for an unknown
/// shape or an unusable output folder.
MoverDemoSummary run_mover_demo(const MoverDemoOptions& options, std::ostream& out);

}  // namespace pebble::tools
