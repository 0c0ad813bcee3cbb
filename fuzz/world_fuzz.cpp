// Fuzz target: CollisionWorld under arbitrary sequences of operations (add, remove, moves,
// shape / filter / user data changes, update, every scene query) with arbitrary shapes,
// transforms, filters, sensors and fixed colliders, and with ids that are stale, foreign or
// garbage. A brute-force model of the world (every pair through collide(), every query through
// the one-shape queries) says what each answer must be:
//   - ids: stale or foreign ones are refused, live ones work, add() throws exactly for invalid
//     transforms; validate() holds after every operation;
//   - update(): contacts() are exactly the live pairs that may touch and whose collide() at the
//     world's margin has points, with that very manifold; begin / end touch and sensor events are
//     exactly the changes of those sets since the last update;
//   - queries: the closest hit of a cast is the least fraction over all colliders the filter
//     passes; overlap, distance, box and point queries report exactly the colliders they should.
#include <algorithm>
#include <array>
#include <iterator>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "fuzz_input.hpp"
#include "invariants.hpp"

namespace pebble_fuzz::world_target {
namespace {

using pebble::CollisionWorld;
using pebble::ColliderId;
using pebble::ColliderOptions;
using pebble::Filter;
using pebble::QueryFilter;
using pebble::Ray;
using pebble::RayResult;
using pebble::Shape;
using pebble::Transform;

/// Most live colliders a run builds (the brute force is quadratic).
constexpr int kMostColliders = 40;
/// Most operations a run makes.
constexpr int kMostOperations = 256;

/// What the world should hold for one collider.
struct Entry {
  ColliderId id;
  bool live = true;
  Shape shape;
  Transform xf;
  ColliderOptions options;
};

/// A pair of ids ordered as the world orders them (lower slot index first).
using IdPair = std::pair<ColliderId, ColliderId>;
struct IdLess {
  bool operator()(const ColliderId& a, const ColliderId& b) const {
    return std::tie(a.index, a.generation, a.world) < std::tie(b.index, b.generation, b.world);
  }
  bool operator()(const IdPair& a, const IdPair& b) const {
    return (*this)(a.first, b.first) || (!(*this)(b.first, a.first) && (*this)(a.second, b.second));
  }
};
using PairSet = std::set<IdPair, IdLess>;
using IdSet = std::set<ColliderId, IdLess>;

struct Model {
  std::vector<Entry> entries;  // every collider ever added, by order of addition
  PairSet contacts, sensors;   // as of the last update(); sensors hold (sensor, visitor)

