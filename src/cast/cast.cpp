// cast_shape() [seed-detection §4] [seed-cpa §2]: A and B first touch where the point moving from 0
// along the relative motion meets the difference A - B grown by both radii and the target; the
// difference is built in A's frame (src/cast/minkowski.hpp), the ray cast is cast_ray()'s
// (src/cast/ray_core.hpp), and the feature the ray meets names the witness points.
// time_of_impact(): conservative advancement [seed-detection §5] driven by distance(); without
// rotation it is cast_shape(). closest_approach() [seed-cpa §3]: the same ray finds a touch; else
// the least distance of the path segment from the difference polygon.
#include "pebble/cast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "cast/cast_sweep.hpp"
#include "cast/minkowski.hpp"
#include "empty_results.hpp"
#include "pebble/distance.hpp"
#include "positions.hpp"
#include "simd/batch_kernels.hpp"
#include "tolerances.hpp"

namespace pebble {
namespace {

using detail::kNoApproach;
using detail::kNoHit;

using cast_core::Difference;
using cast_core::LocalHit;

/// Two shapes seen from A's frame: B's core vertices and edge normals moved there, and the difference A - B.
struct PairInA {
  Vec2 b[kMaxPolygonVertices + 1];
  float bnx[kMaxPolygonVertices], bny[kMaxPolygonVertices];
  Difference diff;

  PairInA(const Shape& a, const Shape& sb, const Transform& xa, const Transform& xb) {
    const Rot q = inv_mul(xa.q, xb.q);
    const Vec2 p = inv_rotate(xa.q, xb.p - xa.p);
    const int nb = sb.vertex_count();
    const Vec2* vb = sb.padded_vertices();
    for (int j = 0; j < nb; ++j) {
      b[j] = rotate(q, vb[j]) + p;
      const Vec2 n = rotate(q, sb.normal(j));
      bnx[j] = n.x;
      bny[j] = n.y;
    }
    b[nb] = b[0];
    cast_core::build_difference(a.padded_vertices(), a.normal_lanes_x(), a.normal_lanes_y(), a.vertex_count(), b, bnx,
                                bny, nb, diff);
  }

  /// The ray from the origin along d (A's frame) against the difference grown by r.
  LocalHit cast(float r, Vec2 d) const {
    switch (diff.count) {
      case 1:
        return cast_core::cast_circle(diff.v[0].x, diff.v[0].y, r, 0, 0, 0, d.x, d.y, 0);
      case 2:
        return cast_core::cast_capsule(diff.v[0], diff.v[1], {diff.nx[0], diff.ny[0]}, r, 0, 0, d.x, d.y);
      default:
        return cast_core::cast_polygon(diff.lanes(), r, 0, 0, d.x, d.y);
    }
  }

