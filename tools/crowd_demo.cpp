// `pebble crowd` (tools/crowd_demo.hpp): the plaza, the agents, the avoidance step and the GIF.
//
// The avoidance follows ORCA (van den Berg, Guy, Lin, Manocha, "Reciprocal n-body collision
// avoidance", Robotics Research, Springer 2011): per agent, half-planes on its new velocity, each
// pair sharing the work, and the velocity nearest the preferred one found by an incremental 2D
// linear program (their section 5.2), with the program that least violates the half-planes when
// none satisfies them all (their section 5.3). The half-planes are not ORCA's velocity-obstacle
// ones: they come from the exact gap and normal of pebble::batch::distance, which makes them hold
// for any convex rounded shapes that translate (docs/crowds.md gives the proof).
#include "tools/crowd_demo.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <optional>
#include <random>

#include "tools/draw.hpp"
#include "tools/gif_writer.hpp"
#include "tools/output_file.hpp"
#include "tools/scene_file.hpp"

namespace pebble::tools {
namespace {

constexpr float kPreferredSpeed = 1.3f;  // m/s toward the goal
constexpr float kMaxSpeed = 1.6f;        // m/s, the disc every new velocity lies in
constexpr float kTau = 1.0f;             // s: two agents close at most gap / kTau (shared)
constexpr float kTauWall = 0.5f;         // s: an agent closes on the wall at most gap / kTauWall
constexpr float kSkin = 0.002f;          // m: the gap the half-planes keep, against rounding
constexpr float kArrive = 0.3f;          // m from its goal, an agent has arrived and leaves
constexpr int kNeighborCapacity = 32;
constexpr int kCandidates = 512;       // agents in an agent's 3 x 3 cells that are looked at
constexpr int kRepairRounds = 4;       // rounds of solving again where a fallback broke a pair
constexpr float kSteerHorizon = 2.0f;  // s: how far ahead an agent looks for a first touch
constexpr float kSteerTurn = 0.6f;     // radians: the most it turns its preferred velocity
constexpr float kCell = 1.0f;          // grid cell, m: 3 x 3 cells hold every pair within must_reach() (0.98 m apart)

// The plaza: a square ring wall, centre line at +-kRing, kWallHalf thick each way, two doorways
// per side at kDoorLow..kDoorHigh either side of the middle. Streams keep right: the one walking
// +x enters by the west side's doorway at y in -kDoorHigh..-kDoorLow and leaves by the east's.
constexpr float kRing = 30, kWallHalf = 0.15f, kDoorLow = 2, kDoorHigh = 20;
constexpr float kSpacing = 0.75f;         // m between agents in a starting block
constexpr int kMaxRows = 37;              // a block is at most this many agents across (27.75 m)
constexpr float kBlockFront = kRing + 4;  // the block's front row, m from the centre
constexpr float kLaneLow = kDoorLow + 1.5f, kLaneHigh = kDoorHigh - 1.5f;

enum Phase : int { kToDoor, kEnter, kCross, kToGoal };

struct Agent {
  const Shape* shape;
  Rot q;          // fixed: agents only translate
  Vec2 p, v;      // position (the shape's origin), velocity
  double x, y;    // the position as it accumulates: p is it rounded to float. Adding each step's
                  // motion to a float position rounds it by up to half a unit in the last place
                  // (2 um at 30 m), and a waiting crowd's tiny motions can round the same way step
                  // after step, closing a pair by that much per step that no half-plane allowed.
  Vec2 centroid;  // rotate(q, core centroid): the bounding disc's centre is p + centroid
  float extent;   // the bounding disc's radius
  Vec2 goal;      // world
  float lane;     // local y in the doorways
  float bias;     // a fixed small turn of the preferred direction, radians
  int stream, phase, id;
  int stuck;       // steps in a row it moved at under a tenth of the speed it asked for
  float progress;  // how far along its way (the ordered split solves the farthest first)
};

struct HalfPlane {  // n . v <= b, n unit
  Vec2 n;
  float b;
};

// --- The linear programs (van den Berg et al. 2011, section 5) -------------------------------

// The best velocity on the line of plane k (n.v = b) within the disc and planes 0..k-1: nearest
// to target, or farthest along target when `direction`. False when that piece of line is empty.
bool solve_on_line(const HalfPlane* planes, int k, float vmax, Vec2 target, bool direction, Vec2& result) {
  const HalfPlane& h = planes[k];
  const float room = vmax * vmax - h.b * h.b;
  if (room < 0) return false;
  const Vec2 base = h.b * h.n, along = left_perp(h.n);
  float lo = -std::sqrt(room), hi = -lo;
  for (int m = 0; m < k; ++m) {
    const float denom = dot(planes[m].n, along), num = planes[m].b - dot(planes[m].n, base);
    if (std::fabs(denom) <= 1e-6f) {
      if (num < -1e-6f) return false;  // parallel and wholly outside plane m
      continue;
    }
    const float t = num / denom;
    if (denom > 0)
      hi = std::min(hi, t);
    else
      lo = std::max(lo, t);
    if (lo > hi) return false;
  }
  const float t = direction ? (dot(target, along) > 0 ? hi : lo) : std::clamp(dot(target, along), lo, hi);
  result = base + t * along;
  return true;
}

// Incremental 2D LP (randomised order is what makes it linear on average; the constraints come in
// grid order, which is random enough with respect to the optimum). Returns count on success, else
// the index of the plane that could not be met (result: the best velocity for the planes before).
int solve_2d(const HalfPlane* planes, int count, float vmax, Vec2 target, bool direction, Vec2& result) {
  if (direction) {
    result = vmax * target;
  } else {
    const float len2 = length_squared(target);
    result = len2 > vmax * vmax ? (vmax / std::sqrt(len2)) * target : target;
  }
  for (int k = 0; k < count; ++k) {
    if (dot(planes[k].n, result) > planes[k].b) {
      const Vec2 before = result;
      if (!solve_on_line(planes, k, vmax, target, direction, result)) {
        result = before;
        return k;
      }
    }
  }
  return count;
}

// No velocity meets them all: keep planes 0..hard-1 (walls) and least violate the rest, minimising
// the largest violation n.v - b one plane at a time (each later plane i that is violated more
// than the worst so far: the velocities where no earlier plane is violated more than i, then
// the one least violating i).
void solve_least_violation(const HalfPlane* planes, int count, int hard, int begin, float vmax, Vec2& result,
                           std::vector<HalfPlane>& scratch) {
  float worst = 0;
  for (int i = begin; i < count; ++i) {
    if (dot(planes[i].n, result) - planes[i].b <= worst) continue;
    scratch.assign(planes, planes + hard);
    for (int j = hard; j < i; ++j) {
      const Vec2 dn = planes[j].n - planes[i].n;
      const float len = length(dn);
      if (len < 1e-6f) continue;  // parallel, same side: never more violated than i where i is least
      scratch.push_back({(1 / len) * dn, (planes[j].b - planes[i].b) / len});
    }
    const Vec2 before = result;
    if (solve_2d(scratch.data(), int(scratch.size()), vmax, -1.0f * planes[i].n, true, result) < int(scratch.size()))
      result = before;  // only by rounding: keep the last answer
    worst = dot(planes[i].n, result) - planes[i].b;
  }
}

// --- The plaza and the crowd -----------------------------------------------------------------

const char* split_name(CrowdSplit split) {
  switch (split) {
    case CrowdSplit::mean:
      return "mean";
    case CrowdSplit::priority:
      return "priority";
    case CrowdSplit::ordered:
      return "ordered";
    default:
      return "clamped";
  }
}

Rot stream_rotation(int stream) { return Rot::from_angle(float(stream) * std::numbers::pi_v<float> / 2); }

// The shapes agents are made of: discs (radius 0.2-0.3 m), capsules and rounded boxes, each agent
// one of them at a fixed angle.
struct ShapeBook {
  std::vector<Shape> discs, capsules, boxes;
  ShapeBook() {
    for (int i = 0; i < 6; ++i) discs.push_back(Shape::circle(0.2f + 0.02f * float(i)));
    for (int i = 0; i < 4; ++i) {
      const float h = 0.1f + 0.013f * float(i), r = 0.15f + 0.01f * float(i);
      capsules.push_back(Shape::capsule({-h, 0}, {h, 0}, r));
    }
    for (int i = 0; i < 4; ++i)
      boxes.push_back(Shape::rounded_box(0.22f + 0.01f * float(i), 0.16f + 0.01f * float(i), 0.05f + 0.01f * float(i)));
  }
};

struct Plaza {
  CollisionWorld world;
  std::vector<ColliderId> walls;
  // The wall segments near each cell of a fixed grid over the ring, as batch bodies.
  float cell = 2.0f, origin = -kRing - 3;
  int cells = 0;
  std::vector<std::vector<BatchBody>> near;

