// Rounded-shape mass properties by Green's theorem (see mass.hpp for why this method).
//
// For a region R with counter-clockwise boundary ∂R:
//   area       = ½ ∮ (x dy − y dx)
//   ∫ x dA     = ∮ x²/2 dy,          ∫ y dA = −∮ y²/2 dx
//   ∫ x²+y² dA = ∮ (x³/3 dy − y³/3 dx)
// The boundary of hull ⊕ disc is, in order: the edge from v_i to v_{i+1} pushed out by r
// along its outward normal n_i, then the arc of radius r around v_{i+1} from the direction
// n_i to n_{i+1}. Each piece is parametrised and integrated by 16-point Gauss–Legendre, which
// is exact for the cubic integrands of the straight pieces; arcs are split into pieces of at
// most π/8 so the rule is accurate to long double precision on their trigonometric integrands.
#include "oracle/mass.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace oracle {
namespace {

constexpr int kOrder = 16;
constexpr real kPi = 3.141592653589793238462643383279502884L;

struct GaussRule {
  real node[kOrder];
  real weight[kOrder];
};

// Nodes are the roots of the Legendre polynomial P_16, found by Newton's method from the
// Chebyshev-like initial guesses cos(π(i + 3/4)/(n + 1/2)); weights 2/((1−x²)P'(x)²).
GaussRule make_rule() {
  GaussRule rule{};
  for (int i = 0; i < kOrder; ++i) {
    real x = std::cos(kPi * (i + 0.75L) / (kOrder + 0.5L));
    real derivative = 0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      real p0 = 1, p1 = x;
      for (int k = 2; k <= kOrder; ++k) {
        const real p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      derivative = kOrder * (x * p1 - p0) / (x * x - 1);
      const real step = p1 / derivative;
      x -= step;
      if (std::fabs(step) < 1e-19L) break;
    }
    rule.node[i] = x;
    rule.weight[i] = 2 / ((1 - x * x) * derivative * derivative);
  }
  return rule;
}

const GaussRule& rule() {
  static const GaussRule instance = make_rule();
  return instance;
}

// The four boundary integrals accumulated along the boundary.
struct Integrals {
  real area = 0, mx = 0, my = 0, polar = 0;

  // Adds the integrand at a point (x, y) with tangent (dx, dy) and quadrature weight w.
  void add(real w, real x, real y, real dx, real dy) {
    area += w * 0.5L * (x * dy - y * dx);
    mx += w * 0.5L * x * x * dy;
    my -= w * 0.5L * y * y * dx;
    polar += w * (x * x * x * dy - y * y * y * dx) / 3;
  }
};

void integrate_segment(Integrals& sum, V a, V b) {
  const GaussRule& g = rule();
  const V d = b - a;
  for (int k = 0; k < kOrder; ++k) {
    const real t = 0.5L * (g.node[k] + 1);
    const V p = a + t * d;
    sum.add(0.5L * g.weight[k], p.x, p.y, d.x, d.y);
  }
}

void integrate_arc(Integrals& sum, V center, real radius, real from, real sweep) {
  if (radius == 0 || !(sweep > 0)) return;
  const GaussRule& g = rule();
  const int pieces = static_cast<int>(std::ceil(sweep / (kPi / 8)));
  const real h = sweep / pieces;
  for (int piece = 0; piece < pieces; ++piece) {
    const real start = from + piece * h;
    for (int k = 0; k < kOrder; ++k) {
      const real phi = start + 0.5L * h * (g.node[k] + 1);
      const real c = std::cos(phi), s = std::sin(phi);
      sum.add(0.5L * h * g.weight[k], center.x + radius * c, center.y + radius * s, -radius * s, radius * c);
    }
  }
}

V outward_normal(V a, V b) {
  const V d = b - a;
  const real len = std::sqrt(dot(d, d));
  return V{d.y / len, -d.x / len};
}

// Counter-clockwise angle from the normal u of one edge to the normal v of the next. On a
// convex hull it lies in [0, π]; exactly π (a 2-point hull) may come out as −π by the sign of
// a zero cross product, which is folded back.
real turn(V u, V v) {
  real angle = std::atan2(cross(u, v), dot(u, v));
  if (angle < -0.5L * kPi) angle += 2 * kPi;
  return angle;
}

}  // namespace

