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
  for (std::size_t i = 0; i < p.size(); ++i)
    best = std::min(best, segment_distance(q, v(p[i]), v(p[(i + 1) % p.size()])));
  return best;
}

int fewest_convex_pieces(const std::vector<F2>& input, int max_corners) {
  // Counter-clockwise.
  std::vector<F2> p = input;
  if (twice_signed_area(p) < 0) std::reverse(p.begin(), p.end());
  const int n = int(p.size());
  const auto at = [&](int i) { return p[std::size_t((i % n + n) % n)]; };
  for (int i = 0; i < n; ++i) {
    if (same(at(i), at(i + 1)) || orient(at(i - 1), at(i), at(i + 1)) == 0) return -1;
  }
  // chord[i][j]: the segment from i to j is a polygon edge or lies inside the polygon, touching
  // the boundary at its ends only.
  std::vector<std::vector<char>> chord(std::size_t(n), std::vector<char>(std::size_t(n), 0));
  const auto in_cone = [&](int a, int b) {
    const F2 a0 = at(a - 1), pa = at(a), a1 = at(a + 1), pb = at(b);
    if (orient(a0, pa, a1) > 0) return orient(pa, pb, a0) > 0 && orient(pb, pa, a1) > 0;
    return !(orient(pa, pb, a1) >= 0 && orient(pb, pa, a0) >= 0);
  };
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      bool ok = true;
      if (j != i + 1 && !(i == 0 && j == n - 1)) {
        ok = in_cone(i, j) && in_cone(j, i);
        for (int k = 0; k < n && ok; ++k) {
          const int k1 = (k + 1) % n;
          if (k == i || k == j || k1 == i || k1 == j) continue;
          ok = !segments_meet(at(i), at(j), at(k), at(k1));
        }
      }
      chord[std::size_t(i)][std::size_t(j)] = chord[std::size_t(j)][std::size_t(i)] = ok;
    }
  }
  constexpr int kNone = 1 << 20;
  // best[i][j], i < j, (i, j) a chord: the fewest pieces for the polygon i, i + 1, ..., j.
  std::vector<std::vector<int>> best(std::size_t(n), std::vector<int>(std::size_t(n), kNone));
  for (int len = 1; len < n; ++len) {
    for (int i = 0; i + len < n; ++i) {
      const int j = i + len;
      if (!chord[std::size_t(i)][std::size_t(j)]) continue;
      if (len == 1) {
        best[std::size_t(i)][std::size_t(j)] = 0;
        continue;
      }
      // chain[prev][cur][c]: the least sum of best[] over the chain's chords from i to cur, whose
      // last chord is prev -> cur, with c corners so far (i's own corner counted at the end).
      const std::size_t corners = std::size_t(max_corners) + 1;
      std::vector<int> chain(std::size_t(n) * std::size_t(n) * corners, kNone);
      const auto cell = [&](int a, int b, int c) -> int& {
        return chain[(std::size_t(a) * std::size_t(n) + std::size_t(b)) * corners + std::size_t(c)];
      };
      for (int a1 = i + 1; a1 < j; ++a1) {
        const int turn = orient(at(j), at(i), at(a1));  // at i: is it a corner of the piece?
        if (chord[std::size_t(i)][std::size_t(a1)] && turn >= 0 && best[std::size_t(i)][std::size_t(a1)] < kNone) {
          cell(i, a1, turn > 0 ? 1 : 0) = best[std::size_t(i)][std::size_t(a1)];
        }
      }
      int answer = kNone;
      for (int cur = i + 1; cur < j; ++cur) {
        for (int prev = i; prev < cur; ++prev) {
          for (int c = 0; c <= max_corners; ++c) {
            const int sum = cell(prev, cur, c);
            if (sum >= kNone) continue;
            for (int nxt = cur + 1; nxt <= j; ++nxt) {
              if (!chord[std::size_t(cur)][std::size_t(nxt)] || best[std::size_t(cur)][std::size_t(nxt)] >= kNone)
                continue;
              const int turn = orient(at(prev), at(cur), at(nxt));
              if (turn < 0) continue;
              const int c2 = c + (turn > 0 ? 1 : 0);
              if (c2 > max_corners) continue;
              const int s2 = sum + best[std::size_t(cur)][std::size_t(nxt)];
              if (nxt == j) {
                // Close the piece: convex at j too.
                const int tj = orient(at(cur), at(j), at(i));
                if (tj < 0) continue;
                if (c2 + (tj > 0 ? 1 : 0) <= max_corners) answer = std::min(answer, s2 + 1);
              } else {
                int& target = cell(cur, nxt, c2);
                target = std::min(target, s2);
              }
            }
          }
        }
      }
      best[std::size_t(i)][std::size_t(j)] = answer;
    }
  }
  return best[0][std::size_t(n - 1)] >= kNone ? -1 : best[0][std::size_t(n - 1)];
}

}  // namespace oracle::polygon
