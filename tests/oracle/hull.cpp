// Brute-force convex hull: test every directed pair of distinct points against every point.
#include "oracle/hull.hpp"

#include <cstddef>

namespace oracle {
namespace {

bool same(V a, V b) { return a.x == b.x && a.y == b.y; }

// c on the closed segment ab, given that it is on the line ab.
bool between(V a, V b, V c) { return dot(c - a, b - a) >= 0 && dot(c - b, a - b) >= 0; }

}  // namespace

std::vector<V> hull(const std::vector<V>& points) {
  std::vector<V> unique;
  for (V p : points) {
    bool seen = false;
    for (V q : unique) seen = seen || same(p, q);
    if (!seen) unique.push_back(p);
  }
  const std::size_t n = unique.size();
  if (n <= 1) return unique;

  // next[i] = j when (i, j) is a hull edge.
  std::vector<int> next(n, -1);
  std::size_t edges = 0;
  bool consistent = true;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      bool edge = true;
      for (std::size_t k = 0; k < n && edge; ++k) {
        const real o = orient(unique[i], unique[j], unique[k]);
        edge = o > 0 || (o == 0 && between(unique[i], unique[j], unique[k]));
      }
      if (!edge) continue;
      if (next[i] != -1) consistent = false;
      next[i] = int(j);
      ++edges;
    }
  }
  if (!consistent || edges < 2) return {};

  // All points on one line: the two extremes are each other's only hull neighbour.
  if (edges == 2) {
    for (std::size_t i = 0; i < n; ++i) {
      if (next[i] != -1) return {unique[i], unique[std::size_t(next[i])]};
    }
  }

  std::vector<V> out;
  std::size_t start = 0;
  while (next[start] == -1) ++start;
  std::size_t at = start;
  do {
    out.push_back(unique[at]);
    if (next[at] == -1 || out.size() > n) return {};
    at = std::size_t(next[at]);
  } while (at != start);
  if (out.size() != edges) return {};
  return out;
}

}  // namespace oracle
