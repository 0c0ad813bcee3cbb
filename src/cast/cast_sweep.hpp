// Two bodies sweeping over a step, as time_of_impact() (src/cast/cast.cpp) sees them: each pose at
// any time (turn(), SweepFrames), and a cheap lower bound of their signed distance over the rest of
// the step (SweptSeparation), followed between distance() queries.
#pragma once

#include <algorithm>
#include <cmath>

#include "pebble/cast.hpp"
#include "simd/config.hpp"
#include "simd/wide.hpp"
#include "tolerances.hpp"

namespace pebble::cast_core {

// The casts run on the base copy's 4-lane type (simd/wide.hpp), with these spellings.
using F4 = detail::base::Float4;
PEBBLE_HOT_INLINE F4 splat(float x) { return F4::splat(x); }
PEBBLE_HOT_INLINE F4 load(const float* p) { return F4::load(p); }
PEBBLE_HOT_INLINE F4 make4(float x, float y, float z, float w) { return F4::lanes(x, y, z, w); }
PEBBLE_HOT_INLINE float first(F4 a) { return first_lane(a); }

/// Cosine and sine of four angles within kWideTurnLimit: Cody-Waite reduction to the nearest quarter
/// turn k with pi/2 in three parts (8 and 11 bits for the first two: k times them exact for
/// |k| < 2^13), then degree-3 polynomials in r^2 for sin(r) / r and cos(r) on |r| <= pi/4, fitted on
/// Chebyshev points (errors 3e-9 and 3e-8, under a float's rounding; cos(0) is exactly 1).
inline constexpr float kWideTurnLimit = 8192;

PEBBLE_HOT_INLINE void cos_sin(F4 angle, F4& cos_out, F4& sin_out) {
  F4 k, sin_sign, cos_sign;
  detail::base::Mask4 odd;
  quadrants(angle * splat(0.636619772f), k, odd, sin_sign, cos_sign);
  const F4 r =
      ((angle - k * splat(1.5703125f)) - k * splat(4.837512969970703125e-4f)) - k * splat(7.54978995489188216e-8f);
  const F4 r2 = r * r;
  const F4 s = r * (splat(0.99999999691770356f) +
                    r2 * (splat(-0.16666650673996773f) +
                          r2 * (splat(0.0083320357855973084f) + r2 * splat(-0.00019503904250840799f))));
  const F4 c =
      splat(0.99999997232849431f) +
      r2 * (splat(-0.49999856419182183f) + r2 * (splat(0.041655014924883755f) + r2 * splat(-0.0013585779264842408f)));
  sin_out = flip_signs(select(odd, c, s), sin_sign);
  cos_out = flip_signs(select(odd, s, c), cos_sign);
}

/// The rotation by `angle` from Taylor polynomials on the nearest quarter turn: r = angle - k pi/2
/// (reduced in double) has |r| <= pi/4, where sin to r^9/9! and cos to r^10/10! err below 2e-9,
/// under a float's rounding, cheaper than std::sin and std::cos (docs/casts.md, Speed).
inline Rot turn(float angle) {
  const double quarters = double(angle) * (2 / 3.14159265358979323846);
  if (!(std::fabs(quarters) < 1e15)) return Rot::from_angle(angle);                          // absurd or not a number
  const double k = double(static_cast<long long>(quarters + (quarters >= 0 ? 0.5 : -0.5)));  // nearest, inline
  const float r = float(double(angle) - k * (3.14159265358979323846 / 2)), r2 = r * r;
  const float sin_r = r * (1 + r2 * (-1.0f / 6 + r2 * (1.0f / 120 + r2 * (-1.0f / 5040 + r2 * (1.0f / 362880)))));
  const float cos_r =
      1 + r2 * (-0.5f + r2 * (1.0f / 24 + r2 * (-1.0f / 720 + r2 * (1.0f / 40320 + r2 * (-1.0f / 3628800)))));
  switch (static_cast<long long>(k) & 3) {
    case 0:
      return {cos_r, sin_r};
    case 1:
      return {-sin_r, cos_r};
    case 2:
      return {-cos_r, -sin_r};
    default:
      return {sin_r, -cos_r};
  }
}

/// A sweep ready to give transforms: its rotation at t = 0 and the turn, composed at each time,
/// which keeps float precision for large angles where a0 + t (a1 - a0) would lose the turn's bits.
struct SweepFrames {
  const Sweep& sweep;
  Rot q0;
  float turn_by;

