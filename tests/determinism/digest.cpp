// pebble_digest: runs every query of pebble over a fixed corpus and prints a digest (64-bit FNV-1a)
// of every output byte, one line per query kind and one for all. Identical inputs must give
// bit-identical results whatever the compiler (g++, clang++), the optimization (-O0, -O2) and
// the SIMD copy of the contact kernels (PEBBLE_SIMD=scalar, sse2, avx2): tests/determinism/check.sh
// builds this program each way, runs it on each path and compares the output with
// expected_digest.txt (docs/robustness.md says how to update that file deliberately).
//
// The corpus is made from integers only (a xorshift generator, values k / 2^n, rotations from
// integer vectors normalized by IEEE division and square root), so that building it cannot differ
// between builds; every output field is hashed by its bits, never through padding.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <pebble/pebble.hpp>
#include "test_hooks.hpp"  // pebble::test_hooks (src/, not installed)

namespace {

using namespace pebble;

// ---------------------------------------------------------------------------------------------
// Hashing.

struct Digest {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a offset basis
  std::uint64_t count = 0;                  // results hashed

  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  }
  void add(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    bytes(&u, 4);
  }
  void add(std::uint32_t v) { bytes(&v, 4); }
  void add(std::uint64_t v) { bytes(&v, 8); }
  void add(int v) { add(std::uint32_t(v)); }
  void add(bool v) { add(std::uint32_t(v ? 1 : 0)); }
  void add(Vec2 v) {
    add(v.x);
    add(v.y);
  }
#if PEBBLE_DOUBLE_POSITIONS
  // A world position: both doubles' bytes (the build with double positions has its own digest).
  void add(Position v) {
    std::uint64_t u[2];
    std::memcpy(&u[0], &v.x, 8);
    std::memcpy(&u[1], &v.y, 8);
    bytes(u, 16);
  }
#endif
  void add(const Aabb& b) {
    add(b.lower);
    add(b.upper);
  }
  void add(const Transform& x) {
    add(x.p);
    add(x.q.c);
    add(x.q.s);
  }
  void add(const Manifold& m) {
    add(m.normal);
    add(m.count);
    for (const ContactPoint& p : m.points) {
      add(p.point);
      add(p.separation);
      add(p.id);
    }
    ++count;
  }
  void add(const DistanceResult& d) {
    add(d.distance);
    add(d.normal);
    add(d.point_a);
    add(d.point_b);
    ++count;
  }
  void add(const ProjectionResult& p) {
    add(p.point);
    add(p.normal);
    add(p.distance);
    add(p.inside);
    ++count;
  }
  void add(const CastResult& c) {
    add(c.hit);
    add(c.fraction);
    add(c.point);
    add(c.normal);
    ++count;
  }
  void add(const ToiResult& r) {
    add(int(r.state));
    add(r.fraction);
    add(r.point);
    add(r.normal);
    ++count;
  }
  void add(const ApproachResult& a) {
    add(a.hit);
    add(a.time);
    add(a.distance);
    add(a.point_a);
    add(a.point_b);
    add(a.normal);
    ++count;
  }
  void add(const MassProperties& m) {
    add(m.mass);
    add(m.center);
    add(m.inertia);
    ++count;
  }
  void add(ColliderId id) {
    add(id.index);
    add(id.generation);
  }
  void add(Rot q) {
    add(q.c);
    add(q.s);
    ++count;
  }
  void add(const Shape& s) {
    add(s.vertex_count());
    add(s.radius());
    add(s.extent());
    add(s.core_centroid());
    for (const Vec2 v : s.vertices()) add(v);
    for (int i = 0; i < s.edge_count(); ++i) add(s.normal(i));
    ++count;
  }
};

// ---------------------------------------------------------------------------------------------
// The corpus, from integers.

struct Rng {
  std::uint64_t s = 0x9e3779b97f4a7c15ull;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  int integer(int lo, int hi) { return lo + int(next() % std::uint64_t(hi - lo + 1)); }
  /// k / 2^bits for an integer k in [lo, hi]: exact in float.
  float dyadic(int lo, int hi, int bits) { return std::ldexp(float(integer(lo, hi)), -bits); }
  Vec2 point(float reach) { return {dyadic(-4096, 4096, 12) * reach, dyadic(-4096, 4096, 12) * reach}; }
  /// A unit rotation from an integer vector (IEEE division and square root: the same everywhere).
  Rot rotation() {
    for (;;) {
      const float x = float(integer(-1000, 1000)), y = float(integer(-1000, 1000));
      const float len = std::sqrt(x * x + y * y);
      if (len > 100) return {x / len, y / len};
    }
  }
};

