// Reference signed distance between rounded convex shapes (see distance.hpp).
//
// Facts used (all elementary): the signed distance of two convex sets is the largest, over unit
// directions u, of the gap min_{a,b} u.(b - a); for separated polygons it is attained between a
// pair of boundary features, so the minimum over all pairs of edge (or point) features is exact;
// for overlapping polygons it is minus the distance from the origin to the boundary of the
// Minkowski difference A - B, whose edge normals are the edge normals of A and the negated edge
// normals of B, so the minimum projection overlap over those directions is exact. Radii only
// shift every gap by -(ra + rb).
#include "oracle/distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace oracle {
namespace {

constexpr real kPi = 3.141592653589793238462643383279502884L;
constexpr real kHuge = std::numeric_limits<real>::max();

struct Segment {
  V p, q;
};

// The boundary features of a hull: its edges, or the segment itself, or the point itself.
std::vector<Segment> features(const std::vector<V>& hull) {
  std::vector<Segment> out;
  const size_t n = hull.size();
  if (n == 1) {
    out.push_back({hull[0], hull[0]});
  } else if (n == 2) {
    out.push_back({hull[0], hull[1]});
  } else {
    for (size_t i = 0; i < n; ++i) out.push_back({hull[i], hull[(i + 1) % n]});
  }
  return out;
}

real core_support(const std::vector<V>& hull, V u) {
  real best = -kHuge;
  for (V p : hull) best = std::max(best, dot(p, u));
  return best;
}

real core_least(const std::vector<V>& hull, V u) {
  real best = kHuge;
  for (V p : hull) best = std::min(best, dot(p, u));
  return best;
}

// Gap of the cores along u: min over b of b.u minus max over a of a.u.
real core_gap(const std::vector<V>& ha, const std::vector<V>& hb, V u) {
  return core_least(hb, u) - core_support(ha, u);
}

real point_segment_distance(V p, V a, V b, V& closest) {
  const V d = b - a;
  const real len2 = dot(d, d);
  real t = len2 > 0 ? dot(p - a, d) / len2 : 0;
  t = std::clamp(t, real(0), real(1));
  closest = a + t * d;
  return length(p - closest);
}

// Strictly inside or on the boundary of a CCW hull with at least 3 vertices.
bool inside_hull(const std::vector<V>& hull, V p) {
  const size_t n = hull.size();
  if (n < 3) return false;
  for (size_t i = 0; i < n; ++i) {
    if (cross(hull[(i + 1) % n] - hull[i], p - hull[i]) < 0) return false;
  }
  return true;
}

real angle_between(V a, V b) { return std::atan2(std::fabs(cross(a, b)), dot(a, b)); }

// The support feature of a hull in direction u (vertices within eps of the maximum) as a
// segment (p == q for a vertex).
Segment support_feature(const std::vector<V>& hull, V u, real eps) {
  const real h = core_support(hull, u);
  std::vector<V> near;
  for (V p : hull) {
    if (dot(p, u) >= h - eps) near.push_back(p);
  }
  // Of the near-support vertices take the two extremes along the tangent.
  const V t = left_perp(u);
  V lo = near[0], hi = near[0];
  for (V p : near) {
    if (dot(p, t) < dot(lo, t)) lo = p;
    if (dot(p, t) > dot(hi, t)) hi = p;
  }
  return {lo, hi};
}

// Point of segment s whose tangent coordinate (along t) is tau, clamped to the segment.
V at_tangent(const Segment& s, V t, real tau) {
  const real tp = dot(s.p, t), tq = dot(s.q, t);
  if (std::fabs(tq - tp) <= 0) return s.p;
  const real f = std::clamp((tau - tp) / (tq - tp), real(0), real(1));
  return s.p + f * (s.q - s.p);
}

}  // namespace

real length(V v) { return std::sqrt(dot(v, v)); }

V normalize(V v) {
  const real len = length(v);
  return len > 0 ? V{v.x / len, v.y / len} : V{};
}