  explicit SweepFrames(const Sweep& s) : sweep(s), q0(Rot::from_angle(s.a0)), turn_by(s.a1 - s.a0) {}
  Transform at(float t) const {
    const Rot q = t == 0 ? q0 : mul(turn(t * turn_by), q0);
    const Position centre = sweep.c0 + t * (sweep.c1 - sweep.c0);
    return {centre - rotate(q, sweep.local_center), q};
  }
};

/// Cosine and sine of four angles: cos_sin() within kWideTurnLimit, else turn() on each (huge turns).
PEBBLE_HOT_INLINE void cos_sin_any(F4 angle, F4& cos_out, F4& sin_out) {
  if (bits(splat(kWideTurnLimit) < abs(angle)) == 0) {
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

/// Both bodies' sweeps, as SweepFrames but with both rotations from one cos_sin_any(): the same
/// poses to float rounding, cheaper (docs/casts.md, Speed).
struct SweepPair {
  const Sweep& a;
  const Sweep& b;
  Rot qa0, qb0;
  F4 turns;  // a1 - a0 of A and of B, then zeros

  SweepPair(const Sweep& sa, const Sweep& sb) : a(sa), b(sb), turns(make4(sa.a1 - sa.a0, sb.a1 - sb.a0, 0, 0)) {
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
      cos_sin_any(turns * splat(t), c, s);
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

/// A lower bound of two sweeping bodies' signed distance from t0 on, and how far time may advance
/// before it can fall to a level. The gap along an axis n(t) (B's lowest core vertex minus A's
/// highest, radii subtracted) bounds the signed distance (the largest such gap over axes) and
/// equals it at t0 for n(t0) = m, distance()'s normal. The axis turns with A's face, B's, or stays
/// fixed: Box2D's three separation functions, which track two points and can miss a contact; every
/// vertex here cannot. Heights are sinusoids in time: a few multiply-adds per vertex.
///
/// probe(): with g the excess over the level, its rate and a bend bound K (angular rate squared
/// times radius), the gap stays above the level until the first root of g + rate s - K s^2 / 2,
/// while no vertex overtakes the lowest (each vertex's height and rate bound that). Near a touch
/// that shrinks the excess quadratically, conservative advancement [seed-detection §5] by a constant
/// factor; the Lipschitz step is taken when larger. With the axis on a face and the other body's
/// nearest vertex over it, the gap is the distance, and the probe gives distance()'s point and
/// normal. R: 4-lane registers per body (1 for cores of at most 4 vertices, else 2).
template <int R>
class SweptSeparation {
public:
  /// At time t0 of both sweeps, the bodies placed at xa and xb, distance() normal m (A to B).
  PEBBLE_HOT_INLINE SweptSeparation(const Shape& a, const Sweep& sa, const Transform& xa, const Shape& b,
                                    const Sweep& sb, const Transform& xb, const SweepBounds& bounds, float t0, Vec2 m) {
    t0_ = t0;
    m_ = m;
    const float core_reach_a = bounds.core_reach_a, core_reach_b = bounds.core_reach_b;
    // Half 0: B's core vertices about its centre as heights along m and m's left perpendicular;
    // half 1: A's, negated, so gap = centre offset + least of B's + least of A's - radii.
    const Vec2 mp = left_perp(m);
    const Shape* shapes[2] = {&b, &a};
    const Transform* frames[2] = {&xb, &xa};
    const Vec2 centres[2] = {sb.local_center, sa.local_center};
    const float reach[2] = {core_reach_b, core_reach_a};
    bool face[2];
    float face_lo[2], face_hi[2];
    for (int half = 0; half < 2; ++half) {
      const float sign = half == 1 ? -1.0f : 1.0f;
      const Vec2 u = sign * inv_rotate(frames[half]->q, m),
                 up = left_perp(u);  // m and m_perp in the shape's frame, signed
      const float* v = &shapes[half]->padded_vertices()[0].x;
      F4 least = splat(kHugeDistance);
      for (int k = 0; k < R; ++k) {
        F4 x, y;
        deinterleave(v + 8 * k, x, y);
        along_[half][k] = (x * splat(u.x) + y * splat(u.y)) - splat(dot(centres[half], u));
        across_[half][k] = (x * splat(up.x) + y * splat(up.y)) - splat(dot(centres[half], up));
        least = min(least, along_[half][k]);
      }
      // A face along m has two core vertices at the least height, to rounding of the size; its
      // ends are the least and greatest across of those vertices.
      least_[half] = lowest(least);
      const F4 tie = least_[half] + splat(kFaceTieFraction * reach[half]), huge = splat(kHugeDistance);
      unsigned near = 0;
      F4 lo = huge, hi = -huge;
      for (int k = 0; k < R; ++k) {
        const auto on = along_[half][k] <= tie;
        near |= static_cast<unsigned>(bits(on)) << (4 * k);
        lo = min(lo, select(on, across_[half][k], huge));
        hi = max(hi, select(on, across_[half][k], -huge));
      }
      near &= (1u << shapes[half]->vertex_count()) - 1;
      face[half] = (near & (near - 1)) != 0;  // two bits or more
      face_lo[half] = first(lowest(lo));
      face_hi[half] = first(highest(hi));
    }
    const float omega_a = sa.a1 - sa.a0, omega_b = sb.a1 - sb.a0;
    attached_ = face[1] ? 1 : (face[0] ? 0 : -1);
    axis_rate_ = face[1] ? omega_a : (face[0] ? omega_b : 0);
    rate_[0] = axis_rate_ - omega_b;
    rate_[1] = axis_rate_ - omega_a;
    rates_ = make4(axis_rate_, rate_[0], rate_[1], 0);
    // The attached face's ends across the axis, about its body's rotation centre (A's are stored
    // negated).
    if (attached_ >= 0) {
      face_lo_ = attached_ == 1 ? -face_hi[1] : face_lo[0];
      face_hi_ = attached_ == 1 ? -face_lo[1] : face_hi[0];
    }
    // The centres' offset B - A at time t is d0 + t w; its heights along m and m's perpendicular.
    const Vec2 d0 = sb.c0 - sa.c0, w = (sb.c1 - sb.c0) - (sa.c1 - sa.c0);
    centre_along_ = dot(d0, m);
    centre_across_ = dot(d0, mp);
    speed_along_ = dot(w, m);
    speed_across_ = dot(w, mp);
    radius_a_ = a.radius();
    radii_ = a.radius() + b.radius();
    const float turn_rate = std::fabs(axis_rate_), speed = bounds.speed, far = bounds.far;
    bend_ = 2 * turn_rate * speed + turn_rate * turn_rate * far + rate_[0] * rate_[0] * core_reach_b +
            rate_[1] * rate_[1] * core_reach_a;
    fastest_ = (axis_rate_ == 0 ? std::max(0.0f, -speed_along_) : speed + turn_rate * far) +
               std::fabs(rate_[0]) * core_reach_b + std::fabs(rate_[1]) * core_reach_a;
  }

  /// Whether the axis turns with a face of either body (else the gap is never the distance).
  bool on_face() const { return attached_ >= 0; }

  /// The gap at a time (a lower bound) and a step s >= 0 over which it stays above the level.
  /// settled: the step lands within `close` of the level. Within `close`: exact, whether the gap is
  /// the signed distance, and then normal (world, A to B) and point (midway, from A's centre).
  struct Probe {
    float gap;
    float step;
    bool settled;
    bool exact;
    Vec2 normal, point;
  };

  /// The probe at t0, where every height is as the constructor found it.
  PEBBLE_HOT_INLINE Probe probe_start(float level, float close) const {
    const float along = centre_along_ + t0_ * speed_along_, across = centre_across_ + t0_ * speed_across_;
    Lanes lanes;
    for (int half = 0; half < 2; ++half) {
      const F4 rate = splat(rate_[half]);
      for (int k = 0; k < R; ++k) {
        lanes.height[half][k] = along_[half][k];
        lanes.across[half][k] = across_[half][k];
        lanes.rate[half][k] = rate * across_[half][k];
      }
      lanes.least[half] = least_[half];
    }
    return step_from(lanes, Rot{1, 0}, along, across, speed_along_ + axis_rate_ * across, level, close);
  }

  /// The probe at time t >= t0.
  PEBBLE_HOT_INLINE Probe probe(float t, float level, float close) const {
    const float tau = t - t0_;
    F4 cos_all, sin_all;
    cos_sin_any(rates_ * splat(tau), cos_all, sin_all);
    // The centres' offset along n(t) = cos m + sin m_perp and across it, and its rate.
    const Rot axis{first(cos_all), first(sin_all)};
    const float along = centre_along_ + t * speed_along_, across = centre_across_ + t * speed_across_;
    const float centre = axis.c * along + axis.s * across, centre_across = axis.c * across - axis.s * along;
    const float centre_rate = axis.c * speed_along_ + axis.s * speed_across_ + axis_rate_ * centre_across;
    // Each vertex's height along n(t), its offset across, and the height's rate.
    const F4 c[2] = {broadcast<1>(cos_all), broadcast<2>(cos_all)},
             s[2] = {broadcast<1>(sin_all), broadcast<2>(sin_all)};
    Lanes lanes;
    for (int half = 0; half < 2; ++half) {
      const F4 rate = splat(rate_[half]);
      F4 least = splat(kHugeDistance);
      for (int k = 0; k < R; ++k) {
        const F4 al = along_[half][k], ac = across_[half][k];
        lanes.height[half][k] = c[half] * al + s[half] * ac;
        lanes.across[half][k] = c[half] * ac - s[half] * al;
        lanes.rate[half][k] = rate * lanes.across[half][k];
        least = min(least, lanes.height[half][k]);
      }
      lanes.least[half] = lowest(least);
    }
    return step_from(lanes, axis, centre, centre_across, centre_rate, level, close);
  }

private:
  /// Heights, offsets across the axis and rates of every vertex at one time, per half and
  /// register; least: the least height of each half in every lane.
  struct Lanes {
    F4 height[2][R], across[2][R], rate[2][R], least[2];
  };

  PEBBLE_HOT_INLINE Probe step_from(const Lanes& lanes, Rot axis, float centre, float centre_across, float centre_rate,
                                    float level, float close) const {
    const float gap = centre + first(lanes.least[0]) + first(lanes.least[1]) - radii_;
    const float g = gap - level;
    if (!(g > close)) return close_contact(lanes, axis, centre_across, gap);
    // Per half: the fastest fall among vertices within g of the least height; the others stay above
    // for a window (lanes falling no faster divide by zero: +inf, or NaN that min() passes over).
    const F4 huge = splat(kHugeDistance);
    F4 fall[2], window = huge;
    for (int half = 0; half < 2; ++half) {
      const F4 near = lanes.least[half] + splat(g);
      F4 f = huge;
      for (int k = 0; k < R; ++k)
        f = min(f, lanes.rate[half][k] + select(near < lanes.height[half][k], huge, splat(0)));
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
    return {gap, std::min(step, kHugeDistance), step == model && bend_ * model * model <= close, false, {}, {}};
  }

  /// Within `close` of the level: whether the gap is the signed distance, and the contact. It is
  /// when the cores lie on either side of the face's line (a step safe for the distance may leave
  /// the axis facing away) and the moving body's nearest vertex lies over the face: it and its foot
  /// are the cores' closest points.
  Probe close_contact(const Lanes& lanes, Rot axis, float centre_across, float gap) const {
    Probe out{gap, 0, false, false, {}, {}};
    if (attached_ < 0 || !(gap + radii_ >= 0)) return out;
    // The moving half's nearest vertex (the least across among ties) and where it lies across
    // the axis from A's rotation centre.
    const int moving = 1 - attached_;
    const F4 huge = splat(kHugeDistance);
    F4 x = huge;
    for (int k = 0; k < R; ++k)
      x = min(x, select((lanes.height[moving][k] <= lanes.least[moving]), lanes.across[moving][k], huge));
    const float vertex = moving == 0 ? centre_across + first(lowest(x)) : -first(lowest(x));
    const float offset = attached_ == 0 ? centre_across : 0;  // B's face about A's centre
    if (!(vertex >= face_lo_ + offset && vertex <= face_hi_ + offset)) return out;
    // Midway between A's surface (its top height plus its radius) and B's, along the normal.
    out.exact = true;
    out.normal = rotate(axis, m_);
    const float along = -first(lanes.least[1]) + radius_a_ + 0.5f * gap;
    out.point = along * out.normal + vertex * left_perp(out.normal);
    return out;
  }

  F4 along_[2][R], across_[2][R];  // half 0: B, half 1: A negated (see the constructor)
  F4 least_[2];                    // least height of each half at t0, in every lane
  Vec2 m_;                         // the axis at t0
  float t0_;
  int attached_;               // the half whose face the axis turns with (0: B, 1: A), or -1
  float face_lo_, face_hi_;    // that face's ends across the axis, about its body's rotation centre
  float axis_rate_, rate_[2];  // radians per unit time: the axis; each half relative to it
  F4 rates_;                   // the axis's, half 0's and half 1's, then 0
  float centre_along_, centre_across_, speed_along_, speed_across_;
  float radius_a_, radii_;
  float bend_;     // bound on the gap's second derivative
  float fastest_;  // bound on the rate at which the gap can fall
};

}  // namespace pebble::cast_core
