// Internal: the ray cast of cast/ray_core.hpp in lanes across queries (kept beside it: a change to
// one is a change to the other; the lanes' tests in tests/batch_test.cpp compare them bit for bit), for the batch
// time_to_collision() of a disc against a capsule or a 4-vertex core (shape_cast()'s circle cast)
// and of two capsules (the ray against their Minkowski difference, a parallelogram). Included by
// src/batch/batch.cpp inside its kernel namespace, after its lane types.
//
// Every function here repeats, lane by lane, the float operations of the scalar function it names,
// in the same order, so that a lane gives the scalar answer bit for bit. Branches become selects
// that keep each branch's value; the scalar code's rare branches (a ray starting inside the
// extended polygon, tiny circles, sharp shapes, parallel differences) are not repeated: such lanes
// are reported `unsure`, and the caller answers them with the one-at-a-time query.
#pragma once

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

/// The first touch of a lane's ray: whether it hits, the fraction where (0 when the ray starts
/// inside), and the lanes this code does not decide.
template <class F>
struct RayLanes {
  F t;
  unsigned hit;
  unsigned unsure;
};

/// circle_contact() with unit 1 (cast/ray_core.hpp): the ray from o at fraction t0 along d
/// against the disc of radius r about c, m = o - c. corner: the contact t0 + tau; inside: o is
/// in the disc (contact at t0); tiny: circle_contact() would rescale (unsure).
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
  const unsigned tiny = bits(inside & (mm < F::splat(kTinySquare)) & (r < F::splat(kTinyLength))) & ~bits((mx == zero) & (my == zero));
  const F b = mx * dx + my * dy;
  const F a = dx * dx + dy * dy;
  const F cr = mx * dy - my * dx;
  const F disc = a * r * r - cr * cr;
  const F tau = cc / (sqrt_lanes(disc) - b);
  const F t = t0 + tau;
  // Not inside (zero < cc, false for NaN as the scalar's fall-through gives a miss then too),
  // moving toward the centre, a real root, and within the ray.
  return {select(inside, t0, t), (zero < cc) & (b < zero) & (zero <= disc) & (t <= F::splat(1)), inside, tiny};
}

/// contact_after_entry() (cast/ray_core.hpp): the ray entered the outer edge from core vertex a
/// along e at q, fraction t; (sx, sy) and (fx, fy) are the corners at the edge's start and end.
template <class F>
PEBBLE_HOT_INLINE RayLanes<F> after_entry_lanes(F ax, F ay, F ex, F ey, F qx, F qy, F t, F r, F dx, F dy, F scale, F sx, F sy,
                                                F fx, F fy) {
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
  // An edge of length 0 (a degenerate difference): the scalar takes the entry to its vertex's
  // circle and measures a miss across the edge's normal; such lanes are left to it (unsure).
  const unsigned point_edge = bits(len2 == zero);
  return {select(on_edge, t, select(c.corner, c.t, t)), on | bits(c.inside) | bits(c.corner) | ~far, (c.tiny & ~on) | point_edge};
}

/// cast_capsule() (cast/ray_core.hpp): the ray o + t d against the segment a-b (edge normal n)
/// grown by r.
template <class F>
PEBBLE_HOT_INLINE RayLanes<F> capsule_lanes(F ax, F ay, F bx, F by, F nx, F ny, F r, F ox, F oy, F dx, F dy) {
  const F zero = F::splat(0), one = F::splat(1);
  const F ex = bx - ax, ey = by - ay;
  const unsigned point = bits((ex == zero) & (ey == zero));  // a disc: unsure
  const F h = nx * (ox - ax) + ny * (oy - ay), hd = nx * dx + ny * dy;
  const auto above = h > r, below = h < zero - r;  // (0 - r is -r, as a comparison bound)
  // Outside the slab: the entry through the side facing o. (h - r) / -hd with -hd as 0 - hd and
  // -r - h as (0 - r) - h: both equal the scalar's values wherever the branch is taken (hd < 0,
  // and h < -r so the difference is not zero).
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

/// A convex quadrilateral core in a ray's frame: vertices, unit outward edge normals, offsets
/// (PolygonLanes' layout), edge k from vertex k to vertex k + 1 (mod 4).
template <class F>
struct QuadLanes {
  F x[4], y[4], nx[4], ny[4], off[4];
};

/// cast_polygon() (cast/ray_core.hpp) of a 4-vertex core grown by r > 0, for a ray that enters
/// the extended polygon after its start (clip_planes() with an entry); a ray starting inside it,
/// and r = 0, are unsure.
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

}  // namespace
}  // namespace pebble::detail::PEBBLE_KERNEL_NS
