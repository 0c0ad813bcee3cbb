// decompose(): a simple polygon into convex Shapes (docs/decompose.md).
//
// 1. Validation and clean-up: exact duplicates of the previous point and exactly collinear middle
//    points are dropped; an edge that folds back along the previous one, a repeated point, and two
//    edges that cross or touch are reported (Shamos & Hoey's sweep, "Geometric intersection
//    problems", FOCS 1976, as a sweep over the vertices in lexicographic order).
// 2. Triangulation in O(n log n): a sweep cuts the polygon into y-monotone pieces, each then
//    triangulated in linear time (de Berg et al., "Computational Geometry", 3rd ed. 2008, ch. 3).
//    (Ear clipping, O'Rourke "Computational Geometry in C" 1.6, is quadratic along collinear runs.)
// 3. Diagonal flips toward cuts that resolve two reflex corners at once (Chazelle & Dobkin 1985).
// 4. Hertel & Mehlhorn ("Fast triangulation of simple polygons", FCT 1983): a diagonal is removed
//    when the two pieces it separates merge into a convex piece of at most kMaxPolygonVertices
//    corners, the diagonals least worth keeping first.
// Every orientation and intersection decision is the exact orient() (pebble/detail/exact.hpp), so
// the pieces are cut along true diagonals whatever the coordinates; no new points are made.
#include "pebble/decompose.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "geometry/invalid.hpp"
#include "pebble/detail/exact.hpp"

namespace pebble {
namespace {

// The exact orient() of pebble/detail/exact.hpp (its filtered double evaluation, then its exact
// stage), with two exact shortcuts before that stage for the zeros the sweeps ask about most: a
// point tested against an edge it ends, and the axis-aligned runs of tile maps and combs. When
// both products are 0, each has a zero factor (a difference of two floats is exact and nonzero in
// double unless they are equal, and a product of two such differences cannot underflow), so the
// value is exactly 0.
inline double orient(Vec2 a, Vec2 b, Vec2 p) noexcept {
  const double left = (double(b.x) - a.x) * (double(p.y) - a.y), right = (double(b.y) - a.y) * (double(p.x) - a.x);
  const double det = left - right, bound = detail::error_bound(3, detail::abs(left) + detail::abs(right));
  if (detail::abs(det) > bound) return det;
  if (bound == 0 || p == a || p == b) return 0;
  return detail::exact_orient(a, b, p).leading();
}

[[noreturn]] void fail(const std::string& message) { detail::fail("decompose", message); }

// Nine digits: the points a message names may differ only past the sixth.
std::string describe(Vec2 v) { return detail::describe(v, 9); }

int sign_of(double v) { return (v > 0) - (v < 0); }

// The sweep's order: by x, then by y.
bool lex_less(Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

// Inputs with more points than this are refused: the indices below are int, and the work grows
// faster than linearly in the worst case.
constexpr std::size_t kMaxPoints = std::size_t(1) << 24;

// The polygon after clean-up: its points, and for each the index of the input point it is, so
// that messages name the user's indices.
struct Ring {
  std::vector<Vec2> p;
  std::vector<int> id;
  int size() const { return int(p.size()); }
};

void validate(std::span<const Vec2> polygon, float radius) {
  if (polygon.size() < 3) fail("a polygon needs at least 3 points, got " + std::to_string(polygon.size()));
  if (polygon.size() > kMaxPoints) {
    fail("a polygon may have at most " + std::to_string(kMaxPoints) + " points, got " + std::to_string(polygon.size()));
  }
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    // The pieces are Shapes, whose makers accept coordinates up to kMaxShapeExtent.
    detail::check_point("decompose", polygon[i], i, 9);
  }
  if (!std::isfinite(radius) || radius < 0 || radius > kMaxShapeExtent) {
    std::ostringstream out;
    out << "radius " << radius << " must be finite, >= 0 and at most " << kMaxShapeExtent;
    fail(out.str());
  }
}

std::string edge_name(const Ring& ring, int e) {
  const int n = ring.size();
  return "the edge from point " + std::to_string(ring.id[e]) + " to point " + std::to_string(ring.id[(e + 1) % n]);
}

// Drops exact repeats of the previous point and exactly collinear middle points; throws for zero
// area and for an edge that folds back along the previous one.
class Cleaner {
public:
  const Ring& run(std::span<const Vec2> polygon) {
    in_.p.clear();
    in_.id.clear();
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      if (in_.p.empty() || !(polygon[i] == in_.p.back())) {
        in_.p.push_back(polygon[i]);
        in_.id.push_back(int(i));
      }
    }
    while (in_.p.size() > 1 && in_.p.back() == in_.p.front()) {
      in_.p.pop_back();
      in_.id.pop_back();
    }
    const int n = in_.size();
    // Zero area first, so that a collinear input gets that message rather than a fold.
    bool flat = true;
    for (int i = 1; i < n && flat; ++i) flat = orient(in_.p[0], in_.p[1], in_.p[i]) == 0;
    if (n < 3 || flat) {
      fail(n == 1 ? std::string("the polygon has zero area: all its points are the same point")
                  : "the polygon has zero area: all its " + std::to_string(polygon.size()) + " points are collinear");
    }

