// web/src/bindings.cpp — pebble's API for JavaScript (embind). Names are the C++ ones; the npm
// package's entry (web/package/index.mjs) adds default arguments and picks the chain-segment
// versions of the queries, and web/package/index.d.ts declares all of it.
//
// Plain structs (Vec2, Rot, Transform, Aabb, Ray, Sweep and the results) cross as plain JS objects
// with the C++ field names; Shape, Chain, ChainSegment and CollisionWorld are classes whose
// objects live in the WebAssembly heap (call .delete() when done). A maker's InvalidShape (and a
// world's std::invalid_argument) reaches JavaScript as an error with the same message.
#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <pebble/pebble.hpp>
#include <pebble/version.hpp>

using emscripten::val;
using namespace pebble;

namespace {

// Throws `new (Module.InvalidShape or Error)(message)` into the JavaScript caller. Called after
// the C++ catch block has ended, so that no C++ exception is left half-handled.
// (JavaScript, which clang-format would lay out as C++: `===` became `== =`.)
// clang-format off
EM_JS(void, pebble_throw_js, (const char* kind, const char* message), {
  const name = UTF8ToString(kind);
  const Type = Module[name] || Error;
  const error = new Type(UTF8ToString(message));
  if (Type === Error) error.name = name;
  throw error;
});
// clang-format on

[[noreturn]] void rethrow_as_js(const char* kind, const std::string& message) {
  pebble_throw_js(kind, message.c_str());
  __builtin_unreachable();
}

/// Runs make(); an InvalidShape or std::invalid_argument becomes a JavaScript error.
template <class F>
auto guarded(F make) -> decltype(make()) {
  std::string message;
  const char* kind = "InvalidShape";
  try {
    return make();
  } catch (const InvalidSettings& e) {
    message = e.what();
    kind = "InvalidSettings";
  } catch (const InvalidShape& e) {
    message = e.what();
  } catch (const std::invalid_argument& e) {
    message = e.what();
    kind = "InvalidArgument";
  } catch (const std::exception& e) {
    message = e.what();
    kind = "Error";
  }
  rethrow_as_js(kind, message);
}

// ---------------------------------------------------------------------------------------------
// Conversions for what value_object cannot describe: arrays, optional results, enums.

val vec2(Vec2 v) {
  val o = val::object();
  o.set("x", v.x);
  o.set("y", v.y);
  return o;
}

std::vector<Vec2> points_of(const val& array) {
  // [{x, y}, ...] or [[x, y], ...]
  const unsigned n = array["length"].as<unsigned>();
  std::vector<Vec2> points(n);
  for (unsigned i = 0; i < n; ++i) {
    const val p = array[i];
    if (p.isArray()) {
      points[i] = {p[0].as<float>(), p[1].as<float>()};
    } else {
      points[i] = {p["x"].as<float>(), p["y"].as<float>()};
    }
  }
  return points;
}

val points_val(std::span<const Vec2> points) {
  val a = val::array();
  for (size_t i = 0; i < points.size(); ++i) a.set(i, vec2(points[i]));
  return a;
}

/// A 64-bit digest as 16 hex digits (a JavaScript number holds only 53 bits).
std::string hex64(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

/// pebble::replay() of a recording's bytes: {calls, updates, mismatches, first_mismatch, digest
/// (16 hex digits), first_problem}. InvalidRecording becomes an InvalidArgument error.
val replay_bytes(const val& bytes) {
  const std::vector<std::uint8_t> data = emscripten::convertJSArrayToNumberVector<std::uint8_t>(bytes);
  std::istringstream in(std::string(data.begin(), data.end()), std::ios::binary);
  const ReplayReport r = guarded([&] { return replay(in); });
  val o = val::object();
  o.set("calls", r.calls);
  o.set("updates", r.updates);
  o.set("mismatches", r.mismatches);
  o.set("first_mismatch", r.first_mismatch);
  o.set("digest", hex64(r.digest));
  o.set("first_problem", r.first_problem);
  return o;
}

std::string hex_id(uint32_t id) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x", id);
  return buffer;
}

val manifold_val(const Manifold& m) {
  val o = val::object();
  o.set("normal", vec2(m.normal));
  o.set("count", m.count);
  val points = val::array();
  for (int i = 0; i < m.count; ++i) {
    val p = val::object();
    p.set("point", vec2(m.points[i].point));
    p.set("separation", m.points[i].separation);
    p.set("id", m.points[i].id);
    points.set(i, p);
  }
  o.set("points", points);
  return o;
}

val toi_val(const ToiResult& r) {
  static constexpr const char* kStates[] = {"hit", "separated", "overlapped", "failed"};
  val o = val::object();
  o.set("state", std::string(kStates[static_cast<int>(r.state)]));
  o.set("fraction", r.fraction);
  o.set("point", vec2(r.point));
  o.set("normal", vec2(r.normal));
  return o;
}

ToiOptions toi_options(float target_separation, float tolerance, int max_iterations) {
  ToiOptions options;
  options.target_separation = target_separation;
  options.tolerance = tolerance;
  if (max_iterations > 0) options.max_iterations = max_iterations;
  return options;
}

std::vector<Shape> shapes_of(const val& array) {
  const unsigned n = array["length"].as<unsigned>();
  std::vector<Shape> shapes;
  shapes.reserve(n);
  for (unsigned i = 0; i < n; ++i) shapes.push_back(array[i].as<Shape>());
  return shapes;
}

// ---------------------------------------------------------------------------------------------
// The batch queries (pebble/batch.hpp): shapes_a and shapes_b are one Shape or an array of N;
// states_a and states_b hold 6 numbers per body (x, y, c, s, velocity x, velocity y), for N bodies
// or for one (then used for every pair). Results come back as typed arrays.

struct BatchInput {
  std::vector<BatchPair> pairs;
  std::vector<Shape> shapes_a, shapes_b;  // the Shapes copied out of JavaScript (pairs point at them)
};

size_t batch_count(const val& shapes, const std::vector<float>& states, size_t n) {
  const auto merge = [&](size_t k) {
    if (n != 1 && k != 1 && k != n) throw std::invalid_argument("batch: the arrays have different lengths");
    return std::max(n, k);
  };
  if (shapes.isArray()) n = merge(shapes["length"].as<size_t>());
  if (states.size() % 6 != 0) throw std::invalid_argument("batch: states need 6 numbers per body (x, y, c, s, vx, vy)");
  return merge(states.size() / 6);
}

BatchInput batch_input(const val& shapes_a, const val& states_a, const val& shapes_b, const val& states_b) {
  BatchInput in;
  const std::vector<float> sa = emscripten::convertJSArrayToNumberVector<float>(states_a);
  const std::vector<float> sb = emscripten::convertJSArrayToNumberVector<float>(states_b);
  size_t n = batch_count(shapes_a, sa, 1);
  n = batch_count(shapes_b, sb, n);
  if (sa.empty() || sb.empty()) n = 0;
  in.shapes_a = shapes_a.isArray() ? shapes_of(shapes_a) : std::vector<Shape>{shapes_a.as<Shape>()};
  in.shapes_b = shapes_b.isArray() ? shapes_of(shapes_b) : std::vector<Shape>{shapes_b.as<Shape>()};
  if (in.shapes_a.empty() || in.shapes_b.empty()) n = 0;
  in.pairs.resize(n);
  const auto body = [](const std::vector<Shape>& shapes, const std::vector<float>& st, size_t i) {
    const Shape* s = &shapes[shapes.size() == 1 ? 0 : i];
    const float* f = &st[st.size() == 6 ? 0 : 6 * i];
    return BatchBody{s, Transform{{f[0], f[1]}, Rot{f[2], f[3]}}, Vec2{f[4], f[5]}};
  };
  for (size_t i = 0; i < n; ++i) in.pairs[i] = {body(in.shapes_a, sa, i), body(in.shapes_b, sb, i)};
  return in;
}

template <class T>
val typed_array(const char* type, const std::vector<T>& v) {
  return val::global(type).new_(emscripten::typed_memory_view(v.size(), v.data())).template call<val>("slice");
}

val batch_time_to_collision(const val& shapes_a, const val& states_a, const val& shapes_b, const val& states_b,
                            float horizon) {
  const BatchInput in = guarded([&] { return batch_input(shapes_a, states_a, shapes_b, states_b); });
  std::vector<float> out(in.pairs.size());
  batch::time_to_collision(in.pairs, horizon, out);
  return typed_array("Float32Array", out);
}

/// One field of every result as a typed array: a float each, or x, y for a Vec2.
template <class T, class Get>
val field_array(const std::vector<T>& results, Get get) {
  using F = decltype(get(results[0]));
  if constexpr (std::is_same_v<F, Vec2>) {
    std::vector<float> v(2 * results.size());
    for (size_t i = 0; i < results.size(); ++i) v[2 * i] = get(results[i]).x, v[2 * i + 1] = get(results[i]).y;
    return typed_array("Float32Array", v);
  } else if constexpr (std::is_same_v<F, bool>) {
    std::vector<std::uint8_t> v(results.size());
    for (size_t i = 0; i < results.size(); ++i) v[i] = get(results[i]);
    return typed_array("Uint8Array", v);
  } else {
    std::vector<float> v(results.size());
    for (size_t i = 0; i < results.size(); ++i) v[i] = get(results[i]);
    return typed_array("Float32Array", v);
  }
}

val batch_closest_approach(const val& shapes_a, const val& states_a, const val& shapes_b, const val& states_b,
                           float horizon) {
  const BatchInput in = guarded([&] { return batch_input(shapes_a, states_a, shapes_b, states_b); });
  std::vector<ApproachResult> r(in.pairs.size());
  batch::closest_approach(in.pairs, horizon, r);
  val out = val::object();
  out.set("hit", field_array(r, [](const ApproachResult& x) { return x.hit; }));
  out.set("time", field_array(r, [](const ApproachResult& x) { return x.time; }));
  out.set("distance", field_array(r, [](const ApproachResult& x) { return x.distance; }));
  out.set("point_a", field_array(r, [](const ApproachResult& x) { return x.point_a; }));
  out.set("point_b", field_array(r, [](const ApproachResult& x) { return x.point_b; }));
  out.set("normal", field_array(r, [](const ApproachResult& x) { return x.normal; }));
  return out;
}

val batch_distance(const val& shapes_a, const val& states_a, const val& shapes_b, const val& states_b) {
  const BatchInput in = guarded([&] { return batch_input(shapes_a, states_a, shapes_b, states_b); });
  std::vector<DistanceResult> r(in.pairs.size());
  batch::distance(in.pairs, r);
  val out = val::object();
  out.set("distance", field_array(r, [](const DistanceResult& x) { return x.distance; }));
  out.set("normal", field_array(r, [](const DistanceResult& x) { return x.normal; }));
  out.set("point_a", field_array(r, [](const DistanceResult& x) { return x.point_a; }));
  out.set("point_b", field_array(r, [](const DistanceResult& x) { return x.point_b; }));
  return out;
}

val batch_overlap(const val& shapes_a, const val& states_a, const val& shapes_b, const val& states_b) {
  const BatchInput in = guarded([&] { return batch_input(shapes_a, states_a, shapes_b, states_b); });
  std::unique_ptr<bool[]> r(new bool[in.pairs.size()]);
  batch::overlap(in.pairs, std::span<bool>(r.get(), in.pairs.size()));
  std::vector<std::uint8_t> out(r.get(), r.get() + in.pairs.size());
  return typed_array("Uint8Array", out);
}

// ---------------------------------------------------------------------------------------------
// Shape

Shape circle1(float r) {
  return guarded([&] { return Shape::circle(r); });
}
Shape circle2(float r, Vec2 c) {
  return guarded([&] { return Shape::circle(r, c); });
}
Shape capsule(Vec2 a, Vec2 b, float r) {
  return guarded([&] { return Shape::capsule(a, b, r); });
}
Shape segment(Vec2 a, Vec2 b) {
  return guarded([&] { return Shape::segment(a, b); });
}
Shape box2(float hw, float hh) {
  return guarded([&] { return Shape::box(hw, hh); });
}
Shape box4(float hw, float hh, Vec2 c, float angle) {
  return guarded([&] { return Shape::box(hw, hh, c, angle); });
}
Shape rounded_box(float hw, float hh, float r) {
  return guarded([&] { return Shape::rounded_box(hw, hh, r); });
}
Shape polygon1(const val& points) {
  const std::vector<Vec2> p = points_of(points);
  return guarded([&] { return Shape::polygon(p); });
}
Shape polygon2(const val& points, float radius) {
  const std::vector<Vec2> p = points_of(points);
  return guarded([&] { return Shape::polygon(p, radius); });
}
val shape_vertices(const Shape& s) { return points_val(s.vertices()); }

val decompose_val(const val& points, float radius) {
  const std::vector<Vec2> p = points_of(points);
  const std::vector<Shape> parts = guarded([&] { return decompose(p, radius); });
  val a = val::array();
  for (size_t i = 0; i < parts.size(); ++i) a.set(i, parts[i]);
  return a;
}

MassProperties mass_of_shape(const Shape& s, float density) {
  return guarded([&] { return mass_properties(s, density); });
}
MassProperties mass_of_parts(const val& parts, float density) {
  const std::vector<Shape> shapes = shapes_of(parts);
  return guarded([&] { return mass_properties(std::span<const Shape>(shapes), density); });
}

// ---------------------------------------------------------------------------------------------
// Queries

val collide_val(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, float margin) {
  return manifold_val(collide(a, xa, b, xb, margin));
}
CastResult cast_ray_r(const Shape& s, const Transform& xf, const Ray& ray, float radius) {
  return radius > 0 ? cast_ray(s, xf, ray, radius) : cast_ray(s, xf, ray);
}
CastResult cast_shape_o(const Shape& a, const Transform& xa, Vec2 ta, const Shape& b, const Transform& xb, Vec2 tb,
                        float target_separation) {
  return cast_shape(a, xa, ta, b, xb, tb, ShapeCastOptions{target_separation});
}
val toi_val_of(const Shape& a, const Sweep& sa, const Shape& b, const Sweep& sb, float t_max, float target_separation,
               float tolerance, int max_iterations) {
  return toi_val(time_of_impact(a, sa, b, sb, t_max, toi_options(target_separation, tolerance, max_iterations)));
}

// The same against one segment of a chain (one-sided, with ghost vertices).
val collide_seg(const ChainSegment& s, const Transform& xs, const Shape& b, const Transform& xb, float margin) {
  return manifold_val(collide(s, xs, b, xb, margin));
}
DistanceResult distance_seg(const ChainSegment& s, const Transform& xs, const Shape& b, const Transform& xb) {
  return distance(s, xs, b, xb);
}
CastResult cast_ray_seg(const ChainSegment& s, const Transform& xs, const Ray& ray, float radius) {
  return cast_ray(s, xs, ray, radius);
}
CastResult cast_shape_seg(const Shape& a, const Transform& xa, Vec2 ta, const ChainSegment& s, const Transform& xs,
                          Vec2 ts, float target_separation) {
  return cast_shape(a, xa, ta, s, xs, ts, ShapeCastOptions{target_separation});
}
val toi_seg(const Shape& a, const Sweep& sa, const ChainSegment& s, const Sweep& ss, float t_max,
            float target_separation, float tolerance, int max_iterations) {
  return toi_val(time_of_impact(a, sa, s, ss, t_max, toi_options(target_separation, tolerance, max_iterations)));
}
ApproachResult approach_seg(const Shape& a, const Transform& xa, Vec2 va, const ChainSegment& s, const Transform& xs,
                            Vec2 vs, float horizon) {
  return closest_approach(a, xa, va, s, xs, vs, horizon);
}

// ---------------------------------------------------------------------------------------------
// Chains and tiles

Chain chain_open(const val& points) {
  const std::vector<Vec2> p = points_of(points);
  return guarded([&] { return Chain::open(p); });
}
Chain chain_loop(const val& points) {
  const std::vector<Vec2> p = points_of(points);
  return guarded([&] { return Chain::loop(p); });
}
ChainSegment chain_segment(const Chain& c, int i) {
  if (i < 0 || i >= c.segment_count()) rethrow_as_js("RangeError", "pebble: chain segment index out of range");
  return c.segment(i);
}
val chain_points(const Chain& c) { return points_val(c.points()); }

Heightfield heightfield_make(const val& heights, float spacing) {
  const std::vector<float> h = emscripten::convertJSArrayToNumberVector<float>(heights);
  return guarded([&] { return Heightfield::make(h, spacing); });
}
ChainSegment heightfield_cell(const Heightfield& f, int i) {
  if (i < 0 || i >= f.cell_count()) rethrow_as_js("RangeError", "pebble: heightfield cell index out of range");
  return f.cell(i);
}
Vec2 heightfield_point(const Heightfield& f, int i) {
  if (i < 0 || i > f.cell_count()) rethrow_as_js("RangeError", "pebble: heightfield point index out of range");
  return f.point(i);
}
val heightfield_heights(const Heightfield& f) {
  return val::global("Float32Array")
      .new_(emscripten::typed_memory_view(f.heights().size(), f.heights().data()))
      .call<val>("slice");
}
Chain heightfield_chain(const Heightfield& f) {
  return guarded([&] { return f.chain(); });
}

val outlines_val(const std::vector<Outline>& outlines) {
  val a = val::array();
  for (size_t i = 0; i < outlines.size(); ++i) {
    val o = val::object();
    o.set("points", points_val(outlines[i].points));
    o.set("closed", outlines[i].closed);
    a.set(i, o);
  }
  return a;
}
// grid: {columns, rows, solid: array of 0/1 (row 0 at the bottom), origin?, cell_size?}
template <bool Tops>
val outline_grid(const val& grid, float max_segment_length) {
  TileGrid g;
  g.columns = grid["columns"].as<int>();
  g.rows = grid["rows"].as<int>();
  const std::vector<std::uint8_t> solid = emscripten::convertJSArrayToNumberVector<std::uint8_t>(grid["solid"]);
  g.solid = solid;
  if (!grid["origin"].isUndefined()) g.origin = grid["origin"].as<Vec2>();
  if (!grid["cell_size"].isUndefined()) g.cell_size = grid["cell_size"].as<Vec2>();
  return outlines_val(
      guarded([&] { return Tops ? outline_tile_tops(g, max_segment_length) : outline_tiles(g, max_segment_length); }));
}

// ---------------------------------------------------------------------------------------------
// CollisionWorld

ColliderOptions options_of(const val& o) {
  ColliderOptions options;
  if (o.isUndefined() || o.isNull()) return options;
  if (o.typeOf().as<std::string>() == "number") {
    options.user_data = static_cast<uint64_t>(o.as<double>());
    return options;
  }
  if (!o["fixed"].isUndefined()) options.fixed = o["fixed"].as<bool>();
  if (!o["sensor"].isUndefined()) options.sensor = o["sensor"].as<bool>();
  if (!o["fresh_contacts"].isUndefined()) options.fresh_contacts = o["fresh_contacts"].as<bool>();
  if (!o["user_data"].isUndefined()) options.user_data = static_cast<uint64_t>(o["user_data"].as<double>());
  const val f = o["filter"];
  if (!f.isUndefined()) {
    // 53 bits of category and mask reach C++ exactly through a JS number.
    if (!f["category"].isUndefined()) options.filter.category = static_cast<uint64_t>(f["category"].as<double>());
    if (!f["mask"].isUndefined()) options.filter.mask = static_cast<uint64_t>(f["mask"].as<double>());
    if (!f["group"].isUndefined()) options.filter.group = f["group"].as<int>();
  }
  return options;
}

QueryFilter query_filter_of(const val& o) {
  QueryFilter filter;
  if (o.isUndefined() || o.isNull()) return filter;
  if (!o["mask"].isUndefined()) filter.mask = static_cast<uint64_t>(o["mask"].as<double>());
  if (!o["sensors"].isUndefined()) filter.sensors = o["sensors"].as<bool>();
  if (!o["fixed"].isUndefined()) filter.fixed = o["fixed"].as<bool>();
  return filter;
}

val id_val(ColliderId id) {
  val o = val::object();
  o.set("index", id.index);
  o.set("generation", id.generation);
  o.set("world", id.world);
  return o;
}

/// The closest hit of a world cast as one value_object (converted from memory by embind, much
/// cheaper than an object built field by field); index.mjs turns found == false into null.
struct RayAnswer {
  bool found = false;
  ColliderId id{};
  int part = 0;
  CastResult hit{false, 1, {}, {}};
};
RayAnswer answer_of(const WorldCastResult& r) { return r ? RayAnswer{true, r.id, r.part, r.hit} : RayAnswer{}; }

val ray_result_val(const WorldCastResult& r) {
  val o = val::object();
  o.set("id", id_val(r.id));
  o.set("part", r.part);
  o.set("hit", r.hit);
  return o;
}

val events_val(std::span<const ContactEvent> events) {
  val a = val::array();
  for (size_t i = 0; i < events.size(); ++i) {
    val e = val::object();
    e.set("a", id_val(events[i].a));
    e.set("b", id_val(events[i].b));
    e.set("part_a", events[i].part_a);
    e.set("part_b", events[i].part_b);
    a.set(i, e);
  }
  return a;
}

/// CollisionWorld for JavaScript: the same calls, results as plain objects, plus a few calls on
/// typed arrays that move many colliders or cast many rays in one crossing of the JS/wasm border.
class World {
public:
  World() = default;
  explicit World(const val& settings) : world_(settings_of(settings)) {}
  explicit World(CollisionWorld&& world) : world_(std::move(world)) {}

