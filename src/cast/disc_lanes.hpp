// Internal: closest_approach() and time_to_collision() of two discs in closed form, one template
// for any lane width: Float1 for the single queries (cast/cast.cpp, through simd/batch_kernels.hpp),
// Float4 or Float8 for the batch (src/batch/batch.cpp), so a batch lane is the single query's bits.
//
// A point p + t w (B's centre relative to A's, w = vb - va) against a disc of R = ra + rb
// ([seed-cpa §3], "Circles"): least at tc = -(p.w)/(w.w), m = p + tc w at h = |m|; for h <= R it
// enters sqrt(R^2 - h^2) / |w| before tc. h from m, not from the discriminant, which loses R
// against |p|^2 far apart. The fields are then circle_pair()'s (contact/core.hpp) on the moved centres.
#pragma once

#include "pebble/cast.hpp"
#include "pebble/constants.hpp"
#include "simd/body_lanes.hpp"
#include "tolerances.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

/// The two centres (world) and B's centre relative to A's, as circle_pair() forms them: the
/// offset from the positions' difference, not from the rounded world centres.
template <class F>
struct Centres {
  F cax, cay, cbx, cby, px, py;
};

template <class F>
PEBBLE_HOT_INLINE Centres<F> centres(const Disc<F>& a, const Disc<F>& b) {
  const F vax = a.qc * a.lx - a.qs * a.ly, vay = a.qs * a.lx + a.qc * a.ly;
  const F vbx = b.qc * b.lx - b.qs * b.ly, vby = b.qs * b.lx + b.qc * b.ly;
  return {vax + a.px, vay + a.py, vbx + b.px, vby + b.py, (b.px - a.px) + (vbx - vax), (b.py - a.py) + (vby - vay)};
}

/// circle_pair()'s answer for these centres and offset (dx, dy); false where |d|^2 < kTinySquare,
/// which circle_pair() rescales (the single query does that).
template <class F>
struct DiscDistance {
  F distance, nx, ny, pax, pay, pbx, pby;
  decltype(F{} < F{}) ok;
};

template <class F>
PEBBLE_HOT_INLINE DiscDistance<F> disc_distance(F ra, F rb, F cax, F cay, F cbx, F cby, F dx, F dy) {
  const F len2 = dx * dx + dy * dy;
  const F len = sqrt_lanes(len2);
  const F nx = dx / len, ny = dy / len;
  return {(len - ra) - rb,
          nx,
          ny,
          cax + ra * nx,
          cay + ra * ny,
          cbx - rb * nx,
          cby - rb * ny,
          F::splat(kTinySquare) <= len2};
}

/// When two discs first touch in [0, horizon], and the time of least distance when they do not.
template <class F>
struct DiscMotion {
  decltype(F{} < F{}) hit, valid;
  F touch;  // the first touch (kNoCollision where none)
  F time;   // the touch, else the time of least distance
  F wx, wy;
  Centres<F> c;
};

template <class F>
PEBBLE_HOT_INLINE DiscMotion<F> disc_motion(const Disc<F>& a, const Disc<F>& b, F h) {
  const auto valid = valid_approach(a, b, h);
  const Centres<F> c = centres(a, b);
  const F zero = F::splat(0);
  const F wx = b.vx - a.vx, wy = b.vy - a.vy;
  const F r = a.r + b.r;
  // Touching or overlapping at the start, by distance()'s own test.
  const auto start = ((sqrt_lanes(c.px * c.px + c.py * c.py) - a.r) - b.r) <= zero;
  const F ww = wx * wx + wy * wy;
  const auto moving = zero < ww;
  const F tc = (zero - (c.px * wx + c.py * wy)) / ww;  // NaN or infinite where not moving
  const F mx = c.px + tc * wx, my = c.py + tc * wy;
  const F rr = r * r, hh = mx * mx + my * my;
  // The path enters the grown disc before tc (and after 0, or the discs would start touching).
  const F enter = max(tc - sqrt_lanes((rr - hh) / ww), zero);
  const auto touch_in = moving & (zero < tc) & (hh <= rr) & (enter <= h);
  const auto hit = start | touch_in;
  const F touch = select(start, zero, select(touch_in, enter, F::splat(kNoCollision)));
  const F least = min(max(tc, zero), h);  // NaN tc gives 0
  const F time = select(hit, touch, select(moving, least, zero));
  return {hit, valid, touch, time, wx, wy, c};
}

/// closest_approach() of two discs: the fields at the motion's time, and whether they hold.
template <class F>
struct DiscApproach {
  DiscMotion<F> m;
  DiscDistance<F> d;
};

template <class F>
PEBBLE_HOT_INLINE DiscApproach<F> disc_approach(const Disc<F>& a, const Disc<F>& b, F h) {
  const DiscMotion<F> m = disc_motion(a, b, h);
  const F t = m.time;
  const DiscDistance<F> d = disc_distance(a.r, b.r, m.c.cax + t * a.vx, m.c.cay + t * a.vy, m.c.cbx + t * b.vx,
                                          m.c.cby + t * b.vy, m.c.px + t * m.wx, m.c.py + t * m.wy);
  return {m, d};
}

}  // namespace
}  // namespace pebble::detail::PEBBLE_KERNEL_NS