  explicit Plaza(float max_extent) {
    ColliderOptions fixed;
    fixed.fixed = true;
    for (const Aabb& box : crowd_wall_boxes()) {
      const Vec2 points[] = {box.lower, {box.upper.x, box.lower.y}, box.upper, {box.lower.x, box.upper.y}};
      walls.push_back(world.add(Chain::loop(points), Transform::identity(), fixed));
    }
    cells = int(std::ceil(2 * -origin / cell));
    near.resize(std::size_t(cells * cells));
    // A segment farther than this from an agent's centroid is farther than kMaxSpeed * kTauWall
    // from the agent: its half-plane would allow any velocity, so it need not be asked.
    const float reach = max_extent + kMaxSpeed * kTauWall + 0.1f;
    for (int cy = 0; cy < cells; ++cy) {
      for (int cx = 0; cx < cells; ++cx) {
        const Aabb box{{origin + cell * float(cx) - reach, origin + cell * float(cy) - reach},
                       {origin + cell * float(cx + 1) + reach, origin + cell * float(cy + 1) + reach}};
        for (const ColliderId id : walls) {
          for (int k = 0; k < world.part_count(id); ++k) {
            const Shape* s = world.part(id, k);
            const Aabb b = bounds(*s, Transform::identity());
            if (b.lower.x <= box.upper.x && b.upper.x >= box.lower.x && b.lower.y <= box.upper.y &&
                b.upper.y >= box.lower.y)
              near[std::size_t(cy * cells + cx)].push_back(BatchBody{s, Transform::identity(), {}});
          }
        }
      }
    }
  }

  std::span<const BatchBody> walls_near(Vec2 c) const {
    const int cx = int(std::floor((c.x - origin) / cell)), cy = int(std::floor((c.y - origin) / cell));
    if (cx < 0 || cy < 0 || cx >= cells || cy >= cells) return {};
    return near[std::size_t(cy * cells + cx)];
  }
};

// The starting block of one stream, in the stream's frame (walking +x): rows across y, columns
// back from the front at x = -kBlockFront.
struct Block {
  int rows = 1, columns = 1;
  float depth() const { return kSpacing * float(columns - 1); }
};

Block block_for(int per_stream) {
  Block b;
  b.rows = std::max(1, std::min(kMaxRows, int(std::ceil(std::sqrt(double(per_stream))))));
  b.columns = (per_stream + b.rows - 1) / b.rows;
  return b;
}

std::vector<Agent> make_crowd(int count, unsigned seed, const ShapeBook& book, Block& block_out) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0, 1);
  std::vector<Agent> agents;
  agents.reserve(std::size_t(count));
  for (int s = 0; s < 4; ++s) {
    const int n = count / 4 + (s < count % 4 ? 1 : 0);
    const Block block = block_for((count + 3) / 4);
    block_out = block;
    const float width = kSpacing * float(block.rows - 1);
    const Rot r = stream_rotation(s);
    for (int i = 0; i < n; ++i) {
      const int row = i % block.rows, column = i / block.rows;
      // The block spans y in -kRing+1 .. -kRing+1+width (right of the centre line), x back from
      // the front; a little jitter so that rows are not perfectly aligned.
      const float y0 = -kRing + 1 + kSpacing * float(row) + 0.03f * (2 * unit(rng) - 1);
      const float x0 = -kBlockFront - kSpacing * float(column) + 0.03f * (2 * unit(rng) - 1);
      Agent a{};
      const float pick = unit(rng);
      if (pick < 0.6f)
        a.shape = &book.discs[std::size_t(rng() % book.discs.size())];
      else if (pick < 0.8f)
        a.shape = &book.capsules[std::size_t(rng() % book.capsules.size())];
      else
        a.shape = &book.boxes[std::size_t(rng() % book.boxes.size())];
      a.q = a.shape->vertex_count() == 1 ? Rot::identity() : Rot::from_angle(std::numbers::pi_v<float> * unit(rng));
      a.p = rotate(r, Vec2{x0, y0});
      a.x = a.p.x;
      a.y = a.p.y;
      a.centroid = rotate(a.q, a.shape->core_centroid());
      a.extent = a.shape->extent();
      // Goal: the block mirrored through the far side (the front row goes deepest), same y.
      a.goal = rotate(r, Vec2{x0 + 2 * kBlockFront + block.depth(), y0});
      const float t = width > 0 ? (y0 + kRing - 1) / width : 0.5f;
      a.lane = -kLaneHigh + std::clamp(t, 0.0f, 1.0f) * (kLaneHigh - kLaneLow);
      a.bias = 0.08f * (2 * unit(rng) - 1);
      a.stream = s;
      a.phase = kToDoor;
      a.id = int(agents.size());
      agents.push_back(a);
    }
  }
  return agents;
}

// The agent's way along its stream: x in the frame where the stream walks +x.
float progress(const Agent& a) { return inv_rotate(stream_rotation(a.stream), a.p).x; }

// Signals at the doorways (staggered release, actuated): the streams walking east and west (0, 2)
// do not cross each other, nor do those walking north and south (1, 3); each pair crosses the
// other pair's paths in all four quadrants. One pair of streams has the green. An agent of the
// other pair that has not passed its stop line (kStopLine, outside the wall) waits there. The green
// changes when no agent of its pair is waiting any more, or when it has lasted kMaxGreen and the
// other pair waits; the new pair's stop lines open once every agent of the old pair that passed
// them is beyond kClearLine, across the middle of the plaza and clear of the first crossing the new
// pair meets (docs/crowds.md: what was tried).
constexpr float kStopLine = -kRing - 1.5f;
constexpr float kClearLine = 0.0f;
constexpr int kMaxGreen = 1200;  // steps

class Signals {
public:
  explicit Signals(bool enabled) : enabled_(enabled) {}