  /// The whole state (CollisionWorld::save) as a Uint8Array. Ids registered with track() are not
  /// part of it.
  val save() const {
    const std::vector<std::byte> b = world_.save();
    return val::global("Uint8Array")
        .new_(emscripten::typed_memory_view(b.size(), reinterpret_cast<const std::uint8_t*>(b.data())))
        .call<val>("slice");
  }
  /// The world save() wrote; InvalidSnapshot (a JavaScript error) naming the problem otherwise.
  static World restore(const val& bytes) {
    const std::vector<std::uint8_t> v = emscripten::convertJSArrayToNumberVector<std::uint8_t>(bytes);
    std::string message;
    try {
      return World(
          CollisionWorld::restore(std::span<const std::byte>(reinterpret_cast<const std::byte*>(v.data()), v.size())));
    } catch (const InvalidSnapshot& e) {
      message = e.what();
    }
    rethrow_as_js("InvalidSnapshot", message);
  }

  ColliderId add_shape(const Shape& s, const Transform& xf, const val& options) {
    const ColliderOptions o = options_of(options);
    return guarded([&] { return world_.add(s, xf, o); });
  }
  ColliderId add_parts(const val& parts, const Transform& xf, const val& options) {
    const std::vector<Shape> shapes = shapes_of(parts);
    const ColliderOptions o = options_of(options);
    return guarded([&] { return world_.add(std::span<const Shape>(shapes), xf, o); });
  }
  ColliderId add_chain(const Chain& chain, const Transform& xf, const val& options) {
    ColliderOptions o = options_of(options);
    if (options.isUndefined() || options.isNull() || options["fixed"].isUndefined()) o.fixed = true;
    return guarded([&] { return world_.add(chain, xf, o); });
  }
  ColliderId add_heightfield(const Heightfield& field, const Transform& xf, const val& options) {
    ColliderOptions o = options_of(options);
    if (options.isUndefined() || options.isNull() || options["fixed"].isUndefined()) o.fixed = true;
    return guarded([&] { return world_.add(field, xf, o); });
  }
  bool remove(ColliderId id) { return world_.remove(id); }
  bool set_transform(ColliderId id, const Transform& xf) { return world_.set_transform(id, xf); }
  bool set_shape(ColliderId id, const Shape& s) { return world_.set_shape(id, s); }
  bool set_user_data(ColliderId id, double user_data) {
    return world_.set_user_data(id, static_cast<uint64_t>(user_data));
  }
  bool contains(ColliderId id) const { return world_.contains(id); }
  int size() const { return world_.size(); }
  int part_count(ColliderId id) const { return world_.part_count(id); }
  val transform(ColliderId id) const {
    const Transform* xf = world_.transform(id);
    return xf ? val(*xf) : val::null();
  }
  val user_data(ColliderId id) const {
    const ColliderOptions* o = world_.options(id);
    return o ? val(static_cast<double>(o->user_data)) : val::null();
  }
  Aabb box(ColliderId id) const { return world_.box(id); }

