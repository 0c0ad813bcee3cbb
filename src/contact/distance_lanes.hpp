// Internal: distance() in lanes across queries (the batch's two capsules, and a disc against a
// capsule or 4-vertex core): contact/distance.cpp and contact/core.hpp operation for operation, kept
// beside them so a change to one is seen with the other (tests/batch_test.cpp compares the bits).
// Lanes off the common case are unsure; the caller answers them with the single query.
#pragma once

#include "pebble/distance.hpp"
#include "simd/body_lanes.hpp"
#include "tolerances.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

/// distance() of two capsules in lanes: distance_generic() with query_segments() and
/// closest_features_on(), for cores apart by the axes (separation >= 0): the face contact, or
/// closest_segments() with its normal. Unsure: separation below 0 (the overlap depth and corner
/// doubts), crossing segments, a witness within kWitnessNormalFraction, invalid input.
template <class F>
struct DistanceLanes {
  F distance, nx, ny, pax, pay, pbx, pby;
  unsigned unsure;
};

/// One of two 2D points by a mask, and the operations closest_features_on() does on them.
template <class F>
struct P2 {
  F x, y;
};
template <class F, class M>
PEBBLE_HOT_INLINE P2<F> pick(M m, P2<F> a, P2<F> b) {
  return {select(m, a.x, b.x), select(m, a.y, b.y)};
}
template <class F>
PEBBLE_HOT_INLINE P2<F> operator-(P2<F> a, P2<F> b) {
  return {a.x - b.x, a.y - b.y};
}
template <class F>
PEBBLE_HOT_INLINE F dot2(P2<F> a, P2<F> b) {
  return a.x * b.x + a.y * b.y;
}
template <class F>
PEBBLE_HOT_INLINE F cross2(P2<F> a, P2<F> b) {
  return a.x * b.y - a.y * b.x;
}
template <class F>
PEBBLE_HOT_INLINE P2<F> neg2(P2<F> a) {
  return {neg(a.x), neg(a.y)};
}

/// pair_scale() (contact/core.hpp), lane by lane: std::max(std::min(a's extent, b's), kMinPairScale).
template <class F>
PEBBLE_HOT_INLINE F pair_scale_lanes(const BatchBody* const* a, const BatchBody* const* b) {
  const F ea = shape_lanes<F>(a, [](const Shape& sh) { return sh.extent(); });
  const F eb = shape_lanes<F>(b, [](const Shape& sh) { return sh.extent(); });
  const F least = select(eb < ea, eb, ea), floor = F::splat(kMinPairScale);
  return select(least < floor, floor, least);
}