    // A worklist over a linked ring: dropping a point can make its neighbours collinear.
    const std::size_t count = in_.p.size();
    prev_.resize(count);
    next_.resize(count);
    work_.resize(count);
    alive_.assign(count, 1);
    for (int i = 0; i < n; ++i) {
      prev_[i] = (i + n - 1) % n;
      next_[i] = (i + 1) % n;
      work_[i] = n - 1 - i;
    }
    while (!work_.empty()) {
      const int v = work_.back();
      work_.pop_back();
      if (!alive_[v]) continue;
      const int u = prev_[v], w = next_[v];
      const Vec2 a = in_.p[u], b = in_.p[v], c = in_.p[w];
      if (orient(a, b, c) != 0) continue;
      // Collinear: b between a and c is a straight continuation; otherwise the two edges overlap.
      if (lex_less(a, b) != lex_less(b, c)) {
        fail("the polygon is not simple: the edge from point " + std::to_string(in_.id[u]) + " to point " +
             std::to_string(in_.id[v]) + " and the edge from there to point " + std::to_string(in_.id[w]) +
             " fold back on each other at point " + std::to_string(in_.id[v]) + ' ' + describe(b));
      }
      alive_[v] = 0;
      next_[u] = w;
      prev_[w] = u;
      work_.push_back(u);
      work_.push_back(w);
    }
    out_.p.clear();
    out_.id.clear();
    int start = 0;
    while (!alive_[start]) ++start;
    int v = start;
    do {
      out_.p.push_back(in_.p[v]);
      out_.id.push_back(in_.id[v]);
      v = next_[v];
    } while (v != start);
    return out_;
  }

  // Counter-clockwise: the lexicographically least vertex is a strictly convex corner.
  void make_counter_clockwise() {
    const int n = out_.size();
    int least = 0;
    for (int i = 1; i < n; ++i) {
      if (lex_less(out_.p[i], out_.p[least])) least = i;
    }
    if (orient(out_.p[(least + n - 1) % n], out_.p[least], out_.p[(least + 1) % n]) < 0) {
      std::reverse(out_.p.begin(), out_.p.end());
      std::reverse(out_.id.begin(), out_.id.end());
    }
  }

private:
  Ring in_, out_;
  std::vector<int> prev_, next_, work_;
  std::vector<char> alive_;
};

// ---- Simplicity: a sweep over the vertices in lexicographic order (Shamos & Hoey 1976).
//
// The status holds the edges the sweep line crosses, bottom to top; edge e runs from vertex e to
// vertex e + 1. Whenever two edges become neighbours in the status they are tested exactly; the
// leftmost point where two edges meet is found that way, because just before it they are
// neighbours (anything between them would meet one of them earlier). A vertex lying on an edge is
// found directly: the edges containing it must be its own.

class SimplicityCheck {
public:
  void run(const Ring& ring) {
    r_ = &ring;
    n_ = ring.size();
    const std::size_t n = ring.p.size();
    // Each edge's ends in sweep order.
    lo_.resize(n);
    hi_.resize(n);
    for (int e = 0; e < n_; ++e) {
      const Vec2 a = pt(e), b = pt(next(e));
      const bool forward = lex_less(a, b);
      lo_[e] = forward ? a : b;
      hi_[e] = forward ? b : a;
    }
    std::vector<Event>& order = events_;
    order.resize(n);
    for (int v = 0; v < n_; ++v) order[v] = {pt(v), v};
    std::sort(order.begin(), order.end(), [](const Event& a, const Event& b) { return lex_less(a.p, b.p); });
    for (std::size_t k = 1; k < n; ++k) {
      if (order[k - 1].p == order[k].p) {
        const int a = std::min(r_->id[order[k - 1].v], r_->id[order[k].v]);
        const int b = std::max(r_->id[order[k - 1].v], r_->id[order[k].v]);
        fail("the polygon is not simple: points " + std::to_string(a) + " and " + std::to_string(b) +
             " are the same point " + describe(order[k].p));
      }
    }
    status_.clear();
    for (const Event& event : order) visit(event.v);
  }

private:
  Vec2 pt(int v) const { return r_->p[v]; }
  int next(int v) const { return v + 1 == n_ ? 0 : v + 1; }
  int prev(int v) const { return v == 0 ? n_ - 1 : v - 1; }
  // > 0: p above edge e (to the left of it, run from its first end in sweep order to its last).
  double side(int e, Vec2 p) const { return orient(lo_[e], hi_[e], p); }