  /// Moves colliders [first, first + n) of the ids registered with track() (in order) to the
  /// poses in `poses` (x, y, c, s per collider).
  void track(ColliderId id) { tracked_.push_back(id); }
  int set_transforms(const val& poses) {
    const std::vector<float> p = emscripten::convertJSArrayToNumberVector<float>(poses);
    const size_t n = std::min(tracked_.size(), p.size() / 4);
    poses_.resize(n);
    for (size_t i = 0; i < n; ++i) poses_[i] = Transform{{p[4 * i], p[4 * i + 1]}, {p[4 * i + 2], p[4 * i + 3]}};
    return world_.set_transforms(std::span(tracked_).first(n), poses_);
  }

  void update() { world_.update(); }
  int contact_count() const { return static_cast<int>(world_.contacts().size()); }
  val contacts() const {
    const auto pairs = world_.contacts();
    val a = val::array();
    for (size_t i = 0; i < pairs.size(); ++i) {
      val c = val::object();
      c.set("a", id_val(pairs[i].a));
      c.set("b", id_val(pairs[i].b));
      c.set("part_a", pairs[i].part_a);
      c.set("part_b", pairs[i].part_b);
      c.set("manifold", manifold_val(pairs[i].manifold));
      a.set(i, c);
    }
    return a;
  }
  val touch_begin_events() const { return events_val(world_.touch_begin_events()); }
  val touch_end_events() const { return events_val(world_.touch_end_events()); }
  val stats() const {
    const WorldStats s = world_.stats();
    val o = val::object();
    o.set("colliders", s.colliders);
    o.set("fixed", s.fixed);
    o.set("pairs", s.pairs);
    o.set("contacts", s.contacts);
    o.set("collided", s.collided);
    o.set("reused", s.reused);
    o.set("part_slots", s.part_slots);
    o.set("separated", s.separated);
    o.set("new_pairs", s.new_pairs);
    return o;
  }

