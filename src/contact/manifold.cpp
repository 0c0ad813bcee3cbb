// collide(): contact manifolds for any pair of rounded convex shapes, one generic path [seed-rounded §6],
// and the circle and point fast paths. The axis search and closest features are contact/core.hpp's,
// shared with distance() so that the two never disagree. Departures from the seed (docs/contacts.md):
//  - the closest points of the whole reference and incident edges, not one vertex pair (step 5), so
//    no closer pair is missed and a corner-to-corner contact reports the true distance;
//  - no NaN for parallel edges or coincident circle centres: clipping works on projections along
//    the reference edge, and coincident points get a fixed normal;
//  - aligned edges closer than the margin give two points: a corner in line with the reference
//    edge's end counts as on the edge.
// Compiled once per kernel copy (simd/config.hpp); flipped() and collide_generic() with the base only.
#include "simd/config.hpp"

#if PEBBLE_KERNEL_ENABLED
PEBBLE_KERNEL_TARGET_BEGIN
#include "contact/core.hpp"
#include "positions.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {
namespace {

constexpr uint32_t pack_id(uint32_t feature_a, uint32_t feature_b) { return (feature_a & 0xffffu) | (feature_b << 16); }

Manifold empty_manifold() {
  Manifold m{};
  m.normal = {0, 0};
  m.count = 0;
  return m;
}

/// collide()'s input check, made only where a contact is about to be reported: every other exit
/// returns the empty manifold bad input gets anyway, and the geometry before it is harmless on bad
/// input (lanes and edges are chosen by comparing numbers; a separation that is NaN ends the query).
bool valid_input(const Transform& xa, const Transform& xb, float margin) {
  return valid_pair(xa, xb) & std::isfinite(margin);
}

/// Moves a manifold built in `frame`'s coordinates to world, in place (docs/contacts.md, Speed).
void to_world(Manifold& m, const Transform& frame) {
  m.normal = rotate(frame.q, m.normal);
  for (int i = 0; i < m.count; ++i) m.points[i].point = transform_point(frame, PEBBLE_LOCAL(m.points[i].point));
}

/// One contact midway between the surfaces along the cores' closest-point direction; d reads
/// from A to B (ca, cb: the cores it was measured on, for the witness of overlapping cores).
Manifold single_point(CoreDistance d, const FramedCore& ca, const FramedCore& cb, float ra, float rb, float separation,
                      uint32_t id) {
  if (d.overlapping) add_overlap_witness(d, ca, cb);
  Manifold m = empty_manifold();
  const Vec2 on_a = d.point_a + ra * d.normal;
  const Vec2 on_b = d.point_b - rb * d.normal;
  m.normal = d.normal;
  m.count = 1;
  m.points[0] = {0.5f * (on_a + on_b), separation, id};
  return m;
}

/// A reference edge's start, unit direction and length.
struct EdgeFrame {
  Vec2 r1, r2, t;
  float len;
};

EdgeFrame edge_frame(const FramedCore& ref, int edge, Vec2 normal) {
  EdgeFrame e{};
  edge_points(ref, edge, e.r1, e.r2);
  // A counter-clockwise edge runs along its outward normal turned by +90 degrees.
  e.t = left_perp(normal);
  e.len = dot(e.r2 - e.r1, e.t);
  return e;
}

/// c ? a : b without a branch (compilers branch on `?:` of floats, which mispredicts where c is
/// random from call to call, as which end is deeper is). Bitwise: the same bits in every copy.
PEBBLE_HOT_INLINE float select(bool c, float a, float b) {
  const uint32_t mask = 0u - uint32_t(c);
  return std::bit_cast<float>((std::bit_cast<uint32_t>(a) & mask) | (std::bit_cast<uint32_t>(b) & ~mask));
}

/// The incident edge in the reference edge's coordinates (collide_generic_body): positions u
/// along the reference edge from its start, heights h above its core edge. A point (u, h) is
/// r1 + u t + h n; scalars only, so that clipping keeps few values live.
struct IncidentEdge {
  float u1, h1, u2, h2;    // the core ends
  float shift_u, shift_h;  // core edge to outer edge: r_inc times the incident edge's normal
  float r;                 // r_inc
  bool first_deeper;       // end 1 is the deeper end w (the incident core's supporting vertex along -n)
};

/// A point of the incident surface over the reference edge, in those coordinates.
struct ClipPoint {
  bool valid;
  float u, h;
};

/// The lower crossing of a corner circle (radius r, lowest point at (u_c, h_c - r)) with the
/// side plane u = plane. Out of line: rare (a rounded corner hanging over a side plane).
[[gnu::noinline]] ClipPoint arc_on_plane(float u_c, float h_c, float r, float plane) {
  const float along = plane - u_c;
  return {true, plane, h_c - std::sqrt(std::max(r * r - along * along, 0.0f))};
}

/// The incident surface's lowest point on the side plane u = plane: on w's corner circle where
/// the circle crosses the plane (between w's lowest point and the outer edge's end), else on the
/// outer edge; invalid when neither reaches the plane.
template <bool kRounded>
PEBBLE_HOT_INLINE ClipPoint on_side_plane(const IncidentEdge& ie, float plane) {
  const bool f = ie.first_deeper;
  const float uw = select(f, ie.u1, ie.u2), uo = select(f, ie.u2, ie.u1), hw = select(f, ie.h1, ie.h2),
              ho = select(f, ie.h2, ie.h1);
  const float outer_w = uw + ie.shift_u, outer_o = uo + ie.shift_u;
  if (kRounded && (plane - uw) * (plane - outer_w) <= 0) return arc_on_plane(uw, hw, ie.r, plane);
  if ((plane - outer_w) * (plane - outer_o) > 0) return {false, plane, 0};
  const float lambda = outer_o != outer_w ? (plane - outer_w) / (outer_o - outer_w) : 0.0f;
  return {true, plane, hw + ie.shift_h + lambda * (ho - hw)};
}

/// The incident surface's point for an end of the incident edge (core vertex (u, h)): the deeper
/// end's corner-circle bottom (u, h - r), the surface's deepest point; the other end's outer-edge
/// end (its corner circle's bottom lies inside the shape when the edge is tilted); either while over
/// the reference edge (len, eps of slack), else on_side_plane(). kRounded: r_inc > 0.
template <bool kRounded>
PEBBLE_HOT_INLINE ClipPoint end_point(const IncidentEdge& ie, float u, float h, bool deeper, float len, float eps) {
  const float at = kRounded ? u + select(deeper, 0.0f, ie.shift_u) : u;
  if (at < -eps || at > len + eps) return on_side_plane<kRounded>(ie, at < -eps ? 0.0f : len);
  return {true, at, kRounded ? h + select(deeper, -ie.r, ie.shift_h) : h};
}

/// The clipped points of the incident surface (end_point), within the margin, into m (frame
/// coordinates, reference normal n), each midway between the surfaces: half its separation below
/// the incident surface. Both ends at one place (a corner on a side plane, or both ends on the
/// same plane), or named alike: the deeper end's only.
template <bool kRounded>
PEBBLE_HOT_INLINE void clip_points(const IncidentEdge& ie, const EdgeFrame& e, Vec2 n, float r_ref, float margin,
                                   float eps, const uint32_t (&id)[2], Manifold& m) {
  ClipPoint cp[2] = {end_point<kRounded>(ie, ie.u1, ie.h1, ie.first_deeper, e.len, eps),
                     end_point<kRounded>(ie, ie.u2, ie.h2, !ie.first_deeper, e.len, eps)};
  if (cp[0].valid && cp[1].valid && (std::fabs(cp[0].u - cp[1].u) <= eps || id[0] == id[1]))
    cp[ie.first_deeper ? 1 : 0].valid = false;
  for (int k = 0; k < 2; ++k) {
    const float separation = cp[k].h - r_ref;
    if (!cp[k].valid || separation > margin) continue;
    m.points[m.count++] = {e.r1 + cp[k].u * e.t + (0.5f * (cp[k].h + r_ref)) * n, separation, id[k]};
  }
}

/// Adds the incident edge's far end (cp) to a one-point corner manifold m (frame coordinates, normal
/// A to B) when it lies over the reference edge, its separation measured along m's normal back to
/// the reference outer edge so that p -/+ s/2 n stay on the surfaces. Both points take a clipped
/// face contact's ids (corner_id, far_id) even when the far one is beyond the margin, so ids depend
/// neither on the margin nor on the corner moving back over the edge. `first`: far end first.
void add_far_end(Manifold& m, ClipPoint cp, const EdgeFrame& e, Vec2 n, bool flip, bool first, float r_ref,
                 float margin, float eps, uint32_t corner_id, uint32_t far_id) {
  const Vec2 along = flip ? -m.normal : m.normal;  // from the reference core to the incident core
  const float cosine = dot(along, n);
  if (!cp.valid || !(cosine > 0.5f) || far_id == corner_id) return;
  const float separation = (cp.h - r_ref) / cosine;
  const float foot = cp.u - separation * dot(along, e.t);  // where it meets the reference edge
  if (!(foot >= -eps && foot <= e.len + eps)) return;
  m.points[0].id = corner_id;
  if (separation > margin) return;
  const Vec2 on_inc = e.r1 + cp.u * e.t + cp.h * n;
  m.points[m.count++] = {on_inc - 0.5f * separation * along, separation, far_id};
  if (first) std::swap(m.points[0], m.points[1]);
}

}  // namespace

