// Two bodies sweeping over a step, as time_of_impact() (src/cast.cpp) sees them: each body's pose
// at any time of the step (turn(), SweepFrames), and a cheap lower bound of their signed
// distance over the rest of the step (SweptSeparation): the gap between the two shapes along an
// axis that turns with one body or with neither, which time_of_impact() follows between
// distance() queries. Not part of the API.
#pragma once

#include <algorithm>
#include <cmath>

#include "cast_wide.hpp"
#include "pebble/cast.hpp"

namespace pebble::cast_core {

/// The rotation by `angle` radians from Taylor polynomials on the nearest quarter turn: the
/// remainder r = angle - k pi/2 (reduced in double, exact enough for any angle a step turns by)
/// has |r| <= pi/4, where sin to r^9/9! and cos to r^10/10! leave errors below 2e-9, under a
/// float's rounding. About a third of the cost of std::sin plus std::cos, which measured a
/// quarter of a time of impact.
inline Rot turn(float angle) {
  const double quarters = double(angle) * (2 / 3.14159265358979323846);
  if (!(std::fabs(quarters) < 1e15)) return Rot::from_angle(angle);  // absurd or not a number
  const double k = double(static_cast<long long>(quarters + (quarters >= 0 ? 0.5 : -0.5)));  // nearest, inline
  const float r = float(double(angle) - k * (3.14159265358979323846 / 2)), r2 = r * r;
  const float sin_r = r * (1 + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
  const float cos_r = 1 + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320 + r2 * (-1.0f / 3628800)))));
  switch (static_cast<long long>(k) & 3) {
    case 0: return {cos_r, sin_r};
    case 1: return {-sin_r, cos_r};
    case 2: return {-cos_r, -sin_r};
    default: return {sin_r, -cos_r};
  }
}

/// A sweep ready to give transforms: its rotation at t = 0 (std::cos and std::sin, once) and
/// the turn over the step, applied as a second rotation at each time. Composing keeps the
/// rotation at float precision even for large angles, where a0 + t (a1 - a0) itself would lose
/// the low bits of the turn.
struct SweepFrames {
  const Sweep& sweep;
  Rot q0;
  float turn_by;

  explicit SweepFrames(const Sweep& s) : sweep(s), q0(Rot::from_angle(s.a0)), turn_by(s.a1 - s.a0) {}
  Transform at(float t) const {
    const Rot q = t == 0 ? q0 : mul(turn(t * turn_by), q0);
    const Vec2 centre = sweep.c0 + t * (sweep.c1 - sweep.c0);
    return {centre - rotate(q, sweep.local_center), q};
  }
};

/// Cosine and sine of four angles: cos_sin() (src/cast_wide.hpp) when all are within its
/// kWideTurnLimit, else turn() on each (turns of thousands of radians in one step).
inline void cos_sin_any(F4 angle, F4& cos_out, F4& sin_out) {
  if (bits(less(splat(kWideTurnLimit), abs(angle))) == 0) {
    cos_sin(angle, cos_out, sin_out);
    return;
  }
  float lanes[4], c[4], s[4];
  store(lanes, angle);
  for (int i = 0; i < 4; ++i) {
    const Rot q = turn(lanes[i]);
    c[i] = q.c;
    s[i] = q.s;
  }
  cos_out = load(c);
  sin_out = load(s);
}

/// Four floats in one F4.
inline F4 make4(float x, float y, float z, float w) {
  const float lanes[4] = {x, y, z, w};
  return load(lanes);
}

/// Both bodies' sweeps for time_of_impact(), as SweepFrames but with both rotations from one
/// cos_sin_any() (the start angles once, then the turns at each time): the same poses to float
/// rounding, for a third of the cost.
struct SweepPair {
  const Sweep& a;
  const Sweep& b;
  Rot qa0, qb0;