std::vector<V> convex_hull(const std::vector<V>& points) {
  std::vector<V> ps = points;
  std::sort(ps.begin(), ps.end(), [](V a, V b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  ps.erase(std::unique(ps.begin(), ps.end(), [](V a, V b) { return a.x == b.x && a.y == b.y; }), ps.end());
  if (ps.size() <= 1) return ps;
  // Andrew's monotone chain with strict turns, so collinear points are dropped.
  std::vector<V> hull(2 * ps.size());
  size_t k = 0;
  for (size_t i = 0; i < ps.size(); ++i) {
    while (k >= 2 && cross(hull[k - 1] - hull[k - 2], ps[i] - hull[k - 2]) <= 0) --k;
    hull[k++] = ps[i];
  }
  for (size_t i = ps.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 1] - hull[k - 2], ps[i] - hull[k - 2]) <= 0) --k;
    hull[k++] = ps[i];
  }
  hull.resize(k - 1);
  if (hull.size() == 2 || hull.size() == 1) {
    // All collinear: the chain returns the two extremes (sorted order gives them).
    return {ps.front(), ps.back()};
  }
  return hull;
}

std::vector<V> edge_normals(const std::vector<V>& hull) {
  std::vector<V> out;
  const size_t n = hull.size();
  if (n == 2) {
    const V d = normalize(hull[1] - hull[0]);
    out.push_back({d.y, -d.x});
    out.push_back({-d.y, d.x});
  } else if (n >= 3) {
    for (size_t i = 0; i < n; ++i) {
      const V d = normalize(hull[(i + 1) % n] - hull[i]);
      out.push_back({d.y, -d.x});
    }
  }
  return out;
}

real support(const RShape& s, V u) { return core_support(s.core, u) + s.radius; }

V support_point(const RShape& s, V u) {
  V best = s.core[0];
  for (V p : s.core) {
    if (dot(p, u) > dot(best, u)) best = p;
  }
  return best + s.radius * u;
}

real separation_along(const RShape& a, const RShape& b, V u) {
  return core_gap(a.core, b.core, u) - a.radius - b.radius;
}

real best_separation_within(const RShape& a, const RShape& b, V u, real max_angle, int samples) {
  const real base = std::atan2(u.y, u.x);
  auto gap = [&](real theta) { return separation_along(a, b, V{std::cos(theta), std::sin(theta)}); };
  const real step = 2 * max_angle / samples;
  real best = -kHuge, best_theta = base;
  for (int i = 0; i <= samples; ++i) {
    const real th = base - max_angle + step * i;
    const real g = gap(th);
    if (g > best) {
      best = g;
      best_theta = th;
    }
  }
  // Golden section in the neighbouring intervals (clamped to the allowed range).
  real lo = std::max(best_theta - step, base - max_angle), hi = std::min(best_theta + step, base + max_angle);
  const real inv_phi = (std::sqrt(5.0L) - 1) / 2;
  for (int it = 0; it < 60; ++it) {
    const real x1 = hi - inv_phi * (hi - lo), x2 = lo + inv_phi * (hi - lo);
    const real f1 = gap(x1), f2 = gap(x2);
    best = std::max({best, f1, f2});
    (f1 < f2 ? lo : hi) = f1 < f2 ? x1 : x2;
  }
  return best;
}

SegmentClosest closest_segments(V p1, V q1, V p2, V q2) {
  // Proper or touching intersection: orientation tests (exact enough in long double for
  // coordinates that came from floats).
  const V d1 = q1 - p1, d2 = q2 - p2;
  const real o1 = cross(d1, p2 - p1), o2 = cross(d1, q2 - p1);
  const real o3 = cross(d2, p1 - p2), o4 = cross(d2, q1 - p2);
  const bool deg1 = dot(d1, d1) == 0, deg2 = dot(d2, d2) == 0;
  if (!deg1 && !deg2 && ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
    const real t = o3 / (o3 - o4);
    const V x = p1 + t * d1;
    return {0, x, x};
  }
  SegmentClosest best{kHuge, {}, {}};
  V c;
  real dist = point_segment_distance(p1, p2, q2, c);
  if (dist < best.distance) best = {dist, p1, c};
  dist = point_segment_distance(q1, p2, q2, c);
  if (dist < best.distance) best = {dist, q1, c};
  dist = point_segment_distance(p2, p1, q1, c);
  if (dist < best.distance) best = {dist, c, p2};
  dist = point_segment_distance(q2, p1, q1, c);
  if (dist < best.distance) best = {dist, c, q2};
  return best;
}

