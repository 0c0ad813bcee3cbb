// Reference answers for casts (see cast.hpp): golden-section search and bisection on convex
// distance tracks; Lipschitz interval subdivision under rotation.
#include "oracle/cast.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "oracle/distance.hpp"

namespace oracle {
namespace {

constexpr real kHuge = std::numeric_limits<real>::max();

// Distance from p to the closed segment ab.
real to_segment(V p, V a, V b) {
  const V e = b - a;
  const real len2 = dot(e, e);
  real t = len2 > 0 ? dot(p - a, e) / len2 : 0;
  t = std::clamp(t, real(0), real(1));
  return length(p - (a + t * e));
}

// Golden-section iterations: 0.618^160 is far below long double precision for any interval.
constexpr int kGoldenSteps = 160;
// Bisection steps: halves [0, t_max] down to 2^-100 of it.
constexpr int kBisectionSteps = 100;

}  // namespace

ConvexTrack::ConvexTrack(std::function<real(real)> f, real t_max) : f_(std::move(f)), t_max_(t_max) {
  const real inv_phi = (std::sqrt(5.0L) - 1) / 2;
  real lo = 0, hi = t_max;
  real x1 = hi - inv_phi * (hi - lo), x2 = lo + inv_phi * (hi - lo);
  real f1 = f_(x1), f2 = f_(x2);
  for (int i = 0; i < kGoldenSteps; ++i) {
    // Ties go left, so a flat stretch yields (close to) its earliest point.
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - inv_phi * (hi - lo);
      f1 = f_(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + inv_phi * (hi - lo);
      f2 = f_(x2);
    }
  }
  least_at_ = (lo + hi) / 2;
  least_ = f_(least_at_);
  // The ends are candidates too (the search converges inside the interval).
  const real f0 = f_(0), fe = f_(t_max);
  if (fe < least_) {
    least_ = fe;
    least_at_ = t_max;
  }
  if (f0 <= least_) {
    least_ = f0;
    least_at_ = 0;
  }
}

real ConvexTrack::first_at_or_below(real level) const {
  if (f_(0) <= level) return 0;
  if (least_ > level) return -1;
  // f(0) > level >= f(least_at): f falls through level once on [0, least_at] (convexity).
  real lo = 0, hi = least_at_;
  for (int i = 0; i < kBisectionSteps; ++i) {
    const real mid = (lo + hi) / 2;
    (f_(mid) <= level ? hi : lo) = mid;
  }
  return hi;
}

real ConvexTrack::last_at_or_below(real level) const {
  if (f_(t_max_) <= level) return t_max_;
  if (least_ > level) return -1;
  // f(least_at) <= level < f(t_max): f rises through level once on [least_at, t_max].
  real lo = least_at_, hi = t_max_;
  for (int i = 0; i < kBisectionSteps; ++i) {
    const real mid = (lo + hi) / 2;
    (f_(mid) <= level ? lo : hi) = mid;
  }
  return lo;
}

RShape Motion::at(const RShape& centred, real t) const {
  const real angle = a0 + t * (a1 - a0);
  const real c = std::cos(angle), s = std::sin(angle);
  const V centre = c0 + t * (c1 - c0);
  RShape out;
  out.radius = centred.radius;
  for (V p : centred.core) out.core.push_back(centre + V{c * p.x - s * p.y, s * p.x + c * p.y});
  return out;
}

real Motion::speed_bound(real reach) const { return length(c1 - c0) + std::fabs(a1 - a0) * reach; }

real reach(const RShape& centred) {
  real far = 0;
  for (V p : centred.core) far = std::max(far, length(p));
  return far + centred.radius;
}

RoundedHull::RoundedHull(const std::vector<V>& points, real radius) : hull_(convex_hull(points)), radius_(radius) {}

real RoundedHull::signed_distance(V p) const {
  const size_t n = hull_.size();
  if (n == 1) return length(p - hull_[0]) - radius_;
  if (n == 2) return to_segment(p, hull_[0], hull_[1]) - radius_;
  bool inside = true;
  real nearest = kHuge;
  for (size_t i = 0; i < n; ++i) {
    const V a = hull_[i], b = hull_[(i + 1) % n];
    inside = inside && cross(b - a, p - a) >= 0;
    nearest = std::min(nearest, to_segment(p, a, b));
  }
  return (inside ? -nearest : nearest) - radius_;
}

RoundedHull minkowski_difference(const RShape& a, const RShape& b) {
  std::vector<V> points;
  for (V p : a.core) {
    for (V q : b.core) points.push_back(p - q);
  }
  return RoundedHull(points, a.radius + b.radius);
}

real signed_distance_between(const RShape& a, const RShape& b) {
  // A and B touch where 0 meets A - B; the signed distance of the shapes is that of the origin
  // from the difference.
  return minkowski_difference(a, b).signed_distance(V{0, 0});
}

real moving_distance(const RShape& a, const Motion& ma, const RShape& b, const Motion& mb, real t) {
  return signed_distance_between(ma.at(a, t), mb.at(b, t));
}

FirstTouch first_time_at_or_below(const RShape& a, const Motion& ma, const RShape& b, const Motion& mb, real level,
                                  real t_max, real resolution) {
  const real lipschitz = ma.speed_bound(reach(a)) + mb.speed_bound(reach(b));
  auto d = [&](real t) { return moving_distance(a, ma, b, mb, t); };
  FirstTouch out;
  struct Interval {
    real t0, d0, t1, d1;
  };
  std::vector<Interval> stack{{0, d(0), t_max, d(t_max)}};
  while (!stack.empty()) {
    const Interval iv = stack.back();
    stack.pop_back();
    if (iv.d0 <= level) {
      out.certain = iv.t0;
      if (out.possible < 0) out.possible = iv.t0;
      return out;
    }
    if ((iv.d0 + iv.d1 - lipschitz * (iv.t1 - iv.t0)) / 2 > level) continue;
    if (iv.t1 - iv.t0 <= resolution) {
      if (out.possible < 0) out.possible = iv.t0;
      if (iv.d1 <= level) {
        out.certain = iv.t1;
        return out;
      }
      continue;
    }
    const real mid = (iv.t0 + iv.t1) / 2, dm = d(mid);
    stack.push_back({mid, dm, iv.t1, iv.d1});  // later half, searched after the earlier one
    stack.push_back({iv.t0, iv.d0, mid, dm});
  }
  return out;
}

V surface_normal(const RShape& s, V p, V from, real corner, bool* unique) {
  *unique = true;
  const std::vector<V> h = convex_hull(s.core);
  if (s.radius > 0) {
    const V c = project_to_core(s, p).closest;
    const V n = normalize(p - c);
    if (length(p - c) > 0) return n;
    *unique = false;
    return normalize(from - p);
  }
  for (V v : h) {
    if (length(p - v) <= corner) {
      *unique = false;
      return normalize(from - p);
    }
  }
  if (h.size() == 2) {
    V n = left_perp(normalize(h[1] - h[0]));
    if (dot(n, from - p) < 0) n = V{-n.x, -n.y};
    // Coming from (nearly) in line with the segment, either side is met first up to rounding.
    if (dot(n, from - p) <= corner) *unique = false;
    return n;
  }
  // The hull edge nearest to p.
  real best = kHuge;
  V n{};
  for (size_t i = 0; i < h.size(); ++i) {
    const V a = h[i], b = h[(i + 1) % h.size()];
    const real dist = to_segment(p, a, b);
    if (dist < best) {
      best = dist;
      const V e = normalize(b - a);
      n = V{e.y, -e.x};
    }
  }
  return n;
}

bool is_supporting_normal(const RShape& s, V p, V u, real slack) { return support(s, u) - dot(u, p) <= slack; }

}  // namespace oracle
