// The character mover (pebble/mover.hpp; the method in docs/mover.md): casts that tolerate
// contact, contact planes, the plane solver, velocity clipping, and CharacterMover's step.
#include "pebble/mover.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <new>
#include <string>

#include "geometry/trig.hpp"
#include "pebble/mass.hpp"
#include "tolerances.hpp"

namespace pebble {
namespace {

// A translation counts as not going deeper into a collider it starts touching when its component
// against the collider's normal is at most this fraction of its length: clip_vector()'s results
// run along a plane up to rounding, and must not be stopped by it.
constexpr float kAlongPlane = 1e-5f;

// ...or goes deeper by at most this fraction of the skin over the rest of the motion: a cast along
// a flat chain meets the next segment's end at the skin's distance, with a normal off by the
// cast's rounding (docs/mover.md), which must not stop or lift a walking mover.
constexpr float kGrazing = 0.1f;

// solve_planes() considers at most this many planes (a mover meets a handful).
constexpr int kMaxSolverPlanes = 64;

// The most planes one slide clips against.
constexpr int kSlidePlanes = 8;

bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// The most parts one step gathers (detail::MoverNearby); a step near more asks the world's trees.
constexpr int kNearbyParts = 32;

}  // namespace

namespace detail {

/// The parts around one CharacterMover step, found by one walk of the world's trees
/// (CollisionWorld::parts_in_box, the mover's filter, its own collider left out), so that the
/// step's casts and contact queries run on this short list instead of walking the trees each
/// time. A query whose box this one does not cover asks the world instead; the list holds every
/// part the world's query would try within it, in the trees' order.
struct MoverNearby {
  // Storage for the parts, left uninitialized (PartView is an aggregate: its objects begin in the
  // bytes when written), since a step writes only the few it finds.
  alignas(PartView) std::byte storage[sizeof(PartView) * kNearbyParts];
  PartView* parts = std::launder(reinterpret_cast<PartView*>(storage));
  int count = 0;
  int moving = 0;      // of them, parts of colliders that move
  Aabb box{};          // what was gathered
  bool valid = false;  // false: nothing gathered, or more parts than the storage holds
  // The mover during the step (it does not turn): its rotation, size and box about its position.
  Rot q{};
  float extent = 0;
  Aabb local{};

  MoverNearby() = default;
  MoverNearby(const MoverNearby&) = delete;  // `parts` points into its own storage
  MoverNearby& operator=(const MoverNearby&) = delete;

  /// Finds the parts around the mover (at xf) within `reach` of its box swept by `walk`.
  void gather(const CollisionWorld& world, const Shape& shape, const Transform& xf, float reach, Vec2 walk,
              const QueryFilter& filter, ColliderId ignore) {
    q = xf.q;
    extent = shape.extent();
    local = bounds(shape, Transform{{0, 0}, q});
    const Aabb from = box_at(xf.p, reach);
    box = combine(from, Aabb{from.lower + walk, from.upper + walk});
    count = 0;
    moving = 0;
    valid = false;
    if (!is_valid(box)) return;
    const int found = world.parts_in_box(box, std::span<PartView>(parts, kNearbyParts), filter);
    valid = found >= 0 && found <= kNearbyParts;
    if (!valid) return;
    for (int i = 0; i < found; ++i) {
      const PartView& v = parts[i];
      if (v.id == ignore) continue;
      moving += !v.fixed;
      parts[count++] = v;
    }
  }
  bool covers(const Aabb& b) const { return valid && contains(box, b); }