  void visit(int v) {
    const Vec2 p = pt(v);
    const int a = prev(v), b = v;  // the edges into and out of v
    const bool a_ends = hi_[a] == p, b_ends = hi_[b] == p;
    // The edges through p form one run of the status (side 0), between those below p and those
    // above it; it must hold exactly v's own edges that end here.
    const auto first = status_.begin();
    const auto lo = std::partition_point(first, status_.end(), [&](int e) { return side(e, p) > 0; });
    auto hi = lo;
    while (hi != status_.end() && side(*hi, p) == 0) {
      if (*hi != a && *hi != b) on_edge(v, *hi);
      ++hi;
    }
    if (hi - lo != int(a_ends) + int(b_ends)) {
      // The status is out of order, which only an undetected crossing could cause.
      fail("the polygon is not simple: it crosses itself near point " + std::to_string(r_->id[v]) + ' ' + describe(p));
    }
    const std::ptrdiff_t at = lo - first;
    status_.erase(lo, hi);
    // Edges that start here, bottom to top: the one whose far end is clockwise of the other's.
    int starting[2];
    int count = 0;
    if (!a_ends) starting[count++] = a;
    if (!b_ends) starting[count++] = b;
    if (count == 2 && orient(p, pt(a), pt(next(b))) < 0) std::swap(starting[0], starting[1]);
    status_.insert(status_.begin() + at, starting, starting + count);
    // The new neighbours.
    const std::size_t below = std::size_t(at), above = std::size_t(at + count);
    if (at > 0 && below < status_.size()) test(status_[below - 1], status_[below]);
    if (count > 0 && above < status_.size()) test(status_[above - 1], status_[above]);
  }

  // Throws when edges e and f share a point. Neighbouring edges share their common vertex only:
  // clean() removed collinear vertices and folds.
  void test(int e, int f) const {
    if (next(e) == f || next(f) == e) return;
    const Vec2 a = pt(e), b = pt(next(e)), c = pt(f), d = pt(next(f));
    const int o1 = sign_of(orient(a, b, c)), o2 = sign_of(orient(a, b, d));
    const int o3 = sign_of(orient(c, d, a)), o4 = sign_of(orient(c, d, b));
    if (o1 * o2 > 0 || o3 * o4 > 0) return;
    if (o1 == 0 && o2 == 0) {
      // Collinear: they overlap when their lexicographic ranges do.
      const Vec2 lo = lex_less(lo_[e], lo_[f]) ? lo_[f] : lo_[e];
      const Vec2 hi = lex_less(hi_[e], hi_[f]) ? hi_[e] : hi_[f];
      if (lex_less(hi, lo)) return;
      fail("the polygon is not simple: " + edge_name(*r_, std::min(e, f)) + " and " + edge_name(*r_, std::max(e, f)) +
           " overlap from " + describe(lo) + " to " + describe(hi));
    }
    if (o1 == 0) on_edge(f, e);
    if (o2 == 0) on_edge(next(f), e);
    if (o3 == 0) on_edge(e, f);
    if (o4 == 0) on_edge(next(e), f);
    // A proper crossing: the point on ab, in double (for the message only).
    const double t = orient(c, d, a) / (orient(c, d, a) - orient(c, d, b));
    const Vec2 where{float(a.x + t * (double(b.x) - a.x)), float(a.y + t * (double(b.y) - a.y))};
    fail("the polygon is not simple: " + edge_name(*r_, std::min(e, f)) + " and " + edge_name(*r_, std::max(e, f)) +
         " cross at " + describe(where));
  }

  [[noreturn]] void on_edge(int v, int e) const {
    fail("the polygon is not simple: point " + std::to_string(r_->id[v]) + ' ' + describe(pt(v)) + " lies on " +
         edge_name(*r_, e));
  }

  struct Event {
    Vec2 p;
    int v;
  };

  const Ring* r_ = nullptr;
  int n_ = 0;
  std::vector<Vec2> lo_, hi_;  // per edge: its first and last end in sweep order
  std::vector<Event> events_;
  std::vector<int> status_;
};

// ---- Triangulation: partition into y-monotone pieces, then triangulate each piece
// (de Berg, Cheong, van Kreveld & Overmars, "Computational Geometry", 3rd ed. 2008, 3.2 and 3.3;
// Lee & Preparata 1977, Garey, Johnson, Preparata & Tarjan 1978). O(n log n) whatever the shape:
// no point-in-triangle tests, so long collinear runs (tile maps, combs) cost no more than others.
// The sweep runs from top to bottom; "above" breaks ties in y by smaller x first, which makes
// horizontal edges behave as if turned slightly (de Berg 3.2).

struct Triangle {
  int v[3];  // counter-clockwise
};
// A diagonal of the triangulation as its two half-edges: half-edge 3t + k runs from corner k of
// triangle t to corner k + 1.
struct Diagonal {
  int e0, e1;
};

bool above(Vec2 a, Vec2 b) { return a.y > b.y || (a.y == b.y && a.x < b.x); }

class Triangulator {
public:
  void run(const std::vector<Vec2>& points, std::vector<Triangle>& triangles) {
    p_ = points.data();
    n_ = int(points.size());
    triangles.clear();
    triangles.reserve(points.size());
    make_monotone();
    build_faces();
    for (std::size_t f = 0; f + 1 < face_start_.size(); ++f) {
      triangulate_monotone(std::span<const int>(face_.data() + face_start_[f], face_.data() + face_start_[f + 1]),
                           triangles);
    }
  }

private:
  int next(int v) const { return v + 1 == n_ ? 0 : v + 1; }
  int prev(int v) const { return v == 0 ? n_ - 1 : v - 1; }

