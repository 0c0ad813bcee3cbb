// Fuzz target: CollisionWorld under arbitrary sequences of operations (add, remove, moves,
// shape / filter / user data changes, update, every scene query) with arbitrary shapes,
// compounds (several shapes) and one-sided chains, transforms, filters, sensors and fixed
// colliders, and with ids that are stale, foreign or garbage; and a CharacterMover walked through
// that world. A brute-force model of the world (every part pair through collide() or the
// ChainSegment overload, every query through the one-shape queries over every part, never the
// world's own answers) says what each answer must be:
//   - ids: stale or foreign ones are refused, live ones work, add() throws exactly for invalid
//     transforms; validate() holds after every operation; the part table (WorldStats::part_slots)
//     stays within a first-fit bound of the live parts however often compounds are rebuilt;
//   - update(): contacts() are exactly the live part pairs that may touch and whose collide() at
//     the world's margin has points, with that very manifold; begin / end touch events (collider
//     and part level) and sensor events are exactly the changes of those sets since the last
//     update, and a collider event names the part pair docs/world.md says (the first in
//     contacts() to begin, the last in part_touch_end_events() to end);
//   - queries: the closest hit of a cast is the least fraction over all parts the filter passes
//     (chain segments one-sided), naming its part; overlap, distance, box and point queries report
//     exactly the colliders they should; collide_shape() gives every part's manifold;
//   - the mover: a finite pose that never ends a step deeper into a part than the skin (or than
//     it started), and a ground that is a live, walkable part within twice the skin.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
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

using pebble::ChainSegment;
using pebble::ColliderId;
using pebble::ColliderOptions;
using pebble::CollisionWorld;
using pebble::Filter;
using pebble::QueryFilter;
using pebble::Ray;
using pebble::Shape;
using pebble::Transform;
using pebble::WorldCastResult;

/// Most live colliders a run builds (the brute force is quadratic).
constexpr int kMostColliders = 40;
/// Most live parts (compound shapes, chain segments) a run builds.
constexpr int kMostParts = 128;
/// Most parts of one compound (a rebuilt one grows up to it).
constexpr int kMostCompoundParts = 32;
/// Most operations a run makes.
constexpr int kMostOperations = 256;

/// What the world should hold for one collider: one shape, a compound's shapes, or a chain's
/// segments (parts holds their shapes, segments the segments with their ghost vertices).
struct Entry {
  ColliderId id;
  bool live = true;
  std::vector<Shape> parts;
  Transform xf;
  ColliderOptions options;
  std::vector<ChainSegment> segments;  // a chain's, else empty

  bool chain() const { return !segments.empty(); }
  int count() const { return int(parts.size()); }
};

/// A pair of ids ordered as the world orders them (lower slot index first).
using IdPair = std::pair<ColliderId, ColliderId>;
/// A part pair: (collider a, part of a, collider b, part of b).
using PartKey = std::tuple<ColliderId, int, ColliderId, int>;
struct IdLess {
  bool operator()(const ColliderId& a, const ColliderId& b) const {
    return std::tie(a.index, a.generation, a.world) < std::tie(b.index, b.generation, b.world);
  }
  bool operator()(const IdPair& a, const IdPair& b) const {
    return (*this)(a.first, b.first) || (!(*this)(b.first, a.first) && (*this)(a.second, b.second));
  }
  bool operator()(const PartKey& a, const PartKey& b) const {
    const IdPair x{std::get<0>(a), std::get<2>(a)}, y{std::get<0>(b), std::get<2>(b)};
    if ((*this)(x, y)) return true;
    if ((*this)(y, x)) return false;
    return std::tie(std::get<1>(a), std::get<3>(a)) < std::tie(std::get<1>(b), std::get<3>(b));
  }
};
using PairSet = std::set<IdPair, IdLess>;
using IdSet = std::set<ColliderId, IdLess>;
using PartSet = std::set<PartKey, IdLess>;

struct Model {
  std::vector<Entry> entries;  // every collider ever added, by order of addition
  // As of the last update(): touching part pairs, and sensor part pairs (sensor, its part,
  // visitor, its part).
  PartSet contacts, sensors;
  // For the part table's bound: the most live colliders of one part and live parts of colliders
  // of several parts there ever were, and the largest such collider.
  int peak_single = 0, peak_several = 0, largest = 1;

  Entry* find(ColliderId id) {
    for (Entry& e : entries) {
      if (e.id == id && e.live) return &e;
    }
    return nullptr;
  }
  const Entry* find(ColliderId id) const { return const_cast<Model*>(this)->find(id); }
  int live() const {
    return int(std::count_if(entries.begin(), entries.end(), [](const Entry& e) { return e.live; }));
  }
  int live_parts() const {
    int n = 0;
    for (const Entry& e : entries) n += e.live ? e.count() : 0;
    return n;
  }
  void note_peaks() {
    int single = 0, several = 0;
    for (const Entry& e : entries) {
      if (!e.live) continue;
      if (e.count() == 1)
        ++single;
      else
        several += e.count();
      if (e.count() > 1) largest = std::max(largest, e.count());
    }
    peak_single = std::max(peak_single, single);
    peak_several = std::max(peak_several, several);
  }
};

PairSet colliders_of(const PartSet& parts) {
  PairSet out;
  for (const PartKey& k : parts) out.insert({std::get<0>(k), std::get<2>(k)});
  return out;
}

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
    case 0:
      return ColliderId{};
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
    default:
      return ColliderId{in.u32(), in.u32(), in.u32()};
  }
}