  SweepPair(const Sweep& sa, const Sweep& sb) : a(sa), b(sb) {
    F4 c, s;
    cos_sin_any(make4(sa.a0, sb.a0, 0, 0), c, s);
    alignas(16) float cl[4], sl[4];
    store(cl, c);
    store(sl, s);
    qa0 = {cl[0], sl[0]};
    qb0 = {cl[1], sl[1]};
  }

  /// The poses at time t.
  void at(float t, Transform& xa, Transform& xb) const {
    Rot qa = qa0, qb = qb0;
    if (t != 0) {
      F4 c, s;
      cos_sin_any(make4(t * (a.a1 - a.a0), t * (b.a1 - b.a0), 0, 0), c, s);
      alignas(16) float cl[4], sl[4];
      store(cl, c);
      store(sl, s);
      qa = mul(Rot{cl[0], sl[0]}, qa0);
      qb = mul(Rot{cl[1], sl[1]}, qb0);
    }
    xa = {a.c0 + t * (a.c1 - a.c0) - rotate(qa, a.local_center), qa};
    xb = {b.c0 + t * (b.c1 - b.c0) - rotate(qb, b.local_center), qb};
  }
};


/// What SweptSeparation needs of the whole time of impact, computed once.
struct SweepBounds {
  float core_reach_a, core_reach_b;  ///< bounds on each core vertex's distance from its body's rotation centre
  float speed;                       ///< of B's rotation centre relative to A's, per unit time
  float far;                         ///< bound on the distance between the rotation centres over the step
};