  /// The core points of A and B (A's frame) that touch when the ray from the origin along d
  /// meets the grown difference at `hit`: the difference's core point there is hit point - r n.
  void witnesses(const LocalHit& hit, float r, Vec2 d, const Shape& a, Vec2& on_a, Vec2& on_b) const {
    int k = hit.feature;
    float s = 0;
    if (hit.kind == LocalHit::Kind::edge) {
      const Vec2 core{hit.t * d.x - r * hit.nx, hit.t * d.y - r * hit.ny};
      const auto along = [&](int j) {
        const Vec2 start = diff.v[j], e = diff.v[j + 1] - start;
        const float len2 = dot(e, e);
        return len2 > 0 ? std::clamp(dot(core - start, e) / len2, 0.0f, 1.0f) : 0.0f;
      };
      s = along(k);
      // An edge of length 0 pairs the same two core points all along it: the contact is on the
      // neighbouring edge passing nearer the hit's core point.
      if (diff.v[k + 1] == diff.v[k]) [[unlikely]] {
        float best = kHugeDistance;
        for (const int j : {k == 0 ? diff.count - 1 : k - 1, k + 1 == diff.count ? 0 : k + 1}) {
          const float sj = along(j), gap = distance_squared(lerp(diff.v[j], diff.v[j + 1], sj), core);
          if (gap < best) {
            best = gap;
            k = j;
            s = sj;
          }
        }
      }
    }
    diff.witnesses(k, s, a.padded_vertices(), b, on_a, on_b);
  }
};

bool valid_motion(Vec2 translation) { return is_valid_point(translation); }

/// Shapes starting within the target: fraction 0, distance()'s normal, the point midway between its witnesses.
CastResult hit_at_start(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
  const DistanceResult d = distance(a, xa, b, xb);
  return {true, 0, PEBBLE_MIDPOINT(d.point_a, d.point_b), d.normal};
}

}  // namespace

namespace {

/// A disc against anything is a circle cast (cast_ray()'s, no difference to build). Empty when
/// neither is a disc or the relative motion is beyond what cast_ray() accepts (the difference has no
/// such limit). cast_shape(), closest_approach() and time_to_collision() share it, so they agree
/// on whether and when such a pair touches (a zero normal: touching at the start).
struct DiscCast {
  CastResult hit;   // the other shape's surface point (relative to base) and outward normal
  Position base;    // what the hit's point is relative to
  Vec2 move_other;  // the other shape's translation
  bool disc_is_a;
};

std::optional<DiscCast> disc_cast(const Shape& a, const Transform& xa, Vec2 translation_a, const Shape& b,
                                  const Transform& xb, Vec2 translation_b, float target) {
  if (!((a.vertex_count() == 1 || b.vertex_count() == 1) && is_valid_point(translation_b - translation_a)))
    return std::nullopt;
  const bool disc_is_a = a.vertex_count() == 1;
  const Shape& disc = disc_is_a ? a : b;
  const Shape& other = disc_is_a ? b : a;
  const Transform& x_disc = disc_is_a ? xa : xb;
  const Transform& x_other = disc_is_a ? xb : xa;
  const Vec2 move_disc = disc_is_a ? translation_a : translation_b,
             move_other = disc_is_a ? translation_b : translation_a;
  // Relative to the other shape's position (a local origin, as in Box2D v3): world positions round
  // by 1e-3 at 1e4, the positions' difference is exact for near shapes. World coordinates only when
  // the relative position is beyond what cast_ray() accepts.
  const Vec2 centre = (x_disc.p - x_other.p) + rotate(x_disc.q, disc.padded_vertices()[0]);
  const bool local = is_valid_point(centre);
  const Position base = local ? x_other.p : Position{};
  const Ray ray{local ? centre : transform_point(x_disc, disc.padded_vertices()[0]), move_disc - move_other};
  return DiscCast{
      cast_core::cast_disc(other, Transform{local ? Vec2{0, 0} : x_other.p, x_other.q}, ray, disc.radius() + target),
      base, move_other, disc_is_a};
}

}  // namespace

CastResult cast_shape(const Shape& a, const Transform& xa, Vec2 translation_a, const Shape& b, const Transform& xb,
                      Vec2 translation_b) noexcept {
  return cast_shape(a, xa, translation_a, b, xb, translation_b, ShapeCastOptions{});
}

CastResult cast_shape(const Shape& a, const Transform& xa, Vec2 translation_a, const Shape& b, const Transform& xb,
                      Vec2 translation_b, const ShapeCastOptions& options) noexcept {
  const float target = options.target_separation;
  if (!is_valid(xa) || !is_valid(xb) || !valid_motion(translation_a) || !valid_motion(translation_b) ||
      !(target >= 0 && target <= kMaxShapeExtent)) {
    return kNoHit;
  }
  if (const std::optional<DiscCast> c = disc_cast(a, xa, translation_a, b, xb, translation_b, target)) {
    const CastResult& h = c->hit;
    if (!h.hit) return kNoHit;
    if (h.normal == Vec2{}) return hit_at_start(a, xa, b, xb);
    // h.point: the other surface at its start pose (relative to base); it has moved by the contact,
    // and the disc is target further out.
    const Position surface = c->base + (PEBBLE_LOCAL(h.point) + h.fraction * c->move_other + 0.5f * target * h.normal);
    return {true, h.fraction, surface, c->disc_is_a ? -h.normal : h.normal};
  }
  const PairInA pair(a, b, xa, xb);
  // A - B moves by translation_a - translation_b: the origin moves through it by the opposite.
  const Vec2 d = inv_rotate(xa.q, translation_b - translation_a);
  const float r = a.radius() + b.radius() + target;
  const LocalHit hit = pair.cast(r, d);
  switch (hit.kind) {
    case LocalHit::Kind::miss:
      return kNoHit;
    case LocalHit::Kind::inside:
      return hit_at_start(a, xa, b, xb);
    case LocalHit::Kind::edge:
    case LocalHit::Kind::corner:
      break;
  }
  Vec2 on_a, on_b;
  pair.witnesses(hit, r, d, a, on_a, on_b);
  const Vec2 n = rotate(xa.q, Vec2{hit.nx, hit.ny});
  // Both surfaces at the contact time, target apart along n; the answer is midway.
  const Position surface_a = transform_point(xa, on_a) + hit.t * translation_a + a.radius() * n;
  const Position surface_b = transform_point(xa, on_b) + hit.t * translation_b - b.radius() * n;
  return {true, hit.t, PEBBLE_MIDPOINT(surface_a, surface_b), n};
}

Transform sweep_transform(const Sweep& sweep, float t) noexcept { return cast_core::SweepFrames(sweep).at(t); }

namespace {

/// Positions and angles within kMaxWorldCoordinate (turn() rounds a quarter-turn count to an
/// integer), the frame too all along the sweep: every transform evaluated is one distance() accepts.
bool valid_sweep(const Sweep& s) {
  if (!(is_valid_point(s.local_center) && is_valid_point(s.c0) && is_valid_point(s.c1) &&
        std::fabs(s.a0) <= kMaxWorldCoordinate && std::fabs(s.a1) <= kMaxWorldCoordinate)) {
    return false;
  }
  const float reach = std::fabs(s.local_center.x) + std::fabs(s.local_center.y);
  const Position far = max(abs(s.c0), abs(s.c1));
  return std::max(far.x, far.y) + reach <= kMaxWorldCoordinate;
}

/// A bound on every core vertex's distance from a point of the shape's frame: the core's extent
/// about its centroid (padded for rounding) plus the point's distance from the centroid.
float core_reach_from(const Shape& shape, Vec2 centre) {
  return (shape.extent() - shape.radius()) * (1 + 4 * std::numeric_limits<float>::epsilon()) +
         distance(centre, shape.core_centroid());
}

/// Most steps along one gap between two distance() queries: a gap that needs more (a fast spin,
/// where each step is short) is refreshed by distance(), which may give a better axis.
constexpr int kMaxGapSteps = 16;

constexpr ToiResult kToiInvalid{ToiResult::State::failed, 0, {0, 0}, {0, 0}};

ToiResult toi_at(ToiResult::State state, float t, const DistanceResult& d) {
  return {state, t, PEBBLE_MIDPOINT(d.point_a, d.point_b), d.normal};
}

/// time_of_impact() once apart at t = 0: steps along cast_core::SweptSeparation's gap between
/// distance() queries, R registers per body.
struct Advance {
  const Shape& a;
  const Shape& b;
  const cast_core::SweepPair& sweeps;
  cast_core::SweepBounds bounds;
  float t_max, target, tolerance;
  int max_iterations;
  Vec2 relative;  // A's centre velocity relative to B's
  float spin;     // conservative advancement's bound on the approach speed from rotation