CoreProjection project_to_core(const RShape& s, V p) {
  const std::vector<V> hull = convex_hull(s.core);
  CoreProjection best{kHuge, {}};
  for (const Segment& f : features(hull)) {
    V c;
    const real dist = point_segment_distance(p, f.p, f.q, c);
    if (dist < best.signed_distance) best = {dist, c};
  }
  if (inside_hull(hull, p)) best.signed_distance = -best.signed_distance;
  return best;
}

real signed_distance_to_surface(const RShape& s, V p) { return project_to_core(s, p).signed_distance - s.radius; }

real half_diameter(const RShape& s) {
  real far = 0;
  for (V p : s.core) {
    for (V q : s.core) far = std::max(far, length(q - p));
  }
  return far / 2 + s.radius;
}

DistanceAnswer distance(const RShape& a, const RShape& b, real tie_tolerance, real conditioning) {
  const std::vector<V> ha = convex_hull(a.core), hb = convex_hull(b.core);
  DistanceAnswer out;

  // Do the cores meet? Either two boundary features meet, or one core lies inside the other.
  bool meet = false;
  real least = kHuge;
  V wa{}, wb{};
  for (const Segment& fa : features(ha)) {
    for (const Segment& fb : features(hb)) {
      const SegmentClosest c = closest_segments(fa.p, fa.q, fb.p, fb.q);
      if (c.distance < least) {
        least = c.distance;
        wa = c.on_first;
        wb = c.on_second;
      }
    }
  }
  meet = least == 0 || inside_hull(hb, ha[0]) || inside_hull(ha, hb[0]);

  // Candidate directions of the overlapping case, also used for the tie test.
  std::vector<V> candidates = edge_normals(ha);
  for (V n : edge_normals(hb)) candidates.push_back({-n.x, -n.y});

  real scale = 0;
  for (V p : ha) scale = std::max({scale, std::fabs(p.x), std::fabs(p.y)});
  for (V p : hb) scale = std::max({scale, std::fabs(p.x), std::fabs(p.y)});
  const real eps = 1e-15L * std::max(scale, real(1));

  if (!meet) {
    out.cores_overlap = false;
    out.core_distance = least;
    out.normal = normalize(wb - wa);
    out.core_a = wa;
    out.core_b = wb;
  } else {
    out.cores_overlap = true;
    real best_gap = -kHuge;
    V best_u{0, 1};
    for (V u : candidates) {
      const real g = core_gap(ha, hb, u);
      if (g > best_gap) {
        best_gap = g;
        best_u = u;
      }
    }
    if (candidates.empty()) best_gap = 0;  // two equal points
    out.core_distance = std::min(best_gap, real(0));
    out.normal = best_u;
    // Deepest points along the normal, chosen with the same tangent coordinate so that
    // core_b - core_a is parallel to the normal.
    const Segment sa = support_feature(ha, best_u, eps);
    const Segment sb = support_feature(hb, V{-best_u.x, -best_u.y}, eps);
    const V t = left_perp(best_u);
    const real a_lo = std::min(dot(sa.p, t), dot(sa.q, t)), a_hi = std::max(dot(sa.p, t), dot(sa.q, t));
    const real b_lo = std::min(dot(sb.p, t), dot(sb.q, t)), b_hi = std::max(dot(sb.p, t), dot(sb.q, t));
    const real lo = std::max(a_lo, b_lo), hi = std::min(a_hi, b_hi);
    const real tau = lo <= hi ? (lo + hi) / 2 : (a_hi < b_lo ? (a_hi + b_lo) / 2 : (b_hi + a_lo) / 2);
    out.core_a = at_tangent(sa, t, tau);
    out.core_b = at_tangent(sb, t, tau);
  }

  out.distance = out.core_distance - a.radius - b.radius;
  out.point_a = out.core_a + a.radius * out.normal;
  out.point_b = out.core_b - b.radius * out.normal;

  out.runner_up = -kHuge;
  for (V u : candidates) {
    if (angle_between(u, out.normal) > kDistinctAngle) out.runner_up = std::max(out.runner_up, core_gap(ha, hb, u));
  }
  if (!out.cores_overlap) {
    out.normal_unique = out.core_distance >= conditioning;
  } else {
    out.normal_unique = !candidates.empty() && out.runner_up < out.core_distance - tie_tolerance;
  }
  out.runner_up -= a.radius + b.radius;
  return out;
}