  Entry* find(ColliderId id) {
    for (Entry& e : entries) {
      if (e.id == id && e.live) return &e;
    }
    return nullptr;
  }
  int live() const {
    return int(std::count_if(entries.begin(), entries.end(), [](const Entry& e) { return e.live; }));
  }
};

Filter read_filter(FuzzInput& in) {
  Filter f;
  f.category = std::uint64_t(1) << in.below(4);
  f.mask = in.flag() ? ~0ull : std::uint64_t(in.u8() & 15);
  f.group = in.below(5) - 2;
  return f;
}

QueryFilter read_query_filter(FuzzInput& in) {
  QueryFilter f;
  const std::uint8_t bits = in.u8();
  f.mask = (bits & 16) ? ~0ull : std::uint64_t(bits & 15);
  f.sensors = (bits & 32) != 0;
  return f;
}

/// An id to use: one the world gave (live or removed), or now and then the default id, one of
/// another world, or garbage.
ColliderId read_id(FuzzInput& in, const Model& model) {
  const std::uint8_t how = in.u8();
  if (!model.entries.empty() && how < 224) return model.entries[std::size_t(in.u8()) % model.entries.size()].id;
  switch (how & 3) {
    case 0: return ColliderId{};
    case 1: {
      if (model.entries.empty()) return ColliderId{};
      ColliderId id = model.entries[std::size_t(in.u8()) % model.entries.size()].id;
      id.world += 1 + in.u8();  // the same slot in another world
      return id;
    }
    case 2: {
      if (model.entries.empty()) return ColliderId{};
      ColliderId id = model.entries[std::size_t(in.u8()) % model.entries.size()].id;
      id.generation += 1;  // the slot's next occupant, not yet born
      return id;
    }
    default: return ColliderId{in.u32(), in.u32(), in.u32()};
  }
}

/// A transform for a collider: anything at all, or a small move of where it is now.
Transform read_move(FuzzInput& in, const Entry* e) {
  const bool small = in.flag();
  if (e != nullptr && small) {
    const Vec2 step{float(std::int8_t(in.u8())) / 64.0f, float(std::int8_t(in.u8())) / 64.0f};
    return Transform{e->xf.p + step, in.flag() ? e->xf.q : pebble::Rot::from_angle(e->xf.q.angle() + float(std::int8_t(in.u8())) / 64.0f)};
  }
  return in.transform();
}

bool query_passes(const Entry& e, const QueryFilter& f) {
  return e.live && (e.options.filter.category & f.mask) != 0 && (f.sensors || !e.options.sensor);
}

/// Pairs the world may form (world.cpp's rule: not both fixed, not both sensors, the filters).
bool may_pair(const Entry& a, const Entry& b) {
  return !(a.options.fixed && b.options.fixed) && !(a.options.sensor && b.options.sensor) &&
         pebble::should_collide(a.options.filter, b.options.filter);
}

void check_ids_and_boxes(const CollisionWorld& world, const Model& model) {
  FUZZ_REQUIRE(world.size() == model.live());
  for (const Entry& e : model.entries) {
    FUZZ_REQUIRE(world.contains(e.id) == e.live);
    if (!e.live) {
      FUZZ_REQUIRE(world.shape(e.id) == nullptr && world.transform(e.id) == nullptr && world.options(e.id) == nullptr);
      continue;
    }
    FUZZ_REQUIRE(world.transform(e.id) != nullptr && *world.transform(e.id) == e.xf);
    FUZZ_REQUIRE(world.options(e.id) != nullptr && world.options(e.id)->filter == e.options.filter);
    // The collider's tree box holds its bounds.
    const Aabb box = world.box(e.id), tight = pebble::bounds(e.shape, e.xf);
    check_box(box);
    FUZZ_REQUIRE(pebble::contains(box, tight));
  }
  FUZZ_REQUIRE(world.validate());
}

/// After update(): contacts and events against the brute force.
void check_update(const CollisionWorld& world, Model& model) {
  const float margin = world.settings().contact_margin;
  PairSet contacts, sensors;
  std::map<IdPair, Manifold, IdLess> manifolds;
  std::vector<const Entry*> live;
  for (const Entry& e : model.entries) {
    if (e.live) live.push_back(&e);
  }
  std::sort(live.begin(), live.end(), [](const Entry* a, const Entry* b) { return a->id.index < b->id.index; });
  for (std::size_t i = 0; i < live.size(); ++i) {
    for (std::size_t j = i + 1; j < live.size(); ++j) {
      const Entry& a = *live[i];
      const Entry& b = *live[j];
      if (!may_pair(a, b)) continue;
      if (a.options.sensor || b.options.sensor) {
        if (pebble::overlap(a.shape, a.xf, b.shape, b.xf)) sensors.insert(a.options.sensor ? IdPair{a.id, b.id} : IdPair{b.id, a.id});
        continue;
      }
      const Manifold m = pebble::collide(a.shape, a.xf, b.shape, b.xf, margin);
      if (m.count > 0) {
        contacts.insert({a.id, b.id});
        manifolds[{a.id, b.id}] = m;
      }
    }
  }
  PairSet seen;
  for (const pebble::ContactPair& c : world.contacts()) {
    FUZZ_REQUIRE(world.contains(c.a) && world.contains(c.b));  // contacts only between live colliders
    FUZZ_REQUIRE(c.a.index < c.b.index);
    FUZZ_REQUIRE(seen.insert({c.a, c.b}).second);
    check_manifold(c.manifold, margin);
    FUZZ_REQUIRE(c.manifold.count > 0);
    const auto expected = manifolds.find({c.a, c.b});
    FUZZ_REQUIRE(expected != manifolds.end());
    FUZZ_REQUIRE(same_bits(expected->second, c.manifold));
  }
  FUZZ_REQUIRE(seen.size() == contacts.size());

  const auto difference = [](const PairSet& x, const PairSet& y) {
    PairSet out;
    std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::inserter(out, out.end()), IdLess{});
    return out;
  };
  const auto as_set = [](auto events, auto first, auto second) {
    PairSet out;
    for (const auto& e : events) FUZZ_REQUIRE(out.insert({e.*first, e.*second}).second);
    return out;
  };
  using pebble::ContactEvent;
  using pebble::SensorEvent;
  FUZZ_REQUIRE(as_set(world.begin_touch_events(), &ContactEvent::a, &ContactEvent::b) == difference(contacts, model.contacts));
  FUZZ_REQUIRE(as_set(world.end_touch_events(), &ContactEvent::a, &ContactEvent::b) == difference(model.contacts, contacts));
  FUZZ_REQUIRE(as_set(world.sensor_begin_events(), &SensorEvent::sensor, &SensorEvent::visitor) == difference(sensors, model.sensors));
  FUZZ_REQUIRE(as_set(world.sensor_end_events(), &SensorEvent::sensor, &SensorEvent::visitor) == difference(model.sensors, sensors));
  model.contacts = std::move(contacts);
  model.sensors = std::move(sensors);