std::vector<V> gift_wrap_hull(const std::vector<V>& points) {
  std::vector<V> hull;
  if (points.empty()) return hull;
  std::size_t start = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const V p = points[i], s = points[start];
    if (p.y < s.y || (p.y == s.y && p.x < s.x)) start = i;
  }
  V current = points[start];
  hull.push_back(current);
  for (std::size_t guard = 0; guard <= points.size(); ++guard) {
    // The next hull point has every other point on its left (or on the line, nearer).
    bool found = false;
    V next{};
    for (const V& q : points) {
      if (q.x == current.x && q.y == current.y) continue;
      if (!found) {
        next = q;
        found = true;
        continue;
      }
      const real side = cross(next - current, q - current);
      if (side < 0 || (side == 0 && dot(q - current, q - current) > dot(next - current, next - current))) next = q;
    }
    if (!found) break;  // all points equal
    if (next.x == hull[0].x && next.y == hull[0].y) break;
    hull.push_back(next);
    current = next;
  }
  return hull;
}

RMass rounded_mass(const RShape& shape) {
  const std::vector<V> hull_world = gift_wrap_hull(shape.core);
  const std::size_t n = hull_world.size();
  const real r = shape.radius;
  RMass result;
  if (n == 0) return result;

  // Integrate relative to the first hull point, so that a small shape far from the origin
  // keeps its digits.
  const V origin = hull_world[0];
  std::vector<V> hull;
  for (const V& p : hull_world) hull.push_back(p - origin);

  Integrals sum;
  if (n == 1) {
    integrate_arc(sum, hull[0], r, 0, 2 * kPi);
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      const V a = hull[i], b = hull[(i + 1) % n], c = hull[(i + 2) % n];
      const V na = outward_normal(a, b), nb = outward_normal(b, c);
      integrate_segment(sum, a + r * na, b + r * na);
      integrate_arc(sum, b, r, std::atan2(na.y, na.x), turn(na, nb));
    }
  }

  // A point or segment without radius encloses nothing; the boundary integrals would only
  // return rounding noise of either sign.
  if ((n <= 2 && r == 0) || sum.area <= 0) {
    V mean{};
    for (const V& p : hull_world) mean = mean + p;
    result.centroid = (1.0L / static_cast<real>(n)) * mean;
    return result;
  }
  result.area = sum.area;
  const V c{sum.mx / sum.area, sum.my / sum.area};
  result.centroid = origin + c;
  result.inertia = sum.polar - sum.area * dot(c, c);
  return result;
}

std::vector<V> sample_rounded_boundary(const RShape& shape, int edge_samples, real max_arc_step) {
  const std::vector<V> hull = gift_wrap_hull(shape.core);
  const std::size_t n = hull.size();
  const real r = shape.radius;
  std::vector<V> out;
  const auto arc = [&](V center, real from, real sweep) {
    const int steps = std::max(1, static_cast<int>(std::ceil(sweep / max_arc_step)));
    for (int k = 0; k <= steps; ++k) {
      const real phi = from + sweep * k / steps;
      out.push_back(center + r * V{std::cos(phi), std::sin(phi)});
    }
  };
  if (n == 0) return out;
  if (n == 1) {
    arc(hull[0], 0, 2 * kPi);
    return out;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const V a = hull[i], b = hull[(i + 1) % n], c = hull[(i + 2) % n];
    const V na = outward_normal(a, b), nb = outward_normal(b, c);
    const V from = a + r * na, to = b + r * na;
    for (int k = 0; k <= edge_samples; ++k) out.push_back(from + (static_cast<real>(k) / edge_samples) * (to - from));
    if (r > 0) arc(b, std::atan2(na.y, na.x), turn(na, nb));
  }
  return out;
}

}  // namespace oracle
