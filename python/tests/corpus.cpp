// The C++ side of python/tests/test_corpus.py: reads a corpus of query cases (one per line), runs
// each through the library, and prints one line per case with every result field, floats as the
// hex of their 32 bits, so that the test can check the Python bindings bit for bit.
//
// A case: a query name, then its arguments. Floats are written as the hex of their 32 bits
// (e.g. 3f800000). A shape is a maker and its arguments:
//   circle r cx cy | capsule ax ay bx by r | segment ax ay bx by | box hw hh
//   | boxat hw hh cx cy angle | rounded hw hh cr | polygon n x1 y1 .. xn yn r
// a transform is x y c s; a sweep lcx lcy c0x c0y c1x c1y a0 a1. A shape maker that throws
// prints `error <message>` for the case.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <pebble/pebble.hpp>

namespace {

using namespace pebble;

class Reader {
public:
  explicit Reader(const std::string& line) : in_(line) {}
  std::string word() {
    std::string w;
    in_ >> w;
    return w;
  }
  int integer() { return std::stoi(word()); }
  float number() {
    const std::uint32_t bits = std::uint32_t(std::stoul(word(), nullptr, 16));
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  Vec2 vec() {
    const float x = number();
    return {x, number()};
  }
  Transform transform() {
    const Vec2 p = vec();
    const float c = number();
    return {p, {c, number()}};
  }
  Sweep sweep() {
    Sweep s;
    s.local_center = vec();
    s.c0 = vec();
    s.c1 = vec();
    s.a0 = number();
    s.a1 = number();
    return s;
  }
  std::vector<Vec2> points() {
    const int n = integer();
    std::vector<Vec2> p;
    for (int i = 0; i < n; ++i) p.push_back(vec());
    return p;
  }
  Shape shape() {
    const std::string kind = word();
    if (kind == "circle") {
      const float r = number();
      return Shape::circle(r, vec());
    }
    if (kind == "capsule") {
      const Vec2 a = vec(), b = vec();
      return Shape::capsule(a, b, number());
    }
    if (kind == "segment") {
      const Vec2 a = vec();
      return Shape::segment(a, vec());
    }
    if (kind == "box") {
      const float w = number();
      return Shape::box(w, number());
    }
    if (kind == "boxat") {
      const float w = number(), h = number();
      const Vec2 c = vec();
      return Shape::box(w, h, c, number());
    }
    if (kind == "rounded") {
      const float w = number(), h = number();
      return Shape::rounded_box(w, h, number());
    }
    if (kind == "polygon") {
      const std::vector<Vec2> p = points();
      return Shape::polygon(p, number());
    }
    throw std::runtime_error("corpus: unknown shape " + kind);
  }

private:
  std::istringstream in_;
};

class Writer {
public:
  void f(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    char buf[16];
    std::snprintf(buf, sizeof buf, " %08x", bits);
    out_ += buf;
  }
  void v(Vec2 p) {
    f(p.x);
    f(p.y);
  }
  void i(long long n) { out_ += " " + std::to_string(n); }
  void shape(const Shape& s) {
    i(s.vertex_count());
    for (const Vec2 p : s.vertices()) v(p);
    f(s.radius());
  }
  void manifold(const Manifold& m) {
    v(m.normal);
    i(m.count);
    for (int k = 0; k < m.count; ++k) {
      v(m.points[k].point);
      f(m.points[k].separation);
      i(m.points[k].id);
    }
  }
  void hit(const CastResult& h) {
    i(h.hit);
    f(h.fraction);
    v(h.point);
    v(h.normal);
  }
  void id(ColliderId c) {
    i(c.index);
    i(c.generation);
  }
  const std::string& text() const { return out_; }

private:
  std::string out_;
};

std::string run(const std::string& line) {
  Reader r(line);
  Writer w;
  const std::string q = r.word();
  if (q == "shape") {
    w.shape(r.shape());
  } else if (q == "collide") {
    const Shape a = r.shape();
    const Transform xa = r.transform();
    const Shape b = r.shape();
    const Transform xb = r.transform();
    w.manifold(collide(a, xa, b, xb, r.number()));
  } else if (q == "distance") {
    const Shape a = r.shape();
    const Transform xa = r.transform();
    const Shape b = r.shape();
    const DistanceResult d = distance(a, xa, b, r.transform());
    w.f(d.distance);
    w.v(d.normal);
    w.v(d.point_a);
    w.v(d.point_b);
  } else if (q == "overlap") {
    const Shape a = r.shape();
    const Transform xa = r.transform();
    const Shape b = r.shape();
    w.i(overlap(a, xa, b, r.transform()));
  } else if (q == "project") {
    const Shape s = r.shape();
    const Transform xf = r.transform();
    const ProjectionResult p = project_point(s, xf, r.vec());
    w.v(p.point);
    w.v(p.normal);
    w.f(p.distance);
    w.i(p.inside);
  } else if (q == "contains") {
    const Shape s = r.shape();
    const Transform xf = r.transform();
    w.i(contains(s, xf, r.vec()));
  } else if (q == "raycast" || q == "circlecast") {
    const Shape s = r.shape();
    const Transform xf = r.transform();
    const Vec2 o = r.vec(), t = r.vec();
    w.hit(q == "raycast" ? cast_ray(s, xf, Ray{o, t}) : cast_ray(s, xf, Ray{o, t}, r.number()));
  } else if (q == "shapecast") {
    const Shape a = r.shape();
    const Transform xa = r.transform();
    const Vec2 ta = r.vec();
    const Shape b = r.shape();
    const Transform xb = r.transform();
    const Vec2 tb = r.vec();
    w.hit(cast_shape(a, xa, ta, b, xb, tb, ShapeCastOptions{r.number()}));
  } else if (q == "toi") {
    const Shape a = r.shape();
    const Sweep sa = r.sweep();
    const Shape b = r.shape();
    const Sweep sb = r.sweep();
    const ToiResult t = time_of_impact(a, sa, b, sb, r.number());
    w.i(int(t.state));
    w.f(t.fraction);
    w.v(t.point);
    w.v(t.normal);
  } else if (q == "approach") {
    const Shape a = r.shape();
    const Transform xa = r.transform();
    const Vec2 va = r.vec();
    const Shape b = r.shape();
    const Transform xb = r.transform();
    const Vec2 vb = r.vec();
    const ApproachResult p = closest_approach(a, xa, va, b, xb, vb, r.number());
    w.i(p.hit);
    w.f(p.time);
    w.f(p.distance);
    w.v(p.point_a);
    w.v(p.point_b);
    w.v(p.normal);
  } else if (q == "mass") {
    const Shape s = r.shape();
    const MassProperties m = mass_properties(s, r.number());
    w.f(m.mass);
    w.v(m.center);
    w.f(m.inertia);
    w.f(area(s));
  } else if (q == "bounds") {
    const Shape s = r.shape();
    const Aabb b = bounds(s, r.transform());
    w.v(b.lower);
    w.v(b.upper);
  } else if (q == "decompose") {
    const std::vector<Vec2> p = r.points();
    const std::vector<Shape> parts = decompose(p, r.number());
    w.i(long(parts.size()));
    for (const Shape& s : parts) w.shape(s);
  } else if (q == "chain") {
    // chain <points> then a shape, its transform and a margin: collide() with every segment.
    const Chain c = Chain::loop(r.points());
    const Shape b = r.shape();
    const Transform xb = r.transform();
    const float margin = r.number();
    for (const ChainSegment& s : c.segments()) w.manifold(collide(s, Transform::identity(), b, xb, margin));
  } else if (q == "world") {
    // world n (shape transform)*n, then a ray: update(), the contacts, then cast_ray.
    CollisionWorld world;
    const int n = r.integer();
    for (int k = 0; k < n; ++k) {
      const Shape s = r.shape();
      world.add(s, r.transform());
    }
    world.update();
    w.i(long(world.contacts().size()));
    for (const ContactPair& p : world.contacts()) {
      w.id(p.a);
      w.id(p.b);
      w.manifold(p.manifold);
    }
    const Vec2 o = r.vec(), t = r.vec();
    const WorldCastResult hit = world.cast_ray(Ray{o, t});
    w.i(bool(hit));
    if (hit) {
      w.id(hit.id);
      w.hit(hit.hit);
    }
  } else {
    throw std::runtime_error("corpus: unknown query " + q);
  }
  return w.text();
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    try {
      const std::string result = run(line);
      std::cout << "ok" << result << "\n";
    } catch (const InvalidShape& e) {
      std::cout << "error " << e.what() << "\n";
    }
  }
  return 0;
}