  RayAnswer cast_ray(const Ray& ray, const val& filter) const {
    return answer_of(world_.cast_ray(ray, filter.isUndefined() ? QueryFilter{} : query_filter_of(filter)));
  }
  RayAnswer cast_circle(const Ray& ray, float radius, const val& filter) const {
    return answer_of(world_.cast_circle(ray, radius, query_filter_of(filter)));
  }
  RayAnswer cast_shape(const Shape& s, const Transform& xf, Vec2 translation, const val& filter) const {
    return answer_of(world_.cast_shape(s, xf, translation, query_filter_of(filter)));
  }
  /// Every hit of the ray (or circle, radius > 0), by fraction, then by collider index.
  val cast_ray_all(const Ray& ray, float radius, const val& filter) const {
    std::vector<WorldCastResult> hits;
    auto collect = [&](const WorldCastResult& r) {
      hits.push_back(r);
      return 1.0f;
    };
    if (radius > 0) {
      world_.cast_circle(ray, radius, collect, query_filter_of(filter));
    } else {
      world_.cast_ray(ray, collect, query_filter_of(filter));
    }
    std::stable_sort(hits.begin(), hits.end(), [](const WorldCastResult& x, const WorldCastResult& y) {
      return x.hit.fraction != y.hit.fraction ? x.hit.fraction < y.hit.fraction : x.id.index < y.id.index;
    });
    val a = val::array();
    for (size_t i = 0; i < hits.size(); ++i) a.set(i, ray_result_val(hits[i]));
    return a;
  }
  /// rays: origin x, y, translation x, y per ray. Returns, per ray, the closest hit's fraction (1 and
  /// no hit: -1 in `hit_index`), and the hit collider's slot index (-1 when none) in a second array:
  /// {fraction: Float32Array, index: Int32Array}.
  val cast_rays(const val& rays) const {
    const std::vector<float> r = emscripten::convertJSArrayToNumberVector<float>(rays);
    const size_t n = r.size() / 4;
    std::vector<float> fraction(n, 1.0f);
    std::vector<int32_t> index(n, -1);
    for (size_t i = 0; i < n; ++i) {
      const WorldCastResult hit = world_.cast_ray(Ray{{r[4 * i], r[4 * i + 1]}, {r[4 * i + 2], r[4 * i + 3]}});
      if (hit) {
        fraction[i] = hit.hit.fraction;
        index[i] = static_cast<int32_t>(hit.id.index);
      }
    }
    val out = val::object();
    out.set("fraction",
            val::global("Float32Array").new_(emscripten::typed_memory_view(n, fraction.data())).call<val>("slice"));
    out.set("index", val::global("Int32Array").new_(emscripten::typed_memory_view(n, index.data())).call<val>("slice"));
    return out;
  }
  val overlap_point(Vec2 p, const val& filter) const {
    val a = val::array();
    unsigned k = 0;
    world_.overlap_point(
        p,
        [&](ColliderId id) {
          a.set(k++, id_val(id));
          return true;
        },
        query_filter_of(filter));
    return a;
  }
  val overlap_aabb(const Aabb& box, const val& filter) const {
    val a = val::array();
    unsigned k = 0;
    world_.overlap_aabb(
        box,
        [&](ColliderId id) {
          a.set(k++, id_val(id));
          return true;
        },
        query_filter_of(filter));
    return a;
  }
  val overlap_shape(const Shape& s, const Transform& xf, const val& filter) const {
    val a = val::array();
    unsigned k = 0;
    world_.overlap_shape(
        s, xf,
        [&](ColliderId id) {
          a.set(k++, id_val(id));
          return true;
        },
        query_filter_of(filter));
    return a;
  }

