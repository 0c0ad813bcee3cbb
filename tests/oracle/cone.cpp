// Normal cones of touching shapes (see cone.hpp): the hull of all pairwise core differences, its
// edge normals, and the edges that pass through the touching point.
#include "oracle/cone.hpp"

#include <algorithm>
#include <cmath>

#include "oracle/distance.hpp"

namespace oracle {
namespace {

constexpr real kPi = 3.141592653589793238462643383279502884L;

real angle_between(V a, V b) { return std::atan2(std::fabs(cross(a, b)), dot(a, b)); }

real to_segment(V p, V a, V b, V* closest) {
  const V e = b - a;
  const real len2 = dot(e, e);
  const real t = len2 > 0 ? std::clamp(dot(p - a, e) / len2, real(0), real(1)) : 0;
  const V c = a + t * e;
  if (closest) *closest = c;
  return length(p - c);
}

/// The cone counter-clockwise from unit lo to unit hi (less than a full turn).
NormalCone between(V lo, V hi) {
  real span = std::atan2(cross(lo, hi), dot(lo, hi));
  if (span < 0) span += 2 * kPi;
  const real mid = std::atan2(lo.y, lo.x) + span / 2;
  return {{std::cos(mid), std::sin(mid)}, span / 2};
}

}  // namespace

std::vector<V> core_difference(const RShape& a, const RShape& b) {
  std::vector<V> pts;
  for (V pb : b.core) {
    for (V pa : a.core) pts.push_back(pb - pa);
  }
  return convex_hull(pts);
}

V hull_edge_normal(const std::vector<V>& h, std::size_t k) {
  const V e = h[(k + 1) % h.size()] - h[k];
  return normalize(V{e.y, -e.x});
}

NormalCone touch_normal_cone(const RShape& a, const RShape& b, real corner, V from) {
  const std::vector<V> h = core_difference(a, b);
  const size_t n = h.size();
  if (n == 1) {
    const real d = length(h[0]);
    if (d > corner) return {normalize(h[0]), 0};
    return {{1, 0}, kPi};  // two points on one spot: every direction
  }
  // The nearest boundary point p, and whether the origin is inside the core.
  V p{};
  real best = -1;
  bool inside = n > 2;
  for (size_t k = 0; k < n; ++k) {
    V c;
    const real d = to_segment({0, 0}, h[k], h[(k + 1) % n], &c);
    if (best < 0 || d < best) {
      best = d;
      p = c;
    }
    if (n > 2 && dot(h[k], hull_edge_normal(h, k)) < 0) inside = false;  // origin beyond edge k
  }
  const real grown = a.radius + b.radius;
  if (grown > corner && !inside && best > corner) return {normalize(p), 0};
  if (n == 2) {
    // A segment: at an end, the half plane facing away from the other end; inside, the side the
    // origin came from.
    for (int end = 0; end < 2; ++end) {
      if (length(p - h[end]) <= corner) return {normalize(h[end] - h[1 - end]), kPi / 2};
    }
    const V out = hull_edge_normal(h, 0);
    return {dot(out, from) >= 0 ? V{-out.x, -out.y} : out, 0};
  }
  // The edges passing within corner of p form a run; the cone spans their normals.
  std::vector<bool> near(n);
  size_t count = 0;
  for (size_t k = 0; k < n; ++k) {
    near[k] = to_segment(p, h[k], h[(k + 1) % n], nullptr) <= corner;
    count += near[k];
  }
  if (count == n) return {{1, 0}, kPi};
  size_t first = 0;
  while (!(near[first] && !near[(first + n - 1) % n])) ++first;
  size_t last = first;
  while (near[(last + 1) % n]) last = (last + 1) % n;
  const V lo = hull_edge_normal(h, first), hi = hull_edge_normal(h, last);
  return between(V{-lo.x, -lo.y}, V{-hi.x, -hi.y});
}

real angle_outside(const NormalCone& cone, V u) {
  return std::max(real(0), angle_between(cone.centre, normalize(u)) - cone.half_angle);
}

std::vector<DifferenceVertex> difference_vertices(const RShape& a, const RShape& b) {
  const std::vector<V> h = core_difference(a, b);
  const size_t n = h.size();
  std::vector<DifferenceVertex> out;
  if (n == 1) {
    out.push_back({h[0], {0, 0}, {0, 0}});
    return out;
  }
  for (size_t k = 0; k < n; ++k) out.push_back({h[k], hull_edge_normal(h, (k + n - 1) % n), hull_edge_normal(h, k)});
  return out;
}

}  // namespace oracle
