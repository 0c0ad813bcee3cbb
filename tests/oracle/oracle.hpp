// tests/oracle — an independent brute-force reference for pebble's tests.
//
// Nothing here includes a pebble header or calls pebble code: shapes are given as plain lists
// of long double points plus a radius, in world coordinates, and every answer is computed in
// long double by the most direct method available (dense sampling, all pairs of features,
// textbook closed forms). Tests convert pebble's inputs into these types and compare.
#pragma once

#include <vector>

namespace oracle {

using real = long double;

struct V {
  real x = 0, y = 0;
};

inline V operator+(V a, V b) { return {a.x + b.x, a.y + b.y}; }
inline V operator-(V a, V b) { return {a.x - b.x, a.y - b.y}; }
inline V operator*(real s, V v) { return {s * v.x, s * v.y}; }
inline real dot(V a, V b) { return a.x * b.x + a.y * b.y; }
inline real cross(V a, V b) { return a.x * b.y - a.y * b.x; }

/// A rounded convex shape: the convex hull of core (any order, any count >= 1) grown by radius.
struct RShape {
  std::vector<V> core;
  real radius = 0;
};

}  // namespace oracle