  void update(const std::vector<Agent>& agents) {  // reads each agent's progress, set this step
    if (!enabled_) return;
    int waiting[2] = {0, 0}, crossing[2] = {0, 0};
    for (const Agent& a : agents) {
      const float x = a.progress;
      if (x < kStopLine)
        ++waiting[a.stream % 2];
      else if (x < kClearLine)
        ++crossing[a.stream % 2];
    }
    ++green_steps_;
    if (open_ && waiting[1 - green_] > 0 && (waiting[green_] == 0 || green_steps_ >= kMaxGreen)) {
      green_ = 1 - green_;
      open_ = false;
      green_steps_ = 0;
      ++changes_;
    }
    if (!open_ && crossing[1 - green_] == 0) open_ = true;
  }

  // Whether an agent of this stream that has not passed its stop line must wait there.
  bool red(int stream) const { return enabled_ && (stream % 2 != green_ || !open_); }
  int changes() const { return changes_; }

private:
  bool enabled_;
  int green_ = 0, green_steps_ = 0, changes_ = 0;
  bool open_ = true;
};

constexpr int kStuckSteps = 30, kSidestepSteps = 10;

// Where the agent heads now, moving it on to the next waypoint once it has passed the last.
Vec2 preferred_velocity(Agent& a, const Signals& signals) {
  const Rot r = stream_rotation(a.stream);
  const Vec2 local = inv_rotate(r, a.p);
  if (local.x < kStopLine && signals.red(a.stream)) {  // wait at the stop line, in the lane's line
    const Vec2 to = rotate(r, Vec2{kStopLine - a.extent, local.y}) - a.p;
    const float dist = length(to);
    if (dist < 0.01f) return {};  // there: standing, not creeping (rounding would walk it on)
    return (std::min(kPreferredSpeed, 0.5f * dist / kCrowdStep) / dist) * to;
  }
  if (a.phase == kToDoor && local.x > -kBlockFront + 1.2f) a.phase = kEnter;
  if (a.phase == kEnter && local.x > -kRing + kWallHalf + 0.4f && std::fabs(local.y) < kRing - 1) a.phase = kCross;
  if (a.phase == kCross && local.x > kRing + kWallHalf + 0.4f) a.phase = kToGoal;
  Vec2 target;
  switch (a.phase) {
    case kToDoor:
      target = rotate(r, Vec2{-kBlockFront + 2.0f, a.lane});
      break;
    case kEnter:
      if (local.x > -kRing - 1 && std::fabs(local.y) > kRing - 0.5f) {
        target = rotate(r, Vec2{-kRing - 2, local.y});  // pressed beside the wall: back out first
      } else if (local.x < -kRing - 1 && std::fabs(local.y - a.lane) > 1) {
        target = rotate(r, Vec2{-kRing - 1.5f, a.lane});  // in front of the doorway, then in
      } else {
        target = rotate(r, Vec2{-kRing + 1.5f, a.lane});
      }
      break;
    case kCross:
      target = rotate(r, Vec2{kRing + 1.5f, a.lane});
      break;
    default:
      target = a.goal;
      break;
  }
  const Vec2 to = target - a.p;
  const float dist = length(to);
  if (dist < 1e-6f) return {};
  const float speed = a.phase == kToGoal ? std::min(kPreferredSpeed, dist / kCrowdStep) : kPreferredSpeed;
  const Vec2 dir = (1 / dist) * to;
  const Rot turn = Rot::from_angle(a.phase == kToGoal && dist < 2 ? 0.0f : a.bias);
  // Sidestep: an agent that has been stuck for kStuckSteps (a knot where everyone's wish points into
  // someone else) steps to its right for kSidestepSteps, which is where the half-planes leave room.
  // Not before the wall: a sidestep there can take an agent round the corner of the wall.
  const Vec2 wish = speed * rotate(turn, dir);
  return a.stuck >= kStuckSteps && local.x > -kRing ? right_perp(wish) : wish;
}

// --- RVO2's Circle scenario ------------------------------------------------------------------
// As RVO2's examples/Circle.cc: discs of radius 1.5 evenly spaced on a circle of radius 200 (250
// agents; more agents on a larger circle, the same spacing), each walking to the opposite point,
// preferred velocity the way to the goal capped at 1 m/s, at most 2 m/s, steps of 0.25 s. Agents
// stay at their goals; the run ends when every agent is within its radius of its goal.
constexpr float kCircleRadius = 200, kCircleAgentRadius = 1.5f, kCircleStep = 0.25f, kCircleMaxSpeed = 2;

std::vector<Agent> make_circle(int count, const Shape& disc) {
  std::vector<Agent> agents;
  const float radius = kCircleRadius * std::max(1.0f, float(count) / 250.0f);
  for (int i = 0; i < count; ++i) {
    Agent a{};
    a.shape = &disc;
    a.q = Rot::identity();
    const float angle = float(i) * 2 * std::numbers::pi_v<float> / float(count);
    a.p = radius * Vec2{std::cos(angle), std::sin(angle)};
    a.x = a.p.x;
    a.y = a.p.y;
    a.extent = disc.extent();
    a.goal = -1.0f * a.p;
    a.stream = 4 * i / count;  // the picture's colours: a quarter of the circle each
    a.phase = kToGoal;
    a.id = i;
    agents.push_back(a);
  }
  return agents;
}

Vec2 circle_preferred_velocity(const Agent& a) {
  const Vec2 to = a.goal - a.p;
  const float len2 = length_squared(to);
  const Vec2 wish = len2 > 1 ? (1 / std::sqrt(len2)) * to : to;
  return a.stuck >= kStuckSteps ? right_perp(wish) : wish;  // the sidestep (above): to the right
}

// --- The avoidance step ----------------------------------------------------------------------

// What differs between the scenes for the avoidance step.
struct Tuning {
  float dt = kCrowdStep;        // s
  float max_speed = kMaxSpeed;  // m/s
  float tau = kTau;             // s: a pair closes at most (gap - skin) / tau
  float cell = kCell;           // m: the neighbour grid (3 x 3 cells hold every pair that could touch)
  float neighbor_dist = 0;      // m between centres: farther candidates are not ranked (0: any in the cells)
  bool steer = false;           // look ahead and turn away (below)
  // Any pair whose bounding discs are closer than this could touch within one step at full speed
  // both ways: it is always a neighbour pair, however many there are (up to kNeighborCapacity).
  float must_reach() const { return 2 * max_speed * dt + 0.02f; }
};

struct Candidate {
  float d2;  // squared distance between the bounding discs' centres
  int j;
};

// Everything one avoidance step needs, kept between steps so that nothing is allocated in it.
class Avoidance {
public:
  Avoidance(const Plaza* plaza, int k, CrowdSplit split, Tuning tuning)
      : plaza_(plaza), k_(k), split_(split), t_(tuning) {}

