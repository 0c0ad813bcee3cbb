// Brute-force point projection for rounded convex shapes, and the boundary sampler.
#include "oracle/projection.hpp"

#include <cmath>
#include <limits>

#include "oracle/hull.hpp"

namespace oracle {
namespace {

constexpr real kPi = 3.141592653589793238462643383279502884L;

real norm(V v) { return std::sqrt(dot(v, v)); }

}  // namespace

real segment_distance(V a, V b, V p, V* closest) {
  const V e = b - a;
  const real len2 = dot(e, e);
  real t = len2 > 0 ? dot(p - a, e) / len2 : 0;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  const V q = a + t * e;
  if (closest) *closest = q;
  return norm(p - q);
}

Projection project(const RShape& s, V p) {
  const std::vector<V> h = hull(s.core);
  const real r = s.radius;

  if (h.size() >= 3) {
    bool in_hull = true;
    for (size_t i = 0; i < h.size(); ++i) in_hull = in_hull && orient(h[i], h[(i + 1) % h.size()], p) >= 0;
    if (in_hull) {
      real best = std::numeric_limits<real>::infinity(), second = best;
      V n{};
      for (size_t i = 0; i < h.size(); ++i) {
        const V e = h[(i + 1) % h.size()] - h[i];
        const real len = norm(e);
        const real d = orient(h[i], h[(i + 1) % h.size()], p) / len;  // >= 0: depth below edge i
        if (d < best) {
          second = best;
          best = d;
          n = V{e.y / len, -e.x / len};
        } else if (d < second) {
          second = d;
        }
      }
      return {p + (best + r) * n, n, -(best + r), true, second - best};
    }
  }

  // Outside the core hull (or a core of 1 or 2 points): the nearest feature over every core
  // point and every chord between two core points. A chord's normal comes from the side of p
  // (the sign of a cross product), not from p - q, so that it stays exact when p is within
  // rounding of the chord.
  real best = std::numeric_limits<real>::infinity();
  V q{}, n{1, 0};
  for (size_t i = 0; i < s.core.size(); ++i) {
    const V w = p - s.core[i];
    const real d = norm(w);
    if (d < best) {
      best = d;
      q = s.core[i];
      n = d > 0 ? (1 / d) * w : V{1, 0};
    }
    for (size_t j = i + 1; j < s.core.size(); ++j) {
      const V e = s.core[j] - s.core[i];
      const real len2 = dot(e, e);
      if (len2 == 0) continue;
      const real t = dot(w, e) / len2;
      if (t <= 0 || t >= 1) continue;  // the end points are covered as vertices
      const real len = std::sqrt(len2);
      const real c = cross(e, w);  // > 0: p left of the chord
      const real dc = std::fabs(c) / len;
      if (dc < best) {
        best = dc;
        n = c > 0 ? V{-e.y / len, e.x / len} : V{e.y / len, -e.x / len};
        q = p - dc * n;
      }
    }
  }
  if (best == 0 && h.size() >= 2) {
    // p on the core: any normal of the cone at p is right; take the hull edge p is on (for a
    // segment, its right side).
    real on = std::numeric_limits<real>::infinity();
    const size_t edges = h.size() == 2 ? 1 : h.size();
    for (size_t i = 0; i < edges; ++i) {
      const V e = h[(i + 1) % h.size()] - h[i];
      const real len = norm(e);
      const real d = std::fabs(orient(h[i], h[(i + 1) % h.size()], p)) / len;
      if (d < on) {
        on = d;
        n = V{e.y / len, -e.x / len};
      }
    }
  }
  return {q + r * n, n, best - r, best <= r, best};
}

std::vector<V> sample_boundary(const RShape& s, int count) {
  std::vector<V> loop;
  loop.reserve(size_t(count));
  for (int k = 0; k < count; ++k) {
    const real angle = 2 * kPi * real(k) / real(count);
    const V u{std::cos(angle), std::sin(angle)};
    V best = s.core[0];
    for (V c : s.core) {
      if (dot(c, u) > dot(best, u)) best = c;
    }
    const V b = best + s.radius * u;
    if (loop.empty() || b.x != loop.back().x || b.y != loop.back().y) loop.push_back(b);
  }
  return loop;
}

real loop_distance(const std::vector<V>& loop, V p) {
  real best = std::numeric_limits<real>::infinity();
  for (size_t i = 0; i < loop.size(); ++i) {
    const real d = segment_distance(loop[i], loop[(i + 1) % loop.size()], p, nullptr);
    if (d < best) best = d;
  }
  return best;
}

bool loop_contains(const std::vector<V>& loop, V p) {
  bool in = false;
  for (size_t i = 0, j = loop.size() - 1; i < loop.size(); j = i++) {
    const V a = loop[i], b = loop[j];
    if ((a.y > p.y) != (b.y > p.y)) {
      const real x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) in = !in;
    }
  }
  return in;
}

}  // namespace oracle
