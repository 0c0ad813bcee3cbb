// tests/oracle/polygon.cpp — the polygon facts of polygon.hpp, by their definitions.
#include "oracle/polygon.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace oracle::polygon {

namespace {

bool same(F2 a, F2 b) { return a.x == b.x && a.y == b.y; }
V v(F2 p) { return {real(p.x), real(p.y)}; }

}  // namespace

int orient(F2 a, F2 b, F2 c) {
  const real l = (real(b.x) - a.x) * (real(c.y) - a.y), r = (real(b.y) - a.y) * (real(c.x) - a.x);
  const real det = l - r;
  // Each difference and product rounds by at most 2^-64 relative; 1e-17 is far above their sum.
  if (std::fabs(det) > 1e-17L * (std::fabs(l) + std::fabs(r))) return det > 0 ? 1 : -1;
  const exact::Scale s{a.x, a.y, b.x, b.y, c.x, c.y};
  const exact::I2 ia = exact::to_int(s, a), ib = exact::to_int(s, b), ic = exact::to_int(s, c);
  return exact::cross(ib - ia, ic - ia).sign();
}

bool segments_meet(F2 a, F2 b, F2 c, F2 d) {
  if (std::max(a.x, b.x) < std::min(c.x, d.x) || std::max(c.x, d.x) < std::min(a.x, b.x)) return false;
  if (std::max(a.y, b.y) < std::min(c.y, d.y) || std::max(c.y, d.y) < std::min(a.y, b.y)) return false;
  const int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (o1 * o2 > 0 || o3 * o4 > 0) return false;
  if (o1 != 0 || o2 != 0) return true;
  // Collinear, and the boxes overlap (checked above): they share a point.
  return true;
}

std::string why_not_simple(const std::vector<F2>& input) {
  std::vector<F2> p;
  for (const F2 q : input) {
    if (p.empty() || !same(q, p.back())) p.push_back(q);
  }
  while (p.size() > 1 && same(p.back(), p.front())) p.pop_back();
  const std::size_t n = p.size();
  if (n < 3) return "fewer than 3 distinct points";
  bool collinear = true;
  for (std::size_t i = 2; i < n && collinear; ++i) collinear = orient(p[0], p[1], p[i]) == 0;
  if (collinear) return "all points collinear";
  for (std::size_t i = 0; i < n; ++i) {
    const F2 a = p[i], b = p[(i + 1) % n];
    // The next edge: collinear and pointing back means they overlap.
    const F2 c = p[(i + 2) % n];
    if (orient(a, b, c) == 0 && (real(b.x) - a.x) * (real(c.x) - b.x) + (real(b.y) - a.y) * (real(c.y) - b.y) < 0) {
      return "edges " + std::to_string(i) + " and " + std::to_string((i + 1) % n) + " fold back";
    }
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // neighbours across the wrap
      if (segments_meet(a, b, p[j], p[(j + 1) % n])) {
        return "edges " + std::to_string(i) + " and " + std::to_string(j) + " meet";
      }
    }
  }
  return "";
}

real twice_signed_area(const std::vector<F2>& p) {
  real sum = 0;
  const std::size_t n = p.size();
  if (n == 0) return 0;
  const V o = v(p[0]);
  for (std::size_t i = 1; i + 1 < n; ++i) sum += cross(v(p[i]) - o, v(p[i + 1]) - o);
  return sum;
}

Corners corners(const std::vector<F2>& p) {
  const std::size_t n = p.size();
  const int turn = twice_signed_area(p) > 0 ? 1 : -1;
  Corners c;
  for (std::size_t i = 0; i < n; ++i) {
    // Neighbours that are not repeats of this point.
    std::size_t a = (i + n - 1) % n, b = (i + 1) % n;
    while (same(p[a], p[i]) && a != i) a = (a + n - 1) % n;
    while (same(p[b], p[i]) && b != i) b = (b + 1) % n;
    if (same(p[(i + n - 1) % n], p[i])) continue;  // count a repeated point once
    const int o = orient(p[a], p[i], p[b]) * turn;
    if (o > 0) ++c.convex;
    if (o < 0) ++c.reflex;
  }
  return c;
}

int winding_number(const std::vector<F2>& p, V q) {
  int w = 0;
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i) {
    const V a = v(p[i]), b = v(p[(i + 1) % n]);
    const real side = cross(b - a, q - a);
    if (a.y <= q.y) {
      if (b.y > q.y && side > 0) ++w;
    } else if (b.y <= q.y && side < 0) {
      --w;
    }
  }
  return w;
}

real segment_distance(V p, V a, V b) {
  const V e = b - a, w = p - a;
  const real len2 = dot(e, e);
  const real t = len2 > 0 ? std::clamp(dot(w, e) / len2, real(0), real(1)) : 0;
  const V d = p - (a + t * e);
  return std::sqrt(dot(d, d));
}

real boundary_distance(const std::vector<F2>& p, V q) {
  real best = INFINITY;
  for (std::size_t i = 0; i < p.size(); ++i) best = std::min(best, segment_distance(q, v(p[i]), v(p[(i + 1) % p.size()])));
  return best;
}

}  // namespace oracle::polygon