  // New velocities for all agents (agents[i].v is read as the last velocity and then replaced).
  void step(std::vector<Agent>& agents, const std::vector<Vec2>& preferred, CrowdSummary& summary) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    find_neighbors(agents, summary);
    const auto t1 = clock::now();
    batch::distance(pairs_, pair_results_);
    wall_distances(agents);
    if (t_.steer) steer(agents, preferred);
    const auto t2 = clock::now();
    solve(agents, t_.steer ? steered_ : preferred, summary);
    const auto t3 = clock::now();
    const double n = std::chrono::duration<double, std::milli>(t1 - t0).count();
    const double d = std::chrono::duration<double, std::milli>(t2 - t1).count();
    const double l = std::chrono::duration<double, std::milli>(t3 - t2).count();
    summary.neighbors_ms += n;
    summary.distance_ms += d;
    summary.lp_ms += l;
    last_ms = n + d + l;
  }

  // The least gaps this step saw (the positions the step started from).
  float least_gap() const {
    float g = 1e30f;
    for (const DistanceResult& r : pair_results_) g = std::min(g, r.distance);
    return g;
  }
  float least_wall_gap() const {
    float g = 1e30f;
    for (const DistanceResult& r : wall_results_) g = std::min(g, r.distance);
    return g;
  }
  std::size_t pair_count() const { return pairs_.size(); }
  double last_ms = 0;