/// A transform for a collider: anything at all, or a small move of where it is now.
Transform read_move(FuzzInput& in, const Entry* e) {
  const bool small = in.flag();
  if (e != nullptr && small) {
    const Vec2 step{float(std::int8_t(in.u8())) / 64.0f, float(std::int8_t(in.u8())) / 64.0f};
    return Transform{
        e->xf.p + step,
        in.flag() ? e->xf.q : pebble::Rot::from_angle(e->xf.q.angle() + float(std::int8_t(in.u8())) / 64.0f)};
  }
  return in.transform();
}

bool query_passes(const Entry& e, const QueryFilter& f) {
  return e.live && (e.options.filter.category & f.mask) != 0 && (f.sensors || !e.options.sensor) &&
         (f.fixed || !e.options.fixed);
}

/// Pairs the world may form (update.cpp's rule: not both fixed, not both chains, not both
/// sensors, the filters).
bool may_pair(const Entry& a, const Entry& b) {
  return !(a.options.fixed && b.options.fixed) && !(a.chain() && b.chain()) &&
         !(a.options.sensor && b.options.sensor) && pebble::should_collide(a.options.filter, b.options.filter);
}

/// collide() of part i of a and part j of b (a chain's segment one-sided), normal from a to b.
Manifold part_contact(const Entry& a, int i, const Entry& b, int j, float margin) {
  if (a.chain()) return pebble::collide(a.segments[std::size_t(i)], a.xf, b.parts[std::size_t(j)], b.xf, margin);
  if (b.chain())
    return pebble::collide(b.segments[std::size_t(j)], b.xf, a.parts[std::size_t(i)], a.xf, margin).flipped();
  return pebble::collide(a.parts[std::size_t(i)], a.xf, b.parts[std::size_t(j)], b.xf, margin);
}

/// collide() of part k of e with `shape` at xf, the part first (collide_shape()'s manifold).
Manifold contact_with(const Entry& e, int k, const Shape& shape, const Transform& xf, float margin) {
  if (e.chain()) return pebble::collide(e.segments[std::size_t(k)], e.xf, shape, xf, margin);
  return pebble::collide(e.parts[std::size_t(k)], e.xf, shape, xf, margin);
}

bool same_shape(const Shape& a, const Shape& b) {
  if (a.vertex_count() != b.vertex_count() || !same_bits(a.radius(), b.radius())) return false;
  for (int i = 0; i < a.vertex_count(); ++i) {
    if (!same_bits(a.vertices()[std::size_t(i)], b.vertices()[std::size_t(i)])) return false;
  }
  return true;
}

/// The bound on the part table's length. Colliders of one part take a slot from a free list of
/// such slots first, so the slots ever held by one are at most the most live ones there were.
/// Several parts take the first free run that fits (world.cpp: released runs merged with their
/// neighbours, the run that ends the table extended): first fit over blocks of up to n slots
/// needs at most about M log2 n slots for M live ones (Robson 1974); the bound allows
/// M (2 + log2 n) + n. The old policy (runs never merged) grew the table by every compound's size.
int part_slot_bound(const Model& m) {
  const int n = m.largest;
  return m.peak_single + int(double(m.peak_several) * (2 + std::log2(double(n)))) + n;
}

void check_ids_and_boxes(const CollisionWorld& world, Model& model) {
  FUZZ_REQUIRE(world.size() == model.live());
  for (const Entry& e : model.entries) {
    FUZZ_REQUIRE(world.contains(e.id) == e.live);
    if (!e.live) {
      FUZZ_REQUIRE(world.shape(e.id) == nullptr && world.transform(e.id) == nullptr && world.options(e.id) == nullptr);
      FUZZ_REQUIRE(world.part_count(e.id) == 0 && world.part(e.id, 0) == nullptr);
      continue;
    }
    FUZZ_REQUIRE(world.transform(e.id) != nullptr && *world.transform(e.id) == e.xf);
    FUZZ_REQUIRE(world.options(e.id) != nullptr && world.options(e.id)->filter == e.options.filter);
    FUZZ_REQUIRE(world.options(e.id)->fixed == e.options.fixed && world.options(e.id)->sensor == e.options.sensor);
    FUZZ_REQUIRE(world.part_count(e.id) == e.count());
    FUZZ_REQUIRE(world.part(e.id, e.count()) == nullptr && world.part(e.id, -1) == nullptr);
    // The collider's tree box holds the bounds of each of its parts.
    const Aabb box = world.box(e.id);
    check_box(box);
    for (int k = 0; k < e.count(); ++k) {
      const Shape* part = world.part(e.id, k);
      FUZZ_REQUIRE(part != nullptr && same_shape(*part, e.parts[std::size_t(k)]));
      FUZZ_REQUIRE(pebble::contains(box, pebble::bounds(e.parts[std::size_t(k)], e.xf)));
    }
  }
  FUZZ_REQUIRE(world.validate());
  model.note_peaks();
  const int slots = world.stats().part_slots;
  FUZZ_REQUIRE(slots >= model.live_parts());
  FUZZ_REQUIRE(slots <= part_slot_bound(model));
}