/// The manifold of cores ca, cb (A's frame) once their distance d is known (generic and capsules).
PEBBLE_HOT_INLINE Manifold manifold_from_cores(const FramedCore& ca, const FramedCore& cb, const CoreDistance& d,
                                               float scale, const Transform& xa, const Transform& xb, float margin) {
  const float ra = ca.radius, rb = cb.radius;
  if (d.query.ref_edge == -2) return empty_manifold();
  const float signed_distance = d.distance - ra - rb;  // exactly as distance() computes it
  if (!(signed_distance <= margin)) return empty_manifold();
  if (!valid_input(xa, xb, margin)) return empty_manifold();

  const CoreQuery& q = d.query;
  Manifold m = empty_manifold();
  if (q.ref_edge < 0) {  // two points
    m = single_point(d, ca, cb, ra, rb, signed_distance, 0);
    to_world(m, xa);
    return m;
  }

  const FramedCore& ref = q.flip ? cb : ca;
  const FramedCore& inc = q.flip ? ca : cb;
  const float r_ref = ref.radius, r_inc = inc.radius;
  const Vec2 n = q.normal;  // from the reference core to the incident core
  const EdgeFrame e = edge_frame(ref, q.ref_edge, n);
  const float eps = kClipFraction * scale;
  Vec2 i1, i2;
  edge_points(inc, q.inc_edge, i1, i2);
  const float u[2] = {dot(i1 - e.r1, e.t), dot(i2 - e.r1, e.t)};
  // A's feature in the low half, B's in the high: swapped by a rotation when B is the reference (a
  // branch on flip, random from call to call, would mispredict).
  const int ref_rotation = q.flip ? 16 : 0;
  auto pack = [=](uint32_t f_ref, uint32_t f_inc) { return std::rotl(pack_id(f_ref, f_inc), ref_rotation); };

  // The incident edge in the reference edge's coordinates; its deeper end is i1 on ties.
  const Vec2 shift = r_inc * inc.normal(q.inc_edge);
  IncidentEdge ie;
  ie.u1 = u[0];
  ie.u2 = u[1];
  ie.h1 = dot(i1 - e.r1, n);
  ie.h2 = dot(i2 - e.r1, n);
  ie.shift_u = dot(shift, e.t);
  ie.shift_h = dot(shift, n);
  ie.r = r_inc;
  ie.first_deeper = ie.h1 <= ie.h2;
  // Each end is named by the vertex pair bounding the contact on its side (as Box2D v3's
  // b2ClipPolygons does): the incident vertex there and the reference vertex it faces (end k faces
  // reference end 1 - k). The pair does not depend on which core is the reference (a landing body
  // that tilts keeps its ids) nor on the clip.
  const float len = e.len;
  const auto end_id = [&](int k) {
    return pack(uint32_t(edge_end_index(ref, q.ref_edge, 1 - k)), uint32_t(edge_end_index(inc, q.inc_edge, k)));
  };

  // Cores apart whose closest points are two vertices, the incident one clearly past the reference
  // edge's end: corner against corner ([seed-rounded §6], step 5), one point on the line between the
  // vertices. If the incident edge's other end still lies over the reference edge, it is a second
  // point along the same direction, so a stack keeps two supports however its corners line up.
  const SegmentClosest& c = d.closest;
  const bool vertex_pair = !d.overlapping && (c.s == 0 || c.s == 1) && (c.t == 0 || c.t == 1);
  const int closest_end = c.t == 0 ? 0 : 1;
  if (inc.count == 1 || (vertex_pair && (u[closest_end] < -eps || u[closest_end] > len + eps))) {
    // A circle or point has one contact, id 0 whatever features touch (a ball rolling over a corner
    // keeps its warm start); a corner pair takes the id its end gets in the face contact it becomes.
    m = single_point(d, ca, cb, ra, rb, signed_distance, inc.count == 1 ? 0u : end_id(closest_end));
    if (inc.count > 1) {
      const int far = 1 - closest_end;
      const ClipPoint cp = far == 0 ? end_point<true>(ie, ie.u1, ie.h1, ie.first_deeper, len, eps)
                                    : end_point<true>(ie, ie.u2, ie.h2, !ie.first_deeper, len, eps);
      add_far_end(m, cp, e, n, q.flip, far == 0, r_ref, margin, eps, end_id(closest_end), end_id(far));
    }
    to_world(m, xa);
    return m;
  }

  // Otherwise clip the incident OUTER edge (core edge moved out by r_inc) to the reference edge's
  // side planes ([seed-rounded §5]): each point lies on the incident surface, its separation its
  // height above the reference outer edge (docs/contacts.md, "The manifold").
  m.normal = q.flip ? -n : n;
  const uint32_t id[2] = {end_id(0), end_id(1)};
  if (r_inc > 0) {
    clip_points<true>(ie, e, n, r_ref, margin, eps, id, m);
  } else {
    clip_points<false>(ie, e, n, r_ref, margin, eps, id, m);
  }
  // Float noise clipped away the contact the distance says exists: report the witness.
  if (m.count == 0) m = single_point(d, ca, cb, ra, rb, signed_distance, end_id(ie.first_deeper ? 0 : 1));
  to_world(m, xa);
  return m;
}