  /// The contacts the shape would have: [{id, part, manifold}] (normal from the collider to the shape).
  val collide_shape(const Shape& s, const Transform& xf, float margin, const val& filter) const {
    val a = val::array();
    unsigned k = 0;
    world_.collide_shape(
        s, xf, margin,
        [&](ColliderId id, int part, const Manifold& m) {
          val c = val::object();
          c.set("id", id_val(id));
          c.set("part", part);
          c.set("manifold", manifold_val(m));
          a.set(k++, c);
          return true;
        },
        query_filter_of(filter));
    return a;
  }
  /// The k nearest colliders by distance() (within max_distance), nearest first: [{id, part, distance}].
  val nearest(const Shape& s, const Transform& xf, int k, float max_distance, const val& filter) const {
    std::vector<Neighbor> out(static_cast<size_t>(std::clamp(k, 0, 1 << 20)));
    const int n = world_.nearest(s, xf, out, max_distance, query_filter_of(filter));
    val a = val::array();
    for (int i = 0; i < n; ++i) {
      val o = val::object();
      o.set("id", id_val(out[size_t(i)].id));
      o.set("part", out[size_t(i)].part);
      o.set("distance", out[size_t(i)].distance);
      a.set(i, o);
    }
    return a;
  }
  /// The parts whose tree boxes overlap the box (CollisionWorld::parts_in_box: no exact test),
  /// moving colliders first: [{id, part, shape, segment, xf, box, fixed}]. shape is a Shape and
  /// segment a ChainSegment (or null when the part is not a chain's): copies, the caller's to
  /// delete(); xf and box are plain objects.
  val parts_in_box(const Aabb& box, const val& filter) const {
    const QueryFilter f = query_filter_of(filter);
    // The C++ call returns how many it found, which may exceed the buffer: then once more with
    // room for all.
    std::vector<PartView> views(64);
    int n = world_.parts_in_box(box, views, f);
    if (size_t(n) > views.size()) {
      views.resize(size_t(n));
      n = world_.parts_in_box(box, views, f);
    }
    val a = val::array();
    for (int i = 0; i < n; ++i) {
      const PartView& v = views[size_t(i)];
      val o = val::object();
      o.set("id", id_val(v.id));
      o.set("part", v.part);
      o.set("shape", *v.shape);
      o.set("segment", v.segment ? val(*v.segment) : val::null());
      o.set("xf", v.xf);
      o.set("box", v.box);
      o.set("fixed", v.fixed);
      a.set(i, o);
    }
    return a;
  }
  const CollisionWorld& native() const { return world_; }

private:
  static WorldSettings settings_of(const val& s) {
    WorldSettings settings;
    if (s.isUndefined() || s.isNull()) return settings;
    if (!s["contact_margin"].isUndefined()) settings.contact_margin = s["contact_margin"].as<float>();
    if (!s["reuse_contacts"].isUndefined()) settings.reuse_contacts = s["reuse_contacts"].as<bool>();
    const val bounds = s["reuse_bounds"];
    if (bounds.isString() && bounds.as<std::string>() == "box2d_v3") {
      settings.reuse_bounds = ReuseBounds::box2d_v3();
    } else if (bounds.isString()) {
      rethrow_as_js("InvalidArgument", "CollisionWorld: reuse_bounds is \"box2d_v3\" or {distance, angle}");
    } else if (!bounds.isUndefined() && !bounds.isNull()) {
      if (!bounds["distance"].isUndefined()) settings.reuse_bounds.distance = bounds["distance"].as<float>();
      if (!bounds["angle"].isUndefined()) settings.reuse_bounds.angle = bounds["angle"].as<float>();
    }
    if (!s["tree_margin"].isUndefined()) settings.tree.margin = s["tree_margin"].as<float>();
    return settings;
  }

public:
  // Recording (CollisionWorld::start_recording) into memory; stop_recording() hands the bytes over.
  void start_recording() {
    auto out = std::make_unique<std::ostringstream>(std::ios::binary);
    guarded([&] { world_.start_recording(*out); });
    recording_ = std::move(out);
  }
  val stop_recording() {
    world_.stop_recording();
    const std::string bytes = recording_ ? recording_->str() : std::string();
    recording_.reset();
    return val::global("Uint8Array")
        .new_(emscripten::typed_memory_view(bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data())))
        .call<val>("slice");
  }
  bool recording() const { return world_.recording(); }
  std::string update_digest_hex() const { return hex64(update_digest(world_)); }

private:
  std::unique_ptr<std::ostringstream> recording_;  // before world_: it outlives the world's recorder
  CollisionWorld world_;
  std::vector<ColliderId> tracked_;
  std::vector<Transform> poses_;  // set_transforms()'s, kept to spare the allocation
};