/// After update(): contacts and events, at collider and part level, against the brute force.
void check_update(const CollisionWorld& world, Model& model) {
  const float margin = world.settings().contact_margin;
  PartSet contacts, sensors;
  std::map<PartKey, Manifold, IdLess> manifolds;
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
      for (int pa = 0; pa < a.count(); ++pa) {
        for (int pb = 0; pb < b.count(); ++pb) {
          if (a.options.sensor || b.options.sensor) {
            // A sensor pair is overlap() of the parts' shapes (a chain's segment both-sided).
            if (pebble::overlap(a.parts[std::size_t(pa)], a.xf, b.parts[std::size_t(pb)], b.xf)) {
              sensors.insert(a.options.sensor ? PartKey{a.id, pa, b.id, pb} : PartKey{b.id, pb, a.id, pa});
            }
            continue;
          }
          const Manifold m = part_contact(a, pa, b, pb, margin);
          if (m.count > 0) {
            contacts.insert({a.id, pa, b.id, pb});
            manifolds[{a.id, pa, b.id, pb}] = m;
          }
        }
      }
    }
  }
  PartSet seen;
  // The first contact of each collider pair in contacts()'s order.
  std::map<IdPair, PartKey, IdLess> first_contact;
  for (const pebble::ContactPair& c : world.contacts()) {
    FUZZ_REQUIRE(world.contains(c.a) && world.contains(c.b));  // contacts only between live colliders
    FUZZ_REQUIRE(c.a.index < c.b.index);
    const PartKey key{c.a, c.part_a, c.b, c.part_b};
    FUZZ_REQUIRE(seen.insert(key).second);
    first_contact.try_emplace({c.a, c.b}, key);
    check_manifold(c.manifold, margin);
    FUZZ_REQUIRE(c.manifold.count > 0);
    const auto expected = manifolds.find(key);
    FUZZ_REQUIRE(expected != manifolds.end());
    FUZZ_REQUIRE(same_bits(expected->second, c.manifold));
  }
  FUZZ_REQUIRE(seen.size() == contacts.size());

  const auto difference = [](const auto& x, const auto& y) {
    std::remove_cvref_t<decltype(x)> out;
    std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::inserter(out, out.end()), IdLess{});
    return out;
  };
  using pebble::ContactEvent;
  using pebble::SensorEvent;
  const auto contact_set = [](std::span<const ContactEvent> events) {
    PartSet out;
    for (const ContactEvent& e : events) FUZZ_REQUIRE(out.insert({e.a, e.part_a, e.b, e.part_b}).second);
    return out;
  };
  const auto sensor_set = [](std::span<const SensorEvent> events) {
    PartSet out;
    for (const SensorEvent& e : events)
      FUZZ_REQUIRE(out.insert({e.sensor, e.sensor_part, e.visitor, e.visitor_part}).second);
    return out;
  };
  const auto pairs_of = [](const PartSet& parts) {
    PairSet out;
    for (const PartKey& k : parts)
      FUZZ_REQUIRE(out.insert({std::get<0>(k), std::get<2>(k)}).second);  // one event per collider pair
    return out;
  };
  // Part level: exactly the changes of the part pair sets.
  FUZZ_REQUIRE(contact_set(world.part_touch_begin_events()) == difference(contacts, model.contacts));
  FUZZ_REQUIRE(contact_set(world.part_touch_end_events()) == difference(model.contacts, contacts));
  // Collider level: exactly the changes of the collider pair sets.
  const PartSet begins = contact_set(world.touch_begin_events()), ends = contact_set(world.touch_end_events());
  const PartSet sensor_begins = sensor_set(world.sensor_begin_events()),
                sensor_ends = sensor_set(world.sensor_end_events());
  const PairSet now = colliders_of(contacts), before = colliders_of(model.contacts);
  const PairSet sensors_now = colliders_of(sensors), sensors_before = colliders_of(model.sensors);
  FUZZ_REQUIRE(pairs_of(begins) == difference(now, before));
  FUZZ_REQUIRE(pairs_of(ends) == difference(before, now));
  FUZZ_REQUIRE(pairs_of(sensor_begins) == difference(sensors_now, sensors_before));
  FUZZ_REQUIRE(pairs_of(sensor_ends) == difference(sensors_before, sensors_now));
  // Which part pair a collider event names (world.hpp, docs/world.md): a begin names the pair's
  // first touching part pair in contacts()'s order; an end found by update() names the pair's last
  // part pair in part_touch_end_events(); an end of a removed collider names a part pair that
  // touched. Sensor events name a part pair that overlaps (begin) or did (end).
  for (const PartKey& k : begins) FUZZ_REQUIRE(first_contact.at({std::get<0>(k), std::get<2>(k)}) == k);
  for (const PartKey& k : ends) {
    FUZZ_REQUIRE(model.contacts.count(k) == 1);
    if (!world.contains(std::get<0>(k)) || !world.contains(std::get<2>(k))) continue;
    std::optional<PartKey> last;
    for (const ContactEvent& e : world.part_touch_end_events()) {
      if (e.a == std::get<0>(k) && e.b == std::get<2>(k)) last = PartKey{e.a, e.part_a, e.b, e.part_b};
    }
    FUZZ_REQUIRE(last && *last == k);
  }
  for (const PartKey& k : sensor_begins) FUZZ_REQUIRE(sensors.count(k) == 1);
  for (const PartKey& k : sensor_ends) FUZZ_REQUIRE(model.sensors.count(k) == 1 && sensors.count(k) == 0);
  model.contacts = std::move(contacts);
  model.sensors = std::move(sensors);

  const pebble::WorldStats stats = world.stats();
  FUZZ_REQUIRE(stats.colliders == model.live());
  FUZZ_REQUIRE(stats.contacts == int(world.contacts().size()));
}