/// Shapes of every kind at three sizes (0.01, 1, 10).
std::vector<Shape> make_shapes(Rng& rng) {
  std::vector<Shape> out;
  // (Each random value in its own statement: the order in which a call's arguments are
  // evaluated differs between compilers.)
  for (const float size : {0.01f, 1.0f, 10.0f}) {
    const float r = size * rng.dyadic(64, 256, 8);
    out.push_back(Shape::circle(r, rng.point(0.2f * size)));
    const Vec2 a = rng.point(size), b = rng.point(size);
    out.push_back(Shape::capsule(a, b, size * rng.dyadic(16, 128, 8)));
    const Vec2 c = rng.point(size), e = rng.point(size);
    out.push_back(Shape::segment(c, e));
    const float hw = size * rng.dyadic(64, 256, 8), hh = size * rng.dyadic(64, 256, 8);
    out.push_back(Shape::box(hw, hh));
    out.push_back(Shape::rounded_box(size, size * 0.5f, size * rng.dyadic(8, 128, 8)));
    for (const float radius : {0.0f, 0.1f * size}) {
      std::vector<Vec2> pts;
      const int n = rng.integer(3, 8);
      for (int i = 0; i < n; ++i) pts.push_back(rng.point(size));
      out.push_back(Shape::polygon(pts, radius));
    }
    out.push_back(Shape::capsule({0, 0}, {0, 0}, size * 0.5f));  // welded to a circle
  }
  return out;
}

/// A transform near `origin`, within `reach`.
Transform near(Rng& rng, Vec2 origin, float reach) { return {origin + rng.point(reach), rng.rotation()}; }

struct Sections {
  Digest shapes, mass, points, rays, collide, distance, casts, toi, approach, hull, primitives, world, angles;
};

/// Placements of each shape and of each pair, per origin.
constexpr int kPlacements = 8;

void one_shape_queries(Rng& rng, const std::vector<Shape>& shapes, Vec2 origin, Sections& d) {
  for (int placement = 0; placement < kPlacements; ++placement) {
    for (const Shape& s : shapes) {
      const Transform x = near(rng, origin, 1);
      d.mass.add(mass_properties(s, rng.dyadic(1, 64, 3)));
      d.mass.add(area(s));
      d.mass.add(bounds(s, x));
      const float reach = 2 * s.extent() + 0.01f;
      for (int i = 0; i < 8; ++i) {
        const Position p = x.p + rng.point(reach);
        d.points.add(project_point(s, x, p));
        d.points.add(contains(s, x, p));
        const Ray ray{x.p + rng.point(2 * reach), rng.point(4 * reach)};
        d.rays.add(cast_ray(s, x, ray));
        d.rays.add(cast_ray(s, x, ray, s.extent() * rng.dyadic(0, 64, 8)));
      }
    }
  }
}