private:
  void find_neighbors(const std::vector<Agent>& agents, CrowdSummary& summary) {
    const int n = int(agents.size());
    // A uniform grid over the agents' bounding-disc centres, built by counting sort.
    Vec2 lo{1e30f, 1e30f}, hi{-1e30f, -1e30f};
    centre_.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) {
      const Vec2 c = agents[std::size_t(i)].p + agents[std::size_t(i)].centroid;
      centre_[std::size_t(i)] = c;
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y)};
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y)};
    }
    // Cells of at least t_.cell, and never many more cells than agents (a sparse crowd).
    float size = t_.cell;
    while ((hi.x - lo.x) / size * ((hi.y - lo.y) / size) > 64.0f * float(n) + 1024) size *= 2;
    const int gx = int((hi.x - lo.x) / size) + 1, gy = int((hi.y - lo.y) / size) + 1;
    cell_start_.assign(std::size_t(gx * gy + 1), 0);
    cell_of_.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) {
      const Vec2 c = centre_[std::size_t(i)];
      const int at = std::min(gy - 1, int((c.y - lo.y) / size)) * gx + std::min(gx - 1, int((c.x - lo.x) / size));
      cell_of_[std::size_t(i)] = at;
      ++cell_start_[std::size_t(at + 1)];
    }
    for (int c = 0; c < gx * gy; ++c) cell_start_[std::size_t(c + 1)] += cell_start_[std::size_t(c)];
    sorted_.resize(std::size_t(n));
    fill_ = cell_start_;
    for (int i = 0; i < n; ++i) {
      const int slot = fill_[std::size_t(cell_of_[std::size_t(i)])]++;
      const Vec2 c = centre_[std::size_t(i)];
      sorted_[std::size_t(slot)] = {c.x, c.y, agents[std::size_t(i)].extent, i};
    }

    // Each agent's neighbours: every agent whose bounding disc is within must_reach(), and the
    // nearest others by centre distance (within neighbor_dist, if set), up to k in all.
    const float must_reach = t_.must_reach();
    const float far2 = t_.neighbor_dist > 0 ? t_.neighbor_dist * t_.neighbor_dist : 1e30f;
    list_.resize(std::size_t(n) * kNeighborCapacity);
    count_.assign(std::size_t(n), 0);
    Candidate cand[kCandidates];
    // Rings of cells around the agent's: ring 1 holds every pair that could touch; with a
    // neighbour distance, farther rings up to it, stopping once the k-th nearest is nearer than
    // any agent of the next ring could be.
    const int rings = t_.neighbor_dist > 0 ? std::max(1, int(std::ceil(t_.neighbor_dist / size))) : 1;
    for (int i = 0; i < n; ++i) {
      const Vec2 c = centre_[std::size_t(i)];
      const float e = agents[std::size_t(i)].extent + must_reach;
      const int cx = cell_of_[std::size_t(i)] % gx, cy = cell_of_[std::size_t(i)] / gx;
      int* out = &list_[std::size_t(i) * kNeighborCapacity];
      int m = 0, keep = 0;
      // Those that could touch go straight to the list (no square root: the bound's test squared);
      // the others are candidates, ranked by their centres' distance.
      auto scan_row = [&](int y, int x0, int x1) {
        if (y < 0 || y >= gy) return;
        x0 = std::max(0, x0);
        x1 = std::min(gx - 1, x1);
        if (x0 > x1) return;
        // The cells of a row are consecutive in sorted_.
        for (int s = cell_start_[std::size_t(y * gx + x0)]; s < cell_start_[std::size_t(y * gx + x1 + 1)]; ++s) {
          const Sorted& o = sorted_[std::size_t(s)];
          if (o.index == i) continue;
          const float dx = o.x - c.x, dy = o.y - c.y;
          const float d2 = dx * dx + dy * dy, touch = e + o.extent;
          if (d2 < touch * touch) {
            if (keep < kNeighborCapacity)
              out[keep++] = o.index;
            else
              ++summary.truncated;
          } else if (d2 < far2 && m < kCandidates) {
            cand[m++] = {d2, o.index};
          }
        }
      };
      for (int y = cy - 1; y <= cy + 1; ++y) scan_row(y, cx - 1, cx + 1);
      for (int r = 2; r <= rings; ++r) {
        // Enough candidates, and the k-th nearer than ring r can be (r - 1 cells away at least)?
        if (keep >= k_) break;
        const float reach = float(r - 1) * size;
        int within = 0;
        for (int t = 0; t < m; ++t) within += cand[t].d2 <= reach * reach;
        if (within >= k_ - keep) break;
        scan_row(cy - r, cx - r, cx + r);
        scan_row(cy + r, cx - r, cx + r);
        for (int y = cy - r + 1; y <= cy + r - 1; ++y) {
          scan_row(y, cx - r, cx - r);
          scan_row(y, cx + r, cx + r);
        }
      }
      // Up to k in all: the nearest of the others, by insertion into the free slots.
      const int want = k_ - keep;
      if (want > 0) {
        Candidate best[kNeighborCapacity];
        int have = 0;
        for (int t = 0; t < m; ++t) {
          if (have == want && cand[t].d2 >= best[have - 1].d2) continue;
          int at = have < want ? have++ : have - 1;
          while (at > 0 && best[at - 1].d2 > cand[t].d2) {
            best[at] = best[at - 1];
            --at;
          }
          best[at] = cand[t];
        }
        for (int t = 0; t < have; ++t) out[keep++] = best[t].j;
      }
      count_[std::size_t(i)] = keep;
    }

    // The pairs, each once: i lists j, and i < j or j does not list i. Every pair either agent
    // counts is a pair of both (the guarantee needs that: docs/crowds.md).
    pairs_.clear();
    pair_agents_.clear();
    for (int i = 0; i < n; ++i) {
      const Agent& a = agents[std::size_t(i)];
      const int* li = &list_[std::size_t(i) * kNeighborCapacity];
      for (int t = 0; t < count_[std::size_t(i)]; ++t) {
        const int j = li[t];
        if (j < i) {
          const int* lj = &list_[std::size_t(j) * kNeighborCapacity];
          if (std::find(lj, lj + count_[std::size_t(j)], i) != lj + count_[std::size_t(j)]) continue;  // j emitted it
        }
        const Agent& b = agents[std::size_t(j)];
        pairs_.push_back({{a.shape, {a.p, a.q}, a.v}, {b.shape, {b.p, b.q}, b.v}});
        pair_agents_.push_back({i, j});
      }
    }
    pair_results_.resize(pairs_.size());
  }

  // The half-planes only slow agents down along the line between them; two streams that cross would
  // press into each other. So each agent looks ahead: batch::time_to_collision of its preferred
  // velocity against its neighbours' last velocities, and the sooner the first touch, the more it
  // turns its preferred velocity away from that neighbour (the half-planes still decide).
  void steer(const std::vector<Agent>& agents, const std::vector<Vec2>& preferred) {
    const int n = int(agents.size());
    steered_.assign(preferred.begin(), preferred.end());
    // The queries of a block of agents in one call (about 1,300 pairs, 80 KB: in the L2 cache),
    // so that each kind's lane group fills: one agent's 10 neighbours split by kind would leave
    // most lanes of each group empty.
    constexpr int kBlock = 128;
    for (int first_agent = 0; first_agent < n; first_agent += kBlock) {
      const int end = std::min(n, first_agent + kBlock);
      steer_pairs_.clear();
      for (int i = first_agent; i < end; ++i) {
        const Agent& a = agents[std::size_t(i)];
        const BatchBody self{a.shape, {a.p, a.q}, preferred[std::size_t(i)]};
        const int* li = &list_[std::size_t(i) * kNeighborCapacity];
        for (int t = 0; t < count_[std::size_t(i)]; ++t) {
          const Agent& b = agents[std::size_t(li[t])];
          steer_pairs_.push_back({self, {b.shape, {b.p, b.q}, b.v}});
        }
      }
      steer_ttc_.resize(steer_pairs_.size());
      batch::time_to_collision(steer_pairs_, kSteerHorizon, steer_ttc_);
      const float* ttc = steer_ttc_.data();
      for (int i = first_agent; i < end; ++i) {
        const int* li = &list_[std::size_t(i) * kNeighborCapacity];
        const int m = count_[std::size_t(i)];
        int first = -1;
        for (int t = 0; t < m; ++t)
          if (ttc[t] < kSteerHorizon && (first < 0 || ttc[t] < ttc[first])) first = t;
        const float soonest = first < 0 ? kSteerHorizon : ttc[first];
        ttc += m;
        if (first < 0) continue;
        const float urgency = 1 - soonest / kSteerHorizon;
        const Vec2 to = centre_[std::size_t(li[first])] - centre_[std::size_t(i)];
        // Away from it (docs/crowds.md compares other choices).
        const float side = cross(preferred[std::size_t(i)], to) > 0 ? -1.0f : 1.0f;
        steered_[std::size_t(i)] = rotate(Rot::from_angle(side * kSteerTurn * urgency), preferred[std::size_t(i)]);
      }
    }
  }

  void wall_distances(const std::vector<Agent>& agents) {
    const int n = int(agents.size());
    wall_start_.resize(std::size_t(n + 1));
    wall_results_.clear();
    for (int i = 0; i < n; ++i) {
      wall_start_[std::size_t(i)] = int(wall_results_.size());
      const Agent& a = agents[std::size_t(i)];
      const std::span<const BatchBody> near =
          plaza_ ? plaza_->walls_near(centre_[std::size_t(i)]) : std::span<const BatchBody>{};
      if (near.empty()) continue;
      const std::size_t at = wall_results_.size();
      wall_results_.resize(at + near.size());
      batch::distance(BatchBody{a.shape, {a.p, a.q}, a.v}, near, std::span(wall_results_).subspan(at));
    }
    wall_start_[std::size_t(n)] = int(wall_results_.size());
  }

  void solve(std::vector<Agent>& agents, const std::vector<Vec2>& preferred, CrowdSummary& summary) {
    const int n = int(agents.size());
    // Each agent's half-planes, walls first: counts, offsets, then the planes themselves.
    plane_start_.assign(std::size_t(n + 1), 0);
    for (int i = 0; i < n; ++i)
      plane_start_[std::size_t(i + 1)] = wall_start_[std::size_t(i + 1)] - wall_start_[std::size_t(i)];
    for (const auto& [i, j] : pair_agents_) {
      ++plane_start_[std::size_t(i + 1)];
      ++plane_start_[std::size_t(j + 1)];
    }
    for (int i = 0; i < n; ++i) plane_start_[std::size_t(i + 1)] += plane_start_[std::size_t(i)];
    const std::size_t total = std::size_t(plane_start_[std::size_t(n)]);
    planes_.resize(total);
    other_.resize(total);
    rate_.resize(total);
    fill_.assign(plane_start_.begin(), plane_start_.end() - 1);
    for (int i = 0; i < n; ++i) {
      for (int w = wall_start_[std::size_t(i)]; w < wall_start_[std::size_t(i + 1)]; ++w) {
        const DistanceResult& r = wall_results_[std::size_t(w)];
        const float g = r.distance;
        const std::size_t at = std::size_t(fill_[std::size_t(i)]++);
        planes_[at] = {r.normal, split_ == CrowdSplit::mean && g < 0 ? (g - kSkin) / t_.dt : (g - kSkin) / kTauWall};
        other_[at] = -1;
      }
    }
    for (std::size_t p = 0; p < pair_agents_.size(); ++p) {
      const auto [i, j] = pair_agents_[p];
      const DistanceResult& r = pair_results_[p];
      // n.(v_i - v_j) <= rate keeps the gap along n, g - t n.(v_i - v_j), at least g (1 - t / kTau).
      // i takes n.v_i <= mid + rate / 2 and j takes -n.v_j <= -mid + rate / 2: ORCA's split around
      // the mean of the last velocities, clamped so that standing still meets both halves (then
      // every agent's program has a solution, v = 0, and the guarantee never lapses).
      const float rate = pair_rate(r.distance);
      const float mean = 0.5f * dot(r.normal, agents[std::size_t(i)].v + agents[std::size_t(j)].v);
      const float half = 0.5f * std::max(rate, 0.0f);
      float mid = split_ == CrowdSplit::mean ? mean : std::clamp(mean, -half, half);
      // Priority between streams: a fixed order breaks the cycle of four crossings that wait on
      // each other (each stream yields to the one before it in the order, never the reverse).
      const int si = agents[std::size_t(i)].stream, sj = agents[std::size_t(j)].stream;
      if (split_ == CrowdSplit::priority && si != sj) mid = si < sj ? half : -half;
      const std::size_t at_i = std::size_t(fill_[std::size_t(i)]++), at_j = std::size_t(fill_[std::size_t(j)]++);
      planes_[at_i] = {r.normal, mid + 0.5f * rate};
      planes_[at_j] = {-1.0f * r.normal, -mid + 0.5f * rate};
      other_[at_i] = j;
      other_[at_j] = i;
      rate_[at_i] = rate_[at_j] = rate;
    }
    new_v_.resize(std::size_t(n));
    if (split_ == CrowdSplit::ordered) {
      solve_in_order(agents, preferred, summary);
    } else {
      solve_each(preferred, summary);
    }
    repair(preferred, summary);
    for (int i = 0; i < n; ++i) agents[std::size_t(i)].v = new_v_[std::size_t(i)];
  }

  // Every agent on its own, from its half of each pair (the clamped, priority and mean splits).
  void solve_each(const std::vector<Vec2>& preferred, CrowdSummary& summary) {
    const int n = int(new_v_.size());
    for (int i = 0; i < n; ++i) {
      const HalfPlane* planes = &planes_[std::size_t(plane_start_[std::size_t(i)])];
      const int count = plane_start_[std::size_t(i + 1)] - plane_start_[std::size_t(i)];
      const int walls = wall_start_[std::size_t(i + 1)] - wall_start_[std::size_t(i)];
      Vec2 v;
      const int failed = solve_2d(planes, count, t_.max_speed, preferred[std::size_t(i)], false, v);
      if (failed < count) {
        ++summary.infeasible;
        solve_least_violation(planes, count, failed < walls ? 0 : walls, failed, t_.max_speed, v, scratch_);
      }
      new_v_[std::size_t(i)] = v;
    }
  }

  // The ordered split: agents solve one after another, the one farthest along its way first (the
  // stream's local x: leaders before followers, and in each quadrant where two streams cross, the
  // stream on its way out before the one on its way in). Of a pair, the first to solve takes the
  // whole allowance, n.v_i <= rate; the second takes the pair's half-plane against the first's new
  // velocity, n.v_j' <= n'.v_i + rate (n' = -n). The first's answer leaves n'.v_i + rate >= 0, so
  // v = 0 meets every half-plane of every program (whenever rate >= 0), and every pair's constraint
  // holds exactly when both have solved: the guarantee of the clamped split, without its one-second
  // headway between a leader and its follower.
  void solve_in_order(const std::vector<Agent>& agents, const std::vector<Vec2>& preferred, CrowdSummary& summary) {
    const int n = int(agents.size());
    // By progress in 5 cm buckets (a counting sort; within a bucket, by index): the order only
    // decides who yields, so a few centimetres' difference need not be ranked.
    constexpr float kBucket = 0.05f;
    float lo = 1e30f, hi = -1e30f;
    for (const Agent& a : agents) {
      lo = std::min(lo, a.progress);
      hi = std::max(hi, a.progress);
    }
    const int buckets = n > 0 ? std::min(int((hi - lo) / kBucket) + 1, 1 << 20) : 0;
    bucket_start_.assign(std::size_t(buckets + 1), 0);
    bucket_of_.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) {
      const int b = std::min(buckets - 1, int((hi - agents[std::size_t(i)].progress) / kBucket));  // farthest first
      bucket_of_[std::size_t(i)] = b;
      ++bucket_start_[std::size_t(b + 1)];
    }
    for (int b = 0; b < buckets; ++b) bucket_start_[std::size_t(b + 1)] += bucket_start_[std::size_t(b)];
    order_.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) order_[std::size_t(bucket_start_[std::size_t(bucket_of_[std::size_t(i)])]++)] = i;
    done_.assign(std::size_t(n), 0);
    for (const int i : order_) {
      const int begin = plane_start_[std::size_t(i)], count = plane_start_[std::size_t(i + 1)] - begin;
      const int walls = wall_start_[std::size_t(i + 1)] - wall_start_[std::size_t(i)];
      scratch2_.assign(planes_.begin() + begin, planes_.begin() + begin + count);
      for (int t = walls; t < count; ++t) {
        const int j = other_[std::size_t(begin + t)];
        const float rate = rate_[std::size_t(begin + t)];
        // Once j has solved, n.v_j + rate >= 0 up to rounding (j took n'.v_j <= rate): the floor
        // at 0 removes that rounding, so that standing still stays a solution.
        scratch2_[std::size_t(t)].b =
            done_[std::size_t(j)] ? std::max(dot(scratch2_[std::size_t(t)].n, new_v_[std::size_t(j)]) + rate, 0.0f)
                                  : rate;
      }
      Vec2 v;
      const int failed = solve_2d(scratch2_.data(), count, t_.max_speed, preferred[std::size_t(i)], false, v);
      if (failed < count) {
        ++summary.infeasible;
        // Standing still meets every half-plane (each b >= 0): only rounding, where the feasible
        // set has shrunk to a sliver or a point, can have failed the program.
        bool still = true;
        for (int t = 0; t < count; ++t) still = still && scratch2_[std::size_t(t)].b >= 0;
        if (still)
          v = Vec2{};
        else
          solve_least_violation(scratch2_.data(), count, failed < walls ? 0 : walls, failed, t_.max_speed, v, scratch_);
      }
      new_v_[std::size_t(i)] = v;
      done_[std::size_t(i)] = 1;
    }
  }

  // Where a fallback left a pair's shared half-plane n.(v_i - v_j) <= rate broken, the agents of
  // such pairs solve again, one after another, each taking the whole of every pair's half-plane
  // against its neighbours' new velocities (n.v_i <= n.v_j + rate). A solve that succeeds leaves
  // all of that agent's pairs met, so broken pairs only go; rounds stop when none is left.
  void repair(const std::vector<Vec2>& preferred, CrowdSummary& summary) {
    constexpr float kSlack = 1e-5f;  // m/s: rounding of the half-planes
    auto broken = [&](int i) {
      for (int t = plane_start_[std::size_t(i)]; t < plane_start_[std::size_t(i + 1)]; ++t) {
        const int j = other_[std::size_t(t)];
        if (j >= 0 && dot(planes_[std::size_t(t)].n, new_v_[std::size_t(i)] - new_v_[std::size_t(j)]) >
                          rate_[std::size_t(t)] + kSlack)
          return true;
      }
      return false;
    };
    auto pair_broken = [&](std::size_t p) {
      const auto [i, j] = pair_agents_[p];
      const DistanceResult& r = pair_results_[p];
      const float rate = pair_rate(r.distance);
      return dot(r.normal, new_v_[std::size_t(i)] - new_v_[std::size_t(j)]) > rate + kSlack;
    };
    work_.clear();
    for (std::size_t p = 0; p < pair_agents_.size(); ++p) {
      if (pair_broken(p)) {
        work_.push_back(pair_agents_[p].first);
        work_.push_back(pair_agents_[p].second);
      }
    }
    for (int round = 0; round < kRepairRounds && !work_.empty(); ++round) {
      std::sort(work_.begin(), work_.end());
      work_.erase(std::unique(work_.begin(), work_.end()), work_.end());
      next_.clear();
      for (const int i : work_) {
        if (!broken(i)) continue;
        ++summary.repaired;
        const int begin = plane_start_[std::size_t(i)], count = plane_start_[std::size_t(i + 1)] - begin;
        int walls = 0;
        scratch2_.clear();
        for (int t = begin; t < begin + count; ++t) {
          const int j = other_[std::size_t(t)];
          if (j < 0) {
            scratch2_.push_back(planes_[std::size_t(t)]);
            ++walls;
          }
        }
        for (int t = begin; t < begin + count; ++t) {
          const int j = other_[std::size_t(t)];
          if (j >= 0)
            scratch2_.push_back({planes_[std::size_t(t)].n,
                                 dot(planes_[std::size_t(t)].n, new_v_[std::size_t(j)]) + rate_[std::size_t(t)]});
        }
        Vec2 v;
        const int failed = solve_2d(scratch2_.data(), count, t_.max_speed, preferred[std::size_t(i)], false, v);
        if (failed < count)
          solve_least_violation(scratch2_.data(), count, failed < walls ? 0 : walls, failed, t_.max_speed, v, scratch_);
        new_v_[std::size_t(i)] = v;
        for (int t = begin; t < begin + count; ++t) {
          const int j = other_[std::size_t(t)];
          if (j >= 0 && dot(planes_[std::size_t(t)].n, v - new_v_[std::size_t(j)]) > rate_[std::size_t(t)] + kSlack)
            next_.push_back(j);
        }
      }
      std::swap(work_, next_);
    }
    for (std::size_t p = 0; p < pair_agents_.size(); ++p) {
      if (pair_broken(p)) {
        ++summary.unresolved;
        break;
      }
    }
  }

  struct Sorted {
    float x, y, extent;
    int index;
  };

  // The most a pair may close per second: (gap - kSkin) / kTau, which keeps kSkin between them and
  // slowly pushes apart a pair that rounding brought closer. With the mean split an overlapping pair
  // is pushed apart within a step, as ORCA does.
  // The ordered split never lets such a pair close in (rate 0), so standing still always meets its
  // half-planes; the pair does not open either, which leaves it within rounding of kSkin.
  float pair_rate(float g) const {
    if (split_ == CrowdSplit::ordered) return std::max(g - kSkin, 0.0f) / t_.tau;
    return split_ == CrowdSplit::mean && g < 0 ? (g - kSkin) / t_.dt : (g - kSkin) / t_.tau;
  }

  const Plaza* plaza_;  // null: no walls
  int k_;
  CrowdSplit split_;
  Tuning t_;
  std::vector<Vec2> centre_;
  std::vector<int> cell_start_, cell_of_, fill_, list_, count_, wall_start_, plane_start_;
  std::vector<Sorted> sorted_;
  std::vector<BatchPair> pairs_, steer_pairs_;
  std::vector<float> steer_ttc_;
  std::vector<std::pair<int, int>> pair_agents_;
  std::vector<DistanceResult> pair_results_, wall_results_;
  std::vector<HalfPlane> planes_, scratch_, scratch2_;
  std::vector<int> other_, work_, next_;  // other_: the other agent of each half-plane (-1: a wall)
  std::vector<float> rate_;
  std::vector<Vec2> new_v_, steered_;
  std::vector<int> order_, bucket_start_, bucket_of_;  // the ordered split: agents in the order they solve
  std::vector<char> done_;
};