Manifold collide_generic_far(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                             float margin) noexcept;

// far: stop_above is already far_stop_bound() (else a stop short of it runs again with it).
PEBBLE_HOT_INLINE Manifold collide_generic_at(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                                              float margin, float stop_above, bool far) noexcept {
  CoreStorage sb;
  const FramedCore ca = view_core(a);
  const FramedCore cb = frame_core(b, inv_mul(xa, xb), sb);
  const float scale = pair_scale(a, b);
  const CoreDistance d = core_distance(ca, cb, scale, stop_above);
  if (!far && d.query.ref_edge == -2 && stopped_short(d.query.separation, margin, a, xa, b, xb)) [[unlikely]] {
    return collide_generic_far(a, xa, b, xb, margin);
  }
  return manifold_from_cores(ca, cb, d, scale, xa, xb, margin);
}

[[gnu::noinline]] Manifold collide_generic_far(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                                               float margin) noexcept {
  return collide_generic_at(a, xa, b, xb, margin, far_stop_bound(margin, a, xa, b, xb), true);
}

PEBBLE_HOT_INLINE Manifold collide_generic_body(const Shape& a, const Transform& xa, const Shape& b,
                                                const Transform& xb, float margin) noexcept {
  return collide_generic_at(a, xa, b, xb, margin, stop_bound(margin, a, b), false);
}