template <class F>
PEBBLE_HOT_INLINE DistanceLanes<F> capsules_distance(const BatchBody* const* ba, const BatchBody* const* bb) {
  const F zero = F::splat(0), one = F::splat(1), huge = F::splat(kHugeDistance);
  const Moving<F> ma = moving_lanes<F>(ba), mb = moving_lanes<F>(bb);
  unsigned unsure = ~bits(valid_transform(ma) & valid_transform(mb));
  const SegmentLanes<F> a = segment_lanes<F>(ba), b = segment_lanes<F>(bb);
  F aoff[4], boff[4];
  shape_columns(
      ba, [](const Shape& sh) { return sh.offset_lanes(); }, aoff);
  shape_columns(
      bb, [](const Shape& sh) { return sh.offset_lanes(); }, boff);
  const F scale = pair_scale_lanes<F>(ba, bb);
  // frame_core(b, inv_mul(xa, xb)).
  const F ex = mb.px - ma.px, ey = mb.py - ma.py;
  const F px = ma.qc * ex + ma.qs * ey, py = neg(ma.qs) * ex + ma.qc * ey;
  const F c = ma.qc * mb.qc + ma.qs * mb.qs, sn = ma.qc * mb.qs - ma.qs * mb.qc;
  const P2<F> A0{a.x0, a.y0}, A1{a.x1, a.y1}, NA0{a.nx0, a.ny0}, NA1{a.nx1, a.ny1};
  const P2<F> B0{(c * b.x0 + neg(sn) * b.y0) + px, (c * b.y0 + sn * b.x0) + py};
  const P2<F> B1{(c * b.x1 + neg(sn) * b.y1) + px, (c * b.y1 + sn * b.x1) + py};
  const P2<F> NB0{c * b.nx0 - sn * b.ny0, sn * b.nx0 + c * b.ny0}, NB1{c * b.nx1 - sn * b.ny1, sn * b.nx1 + c * b.ny1};
  const F boff0 = boff[0] + (NB0.x * px + NB0.y * py), boff1 = boff[1] + (NB1.x * px + NB1.y * py);
  // query_segments(): each core's two planes against the other's two vertices.
  const auto lane = [](P2<F> n, F off, P2<F> v0, P2<F> v1) {
    const F p0 = n.x * v0.x + n.y * v0.y, p1 = n.x * v1.x + n.y * v1.y;
    return select(p0 < p1, p0, p1) - off;
  };
  const F sa0 = lane(NA0, aoff[0], B0, B1), sa1 = lane(NA1, aoff[1], B0, B1);
  const F sb0 = lane(NB0, boff0, A0, A1), sb1 = lane(NB1, boff1, A0, A1);
  const F sa = select(sa0 > sa1, sa0, sa1), sb = select(sb0 > sb1, sb0, sb1);
  unsure |= ~bits((sa > F::splat(-kHugeDistance)) & (sb > F::splat(-kHugeDistance)));
  const auto a_edge1 = sa0 < sa, b_edge1 = sb0 < sb;  // the lower edge holds the maximum when equal
  // prefer_b(), both cores having edges.
  const P2<F> na = pick(a_edge1, NA1, NA0), nb = pick(b_edge1, NB1, NB0);
  // (Not kept for a near tie of nearly parallel faces: the dot not below 0, or the cross beyond
  // kParallelFaceSine; NaN normals give NaN separations, unsure above.)
  const auto not_parallel = (zero <= dot2(na, nb)) | (F::splat(kParallelFaceSine) < abs(cross2(na, nb)));
  const auto use_b = (sb > sa + F::splat(kAxisPreference) * scale) &
                     ((sb > sa + F::splat(kParallelFacePreference) * scale) | not_parallel);
  const F sep = select(sa < sb, sb, sa);
  unsure |= bits(sep < zero);
  // The reference edge (ref_edge of ref) and the incident one (inc_edge of inc).
  const P2<F> n = pick(use_b, nb, na);
  const P2<F> R0 = pick(use_b, B0, A0), R1 = pick(use_b, B1, A1), I0 = pick(use_b, A0, B0), I1 = pick(use_b, A1, B1);
  const P2<F> IN0 = pick(use_b, NA0, NB0), IN1 = pick(use_b, NA1, NB1);
  const auto ref_edge1 = select(use_b, select(b_edge1, one, zero), select(a_edge1, one, zero)) == one;
  const auto inc_edge1 = (IN1.x * n.x + IN1.y * n.y) < (IN0.x * n.x + IN0.y * n.y);
  const P2<F> r1 = pick(ref_edge1, R1, R0), r2 = pick(ref_edge1, R0, R1), i1 = pick(inc_edge1, I1, I0),
              i2 = pick(inc_edge1, I0, I1);
  const P2<F> inc_normal = pick(inc_edge1, IN1, IN0);
  // The face contact: the incident edge's deeper end over the inside of the reference edge.
  const P2<F> t{neg(n.y), n.x};
  const auto w_is_i1 = dot2(n, i1) <= dot2(n, i2);
  const P2<F> w = pick(w_is_i1, i1, i2);
  const F len = dot2(r2 - r1, t), u = dot2(w - r1, t);
  const auto face = (zero < u) & (u < len);
  const P2<F> on_ref{w.x - sep * n.x, w.y - sep * n.y};
  // closest_segments(r1, r2, i1, i2).
  const P2<F> d1 = r2 - r1, d2 = i2 - i1;
  const F aa = dot2(d1, d1), ee = dot2(d2, d2);
  const F o1 = cross2(d1, i1 - r1), o2 = cross2(d1, i2 - r1), o3 = cross2(d2, r1 - i1), o4 = cross2(d2, r2 - i1);
  const unsigned crossing = bits(((o1 < zero) & (zero < o2)) | ((zero < o1) & (o2 < zero))) &
                            bits(((o3 < zero) & (zero < o4)) | ((zero < o3) & (o4 < zero)));
  const F inv_e = select(zero < ee, one / ee, zero), inv_a = select(zero < aa, one / aa, zero);
  const auto clamp01 = [&](F x) { return select(x < zero, zero, select(x > one, one, x)); };
  F bs = zero, bt = zero, best = huge;
  P2<F> c1 = r1, c2 = i1;
  const auto consider = [&](F s, F tt) {
    const P2<F> k1{r1.x + s * d1.x, r1.y + s * d1.y}, k2{i1.x + tt * d2.x, i1.y + tt * d2.y};
    const P2<F> dd = k2 - k1;
    const F d = dd.x * dd.x + dd.y * dd.y;
    const auto better = d < best;
    bs = select(better, s, bs), bt = select(better, tt, bt), best = select(better, d, best);
    c1 = pick(better, k1, c1), c2 = pick(better, k2, c2);
  };
  consider(zero, clamp01(dot2(r1 - i1, d2) * inv_e));
  consider(one, clamp01(dot2(r2 - i1, d2) * inv_e));
  consider(clamp01(dot2(i1 - r1, d1) * inv_a), zero);
  consider(clamp01(dot2(i2 - r1, d1) * inv_a), one);
  const F dist = sqrt_lanes(best);
  const auto off_ref = (bs <= zero) | (one <= bs), in_inc = (zero < bt) & (bt < one),
             off_inc = (bt <= zero) | (one <= bt);
  const F witness = F::splat(kWitnessNormalFraction) * scale;
  const unsigned face_bits = bits(face);
  unsure |= ~face_bits & (crossing | (bits(off_ref & in_inc) & bits(dist <= witness)));
  P2<F> nn = pick(off_ref & in_inc, neg2(inc_normal), n);
  nn = pick(off_ref & off_inc & (dist > witness), P2<F>{(c2.x - c1.x) / dist, (c2.y - c1.y) / dist}, nn);
  // Either answer, flipped back to A to B.
  const P2<F> normal = pick(face, n, nn);
  const P2<F> na_b = pick(use_b, neg2(normal), normal);
  const P2<F> near_ref = pick(face, on_ref, c1), near_inc = pick(face, w, c2);
  const P2<F> pa = pick(use_b, near_inc, near_ref), pb = pick(use_b, near_ref, near_inc);
  const F d = select(face, sep, dist);
  // to_world().
  const P2<F> qa{pa.x + a.r * na_b.x, pa.y + a.r * na_b.y}, qb{pb.x - b.r * na_b.x, pb.y - b.r * na_b.y};
  const F qc = ma.qc, qs = ma.qs;
  return {(d - a.r) - b.r,
          qc * na_b.x - qs * na_b.y,
          qs * na_b.x + qc * na_b.y,
          (qc * qa.x - qs * qa.y) + ma.px,
          (qs * qa.x + qc * qa.y) + ma.py,
          (qc * qb.x - qs * qb.y) + ma.px,
          (qs * qb.x + qc * qb.y) + ma.py,
          unsure};
}

