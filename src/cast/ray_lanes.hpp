// Internal: cast/ray_core.hpp's ray cast in lanes across queries, kept beside it so a change to one
// is seen with the other (tests/batch_test.cpp compares the bits), for the batch time_to_collision()
// of a disc against a capsule or 4-vertex core, and of two capsules (their difference, a
// parallelogram). Each function repeats its scalar namesake's float operations in order, branches
// as selects; the rare branches (starting inside, tiny circles, sharp shapes, parallel
// differences) are not repeated: such lanes are `unsure`, answered by the single query.
#pragma once

#include "simd/body_lanes.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

/// A lane's first touch: whether it hits, the fraction (0 starting inside), and the lanes left undecided.
template <class F>
struct RayLanes {
  F t;
  unsigned hit;
  unsigned unsure;
};

/// circle_contact() with unit 1, m = o - c. corner: contact t0 + tau; inside: o in the disc (t0);
/// tiny: circle_contact() would rescale (unsure).
template <class F>
struct CircleLanes {
  F t;
  decltype(F{} < F{}) corner, inside;
  unsigned tiny;
};

template <class F>
PEBBLE_HOT_INLINE CircleLanes<F> circle_lanes(F mx, F my, F r, F t0, F dx, F dy) {
  const F zero = F::splat(0);
  const F mm = mx * mx + my * my;
  const F cc = mm - r * r;
  const auto inside = cc <= zero;
  const unsigned tiny =
      bits(inside & (mm < F::splat(kTinySquare)) & (r < F::splat(kTinyLength))) & ~bits((mx == zero) & (my == zero));
  const F b = mx * dx + my * dy;
  const F a = dx * dx + dy * dy;
  const F cr = mx * dy - my * dx;
  const F disc = a * r * r - cr * cr;
  const F tau = cc / (sqrt_lanes(disc) - b);
  const F t = t0 + tau;
  // Not inside (zero < cc, false for NaN, a miss in the scalar too), approaching, a real root, within the ray.
  return {select(inside, t0, t), (zero < cc) & (b < zero) & (zero <= disc) & (t <= F::splat(1)), inside, tiny};
}

/// contact_after_entry(): entered the outer edge from vertex a along e at q, fraction t; corners (sx, sy), (fx, fy).
template <class F>
PEBBLE_HOT_INLINE RayLanes<F> after_entry_lanes(F ax, F ay, F ex, F ey, F qx, F qy, F t, F r, F dx, F dy, F scale, F sx,
                                                F sy, F fx, F fy) {
  const F zero = F::splat(0);
  const F s = (qx - ax) * ex + (qy - ay) * ey, len2 = ex * ex + ey * ey;
  const auto on_edge = (zero <= s) & (s <= len2);
  const auto before = s < zero;
  const CircleLanes<F> c = circle_lanes(qx - select(before, sx, fx), qy - select(before, sy, fy), r, t, dx, dy);
  // A miss of the corner circle still hits the edge when the entry point is beyond the edge's
  // end by no more than the entry's rounding. (-s is 0 - s where s < 0: the same value.)
  const F len = sqrt_lanes(len2);
  const F beyond = select(before, zero - s, s - len2) / len;
  const unsigned far = bits(beyond > F::splat(kEntryRoundingFraction) * (scale + len));
  const unsigned on = bits(on_edge);
  // An edge of length 0: the scalar's vertex-circle case (unsure).
  const unsigned point_edge = bits(len2 == zero);
  return {select(on_edge, t, select(c.corner, c.t, t)), on | bits(c.inside) | bits(c.corner) | ~far,
          (c.tiny & ~on) | point_edge};
}

