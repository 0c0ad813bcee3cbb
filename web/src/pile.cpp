// web/src/pile.cpp — the sandbox stepper (sandbox/stepper.hpp, not part of the library) for
// JavaScript: the playground's pile tab runs the demo scene of `pebble demo` on it, and the
// benchmark builds its pile of boxes and circles with it. Poses cross as one Float32Array per
// step (x, y, cos, sin of each body's shape frame), not as an object per body.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <vector>

#include <pebble/pebble.hpp>
#include "sandbox/demo_scene.hpp"
#include "sandbox/stepper.hpp"

using emscripten::val;
using namespace pebble;

namespace {

val vec2(Vec2 v) {
  val o = val::object();
  o.set("x", v.x);
  o.set("y", v.y);
  return o;
}

/// A stepper on a CollisionWorld (the demo's pair source), with the poses and the outlines of its
/// bodies for drawing.
class Sandbox {
public:
  Sandbox() : stepper_(sandbox::StepSettings{}, sandbox::make_pair_source(sandbox::StepSettings{}.margin)) {}

  sandbox::Stepper& stepper() { return stepper_; }

  /// body: {shape | parts, position: {x, y}, angle, density (0: static), friction, restitution}
  int add(const val& body) {
    sandbox::BodyDef def;
    if (!body["parts"].isUndefined()) {
      const unsigned n = body["parts"]["length"].as<unsigned>();
      for (unsigned i = 0; i < n; ++i) def.parts.push_back(body["parts"][i].as<Shape>());
    } else {
      def.shape = body["shape"].as<Shape>();
    }
    const Vec2 p = body["position"].isUndefined() ? Vec2{} : body["position"].as<Vec2>();
    const float angle = body["angle"].isUndefined() ? 0.0f : body["angle"].as<float>();
    def.xf = Transform{p, Rot::from_angle(angle)};
    if (!body["density"].isUndefined()) def.density = body["density"].as<float>();
    if (!body["friction"].isUndefined()) def.friction = body["friction"].as<float>();
    if (!body["restitution"].isUndefined()) def.restitution = body["restitution"].as<float>();
    if (!body["velocity"].isUndefined()) def.velocity = body["velocity"].as<Vec2>();
    return stepper_.add(def);
  }
  int add_chain(const Chain& chain) { return stepper_.add_chain(chain); }
  void step(float dt) { stepper_.step(dt); }