/// A closest-hit query against the brute force: `cast(e, k)` is the answer of part k of e alone.
template <class Cast>
void check_closest(const WorldCastResult& got, const Model& model, const QueryFilter& filter, bool valid, Cast cast) {
  float best = 2;
  for (const Entry& e : model.entries) {
    if (!query_passes(e, filter) || !valid) continue;
    for (int k = 0; k < e.count(); ++k) {
      const CastResult h = cast(e, k);
      if (h.hit) best = std::min(best, h.fraction);
    }
  }
  if (!got) {
    // (Two sharp, nearly parallel segments, or a sliver cast past a capsule, once gave the single
    // cast_shape() touches 24-43 units from the collider: fuzz/corpus/world/sharp-*, fixed.)
    FUZZ_REQUIRE(best == 2);  // no part is hit
    return;
  }
  FUZZ_REQUIRE(valid);
  check_cast(got.hit, true);
  FUZZ_REQUIRE(got.hit.hit);
  const Entry* e = model.find(got.id);
  FUZZ_REQUIRE(e != nullptr && query_passes(*e, filter));
  FUZZ_REQUIRE(got.part >= 0 && got.part < e->count());
  const CastResult own = cast(*e, got.part);
  FUZZ_REQUIRE(own.hit && same_bits(own.fraction, got.hit.fraction) && same_bits(own.point, got.hit.point) &&
               same_bits(own.normal, got.hit.normal));
  FUZZ_REQUIRE(got.hit.fraction == best);
}

/// A query that reports colliders: every reported id once, live and passing, and exactly those
/// `wanted` says of one of their parts. Also asks once more and stops at the first report, which
/// must then be alone.
template <class Query, class Wanted>
void check_reports(const Model& model, const QueryFilter& filter, Query query, Wanted wanted) {
  IdSet got, expected;
  query([&](ColliderId id) {
    FUZZ_REQUIRE(got.insert(id).second);
    return true;
  });
  for (const Entry& e : model.entries) {
    if (!query_passes(e, filter)) continue;
    for (int k = 0; k < e.count(); ++k) {
      if (wanted(e.parts[std::size_t(k)], e.xf)) {
        expected.insert(e.id);
        break;
      }
    }
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
  return "Filter{" + std::to_string(f.category) + "u, " + std::to_string(f.mask) + "u, " + std::to_string(f.group) +
         "}";
}
std::string lit(const QueryFilter& f) {
  return "QueryFilter{" + std::to_string(f.mask) + "u, " + (f.sensors ? "true" : "false") + "}";
}
std::string lit(const std::vector<Shape>& parts) {
  std::string out = "{";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + pebble_fuzz::lit(parts[i]);
  return out + "}";
}
std::string lit(const ColliderOptions& o) {
  return std::string("fixed ") + (o.fixed ? "1" : "0") + ", sensor " + (o.sensor ? "1" : "0") + ", " + lit(o.filter);
}
using pebble_fuzz::lit;

/// The options an add reads (the order of the first add op's fields).
ColliderOptions read_options(FuzzInput& in) {
  ColliderOptions o;
  o.fixed = in.flag();
  o.sensor = in.below(6) == 0;
  o.filter = in.flag() ? Filter{} : read_filter(in);
  o.user_data = in.u8();
  return o;
}

/// Adds e (its parts, or its chain) to the world and the model; false when refused.
bool add_entry(CollisionWorld& world, Model& model, Entry e, const pebble::Chain* chain, bool compound,
               std::string& log) {
  log += std::string("  add(") +
         (chain      ? "chain "
          : compound ? "compound "
                     : "") +
         lit(e.parts) + ", " + lit(e.xf) + ", " + lit(e.options) + ")";
  try {
    if (chain != nullptr)
      e.id = world.add(*chain, e.xf, e.options);
    else if (!compound)
      e.id = world.add(e.parts[0], e.xf, e.options);
    else
      e.id = world.add(std::span<const Shape>(e.parts), e.xf, e.options);
    log += " -> " + lit(e.id) + "\n";
    FUZZ_REQUIRE(pebble::is_valid(e.xf));
  } catch (const std::invalid_argument&) {
    log += " -> refused\n";
    FUZZ_REQUIRE(!pebble::is_valid(e.xf));
    return false;
  }
  for (const Entry& other : model.entries) FUZZ_REQUIRE(!(other.id == e.id));  // ids never repeat
  model.entries.push_back(std::move(e));
  return true;
}

/// Points for a chain: a start, then each next point anywhere or a step from the last.
std::vector<Vec2> read_chain_points(FuzzInput& in) {
  std::vector<Vec2> pts{in.vec2()};
  const int n = 1 + in.below(12);
  for (int i = 0; i < n; ++i) pts.push_back(in.below(4) == 0 ? in.vec2() : pts.back() + in.vec2());
  return pts;
}

/// The mover's depth into part k of e, -distance(), where it counts: a chain's segment counts only
/// where its one-sided collide() gives points (not behind it, not where the normal belongs to the
/// neighbour's corner): what the mover meets of a chain (mover_planes(), docs/terrain.md).
float depth_into(const Shape& shape, const Transform& xf, const Entry& e, int k) {
  if (e.chain() && pebble::collide(e.segments[std::size_t(k)], e.xf, shape, xf).count == 0)
    return -pebble::kHugeDistance;
  return -pebble::distance(e.parts[std::size_t(k)], e.xf, shape, xf).distance;
}

/// Whether the shape's core centroid at xf is behind chain segment k's line (its back side), where
/// the segment neither collides with it nor stops a cast.
bool behind_segment(const Shape& shape, const Transform& xf, const Entry& e, int k) {
  if (!e.chain()) return false;
  const ChainSegment& s = e.segments[std::size_t(k)];
  const pebble::Position a = pebble::transform_point(e.xf, s.a), b = pebble::transform_point(e.xf, s.b);
  const pebble::Position c = pebble::transform_point(xf, shape.core_centroid());
  return pebble::cross(b - a, c - a) > 0;  // left of a -> b: the back side
}

/// How far the mover may end inside a part beyond the skin: distance()'s rounding at the
/// coordinates and sizes involved.
float depth_slack(const Shape& shape, const Transform& xf, const Entry& e, int k) {
  const float scale = std::max({1.0f, float(std::fabs(xf.p.x)), float(std::fabs(xf.p.y)), float(std::fabs(e.xf.p.x)),
                                float(std::fabs(e.xf.p.y)), shape.extent(), e.parts[std::size_t(k)].extent()});
  return 4e-6f * scale;
}

}  // namespace