  // -- Monotone pieces (de Berg 3.2). The status holds the edges with the polygon to their right
  // (edge e runs from vertex e down to vertex e + 1), left to right, each with its helper: the
  // lowest vertex above the sweep line that sees the edge to its right.

  // The status edges that have p on their right (the interior side): a prefix of the status.
  std::vector<int>::iterator right_of_prefix_end(Vec2 p) {
    return std::partition_point(status_.begin(), status_.end(),
                                [&](int e) { return orient(p_[e], p_[next(e)], p) > 0; });
  }
  // The edge directly left of vertex v gets v as its helper. The old helper gets a diagonal to v
  // when v is a split vertex (whose piece would otherwise hang from it), or when the old helper
  // is a merge vertex (whose piece below needs v to stay monotone).
  void connect_left(int v, bool split) {
    const auto it = right_of_prefix_end(p_[v]);
    if (it == status_.begin()) fail("internal error: no edge left of a vertex in the monotone sweep");
    const int e = *(it - 1);
    if (split || merge_[helper_[e]]) diagonals_.push_back({v, helper_[e]});
    helper_[e] = v;
  }
  void insert_edge(int e) {
    status_.insert(right_of_prefix_end(p_[e]), e);
    helper_[e] = e;
  }
  // Removes edge e (which ends at vertex v), first joining v to a merge vertex that helps it.
  void remove_edge(int e, int v) {
    if (merge_[helper_[e]]) diagonals_.push_back({v, helper_[e]});
    const auto it = right_of_prefix_end(p_[v]);  // e contains p_[v]: the first edge not strictly left of it
    if (it == status_.end() || *it != e) fail("internal error: the monotone sweep lost an edge");
    status_.erase(it);
  }

  void make_monotone() {
    const std::size_t n = std::size_t(n_);
    std::vector<int>& order = order_;
    order.resize(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return above(p_[a], p_[b]); });
    helper_.assign(n, 0);
    merge_.assign(n, 0);
    status_.clear();
    diagonals_.clear();
    for (const int v : order) {
      const int u = prev(v), w = next(v);
      const bool u_below = above(p_[v], p_[u]), w_below = above(p_[v], p_[w]);
      const bool convex = orient(p_[u], p_[v], p_[w]) > 0;
      if (u_below && w_below) {
        if (!convex) connect_left(v, true);  // split vertex
        insert_edge(v);                      // (and start vertex)
      } else if (!u_below && !w_below) {
        remove_edge(u, v);  // end vertex
        if (!convex) {      // merge vertex
          connect_left(v, false);
          merge_[v] = 1;
        }
      } else if (!u_below) {
        // Regular, the boundary running down through v with the polygon to its right.
        remove_edge(u, v);
        insert_edge(v);
      } else {
        connect_left(v, false);  // regular, the polygon to v's left
      }
    }
  }

  // -- The pieces as faces of the polygon cut by the diagonals: around each vertex its neighbours
  // in counter-clockwise order; a face continues at vertex b from edge a -> b along the edge just
  // clockwise of b -> a.

  // Counter-clockwise order of directions around c (from the +x axis), exactly.
  bool ccw_before(Vec2 c, Vec2 a, Vec2 b) const {
    const bool a_low = a.y < c.y || (a.y == c.y && a.x < c.x), b_low = b.y < c.y || (b.y == c.y && b.x < c.x);
    if (a_low != b_low) return b_low;
    return orient(c, a, b) > 0;
  }