  /// The mover's box at position p grown by `grow`, with room for the slacks the world's queries
  /// add to their own boxes (src/tolerances.hpp: the shape's size and its coordinates' rounding):
  /// a part that a world query of the mover grown by `grow` would try overlaps it.
  Aabb box_at(Position p, float grow) const {
    const float g = grow + 2 * kBoxSizeSlack * extent;
    const auto out = [&](auto v, float sign) { return v + sign * (g + 4 * kBoxCoordinateSlack * std::fabs(v)); };
    return {{out(local.lower.x + p.x, -1), out(local.lower.y + p.y, -1)},
            {out(local.upper.x + p.x, 1), out(local.upper.y + p.y, 1)}};
  }
};

}  // namespace detail

namespace {

using detail::MoverNearby;

// CollisionWorld::cast_shape(shape, xf, translation, on_hit, filter, options), on the nearby parts
// when they cover the sweep (near gathered with this filter): the same casts in the trees' order,
// a hit beyond the sweep's current end dropped, the sweep shortened by on_hit's answer.
template <class F>
void cast_shape_near(const CollisionWorld& world, const MoverNearby* near, const Shape& shape, const Transform& xf,
                     Vec2 translation, F&& on_hit, const QueryFilter& filter, const ShapeCastOptions& options) {
  if (near != nullptr && xf.q.c == near->q.c && xf.q.s == near->q.s) {
    const Aabb start = near->box_at(xf.p, options.target_separation);
    const Aabb swept = combine(start, Aabb{start.lower + translation, start.upper + translation});
    if (near->covers(swept)) {
      float current = 1;
      for (int i = 0; i < near->count; ++i) {
        const PartView& p = near->parts[i];
        if (!overlaps(p.box, swept) || (!filter.fixed && p.fixed)) continue;
        CastResult hit = p.segment != nullptr ? cast_shape(shape, xf, translation, *p.segment, p.xf, Vec2{}, options)
                                              : cast_shape(shape, xf, translation, *p.shape, p.xf, Vec2{}, options);
        hit.normal = -hit.normal;  // the collider's outward normal, as the world's casts give
        if (!hit.hit || hit.fraction > current) continue;
        const float answer = on_hit(WorldCastResult{p.id, hit, p.part});
        if (answer < 0) continue;
        current = std::min(current, answer);
        if (!(current > 0)) return;
      }
      return;
    }
  }
  world.cast_shape(shape, xf, translation, on_hit, filter, options);
}

// CollisionWorld::collide_shape(shape, xf, margin, on_contact, filter), on the nearby parts when
// they cover its box: the same manifolds in the same order.
template <class F>
void collide_shape_near(const CollisionWorld& world, const MoverNearby* near, const Shape& shape, const Transform& xf,
                        float margin, F&& on_contact, const QueryFilter& filter) {
  if (near != nullptr && is_valid(xf) && margin >= 0 && margin <= kMaxShapeExtent && xf.q.c == near->q.c &&
      xf.q.s == near->q.s) {
    const Aabb box = near->box_at(xf.p, margin);
    if (near->covers(box)) {
      if (!filter.fixed && near->moving == 0) return;
      for (int i = 0; i < near->count; ++i) {
        const PartView& p = near->parts[i];
        if (!overlaps(p.box, box) || (!filter.fixed && p.fixed)) continue;
        const Manifold m = p.segment != nullptr ? collide(*p.segment, p.xf, shape, xf, margin)
                                                : collide(*p.shape, p.xf, shape, xf, margin);
        if (m.count > 0 && !on_contact(p.id, p.part, m)) return;
      }
      return;
    }
  }
  world.collide_shape(shape, xf, margin, on_contact, filter);
}

}  // namespace

namespace {

// cast_mover(), and when `up` is nonzero, a hit whose normal is within the slope limit of up
// (dot >= cos_slope) is preferred over other hits at (nearly) the same fraction: a ground probe
// in a corner of a floor and a steep wall, touching both, must find the floor.
MoverCastResult cast_mover_preferring(const CollisionWorld& world, const MoverNearby* near, const Shape& shape,
                                      const Transform& xf, Vec2 translation, float skin, const QueryFilter& filter,
                                      ColliderId ignore, Vec2 up, float cos_slope) noexcept {
  MoverCastResult best, preferred;
  if (!is_valid(xf) || !is_valid_point(translation) || !(skin >= 0) || !(skin <= kMaxShapeExtent)) return best;
  const float along = std::max(kAlongPlane * length(translation), kGrazing * skin);
  const bool prefer = up.x != 0 || up.y != 0;
  constexpr float kTie = 1e-4f;  // fractions this close count as the same time
  ShapeCastOptions options;
  options.target_separation = skin;
  cast_shape_near(
      world, near, shape, xf, translation,
      [&](const WorldCastResult& r) {
        if (r.id == ignore) return -1.0f;
        // Not going deeper from where it touches (at the start, or grazing): the distance to a convex
        // part has its least value there, to first order, and only grows after.
        if (-dot((1 - r.hit.fraction) * translation, r.hit.normal) <= along) return -1.0f;
        const MoverCastResult hit{true, r.hit.fraction, r.hit.point, r.hit.normal, r.id, r.part};
        if (!best.hit || hit.fraction < best.fraction) best = hit;
        if (prefer && dot(hit.normal, up) >= cos_slope && (!preferred.hit || hit.fraction < preferred.fraction))
          preferred = hit;
        return prefer ? std::min(1.0f, r.hit.fraction + kTie) : r.hit.fraction;
      },
      filter, options);
  if (preferred.hit && preferred.fraction <= best.fraction + kTie) return preferred;
  return best;
}

MoverCastResult cast_mover_near(const CollisionWorld& world, const MoverNearby* near, const Shape& shape,
                                const Transform& xf, Vec2 translation, float skin, const QueryFilter& filter,
                                ColliderId ignore) noexcept {
  return cast_mover_preferring(world, near, shape, xf, translation, skin, filter, ignore, {}, 0);
}

/// fixed_only: only fixed colliders' planes (step 6's question), so that the deeper planes of
/// many moving parts cannot crowd a fixed overlap out of `out`.
int mover_planes_near(const CollisionWorld& world, const MoverNearby* near, const Shape& shape, const Transform& xf,
                      float margin, std::span<MoverPlane> out, const QueryFilter& filter, ColliderId ignore,
                      bool fixed_only = false) noexcept {
  int count = 0;
  if (out.empty()) return 0;
  collide_shape_near(
      world, near, shape, xf, margin,
      [&](ColliderId id, int part, const Manifold& m) {
        if (id == ignore) return true;
        if (fixed_only) {
          const ColliderOptions* o = world.options(id);
          if (o == nullptr || !o->fixed) return true;
        }
        for (int k = 0; k < m.count; ++k) {
          MoverPlane plane;
          plane.normal = m.normal;
          plane.separation = m.points[k].separation;
          plane.point = m.points[k].point;
          plane.collider = id;
          plane.part = part;
          if (std::size_t(count) < out.size()) {
            out[std::size_t(count++)] = plane;
            continue;
          }
          // Full: the new plane replaces the shallowest when it is deeper.
          auto shallowest = std::max_element(out.begin(), out.end(), [](const MoverPlane& a, const MoverPlane& b) {
            return a.separation < b.separation;
          });
          if (plane.separation < shallowest->separation) *shallowest = plane;
        }
        return true;
      },
      filter);
  return count;
}

}  // namespace

MoverCastResult cast_mover(const CollisionWorld& world, const Shape& shape, const Transform& xf, Vec2 translation,
                           float skin, const QueryFilter& filter, ColliderId ignore) noexcept {
  return cast_mover_near(world, nullptr, shape, xf, translation, skin, filter, ignore);
}

int mover_planes(const CollisionWorld& world, const Shape& shape, const Transform& xf, float margin,
                 std::span<MoverPlane> out, const QueryFilter& filter, ColliderId ignore) noexcept {
  return mover_planes_near(world, nullptr, shape, xf, margin, out, filter, ignore);
}

namespace {

/// A plane as solve_planes() uses it: its normal made unit where the caller's is not (a plane
/// with a zero or non-finite normal or separation is skipped: ok false), its separation within
/// +-kMaxWorldCoordinate (beyond, a push would overflow the translation).
struct SolverPlane {
  Vec2 normal;
  float separation, limit;
  bool ok;
};

SolverPlane solver_plane(const MoverPlane& p) {
  SolverPlane s{p.normal, std::clamp(p.separation, -kMaxWorldCoordinate, kMaxWorldCoordinate),
                p.push_limit >= 0 ? p.push_limit : 0.0f, finite(p.normal) && std::isfinite(p.separation)};
  if (s.ok && !(std::fabs(length_squared(s.normal) - 1) <= 1e-4f)) {
    s.normal = normalize(s.normal);
    s.ok = s.normal != Vec2{};
  }
  return s;
}

}  // namespace

PlaneSolution solve_planes(Vec2 translation, std::span<const MoverPlane> planes, int max_iterations,
                           float tolerance) noexcept {
  PlaneSolution out;
  out.translation = translation;
  if (!finite(translation)) {
    out.translation = {};
    return out;
  }
  const int n = int(std::min<std::size_t>(planes.size(), kMaxSolverPlanes));
  std::array<SolverPlane, kMaxSolverPlanes> plane;
  for (int i = 0; i < n; ++i) plane[std::size_t(i)] = solver_plane(planes[std::size_t(i)]);
  std::array<float, kMaxSolverPlanes> pushed{};  // each plane's accumulated push, in [0, push_limit]
  Vec2 t = translation;
  for (int it = 0; it < max_iterations; ++it) {
    float change = 0;
    for (int i = 0; i < n; ++i) {
      const SolverPlane& p = plane[std::size_t(i)];
      if (!p.ok) continue;
      const float gap = dot(p.normal, t) + p.separation;
      const float next = std::clamp(pushed[std::size_t(i)] - gap, 0.0f, p.limit);
      const float d = next - pushed[std::size_t(i)];
      pushed[std::size_t(i)] = next;
      t += d * p.normal;
      change += std::fabs(d);
    }
    out.iterations = it + 1;
    if (change <= tolerance) break;
  }
  if (!finite(t)) {  // pushes beyond float's range (planes that cannot all hold): no answer
    out.translation = translation;
    return out;
  }
  out.translation = t;
  out.converged = true;
  for (int i = 0; i < n; ++i) {
    const SolverPlane& p = plane[std::size_t(i)];
    if (p.ok && !(dot(p.normal, t) + p.separation >= -tolerance)) out.converged = false;
  }
  return out;
}

Vec2 clip_vector(Vec2 v, std::span<const MoverPlane> planes) noexcept {
  if (!finite(v)) return {};
  const float along = 1e-6f * length(v);
  const auto allowed = [&](Vec2 w) {
    for (const MoverPlane& p : planes)
      if (p.clip_velocity && dot(w, p.normal) < -along) return false;
    return true;
  };
  if (allowed(v)) return v;
  // The feasible set is a cone with its apex at zero: the nearest point is on one of its edges
  // (v projected on one plane) or the apex.
  Vec2 best{};
  float best_d = length_squared(v);
  for (const MoverPlane& p : planes) {
    if (!p.clip_velocity) continue;
    const Vec2 w = v - dot(v, p.normal) * p.normal;
    const float d = length_squared(w - v);
    if (d < best_d && allowed(w)) {
      best = w;
      best_d = d;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// CharacterMover.

CharacterMover::CharacterMover(const Shape& shape, const Transform& xf, const MoverSettings& settings)
    : shape_(shape), xf_(xf), settings_(settings) {
  const auto fail = [](const std::string& what) { throw InvalidSettings("pebble: CharacterMover: " + what); };
  if (!is_valid(xf)) fail("the transform is not valid (non-finite or not a unit rotation)");
  const MoverSettings& s = settings;
  if (!finite(s.up) || std::fabs(length(s.up) - 1) > 1e-4f) fail("settings.up must be a unit vector");
  if (!(s.max_slope >= 0) || !(s.max_slope <= 1.5707964f)) fail("settings.max_slope must be in [0, pi/2] radians");
  if (!(s.step_height >= 0) || !(s.step_height <= kMaxShapeExtent))
    fail("settings.step_height must be finite and >= 0");
  if (!(s.snap_distance >= 0) || !(s.snap_distance <= kMaxShapeExtent))
    fail("settings.snap_distance must be finite and >= 0");
  if (!(s.skin > 0) || !(s.skin <= kMaxShapeExtent)) fail("settings.skin must be finite and > 0");
  if (!(s.push_speed >= 0) || !std::isfinite(s.push_speed)) fail("settings.push_speed must be finite and >= 0");
  if (s.max_iterations < 1) fail("settings.max_iterations must be at least 1");
  settings_.up = normalize(s.up);
  double cos_slope, sin_slope;
  detail::cos_sin(double(s.max_slope), cos_slope, sin_slope);  // pebble's own: the same bits on every platform
  cos_max_slope_ = float(cos_slope);
  ground_.normal = settings_.up;
}

void CharacterMover::set_transform(const Transform& xf) noexcept {
  if (!is_valid(xf)) return;
  xf_ = xf;
  ground_ = {};
  ground_.normal = settings_.up;
}

bool CharacterMover::walkable(Vec2 normal) const noexcept {
  return dot(normal, settings_.up) >= cos_max_slope_ - 1e-6f;
}

// Out of overlaps: the planes within the skin (of the colliders the filter passes), each pushing
// at most `limit`, solved together so that a push out of one does not go into another; the push
// is then cast, so that it cannot pass through anything. Returns whether the mover overlapped
// anything.
bool CharacterMover::push_out(const CollisionWorld& world, const MoverNearby* near, float limit,
                              const QueryFilter& filter) noexcept {
  if (!filter.fixed && near != nullptr && near->moving == 0 && near->q.c == xf_.q.c && near->q.s == xf_.q.s &&
      near->covers(near->box_at(xf_.p, settings_.skin))) {
    return false;  // no collider that moves is near
  }
  std::array<MoverPlane, 16> planes{};
  const int n = mover_planes_near(world, near, shape_, xf_, settings_.skin, planes, filter, self_);
  Vec2 moved{};
  return push_out(world, near, limit, std::span<MoverPlane>(planes.data(), std::size_t(n)), moved);
}

// The same with the planes already found; `moved` receives the translation made.
bool CharacterMover::push_out(const CollisionWorld& world, const MoverNearby* near, float limit,
                              std::span<MoverPlane> planes, Vec2& moved) noexcept {
  moved = {};
  bool overlapping = false;
  for (MoverPlane& p : planes) {
    p.push_limit = limit;
    overlapping = overlapping || p.separation < 0;
  }
  if (!overlapping) return false;
  const PlaneSolution push = solve_planes({}, planes);
  const MoverCastResult c = cast_mover_near(world, near, shape_, xf_, push.translation, 0, settings_.filter, self_);
  moved = c.fraction * push.translation;
  xf_.p += moved;
  return true;
}

// Moves by delta, sliding along what it meets (collide and slide): cast, advance to the hit, clip
// what is left of the motion and the velocity against every surface met so far, again. While
// grounded, a surface too steep to walk is a wall: its normal is laid flat, so that walking into
// it does not climb it. Returns whether a wall (a surface not walkable, not a ceiling) stopped
// part of the motion, and which, in *wall.
Vec2 CharacterMover::slide(const CollisionWorld& world, const MoverNearby* near, Vec2 delta, Vec2& velocity,
                           bool grounded, MoverPlane* wall) noexcept {
  const Position start = xf_.p;
  const Vec2 up = settings_.up;
  std::array<MoverPlane, kSlidePlanes> met{};
  int count = 0;
  Vec2 remaining = delta;
  const float tiny = 1e-6f * settings_.skin;
  for (int i = 0; i < settings_.max_iterations && length(remaining) > tiny; ++i) {
    const MoverCastResult c =
        cast_mover_near(world, near, shape_, xf_, remaining, settings_.skin, settings_.filter, self_);
    xf_.p += c.fraction * remaining;
    if (!c.hit) break;
    MoverPlane plane;
    plane.normal = c.normal;
    plane.point = c.point;
    plane.collider = c.collider;
    plane.part = c.part;
    const float rise = dot(c.normal, up);
    if (!walkable(c.normal) && rise > -cos_max_slope_) {  // a wall or a steep slope, not a ceiling
      if (grounded && rise > 0) {
        const Vec2 flat = c.normal - rise * up;
        if (length(flat) > 0) plane.normal = normalize(flat);
      }
      if (wall != nullptr) *wall = plane;
    }
    met[std::size_t(count < kSlidePlanes ? count++ : kSlidePlanes - 1)] = plane;
    const std::span<const MoverPlane> planes(met.data(), std::size_t(count));
    remaining = clip_vector((1 - c.fraction) * remaining, planes);
    velocity = clip_vector(velocity, planes);
  }
  return xf_.p - start;
}

MoverStep CharacterMover::step(const CollisionWorld& world, Vec2 desired_velocity, float dt) noexcept {
  MoverStep out;
  out.transform = xf_;
  out.ground = ground_;
  if (!(dt > 0) || !std::isfinite(dt) || !is_valid_point(desired_velocity) || !is_valid_point(desired_velocity * dt))
    return out;
  const MoverSettings& s = settings_;
  const Vec2 up = s.up;
  const Transform begin = xf_;

  // 1. Ride the ground: if what the mover stood on moved since, the mover goes with it (its
  //    centre moves as a point fixed to the ground; the mover does not turn).
  if (ground_.grounded) {
    const Transform* now = world.transform(ground_.collider);
    if (now != nullptr && !(now->p == ground_xf_.p && now->q.c == ground_xf_.q.c && now->q.s == ground_xf_.q.s)) {
      const Position carried = transform_point(*now, inv_transform_point(ground_xf_, xf_.p));
      Vec2 ignored{};
      slide(world, nullptr, carried - xf_.p, ignored, false, nullptr);
    }
  }

  // The parts the rest of the step may meet, found once: the mover's box swept by the walk asked
  // and grown by what pushing, stepping, snapping and settling may add (a query beyond it asks
  // the world).
  MoverNearby nearby_parts;
  const float reach = std::max(s.step_height, s.snap_distance) + 4 * s.skin + std::max(s.push_speed * dt, s.skin);
  if (std::isfinite(reach)) nearby_parts.gather(world, shape_, xf_, reach, desired_velocity * dt, s.filter, self_);
  const MoverNearby* nearby = &nearby_parts;

  // 2. Out of overlaps (a platform moved into the mover), pushing at most push_speed * dt. Only
  //    colliders that move are asked: the last step ended clear of the fixed ones (5b), and a
  //    fixed collider teleported into the mover is met by 5b and 6.
  QueryFilter moving = s.filter;
  moving.fixed = false;
  out.pushed = push_out(world, nearby, s.push_speed * dt, moving);

  // 3. Walk: on the ground, the downward part of the velocity is dropped first (gravity does not
  //    pile up, and a mover standing on a walkable slope does not creep down it).
  const bool was_grounded = ground_.grounded;
  Vec2 velocity = desired_velocity;
  if (was_grounded && dot(velocity, up) < 0) velocity -= dot(velocity, up) * up;
  const Vec2 delta = velocity * dt;
  const Position walk_start = xf_.p;

  MoverPlane wall;
  wall.collider = {};
  bool hit_wall = false;
  {
    MoverPlane seen;
    seen.normal = {};
    slide(world, nearby, delta, velocity, was_grounded, &seen);
    hit_wall = seen.normal.x != 0 || seen.normal.y != 0;
    wall = seen;
  }

  // 4. Step up: a wall stopped a walking mover short of its horizontal motion. Up by at most
  //    step_height, across by what is left, down onto walkable ground no higher than the step
  //    height; kept only if it got further.
  const Vec2 level = delta - dot(delta, up) * up;  // the horizontal part of the motion
  const float level_length = length(level);
  if (was_grounded && hit_wall && s.step_height > 0 && level_length > 0) {
    const Vec2 dir = level / level_length;
    const float made = dot(xf_.p - walk_start, dir);
    const float left = level_length - made;
    if (left > 1e-4f * s.skin) {
      const Transform blocked = xf_;
      const MoverCastResult rise =
          cast_mover_near(world, nearby, shape_, xf_, s.step_height * up, s.skin, s.filter, self_);
      const float climbed = rise.fraction * s.step_height;
      xf_.p += climbed * up;
      Vec2 ignored{};
      slide(world, nearby, left * dir, ignored, false, nullptr);
      const float across = dot(xf_.p - blocked.p, dir);
      const MoverCastResult fall =
          cast_mover_near(world, nearby, shape_, xf_, -(climbed + s.skin) * up, s.skin, s.filter, self_);
      const Position landed = xf_.p - fall.fraction * (climbed + s.skin) * up;
      const float height = dot(landed - blocked.p, up);
      // Landing on the step's edge (a rounded or slanted mover whose motion this step did not take
      // it over the top) counts too, when the edge is the corner of a walkable top no higher than
      // the step height above the ground left: the next steps step again and carry it over. (A
      // steep slope or a high ledge has no such top there: the ray just past the contact finds
      // none, or it is too high.)
      bool lands = fall.hit && walkable(fall.normal);
      if (fall.hit && !lands && dot(fall.normal, up) > 0 &&
          dot(fall.point - ground_.point, up) <= s.step_height + s.skin) {
        const Ray probe{fall.point + s.skin * dir + s.skin * up, -3 * s.skin * up};
        const WorldCastResult top = world.cast_ray(probe, s.filter);
        lands = top && top.id != self_ && walkable(top.hit.normal);
      }
      if (lands && across > 1e-3f * s.skin && height > s.skin * 0.5f && height <= s.step_height + s.skin) {
        xf_.p = landed;
        out.stepped = true;
      } else {
        xf_ = blocked;
      }
    }
  }

  // 5. Ground: a walking mover that is not going up looks down as far as snap_distance and is
  //    pulled onto walkable ground found there; any mover looks down through the skin to land.
  // Rising (a jump): the velocity asked goes up by more than half the skin this step (less is
  // rounding). A grounded mover gives back a velocity with no vertical part (below), so walking
  // up a slope or over its crest is not rising.
  const bool rising = dot(desired_velocity, up) * dt > 0.5f * s.skin;
  MoverGround ground;
  ground.normal = up;

  // 5a. The contact planes within twice the skin: out of any overlap left (the casts let a mover
  //     graze a surface by a tenth of the skin, kGrazing, and a slide of several casts into a
  //     concave corner may add that up), and the ground, if a walkable plane is among them.
  std::array<MoverPlane, 16> near{};
  const int near_count = mover_planes_near(world, nearby, shape_, xf_, 2 * s.skin, near, s.filter, self_);
  Vec2 settle{};
  const bool settled = !push_out(world, nearby, std::max(s.push_speed * dt, s.skin),
                                 std::span<MoverPlane>(near.data(), std::size_t(near_count)), settle);
  int ground_count = near_count;
  if (dot(settle, settle) > s.skin * s.skin) {
    // Pushed further than the skin: a plane met before may no longer lie under the mover
    // [issue-robustness]. Look again where the push left it.
    ground_count = mover_planes_near(world, nearby, shape_, xf_, 2 * s.skin, near, s.filter, self_);
    settle = {};
  }
  // The walkable plane of the first `count` in `near` that is within two skins once the mover has
  // moved by `moved` and faces most nearly up, or nullptr.
  const auto ground_plane = [&](int count, Vec2 moved) -> const MoverPlane* {
    const MoverPlane* best = nullptr;
    for (int i = 0; i < count; ++i) {
      const MoverPlane& p = near[std::size_t(i)];
      if (!walkable(p.normal) || p.separation + dot(p.normal, moved) > 2 * s.skin) continue;
      if (best == nullptr || dot(p.normal, up) > dot(best->normal, up)) best = &p;
    }
    return best;
  };
  if (!rising) {
    const MoverPlane* best = ground_plane(ground_count, settle);
    if (best != nullptr) {
      ground = {true, best->normal, best->point, best->collider, best->part};
      velocity -= dot(velocity, up) * up;  // level: no hop over a crest, no slide on a walkable slope
    }
  }

  // 5b. No walkable ground that near: a walking mover that is not going up looks down as far as
  //     snap_distance and is pulled onto walkable ground found there.
  if (!ground.grounded && !rising && (was_grounded || out.stepped)) {
    const float probe = (out.stepped ? 0.0f : s.snap_distance) + 2 * s.skin;
    bool pulled = false;  // pulled down by more than the skins onto walkable ground
    MoverCastResult down = cast_mover_preferring(world, nearby, shape_, xf_, -probe * up, s.skin, s.filter, self_, up,
                                                 cos_max_slope_ - 1e-6f);
    if (out.stepped && down.hit && dot(down.normal, up) > 0) down.normal = up;  // on the step's edge
    if (down.hit && !walkable(down.normal) && !out.stepped) {
      // A rounded mover over a ledge's corner: the corner is too steep to stand on, but the
      // ground below may be within the snap distance. Slide down off the corner and look again.
      const Transform over = xf_;
      Vec2 ignored{};
      slide(world, nearby, -probe * up, ignored, false, nullptr);
      // The slide runs along the corner's plane for its whole length (it ends above the ground
      // when the corner is high above it): the look below reaches what is left of the probe.
      const float slid = dot(over.p - xf_.p, up);
      const float look = std::max(probe - slid, 2 * s.skin);
      const MoverCastResult below = cast_mover_near(world, nearby, shape_, xf_, -look * up, s.skin, s.filter, self_);
      if (below.hit && walkable(below.normal) && slid <= probe) {
        down = below;
        down.fraction = below.fraction * look / probe;  // (as a fraction of the probe, below)
        pulled = true;
      } else {
        xf_ = over;
      }
    }
    if (down.hit && walkable(down.normal)) {
      const float drop = down.fraction * probe;
      if (drop > 2 * s.skin) pulled = true;
      xf_.p -= drop * up;
      ground = {true, down.normal, down.point, down.collider, down.part};
      velocity -= dot(velocity, up) * up;
    }
    // A snap is a pull onto ground lower than the walk began: not the pull back onto the ground
    // left of a walk that slid up a rounded edge as a slope and past its top (a rounded box
    // onto a stair, the stairs test of [issue-robustness]), where the ground did not drop.
    out.snapped = pulled && dot(walk_start - xf_.p, up) > 2 * s.skin;
  }

  // 6. Never end overlapping a fixed collider beyond the skin: if 5a found an overlap, look again
  //    after its push; push out once more without limits, and if that fails (wedged), stay where
  //    the step began.
  //    Only fixed colliders' planes are asked, so that the contacts of many moving parts cannot
  //    crowd a fixed overlap out of the 16 planes [issue-robustness].
  if (!settled) {
    std::array<MoverPlane, 16> planes{};
    const int n = mover_planes_near(world, nearby, shape_, xf_, 0, planes, s.filter, self_, true);
    bool deep = false;
    for (int i = 0; i < n; ++i) deep = deep || planes[std::size_t(i)].separation < -s.skin;
    if (deep) {
      const PlaneSolution push = solve_planes({}, std::span<const MoverPlane>(planes.data(), std::size_t(n)));
      xf_.p += push.translation;
      const int again = mover_planes_near(world, nearby, shape_, xf_, 0, planes, s.filter, self_, true);
      for (int i = 0; i < again; ++i) {
        if (planes[std::size_t(i)].separation < -s.skin) {
          xf_ = begin;
          break;
        }
      }
      out.pushed = true;
      // The ground 5a or 5b chose was measured before this move: look for it again where the
      // mover is now [issue-robustness].
      ground = MoverGround{};
      ground.normal = up;
      if (!rising) {
        const int m = mover_planes_near(world, nearby, shape_, xf_, 2 * s.skin, near, s.filter, self_);
        const MoverPlane* best = ground_plane(m, {});
        if (best != nullptr) ground = {true, best->normal, best->point, best->collider, best->part};
      }
    }
  }

  ground_ = ground;
  if (ground_.grounded) {
    const Transform* g = world.transform(ground_.collider);
    ground_xf_ = g != nullptr ? *g : Transform{};
  }
  out.transform = xf_;
  out.velocity = velocity;
  out.ground = ground_;
  return out;
}

}  // namespace pebble