// Two capsules or segments: the generic algorithm with the axis search for two edges each
// (query_segments, the same bits); out of line, for the pairs the dedicated path leaves to it.
[[gnu::noinline]] Manifold collide_segments_general(const Shape& a, const Transform& xa, const Shape& b,
                                                    const Transform& xb, float margin) noexcept {
  CoreStorage sb;
  const FramedCore ca = view_core(a);
  const FramedCore cb = frame_segment(b, inv_mul(xa, xb), sb);
  const float scale = pair_scale(a, b);
  CoreQuery q = query_segments(ca, cb, scale, stop_bound(margin, a, b));
  if (q.ref_edge == -2 && stopped_short(q.separation, margin, a, xa, b, xb)) [[unlikely]] {
    q = query_segments(ca, cb, scale, far_stop_bound(margin, a, xa, b, xb));
  }
  if (q.ref_edge == -2) return empty_manifold();
  return manifold_from_cores(ca, cb, closest_features(ca, cb, q, scale), scale, xa, xb, margin);
}

// The dedicated segment-segment path (Box2D v3's b2CollideCapsules shows two segments need none of
// a polygon's machinery): query_segments' four axes with the same float operations, then the common
// case in scalars: cores apart and the incident segment's nearer end over the inside of the
// reference segment (closest_features_on's face contact), with the other end's clipped point when
// within the margin. Every other pair goes to collide_segments_general. Same bytes as
// collide_generic (tests/simd_test.cpp), without the store-forwarding stalls of the general path's
// CoreQuery and CoreDistance (stored a byte at a time, read back whole).
PEBBLE_HOT_INLINE Manifold collide_capsules_body(const Shape& a, const Transform& xa, const Shape& b,
                                                 const Transform& xb, float margin) noexcept {
  // One manifold returned from every exit, built in the caller's result: a local copied out is read
  // back 16 bytes at a time from field-wise stores, a store-forwarding stall.
  Manifold m = empty_manifold();
  // B's core in A's frame, as frame_segment() moves it (the same roundings).
  const Transform xf = inv_mul(xa, xb);
  const float c = xf.q.c, sn = xf.q.s, px = float(xf.p.x), py = float(xf.p.y);
  const Vec2* av = a.padded_vertices();
  const Vec2* bs = b.padded_vertices();
  const float* anx = a.normal_lanes_x();
  const float* any = a.normal_lanes_y();
  const float* aoff = a.offset_lanes();
  const Vec2 bv[3] = {{(c * bs[0].x + (-sn) * bs[0].y) + px, (c * bs[0].y + sn * bs[0].x) + py},
                      {(c * bs[1].x + (-sn) * bs[1].y) + px, (c * bs[1].y + sn * bs[1].x) + py},
                      {(c * bs[0].x + (-sn) * bs[0].y) + px, (c * bs[0].y + sn * bs[0].x) + py}};
  float bnx[2], bny[2], boff[2];
  for (int i = 0; i < 2; ++i) {
    const float lx = b.normal_lanes_x()[i], ly = b.normal_lanes_y()[i];
    bnx[i] = c * lx - sn * ly;
    bny[i] = sn * lx + c * ly;
    boff[i] = b.offset_lanes()[i] + (bnx[i] * px + bny[i] * py);
  }
  // query_segments(): each side's two axes (the least projection of the other's two vertices,
  // less the offset), the greater of each pair and its lane.
  const auto lane = [](float nx, float ny, float off, Vec2 v0, Vec2 v1) {
    const float p0 = nx * v0.x + ny * v0.y, p1 = nx * v1.x + ny * v1.y;
    return (p0 < p1 ? p0 : p1) - off;
  };
  const float a0 = lane(anx[0], any[0], aoff[0], bv[0], bv[1]), a1 = lane(anx[1], any[1], aoff[1], bv[0], bv[1]);
  const float b0 = lane(bnx[0], bny[0], boff[0], av[0], av[1]), b1 = lane(bnx[1], bny[1], boff[1], av[0], av[1]);
  const float sa = a0 > a1 ? a0 : a1, sb = b0 > b1 ? b0 : b1;
  const float stop_above = stop_bound(margin, a, b);
  if ((sa > stop_above || sb > stop_above) && !stopped_short(std::max(sa, sb), margin, a, xa, b, xb)) return m;
  const float scale = pair_scale(a, b);
  const float separation = std::max(sa, sb);
  // Apart by at least 0 on the greatest axis, and numbers (NaN fails the comparison): else the
  // general path (overlapping cores, their depth and witnesses).
  if (!(separation >= 0 && sa > -kHugeDistance && sb > -kHugeDistance)) [[unlikely]] {
    m = collide_segments_general(a, xa, b, xb, margin);
    return m;
  }
  const int ea = a0 == sa ? 0 : 1, eb = b0 == sb ? 0 : 1;
  const bool flip = prefer_b_axes(Vec2{anx[ea], any[ea]}, Vec2{bnx[eb], bny[eb]}, sa, sb, scale);
  // The reference edge (its core's vertices r1, r2 and normal n, from reference to incident) and
  // the incident edge: the incident core's lane most anti-parallel to n, the lower on ties.
  const Vec2* rv = flip ? bv : av;
  const Vec2* iv = flip ? av : bv;
  const float* inx = flip ? anx : bnx;
  const float* iny = flip ? any : bny;
  const int ref_edge = flip ? eb : ea;
  const Vec2 n = flip ? Vec2{bnx[eb], bny[eb]} : Vec2{anx[ea], any[ea]};
  const float d0 = inx[0] * n.x + iny[0] * n.y, d1 = inx[1] * n.x + iny[1] * n.y;
  const int inc_edge = d1 < d0 ? 1 : 0;
  const Vec2 r1 = rv[ref_edge], r2 = rv[ref_edge + 1], i1 = iv[inc_edge], i2 = iv[inc_edge + 1];
  const Vec2 t = left_perp(n);
  const float len = dot(r2 - r1, t);
  const float u1 = dot(i1 - r1, t), u2 = dot(i2 - r1, t);
  const float h1 = dot(i1 - r1, n), h2 = dot(i2 - r1, n);
  const bool first_deeper = h1 <= h2;
  const bool w_is_i1 = dot(n, i1) <= dot(n, i2);
  const float uw = w_is_i1 ? u1 : u2;
  // closest_features_on(): the core distance and its witnesses (cp_a on A's core, cp_b on B's,
  // normal dn from A to B). The face contact: the deeper incident end w over the reference edge's
  // inside; the distance is then the separation itself. Else the closest points of the two
  // segments; for two segments no vertex's other edge can lead closer (vertex_leads_closer()).
  float dist;
  Vec2 dn, cp_a, cp_b;
  bool vertex_pair = false;
  int closest_end = 0;
  if (uw > 0 && uw < len) {
    dist = separation;
    const Vec2 w = w_is_i1 ? i1 : i2, on_ref = w - separation * n;
    dn = flip ? -n : n;
    cp_a = flip ? w : on_ref;
    cp_b = flip ? on_ref : w;
  } else {
    const SegmentClosest cs = closest_segments(r1, r2, i1, i2);
    dist = std::sqrt(cs.dist2);
    const bool inside_ref = cs.s > 0 && cs.s<1, inside_inc = cs.t> 0 && cs.t < 1;
    // Witnesses (nearly) at one place, the incident one inside its edge (clearly_inside()): rare.
    if (!inside_ref && inside_inc && dist <= kWitnessNormalFraction * scale) [[unlikely]] {
      m = collide_segments_general(a, xa, b, xb, margin);
      return m;
    }
    Vec2 cn = n;
    if (!inside_ref && inside_inc) cn = -Vec2{inx[inc_edge], iny[inc_edge]};
    if (!inside_ref && !inside_inc && dist > kWitnessNormalFraction * scale) cn = direction(cs.c2 - cs.c1, dist);
    dn = flip ? -cn : cn;
    cp_a = flip ? cs.c2 : cs.c1;
    cp_b = flip ? cs.c1 : cs.c2;
    vertex_pair = (cs.s == 0 || cs.s == 1) && (cs.t == 0 || cs.t == 1);
    closest_end = cs.t == 0 ? 0 : 1;
  }
  const float ra = a.radius(), rb = b.radius();
  const float signed_distance = dist - ra - rb;  // exactly as distance() computes it
  if (!(signed_distance <= margin)) return m;
  if (!valid_input(xa, xb, margin)) return m;

  // manifold_from_cores()' clip of the incident outer edge against the reference edge's sides.
  const float r_ref = flip ? rb : ra, r_inc = flip ? ra : rb;
  const Vec2 shift = r_inc * Vec2{inx[inc_edge], iny[inc_edge]};
  IncidentEdge ie;
  ie.u1 = u1;
  ie.u2 = u2;
  ie.h1 = h1;
  ie.h2 = h2;
  ie.shift_u = dot(shift, t);
  ie.shift_h = dot(shift, n);
  ie.r = r_inc;
  ie.first_deeper = first_deeper;
  const EdgeFrame e{r1, r2, t, len};
  const float eps = kClipFraction * scale;
  // end_id(): end k of the incident edge faces the reference edge's end 1 - k; vertex index
  // e + end of a 2-vertex core, wrapped to 0 at 2; the reference's in the low half unless flipped.
  const int ref_rotation = flip ? 16 : 0;
  const auto end_id = [&](int k) {
    const int fr = ref_edge + 1 - k, fi = inc_edge + k;
    return std::rotl(pack_id(uint32_t(fr == 2 ? 0 : fr), uint32_t(fi == 2 ? 0 : fi)), ref_rotation);
  };
  // One point midway between the surfaces along the witnesses' normal (single_point()).
  const auto witness = [&](uint32_t point_id) {
    const Vec2 on_a = cp_a + ra * dn, on_b = cp_b - rb * dn;
    m.normal = dn;
    m.count = 1;
    m.points[0] = {0.5f * (on_a + on_b), signed_distance, point_id};
  };
  const float u_closest = closest_end == 0 ? u1 : u2;
  if (vertex_pair && (u_closest < -eps || u_closest > len + eps)) {
    // Corner against corner, the incident one beyond the reference edge's end: one point, and the
    // incident edge's far end when it lies over the reference edge (manifold_from_cores()).
    witness(end_id(closest_end));
    const int far = 1 - closest_end;
    const ClipPoint cp = far == 0 ? end_point<true>(ie, ie.u1, ie.h1, ie.first_deeper, len, eps)
                                  : end_point<true>(ie, ie.u2, ie.h2, !ie.first_deeper, len, eps);
    add_far_end(m, cp, e, n, flip, far == 0, r_ref, margin, eps, end_id(closest_end), end_id(far));
  } else {
    const uint32_t id[2] = {end_id(0), end_id(1)};
    m.normal = flip ? -n : n;
    if (r_inc > 0) {
      clip_points<true>(ie, e, n, r_ref, margin, eps, id, m);
    } else {
      clip_points<false>(ie, e, n, r_ref, margin, eps, id, m);
    }
    // Float noise clipped away the contact the distance says exists: report the witness.
    if (m.count == 0) witness(end_id(first_deeper ? 0 : 1));
  }
  to_world(m, xa);
  return m;
}