  /// From t = 0 (poses xa0, xb0, distance start); no contact is possible before t_safe.
  template <int R>
  ToiResult from(float t_safe, const Transform& xa0, const Transform& xb0, const DistanceResult& start) const {
    const Sweep &sa = sweeps.a, &sb = sweeps.b;
    float t = 0;
    Transform xa = xa0, xb = xb0;  // the poses at t
    DistanceResult d = start;
    for (int iteration = 1;; ++iteration) {
      const cast_core::SweptSeparation<R> separation(a, sa, xa, b, sb, xb, bounds, t, d.normal);
      typename cast_core::SweptSeparation<R>::Probe p = separation.probe_start(target, tolerance);
      // The first step is at least conservative advancement's (time moves on even with the gap
      // within rounding of the target) and reaches the discs' meeting time.
      const float bound = dot(relative, d.normal) + spin;
      const float advancement = bound > 0 ? (d.distance - target) / bound : kHugeDistance;
      float step = std::max({p.step, advancement, t_safe - t});
      bool settled = p.settled && step == p.step;
      // A settled step lands within the tolerance: distance() is asked there at once, unless the
      // gap turns with a face and may be the distance itself (then the probe answers).
      for (int probe = 1;; ++probe) {
        t += step;
        if (!(t < t_max)) return {ToiResult::State::separated, t_max, {0, 0}, {0, 0}};
        if ((settled && !separation.on_face()) || probe == kMaxGapSteps) break;
        p = separation.probe(t, target, tolerance);
        if (p.gap <= target + tolerance) {
          if (p.exact) return {ToiResult::State::hit, t, sa.c0 + t * (sa.c1 - sa.c0) + p.point, p.normal};
          break;
        }
        step = p.step;
        settled = p.settled;
      }
      if (iteration >= max_iterations) return {ToiResult::State::failed, t, {0, 0}, {0, 0}};
      sweeps.at(t, xa, xb);
      d = distance(a, xa, b, xb);
      if (d.distance <= target + tolerance) return toi_at(ToiResult::State::hit, t, d);
    }
  }
};

}  // namespace

ToiResult time_of_impact(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb, float t_max) noexcept {
  return time_of_impact(a, sa, b, sb, t_max, ToiOptions{});
}

namespace {

ToiResult time_of_impact_at(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb, float t_max,
                            const ToiOptions& options);

}  // namespace

ToiResult time_of_impact(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb, float t_max,
                         const ToiOptions& options) noexcept {
  // Relative to A's starting centre (a local origin, as in Box2D v3): small coordinates, so the
  // distances do not round by 1e-3 at 1e4 (tests/large_world_test.cpp). Not when the shift would
  // carry B's sweep out of range.
  if (valid_sweep(sa) && valid_sweep(sb)) {
    const Position o = sa.c0;
    const Sweep la{sa.local_center, sa.c0 - o, sa.c1 - o, sa.a0, sa.a1},
        lb{sb.local_center, sb.c0 - o, sb.c1 - o, sb.a0, sb.a1};
    if (valid_sweep(la) && valid_sweep(lb)) {
      ToiResult r = time_of_impact_at(a, la, b, lb, t_max, options);
      if (r.state == ToiResult::State::hit || r.state == ToiResult::State::overlapped)
        r.point = o + PEBBLE_LOCAL(r.point);
      return r;
    }
  }
  return time_of_impact_at(a, sa, b, sb, t_max, options);
}

namespace {

/// time_of_impact() in the frame the sweeps are given in.
ToiResult time_of_impact_at(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb, float t_max,
                            const ToiOptions& options) {
  const float target = options.target_separation;
  if (!valid_sweep(sa) || !valid_sweep(sb) || !(t_max >= 0 && t_max <= 1) ||
      !(target >= 0 && target <= kMaxShapeExtent) ||
      !(options.tolerance >= 0 && options.tolerance <= kMaxShapeExtent) || options.max_iterations < 1) {
    return kToiInvalid;
  }
  // The tolerance, given or default, never below the coordinates' rounding, which distance() cannot see through.
  const Position far = max(max(abs(sa.c0), abs(sa.c1)), max(abs(sb.c0), abs(sb.c1)));
  const float rounding =
      8 * std::numeric_limits<float>::epsilon() * (float(std::max(far.x, far.y)) + a.extent() + b.extent());
  const float tolerance = std::max(
      options.tolerance > 0 ? options.tolerance
                            : std::min(kToiTolerance, kToiToleranceFraction * std::min(a.extent(), b.extent())),
      rounding);

  const cast_core::SweepPair sweeps(sa, sb);
  Transform xa0, xb0;
  sweeps.at(0, xa0, xb0);
  const DistanceResult start = distance(a, xa0, b, xb0);
  if (start.distance < 0) return toi_at(ToiResult::State::overlapped, 0, start);
  if (start.distance <= target + tolerance) return toi_at(ToiResult::State::hit, 0, start);

  if (sa.a0 == sa.a1 && sb.a0 == sb.a1) {
    // Translation only: the exact first contact at the target.
    const CastResult h =
        cast_shape(a, xa0, t_max * (sa.c1 - sa.c0), b, xb0, t_max * (sb.c1 - sb.c0), ShapeCastOptions{target});
    if (!h.hit) return {ToiResult::State::separated, t_max, {0, 0}, {0, 0}};
    return {ToiResult::State::hit, h.fraction * t_max, h.point, h.normal};
  }

  // Conservative advancement: no point of A moves along n faster than (c1 - c0) . n plus
  // |a1 - a0| times its reach (an arc is at most angle times radius), likewise B; so the gap cannot
  // close before (distance - target) / bound, and each step goes to that time.
  const Vec2 relative = (sa.c1 - sa.c0) - (sb.c1 - sb.c0);
  const float core_a = core_reach_from(a, sa.local_center), core_b = core_reach_from(b, sb.local_center);
  const float reach_a = core_a + a.radius(), reach_b = core_b + b.radius();  // of any point of the shape
  const float spin = std::fabs(sa.a1 - sa.a0) * reach_a + std::fabs(sb.a1 - sb.a0) * reach_b;
  // While the discs about the rotation centres holding the shapes are apart, nothing touches; they
  // only translate, so their meeting is an exact circle cast, and far spinning bodies skip many steps.
  float t_safe = 0;
  {
    const float r = reach_a + reach_b + target;
    const Vec2 m = sb.c0 - sa.c0, v = -relative;  // B's centre relative to A's, and its velocity
    const float gap2 = dot(m, m) - r * r;
    if (gap2 > 0) {
      const float closing = dot(m, v), vv = dot(v, v);
      const float disc = vv * r * r - cross(m, v) * cross(m, v);
      if (!(closing < 0) || !(disc >= 0)) return {ToiResult::State::separated, t_max, {0, 0}, {0, 0}};
      t_safe = gap2 / (std::sqrt(disc) - closing);
      if (!(t_safe < t_max)) return {ToiResult::State::separated, t_max, {0, 0}, {0, 0}};
    }
  }
  // Then the gap along an axis turning with distance()'s face (cast_sweep.hpp) bounds the distance
  // from below: followed cheaply to within the tolerance, where distance() gives a touch or a new
  // axis. |d0 - t relative| (B's centre relative to A's) is convex in t.
  const Vec2 d0 = sb.c0 - sa.c0;
  const float far_apart = std::max(length(d0), length(d0 - t_max * relative));
  const Advance advance{a,        b,      sweeps,    {core_a, core_b, length(relative), far_apart},
                        t_max,    target, tolerance, options.max_iterations,
                        relative, spin};
  return std::max(a.vertex_count(), b.vertex_count()) <= 4 ? advance.from<1>(t_safe, xa0, xb0, start)
                                                           : advance.from<2>(t_safe, xa0, xb0, start);
}

}  // namespace

namespace {

ApproachResult approach_at(bool hit, float time, const DistanceResult& d) {
  return {hit, time, d.distance, d.point_a, d.point_b, d.normal};
}

/// The fraction of the segment from 0 to d nearest the convex polygon it does not meet: the
/// nearest pair of disjoint convex sets has a vertex of one, so a polygon vertex projected on the
/// path, or a path end projected on an edge.
float nearest_fraction(const Difference& diff, Vec2 d) {
  constexpr int kMost = cast_core::kMaxDifferenceVertices + 2;
  float fraction[kMost], dist2[kMost];
  int count = 0;
  float scale = length(d);
  const float dd = dot(d, d);
  for (int k = 0; k < diff.count; ++k) {
    const Vec2 c = diff.v[k];
    scale = std::max(scale, std::fabs(c.x) + std::fabs(c.y));
    const float t = std::clamp(dot(c, d) / dd, 0.0f, 1.0f);
    fraction[count] = t;
    dist2[count++] = distance_squared(t * d, c);
  }
  const int edges = diff.count == 1 ? 0 : (diff.count == 2 ? 1 : diff.count);  // a segment's two sides are one
  for (const float t : {0.0f, 1.0f}) {
    const Vec2 p = t * d;
    float nearest = distance_squared(p, diff.v[0]);
    for (int k = 0; k < edges; ++k) {
      const Vec2 s = diff.v[k], e = diff.v[k + 1] - s;
      const float len2 = dot(e, e);
      const float u = len2 > 0 ? std::clamp(dot(p - s, e) / len2, 0.0f, 1.0f) : 0;
      nearest = std::min(nearest, distance_squared(p, s + u * e));
    }
    fraction[count] = t;
    dist2[count++] = nearest;
  }
  float least = dist2[0];
  for (int i = 1; i < count; ++i) least = std::min(least, dist2[i]);
  // The earliest fraction whose distance ties the least one.
  const float tie = std::sqrt(least) + kApproachTieFraction * scale;
  float best = 1;
  for (int i = 0; i < count; ++i) {
    if (std::sqrt(dist2[i]) <= tie) best = std::min(best, fraction[i]);
  }
  return best;
}

/// Whether and at what fraction of the motions two shapes first touch: cast_shape()'s circle cast
/// for a disc (so the three queries agree), else the ray against the difference, built into `pair`.
/// Two discs take the closed form instead.
struct Touch {
  bool touches;
  float fraction;  // 0 when they start touching
};

Touch first_touch(const Shape& a, const Transform& xa, Vec2 move_a, const Shape& b, const Transform& xb, Vec2 move_b,
                  Vec2 d, std::optional<PairInA>& pair) {
  if (const std::optional<DiscCast> c = disc_cast(a, xa, move_a, b, xb, move_b, 0)) {
    return {c->hit.hit, c->hit.hit && !(c->hit.normal == Vec2{}) ? c->hit.fraction : 0.0f};
  }
  pair.emplace(a, b, xa, xb);
  const LocalHit hit = pair->cast(a.radius() + b.radius(), d);
  return {hit.kind != LocalHit::Kind::miss, hit.t};  // inside: touching at time 0
}

/// The input closest_approach() and time_to_collision() accept (batch/batch.cpp checks the
/// same for two discs, lane by lane). Both shapes must stay where queries accept them
/// (distance() is asked at some time on the way).
bool valid_approach(const Transform& xa, Vec2 velocity_a, const Transform& xb, Vec2 velocity_b, float horizon) {
  return is_valid(xa) && is_valid(xb) && valid_motion(velocity_a) && valid_motion(velocity_b) && horizon >= 0 &&
         horizon <= kMaxWorldCoordinate && is_valid_point(xa.p + horizon * velocity_a) &&
         is_valid_point(xb.p + horizon * velocity_b);
}

/// B's motion relative to A, in A's frame, from both motions over the horizon.
Vec2 relative_motion(const Transform& xa, Vec2 move_a, Vec2 move_b) { return inv_rotate(xa.q, move_b - move_a); }

}  // namespace

ApproachResult closest_approach(const Shape& a, const Transform& xa, Vec2 velocity_a, const Shape& b,
                                const Transform& xb, Vec2 velocity_b, float horizon) noexcept {
  // Two discs: the closed form that the batch queries run in lanes (batch/batch.cpp; not in a
  // build with double positions, whose batch has no lanes).
  if (!PEBBLE_DOUBLE_POSITIONS && a.vertex_count() == 1 && b.vertex_count() == 1) {
    return detail::batch_kernels().approach_discs({&a, xa, velocity_a}, {&b, xb, velocity_b}, horizon);
  }
  if (!valid_approach(xa, velocity_a, xb, velocity_b, horizon)) return kNoApproach;
  const Vec2 move_a = horizon * velocity_a, move_b = horizon * velocity_b;
  const Vec2 d = relative_motion(xa, move_a, move_b);
  if (!(dot(d, d) > 0)) {
    const DistanceResult start = distance(a, xa, b, xb);
    return approach_at(start.distance <= 0, 0, start);
  }
  std::optional<PairInA> pair;
  const Touch touch = first_touch(a, xa, move_a, b, xb, move_b, d, pair);
  const bool touches = touch.touches;
  if (!touches && !pair) pair.emplace(a, b, xa, xb);
  const float t = touches ? touch.fraction : nearest_fraction(pair->diff, d);
  // Everything at that time from distance(), relative to A's start (a local origin: rounded moved
  // positions at 1e4 would shift the pair by 1e-3, tests/large_world_test.cpp); world coordinates
  // only when B's relative position is beyond what distance() accepts.
  const Transform xa_t{t * move_a, xa.q}, xb_t{(xb.p - xa.p) + t * move_b, xb.q};
  if (!is_valid_point(xa_t.p) || !is_valid_point(xb_t.p)) {
    return approach_at(touches, t * horizon, distance(a, {xa.p + t * move_a, xa.q}, b, {xb.p + t * move_b, xb.q}));
  }
  DistanceResult at_t = distance(a, xa_t, b, xb_t);
  at_t.point_a = xa.p + PEBBLE_LOCAL(at_t.point_a);
  at_t.point_b = xa.p + PEBBLE_LOCAL(at_t.point_b);
  return approach_at(touches, t * horizon, at_t);
}

float time_to_collision(const Shape& a, const Transform& xa, Vec2 velocity_a, const Shape& b, const Transform& xb,
                        Vec2 velocity_b, float horizon) noexcept {
  if (!PEBBLE_DOUBLE_POSITIONS && a.vertex_count() == 1 && b.vertex_count() == 1) {
    return detail::batch_kernels().time_to_collision_discs({&a, xa, velocity_a}, {&b, xb, velocity_b}, horizon);
  }
  // closest_approach()'s first touch, without the rest.
  if (!valid_approach(xa, velocity_a, xb, velocity_b, horizon)) return kNoCollision;
  const Vec2 move_a = horizon * velocity_a, move_b = horizon * velocity_b;
  const Vec2 d = relative_motion(xa, move_a, move_b);
  if (!(dot(d, d) > 0)) return distance(a, xa, b, xb).distance <= 0 ? 0 : kNoCollision;
  std::optional<PairInA> pair;
  const Touch touch = first_touch(a, xa, move_a, b, xb, move_b, d, pair);
  return touch.touches ? touch.fraction * horizon : kNoCollision;
}

}  // namespace pebble