  void build_faces() {
    const std::size_t n = std::size_t(n_);
    adj_start_.assign(n + 1, 0);
    for (int v = 0; v < n_; ++v) adj_start_[v + 1] = 2;
    for (const auto& [a, b] : diagonals_) {
      ++adj_start_[a + 1];
      ++adj_start_[b + 1];
    }
    for (std::size_t v = 0; v < n; ++v) adj_start_[v + 1] += adj_start_[v];
    adj_.resize(std::size_t(adj_start_[n]));
    std::vector<int>& fill = order_;  // (free again)
    fill.assign(adj_start_.begin(), adj_start_.end() - 1);
    for (int v = 0; v < n_; ++v) {
      adj_[fill[v]++] = next(v);  // slot adj_start_[v]: the polygon edge v -> v + 1
      adj_[fill[v]++] = prev(v);
    }
    for (const auto& [a, b] : diagonals_) {
      adj_[fill[a]++] = b;
      adj_[fill[b]++] = a;
    }
    for (int v = 0; v < n_; ++v) {
      if (adj_start_[v + 1] - adj_start_[v] > 2) {
        std::sort(adj_.begin() + adj_start_[v], adj_.begin() + adj_start_[v + 1],
                  [&](int a, int b) { return ccw_before(p_[v], p_[a], p_[b]); });
      }
    }
    // Walk every face but the outside one (the edges v + 1 -> v).
    std::vector<char>& used = used_;
    used.assign(adj_.size(), 0);
    for (int v = 0; v < n_; ++v) {
      for (int k = adj_start_[v]; k < adj_start_[v + 1]; ++k) {
        if (adj_[k] == prev(v) && adj_[k] != next(v)) used[k] = 1;
      }
    }
    face_.clear();
    face_start_.assign(1, 0);
    for (int v = 0; v < n_; ++v) {
      for (int k = adj_start_[v]; k < adj_start_[v + 1]; ++k) {
        if (used[k]) continue;
        int a = v, slot = k;
        while (!used[slot]) {
          used[slot] = 1;
          face_.push_back(a);
          const int b = adj_[slot];
          const int first = adj_start_[b], degree = adj_start_[b + 1] - first;
          // b -> a among b's neighbours (sorted when more than two: a fan can hold thousands).
          int back = adj_[first] == a ? 0 : 1;
          if (degree > 2) {
            const auto begin = adj_.begin() + first, end = begin + degree;
            back = int(std::lower_bound(begin, end, a, [&](int x, int y) { return ccw_before(p_[b], p_[x], p_[y]); }) -
                       begin);
          }
          slot = first + (back + degree - 1) % degree;
          a = b;
        }
        face_start_.push_back(int(face_.size()));
      }
    }
  }

  // -- A y-monotone piece (counter-clockwise) into triangles (de Berg 3.3): its vertices top to
  // bottom, merged from its two chains; a stack holds the vertices above that still need
  // triangles, a chain whose inner angles are not convex.

  void emit(int a, int b, int c, std::vector<Triangle>& triangles) const {
    const double turn = orient(p_[a], p_[b], p_[c]);
    if (turn > 0)
      triangles.push_back({{a, b, c}});
    else if (turn < 0)
      triangles.push_back({{a, c, b}});
    else
      fail("internal error: a flat triangle in a monotone piece");
  }

  void triangulate_monotone(std::span<const int> face, std::vector<Triangle>& triangles) {
    const std::size_t k = face.size();
    if (k < 3) fail("internal error: a monotone piece of fewer than 3 vertices");
    std::size_t top = 0, bottom = 0;
    for (std::size_t i = 1; i < k; ++i) {
      if (above(p_[face[i]], p_[face[top]])) top = i;
      if (above(p_[face[bottom]], p_[face[i]])) bottom = i;
    }
    // Counter-clockwise, the chain from the top forward runs down the left side.
    sorted_.clear();
    std::size_t l = (top + 1) % k, r = (top + k - 1) % k;
    sorted_.push_back({face[top], 0});
    while (l != bottom || r != bottom) {
      if (r == bottom || (l != bottom && above(p_[face[l]], p_[face[r]]))) {
        sorted_.push_back({face[l], 0});
        l = (l + 1) % k;
      } else {
        sorted_.push_back({face[r], 1});
        r = (r + k - 1) % k;
      }
    }
    sorted_.push_back({face[bottom], 2});
    stack_.assign({sorted_[0], sorted_[1]});
    for (std::size_t j = 2; j + 1 < sorted_.size(); ++j) {
      const Ranked u = sorted_[j];
      if (u.chain != stack_.back().chain) {
        // The other side: u sees the whole stack.
        for (std::size_t i = 0; i + 1 < stack_.size(); ++i) emit(u.v, stack_[i].v, stack_[i + 1].v, triangles);
        const Ranked last = stack_.back();
        stack_.assign({last, u});
      } else {
        // The same side: cut off the triangles that turn convex, from the top of the stack down.
        Ranked last = stack_.back();
        stack_.pop_back();
        while (!stack_.empty()) {
          const int s = stack_.back().v;
          // Down the left chain the polygon turns left (counter-clockwise); up the right one too.
          const double turn = u.chain == 0 ? orient(p_[s], p_[last.v], p_[u.v]) : orient(p_[u.v], p_[last.v], p_[s]);
          if (turn <= 0) break;
          emit(u.v, last.v, s, triangles);
          last = stack_.back();
          stack_.pop_back();
        }
        stack_.push_back(last);
        stack_.push_back(u);
      }
    }
    const int bottom_v = sorted_.back().v;
    for (std::size_t i = 0; i + 1 < stack_.size(); ++i) emit(bottom_v, stack_[i].v, stack_[i + 1].v, triangles);
  }