/// pebble::CharacterMover (pebble/mover.hpp, docs/mover.md): settings from a plain object with the
/// C++ field names (missing fields keep the defaults); step() returns a plain object.
MoverSettings mover_settings_of(const val& o) {
  MoverSettings s;
  if (o.isUndefined() || o.isNull()) return s;
  if (!o["up"].isUndefined()) s.up = o["up"].as<Vec2>();
  if (!o["max_slope"].isUndefined()) s.max_slope = o["max_slope"].as<float>();
  if (!o["step_height"].isUndefined()) s.step_height = o["step_height"].as<float>();
  if (!o["snap_distance"].isUndefined()) s.snap_distance = o["snap_distance"].as<float>();
  if (!o["skin"].isUndefined()) s.skin = o["skin"].as<float>();
  if (!o["push_speed"].isUndefined()) s.push_speed = o["push_speed"].as<float>();
  if (!o["max_iterations"].isUndefined()) s.max_iterations = o["max_iterations"].as<int>();
  if (!o["filter"].isUndefined()) s.filter = query_filter_of(o["filter"]);
  return s;
}

class Mover {
public:
  Mover(const Shape& shape, const Transform& xf, const val& settings)
      : mover_(guarded([&] { return CharacterMover(shape, xf, mover_settings_of(settings)); })) {}
  val step(const World& world, Vec2 velocity, float dt) {
    const MoverStep r = mover_.step(world.native(), velocity, dt);
    val ground = val::object();
    ground.set("grounded", r.ground.grounded);
    ground.set("normal", r.ground.normal);
    ground.set("point", r.ground.point);
    ground.set("collider", id_val(r.ground.collider));
    ground.set("part", r.ground.part);
    val o = val::object();
    o.set("transform", r.transform);
    o.set("velocity", r.velocity);
    o.set("ground", ground);
    o.set("stepped", r.stepped);
    o.set("snapped", r.snapped);
    o.set("pushed", r.pushed);
    return o;
  }
  Transform transform() const { return mover_.transform(); }
  void set_transform(const Transform& xf) { mover_.set_transform(xf); }
  void set_self(ColliderId id) { mover_.set_self(id); }

private:
  CharacterMover mover_;
};