  const pebble::WorldStats stats = world.stats();
  FUZZ_REQUIRE(stats.colliders == model.live());
  FUZZ_REQUIRE(stats.contacts == int(world.contacts().size()));
}

/// A closest-hit query against the brute force: `cast(e)` is the one-collider answer.
template <class Cast>
void check_closest(const std::optional<RayResult>& got, const Model& model, const QueryFilter& filter, bool valid, Cast cast) {
  float best = 2;
  bool sharp_segment_hit = false;  // a collider hit is a segment of radius 0 (see below)
  for (const Entry& e : model.entries) {
    if (!query_passes(e, filter) || !valid) continue;
    const CastHit h = cast(e);
    if (h.hit) best = std::min(best, h.fraction);
    if (h.hit && e.shape.vertex_count() == 2 && e.shape.radius() == 0) sharp_segment_hit = true;
  }
  if (!got) {
    // Open (docs/robustness.md; inputs in fuzz/known/): the single shape_cast() of two sharp,
    // nearly parallel segments can report a touch the world's cast (rightly) does not, 24-43
    // units from the collider. One sliver case is fixed (sharp_entry_holds(); its input is in the
    // corpus); fuzz/known/world-sharp-segment-graze-2, a segment 6e-13 long, is not yet.
    if (sharp_segment_hit) FUZZ_KNOWN_ISSUE(best == 2, "shape_cast can report a false touch of two nearly parallel sharp segments");
    else FUZZ_REQUIRE(best == 2);  // no collider is hit
    return;
  }
  FUZZ_REQUIRE(valid);
  check_cast(got->hit, true);
  FUZZ_REQUIRE(got->hit.hit);
  const Entry* e = nullptr;
  for (const Entry& x : model.entries) {
    if (x.id == got->id && x.live) e = &x;
  }
  FUZZ_REQUIRE(e != nullptr && query_passes(*e, filter));
  const CastHit own = cast(*e);
  FUZZ_REQUIRE(own.hit && same_bits(own.fraction, got->hit.fraction) && same_bits(own.point, got->hit.point) &&
               same_bits(own.normal, got->hit.normal));
  FUZZ_REQUIRE(got->hit.fraction == best);
}

/// A query that reports colliders: every reported id once, live and passing, and exactly those
/// `wanted` says. Also asks once more and stops at the first report, which must then be alone.
template <class Query, class Wanted>
void check_reports(const Model& model, const QueryFilter& filter, Query query, Wanted wanted) {
  IdSet got, expected;
  query([&](ColliderId id) {
    FUZZ_REQUIRE(got.insert(id).second);
    return true;
  });
  for (const Entry& e : model.entries) {
    if (query_passes(e, filter) && wanted(e)) expected.insert(e.id);
  }
  FUZZ_REQUIRE(got == expected);
  int reports = 0;
  query([&](ColliderId) {
    ++reports;
    return false;
  });
  FUZZ_REQUIRE(reports == (got.empty() ? 0 : 1));
}

std::string lit(const ColliderId& id) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "{%u, %u, %u}", id.index, id.generation, id.world);
  return buf;
}
std::string lit(const Filter& f) {
  return "Filter{" + std::to_string(f.category) + "u, " + std::to_string(f.mask) + "u, " + std::to_string(f.group) + "}";
}
std::string lit(const QueryFilter& f) { return "QueryFilter{" + std::to_string(f.mask) + "u, " + (f.sensors ? "true" : "false") + "}"; }
using pebble_fuzz::lit;

}  // namespace