// Fast paths for a circle or point against anything: one contact at most, from the point's distance
// to the other core (tested against collide_generic). Separate entry points, so that each pays only
// for its own registers and stack frame.

PEBBLE_HOT_INLINE Manifold collide_circles_body(const Shape& a, const Transform& xa, const Shape& b,
                                                const Transform& xb, float margin) noexcept {
  const CirclePair c = circle_pair(a, xa, b, xb);
  if (!(c.distance <= margin)) return empty_manifold();
  if (!valid_input(xa, xb, margin)) return empty_manifold();
  Manifold m = empty_manifold();
  m.normal = c.normal;
  m.count = 1;
  m.points[0] = {PEBBLE_MIDPOINT(c.on_a, c.on_b), c.distance, 0};
  return m;
}

Manifold collide_point_core_far(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                                float margin) noexcept;

// far: as collide_generic_at().
PEBBLE_HOT_INLINE Manifold collide_point_core_at(const Shape& a, const Transform& xa, const Shape& b,
                                                 const Transform& xb, float margin, float stop_above,
                                                 bool far) noexcept {
  const PointPair pp = point_pair(a, xa, b, xb);
  const float scale = pair_scale(a, b);
  const PointToCore r = point_to_core(*pp.core, *pp.q, pp.d, scale, stop_above);
  if (r.stopped) {
    if (!far && stopped_short(r.distance, margin, a, xa, b, xb)) [[unlikely]]
      return collide_point_core_far(a, xa, b, xb, margin);
    return empty_manifold();
  }
  const float signed_distance = r.distance - a.radius() - b.radius();  // exactly as distance() computes it
  if (!(signed_distance <= margin)) return empty_manifold();
  if (!valid_input(xa, xb, margin)) return empty_manifold();
  const Vec2 n = r.normal;  // world, from the core to the point
  Manifold m = empty_manifold();
  m.normal = pp.point_is_a ? -n : n;
  m.count = 1;
  // Midway between the core's surface point and the point's: world - (distance - rc + rp) / 2 * n.
  m.points[0] = {pp.world - 0.5f * (r.distance - pp.core_radius + pp.point_radius) * n, signed_distance,
                 0u};  // one point per pair: id 0 (manifold_from_cores)
  return m;
}