namespace {

/// The mover a run walks through its world, with what it was made with.
struct MoverModel {
  std::optional<pebble::CharacterMover> mover;
  pebble::Rot q{};  // its rotation, which steps never change
};

std::string lit(const pebble::MoverSettings& s) {
  return "MoverSettings{up " + lit(s.up) + ", max_slope " + lit(s.max_slope) + ", step_height " + lit(s.step_height) +
         ", snap " + lit(s.snap_distance) + ", skin " + lit(s.skin) + ", push_speed " + lit(s.push_speed) + ", " +
         lit(s.filter) + ", iterations " + std::to_string(s.max_iterations) + "}";
}

/// One CharacterMover::step against the brute force over every part of every collider it sees.
Vec2 check_mover_step(const CollisionWorld& world, const Model& model, MoverModel& m, Vec2 velocity, float dt,
                      std::string& log) {
  pebble::CharacterMover& mover = *m.mover;
  const pebble::MoverSettings& settings = mover.settings();
  const Shape& shape = mover.shape();
  const Transform start = mover.transform();
  const pebble::MoverGround ground_before = mover.ground();
  log += "  mover.step(" + lit(velocity) + ", " + lit(dt) + ") from " + lit(start);
  // Its depth into each part it meets before the step.
  std::vector<std::vector<float>> before(model.entries.size());
  for (std::size_t i = 0; i < model.entries.size(); ++i) {
    const Entry& e = model.entries[i];
    if (!query_passes(e, settings.filter)) continue;
    for (int k = 0; k < e.count(); ++k) before[i].push_back(depth_into(shape, start, e, k));
  }
  const pebble::MoverStep s = mover.step(world, velocity, dt);
  log +=
      " -> " + lit(s.transform) +
      (s.ground.grounded ? " grounded on " + lit(s.ground.collider) + " part " + std::to_string(s.ground.part) : "") +
      (s.stepped ? " stepped" : "") + (s.snapped ? " snapped" : "") + (s.pushed ? " pushed" : "") + "\n";
  const Transform& xf = mover.transform();
  FUZZ_REQUIRE(xf == s.transform);
  FUZZ_REQUIRE(finite(xf.p) && same_bits(xf.q.c, m.q.c) && same_bits(xf.q.s, m.q.s));  // finite, never turned
  FUZZ_REQUIRE(finite(s.velocity));
  // Does nothing (mover.cpp: also a velocity or a motion beyond kMaxWorldCoordinate, which
  // docs/mover.md calls beyond float's range): the same pose and ground (perhaps removed since).
  if (!(dt > 0) || !std::isfinite(dt) || !pebble::is_valid_point(velocity) || !pebble::is_valid_point(velocity * dt)) {
    FUZZ_REQUIRE(xf == start && s.ground.grounded == ground_before.grounded &&
                 s.ground.collider == ground_before.collider && s.ground.part == ground_before.part);
    return s.velocity;
  }
  // docs/mover.md: no step ends deeper than the skin into a fixed collider (one the mover cannot
  // leave undoes its step). Moving colliders may move into it, and step 6 pushes it out of a fixed
  // one whatever moving ones it meets (a mover that came up through a chain from behind, pushed
  // out of its front into a platform above), so those are held to the skin only when the step
  // started clear of every part and nothing pushed it.
  bool clear_start = true;
  for (std::size_t i = 0; i < model.entries.size(); ++i) {
    for (std::size_t k = 0; k < before[i].size(); ++k) {
      clear_start = clear_start && before[i][k] <= settings.skin + depth_slack(shape, start, model.entries[i], int(k));
    }
  }
  for (std::size_t i = 0; i < model.entries.size(); ++i) {
    const Entry& e = model.entries[i];
    if (!query_passes(e, settings.filter) || (!e.options.fixed && (!clear_start || s.pushed)) ||
        (e.options.fixed && xf == start))
      continue;
    for (int k = 0; k < e.count(); ++k) {
      // A moving chain's segment the mover started behind: it passes through the segment from
      // behind (one-sided, docs/terrain.md) and may end with its centroid just past the line,
      // overlapping it from the front; only fixed colliders are pushed out by step 6
      // (fuzz/corpus/world/mover-through-moving-chain-from-behind: sliding up over a fixed box's
      // corner carried a capsule 1.06 up through a sloped moving chain, ending 0.38 into it).
      if (!e.options.fixed && behind_segment(shape, start, e, k)) continue;
      const float after = depth_into(shape, xf, e, k), slack = depth_slack(shape, xf, e, k);
      if (!(after <= settings.skin + slack)) {
        std::fprintf(stderr, "mover %s part %d of %s: depth %g after the step, %g before, skin %g\n",
                     e.options.fixed ? "fixed" : "moving", k, lit(e.id).c_str(), double(after),
                     double(before[i][std::size_t(k)]), double(settings.skin));
        // (Step 6 once looked for fixed overlaps among the 16 deepest contact planes, which a
        // moving compound could fill: fuzz/corpus/world/mover-fixed-overlap-crowded-out, fixed.)
        FUZZ_REQUIRE(!"the mover ended a step deeper than the skin into a part");
      }
    }
  }
  // The ground: a live part the mover sees, walkable, within twice the skin.
  const pebble::MoverGround& g = s.ground;
  FUZZ_REQUIRE(g.grounded == mover.ground().grounded && g.collider == mover.ground().collider &&
               g.part == mover.ground().part);
  if (!g.grounded) {
    FUZZ_REQUIRE(g.normal == settings.up);
    return s.velocity;
  }
  const Entry* e = model.find(g.collider);
  FUZZ_REQUIRE(e != nullptr && query_passes(*e, settings.filter));
  FUZZ_REQUIRE(g.part >= 0 && g.part < e->count());
  FUZZ_REQUIRE(is_unit(g.normal) && finite(g.point));
  FUZZ_REQUIRE(pebble::dot(g.normal, settings.up) >= std::cos(settings.max_slope) - 1e-3f);
  const float d = pebble::distance(e->parts[std::size_t(g.part)], e->xf, shape, xf).distance;
  if (!(d <= 2 * settings.skin + depth_slack(shape, xf, *e, g.part))) {
    std::fprintf(stderr, "mover ground %s part %d: distance %g, skin %g\n", lit(e->id).c_str(), g.part, double(d),
                 double(settings.skin));
    // (A push out of an overlap once left the ground chosen before it: fuzz/corpus/world/
    // mover-ground-after-push*, fixed.)
    FUZZ_REQUIRE(!"the mover's ground is farther than twice the skin");
  }
  return s.velocity;
}

/// Makes the mover: a shape, a pose and settings read from the input.
void make_mover(FuzzInput& in, MoverModel& m, const Shape& fallback, std::string& log) {
  const Shape shape = in.shape_or(fallback);
  const Transform xf = in.transform();
  pebble::MoverSettings s;
  const std::uint8_t a = in.u8(), b = in.u8();
  s.skin = std::array<float, 4>{0.01f, 1e-3f, 0.05f, 0.1f}[a & 3];
  s.step_height = std::array<float, 4>{0.3f, 0, 0.05f, 1}[(a >> 2) & 3];
  s.snap_distance = std::array<float, 4>{0.2f, 0, 0.05f, 1}[(a >> 4) & 3];
  s.up = std::array<Vec2, 4>{Vec2{0, 1}, Vec2{0, -1}, Vec2{1, 0}, Vec2{0.6f, 0.8f}}[(a >> 6) & 3];
  s.max_slope = std::array<float, 4>{0.8726646f, 0.3f, 1.4f, 0}[b & 3];
  s.push_speed = std::array<float, 4>{10, 0, 1, 1000}[(b >> 2) & 3];
  s.max_iterations = 8 - (b >> 4) % 8;
  s.filter = read_query_filter(in);
  log += "  CharacterMover(" + lit(shape) + ", " + lit(xf) + ", " + lit(s) + ")";
  m.mover.reset();
  if (!pebble::is_valid(xf)) {
    log += " -> not made (invalid pose)\n";
    return;
  }
  try {
    m.mover.emplace(shape, xf, s);
    m.q = xf.q;
    log += "\n";
  } catch (const pebble::InvalidShape&) {
    log += " -> refused\n";
  }
}

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
  MoverModel mover;
  const Shape fallback = Shape::circle(0.5f);
  // What happened so far, printed with a violation.
  std::string log = "  settings: margin " + lit(settings.contact_margin) + ", threads " +
                    std::to_string(settings.threads) + ", tree margin " + lit(settings.tree.margin) + ", prediction " +
                    lit(settings.tree.prediction) + "\n";
  g_describe_input = [&] { return log; };
  // PEBBLE_FUZZ_TRACE=1 prints each operation as it is made (for a crash that is not a violation,
  // such as a sanitizer report).
  static const bool trace = std::getenv("PEBBLE_FUZZ_TRACE") != nullptr;
  std::size_t traced = 0;

