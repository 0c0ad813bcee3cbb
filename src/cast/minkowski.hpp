// The Minkowski difference A - B of two cores in A's frame, for src/cast/ray_core.hpp's ray cast (a
// shape cast is a ray cast against the difference grown by both radii [seed-detection §4] [seed-cpa §2]).
// Edges merged by angle ([seed-cpa §1]'s "classic method", whole boundary): both lists start where
// their directions enter the upper half plane, so the merge runs through [0, 2 pi) in O(n + m).
// Directions come from the edge normals, never from vertex differences rounding may have moved. -B
// is B turned half a turn (still counter-clockwise, normals negated). Each vertex remembers its two
// core vertices, so a point on the difference gives the witnesses on A and B.
#pragma once

#include "cast/ray_core.hpp"
#include "pebble/shape.hpp"

namespace pebble::cast_core {

/// Most vertices (and edges) a difference of two cores can have.
inline constexpr int kMaxDifferenceVertices = 2 * kMaxPolygonVertices;

/// A - B in A's frame: vertices a_i - b_j (`ia`, `ib` name i and j), counter-clockwise, with
/// their edge planes as lanes (the layout PolygonLanes reads). 1 vertex when both cores are
/// points, 2 for a segment (edge 0 from v[0] to v[1], edge 1 back), else a convex polygon.
struct Difference {
  int count = 0;
  Vec2 v[kMaxDifferenceVertices + 1];  // v[count] repeats v[0]
  float nx[kMaxDifferenceVertices], ny[kMaxDifferenceVertices], off[kMaxDifferenceVertices];
  signed char ia[kMaxDifferenceVertices], ib[kMaxDifferenceVertices];

  PolygonLanes lanes() const { return {v, nx, ny, off, count, true}; }  // no sliver flag: always checked

  /// The core points of A and B (A's frame) whose difference is the point at s in [0, 1] along edge
  /// k: both vary linearly, as one (or both, for merged parallel edges) walks its own edge.
  void witnesses(int k, float s, const Vec2* a, const Vec2* b, Vec2& on_a, Vec2& on_b) const {
    const int next = k + 1 == count ? 0 : k + 1;
    on_a = lerp(a[ia[k]], a[ia[next]], s);
    on_b = lerp(b[ib[k]], b[ib[next]], s);
  }
};

/// 0 for a direction in the upper half plane (angles [0, pi)), 1 for the lower ([pi, 2 pi)).
inline int half_turn(Vec2 e) { return e.y < 0 || (e.y == 0 && e.x < 0) ? 1 : 0; }

/// Edge i's direction from its outward normal (turned by +90 degrees): a short edge far from A's
/// origin can have its vertices rounded into another direction or one point; its normal stays true.
inline Vec2 edge_direction(const float* nx, const float* ny, int i) { return {-ny[i], nx[i]}; }

/// The vertex whose outgoing edge is first in angle order [0, 2 pi) (directions pass from the lower
/// half plane to the upper). `sign` -1 reads -B's edges. 0 for a point.
inline int first_vertex(const float* nx, const float* ny, int edges, float sign) {
  for (int i = 0; i < edges; ++i) {
    const int prev = i == 0 ? edges - 1 : i - 1;
    if (half_turn(sign * edge_direction(nx, ny, prev)) == 1 && half_turn(sign * edge_direction(nx, ny, i)) == 0)
      return i;
  }
  return 0;
}

/// A - B for core a (va, na, normals na_x/na_y) and core b in A's frame (vb, nb, unit normals nbx/nby).
inline void build_difference(const Vec2* va, const float* nax, const float* nay, int na, const Vec2* vb,
                             const float* nbx, const float* nby, int nb, Difference& out) {
  const int edges_a = na == 1 ? 0 : na, edges_b = nb == 1 ? 0 : nb;
  // -B's edge j runs from -b_j to -b_{j+1} in B's order: its first edge starts at -b_j (sign -1).
  int i = first_vertex(nax, nay, edges_a, 1), j = first_vertex(nbx, nby, edges_b, -1);
  int taken_a = 0, taken_b = 0, k = 0;
  // At most edges_a + edges_b steps; each takes one edge of A, of -B, or one of each.
  while (k < kMaxDifferenceVertices && (taken_a < edges_a || taken_b < edges_b)) {
    const int i_next = i + 1 == na ? 0 : i + 1, j_next = j + 1 == nb ? 0 : j + 1;
    bool take_a = taken_b == edges_b, take_b = taken_a == edges_a;
    if (!take_a && !take_b) {
      // The edge of smaller angle in [0, 2 pi) first; exactly parallel edges together.
      const Vec2 ea = edge_direction(nax, nay, i), eb = -edge_direction(nbx, nby, j);
      const int ha = half_turn(ea), hb = half_turn(eb);
      const float cr = cross(ea, eb);
      take_a = ha < hb || (ha == hb && cr >= 0);
      take_b = hb < ha || (ha == hb && cr <= 0);
    }
    out.v[k] = va[i] - vb[j];
    out.ia[k] = static_cast<signed char>(i);
    out.ib[k] = static_cast<signed char>(j);
    const Vec2 n = take_a ? Vec2{nax[i], nay[i]} : Vec2{-nbx[j], -nby[j]};
    out.nx[k] = n.x;
    out.ny[k] = n.y;
    out.off[k] = dot(n, out.v[k]);
    ++k;
    if (take_a) {
      i = i_next;
      ++taken_a;
    }
    if (take_b) {
      j = j_next;
      ++taken_b;
    }
  }
  if (k == 0) {  // two points
    out.v[0] = va[0] - vb[0];
    out.ia[0] = 0;
    out.ib[0] = 0;
    k = 1;
  }
  out.count = k;
  out.v[k] = out.v[0];
  if (k == 2) out.off[1] = -out.off[0];  // one line for both sides (see cast_capsule)
}

}  // namespace pebble::cast_core
