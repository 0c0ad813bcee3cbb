// Brute-force answers for the seed-004 toolbox; see primitives.hpp for the methods.
#include "oracle/primitives.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace oracle::prim {
namespace {

// Every direction spanned by two of the points, and its perpendicular, left unnormalized so
// that the gaps' signs are exact for inputs on a coarse grid (touching must give exactly 0).
std::vector<V> candidate_axes(const std::vector<V>& a, const std::vector<V>& b) {
  std::vector<V> points = a;
  points.insert(points.end(), b.begin(), b.end());
  std::vector<V> axes;
  for (size_t i = 0; i < points.size(); ++i) {
    for (size_t j = i + 1; j < points.size(); ++j) {
      const V d = points[j] - points[i];
      if (d.x == 0 && d.y == 0) continue;
      axes.push_back(d);
      axes.push_back({-d.y, d.x});
    }
  }
  return axes;
}

struct Gap {
  real value;
  V axis;
};

Gap best_gap(const std::vector<V>& a, const std::vector<V>& b) {
  Gap best{-std::numeric_limits<real>::infinity(), {1, 0}};
  for (const V d : candidate_axes(a, b)) {
    real a_lo = std::numeric_limits<real>::infinity(), a_hi = -a_lo, b_lo = a_lo, b_hi = -a_lo;
    for (const V p : a) {
      a_lo = std::min(a_lo, dot(p, d));
      a_hi = std::max(a_hi, dot(p, d));
    }
    for (const V p : b) {
      b_lo = std::min(b_lo, dot(p, d));
      b_hi = std::max(b_hi, dot(p, d));
    }
    // Raw gaps first (exact sign), divided by the axis length only to compare axes.
    const real len = length(d);
    const V u{d.x / len, d.y / len};
    const real forward = b_lo - a_hi, backward = a_lo - b_hi;
    const real value_f = forward == 0 ? 0 : forward / len, value_b = backward == 0 ? 0 : backward / len;
    if (value_f > best.value) best = {value_f, u};
    if (value_b > best.value) best = {value_b, {-u.x, -u.y}};
  }
  // Every point identical: they touch.
  if (best.value == -std::numeric_limits<real>::infinity()) best.value = 0;
  return best;
}

// Ternary search of a unimodal function f on [lo, hi]; returns the argmin.
template <class F>
real ternary_min(F f, real lo, real hi) {
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    const real m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1) <= f(m2))
      hi = m2;
    else
      lo = m1;
  }
  return (lo + hi) / 2;
}

}  // namespace

real length(V v) { return std::sqrt(dot(v, v)); }

real hull_gap(const std::vector<V>& a, const std::vector<V>& b) { return best_gap(a, b).value; }

V hull_gap_axis(const std::vector<V>& a, const std::vector<V>& b) { return best_gap(a, b).axis; }

V nearest_on_segment(V a, V b, V p) {
  const auto at = [&](real t) { return a + t * (b - a); };
  const auto dist2 = [&](real t) {
    const V d = at(t) - p;
    return dot(d, d);
  };
  constexpr int kSamples = 1024;
  int best = 0;
  for (int i = 1; i <= kSamples; ++i)
    if (dist2(real(i) / kSamples) < dist2(real(best) / kSamples)) best = i;
  // The squared distance is convex in t, so the minimum lies within one sample of the best.
  const real lo = std::max<real>(0, real(best - 1) / kSamples), hi = std::min<real>(1, real(best + 1) / kSamples);
  const real t = ternary_min(dist2, lo, hi);
  // The ends are exact candidates too (ternary search only approaches them).
  real best_t = t;
  for (const real end : {lo, hi})
    if (dist2(end) < dist2(best_t)) best_t = end;
  return at(best_t);
}

bool on_segment(V a, V b, V p) {
  if (cross(b - a, p - a) != 0) return false;
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

real distance_to_segment(V a, V b, V p) { return length(nearest_on_segment(a, b, p) - p); }

V nearest_on_boundary(const std::vector<V>& polygon, V p) {
  V best = polygon[0];
  real best_d = length(best - p);
  for (size_t i = 0; i < polygon.size(); ++i) {
    const V q = nearest_on_segment(polygon[i], polygon[(i + 1) % polygon.size()], p);
    const real d = length(q - p);
    if (d < best_d) {
      best = q;
      best_d = d;
    }
  }
  return best;
}

V nearest_on_filled(const std::vector<V>& polygon, V p) {
  if (hull_gap({p}, polygon) <= 0) return p;
  return nearest_on_boundary(polygon, p);
}

bool segment_meets_disc(V a, V b, V center, real radius) {
  const real r2 = radius * radius;
  const V ab = b - a, ac = center - a, bc = center - b;
  if (dot(ac, ac) <= r2 || dot(bc, bc) <= r2) return true;
  if (dot(ab, ab) == 0) return false;  // a point, already tested
  // Between the ends' perpendiculars the distance is |cross| / |ab|; squared and cleared of the
  // division: cross^2 <= r^2 |ab|^2. Exact for grid inputs.
  if (dot(ac, ab) < 0 || dot(bc, ab) > 0) return false;
  const real c = cross(ab, ac);
  return c * c <= r2 * dot(ab, ab);
}

V nearest_on_disc(V center, real radius, V p) {
  const V d = p - center;
  if (dot(d, d) <= radius * radius) return p;
  return nearest_on_circle(center, radius, p);
}

V nearest_on_circle(V center, real radius, V p) {
  const auto at = [&](real angle) { return center + radius * V{std::cos(angle), std::sin(angle)}; };
  const auto dist2 = [&](real angle) {
    const V e = at(angle) - p;
    return dot(e, e);
  };
  constexpr int kSamples = 256;
  const real step = 2 * std::numbers::pi_v<real> / kSamples;
  int best = 0;
  for (int i = 1; i < kSamples; ++i)
    if (dist2(i * step) < dist2(best * step)) best = i;
  return at(ternary_min(dist2, (best - 1) * step, (best + 1) * step));
}

std::vector<V> corners(V lo, V hi) { return {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}}; }

}  // namespace oracle::prim