  for (int step = 0; step < kMostOperations && !in.empty(); ++step) {
    // The operation: its byte's low 4 bits (0-15, the original operations); 15 with high bits
    // set (31, 47, ..., 255) is one of the operations on parts and the mover added since, so the
    // inputs of the committed corpus still mean what they meant.
    const std::uint8_t op = in.u8();
    const int kind = op % 16 == 15 && op >= 16 ? 16 + op / 16 - 1 : op % 16;
    switch (kind) {
      case 0:
      case 1: {  // add
        if (model.live() >= kMostColliders || model.live_parts() >= kMostParts) break;
        Entry e;
        e.parts.push_back(in.shape_or(fallback));
        e.xf = in.transform();
        e.options = read_options(in);
        add_entry(world, model, std::move(e), nullptr, false, log);
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
      case 6: {  // set_shape: colliders of one part only, chains never
        const ColliderId id = read_id(in, model);
        const Shape shape = in.shape_or(fallback);
        Entry* e = model.find(id);
        const bool ok = e != nullptr && e->count() == 1 && !e->chain();
        log += "  set_shape(" + lit(id) + ", " + lit(shape) + ")\n";
        FUZZ_REQUIRE(world.set_shape(id, shape) == ok);
        if (ok) e->parts[0] = shape;
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
      case 10:
      case 16 + 11:
      case 16 + 12: {
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
        log += "  cast_ray / cast_circle(Ray{" + lit(ray.origin) + ", " + lit(ray.translation) + "}, " + lit(radius) +
               ", " + lit(filter) + ")\n";
        // A chain's segment is hit from its front only.
        const auto cast = [&](const Entry& e, int k, float r) {
          if (e.chain()) return pebble::cast_ray(e.segments[std::size_t(k)], e.xf, ray, r);
          return r > 0 ? pebble::cast_ray(e.parts[std::size_t(k)], e.xf, ray, r)
                       : pebble::cast_ray(e.parts[std::size_t(k)], e.xf, ray);
        };
        if (radius == 0)
          check_closest(world.cast_ray(ray, filter), model, filter, valid,
                        [&](const Entry& e, int k) { return cast(e, k, 0); });
        const bool radius_ok = radius >= 0 && radius <= pebble::kMaxShapeExtent;
        check_closest(world.cast_circle(ray, radius, filter), model, filter, valid && radius_ok,
                      [&](const Entry& e, int k) { return cast(e, k, radius); });
        break;
      }
      case 12: {  // shape casts
        const Shape shape = in.shape_or(fallback);
        const Transform xf = in.transform();
        const Vec2 translation = in.vec2();
        const QueryFilter filter = read_query_filter(in);
        const pebble::ShapeCastOptions options{in.flag() ? 0.0f : in.number()};
        log += "  cast_shape(" + lit(shape) + ", " + lit(xf) + ", " + lit(translation) + ", " + lit(filter) +
               ", target " + lit(options.target_separation) + ")\n";
        const bool valid = pebble::is_valid(xf) && pebble::is_valid_point(translation) &&
                           options.target_separation >= 0 && options.target_separation <= pebble::kMaxShapeExtent;
        check_closest(world.cast_shape(shape, xf, translation, filter, options), model, filter, valid,
                      [&](const Entry& e, int k) {
                        // A chain's segment one-sided: a shape starting behind it or meeting it from behind passes.
                        CastResult h = e.chain() ? pebble::cast_shape(shape, xf, translation,
                                                                      e.segments[std::size_t(k)], e.xf, Vec2{}, options)
                                                 : pebble::cast_shape(shape, xf, translation, e.parts[std::size_t(k)],
                                                                      e.xf, Vec2{}, options);
                        h.normal = -h.normal;
                        return h;
                      });
        break;
      }
      case 13: {  // overlap_shape and within_distance (a chain's segments both-sided)
        const Shape shape = in.shape_or(fallback);
        const Transform xf = in.transform();
        const float reach = in.flag() ? 0.0f : in.number();
        const QueryFilter filter = read_query_filter(in);
        const bool valid = pebble::is_valid(xf);
        log += "  overlap_shape / within_distance(" + lit(shape) + ", " + lit(xf) + ", " + lit(reach) + ", " +
               lit(filter) + ")\n";
        check_reports(
            model, filter, [&](auto f) { world.overlap_shape(shape, xf, f, filter); },
            [&](const Shape& part, const Transform& at) { return valid && pebble::overlap(part, at, shape, xf); });
        const bool reach_ok = valid && reach >= 0 && reach <= pebble::kMaxWorldCoordinate;
        check_reports(
            model, filter, [&](auto f) { world.within_distance(shape, xf, reach, f, filter); },
            [&](const Shape& part, const Transform& at) {
              if (!reach_ok) return false;
              return reach == 0 ? pebble::overlap(part, at, shape, xf)
                                : pebble::distance(part, at, shape, xf).distance <= reach;
            });
        break;
      }
      case 14: {  // overlap_aabb and overlap_point
        const Vec2 p = in.vec2(), q = in.vec2();
        const QueryFilter filter = read_query_filter(in);
        const Aabb box{pebble::min(p, q), pebble::max(p, q)};
        log += "  overlap_aabb(Aabb{" + lit(box.lower) + ", " + lit(box.upper) + "}), overlap_point(" + lit(p) + "), " +
               lit(filter) + "\n";
        const Vec2 half = pebble::extents(box);
        const bool valid =
            pebble::is_valid(box) && pebble::is_valid_point(box.lower) && pebble::is_valid_point(box.upper);
        if (valid && half.x <= pebble::kMaxShapeExtent && half.y <= pebble::kMaxShapeExtent) {
          // A box the world turns into a Shape: the colliders that overlap that shape.
          const Transform at{pebble::center(box), pebble::Rot::identity()};
          const Vec2 ends[2] = {-half, half};
          const Shape as_shape = half.x > 0 && half.y > 0 ? Shape::box(half.x, half.y) : Shape::polygon(ends);
          check_reports(
              model, filter, [&](auto f) { world.overlap_aabb(box, f, filter); },
              [&](const Shape& part, const Transform& xf) { return pebble::overlap(part, xf, as_shape, at); });
        } else {
          IdSet got;
          world.overlap_aabb(
              box,
              [&](ColliderId id) {
                FUZZ_REQUIRE(got.insert(id).second);
                const Entry* e = model.find(id);
                FUZZ_REQUIRE(e != nullptr && query_passes(*e, filter));
                return true;
              },
              filter);
          if (!valid) FUZZ_REQUIRE(got.empty());
        }
        check_reports(
            model, filter, [&](auto f) { world.overlap_point(p, f, filter); },
            [&](const Shape& part, const Transform& xf) { return pebble::contains(part, xf, p); });
        break;
      }
      case 15: {
        log += "  optimize_fixed()\n";
        world.optimize_fixed();
        break;
      }
      case 16 + 0:
      case 16 + 1: {  // add a compound of 1 to 16 parts
        if (model.live() >= kMostColliders) break;
        const int n = std::min(1 + in.below(16), kMostParts - model.live_parts());
        if (n <= 0) break;
        Entry e;
        for (int k = 0; k < n; ++k) e.parts.push_back(in.shape_or(fallback));
        e.xf = in.transform();
        e.options = read_options(in);
        add_entry(world, model, std::move(e), nullptr, true, log);
        break;
      }
      case 16 + 2:
      case 16 + 3: {  // add a chain, open or a loop, fixed or (now and then) moving
        if (model.live() >= kMostColliders) break;
        const bool loop = in.flag();
        const std::vector<Vec2> points = read_chain_points(in);
        Entry e;
        e.xf = in.transform();
        e.options = read_options(in);
        const bool moving = in.below(4) == 0;  // a chain moves only when both say so
        e.options.fixed = e.options.fixed || !moving;
        std::optional<pebble::Chain> chain;
        try {
          chain.emplace(loop ? pebble::Chain::loop(points) : pebble::Chain::open(points));
        } catch (const pebble::InvalidShape&) {
          log += std::string("  Chain::") + (loop ? "loop" : "open") + " of " + std::to_string(points.size()) +
                 " points refused\n";
          break;
        }
        if (model.live_parts() + chain->segment_count() > kMostParts) break;
        for (const ChainSegment& s : chain->segments()) {
          e.segments.push_back(s);
          e.parts.push_back(s.shape);
        }
        std::string pts;
        for (const Vec2 q : points) pts += lit(q) + " ";
        log += std::string("  Chain::") + (loop ? "loop" : "open") + "(" + pts + ")\n";
        add_entry(world, model, std::move(e), &*chain, false, log);
        break;
      }
      case 16 + 4:
      case 16 + 5: {  // rebuild a compound with more parts: remove it, add it again grown
        const ColliderId id = read_id(in, model);
        Entry* found = model.find(id);
        const int more = 1 + in.below(8);
        if (found == nullptr || found->chain()) break;
        Entry e;
        e.parts = found->parts;
        e.xf = found->xf;
        e.options = found->options;
        const int n =
            std::min({found->count() + more, kMostCompoundParts, kMostParts - model.live_parts() + found->count()});
        while (e.count() < n) e.parts.push_back(in.shape_or(fallback));
        log += "  remove(" + lit(id) + ") to grow it to " + std::to_string(e.count()) + " parts\n";
        FUZZ_REQUIRE(world.remove(id));
        found->live = false;
        add_entry(world, model, std::move(e), nullptr, true, log);
        break;
      }
      case 16 + 6: {  // make the mover
        make_mover(in, mover, fallback, log);
        break;
      }
      case 16 + 7:
      case 16 + 8: {  // walk the mover a few steps
        const int steps = 1 + in.below(8);
        Vec2 velocity = in.vec2();
        const std::uint8_t how = in.u8();
        const float dt = std::array<float, 4>{1.0f / 60, 1.0f / 30, 0.25f, 0}[how & 3];
        const float step_dt = (how & 3) == 3 ? in.number() : dt;
        if (!mover.mover) break;
        for (int k = 0; k < steps; ++k) {
          const Vec2 clipped = check_mover_step(world, model, mover, velocity, step_dt, log);
          // Fed back (the velocity it gives back) or the same asked again, with gravity along -up.
          if (how & 4) velocity = clipped;
          if (how & 8) velocity = velocity - (9.8f * step_dt) * mover.mover->settings().up;
        }
        break;
      }
      case 16 + 9: {  // place the mover: a teleport
        if (!mover.mover) break;
        const bool small = in.flag();
        const pebble::Position at = small ? mover.mover->transform().p + Vec2{float(std::int8_t(in.u8())) / 64.0f,
                                                                              float(std::int8_t(in.u8())) / 64.0f}
                                          : in.vec2();
        log += "  mover.set_transform(" + lit(at) + ")\n";
        if (pebble::is_valid_point(at)) mover.mover->set_transform(Transform{at, mover.q});
        break;
      }
      case 16 + 10: {  // collide_shape: every part's manifold with the shape
        const Shape shape = in.shape_or(fallback);
        const Transform xf = in.transform();
        const float margin = std::array<float, 4>{0, 0.01f, 0.1f, 1}[in.u8() & 3];
        const QueryFilter filter = read_query_filter(in);
        log += "  collide_shape(" + lit(shape) + ", " + lit(xf) + ", " + lit(margin) + ", " + lit(filter) + ")\n";
        std::map<PartKey, Manifold, IdLess> expected;
        if (pebble::is_valid(xf)) {
          for (const Entry& e : model.entries) {
            if (!query_passes(e, filter)) continue;
            for (int k = 0; k < e.count(); ++k) {
              const Manifold m = contact_with(e, k, shape, xf, margin);
              if (m.count > 0) expected[{e.id, k, e.id, k}] = m;
            }
          }
        }
        std::size_t got = 0;
        world.collide_shape(
            shape, xf, margin,
            [&](ColliderId id, int part, const Manifold& m) {
              const auto it = expected.find({id, part, id, part});
              FUZZ_REQUIRE(it != expected.end() && same_bits(it->second, m));
              ++got;
              return true;
            },
            filter);
        FUZZ_REQUIRE(got == expected.size());
        int reports = 0;
        world.collide_shape(
            shape, xf, margin,
            [&](ColliderId, int, const Manifold&) {
              ++reports;
              return false;
            },
            filter);
        FUZZ_REQUIRE(reports == (expected.empty() ? 0 : 1));
        break;
      }
      default: {  // (16 + 13, 16 + 14) the whole world stepped with its mover, then update()
        if (mover.mover) check_mover_step(world, model, mover, in.vec2(), 1.0f / 60, log);
        log += "  update()\n";
        world.update();
        check_update(world, model);
        break;
      }
    }
    if (trace) {
      std::fputs(log.c_str() + traced, stderr);
      traced = log.size();
    }
    check_ids_and_boxes(world, model);
  }
  // PEBBLE_FUZZ_SLOTS=1 prints the part table's length against what the bound is made of.
  static const bool slots = std::getenv("PEBBLE_FUZZ_SLOTS") != nullptr;
  if (slots) {
    std::fprintf(stderr,
                 "part slots %d, live parts %d, most live single %d, most live parts of compounds and chains %d, "
                 "largest %d, bound %d\n",
                 world.stats().part_slots, model.live_parts(), model.peak_single, model.peak_several, model.largest,
                 part_slot_bound(model));
  }
  return 0;
}

}  // namespace pebble_fuzz::world_target

#ifndef PEBBLE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pebble_fuzz::world_target::run(data, size);
}
#endif
