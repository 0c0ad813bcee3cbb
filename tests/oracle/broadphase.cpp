// Box overlap and swept-box intervals by their definitions, in long double.
#include "oracle/broadphase.hpp"

#include <algorithm>
#include <cmath>

namespace oracle {

bool boxes_overlap(const Box& a, const Box& b) {
  return a.lo_x <= b.hi_x && b.lo_x <= a.hi_x && a.lo_y <= b.hi_y && b.lo_y <= a.hi_y;
}

real box_gap(const Box& a, const Box& b) {
  const real gap_x = std::max(a.lo_x - b.hi_x, b.lo_x - a.hi_x);
  const real gap_y = std::max(a.lo_y - b.hi_y, b.lo_y - a.hi_y);
  return std::max(gap_x, gap_y);
}

namespace {

// The times t where lo <= o + t d <= hi, intersected with [enter, leave].
void clip_axis(real o, real d, real lo, real hi, real& enter, real& leave) {
  if (d == 0) {
    if (o < lo || o > hi) leave = -1;  // never inside on this axis
    return;
  }
  real t0 = (lo - o) / d, t1 = (hi - o) / d;
  if (t0 > t1) std::swap(t0, t1);
  enter = std::max(enter, t0);
  leave = std::min(leave, t1);
}

}  // namespace

SweepInterval sweep_box(V origin, real hx, real hy, V translation, const Box& b, real t_max) {
  real enter = 0, leave = t_max;
  clip_axis(origin.x, translation.x, b.lo_x - hx, b.hi_x + hx, enter, leave);
  clip_axis(origin.y, translation.y, b.lo_y - hy, b.hi_y + hy, enter, leave);
  SweepInterval out;
  out.hit = enter <= leave;
  out.enter = enter;
  out.leave = leave;
  return out;
}

}  // namespace oracle