/// A lower bound of the signed distance of two sweeping bodies from a time t0 on, and how far
/// time may advance before it can fall to a level.
///
/// At t0, distance() gave the normal m. The gap between the shapes along an axis n(t), the
/// lowest point of B minus the highest point of A (every core vertex, radii subtracted), is a
/// lower bound of their signed distance at every t (the signed distance is the largest such gap
/// over all axes), and equals it at t0 for n(t0) = m. The axis turns with A when m is a face
/// normal of A, with B when it is one of B's, else stays fixed: Box2D's separation functions
/// (face A, face B, points) follow the same three cases, but track two fixed points and can
/// miss a contact; this gap takes every vertex and cannot. Each vertex's height along n is a
/// sinusoid in time, so the gap and its rate cost a few multiply-adds per vertex, against a
/// distance() query.
///
/// Stepping (probe()): with g the gap's excess over the level, its rate, and a bound K on how
/// fast any height can bend (angular rate squared times radius), the gap stays above the level
/// until the first root of g + rate s - K s^2 / 2, as long as no other vertex overtakes the
/// lowest (highest) one, which each vertex's own height and rate bound. Near a touch the steps
/// shrink the excess quadratically, like Newton's, where conservative advancement (seed 002)
/// shrinks it by a constant factor per step. A Lipschitz step (the excess over the fastest the
/// gap can fall) is always safe and is taken when larger.
///
/// R is the number of 4-lane registers per body: 1 when both cores have at most 4 vertices, else
/// 2 (lanes past a core's vertex count repeat its vertex 0).
template <int R>
class SweptSeparation {
public:
  /// At time t0 of both sweeps, the bodies placed at xa and xb, distance() normal m (A to B).
  SweptSeparation(const Shape& a, const Sweep& sa, const Transform& xa, const Shape& b, const Sweep& sb, const Transform& xb,
                  const SweepBounds& bounds, float t0, Vec2 m) {
    t0_ = t0;
    const float core_reach_a = bounds.core_reach_a, core_reach_b = bounds.core_reach_b;
    // Half 0: B's core vertices about its rotation centre, world orientation at t0, as heights
    // along m and along m's left perpendicular; half 1: the same for A, negated, so that both
    // halves take their least height: gap = centre offset + least of B's + least of A's - radii.
    const Vec2 mp = left_perp(m);
    const Shape* shapes[2] = {&b, &a};
    const Transform* frames[2] = {&xb, &xa};
    const Vec2 centres[2] = {sb.local_center, sa.local_center};
    const float reach[2] = {core_reach_b, core_reach_a};
    bool face[2];
    for (int half = 0; half < 2; ++half) {
      const float sign = half == 1 ? -1.0f : 1.0f;
      const Vec2 u = sign * inv_rotate(frames[half]->q, m), up = sign * inv_rotate(frames[half]->q, mp);  // in the shape's frame
      const float* v = &shapes[half]->padded_vertices()[0].x;
      F4 least = splat(kHugeDistance);
      for (int k = 0; k < R; ++k) {
        F4 x, y;
        deinterleave(v + 8 * k, x, y);
        along_[half][k] = (x * splat(u.x) + y * splat(u.y)) - splat(dot(centres[half], u));
        across_[half][k] = (x * splat(up.x) + y * splat(up.y)) - splat(dot(centres[half], up));
        least = min(least, along_[half][k]);
      }
      // A face along m has two core vertices at the least height, to rounding of the size.
      least_[half] = lowest(least);
      const F4 tie = least_[half] + splat(kFaceTieFraction * reach[half]);
      unsigned near = 0;
      for (int k = 0; k < R; ++k) near |= static_cast<unsigned>(bits(less_equal(along_[half][k], tie))) << (4 * k);
      near &= (1u << shapes[half]->vertex_count()) - 1;
      face[half] = (near & (near - 1)) != 0;  // two bits or more
    }
    const float omega_a = sa.a1 - sa.a0, omega_b = sb.a1 - sb.a0;
    axis_rate_ = face[1] ? omega_a : (face[0] ? omega_b : 0);
    rate_[0] = axis_rate_ - omega_b;
    rate_[1] = axis_rate_ - omega_a;
    // The centres' offset B - A at time t is d0 + t w; its heights along m and m's perpendicular.
    const Vec2 d0 = sb.c0 - sa.c0, w = (sb.c1 - sb.c0) - (sa.c1 - sa.c0);
    centre_along_ = dot(d0, m);
    centre_across_ = dot(d0, mp);
    speed_along_ = dot(w, m);
    speed_across_ = dot(w, mp);
    radii_ = a.radius() + b.radius();
    const float turn_rate = std::fabs(axis_rate_), speed = bounds.speed, far = bounds.far;
    bend_ = 2 * turn_rate * speed + turn_rate * turn_rate * far + rate_[0] * rate_[0] * core_reach_b + rate_[1] * rate_[1] * core_reach_a;
    fastest_ = (axis_rate_ == 0 ? std::max(0.0f, -speed_along_) : speed + turn_rate * far) + std::fabs(rate_[0]) * core_reach_b +
               std::fabs(rate_[1]) * core_reach_a;
  }

  /// The gap at a time (a lower bound of the signed distance there) and a step s >= 0 such that
  /// the gap stays above the level over the next s (0 when it is not above it now). settled: the
  /// step lands where the gap is, by the same bounds, within `close` of the level.
  struct Probe {
    float gap;
    float step;
    bool settled;
  };

  /// The probe at t0, where every height is as the constructor found it.
  Probe probe_start(float level, float close) const {
    const float along = centre_along_ + t0_ * speed_along_, across = centre_across_ + t0_ * speed_across_;
    Lanes lanes;
    for (int half = 0; half < 2; ++half) {
      const F4 rate = splat(rate_[half]);
      for (int k = 0; k < R; ++k) {
        lanes.height[half][k] = along_[half][k];
        lanes.rate[half][k] = rate * across_[half][k];
      }
      lanes.least[half] = least_[half];
    }
    return step_from(lanes, along, speed_along_ + axis_rate_ * across, level, close);
  }