/// distance() of a disc (or point) and a capsule (Core = 2) or 4-vertex core in lanes:
/// distance_point() with point_pair() and point_to_core(): planes in world axes, the greatest
/// separation (lowest edge on ties), then inside (4 vertices only), over the edge, or at its nearer
/// end. Invalid input and NaN separations are unsure.
template <int Core, class F>
PEBBLE_HOT_INLINE DistanceLanes<F> disc_core_distance(const BatchBody* const* disc, const BatchBody* const* core,
                                                      bool disc_is_a) {
  const F zero = F::splat(0);
  const Disc<F> p = gather<F>(disc);
  const Moving<F> mc = moving_lanes<F>(core);
  unsigned unsure = ~bits(valid_transform(p) & valid_transform(mc));
  QuadLanes<F> g;  // the core's first Core vertices, normals and offsets (its own frame)
  F core_r;
  if constexpr (Core == 2) {
    const SegmentLanes<F> sg = segment_lanes<F>(core);
    F off[4];
    shape_columns(
        core, [](const Shape& sh) { return sh.offset_lanes(); }, off);
    g.x[0] = sg.x0, g.y[0] = sg.y0, g.x[1] = sg.x1, g.y[1] = sg.y1, g.nx[0] = sg.nx0, g.ny[0] = sg.ny0,
    g.nx[1] = sg.nx1, g.ny[1] = sg.ny1;
    g.off[0] = off[0], g.off[1] = off[1];
    core_r = sg.r;
  } else {
    g = quad_core_lanes<F>(core, core_r);
  }
  const F scale = disc_is_a ? pair_scale_lanes<F>(disc, core) : pair_scale_lanes<F>(core, disc);
  // point_pair(): the point's vertex in world, and relative to the core's position.
  const F vx = p.qc * p.lx - p.qs * p.ly, vy = p.qs * p.lx + p.qc * p.ly;
  const F wx = vx + p.px, wy = vy + p.py;
  const F dx = (p.px - mc.px) + vx, dy = (p.py - mc.py) + vy;
  // point_axis_lanes(): the turned normals and the separations.
  const F c = mc.qc, s = mc.qs;
  F nx[Core], ny[Core], sp[Core];
  for (int k = 0; k < Core; ++k) {
    nx[k] = c * g.nx[k] - s * g.ny[k], ny[k] = s * g.nx[k] + c * g.ny[k];
    sp[k] = (nx[k] * dx + ny[k] * dy) - g.off[k];
    unsure |= ~bits(sp[k] == sp[k]);
  }
  // first_max_lane(): max(max(s0, s1), max(s2, s3)), each max a > b ? a : b (a segment's lanes 2
  // and 3 are -huge), then the lowest edge holding it.
  const F m01 = select(sp[0] > sp[1], sp[0], sp[1]);
  F sep = m01, edge = select(sp[0] == sep, zero, F::splat(1));
  if constexpr (Core == 4) {
    const F m23 = select(sp[2] > sp[3], sp[2], sp[3]);
    sep = select(m01 > m23, m01, m23);
    edge =
        select(sp[0] == sep, zero, select(sp[1] == sep, F::splat(1), select(sp[2] == sep, F::splat(2), F::splat(3))));
  }
  // Lane values of edge `k` (0..Core-1, as floats) from per-edge arrays.
  const auto pick = [&](F k, const F* v) {
    if constexpr (Core == 2) {
      return select(k == zero, v[0], v[1]);
    } else {
      return pick4(k, v);
    }
  };
  const F next = select(edge == F::splat(float(Core - 1)), zero, edge + F::splat(1));
  const F nex = pick(edge, nx), ney = pick(edge, ny);
  const F along = nex * dy - ney * dx;
  // t = left_perp(the edge's own normal); u along it from the edge's start and from its end.
  const F tx = neg(pick(edge, g.ny)), ty = pick(edge, g.nx);
  const F u_start = along - (tx * pick(edge, g.x) + ty * pick(edge, g.y)),
          u_end = along - (tx * pick(next, g.x) + ty * pick(next, g.y));
  unsure |= ~bits(u_start == u_start);
  const auto over = (zero < u_start) & (u_end < zero);
  const auto at_start = u_start <= zero;  // !(u_start > 0) for numbers
  const F u = select(at_start, u_start, u_end);
  const F dist = sqrt_lanes(sep * sep + u * u);
  const auto radial = dist > F::splat(kWitnessNormalFraction) * scale;
  const F rx = select(radial, (sep * nex + u * neg(ney)) / dist, nex),
          ry = select(radial, (sep * ney + u * nex) / dist, ney);
  F r_distance = select(over, select(sep < zero, zero, sep), dist);
  F ux = select(over, nex, rx), uy = select(over, ney, ry);
  if constexpr (Core == 4) {
    // Inside the core: below every plane and over the greatest separation's edge, widened by the depth.
    const auto inside = (sep < F::splat(-kOverlapFraction) * scale) & (sep < u_start) & (u_end < zero - sep);
    r_distance = select(inside, sep, r_distance), ux = select(inside, nex, ux), uy = select(inside, ney, uy);
  }
  // distance_point_body(): the surface points, the radii, and the direction from A to B.
  const F point_r = p.r;
  const F ocx = wx - (r_distance - core_r) * ux, ocy = wy - (r_distance - core_r) * uy;
  const F opx = wx - point_r * ux, opy = wy - point_r * uy;
  const F ra = disc_is_a ? point_r : core_r, rb = disc_is_a ? core_r : point_r;
  const F d = (r_distance - ra) - rb;
  if (disc_is_a) return {d, neg(ux), neg(uy), opx, opy, ocx, ocy, unsure};
  return {d, ux, uy, ocx, ocy, opx, opy, unsure};
}

}  // namespace
}  // namespace pebble::detail::PEBBLE_KERNEL_NS