// --- The picture -----------------------------------------------------------------------------

constexpr Rgb kStreamColors[4] = {colors::fills[0], colors::fills[1], colors::fills[2], colors::fills[3]};

void draw_frame(Canvas& canvas, const View& view, const Plaza* plaza, const std::vector<Agent>& agents, float time,
                int arrived) {
  cairo_t* cr = canvas.cr;
  set_color(cr, colors::background);
  cairo_paint(cr);
  for (const ColliderId id : plaza ? plaza->walls : std::vector<ColliderId>{}) {
    for (int k = 0; k < plaza->world.part_count(id); ++k)
      draw_shape(cr, view, *plaza->world.part(id, k), *plaza->world.transform(id), colors::ground, 1, colors::outline,
                 2);
  }
  for (int s = 0; s < 4; ++s) {
    view.apply(cr);
    for (const Agent& a : agents) {
      if (a.stream != s) continue;
      if (a.shape->vertex_count() == 1) {
        const Vec2 c = a.p + a.centroid;
        cairo_new_sub_path(cr);
        cairo_arc(cr, c.x, c.y, a.shape->radius(), 0, 2 * std::numbers::pi);
      } else {
        shape_path(cr, *a.shape, Transform{a.p, a.q});
      }
    }
    cairo_restore(cr);
    set_color(cr, kStreamColors[s]);
    cairo_fill(cr);
  }
  char text[128];
  std::snprintf(text, sizeof text, "t = %5.1f s   %d agents walking, %d arrived", double(time),
                int(agents.size()) - (plaza ? 0 : arrived), arrived);
  draw_text(cr, 10, 20, text, 14, colors::text, true);
  cairo_surface_flush(canvas.surface);
}

}  // namespace