  int body_count() const { return static_cast<int>(stepper_.bodies().size()); }
  /// x, y, c, s of every body's shape frame, in body order.
  val poses() const {
    const auto& bodies = stepper_.bodies();
    poses_.resize(4 * bodies.size());
    for (size_t i = 0; i < bodies.size(); ++i) {
      const Transform& xf = bodies[i].xf;
      poses_[4 * i] = xf.p.x;
      poses_[4 * i + 1] = xf.p.y;
      poses_[4 * i + 2] = xf.q.c;
      poses_[4 * i + 3] = xf.q.s;
    }
    return val::global("Float32Array")
        .new_(emscripten::typed_memory_view(poses_.size(), poses_.data()))
        .call<val>("slice");
  }
  /// The parts of body i in its frame: [{vertices: [{x, y}...], radius}], or for a chain
  /// {chain: true, points, closed}.
  val outline(int i) const {
    const sandbox::Body& b = stepper_.bodies().at(static_cast<size_t>(i));
    val o = val::object();
    if (b.chain >= 0) {
      const Chain& chain = stepper_.chains()[static_cast<size_t>(b.chain)];
      val points = val::array();
      const auto p = chain.points();
      for (size_t k = 0; k < p.size(); ++k) points.set(k, vec2(p[k]));
      o.set("chain", true);
      o.set("points", points);
      o.set("closed", chain.closed());
      return o;
    }
    val parts = val::array();
    for (size_t k = 0; k < b.parts.size(); ++k) {
      val part = val::object();
      val vertices = val::array();
      const auto v = b.parts[k].vertices();
      for (size_t j = 0; j < v.size(); ++j) vertices.set(j, vec2(v[j]));
      part.set("vertices", vertices);
      part.set("radius", b.parts[k].radius());
      parts.set(k, part);
    }
    o.set("chain", false);
    o.set("parts", parts);
    o.set("static", b.is_static());
    return o;
  }
  float kinetic_energy() const { return stepper_.kinetic_energy(); }
  float max_point_speed() const { return stepper_.max_point_speed(); }
  val stats() const {
    const sandbox::StepStats& s = stepper_.stats();
    val o = val::object();
    o.set("manifolds", s.manifolds);
    o.set("points", s.points);
    o.set("max_penetration", s.max_penetration);
    return o;
  }
  /// A fresh collision pass at margin 0: the largest penetration and the touching pairs now.
  val measure() {
    const sandbox::StepStats s = stepper_.measure();
    val o = val::object();
    o.set("manifolds", s.manifolds);
    o.set("max_penetration", s.max_penetration);
    return o;
  }

private:
  sandbox::Stepper stepper_;
  mutable std::vector<float> poses_;
};

/// The scene of `pebble demo` (sandbox/demo_scene.hpp): a container, and rows of shapes of every
/// kind released one row at a time.
class DemoPile {
public:
  DemoPile(int shape_count, unsigned seed) : scene_(sandbox::DemoSceneSettings{shape_count, seed}) {
    scene_.add_container(sandbox_.stepper());
  }
  /// Releases the rows due, then advances by dt; returns the bodies added.
  int step(float dt) {
    const int added = scene_.release(sandbox_.stepper(), time_);
    sandbox_.step(dt);
    time_ += dt;
    return added;
  }
  float time() const { return time_; }
  bool all_released() const { return scene_.all_released(); }
  float last_release_time() const { return scene_.last_release_time(); }
  val kinds() const {
    val a = val::array();
    const auto& k = scene_.kinds();
    for (size_t i = 0; i < k.size(); ++i) a.set(i, static_cast<int>(k[i]));
    return a;
  }
  Aabb view() const { return scene_.view(); }
  Aabb container_view() const { return scene_.container_view(); }
  Sandbox& sandbox() { return sandbox_; }

  int body_count() const { return sandbox_.body_count(); }
  val poses() const { return sandbox_.poses(); }
  val outline(int i) const { return sandbox_.outline(i); }
  float kinetic_energy() const { return sandbox_.kinetic_energy(); }
  float max_point_speed() const { return sandbox_.max_point_speed(); }
  val stats() const { return sandbox_.stats(); }
  val measure() { return sandbox_.measure(); }

private:
  Sandbox sandbox_;
  sandbox::DemoScene scene_;
  float time_ = 0;
};

}  // namespace

EMSCRIPTEN_BINDINGS(pebble_sandbox) {
  using namespace emscripten;
  class_<Sandbox>("Stepper")
      .constructor<>()
      .function("add", &Sandbox::add)
      .function("add_chain", &Sandbox::add_chain)
      .function("step", &Sandbox::step)
      .function("body_count", &Sandbox::body_count)
      .function("poses", &Sandbox::poses)
      .function("outline", &Sandbox::outline)
      .function("kinetic_energy", &Sandbox::kinetic_energy)
      .function("max_point_speed", &Sandbox::max_point_speed)
      .function("stats", &Sandbox::stats)
      .function("measure", &Sandbox::measure);
  class_<DemoPile>("DemoPile")
      .constructor<int, unsigned>()
      .function("step", &DemoPile::step)
      .function("time", &DemoPile::time)
      .function("all_released", &DemoPile::all_released)
      .function("last_release_time", &DemoPile::last_release_time)
      .function("kinds", &DemoPile::kinds)
      .function("view", &DemoPile::view)
      .function("container_view", &DemoPile::container_view)
      .function("body_count", &DemoPile::body_count)
      .function("poses", &DemoPile::poses)
      .function("outline", &DemoPile::outline)
      .function("kinetic_energy", &DemoPile::kinetic_energy)
      .function("max_point_speed", &DemoPile::max_point_speed)
      .function("stats", &DemoPile::stats)
      .function("measure", &DemoPile::measure);
}