  struct Ranked {
    int v;
    int chain;  // 0 left, 1 right, 2 the bottom
  };

  const Vec2* p_ = nullptr;
  int n_ = 0;
  std::vector<int> order_, status_, helper_;
  std::vector<char> merge_, used_;
  std::vector<std::pair<int, int>> diagonals_;
  std::vector<int> adj_start_, adj_;
  std::vector<int> face_, face_start_;
  std::vector<Ranked> sorted_, stack_;
};

// ---- The triangulation's diagonals, improved for merging.
//
// A diagonal is worth keeping when it resolves a reflex corner of the polygon (cuts its angle
// into two of at most 180 degrees): an optimal decomposition resolves two reflex corners with one
// cut wherever it can (Chazelle & Dobkin 1985), which is what makes ceil(r / 2) + 1 a lower bound.
// Flipping a diagonal (where the two triangles beside it form a convex quadrilateral, taking its
// other diagonal) while that raises its worth lets merging keep one diagonal for two reflex
// corners more often (docs/decompose.md, "Piece counts").

class Diagonals {
public:
  // The diagonals of the triangulation (each polygon edge belongs to one triangle, each diagonal
  // to two), found by bucketing the half-edges by their lower end; then the flips.
  void run(const std::vector<Vec2>& points, std::vector<Triangle>& tris, std::vector<Diagonal>& out) {
    p_ = points.data();
    n_ = int(points.size());
    reflex_.resize(points.size());
    for (int v = 0; v < n_; ++v) reflex_[v] = orient(p_[prev(v)], p_[v], p_[next(v)]) < 0;
    pair_half_edges(tris);
    flip(tris);
    out.clear();
    for (int h = 0; h < int(twin_.size()); ++h) {
      if (twin_[h] > h) out.push_back({h, twin_[h]});
    }
  }

  // Diagonal a-b alone resolves the polygon's reflex corner at a.
  bool resolves(int a, int b) const {
    const Vec2 u = p_[prev(a)], v = p_[a], w = p_[next(a)];
    return reflex_[a] && orient(v, w, p_[b]) >= 0 && orient(v, p_[b], u) >= 0;
  }

private:
  int next(int v) const { return v + 1 == n_ ? 0 : v + 1; }
  int prev(int v) const { return v == 0 ? n_ - 1 : v - 1; }

  // Each reflex corner resolved counts most, each reflex end a little (a later flip may make it
  // resolve).
  int worth(int a, int b) const { return 4 * (int(resolves(a, b)) + int(resolves(b, a))) + reflex_[a] + reflex_[b]; }

  void pair_half_edges(const std::vector<Triangle>& tris) {
    const int half_edges = int(3 * tris.size());
    const auto ends = [&](int h) {
      const Triangle& t = tris[std::size_t(h / 3)];
      const int a = t.v[h % 3], b = t.v[(h + 1) % 3];
      return std::pair<int, int>(std::min(a, b), std::max(a, b));
    };
    start_.assign(std::size_t(n_) + 1, 0);
    for (int h = 0; h < half_edges; ++h) ++start_[ends(h).first + 1];
    for (int v = 0; v < n_; ++v) start_[v + 1] += start_[v];
    fill_.assign(start_.begin(), start_.end() - 1);
    bucket_.resize(std::size_t(half_edges));
    for (int h = 0; h < half_edges; ++h) bucket_[fill_[ends(h).first]++] = h;
    // Within a bucket, the slot of the half-edge seen for each upper end (a fan makes buckets
    // large, so no pairwise search).
    std::vector<int>& seen = fill_;
    seen.assign(std::size_t(n_), -1);
    twin_.assign(std::size_t(half_edges), -1);
    for (int v = 0; v < n_; ++v) {
      for (int i = start_[v]; i < start_[v + 1]; ++i) {
        const int h = bucket_[i], hi = ends(h).second;
        if (seen[hi] >= start_[v]) {
          twin_[h] = bucket_[seen[hi]];
          twin_[bucket_[seen[hi]]] = h;
        } else {
          seen[hi] = i;
        }
      }
    }
  }