real sampled_core_distance(const RShape& a, const RShape& b, V* normal, int samples) {
  // Work relative to one core point: the gap is translation invariant and this keeps the
  // products small for shapes far from the origin.
  const std::vector<V> ha0 = convex_hull(a.core), hb0 = convex_hull(b.core);
  const V o = ha0[0];
  std::vector<V> ha, hb;
  for (V p : ha0) ha.push_back(p - o);
  for (V p : hb0) hb.push_back(p - o);
  auto gap = [&](real theta) { return core_gap(ha, hb, V{std::cos(theta), std::sin(theta)}); };

  // Brackets [lo, hi] around sampled local maxima, zoomed in by resampling until narrow, then
  // polished by golden-section search. Several brackets are followed at every level so that a
  // second peak close to the first is not lost.
  struct Bracket {
    real lo, hi, value;
  };
  auto local_maxima = [&](real lo, real hi, int n, bool periodic) {
    std::vector<real> th(size_t(n) + 1), val(size_t(n) + 1);
    const real step = (hi - lo) / n;
    for (int i = 0; i <= n; ++i) {
      th[size_t(i)] = lo + step * i;
      val[size_t(i)] = gap(th[size_t(i)]);
    }
    std::vector<Bracket> out;
    const int last = periodic ? n - 1 : n;
    for (int i = 0; i <= last; ++i) {
      const int prev = i == 0 ? (periodic ? n - 1 : 0) : i - 1;
      const int next = i == last ? (periodic ? 0 : last) : i + 1;
      if (val[size_t(i)] >= val[size_t(prev)] && val[size_t(i)] >= val[size_t(next)]) {
        out.push_back({th[size_t(i)] - step, th[size_t(i)] + step, val[size_t(i)]});
      }
    }
    std::sort(out.begin(), out.end(), [](const Bracket& x, const Bracket& y) { return x.value > y.value; });
    if (out.size() > 6) out.resize(6);
    return out;
  };

  std::vector<Bracket> brackets = local_maxima(0, 2 * kPi, samples, true);
  while (!brackets.empty() && brackets[0].hi - brackets[0].lo > 1e-12L) {
    std::vector<Bracket> next;
    for (const Bracket& br : brackets) {
      for (const Bracket& sub : local_maxima(br.lo, br.hi, 32, false)) next.push_back(sub);
    }
    std::sort(next.begin(), next.end(), [](const Bracket& x, const Bracket& y) { return x.value > y.value; });
    if (next.size() > 6) next.resize(6);
    brackets = next;
  }
  real best = -kHuge, best_theta = 0;
  const real inv_phi = (std::sqrt(5.0L) - 1) / 2;
  for (const Bracket& br : brackets) {
    real lo = br.lo, hi = br.hi;
    real x1 = hi - inv_phi * (hi - lo), x2 = lo + inv_phi * (hi - lo);
    real f1 = gap(x1), f2 = gap(x2);
    for (int it = 0; it < 80 && hi - lo > 1e-16L; ++it) {
      if (f1 < f2) {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + inv_phi * (hi - lo);
        f2 = gap(x2);
      } else {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - inv_phi * (hi - lo);
        f1 = gap(x1);
      }
    }
    for (real th : {(lo + hi) / 2, x1, x2}) {
      const real g = gap(th);
      if (g > best) {
        best = g;
        best_theta = th;
      }
    }
    if (br.value > best) {  // the bracket's own sample (kept in case golden section wandered)
      best = br.value;
      best_theta = (br.lo + br.hi) / 2;
    }
  }
  if (normal) *normal = V{std::cos(best_theta), std::sin(best_theta)};
  return best;
}

bool overlap(const RShape& a, const RShape& b) { return distance(a, b).distance <= 0; }

}  // namespace oracle