void pair_queries(Rng& rng, const std::vector<Shape>& shapes, Vec2 origin, Sections& d) {
  std::vector<BatchPair> batch_pairs;  // every pair again through the batch queries (disc pairs in lanes)
  for (int placement = 0; placement < kPlacements; ++placement) {
    for (const Shape& a : shapes) {
      for (const Shape& b : shapes) {
        const Transform xa = near(rng, origin, 1);
        // B within about the sum of the sizes: touching, overlapping and apart.
        const Transform xb = near(rng, to_vec2(xa.p), 0.75f * (a.extent() + b.extent()));
        const float margin = 0.05f * std::min(a.extent(), b.extent());
        d.collide.add(collide(a, xa, b, xb));
        d.collide.add(collide(a, xa, b, xb, margin));
        d.collide.add(detail::collide_generic(a, xa, b, xb, margin));
        d.distance.add(distance(a, xa, b, xb));
        d.distance.add(detail::distance_generic(a, xa, b, xb));
        d.distance.add(overlap(a, xa, b, xb));
        const Vec2 move_a = rng.point(a.extent() + b.extent()), move_b = rng.point(a.extent() + b.extent());
        d.casts.add(cast_shape(a, xa, move_a, b, xb, move_b));
        d.casts.add(cast_shape(a, xa, move_a, b, xb, move_b, ShapeCastOptions{margin}));
        const float horizon = rng.dyadic(1, 64, 4);
        d.approach.add(closest_approach(a, xa, move_a, b, xb, move_b, horizon));
        d.approach.add(time_to_collision(a, xa, move_a, b, xb, move_b, horizon));
        batch_pairs.push_back({{&a, xa, move_a}, {&b, xb, move_b}});
        const Sweep sa{rng.point(0.5f * a.extent()), xa.p, xa.p + move_a, rng.dyadic(-64, 64, 4),
                       rng.dyadic(-64, 64, 4)};
        const Sweep sb{rng.point(0.5f * b.extent()), xb.p, xb.p + move_b, rng.dyadic(-64, 64, 4),
                       rng.dyadic(-64, 64, 4)};
        d.toi.add(time_of_impact(a, sa, b, sb));
        d.toi.add(time_of_impact(a, sa, b, sb, 0.75f, ToiOptions{kLinearSlop, 0, 20}));
        d.toi.add(sweep_transform(sa, rng.dyadic(0, 256, 8)));
      }
    }
  }
  std::vector<ApproachResult> approach(batch_pairs.size());
  std::vector<float> ttc(batch_pairs.size());
  std::vector<DistanceResult> dist(batch_pairs.size());
  batch::closest_approach(batch_pairs, 1.5f, approach);
  batch::time_to_collision(batch_pairs, 1.5f, ttc);
  batch::distance(batch_pairs, dist);
  for (std::size_t i = 0; i < batch_pairs.size(); ++i) {
    d.approach.add(approach[i]);
    d.approach.add(ttc[i]);
    d.distance.add(dist[i]);
  }
}

/// pebble's own trigonometry (Rot::from_angle, Rot::angle) over angles of every size and over
/// rotations of any length, then pair queries whose rotations come from from_angle: on every
/// platform the same bits, as none of it calls the C library's cos, sin or atan2.
void angle_queries(Rng& rng, const std::vector<Shape>& shapes, Sections& d) {
  for (int i = 0; i < 4096; ++i) {
    d.angles.add(Rot::from_angle(rng.dyadic(-1 << 20, 1 << 20, 18)));  // [-4, 4]
    d.angles.add(Rot::from_angle(rng.dyadic(-1 << 20, 1 << 20, 8)));   // [-4096, 4096]
    // Any float up to 2^40 in magnitude: a random mantissa and exponent.
    const float mantissa = rng.dyadic(1 << 23, (1 << 24) - 1, 23);
    const int exponent = rng.integer(-40, 40);
    d.angles.add(Rot::from_angle(std::ldexp(mantissa, exponent) * (i % 2 ? -1.0f : 1.0f)));
    const float c = rng.dyadic(-4096, 4096, 10), s = rng.dyadic(-4096, 4096, 10);
    d.angles.add(Rot{c, s}.angle());
    d.angles.add(Rot::from_angle(rng.dyadic(-1 << 20, 1 << 20, 18)).angle());
  }
  for (const Shape& a : shapes) {
    for (const Shape& b : shapes) {
      const float angle_a = rng.dyadic(-1 << 20, 1 << 20, 16), angle_b = rng.dyadic(-1 << 20, 1 << 20, 16);
      const Transform xa{rng.point(1), Rot::from_angle(angle_a)};
      const Transform xb{xa.p + rng.point(0.75f * (a.extent() + b.extent())), Rot::from_angle(angle_b)};
      d.angles.add(collide(a, xa, b, xb));
      d.angles.add(distance(a, xa, b, xb));
      const Vec2 move_a = rng.point(a.extent() + b.extent()), move_b = rng.point(a.extent() + b.extent());
      d.angles.add(cast_shape(a, xa, move_a, b, xb, move_b));
      d.angles.add(closest_approach(a, xa, move_a, b, xb, move_b, 2));
    }
  }
}

void hull_queries(Rng& rng, Sections& d) {
  for (int k = 0; k < 2000; ++k) {
    std::vector<Vec2> pts;
    const int n = rng.integer(1, 12);
    for (int i = 0; i < n; ++i)
      pts.push_back(i > 0 && rng.integer(0, 3) == 0 ? pts[std::size_t(rng.integer(0, i - 1))] : rng.point(1));
    try {
      d.hull.add(Shape::polygon(pts, rng.dyadic(0, 16, 6)));
    } catch (const InvalidShape&) {
      d.hull.add(std::uint32_t(0xbad));  // more than 8 hull vertices: refused, the same everywhere
      ++d.hull.count;
    }
  }
}