std::vector<Aabb> crowd_wall_boxes() {
  std::vector<Aabb> boxes;
  // The west side's three pieces (y: corner to doorway, the middle pillar, doorway to corner),
  // turned to the four sides.
  const float lo = -kRing - kWallHalf, hi = -kRing + kWallHalf;
  const float spans[3][2] = {{-kRing - kWallHalf, -kDoorHigh}, {-kDoorLow, kDoorLow}, {kDoorHigh, kRing + kWallHalf}};
  for (int s = 0; s < 4; ++s) {
    const Rot r = stream_rotation(s);
    for (const auto& span : spans) {
      const Vec2 a = rotate(r, Vec2{lo, span[0]}), b = rotate(r, Vec2{hi, span[1]});
      boxes.push_back({{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}});
    }
  }
  return boxes;
}

CrowdSummary run_crowd_demo(const CrowdOptions& options, std::ostream& out, const CrowdObserver& observer) {
  namespace fs = std::filesystem;
  if (options.agents < 4 || options.agents > 200000) throw InputError("crowd: expected --agents in 4..200000");
  if (options.neighbors < 1 || options.neighbors > kNeighborCapacity)
    throw InputError("crowd: expected --neighbors in 1..32");
  if (options.max_steps < 1) throw InputError("crowd: expected --steps >= 1");
  if (options.gif_width < 64 || options.gif_every < 1)
    throw InputError("crowd: expected --gif-width >= 64 and --gif-every >= 1");
  const bool gif_wanted = !options.output.empty();
  if (gif_wanted) {
    std::error_code ec;
    fs::create_directories(options.output, ec);
    if (ec || !fs::is_directory(options.output))
      throw InputError(options.output + ": cannot create the output folder (" + (ec ? ec.message() : "not a folder") +
                       ")");
  }

  const bool circle = options.scene == CrowdScene::circle;
  const ShapeBook book;
  const Shape circle_disc = Shape::circle(kCircleAgentRadius);
  float max_extent = 0;
  for (const auto* list : {&book.discs, &book.capsules, &book.boxes})
    for (const Shape& s : *list) max_extent = std::max(max_extent, s.extent());
  std::optional<Plaza> plaza;
  Block block;
  std::vector<Agent> agents;
  Tuning tuning;
  tuning.steer = options.steer;
  float half = 0;
  if (circle) {
    agents = make_circle(options.agents, circle_disc);
    tuning.dt = kCircleStep;
    tuning.max_speed = kCircleMaxSpeed;
    tuning.neighbor_dist = options.neighbor_dist > 0 ? options.neighbor_dist : 15;
    half = 1.1f * length(agents[0].p);
  } else {
    plaza.emplace(max_extent);
    agents = make_crowd(options.agents, options.seed, book, block);
    tuning.neighbor_dist = options.neighbor_dist;
    half = kBlockFront + block.depth() + 1.5f;
  }
  // 3 x 3 cells hold every candidate, and every pair that could touch in a step.
  // (and cells of half the neighbour distance: two rings hold every candidate, one often suffices).
  tuning.cell = std::max({tuning.cell, tuning.must_reach() + 2 * (circle ? circle_disc.extent() : max_extent),
                          0.5f * tuning.neighbor_dist});
  const float dt = tuning.dt;
  Avoidance avoidance(plaza ? &*plaza : nullptr, options.neighbors, options.split, tuning);
  Signals signals(options.signals && !circle);

  const int gif_size = 2 * (options.gif_width / 2);
  const View view = View::fit(Aabb{{-half, -half}, {half, half}}, 0, 0, gif_size, gif_size);
  const std::vector<Rgb> keys{colors::background, colors::outline,  colors::ground,   kStreamColors[0],
                              kStreamColors[1],   kStreamColors[2], kStreamColors[3], colors::text};
  const Palette palette(keys);
  GifWriter gif(gif_size, gif_wanted ? gif_size : 1, palette);
  Canvas canvas(gif_size, gif_size);
  const int delay = std::max(2, int(std::lround(100.0 * options.gif_every * dt / 4)));  // 4x real time

  CrowdSummary summary;
  summary.agents = options.agents;
  summary.step_seconds = dt;
  summary.least_gap = summary.least_wall_gap = 1e30f;
  std::vector<Vec2> preferred;
  std::vector<CrowdAgentView> views;
  long long agent_steps = 0;
  double total_ms = 0, full_ms = 0, pairs = 0;
  int full_steps = 0;
  for (int step = 0; step < options.max_steps && !agents.empty(); ++step) {
    preferred.resize(agents.size());
    if (circle) {
      for (std::size_t i = 0; i < agents.size(); ++i) {
        preferred[i] = circle_preferred_velocity(agents[i]);
        agents[i].progress = -length(agents[i].goal - agents[i].p);
      }
    } else {
      for (Agent& a : agents) a.progress = progress(a);
      signals.update(agents);
      for (std::size_t i = 0; i < agents.size(); ++i) preferred[i] = preferred_velocity(agents[i], signals);
    }
    avoidance.step(agents, preferred, summary);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      Agent& a = agents[i];
      const float asked = length(preferred[i]);
      if (a.stuck >= kStuckSteps + kSidestepSteps)
        a.stuck = 0;
      else if (a.stuck >= kStuckSteps || (asked > 0.3f && length(a.v) < 0.1f * asked))
        ++a.stuck;
      else
        a.stuck = 0;
    }
    summary.least_gap = std::min(summary.least_gap, avoidance.least_gap());
    summary.least_wall_gap = std::min(summary.least_wall_gap, avoidance.least_wall_gap());
    agent_steps += long(agents.size());
    total_ms += avoidance.last_ms;
    pairs += double(avoidance.pair_count());
    if (int(agents.size()) == options.agents) {
      full_ms += avoidance.last_ms;
      ++full_steps;
    }
    for (Agent& a : agents) {
      a.x += double(dt) * double(a.v.x);
      a.y += double(dt) * double(a.v.y);
      a.p = {float(a.x), float(a.y)};
    }
    if (circle) {  // everyone stays; done when all are at their goals at once
      summary.arrived = int(std::count_if(agents.begin(), agents.end(), [](const Agent& a) {
        return length_squared(a.goal - a.p) <= kCircleAgentRadius * kCircleAgentRadius;
      }));
    } else {  // those that reached their goal leave (the order of the rest is kept)
      const std::size_t before = agents.size();
      std::erase_if(agents, [](const Agent& a) { return a.phase == kToGoal && length(a.goal - a.p) < kArrive; });
      summary.arrived += int(before - agents.size());
    }
    if (summary.steps_to_99 == 0 && 100LL * summary.arrived >= 99LL * options.agents) summary.steps_to_99 = step + 1;
    ++summary.steps;
    if (observer) {
      views.clear();
      for (const Agent& a : agents) views.push_back({a.shape, {a.p, a.q}, a.v, a.id});
      observer(step, views);
    }
    const bool done = circle && summary.arrived == options.agents;
    if (gif_wanted && step + 1 == options.png_step) {  // the still picture, at the GIF's size
      draw_frame(canvas, view, plaza ? &*plaza : nullptr, agents, float(step + 1) * dt, summary.arrived);
      summary.png = (fs::path(options.output) / "crowd.png").string();
      write_file(summary.png, png_bytes(canvas.surface));
    }
    if (gif_wanted && (step % options.gif_every == 0 || agents.empty() || done)) {
      draw_frame(canvas, view, plaza ? &*plaza : nullptr, agents, float(step + 1) * dt, summary.arrived);
      gif.add_frame(cairo_image_surface_get_data(canvas.surface), cairo_image_surface_get_stride(canvas.surface),
                    delay);
    }
    if (done) break;
  }
  if (summary.least_gap > 1e29f) summary.least_gap = 0;
  if (summary.least_wall_gap > 1e29f) summary.least_wall_gap = 0;
  summary.pairs_per_step = pairs / std::max(1, summary.steps);
  summary.full_step_ms = full_steps > 0 ? full_ms / full_steps : 0;
  summary.agents_per_ms = total_ms > 0 ? double(agent_steps) / total_ms : 0;
  if (gif_wanted) {
    summary.gif_frames = gif.frame_count();
    const std::vector<uint8_t> bytes = gif.finish();
    summary.gif = (fs::path(options.output) / "crowd.gif").string();
    write_file(summary.gif, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }

  char line[320];
  if (circle) {
    out << "pebble crowd: " << options.agents
        << " discs of radius 1.5 on a circle walk to the opposite point (RVO2's Circle), k = " << options.neighbors
        << " neighbours within " << tuning.neighbor_dist << " m, ";
  } else {
    out << "pebble crowd: " << options.agents << " agents (discs, capsules, rounded boxes; seed " << options.seed
        << ") in four streams through the doorways of a chain wall, k = " << options.neighbors << " neighbours, ";
  }
  out << split_name(options.split) << " split\n";
  std::snprintf(line, sizeof line, "  %d steps of %.2f s, %d arrived, %d still walking\n", summary.steps, double(dt),
                summary.arrived, options.agents - summary.arrived);
  out << line;
  if (summary.steps_to_99 > 0) {
    std::snprintf(line, sizeof line, "  99%% had arrived after %d steps\n", summary.steps_to_99);
    out << line;
  }
  if (circle)
    std::snprintf(line, sizeof line, "  least gap between two agents %.6f m\n", double(summary.least_gap));
  else
    std::snprintf(line, sizeof line, "  least gap between two agents %.6f m, to the wall %.6f m\n",
                  double(summary.least_gap), double(summary.least_wall_gap));
  out << line;
  std::snprintf(
      line, sizeof line,
      "  %lld fallback LPs, %lld agents solved again, %lld steps left a pair unmet, %lld truncated neighbour lists\n",
      summary.infeasible, summary.repaired, summary.unresolved, summary.truncated);
  out << line;
  std::snprintf(line, sizeof line,
                "  avoidance (grid neighbours + batch distances and times to collision + LPs): %.0f agents per ms over "
                "the run; %.3f ms per step with all %d agents\n",
                summary.agents_per_ms, summary.full_step_ms, options.agents);
  out << line;
  const double all = summary.neighbors_ms + summary.distance_ms + summary.lp_ms;
  std::snprintf(line, sizeof line,
                "  of which neighbours %.0f%%, batch queries %.0f%%, LPs %.0f%%; %.0f pairs per step on average\n",
                100 * summary.neighbors_ms / std::max(all, 1e-9), 100 * summary.distance_ms / std::max(all, 1e-9),
                100 * summary.lp_ms / std::max(all, 1e-9), summary.pairs_per_step);
  out << line;
  if (gif_wanted)
    out << "  wrote " << summary.gif << " (" << summary.gif_frames << " frames)"
        << (summary.png.empty() ? "" : " and " + summary.png) << "\n";
  return summary;
}

}  // namespace pebble::tools