  // Each flip raises the total worth, so this ends after O(n) flips.
  void flip(std::vector<Triangle>& tris) {
    work_.clear();
    for (int h = 0; h < int(twin_.size()); ++h) {
      if (twin_[h] > h) work_.push_back(h);
    }
    while (!work_.empty()) {
      const int h = work_.back();
      work_.pop_back();
      const int g = twin_[h];
      if (g < 0) continue;
      // Triangles (a, b, c) and (b, a, e): the quadrilateral a, e, b, c, counter-clockwise.
      const int t1 = h / 3, k1 = h % 3, t2 = g / 3, k2 = g % 3;
      const int a = tris[t1].v[k1], b = tris[t1].v[(k1 + 1) % 3], c = tris[t1].v[(k1 + 2) % 3];
      const int e = tris[t2].v[(k2 + 2) % 3];
      if (worth(c, e) <= worth(a, b)) continue;
      // c-e is a diagonal of the quadrilateral when a and b lie strictly on either side of it.
      const double sa = orient(p_[c], p_[e], p_[a]), sb = orient(p_[c], p_[e], p_[b]);
      if (!((sa > 0 && sb < 0) || (sa < 0 && sb > 0))) continue;
      const int out_bc = twin_[3 * t1 + (k1 + 1) % 3], out_ca = twin_[3 * t1 + (k1 + 2) % 3];
      const int out_ae = twin_[3 * t2 + (k2 + 1) % 3], out_eb = twin_[3 * t2 + (k2 + 2) % 3];
      tris[t1] = {{a, e, c}};
      tris[t2] = {{e, b, c}};
      link(3 * t1 + 0, out_ae);
      link(3 * t1 + 1, 3 * t2 + 2);
      link(3 * t1 + 2, out_ca);
      link(3 * t2 + 0, out_eb);
      link(3 * t2 + 1, out_bc);
      // The quadrilaterals beside the four outer edges changed.
      for (const int x : {3 * t1 + 0, 3 * t1 + 2, 3 * t2 + 0, 3 * t2 + 1}) {
        if (twin_[x] >= 0) work_.push_back(x);
      }
    }
  }

  void link(int x, int y) {
    twin_[x] = y;
    if (y >= 0) twin_[y] = x;
  }

  const Vec2* p_ = nullptr;
  int n_ = 0;
  std::vector<char> reflex_;                              // per vertex
  std::vector<int> start_, fill_, bucket_, twin_, work_;  // twin_: per half-edge, the other side's, or -1
};

// ---- Hertel & Mehlhorn (1983): remove a diagonal when its two pieces merge into a convex piece
// of at most kMaxPolygonVertices corners. Only the angles at the diagonal's ends change, and they
// only grow as pieces grow, so one pass leaves every remaining diagonal essential.
//
// A piece is a cycle of half-edges (each names its start vertex), linked both ways. Removing a
// diagonal drops its two half-edges and splices the two cycles; every other half-edge keeps its
// start and its end, so a diagonal not yet removed is still its two original half-edges.

class Merger {
public:
  void run(const std::vector<Vec2>& points, const std::vector<Triangle>& triangles,
           const std::vector<Diagonal>& diagonals, const Diagonals& worth) {
    p_ = points.data();
    const std::size_t m = 3 * triangles.size();
    vertex_.resize(m);
    next_.resize(m);
    prev_.resize(m);
    corner_.assign(m, 1);
    alive_.assign(m, 1);
    for (std::size_t t = 0; t < triangles.size(); ++t) {
      for (int k = 0; k < 3; ++k) {
        const std::size_t e = 3 * t + std::size_t(k);
        vertex_[e] = triangles[t].v[k];
        next_[e] = int(3 * t) + (k + 1) % 3;
        prev_[e] = int(3 * t) + (k + 2) % 3;
      }
    }
    parent_.resize(triangles.size());
    std::iota(parent_.begin(), parent_.end(), 0);
    corners_.assign(triangles.size(), 3);
    piece_count_ = triangles.size();

    // The diagonals that resolve no reflex corner go first, then those resolving one, then two;
    // the longest first among equals (a long diagonal tends to cut off thin triangles that fit
    // nowhere later).
    order_.clear();
    resolved_.resize(diagonals.size());
    for (std::size_t i = 0; i < diagonals.size(); ++i) {
      const int a = vertex_[diagonals[i].e0], b = vertex_[diagonals[i].e1];
      const double dx = double(p_[b].x) - p_[a].x, dy = double(p_[b].y) - p_[a].y;
      order_.push_back({-(dx * dx + dy * dy), int(i)});
      resolved_[i] = char(int(worth.resolves(a, b)) + int(worth.resolves(b, a)));
    }
    std::sort(order_.begin(), order_.end());
    for (char pass = 0; pass <= 2; ++pass) {
      for (const auto& [length, i] : order_) {
        if (resolved_[std::size_t(i)] == pass) try_merge(diagonals[std::size_t(i)]);
      }
    }
  }

  std::size_t piece_count() const { return piece_count_; }