void primitive_queries(Rng& rng, Sections& d) {
  for (int k = 0; k < 5000; ++k) {
    const Vec2 p = rng.point(2);
    const prim::Circle c{rng.point(1), rng.dyadic(0, 256, 8)};
    const prim::Segment s{rng.point(2), rng.point(2)}, t{rng.point(2), rng.point(2)};
    const prim::Triangle tri{rng.point(2), rng.point(2), rng.point(2)};
    const prim::Box box{rng.point(1), {rng.dyadic(0, 256, 8), rng.dyadic(0, 256, 8)}};
    const prim::Box box2{rng.point(1), {rng.dyadic(0, 256, 8), rng.dyadic(0, 256, 8)}};
    Digest& h = d.primitives;
    h.add(prim::nearest_point(s, p));
    h.add(prim::nearest_point(c, p));
    h.add(prim::nearest_point(box, p));
    h.add(prim::nearest_point(tri, p));
    h.add(prim::contains(tri, p));
    h.add(prim::contains(c, p));
    const prim::SegmentHit st = prim::intersect(s, t);
    h.add(st.hit);
    h.add(st.point);
    h.add(prim::overlaps(s, c));
    h.add(prim::overlaps(c, tri));
    h.add(prim::overlaps(tri, prim::Triangle{t.a, t.b, p}));
    const prim::Penetration pen = prim::penetration(box, box2);
    h.add(pen.hit);
    h.add(pen.separation);
    const prim::NearestEdge e = prim::nearest_edge(box, p);
    h.add(e.point);
    h.add(e.normal);
    const prim::NearestEdge ec = prim::nearest_edge(c, p);
    h.add(ec.point);
    h.add(ec.normal);
    ++h.count;
  }
}

/// A world of moving and fixed colliders and sensors, stepped: every contact manifold, every
/// event, and scene queries after each update. Returns the digest of it all.
Digest world_run(const std::vector<Shape>& shapes, Vec2 origin, int threads) {
  Rng rng;  // its own fixed sequence, so that the thread counts see the same world
  WorldSettings settings;
  settings.threads = threads;
  CollisionWorld world(settings);
  Digest d;
  std::vector<ColliderId> ids;
  std::vector<Vec2> velocity;
  // Ground and walls (fixed), a sensor, and 300 bodies of the 1-sized shapes.
  ColliderOptions fixed;
  fixed.fixed = true;
  ids.push_back(world.add(Shape::box(20, 1), Transform{origin + Vec2{0, -11}, Rot::identity()}, fixed));
  ids.push_back(world.add(Shape::box(1, 12), Transform{origin + Vec2{-21, 0}, Rot::identity()}, fixed));
  ids.push_back(world.add(Shape::box(1, 12), Transform{origin + Vec2{21, 0}, Rot::identity()}, fixed));
  ColliderOptions sensor;
  sensor.sensor = true;
  ids.push_back(world.add(Shape::circle(4), Transform{origin, Rot::identity()}, sensor));
  velocity.assign(ids.size(), Vec2{});
  for (int i = 0; i < 300; ++i) {
    const Shape& s = shapes[std::size_t(8 + i % 8)];  // the size-1 shapes
    const float x = rng.dyadic(-18, 18, 0);
    const Vec2 at{x + rng.dyadic(0, 255, 8), rng.dyadic(-9, 9, 0)};
    ids.push_back(world.add(s, Transform{origin + at, rng.rotation()}));
    velocity.push_back(Vec2{rng.dyadic(-16, 16, 6), rng.dyadic(-16, 16, 6)});
  }
  std::vector<Transform> moved;
  for (int step = 0; step < 60; ++step) {
    moved.clear();
    for (std::size_t i = 4; i < ids.size(); ++i) {
      Transform x = *world.transform(ids[i]);
      x.p += velocity[i];
      if (x.p.x < origin.x - 19 || x.p.x > origin.x + 19) velocity[i].x = -velocity[i].x;
      if (x.p.y < origin.y - 9 || x.p.y > origin.y + 9) velocity[i].y = -velocity[i].y;
      moved.push_back(x);
    }
    // On threads, the batch form (its boxes made in parallel), which must give the same bits.
    if (threads > 1) {
      world.set_transforms(std::span(ids).subspan(4), moved);
    } else {
      for (std::size_t i = 4; i < ids.size(); ++i) world.set_transform(ids[i], moved[i - 4]);
    }
    if (step == 10) {  // removals and additions in the middle
      for (int k = 0; k < 10; ++k) world.remove(ids[std::size_t(4 + 7 * k)]);
      for (int k = 0; k < 10; ++k)
        ids[std::size_t(4 + 7 * k)] = world.add(shapes[std::size_t(8 + k % 8)], near(rng, origin, 8));
    }
    world.update();
    for (const ContactPair& c : world.contacts()) {
      d.add(c.a);
      d.add(c.b);
      d.add(c.manifold);
    }
    for (const ContactEvent& e : world.touch_begin_events()) {
      d.add(e.a);
      d.add(e.b);
    }
    for (const ContactEvent& e : world.touch_end_events()) {
      d.add(e.a);
      d.add(e.b);
    }
    for (const SensorEvent& e : world.sensor_begin_events()) {
      d.add(e.sensor);
      d.add(e.visitor);
    }
    for (const SensorEvent& e : world.sensor_end_events()) {
      d.add(e.sensor);
      d.add(e.visitor);
    }
    const Ray ray{origin + Vec2{-20, rng.dyadic(-8, 8, 0)}, {40, rng.dyadic(-64, 64, 4)}};
    if (const auto hit = world.cast_ray(ray)) {
      d.add(hit.id);
      d.add(hit.hit);
    }
    if (const auto hit = world.cast_circle(ray, 0.25f)) {
      d.add(hit.id);
      d.add(hit.hit);
    }
    if (const auto hit = world.cast_shape(shapes[11], Transform{ray.origin, Rot::identity()}, ray.translation)) {
      d.add(hit.id);
      d.add(hit.hit);
    }
    world.overlap_shape(shapes[12], near(rng, origin, 8), [&](ColliderId id) {
      d.add(id);
      return true;
    });
    world.overlap_point(origin + rng.point(8), [&](ColliderId id) {
      d.add(id);
      return true;
    });
  }
  return d;
}