/// cast_capsule(): the ray o + t d against segment a-b (edge normal n) grown by r.
template <class F>
PEBBLE_HOT_INLINE RayLanes<F> capsule_lanes(F ax, F ay, F bx, F by, F nx, F ny, F r, F ox, F oy, F dx, F dy) {
  const F zero = F::splat(0), one = F::splat(1);
  const F ex = bx - ax, ey = by - ay;
  const unsigned point = bits((ex == zero) & (ey == zero));  // a disc: unsure
  const F h = nx * (ox - ax) + ny * (oy - ay), hd = nx * dx + ny * dy;
  const auto above = h > r, below = h < zero - r;  // (0 - r is -r, as a comparison bound)
  // Outside the slab: entry through the side facing o; 0 - hd and (0 - r) - h equal the scalar's
  // -hd and -r - h wherever the branch is taken.
  const F t = select(above, (h - r) / (zero - hd), ((zero - r) - h) / hd);
  const unsigned enters = bits((above & (hd < zero)) | (below & (zero < hd))) & bits(t <= one);
  const F qx = ox + t * dx, qy = oy + t * dy;
  const F scale = abs(ox) + abs(oy) + t * (abs(dx) + abs(dy)) + abs(ax) + abs(ay);
  const RayLanes<F> out = after_entry_lanes(ax, ay, ex, ey, qx, qy, t, r, dx, dy, scale, ax, ay, bx, by);
  // Inside the slab: beside the segment (inside), else the nearer end's circle from t = 0.
  const F s0 = (ox - ax) * ex + (oy - ay) * ey;
  const auto beside = (zero <= s0) & (s0 <= ex * ex + ey * ey);
  const auto at_a = s0 < zero;
  const CircleLanes<F> c = circle_lanes(ox - select(at_a, ax, bx), oy - select(at_a, ay, by), r, zero, dx, dy);
  const unsigned outside = bits(above | below), in_hit = bits(beside) | bits(c.inside) | bits(c.corner);
  return {select(above | below, out.t, select(beside, zero, c.t)), (outside & enters & out.hit) | (~outside & in_hit),
          point | (outside & enters & out.unsure) | (~outside & c.tiny & ~bits(beside))};
}

/// One of four lanes' values by index k (0..3, as floats).
template <class F>
PEBBLE_HOT_INLINE F pick4(F k, const F* v) {
  return select(k == F::splat(0), v[0], select(k == F::splat(1), v[1], select(k == F::splat(2), v[2], v[3])));
}

/// cast_polygon() of a 4-vertex core grown by r > 0 for a ray entering after its start; a ray
/// starting inside, and r = 0, are unsure.
template <class F>
PEBBLE_HOT_INLINE RayLanes<F> quad_lanes(const QuadLanes<F>& p, F r, F ox, F oy, F dx, F dy) {
  const F zero = F::splat(0);
  // clip_planes(), plane by plane in its order. Once a lane is empty its answer is a miss, so the
  // planes after that may change its bounds freely.
  F lower = zero, upper = F::splat(1), entry = F::splat(-1);
  unsigned empty = 0, unsure = 0;
  for (int k = 0; k < 4; ++k) {
    const F num = (p.off[k] + r) - (p.nx[k] * ox + p.ny[k] * oy);
    const F den = p.nx[k] * dx + p.ny[k] * dy;
    const auto enter = (den < zero) & (num < lower * den);
    lower = select(enter, num / den, lower);
    entry = select(enter, F::splat(float(k)), entry);
    empty |= bits(enter & (upper < lower));
    const auto leave = (zero < den) & (num < upper * den);
    upper = select(leave, num / den, upper);
    empty |= bits(leave & (upper < lower)) | bits((den == zero) & (num < zero));
    unsure |= ~bits(den == den);  // NaN: the scalar takes another branch
  }
  unsure |= bits(entry < zero) | bits(r == zero);
  // The entry plane's edge: from vertex i to vertex i + 1.
  const F next = select(entry == F::splat(3), zero, entry + F::splat(1));
  const F ax = pick4(entry, p.x), ay = pick4(entry, p.y), bx = pick4(next, p.x), by = pick4(next, p.y);
  const F qx = ox + lower * dx, qy = oy + lower * dy;
  const F scale = abs(ox) + abs(oy) + lower * (abs(dx) + abs(dy)) + abs(ax) + abs(ay);
  const RayLanes<F> out = after_entry_lanes(ax, ay, bx - ax, by - ay, qx, qy, lower, r, dx, dy, scale, ax, ay, bx, by);
  return {out.t, out.hit & ~empty, (unsure | out.unsure) & ~empty};
}

// time_to_collision() of a disc against a capsule or 4-vertex core, and of two capsules, with the
// scalar set-up repeated: the time (fraction times horizon), which lanes touch, which are unsure.