std::string version_string() { return pebble::version(); }

}  // namespace

EMSCRIPTEN_BINDINGS(pebble) {
  using namespace emscripten;

  value_object<Vec2>("Vec2").field("x", &Vec2::x).field("y", &Vec2::y);
  value_object<Rot>("Rot").field("c", &Rot::c).field("s", &Rot::s);
  value_object<Transform>("Transform").field("p", &Transform::p).field("q", &Transform::q);
  value_object<Aabb>("Aabb").field("lower", &Aabb::lower).field("upper", &Aabb::upper);
  value_object<Ray>("Ray").field("origin", &Ray::origin).field("translation", &Ray::translation);
  value_object<Sweep>("Sweep")
      .field("local_center", &Sweep::local_center)
      .field("c0", &Sweep::c0)
      .field("c1", &Sweep::c1)
      .field("a0", &Sweep::a0)
      .field("a1", &Sweep::a1);
  value_object<MassProperties>("MassProperties")
      .field("mass", &MassProperties::mass)
      .field("center", &MassProperties::center)
      .field("inertia", &MassProperties::inertia);
  value_object<ProjectionResult>("ProjectionResult")
      .field("point", &ProjectionResult::point)
      .field("normal", &ProjectionResult::normal)
      .field("distance", &ProjectionResult::distance)
      .field("inside", &ProjectionResult::inside);
  value_object<DistanceResult>("DistanceResult")
      .field("distance", &DistanceResult::distance)
      .field("normal", &DistanceResult::normal)
      .field("point_a", &DistanceResult::point_a)
      .field("point_b", &DistanceResult::point_b);
  value_object<CastResult>("CastResult")
      .field("hit", &CastResult::hit)
      .field("fraction", &CastResult::fraction)
      .field("point", &CastResult::point)
      .field("normal", &CastResult::normal);
  value_object<ApproachResult>("ApproachResult")
      .field("hit", &ApproachResult::hit)
      .field("time", &ApproachResult::time)
      .field("distance", &ApproachResult::distance)
      .field("point_a", &ApproachResult::point_a)
      .field("point_b", &ApproachResult::point_b)
      .field("normal", &ApproachResult::normal);
  value_object<RayAnswer>("RayAnswer")
      .field("found", &RayAnswer::found)
      .field("id", &RayAnswer::id)
      .field("part", &RayAnswer::part)
      .field("hit", &RayAnswer::hit);
  value_object<ColliderId>("ColliderId")
      .field("index", &ColliderId::index)
      .field("generation", &ColliderId::generation)
      .field("world", &ColliderId::world);

  class_<Shape>("Shape")
      .class_function("circle", &circle1)
      .class_function("circle", &circle2)
      .class_function("capsule", &capsule)
      .class_function("segment", &segment)
      .class_function("box", &box2)
      .class_function("box", &box4)
      .class_function("rounded_box", &rounded_box)
      .class_function("polygon", &polygon1)
      .class_function("polygon", &polygon2)
      .function("vertex_count", &Shape::vertex_count)
      .function("edge_count", &Shape::edge_count)
      .function("vertices", &shape_vertices)
      .function("normal", &Shape::normal)
      .function("radius", &Shape::radius)
      .function("core_centroid", &Shape::core_centroid)
      .function("extent", &Shape::extent);

  class_<ChainSegment>("ChainSegment")
      .property("a", &ChainSegment::a)
      .property("b", &ChainSegment::b)
      .property("normal", &ChainSegment::normal)
      .property("ghost_prev", &ChainSegment::ghost_prev)
      .property("ghost_next", &ChainSegment::ghost_next)
      .property("has_prev", &ChainSegment::has_prev)
      .property("has_next", &ChainSegment::has_next)
      .function("shape", optional_override([](const ChainSegment& s) { return s.shape; }));
  class_<Chain>("Chain")
      .class_function("open", &chain_open)
      .class_function("loop", &chain_loop)
      .function("segment_count", optional_override([](const Chain& c) { return c.segment_count(); }))
      .function("segment", &chain_segment)
      .function("points", &chain_points)
      .function("closed", optional_override([](const Chain& c) { return c.closed(); }));
  class_<Heightfield>("Heightfield")
      .class_function("make", &heightfield_make)
      .function("cell_count", optional_override([](const Heightfield& f) { return f.cell_count(); }))
      .function("cell", &heightfield_cell)
      .function("heights", &heightfield_heights)
      .function("spacing", optional_override([](const Heightfield& f) { return f.spacing(); }))
      .function("point", &heightfield_point)
      .function("chain", &heightfield_chain);

  function("kMaxPolygonVertices", optional_override([] { return kMaxPolygonVertices; }));
  function("version", &version_string);
  function("hex_id", &hex_id);
  function("replay", &replay_bytes);
  function("rot_from_angle", optional_override([](float a) { return Rot::from_angle(a); }));
  function("rot_angle", optional_override([](const Rot& q) { return q.angle(); }));
  function("rot_normalize", optional_override([](const Rot& q) { return normalize(q); }));
  function("transform_point", optional_override([](const Transform& xf, Vec2 v) { return transform_point(xf, v); }));
  function("inv_transform_point",
           optional_override([](const Transform& xf, Vec2 v) { return inv_transform_point(xf, v); }));
  function("decompose", &decompose_val);
  function("mass_properties", &mass_of_shape);
  function("mass_properties_parts", &mass_of_parts);
  function("area", optional_override([](const Shape& s) { return area(s); }));
  function("bounds", optional_override([](const Shape& s, const Transform& xf) { return bounds(s, xf); }));
  function("project_point",
           optional_override([](const Shape& s, const Transform& xf, Vec2 p) { return project_point(s, xf, p); }));
  function("contains",
           optional_override([](const Shape& s, const Transform& xf, Vec2 p) { return contains(s, xf, p); }));
  function("collide", &collide_val);
  function("distance", optional_override([](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
             return distance(a, xa, b, xb);
           }));
  function("overlap", optional_override([](const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
             return overlap(a, xa, b, xb);
           }));
  function("cast_ray", &cast_ray_r);
  function("cast_shape", &cast_shape_o);
  function("sweep_transform", optional_override([](const Sweep& s, float t) { return sweep_transform(s, t); }));
  function("time_of_impact", &toi_val_of);
  function("closest_approach",
           optional_override([](const Shape& a, const Transform& xa, Vec2 va, const Shape& b, const Transform& xb,
                                Vec2 vb, float horizon) { return closest_approach(a, xa, va, b, xb, vb, horizon); }));
  function("time_to_collision",
           optional_override([](const Shape& a, const Transform& xa, Vec2 va, const Shape& b, const Transform& xb,
                                Vec2 vb, float horizon) { return time_to_collision(a, xa, va, b, xb, vb, horizon); }));
  function("batch_time_to_collision", &batch_time_to_collision);
  function("batch_closest_approach", &batch_closest_approach);
  function("batch_distance", &batch_distance);
  function("batch_overlap", &batch_overlap);
  function("collide_segment", &collide_seg);
  function("distance_segment", &distance_seg);
  function("cast_ray_segment", &cast_ray_seg);
  function("cast_shape_segment", &cast_shape_seg);
  function("time_of_impact_segment", &toi_seg);
  function("closest_approach_segment", &approach_seg);
  function("outline_tiles", &outline_grid<false>);
  function("outline_tile_tops", &outline_grid<true>);

  class_<World>("CollisionWorld")
      .constructor<>()
      .constructor<const val&>()
      .function("add_shape", &World::add_shape)
      .function("add_parts", &World::add_parts)
      .function("add_chain", &World::add_chain)
      .function("add_heightfield", &World::add_heightfield)
      .function("remove", &World::remove)
      .function("set_transform", &World::set_transform)
      .function("set_shape", &World::set_shape)
      .function("set_user_data", &World::set_user_data)
      .function("contains", &World::contains)
      .function("size", &World::size)
      .function("part_count", &World::part_count)
      .function("transform", &World::transform)
      .function("user_data", &World::user_data)
      .function("box", &World::box)
      .function("track", &World::track)
      .function("set_transforms", &World::set_transforms)
      .function("update", &World::update)
      .function("start_recording", &World::start_recording)
      .function("stop_recording", &World::stop_recording)
      .function("recording", &World::recording)
      .function("update_digest", &World::update_digest_hex)
      .function("save", &World::save)
      .class_function("restore", &World::restore)
      .function("contact_count", &World::contact_count)
      .function("contacts", &World::contacts)
      .function("touch_begin_events", &World::touch_begin_events)
      .function("touch_end_events", &World::touch_end_events)
      // The old names, kept for one release (docs/api-changes.md).
      .function("begin_touch_events", &World::touch_begin_events)
      .function("end_touch_events", &World::touch_end_events)
      .function("stats", &World::stats)
      .function("cast_ray", &World::cast_ray)
      .function("cast_circle", &World::cast_circle)
      .function("cast_shape", &World::cast_shape)
      .function("cast_ray_all", &World::cast_ray_all)
      .function("cast_rays", &World::cast_rays)
      .function("overlap_point", &World::overlap_point)
      .function("overlap_aabb", &World::overlap_aabb)
      .function("overlap_shape", &World::overlap_shape)
      .function("collide_shape", &World::collide_shape)
      .function("nearest", &World::nearest)
      .function("parts_in_box", &World::parts_in_box);

  class_<Mover>("CharacterMover")
      .constructor<const Shape&, const Transform&, const val&>()
      .function("step", &Mover::step)
      .function("transform", &Mover::transform)
      .function("set_transform", &Mover::set_transform)
      .function("set_self", &Mover::set_self);
}