  // The pieces' corners (flat vertices left out), counter-clockwise.
  template <class Emit>
  void for_each_piece(Emit emit) {
    done_.assign(parent_.size(), 0);
    for (std::size_t e0 = 0; e0 < vertex_.size(); ++e0) {
      if (!alive_[e0]) continue;
      const int piece = find(int(e0 / 3));
      if (done_[piece]) continue;
      done_[piece] = 1;
      piece_corners_.clear();
      int e = int(e0);
      do {
        if (corner_[e]) piece_corners_.push_back(p_[vertex_[e]]);
        e = next_[e];
      } while (e != int(e0));
      emit(std::span<const Vec2>(piece_corners_));
    }
  }

private:
  int find(int t) {
    while (parent_[t] != t) {
      parent_[t] = parent_[parent_[t]];
      t = parent_[t];
    }
    return t;
  }

  void try_merge(const Diagonal& d) {
    // e runs a -> b in piece P, f runs b -> a in piece Q.
    const int e = d.e0, f = d.e1;
    const int a = vertex_[e], b = vertex_[f];
    const int q_at_a = next_[f], p_at_b = next_[e];  // the half-edges leaving a in Q, b in P
    // Convex at a (P's edge into a, then Q's out of it) and at b (Q's edge into b, then P's out
    // of it). a and b are corners of P and of Q (each angle below 180 degrees, as they sum to at
    // most 180), and stay corners of the merged piece unless its angle there is exactly 180.
    const double turn_a = orient(p_[vertex_[prev_[e]]], p_[a], p_[vertex_[next_[q_at_a]]]);
    if (turn_a < 0) return;
    const double turn_b = orient(p_[vertex_[prev_[f]]], p_[b], p_[vertex_[next_[p_at_b]]]);
    if (turn_b < 0) return;
    const int pp = find(e / 3), qq = find(f / 3);
    const int corners = corners_[pp] + corners_[qq] - 2 - int(turn_a == 0) - int(turn_b == 0);
    if (corners > kMaxPolygonVertices) return;
    link(prev_[e], q_at_a);
    link(prev_[f], p_at_b);
    corner_[q_at_a] = turn_a != 0;
    corner_[p_at_b] = turn_b != 0;
    alive_[e] = alive_[f] = 0;
    parent_[qq] = pp;
    corners_[pp] = corners;
    --piece_count_;
  }

  void link(int from, int to) {
    next_[from] = to;
    prev_[to] = from;
  }

  const Vec2* p_ = nullptr;
  std::vector<int> vertex_, next_, prev_;  // per half-edge: start vertex, the piece's next and previous half-edges
  std::vector<char> corner_, alive_;       // per half-edge: its start is a corner of its piece; not removed
  std::vector<int> parent_, corners_;      // per triangle: union-find of pieces; a root's corner count
  std::size_t piece_count_ = 0;
  std::vector<std::pair<double, int>> order_;
  std::vector<char> resolved_, done_;
  std::vector<Vec2> piece_corners_;
};

// Everything one call needs, kept per thread between calls as compute_hull() keeps its buffers:
// decomposing polygon after polygon then allocates only while they grow, instead of growing and
// trimming the heap around every call. Buffers for polygons above kKeptPoints points are released
// after the call.
struct Workspace {
  Cleaner cleaner;
  SimplicityCheck simplicity;
  Triangulator triangulator;
  std::vector<Triangle> triangles;
  Diagonals diagonals_finder;
  std::vector<Diagonal> diagonals;
  Merger merger;
};
constexpr std::size_t kKeptPoints = 1 << 16;

}  // namespace

std::vector<Shape> decompose(std::span<const Vec2> polygon, float radius) {
  validate(polygon, radius);
  thread_local Workspace workspace;
  Workspace& ws = workspace;
  // Releases the buffers of a large polygon, also when this throws.
  struct Release {
    Workspace& ws;
    std::size_t size;
    ~Release() {
      if (size > kKeptPoints) ws = Workspace{};
    }
  } release{ws, polygon.size()};

  const Ring& ring = ws.cleaner.run(polygon);
  ws.simplicity.run(ring);
  ws.cleaner.make_counter_clockwise();
  ws.triangulator.run(ring.p, ws.triangles);
  ws.diagonals_finder.run(ring.p, ws.triangles, ws.diagonals);
  ws.merger.run(ring.p, ws.triangles, ws.diagonals, ws.diagonals_finder);

  std::vector<Shape> shapes;
  shapes.reserve(ws.merger.piece_count());
  // A sliver thinner than its weld tolerance comes out as a segment (or a point): kept, since
  // leaving it out would lose a needle of the polygon as long as the sliver, not just its width.
  ws.merger.for_each_piece([&](std::span<const Vec2> corners) { shapes.push_back(Shape::polygon(corners, radius)); });
  return shapes;
}

}  // namespace pebble