  /// The probe at time t >= t0.
  Probe probe(float t, float level, float close) const {
    const float tau = t - t0_;
    F4 cos_all, sin_all;
    cos_sin_any(make4(axis_rate_ * tau, rate_[0] * tau, rate_[1] * tau, 0), cos_all, sin_all);
    // The centres' offset along n(t) = cos m + sin m_perp, and its rate.
    const float axis_c = first(cos_all), axis_s = first(sin_all);
    const float along = centre_along_ + t * speed_along_, across = centre_across_ + t * speed_across_;
    const float centre = axis_c * along + axis_s * across;
    const float centre_rate = axis_c * speed_along_ + axis_s * speed_across_ + axis_rate_ * (axis_c * across - axis_s * along);
    // Each vertex's height along n(t) and its rate.
    const F4 c[2] = {broadcast<1>(cos_all), broadcast<2>(cos_all)}, s[2] = {broadcast<1>(sin_all), broadcast<2>(sin_all)};
    Lanes lanes;
    for (int half = 0; half < 2; ++half) {
      const F4 rate = splat(rate_[half]);
      F4 least = splat(kHugeDistance);
      for (int k = 0; k < R; ++k) {
        const F4 al = along_[half][k], ac = across_[half][k];
        lanes.height[half][k] = c[half] * al + s[half] * ac;
        lanes.rate[half][k] = rate * (c[half] * ac - s[half] * al);
        least = min(least, lanes.height[half][k]);
      }
      lanes.least[half] = lowest(least);
    }
    return step_from(lanes, centre, centre_rate, level, close);
  }

private:
  /// Two core vertices within this fraction of a body's reach of its greatest height along the
  /// normal make the normal one of its faces (a face normal is computed from its vertices, so
  /// they tie only to rounding).
  static constexpr float kFaceTieFraction = 1e-5f;

  /// Heights and rates of every vertex at one time, per half and register; least: the least
  /// height of each half in every lane.
  struct Lanes {
    F4 height[2][R], rate[2][R], least[2];
  };

  Probe step_from(const Lanes& lanes, float centre, float centre_rate, float level, float close) const {
    const float gap = centre + first(lanes.least[0]) + first(lanes.least[1]) - radii_;
    const float g = gap - level;
    if (!(g > 0)) return {gap, 0, false};
    // Per half: the fastest fall among the vertices within g of the least height; every other
    // vertex stays above the least height falling at that rate for a window. (Lanes that fall no
    // faster divide by zero: +inf, or NaN for 0 / 0, which min() passes over.)
    const F4 huge = splat(kHugeDistance);
    F4 fall[2], window = huge;
    for (int half = 0; half < 2; ++half) {
      const F4 near = lanes.least[half] + splat(g);
      F4 f = huge;
      for (int k = 0; k < R; ++k) f = min(f, lanes.rate[half][k] + (less(near, lanes.height[half][k]) & huge));
      fall[half] = lowest(f);
      for (int k = 0; k < R; ++k) {
        const F4 until = (lanes.height[half][k] - lanes.least[half]) / max(fall[half] - lanes.rate[half][k], splat(0));
        window = min(until, window);
      }
    }
    // The first root of g + slope s - bend s^2 / 2 (the form without cancellation for either
    // sign); the gap there is at most bend s^2 above the level.
    const float slope = centre_rate + first(fall[0]) + first(fall[1]);
    const float root = std::sqrt(slope * slope + 2 * bend_ * g);
    const float model = slope <= 0 ? 2 * g / (root - slope) : (bend_ > 0 ? (slope + root) / bend_ : kHugeDistance);
    float step = std::min(model, first(lowest(window)));
    if (fastest_ > 0) step = std::max(step, g / fastest_);
    return {gap, std::min(step, kHugeDistance), step == model && bend_ * model * model <= close};
  }

  F4 along_[2][R], across_[2][R];  // half 0: B, half 1: A negated (see the constructor)
  F4 least_[2];                    // least height of each half at t0, in every lane
  float t0_;
  float axis_rate_, rate_[2];  // radians per unit time: the axis; each half relative to it
  float centre_along_, centre_across_, speed_along_, speed_across_;
  float radii_;
  float bend_;     // bound on the gap's second derivative
  float fastest_;  // bound on the rate at which the gap can fall
};

}  // namespace pebble::cast_core