/// B's motion relative to A in A's frame (relative_motion()); zero is unsure (the scalar asks distance()).
template <class F>
struct Relative {
  F wx, wy;  // move_b - move_a, world
  F dx, dy;  // in A's frame
  unsigned moving;
};

template <class F>
PEBBLE_HOT_INLINE Relative<F> relative_lanes(const Moving<F>& a, const Moving<F>& b, F h) {
  const F wx = h * b.vx - h * a.vx, wy = h * b.vy - h * a.vy;
  const F dx = a.qc * wx + a.qs * wy, dy = neg(a.qs) * wx + a.qc * wy;
  return {wx, wy, dx, dy, bits(F::splat(0) < dx * dx + dy * dy)};
}

/// A disc against a 2-vertex (Core = 2) or 4-vertex core: time_to_collision()'s checks, then
/// disc_cast() (cast/cast.cpp) with cast_against_core() and report().
template <int Core, class F>
PEBBLE_HOT_INLINE RayLanes<F> disc_core_ttc(const BatchBody* const* disc, const BatchBody* const* other, bool disc_is_a,
                                            F h) {
  // Not gather(): inlined there, it slows the disc group's AVX2 lanes (docs/crowds.md).
  const Moving<F> md = moving_lanes<F>(disc), mo = moving_lanes<F>(other);
  const Moving<F>& ma = disc_is_a ? md : mo;
  const Moving<F>& mb = disc_is_a ? mo : md;
  const unsigned valid = bits(valid_approach(ma, mb, h));
  const Relative<F> rel = relative_lanes(ma, mb, h);
  const F lx = shape_lanes<F>(disc, [](const Shape& s) { return s.padded_vertices()[0].x; });
  const F ly = shape_lanes<F>(disc, [](const Shape& s) { return s.padded_vertices()[0].y; });
  const F rd = shape_lanes<F>(disc, [](const Shape& s) { return s.radius(); });
  const F cx = (md.px - mo.px) + (md.qc * lx - md.qs * ly), cy = (md.py - mo.py) + (md.qs * lx + md.qc * ly);
  const unsigned local = bits(valid_point(cx, cy));
  const F tx = h * md.vx - h * mo.vx, ty = h * md.vy - h * mo.vy;  // the ray: move_disc - move_other
  const F c = mo.qc, s = mo.qs;
  const F ox = c * cx + s * cy, oy = c * cy - s * cx;
  const F dx = c * tx + s * ty, dy = c * ty - s * tx;
  RayLanes<F> hit;
  if constexpr (Core == 2) {
    const SegmentLanes<F> g = segment_lanes<F>(other);
    hit = capsule_lanes(g.x0, g.y0, g.x1, g.y1, g.nx0, g.ny0, g.r + rd, ox, oy, dx, dy);
  } else {
    F ro;
    const QuadLanes<F> q = quad_core_lanes<F>(other, ro);
    hit = quad_lanes(q, ro + rd, ox, oy, dx, dy);
  }
  // report(): a hit only for a ray within the world's bounds, at a fraction >= 0.
  hit.hit &= bits(valid_point(tx, ty)) & bits(F::splat(0) <= hit.t);
  hit.unsure |= ~(valid & rel.moving & bits(valid_point(rel.wx, rel.wy)) & local);
  hit.t = hit.t * h;
  return hit;
}