int run(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  // Known issue: AabbTree's binned SAH rebuild (src/world/tree.cpp, the world branch's) divides its bin
  // count by the spread of the box centres along an axis; a spread below about 5e-38 overflows to
  // infinity and the bin index converts from inf or NaN to int (undefined behaviour, an index far
  // out of the bin array). Reported with tests/robustness_test.cpp
  // DISABLED_FixedTreeRebuildWithCentresADenormalApart; until it is fixed, this target reads
  // magnitudes below 1e-20 as 0, so that no two colliders' box centres can be that close but apart.
  in.flush_below(1e-20f);
  // Colliders may have any valid rotation: |q|^2 within kRotationTolerance of 1 (invariants.hpp).
  g_unit_tolerance = kUnitTolerance + 2 * pebble::kRotationTolerance;
  pebble::WorldSettings settings;
  const std::uint8_t setup = in.u8();
  settings.contact_margin = std::array<float, 4>{0, pebble::kDefaultContactMargin, 0.1f, 1}[setup & 3];
  settings.threads = (setup & 4) ? 2 : 1;
  // The model is collide() bit for bit; contact reuse carries manifolds within the contract's
  // accuracy instead, which tests/reuse_test.cpp checks against the oracle.
  settings.reuse_contacts = false;
  settings.tree.margin = std::array<float, 4>{0.1f, 0, 1, 1e-3f}[(setup >> 3) & 3];
  settings.tree.prediction = (setup & 32) ? 0.0f : 2.0f;
  CollisionWorld world(settings);
  Model model;
  const Shape fallback = Shape::circle(0.5f);
  // What happened so far, printed with a violation.
  std::string log = "  settings: margin " + lit(settings.contact_margin) + ", threads " + std::to_string(settings.threads) + ", tree margin " +
                    lit(settings.tree.margin) + ", prediction " + lit(settings.tree.prediction) + "\n";
  g_describe_input = [&] { return log; };
  // PEBBLE_FUZZ_TRACE=1 prints each operation as it is made (for a crash that is not a violation,
  // such as a sanitizer report).
  static const bool trace = std::getenv("PEBBLE_FUZZ_TRACE") != nullptr;
  std::size_t traced = 0;

  for (int step = 0; step < kMostOperations && !in.empty(); ++step) {
    switch (in.below(16)) {
      case 0:
      case 1: {  // add
        if (model.live() >= kMostColliders) break;
        Entry e{ColliderId{}, true, in.shape_or(fallback), in.transform(), ColliderOptions{}};
        e.options.fixed = in.flag();
        e.options.sensor = in.below(6) == 0;
        e.options.filter = in.flag() ? Filter{} : read_filter(in);
        e.options.user_data = in.u8();
        log += "  add(" + lit(e.shape) + ", " + lit(e.xf) + ", fixed " + (e.options.fixed ? "1" : "0") + ", sensor " +
               (e.options.sensor ? "1" : "0") + ", " + lit(e.options.filter) + ")";
        try {
          e.id = world.add(e.shape, e.xf, e.options);
          log += " -> " + lit(e.id) + "\n";
          FUZZ_REQUIRE(pebble::is_valid(e.xf));
        } catch (const std::invalid_argument&) {
          log += " -> refused\n";
          FUZZ_REQUIRE(!pebble::is_valid(e.xf));
          break;
        }
        for (const Entry& other : model.entries) FUZZ_REQUIRE(!(other.id == e.id));  // ids never repeat
        model.entries.push_back(e);
        break;
      }
      case 2: {  // remove
        const ColliderId id = read_id(in, model);
        Entry* e = model.find(id);
        log += "  remove(" + lit(id) + ")\n";
        FUZZ_REQUIRE(world.remove(id) == (e != nullptr));
        if (e != nullptr) e->live = false;
        break;
      }
      case 3:
      case 4: {  // move
        const ColliderId id = read_id(in, model);
        Entry* e = model.find(id);
        const Transform xf = read_move(in, e);
        const bool ok = e != nullptr && pebble::is_valid(xf);
        log += "  set_transform(" + lit(id) + ", " + lit(xf) + ")\n";
        FUZZ_REQUIRE(world.set_transform(id, xf) == ok);
        if (ok) e->xf = xf;
        break;
      }
      case 5: {  // move every collider a little
        const Vec2 step{float(std::int8_t(in.u8())) / 128.0f, float(std::int8_t(in.u8())) / 128.0f};
        log += "  move every collider by " + lit(step) + "\n";
        for (Entry& e : model.entries) {
          if (!e.live) continue;
          const Transform xf{e.xf.p + step, e.xf.q};
          FUZZ_REQUIRE(world.set_transform(e.id, xf) == pebble::is_valid(xf));
          if (pebble::is_valid(xf)) e.xf = xf;
        }
        break;
      }
      case 6: {  // set_shape
        const ColliderId id = read_id(in, model);
        const Shape shape = in.shape_or(fallback);
        Entry* e = model.find(id);
        log += "  set_shape(" + lit(id) + ", " + lit(shape) + ")\n";
        FUZZ_REQUIRE(world.set_shape(id, shape) == (e != nullptr));
        if (e != nullptr) e->shape = shape;
        break;
      }
      case 7: {  // set_filter, set_user_data
        const ColliderId id = read_id(in, model);
        const Filter f = read_filter(in);
        Entry* e = model.find(id);
        log += "  set_filter(" + lit(id) + ", " + lit(f) + ")\n";
        FUZZ_REQUIRE(world.set_filter(id, f) == (e != nullptr));
        FUZZ_REQUIRE(world.set_user_data(id, 7) == (e != nullptr));
        if (e != nullptr) e->options.filter = f;
        break;
      }
      case 8:
      case 9:
      case 10: {
        log += "  update()\n";
        world.update();
        check_update(world, model);
        break;
      }
      case 11: {  // rays and circle casts
        const Ray ray{in.vec2(), in.vec2()};
        const float radius = in.flag() ? 0.0f : in.number();
        const QueryFilter filter = read_query_filter(in);
        const bool valid = pebble::is_valid_point(ray.origin) && pebble::is_valid_point(ray.translation);
        log += "  cast_ray / cast_circle(Ray{" + lit(ray.origin) + ", " + lit(ray.translation) + "}, " + lit(radius) + ", " + lit(filter) +
               ")\n";
        if (radius == 0) {
          check_closest(world.cast_ray(ray, filter), model, filter, valid, [&](const Entry& e) { return pebble::raycast(e.shape, e.xf, ray); });
        }
        const bool radius_ok = radius >= 0 && radius <= pebble::kMaxShapeExtent;
        check_closest(world.cast_circle(ray, radius, filter), model, filter, valid && radius_ok, [&](const Entry& e) {
          return radius > 0 ? pebble::raycast(e.shape, e.xf, ray, radius) : pebble::raycast(e.shape, e.xf, ray);
        });
        break;
      }
      case 12: {  // shape casts
        const Shape shape = in.shape_or(fallback);
        const Transform xf = in.transform();
        const Vec2 translation = in.vec2();
        const QueryFilter filter = read_query_filter(in);
        const pebble::ShapeCastOptions options{in.flag() ? 0.0f : in.number()};
        log += "  cast_shape(" + lit(shape) + ", " + lit(xf) + ", " + lit(translation) + ", " + lit(filter) + ", target " +
               lit(options.target_separation) + ")\n";
        const bool valid = pebble::is_valid(xf) && pebble::is_valid_point(translation) && options.target_separation >= 0 &&
                           options.target_separation <= pebble::kMaxShapeExtent;
        check_closest(world.cast_shape(shape, xf, translation, filter, options), model, filter, valid, [&](const Entry& e) {
          CastHit h = pebble::shape_cast(shape, xf, translation, e.shape, e.xf, Vec2{}, options);
          h.normal = -h.normal;
          return h;
        });
        break;
      }
      case 13: {  // overlap_shape and within_distance
        const Shape shape = in.shape_or(fallback);
        const Transform xf = in.transform();
        const float reach = in.flag() ? 0.0f : in.number();
        const QueryFilter filter = read_query_filter(in);
        const bool valid = pebble::is_valid(xf);
        log += "  overlap_shape / within_distance(" + lit(shape) + ", " + lit(xf) + ", " + lit(reach) + ", " + lit(filter) + ")\n";
        check_reports(model, filter, [&](auto f) { world.overlap_shape(shape, xf, f, filter); },
                      [&](const Entry& e) { return valid && pebble::overlap(e.shape, e.xf, shape, xf); });
        const bool reach_ok = valid && reach >= 0 && reach <= pebble::kMaxWorldCoordinate;
        check_reports(model, filter, [&](auto f) { world.within_distance(shape, xf, reach, f, filter); }, [&](const Entry& e) {
          if (!reach_ok) return false;
          return reach == 0 ? pebble::overlap(e.shape, e.xf, shape, xf) : pebble::distance(e.shape, e.xf, shape, xf).distance <= reach;
        });
        break;
      }
      case 14: {  // overlap_aabb and overlap_point
        const Vec2 p = in.vec2(), q = in.vec2();
        const QueryFilter filter = read_query_filter(in);
        const Aabb box{pebble::min(p, q), pebble::max(p, q)};
        log += "  overlap_aabb(Aabb{" + lit(box.lower) + ", " + lit(box.upper) + "}), overlap_point(" + lit(p) + "), " + lit(filter) + "\n";
        const Vec2 half = pebble::extents(box);
        const bool valid = pebble::is_valid(box) && pebble::is_valid_point(box.lower) && pebble::is_valid_point(box.upper);
        if (valid && half.x <= pebble::kMaxShapeExtent && half.y <= pebble::kMaxShapeExtent) {
          // A box the world turns into a Shape: the colliders that overlap that shape.
          const Transform at{pebble::center(box), pebble::Rot::identity()};
          const Vec2 ends[2] = {-half, half};
          const Shape as_shape = half.x > 0 && half.y > 0 ? Shape::box(half.x, half.y) : Shape::polygon(ends);
          check_reports(model, filter, [&](auto f) { world.overlap_aabb(box, f, filter); },
                        [&](const Entry& e) { return pebble::overlap(e.shape, e.xf, as_shape, at); });
        } else {
          IdSet got;
          world.overlap_aabb(box, [&](ColliderId id) {
            FUZZ_REQUIRE(got.insert(id).second);
            const Entry* e = model.find(id);
            FUZZ_REQUIRE(e != nullptr && query_passes(*e, filter));
            return true;
          }, filter);
          if (!valid) FUZZ_REQUIRE(got.empty());
        }
        check_reports(model, filter, [&](auto f) { world.overlap_point(p, f, filter); },
                      [&](const Entry& e) { return pebble::contains(e.shape, e.xf, p); });
        break;
      }
      default: {
        log += "  optimize_fixed()\n";
        world.optimize_fixed();
        break;
      }
    }
    if (trace) {
      std::fputs(log.c_str() + traced, stderr);
      traced = log.size();
    }
    check_ids_and_boxes(world, model);
  }
  return 0;
}

}  // namespace pebble_fuzz::world_target

#ifndef PEBBLE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pebble_fuzz::world_target::run(data, size);
}
#endif
