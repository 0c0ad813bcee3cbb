// tools/crowd_demo.hpp — `pebble crowd`: an ORCA-style crowd of translating discs, capsules and
// rounded boxes in four streams that cross a plaza through the doorways of a chain wall. Each step
// finds every agent's neighbours on a grid, asks pebble::batch::distance for the gaps, turns them
// into velocity half-planes that cannot let two agents overlap when met, and solves one small 2D
// linear program per agent (docs/crowds.md). Writes an animated GIF and prints what it measured.
#pragma once

#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <pebble/pebble.hpp>

namespace pebble::tools {

/// How two agents share the half-plane n.(v_i - v_j) <= gap / tau of their pair.
enum class CrowdSplit {
  clamped,   ///< around the mean of the last velocities, clamped to +-gap / (2 tau): v = 0 always meets it
  mean,      ///< around the mean of the last velocities (ORCA's u / 2): may leave a program without solution
  priority,  ///< clamped, but between streams the lower-numbered stream takes the whole allowance
             ///< and the other may not close in: v = 0 still meets both halves
  ordered,   ///< agents solve one after another, the one nearest its exit first; the first of a pair
             ///< takes the whole allowance, the second the pair's half-plane against the first's new
             ///< velocity: v = 0 still meets both, and a stream's leaders never wait for its followers
};

/// Where the crowd walks.
enum class CrowdScene {
  plaza,   ///< four streams of mixed shapes cross a walled plaza (the default)
  circle,  ///< RVO2's Circle example: discs of radius 1.5 on a circle walk to the opposite point
};

/// The program's options (the command line's flags).
struct CrowdOptions {
  CrowdScene scene = CrowdScene::plaza;
  int agents = 10000;    ///< crowd size (plaza: split evenly over the four streams)
  int neighbors = 10;    ///< k: the nearest agents each agent takes as neighbours
  int max_steps = 6000;  ///< steps of kCrowdStep before giving up on arrivals
  CrowdSplit split = CrowdSplit::ordered;
  float neighbor_dist = 0;              ///< m between centres: candidates farther away are not ranked
                                        ///< (0: the scene's: any in the grid cells; circle: 15, as RVO2)
  bool steer = false;                   ///< look ahead and turn away from the first touch (the clamped split's aid)
  bool signals = true;                  ///< stagger the crossing streams at the doorways (docs/crowds.md)
  unsigned seed = 1;                    ///< the same seed gives the same crowd and the same run
  std::string output = "pebble-crowd";  ///< folder for crowd.gif (created if missing); empty: no GIF
  int gif_width = 640;                  ///< pixels
  int gif_every = 10;                   ///< one frame every this many steps
  int png_step = 600;                   ///< crowd.png shows the plaza after this many steps (0: none)
};

/// One agent as the observer sees it after a step: its shape (shared by many agents), where it is
/// (fixed rotation) and its velocity, m/s.
struct CrowdAgentView {
  const Shape* shape;
  Transform transform;
  Vec2 velocity;
  int id;  ///< 0 .. agents - 1, kept while the agent lives
};

/// What the run did (printed, and checked by the tests). Gaps are pebble::distance() values over
/// the pairs each step considered (any pair not considered is farther apart than the reach).
struct CrowdSummary {
  int agents = 0;
  int steps = 0;
  float step_seconds = 0;
  int arrived = 0;            ///< agents that reached their goal (and left the plaza)
  int steps_to_99 = 0;        ///< steps until 99% had arrived (0: they did not)
  float least_gap = 0;        ///< least distance between two agents at the start of any step
  float least_wall_gap = 0;   ///< least distance from an agent to the wall
  long long infeasible = 0;   ///< linear programs that fell back to least violation
  long long repaired = 0;     ///< agents solved again, taking whole pairs (a fallback broke one)
  long long unresolved = 0;   ///< steps that ended with a pair's half-plane still broken
  long long truncated = 0;    ///< neighbour lists cut at the capacity (0: all within reach kept)
  double pairs_per_step = 0;  ///< pair distances asked per step, on average
  double full_step_ms = 0;    ///< avoidance time of one step while all agents were present
  double agents_per_ms = 0;   ///< agent-steps per millisecond of avoidance, over the run
  double neighbors_ms = 0, distance_ms = 0, lp_ms = 0;  ///< the avoidance time by phase, whole run
  std::string gif, png;
  int gif_frames = 0;
};

/// The step, seconds.
inline constexpr float kCrowdStep = 0.1f;

/// The wall's pieces as solid axis-aligned rectangles (each is also a Chain::loop in the world).
std::vector<Aabb> crowd_wall_boxes();

/// Called after every step with the living agents.
using CrowdObserver = std::function<void(int step, std::span<const CrowdAgentView> agents)>;

/// Runs the crowd, writes the GIF, prints the summary to `out`. Throws InputError for an option
/// out of range or an unusable output folder.
CrowdSummary run_crowd_demo(const CrowdOptions& options, std::ostream& out, const CrowdObserver& observer = {});

}  // namespace pebble::tools