/// Two capsules: time_to_collision()'s checks, then the ray along B's relative motion against
/// build_difference() (cast/minkowski.hpp; for two segments the edges alternate between A and -B,
/// which first by one cross product's sign) grown by both radii.
template <class F>
PEBBLE_HOT_INLINE RayLanes<F> capsules_ttc(const BatchBody* const* ba, const BatchBody* const* bb, F h) {
  const F zero = F::splat(0);
  const Moving<F> ma = moving_lanes<F>(ba), mb = moving_lanes<F>(bb);
  const unsigned valid = bits(valid_approach(ma, mb, h));
  const Relative<F> rel = relative_lanes(ma, mb, h);
  const SegmentLanes<F> a = segment_lanes<F>(ba), b = segment_lanes<F>(bb);
  // B in A's frame.
  const F qc = ma.qc * mb.qc + ma.qs * mb.qs, qs = ma.qc * mb.qs - ma.qs * mb.qc;
  const F ex = mb.px - ma.px, ey = mb.py - ma.py;
  const F px = ma.qc * ex + ma.qs * ey, py = neg(ma.qs) * ex + ma.qc * ey;
  const F b0x = (qc * b.x0 - qs * b.y0) + px, b0y = (qs * b.x0 + qc * b.y0) + py;
  const F b1x = (qc * b.x1 - qs * b.y1) + px, b1y = (qs * b.x1 + qc * b.y1) + py;
  const F m0x = qc * b.nx0 - qs * b.ny0, m0y = qs * b.nx0 + qc * b.ny0;
  const F m1x = qc * b.nx1 - qs * b.ny1, m1y = qs * b.nx1 + qc * b.ny1;
  // first_vertex(): the edge whose direction (-ny, nx), for -B (ny, -nx), lies in [0, pi); i_1, j_1:
  // the first edge is edge 1. Each core's two halves must differ (else unsure).
  const auto i_1 = (a.nx0 < zero) | ((a.nx0 == zero) & (zero < a.ny0));
  const auto j_1 = (zero < m0x) | ((m0x == zero) & (m0y < zero));
  const unsigned halves = (bits(i_1) ^ bits((a.nx1 < zero) | ((a.nx1 == zero) & (zero < a.ny1)))) &
                          (bits(j_1) ^ bits((zero < m1x) | ((m1x == zero) & (m1y < zero))));
  // A's edge i and the next (i2), -B's edge j and the next (j2).
  const F aix = select(i_1, a.x1, a.x0), aiy = select(i_1, a.y1, a.y0), ai2x = select(i_1, a.x0, a.x1),
          ai2y = select(i_1, a.y0, a.y1);
  const F nix = select(i_1, a.nx1, a.nx0), niy = select(i_1, a.ny1, a.ny0), ni2x = select(i_1, a.nx0, a.nx1),
          ni2y = select(i_1, a.ny0, a.ny1);
  const F bjx = select(j_1, b1x, b0x), bjy = select(j_1, b1y, b0y), bj2x = select(j_1, b0x, b1x),
          bj2y = select(j_1, b0y, b1y);
  const F mjx = select(j_1, m1x, m0x), mjy = select(j_1, m1y, m0y), mj2x = select(j_1, m0x, m1x),
          mj2y = select(j_1, m0y, m1y);
  // The merge's first step compares A's edge i with -B's j; its third (i2, j2) must agree, and no
  // tie (parallel cores merge edges into 2 or 3 vertices: unsure).
  const F cr = neg(niy) * neg(mjx) - nix * mjy, cr3 = neg(ni2y) * neg(mj2x) - ni2x * mj2y;
  const auto a_first = zero < cr;
  const unsigned order = bits(a_first & (zero < cr3)) | bits((cr < zero) & (cr3 < zero));
  QuadLanes<F> d;
  d.x[0] = aix - bjx, d.y[0] = aiy - bjy;
  d.x[1] = select(a_first, ai2x - bjx, aix - bj2x), d.y[1] = select(a_first, ai2y - bjy, aiy - bj2y);
  d.x[2] = ai2x - bj2x, d.y[2] = ai2y - bj2y;
  d.x[3] = select(a_first, aix - bj2x, ai2x - bjx), d.y[3] = select(a_first, aiy - bj2y, ai2y - bjy);
  d.nx[0] = select(a_first, nix, neg(mjx)), d.ny[0] = select(a_first, niy, neg(mjy));
  d.nx[1] = select(a_first, neg(mjx), nix), d.ny[1] = select(a_first, neg(mjy), niy);
  d.nx[2] = select(a_first, ni2x, neg(mj2x)), d.ny[2] = select(a_first, ni2y, neg(mj2y));
  d.nx[3] = select(a_first, neg(mj2x), ni2x), d.ny[3] = select(a_first, neg(mj2y), ni2y);
  for (int k = 0; k < 4; ++k) d.off[k] = d.nx[k] * d.x[k] + d.ny[k] * d.y[k];
  RayLanes<F> hit = quad_lanes(d, a.r + b.r, zero, zero, rel.dx, rel.dy);
  hit.unsure |= ~(valid & rel.moving & halves & order);
  hit.t = hit.t * h;
  return hit;
}

}  // namespace
}  // namespace pebble::detail::PEBBLE_KERNEL_NS