void print(const char* name, const Digest& d) {
  std::printf("%-10s %016llx %llu\n", name, static_cast<unsigned long long>(d.h),
              static_cast<unsigned long long>(d.count));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--path") == 0) {  // which copy of the kernels runs
    std::printf("%s\n", simd_path_name(simd_path()));
    return 0;
  }
  Rng rng;
  Sections d;
  const std::vector<Shape> shapes = make_shapes(rng);
  for (const Shape& s : shapes) d.shapes.add(s);
  // At the origin and at coordinates 1e4, where the float rounding is different.
  for (const Vec2 origin : {Vec2{0, 0}, Vec2{1e4f, -1e4f}}) {
    one_shape_queries(rng, shapes, origin, d);
    pair_queries(rng, shapes, origin, d);
  }
  hull_queries(rng, d);
  primitive_queries(rng, d);
  angle_queries(rng, shapes, d);
  d.world = world_run(shapes, {0, 0}, 1);
  const Digest far_world = world_run(shapes, {1e4f, -1e4f}, 1);
  d.world.add(far_world.h);
  d.world.count += far_world.count;
  // Threads must not change a bit (world.hpp): the run on two threads is compared here.
  const Digest threaded = world_run(shapes, {0, 0}, 2);
  const Digest single = world_run(shapes, {0, 0}, 1);
  if (threaded.h != single.h) {
    std::fprintf(stderr, "pebble_digest: the world on 2 threads differs from 1 thread\n");
    return 1;
  }

  const std::pair<const char*, const Digest*> sections[] = {
      {"shapes", &d.shapes},     {"mass", &d.mass},         {"points", &d.points},         {"rays", &d.rays},
      {"collide", &d.collide},   {"distance", &d.distance}, {"casts", &d.casts},           {"toi", &d.toi},
      {"approach", &d.approach}, {"hull", &d.hull},         {"primitives", &d.primitives}, {"world", &d.world},
      {"angles", &d.angles}};
  Digest all;
  for (const auto& [name, digest] : sections) {
    print(name, *digest);
    all.add(digest->h);
    all.count += digest->count;
  }
  print("all", all);
  return 0;
}