[[gnu::noinline]] Manifold collide_point_core_far(const Shape& a, const Transform& xa, const Shape& b,
                                                  const Transform& xb, float margin) noexcept {
  return collide_point_core_at(a, xa, b, xb, margin, far_stop_bound(margin, a, xa, b, xb), true);
}

PEBBLE_HOT_INLINE Manifold collide_point_core_body(const Shape& a, const Transform& xa, const Shape& b,
                                                   const Transform& xb, float margin) noexcept {
  return collide_point_core_at(a, xa, b, xb, margin, stop_bound(margin, a, b), false);
}

#define PEBBLE_COLLIDE_ENTRY(name)                                                                                 \
  Manifold name(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, float margin) noexcept { \
    const Manifold m = name##_body(a, xa, b, xb, margin);                                                          \
    leave_lanes();                                                                                                 \
    return m;                                                                                                      \
  }
PEBBLE_COLLIDE_ENTRY(collide_generic)
PEBBLE_COLLIDE_ENTRY(collide_capsules)
PEBBLE_COLLIDE_ENTRY(collide_circles)
PEBBLE_COLLIDE_ENTRY(collide_point_core)
#undef PEBBLE_COLLIDE_ENTRY

}  // namespace pebble::detail::PEBBLE_KERNEL_NS
PEBBLE_KERNEL_TARGET_END
#endif  // PEBBLE_KERNEL_ENABLED

#if PEBBLE_KERNEL_COPY == 0
#include "test_hooks.hpp"

namespace pebble {

Manifold Manifold::flipped() const {
  Manifold out = *this;
  out.normal = -normal;
  for (int i = 0; i < count && i < 2; ++i) {
    const uint32_t id = points[i].id;
    out.points[i].id = (id >> 16) | (id << 16);
  }
  return out;
}

namespace detail {

Manifold collide_generic(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                         float margin) noexcept {
  return contact_kernels().collide_generic(a, xa, b, xb, margin);
}

}  // namespace detail
}  // namespace pebble
#endif
