// CollisionWorld (pebble/world.hpp) and its value types: ids, filters, options, contacts, events,
// scene queries; plus its batch forms (set_transforms, contacts_array, cast_rays).
#include <atomic>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>

#include "batch.hpp"

namespace pebble::python {

std::string repr_cast_hit(const CastResult& h);  // bind_queries.cpp

/// A world cast's answer in Python's idiom: None when nothing was hit.
inline std::optional<WorldCastResult> or_none(const WorldCastResult& r) {
  if (r) return std::make_optional(r);
  return std::nullopt;
}

namespace {

/// The world as Python holds it. `busy` counts the calls running on it with the GIL released
/// (update, set_transforms, cast_rays); every other call on it raises RuntimeError meanwhile, so
/// that a Python thread cannot change the world under one that reads it. Changed under the GIL only.
struct PyWorld {
  CollisionWorld world;
  int busy = 0;
  explicit PyWorld(const WorldSettings& s) : world(s) {}
  explicit PyWorld(CollisionWorld&& w) : world(std::move(w)) {}
};

CollisionWorld& use(PyWorld& w) {
  if (w.busy)
    throw std::runtime_error("CollisionWorld: in use by another thread (update, set_transforms or cast_rays running)");
  return w.world;
}

/// Marks the world busy while a call runs without the GIL.
struct BusyScope {
  PyWorld& w;
  explicit BusyScope(PyWorld& world) : w(world) {
    use(w);
    ++w.busy;
  }
  ~BusyScope() { --w.busy; }
};

/// A PartView (CollisionWorld::parts_in_box) as Python holds it: the shape and the chain segment
/// copied out of the world, so that it stays valid after the world changes.
struct PyPartView {
  ColliderId id;
  int part = 0;
  Shape shape;
  std::optional<ChainSegment> segment;
  Transform xf;
  Aabb box;
  bool fixed = false;
};

std::string repr(ColliderId id) {
  return "ColliderId(index=" + std::to_string(id.index) + ", generation=" + std::to_string(id.generation) +
         ", world=" + std::to_string(id.world) + ")";
}

/// A Python callback called from inside a world query: an exception it raises stops the query
/// (the callback's "stop" answer) and is raised again once the query has returned.
struct CallbackError {
  std::optional<py::error_already_set> error;
  void rethrow() {
    if (error) throw std::move(*error);
  }
};

template <class Query>
py::object collect_ids(const std::optional<py::function>& on_hit, Query query) {
  CallbackError err;
  if (!on_hit) {
    std::vector<ColliderId> ids;
    auto add = [&](ColliderId id) {
      ids.push_back(id);
      return true;
    };
    query(add);
    return py::cast(ids);
  }
  auto call = [&](ColliderId id) {
    try {
      return (*on_hit)(id).cast<bool>();
    } catch (py::error_already_set& e) {
      err.error = std::move(e);
      return false;
    } catch (const py::cast_error&) {
      err.error.reset();
      throw;
    }
  };
  query(call);
  err.rethrow();
  return py::none();
}

template <class Query>
void call_hits(const py::function& on_hit, Query query) {
  CallbackError err;
  bool cast_failed = false;
  auto call = [&](const WorldCastResult& r) -> float {
    try {
      return on_hit(r).cast<float>();
    } catch (py::error_already_set& e) {
      err.error = std::move(e);
      return 0.0f;
    } catch (const py::cast_error&) {
      cast_failed = true;
      return 0.0f;
    }
  };
  query(call);
  err.rethrow();
  if (cast_failed) throw py::type_error("on_hit must return a float (< 0 ignore, 0 stop, else clip the ray)");
}

std::vector<ColliderId> ids_from(const py::handle& obj, ItemCount& n) {
  std::vector<ColliderId> ids;
  if (py::isinstance<py::array>(obj)) {
    const auto a = py::reinterpret_borrow<py::array>(obj);
    if (!a.dtype().equal(collider_id_dtype()))
      throw py::type_error("ids: expected an array of pebble.batch.COLLIDER_ID_DTYPE (pebble.id_array), got dtype " +
                           py::str(py::handle(a.dtype())).cast<std::string>());
    if (a.ndim() != 1) throw py::value_error("ids: expected a 1-D array");
    if (!(a.flags() & py::array::c_style))
      throw py::value_error("ids: the array is not C-contiguous (pass np.ascontiguousarray(...))");
    const auto* p = static_cast<const ColliderId*>(a.data());
    ids.assign(p, p + a.shape(0));
  } else if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
    const auto seq = py::reinterpret_borrow<py::sequence>(obj);
    ids.reserve(seq.size());
    for (size_t i = 0; i < seq.size(); ++i) {
      if (!py::isinstance<ColliderId>(seq[i]))
        throw py::type_error("ids[" + std::to_string(i) + "]: expected a ColliderId, got " +
                             py::str(py::type::of(seq[i])).cast<std::string>());
      ids.push_back(seq[i].cast<ColliderId>());
    }
  } else {
    throw py::type_error("ids: expected a list of ColliderId or a COLLIDER_ID_DTYPE array, got " +
                         py::str(py::type::of(obj)).cast<std::string>());
  }
  merge_count(n, ids.size(), "ids");
  return ids;
}

/// pebble/mover.hpp: the mover's pieces and CharacterMover (docs/mover.md).
void bind_mover(py::module_& m) {
  py::class_<MoverPlane>(
      m, "MoverPlane",
      "A contact plane of a mover: a translation t keeps it clear when dot(normal, t) + separation >= 0. normal: unit, "
      "world, from the collider toward the mover.")
      .def(py::init([](Vec2 normal, float separation, Vec2 point, float push_limit, bool clip) {
             MoverPlane p;
             p.normal = normal;
             p.separation = separation;
             p.point = point;
             p.push_limit = push_limit;
             p.clip_velocity = clip;
             return p;
           }),
           "normal"_a, "separation"_a = 0.0f, "point"_a = Vec2{},
           "push_limit"_a = std::numeric_limits<float>::infinity(), "clip_velocity"_a = true)
      .def_readwrite("normal", &MoverPlane::normal)
      .def_readwrite("separation", &MoverPlane::separation)
      .def_readwrite("point", &MoverPlane::point)
      .def_readwrite("push_limit", &MoverPlane::push_limit,
                     "most this plane may push in one solve (world units); inf: hard")
      .def_readwrite("clip_velocity", &MoverPlane::clip_velocity)
      .def_readonly("collider", &MoverPlane::collider)
      .def_readonly("part", &MoverPlane::part)
      .def("__repr__", [](const MoverPlane& p) {
        return "MoverPlane(normal=Vec2" + fmt(p.normal) + ", separation=" + fmt(p.separation) + ", point=Vec2" +
               fmt(p.point) + ", part=" + std::to_string(p.part) + ")";
      });
  py::class_<PlaneSolution>(m, "PlaneSolution", "What solve_planes found.")
      .def_readonly("translation", &PlaneSolution::translation)
      .def_readonly("iterations", &PlaneSolution::iterations)
      .def_readonly("converged", &PlaneSolution::converged)
      .def("__repr__", [](const PlaneSolution& p) {
        return "PlaneSolution(translation=Vec2" + fmt(p.translation) + ", iterations=" + std::to_string(p.iterations) +
               ", converged=" + fmt(p.converged) + ")";
      });
  py::class_<MoverCastResult>(
      m, "MoverCastResult",
      "A mover's cast: the fraction of the translation that can be made; normal: the collider's outward normal.")
      .def_readonly("hit", &MoverCastResult::hit)
      .def_readonly("fraction", &MoverCastResult::fraction)
      .def_readonly("point", &MoverCastResult::point)
      .def_readonly("normal", &MoverCastResult::normal)
      .def_readonly("collider", &MoverCastResult::collider)
      .def_readonly("part", &MoverCastResult::part)
      .def(
          "__bool__", [](const MoverCastResult& c) { return bool(c); },
          "True when a collider stops the translation (hit).")
      .def("__repr__", [](const MoverCastResult& c) {
        return "MoverCastResult(hit=" + fmt(c.hit) + ", fraction=" + fmt(c.fraction) + ", point=Vec2" + fmt(c.point) +
               ", normal=Vec2" + fmt(c.normal) + ")";
      });
  m.def(
      "cast_mover",
      [](PyWorld& w, const Shape& s, const Transform& xf, Vec2 t, float skin, const QueryFilter& f, ColliderId ignore) {
        return cast_mover(use(w), s, xf, t, skin, f, ignore);
      },
      "world"_a, "shape"_a, "xf"_a, "translation"_a, "skin"_a, "filter"_a = QueryFilter{}, "ignore"_a = ColliderId{},
      "Where the shape moving by translation first comes within skin of a collider it moves toward; colliders it "
      "touches "
      "and does not go deeper into do not stop it.");
  m.def(
      "mover_planes",
      [](PyWorld& w, const Shape& s, const Transform& xf, float margin, int max_planes, const QueryFilter& f,
         ColliderId ignore) {
        if (max_planes < 0 || max_planes > 4096) throw py::value_error("max_planes: expected 0..4096");
        std::vector<MoverPlane> planes(static_cast<std::size_t>(max_planes));
        const int n = mover_planes(use(w), s, xf, margin, planes, f, ignore);
        planes.resize(std::size_t(n));
        return planes;
      },
      "world"_a, "shape"_a, "xf"_a, "margin"_a, "max_planes"_a = 16, "filter"_a = QueryFilter{},
      "ignore"_a = ColliderId{},
      "The contact planes of the shape at xf within margin (the deepest max_planes when there are more).");
  m.def(
      "solve_planes",
      [](Vec2 t, const std::vector<MoverPlane>& planes, int iterations, float tolerance) {
        return solve_planes(t, planes, iterations, tolerance);
      },
      "translation"_a, "planes"_a, "max_iterations"_a = 20, "tolerance"_a = 1e-5f,
      "The translation nearest the one asked that keeps dot(normal, t) + separation >= 0 for every plane, each pushing "
      "at most its push_limit.");
  m.def(
      "clip_vector", [](Vec2 v, const std::vector<MoverPlane>& planes) { return clip_vector(v, planes); }, "v"_a,
      "planes"_a, "The vector nearest v that drives into none of the planes (those with clip_velocity).");

  py::class_<MoverSettings>(m, "MoverSettings",
                            "CharacterMover's settings (lengths in world units, angles in radians; docs/mover.md).")
      .def(py::init<>())
      .def_readwrite("up", &MoverSettings::up)
      .def_readwrite("max_slope", &MoverSettings::max_slope, "radians; steeper surfaces are walls (default 50 degrees)")
      .def_readwrite("step_height", &MoverSettings::step_height)
      .def_readwrite("snap_distance", &MoverSettings::snap_distance)
      .def_readwrite("skin", &MoverSettings::skin)
      .def_readwrite("push_speed", &MoverSettings::push_speed, "world units per second")
      .def_readwrite("filter", &MoverSettings::filter)
      .def_readwrite("max_iterations", &MoverSettings::max_iterations);
  py::class_<MoverGround>(m, "MoverGround", "The surface a mover stands on (normal: unit, world).")
      .def_readonly("grounded", &MoverGround::grounded)
      .def_readonly("normal", &MoverGround::normal)
      .def_readonly("point", &MoverGround::point)
      .def_readonly("collider", &MoverGround::collider)
      .def_readonly("part", &MoverGround::part)
      .def("__repr__", [](const MoverGround& g) {
        return "MoverGround(grounded=" + fmt(g.grounded) + ", normal=Vec2" + fmt(g.normal) + ", point=Vec2" +
               fmt(g.point) + ")";
      });
  py::class_<MoverStep>(m, "MoverStep", "What one CharacterMover.step did.")
      .def_readonly("transform", &MoverStep::transform)
      .def_readonly("velocity", &MoverStep::velocity, "the velocity asked, clipped by what the mover met")
      .def_readonly("ground", &MoverStep::ground)
      .def_readonly("stepped", &MoverStep::stepped)
      .def_readonly("snapped", &MoverStep::snapped)
      .def_readonly("pushed", &MoverStep::pushed)
      .def("__repr__", [](const MoverStep& s) {
        return "MoverStep(p=Vec2" + fmt(s.transform.p) + ", velocity=Vec2" + fmt(s.velocity) +
               ", grounded=" + fmt(s.ground.grounded) + ", stepped=" + fmt(s.stepped) + ", snapped=" + fmt(s.snapped) +
               ", pushed=" + fmt(s.pushed) + ")";
      });
  py::class_<CharacterMover>(
      m, "CharacterMover",
      "A character of any shape moved through a world one step at a time: walks, slides, climbs steps, snaps down, "
      "rides and is pushed by platforms. Raises InvalidSettings (an InvalidShape subclass for one release) for "
      "unusable settings.")
      .def(py::init<const Shape&, const Transform&, const MoverSettings&>(), "shape"_a, "xf"_a,
           "settings"_a = MoverSettings{})
      .def(
          "step",
          [](CharacterMover& mover, PyWorld& w, Vec2 velocity, float dt) { return mover.step(use(w), velocity, dt); },
          "world"_a, "velocity"_a, "dt"_a,
          "Moves by velocity * dt (world frame) and returns a MoverStep; dt <= 0 or non-finite input: no motion.")
      .def_property_readonly("transform", &CharacterMover::transform)
      .def("set_transform", &CharacterMover::set_transform, "xf"_a,
           "Teleports the mover (no casts; the ground is forgotten).")
      .def_property_readonly("shape", &CharacterMover::shape)
      .def_property_readonly("ground", &CharacterMover::ground)
      .def_property_readonly("settings", &CharacterMover::settings)
      .def("set_self", &CharacterMover::set_self, "id"_a,
           "The mover's own collider in the world, which its queries then ignore.");
}

}  // namespace

namespace {

// Pickled states of the world's value types (common.hpp: plain tuples). An id pickles as its three
// numbers: it names a collider only in the world (and process) that made it.
py::tuple pickled(ColliderId id) { return py::make_tuple(id.index, id.generation, id.world); }
ColliderId unpickled_id(const py::handle& h) {
  const py::tuple t = state(h.cast<py::tuple>(), 3, "ColliderId");
  return ColliderId{t[0].cast<std::uint32_t>(), t[1].cast<std::uint32_t>(), t[2].cast<std::uint32_t>()};
}

}  // namespace

void bind_world(py::module_& m) {
  py::register_exception<InvalidRecording>(m, "InvalidRecording", PyExc_ValueError);
  py::class_<ReplayReport>(m, "ReplayReport", "What pebble.replay() found (pebble/recording.hpp).")
      .def_readonly("calls", &ReplayReport::calls)
      .def_readonly("updates", &ReplayReport::updates)
      .def_readonly("mismatches", &ReplayReport::mismatches)
      .def_readonly("first_mismatch", &ReplayReport::first_mismatch)
      .def_readonly("digest", &ReplayReport::digest)
      .def_readonly("first_problem", &ReplayReport::first_problem)
      .def("__repr__", [](const ReplayReport& r) {
        return "ReplayReport(calls=" + std::to_string(r.calls) + ", updates=" + std::to_string(r.updates) +
               ", mismatches=" + std::to_string(r.mismatches) + ")";
      });
  m.def(
      "replay",
      [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw std::runtime_error("cannot open the recording '" + path + "'");
        return replay(in);
      },
      "path"_a,
      "Replays a recording (CollisionWorld.start_recording) on a new world and checks every call and update's digest. "
      "Raises InvalidRecording (a ValueError) for a file that is not a recording pebble can replay.");
  m.def(
      "update_digest", [](PyWorld& w) { return update_digest(use(w)); }, "world"_a,
      "A 64-bit digest of the world's last update: contacts and events, every bit.");
  py::class_<ColliderId>(
      m, "ColliderId",
      "Names one collider of one CollisionWorld (slot, generation, world serial). The default names nothing.")
      .def(py::init([](std::uint32_t index, std::uint32_t generation, std::uint32_t world) {
             return ColliderId{index, generation, world};
           }),
           "index"_a = 0xffffffffu, "generation"_a = 0u, "world"_a = 0u)
      .def_readonly("index", &ColliderId::index)
      .def_readonly("generation", &ColliderId::generation)
      .def_readonly("world", &ColliderId::world)
      .def(
          "__eq__", [](ColliderId a, ColliderId b) { return a == b; }, py::is_operator())
      .def("__hash__", [](ColliderId id) { return std::hash<ColliderId>()(id); })
      .def("__repr__", [](ColliderId id) { return repr(id); })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](ColliderId id) { return pickled(id); }, [](const py::tuple& t) { return unpickled_id(t); }));
  m.def(
      "id_array",
      [](const py::object& ids) {
        ItemCount n;
        const std::vector<ColliderId> v = ids_from(ids, n);
        py::array out = zeros(collider_id_dtype(), v.size());
        if (!v.empty()) std::memcpy(out.mutable_data(), v.data(), v.size() * sizeof(ColliderId));
        return out;
      },
      "ids"_a, "A COLLIDER_ID_DTYPE array of the ids, for CollisionWorld.set_transforms.");

  py::class_<Filter>(
      m, "Filter",
      "Which colliders may touch: each one's category has a bit in the other's mask, unless they share a "
      "nonzero group (positive: always, negative: never).")
      .def(py::init([](std::uint64_t c, std::uint64_t mask, std::int32_t g) {
             return Filter{c, mask, g};
           }),
           "category"_a = 1u, "mask"_a = ~0ull, "group"_a = 0)
      .def_readwrite("category", &Filter::category)
      .def_readwrite("mask", &Filter::mask)
      .def_readwrite("group", &Filter::group)
      .def(
          "__eq__", [](const Filter& a, const Filter& b) { return a == b; }, py::is_operator())
      .def("__repr__", [](const Filter& f) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "Filter(category=0x%llx, mask=0x%llx, group=%d)", (unsigned long long)f.category,
                      (unsigned long long)f.mask, f.group);
        return std::string(buf);
      });
  m.def("should_collide", &should_collide, "a"_a, "b"_a, "The filter rule; symmetric.");

  py::class_<QueryFilter>(m, "QueryFilter",
                          "Which colliders a scene query sees: category bits in mask; sensors only when asked; fixed "
                          "ones unless fixed=False.")
      .def(py::init([](std::uint64_t mask, bool sensors, bool fixed) {
             return QueryFilter{mask, sensors, fixed};
           }),
           "mask"_a = ~0ull, "sensors"_a = false, "fixed"_a = true)
      .def_readwrite("mask", &QueryFilter::mask)
      .def_readwrite("sensors", &QueryFilter::sensors)
      .def_readwrite("fixed", &QueryFilter::fixed, "whether fixed colliders are seen (False: only those that move)");

  py::class_<ColliderOptions>(m, "ColliderOptions",
                              "How a collider takes part in the world; the defaults make a solid moving collider.")
      .def(py::init([](const Filter& f, bool fixed, bool sensor, std::uint64_t user_data, bool fresh) {
             ColliderOptions o;
             o.filter = f;
             o.fixed = fixed;
             o.sensor = sensor;
             o.user_data = user_data;
             o.fresh_contacts = fresh;
             return o;
           }),
           "filter"_a = Filter{}, "fixed"_a = false, "sensor"_a = false, "user_data"_a = 0u, "fresh_contacts"_a = false)
      .def_readwrite("filter", &ColliderOptions::filter)
      .def_readwrite("fixed", &ColliderOptions::fixed,
                     "kept in the fixed tree, never paired with another fixed collider")
      .def_readwrite("sensor", &ColliderOptions::sensor, "reports sensor events, makes no contacts")
      .def_readwrite("user_data", &ColliderOptions::user_data)
      .def_readwrite("fresh_contacts", &ColliderOptions::fresh_contacts,
                     "never reuse the last manifold for this collider's pairs");

  py::class_<ContactPair>(
      m, "ContactPair",
      "Two touching parts of two colliders and their manifold (world, normal from a to b); a has the lower slot.")
      .def_readonly("a", &ContactPair::a)
      .def_readonly("b", &ContactPair::b)
      .def_readonly("manifold", &ContactPair::manifold)
      .def_readonly("part_a", &ContactPair::part_a)
      .def_readonly("part_b", &ContactPair::part_b)
      .def("__repr__",
           [](const ContactPair& p) {
             return "ContactPair(a=" + repr(p.a) + ", b=" + repr(p.b) + ", part_a=" + std::to_string(p.part_a) +
                    ", part_b=" + std::to_string(p.part_b) + ", count=" + std::to_string(p.manifold.count) + ")";
           })
      .def(
          "__eq__",
          [](const ContactPair& x, const ContactPair& y) {
            // The manifold as Manifold.__eq__ compares it: the normal and the count points, exactly.
            return x.a == y.a && x.b == y.b && x.part_a == y.part_a && x.part_b == y.part_b &&
                   pickled(x.manifold).equal(pickled(y.manifold));
          },
          py::is_operator())
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const ContactPair& p) {
            return py::make_tuple(pickled(p.a), pickled(p.b), pickled(p.manifold), p.part_a, p.part_b);
          },
          [](const py::tuple& t) {
            state(t, 5, "ContactPair");
            ContactPair p{};
            p.a = unpickled_id(t[0]);
            p.b = unpickled_id(t[1]);
            p.manifold = unpickled_manifold(t[2]);
            p.part_a = t[3].cast<int>();
            p.part_b = t[4].cast<int>();
            return p;
          }));
  py::class_<Neighbor>(
      m, "Neighbor",
      "A collider found by nearest/within_radius: id, its nearest part, signed distance (< 0 overlapping).")
      .def_readonly("id", &Neighbor::id)
      .def_readonly("part", &Neighbor::part)
      .def_readonly("distance", &Neighbor::distance)
      .def(
          "__eq__",
          [](const Neighbor& a, const Neighbor& b) {
            return a.id == b.id && a.part == b.part && a.distance == b.distance;
          },
          py::is_operator())
      .def("__repr__",
           [](const Neighbor& n) {
             return "Neighbor(id=" + repr(n.id) + ", part=" + std::to_string(n.part) + ", distance=" + fmt(n.distance) +
                    ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](const Neighbor& n) { return py::make_tuple(pickled(n.id), n.part, n.distance); },
                      [](const py::tuple& t) {
                        state(t, 3, "Neighbor");
                        return Neighbor{unpickled_id(t[0]), t[1].cast<int>(), t[2].cast<float>()};
                      }));
  py::class_<ContactEvent>(m, "ContactEvent", "Two parts of two colliders that began or ended touching.")
      .def_readonly("a", &ContactEvent::a)
      .def_readonly("b", &ContactEvent::b)
      .def_readonly("part_a", &ContactEvent::part_a)
      .def_readonly("part_b", &ContactEvent::part_b)
      .def(
          "__eq__",
          [](const ContactEvent& x, const ContactEvent& y) {
            return x.a == y.a && x.b == y.b && x.part_a == y.part_a && x.part_b == y.part_b;
          },
          py::is_operator())
      .def("__repr__",
           [](const ContactEvent& e) {
             return "ContactEvent(a=" + repr(e.a) + ", b=" + repr(e.b) + ", part_a=" + std::to_string(e.part_a) +
                    ", part_b=" + std::to_string(e.part_b) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const ContactEvent& e) { return py::make_tuple(pickled(e.a), pickled(e.b), e.part_a, e.part_b); },
          [](const py::tuple& t) {
            state(t, 4, "ContactEvent");
            return ContactEvent{unpickled_id(t[0]), unpickled_id(t[1]), t[2].cast<int>(), t[3].cast<int>()};
          }));
  py::class_<SensorEvent>(m, "SensorEvent", "A collider (visitor) that began or ended overlapping a sensor.")
      .def_readonly("sensor", &SensorEvent::sensor)
      .def_readonly("visitor", &SensorEvent::visitor)
      .def_readonly("sensor_part", &SensorEvent::sensor_part)
      .def_readonly("visitor_part", &SensorEvent::visitor_part)
      .def(
          "__eq__",
          [](const SensorEvent& x, const SensorEvent& y) {
            return x.sensor == y.sensor && x.visitor == y.visitor && x.sensor_part == y.sensor_part &&
                   x.visitor_part == y.visitor_part;
          },
          py::is_operator())
      .def("__repr__",
           [](const SensorEvent& e) {
             return "SensorEvent(sensor=" + repr(e.sensor) + ", visitor=" + repr(e.visitor) +
                    ", sensor_part=" + std::to_string(e.sensor_part) +
                    ", visitor_part=" + std::to_string(e.visitor_part) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const SensorEvent& e) {
            return py::make_tuple(pickled(e.sensor), pickled(e.visitor), e.sensor_part, e.visitor_part);
          },
          [](const py::tuple& t) {
            state(t, 4, "SensorEvent");
            return SensorEvent{unpickled_id(t[0]), unpickled_id(t[1]), t[2].cast<int>(), t[3].cast<int>()};
          }));
  py::class_<WorldCastResult>(m, "WorldCastResult",
                              "A ray or cast hit on one collider: which, which part, and the CastResult (world).")
      .def_readonly("id", &WorldCastResult::id)
      .def_readonly("hit", &WorldCastResult::hit)
      .def_readonly("part", &WorldCastResult::part)
      .def(
          "__bool__", [](const WorldCastResult& r) { return bool(r); }, "True when a collider was hit (hit.hit).")
      .def(
          "__eq__",
          [](const WorldCastResult& a, const WorldCastResult& b) {
            return a.id == b.id && a.part == b.part && a.hit.hit == b.hit.hit && a.hit.fraction == b.hit.fraction &&
                   a.hit.point == b.hit.point && a.hit.normal == b.hit.normal;
          },
          py::is_operator())
      .def("__repr__",
           [](const WorldCastResult& r) {
             return "WorldCastResult(id=" + repr(r.id) + ", hit=" + repr_cast_hit(r.hit) +
                    ", part=" + std::to_string(r.part) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](const WorldCastResult& r) { return py::make_tuple(pickled(r.id), pickled(r.hit), r.part); },
                      [](const py::tuple& t) {
                        state(t, 3, "WorldCastResult");
                        WorldCastResult r{};
                        r.id = unpickled_id(t[0]);
                        r.hit = unpickled_cast_hit(t[1]);
                        r.part = t[2].cast<int>();
                        return r;
                      }));

  py::class_<PyPartView>(
      m, "PartView",
      "A part of a collider as parts_in_box finds it: id, part number, the part's shape (collider frame), its "
      "ChainSegment with ghost vertices when it is a chain's segment (else None), the collider's transform, the "
      "part's box (world) and whether the collider is fixed. Shape and segment are copies.")
      .def_readonly("id", &PyPartView::id)
      .def_readonly("part", &PyPartView::part)
      .def_readonly("shape", &PyPartView::shape,
                    "the part's shape in the collider's frame (a chain segment's segment shape)")
      .def_readonly("segment", &PyPartView::segment, "the chain segment with its ghost vertices (one-sided), or None")
      .def_readonly("xf", &PyPartView::xf, "the collider's transform (its frame to world)")
      .def_readonly("box", &PyPartView::box,
                    "the part's box in world (its bounds grown by the trees' slack, not fattened)")
      .def_readonly("fixed", &PyPartView::fixed)
      .def("__repr__", [](const PyPartView& v) {
        const auto r = [](const auto& x) { return py::repr(py::cast(x)).template cast<std::string>(); };
        return "PartView(id=" + repr(v.id) + ", part=" + std::to_string(v.part) + ", shape=" + r(v.shape) +
               ", segment=" + (v.segment ? r(*v.segment) : std::string("None")) + ", xf=" + r(v.xf) +
               ", box=" + r(v.box) + ", fixed=" + fmt(v.fixed) + ")";
      });

  py::class_<TreeSettings>(m, "TreeSettings", "The fat boxes of moving colliders (pebble/tree.hpp).")
      .def(py::init([](float margin, float fraction, float prediction) {
             return TreeSettings{margin, fraction, prediction};
           }),
           "margin"_a = TreeSettings{}.margin, "margin_fraction"_a = TreeSettings{}.margin_fraction,
           "prediction"_a = TreeSettings{}.prediction)
      .def_readwrite("margin", &TreeSettings::margin)
      .def_readwrite("margin_fraction", &TreeSettings::margin_fraction)
      .def_readwrite("prediction", &TreeSettings::prediction);
  py::class_<ReuseBounds>(m, "ReuseBounds",
                          "How far a touching pair may move before collide() runs again (0: the contract's bounds). "
                          "ReuseBounds.box2d_v3() gives Box2D v3's looser bounds (docs/world.md).")
      .def(py::init([](float distance, float angle) {
             return ReuseBounds{distance, angle};
           }),
           "distance"_a = 0.0f, "angle"_a = 0.0f)
      .def_readwrite("distance", &ReuseBounds::distance, "world units")
      .def_readwrite("angle", &ReuseBounds::angle, "radians")
      .def_static("box2d_v3", &ReuseBounds::box2d_v3)
      .def("__repr__", [](const ReuseBounds& b) {
        return "ReuseBounds(distance=" + py::repr(py::float_(b.distance)).cast<std::string>() +
               ", angle=" + py::repr(py::float_(b.angle)).cast<std::string>() + ")";
      });
  py::class_<WorldSettings>(m, "WorldSettings",
                            "Settings of a CollisionWorld, fixed at construction (the task hook is C++ only).")
      .def(py::init([](float margin, const TreeSettings& tree, int threads, bool reuse, const ReuseBounds& bounds) {
             WorldSettings s;
             s.contact_margin = margin;
             s.tree = tree;
             s.threads = threads;
             s.reuse_contacts = reuse;
             s.reuse_bounds = bounds;
             return s;
           }),
           "contact_margin"_a = kDefaultContactMargin, "tree"_a = TreeSettings{}, "threads"_a = 1,
           "reuse_contacts"_a = true, "reuse_bounds"_a = ReuseBounds{})
      .def_readwrite("reuse_bounds", &WorldSettings::reuse_bounds)
      .def_readwrite("contact_margin", &WorldSettings::contact_margin,
                     "contacts() holds pairs at most this far apart (world units)")
      .def_readwrite("tree", &WorldSettings::tree)
      .def_readwrite("threads", &WorldSettings::threads, "update() spreads its work over this many threads")
      .def_readwrite("reuse_contacts", &WorldSettings::reuse_contacts);
  py::class_<TreeStats>(m, "TreeStats")
      .def_readonly("proxy_count", &TreeStats::proxy_count)
      .def_readonly("node_count", &TreeStats::node_count)
      .def_readonly("height", &TreeStats::height)
      .def_readonly("max_balance", &TreeStats::max_balance)
      .def_readonly("area_ratio", &TreeStats::area_ratio)
      .def_readonly("memory_bytes", &TreeStats::memory_bytes);
  py::class_<WorldStats>(m, "WorldStats", "Counts from the last update().")
      .def_readonly("colliders", &WorldStats::colliders)
      .def_readonly("fixed", &WorldStats::fixed)
      .def_readonly("pairs", &WorldStats::pairs)
      .def_readonly("contacts", &WorldStats::contacts)
      .def_readonly("collided", &WorldStats::collided)
      .def_readonly("reused", &WorldStats::reused)
      .def_readonly("part_slots", &WorldStats::part_slots)
      .def_readonly("separated", &WorldStats::separated)
      .def_readonly("new_pairs", &WorldStats::new_pairs)
      .def_readonly("moving_tree", &WorldStats::moving_tree)
      .def_readonly("fixed_tree", &WorldStats::fixed_tree)
      .def("__repr__", [](const WorldStats& s) {
        return "WorldStats(colliders=" + std::to_string(s.colliders) + ", pairs=" + std::to_string(s.pairs) +
               ", contacts=" + std::to_string(s.contacts) + ", collided=" + std::to_string(s.collided) + ")";
      });

  // restore() refuses bytes with pebble::InvalidSnapshot (a std::invalid_argument): in Python a
  // ValueError subclass, so `except ValueError` catches it too.
  py::register_exception<InvalidSnapshot>(m, "InvalidSnapshot", PyExc_ValueError);

  using W = PyWorld;
  py::class_<W>(
      m, "CollisionWorld",
      "A scene of colliders: pairs, contacts, events and scene queries (pebble/world.hpp). Changes apply at once "
      "to the scene queries; update() brings contacts() and the events up to date. Stale or foreign ids are "
      "refused: setters return False, getters None.")
      .def(py::init([](const WorldSettings& s) { return std::make_unique<W>(s); }), "settings"_a = WorldSettings{})
      .def(
          "add",
          [](W& w, const Shape& s, const Transform& xf, std::uint64_t user_data) {
            return use(w).add(s, xf, user_data);
          },
          "shape"_a, "xf"_a, "user_data"_a = 0u, "Adds a moving collider. Raises ValueError for an invalid transform.")
      .def(
          "add",
          [](W& w, const Shape& s, const Transform& xf, const ColliderOptions& o) { return use(w).add(s, xf, o); },
          "shape"_a, "xf"_a, "options"_a)
      .def(
          "add",
          [](W& w, const std::vector<Shape>& parts, const Transform& xf, std::uint64_t user_data) {
            return use(w).add(std::span<const Shape>(parts), xf, user_data);
          },
          "parts"_a, "xf"_a, "user_data"_a = 0u,
          "Adds a compound: one collider of several convex parts, each in the collider's frame.")
      .def(
          "add",
          [](W& w, const std::vector<Shape>& parts, const Transform& xf, const ColliderOptions& o) {
            return use(w).add(std::span<const Shape>(parts), xf, o);
          },
          "parts"_a, "xf"_a, "options"_a)
      .def(
          "add",
          [](W& w, const Chain& c, const Transform& xf, std::uint64_t user_data) {
            return use(w).add(c, xf, user_data);
          },
          "chain"_a, "xf"_a, "user_data"_a = 0u, "Adds a chain (terrain, fixed): its parts are the segments.")
      .def(
          "add",
          [](W& w, const Chain& c, const Transform& xf, const ColliderOptions& o) { return use(w).add(c, xf, o); },
          "chain"_a, "xf"_a, "options"_a)
      .def(
          "add",
          [](W& w, const Heightfield& h, const Transform& xf, std::uint64_t user_data) {
            return use(w).add(h, xf, user_data);
          },
          "heightfield"_a, "xf"_a, "user_data"_a = 0u, "Adds a heightfield (terrain, fixed): its part i is cell i.")
      .def(
          "add",
          [](W& w, const Heightfield& h, const Transform& xf, const ColliderOptions& o) {
            return use(w).add(h, xf, o);
          },
          "heightfield"_a, "xf"_a, "options"_a)
      .def(
          "remove", [](W& w, ColliderId id) { return use(w).remove(id); }, "id"_a)
      .def(
          "set_transform", [](W& w, ColliderId id, const Transform& xf) { return use(w).set_transform(id, xf); },
          "id"_a, "xf"_a)
      .def(
          "set_shape", [](W& w, ColliderId id, const Shape& s) { return use(w).set_shape(id, s); }, "id"_a, "shape"_a)
      .def(
          "set_filter", [](W& w, ColliderId id, const Filter& f) { return use(w).set_filter(id, f); }, "id"_a,
          "filter"_a)
      .def(
          "set_user_data", [](W& w, ColliderId id, std::uint64_t u) { return use(w).set_user_data(id, u); }, "id"_a,
          "user_data"_a)
      .def(
          "contains", [](W& w, ColliderId id) { return use(w).contains(id); }, "id"_a)
      .def(
          "shape",
          [](W& w, ColliderId id) -> std::optional<Shape> {
            const Shape* s = use(w).shape(id);
            return s ? std::optional<Shape>(*s) : std::nullopt;
          },
          "id"_a)
      .def(
          "part_count", [](W& w, ColliderId id) { return use(w).part_count(id); }, "id"_a)
      .def(
          "part",
          [](W& w, ColliderId id, int part) -> std::optional<Shape> {
            const Shape* s = use(w).part(id, part);
            return s ? std::optional<Shape>(*s) : std::nullopt;
          },
          "id"_a, "part"_a)
      .def(
          "transform",
          [](W& w, ColliderId id) -> std::optional<Transform> {
            const Transform* t = use(w).transform(id);
            return t ? std::optional<Transform>(*t) : std::nullopt;
          },
          "id"_a)
      .def(
          "options",
          [](W& w, ColliderId id) -> std::optional<ColliderOptions> {
            const ColliderOptions* o = use(w).options(id);
            return o ? std::optional<ColliderOptions>(*o) : std::nullopt;
          },
          "id"_a)
      .def(
          "box", [](W& w, ColliderId id) { return use(w).box(id); }, "id"_a)
      .def("size", [](W& w) { return use(w).size(); })
      .def("__len__", [](W& w) { return use(w).size(); })
      .def(
          "update",
          [](W& w) {
            BusyScope busy(w);
            py::gil_scoped_release nogil;
            w.world.update();
          },
          "Finds new pairs, runs the narrowphase, refreshes contacts() and the events (the GIL is released meanwhile).")
      .def(
          "contacts",
          [](W& w) {
            const auto c = use(w).contacts();
            return std::vector<ContactPair>(c.begin(), c.end());
          },
          "The touching pairs as of the last update() (manifold count > 0 at the contact margin).")
      .def(
          "contacts_array",
          [](W& w) {
            const auto c = use(w).contacts();
            py::array out = zeros(contact_pair_dtype(), c.size());
            if (!c.empty()) std::memcpy(out.mutable_data(), c.data(), c.size() * sizeof(ContactPair));
            return out;
          },
          "contacts() as a CONTACT_PAIR_DTYPE structured array (a, b: ids; manifold; part_a, part_b).")
      .def("touch_begin_events",
           [](W& w) {
             const auto e = use(w).touch_begin_events();
             return std::vector<ContactEvent>(e.begin(), e.end());
           })
      .def("touch_end_events",
           [](W& w) {
             const auto e = use(w).touch_end_events();
             return std::vector<ContactEvent>(e.begin(), e.end());
           })
      .def("part_touch_begin_events",
           [](W& w) {
             const auto e = use(w).part_touch_begin_events();
             return std::vector<ContactEvent>(e.begin(), e.end());
           })
      .def("part_touch_end_events",
           [](W& w) {
             const auto e = use(w).part_touch_end_events();
             return std::vector<ContactEvent>(e.begin(), e.end());
           })
      .def("sensor_begin_events",
           [](W& w) {
             const auto e = use(w).sensor_begin_events();
             return std::vector<SensorEvent>(e.begin(), e.end());
           })
      .def("sensor_end_events",
           [](W& w) {
             const auto e = use(w).sensor_end_events();
             return std::vector<SensorEvent>(e.begin(), e.end());
           })
      .def("stats", [](W& w) { return use(w).stats(); })
      .def("validate", [](W& w) { return use(w).validate(); })
      .def("optimize_fixed", [](W& w) { use(w).optimize_fixed(); })
      .def(
          "start_recording", [](W& w, const std::string& path) { use(w).start_recording(path); }, "path"_a,
          "Records every call that changes the world (and each update's digest) into the file, for pebble.replay() or "
          "`pebble replay FILE`; a world that is not new begins the recording with its save(). Raises RuntimeError "
          "when the "
          "file cannot be opened.")
      .def(
          "stop_recording", [](W& w) { use(w).stop_recording(); }, "Stops recording and closes the file.")
      .def_property_readonly(
          "recording", [](W& w) { return use(w).recording(); }, "True while a recording is on.")
      .def(
          "save",
          [](W& w) {
            const std::vector<std::byte> b = use(w).save();
            return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
          },
          "The whole state as bytes (docs/world.md, \"Snapshot and restore\"): restore() gives a world that answers "
          "every "
          "later call bit for bit as this one, with the same ids.")
      .def_static(
          "restore",
          [](const py::bytes& data) {
            const std::string_view v = data;
            return std::make_unique<W>(CollisionWorld::restore(
                std::span<const std::byte>(reinterpret_cast<const std::byte*>(v.data()), v.size())));
          },
          "data"_a,
          "The world save() wrote. Raises InvalidSnapshot (a ValueError) naming the problem for truncated, corrupt or "
          "foreign bytes.")
      .def("settings", [](W& w) { return use(w).settings(); })
      .def(
          "cast_ray", [](W& w, const Ray& ray, const QueryFilter& f) { return or_none(use(w).cast_ray(ray, f)); },
          "ray"_a, "filter"_a = QueryFilter{},
          "The closest hit of the ray (normal: the collider's outward normal, world), or None.")
      .def(
          "cast_ray",
          [](W& w, const Ray& ray, const py::function& on_hit, const QueryFilter& f) {
            const CollisionWorld& world = use(w);
            call_hits(on_hit, [&](auto& cb) { world.cast_ray(ray, cb, f); });
          },
          "ray"_a, "on_hit"_a, "filter"_a = QueryFilter{},
          "Every hit: on_hit(WorldCastResult) -> float (< 0 ignore, 0 stop, else clip the ray to that fraction).")
      .def(
          "cast_circle",
          [](W& w, const Ray& ray, float radius, const QueryFilter& f) {
            return or_none(use(w).cast_circle(ray, radius, f));
          },
          "ray"_a, "radius"_a, "filter"_a = QueryFilter{})
      .def(
          "cast_circle",
          [](W& w, const Ray& ray, float radius, const py::function& on_hit, const QueryFilter& f) {
            const CollisionWorld& world = use(w);
            call_hits(on_hit, [&](auto& cb) { world.cast_circle(ray, radius, cb, f); });
          },
          "ray"_a, "radius"_a, "on_hit"_a, "filter"_a = QueryFilter{})
      .def(
          "cast_shape",
          [](W& w, const Shape& s, const Transform& xf, Vec2 t, const QueryFilter& f, const ShapeCastOptions& o) {
            return or_none(use(w).cast_shape(s, xf, t, f, o));
          },
          "shape"_a, "xf"_a, "translation"_a, "filter"_a = QueryFilter{}, "options"_a = ShapeCastOptions{},
          "The closest hit of the shape moved by translation; hit.normal is the collider's outward normal.")
      .def(
          "cast_shape",
          [](W& w, const Shape& s, const Transform& xf, Vec2 t, const py::function& on_hit, const QueryFilter& f,
             const ShapeCastOptions& o) {
            const CollisionWorld& world = use(w);
            call_hits(on_hit, [&](auto& cb) { world.cast_shape(s, xf, t, cb, f, o); });
          },
          "shape"_a, "xf"_a, "translation"_a, "on_hit"_a, "filter"_a = QueryFilter{}, "options"_a = ShapeCastOptions{})
      .def(
          "overlap_shape",
          [](W& w, const Shape& s, const Transform& xf, std::optional<py::function> on_hit, const QueryFilter& f) {
            const CollisionWorld& world = use(w);
            return collect_ids(on_hit, [&](auto& cb) { world.overlap_shape(s, xf, cb, f); });
          },
          "shape"_a, "xf"_a, "on_hit"_a = py::none(), "filter"_a = QueryFilter{},
          "The colliders overlapping the shape (touching counts): a list of ids, or on_hit(id) -> bool (False stops) "
          "for each.")
      .def(
          "within_distance",
          [](W& w, const Shape& s, const Transform& xf, float d, std::optional<py::function> on_hit,
             const QueryFilter& f) {
            const CollisionWorld& world = use(w);
            return collect_ids(on_hit, [&](auto& cb) { world.within_distance(s, xf, d, cb, f); });
          },
          "shape"_a, "xf"_a, "distance"_a, "on_hit"_a = py::none(), "filter"_a = QueryFilter{})
      .def(
          "overlap_aabb",
          [](W& w, const Aabb& box, std::optional<py::function> on_hit, const QueryFilter& f) {
            const CollisionWorld& world = use(w);
            return collect_ids(on_hit, [&](auto& cb) { world.overlap_aabb(box, cb, f); });
          },
          "box"_a, "on_hit"_a = py::none(), "filter"_a = QueryFilter{})
      .def(
          "overlap_point",
          [](W& w, Vec2 p, std::optional<py::function> on_hit, const QueryFilter& f) {
            const CollisionWorld& world = use(w);
            return collect_ids(on_hit, [&](auto& cb) { world.overlap_point(p, cb, f); });
          },
          "point"_a, "on_hit"_a = py::none(), "filter"_a = QueryFilter{})
      .def(
          "nearest",
          [](W& w, const Shape& s, const Transform& xf, int k, float max_distance, const QueryFilter& f) {
            if (k < 0 || k > 1000000) throw py::value_error("k: expected 0..1000000");
            std::vector<Neighbor> out(static_cast<std::size_t>(k));
            out.resize(static_cast<std::size_t>(use(w).nearest(s, xf, out, max_distance, f)));
            return out;
          },
          "shape"_a, "xf"_a, "k"_a, "max_distance"_a = std::numeric_limits<float>::infinity(),
          "filter"_a = QueryFilter{},
          "The k colliders nearest the shape at xf by distance() to their nearest part (signed), within max_distance, "
          "nearest "
          "first (ties by slot): a list of Neighbor(id, part, distance). A point is Shape.circle(0).")
      .def(
          "within_radius",
          [](W& w, const Shape& s, const Transform& xf, float radius, int k, const QueryFilter& f) {
            if (k < 0 || k > 1000000) throw py::value_error("k: expected 0..1000000");
            std::vector<Neighbor> out(static_cast<std::size_t>(k));
            out.resize(static_cast<std::size_t>(use(w).within_radius(s, xf, radius, out, f)));
            return out;
          },
          "shape"_a, "xf"_a, "radius"_a, "k"_a = 64, "filter"_a = QueryFilter{},
          "The colliders within radius of the shape, nearest first (at most k, the nearest): a list of Neighbor.")
      .def(
          "parts_in_box",
          [](W& w, const Aabb& box, const QueryFilter& f) {
            const CollisionWorld& world = use(w);
            // The C++ query writes into the caller's span and returns how many it found, which may
            // exceed the span: a second call with room for all when the first buffer was short.
            std::vector<PartView> views(64);
            int n = world.parts_in_box(box, views, f);
            if (std::size_t(n) > views.size()) {
              views.resize(std::size_t(n));
              n = world.parts_in_box(box, views, f);
            }
            std::vector<PyPartView> out;
            out.reserve(std::size_t(n));
            for (int i = 0; i < n; ++i) {
              const PartView& v = views[std::size_t(i)];
              out.push_back({v.id, v.part, *v.shape, v.segment ? std::optional<ChainSegment>(*v.segment) : std::nullopt,
                             v.xf, v.box, v.fixed});
            }
            return out;
          },
          "box"_a, "filter"_a = QueryFilter{},
          "The parts (of colliders the filter passes) whose tree boxes overlap box: a list of PartView, moving "
          "colliders "
          "first. No exact test: the candidates of every query confined to the box, to run collide(), cast_shape() and "
          "so on "
          "on oneself. An invalid box: [].")
      .def(
          "collide_shape",
          [](W& w, const Shape& s, const Transform& xf, float margin, const QueryFilter& f) {
            py::list out;
            use(w).collide_shape(
                s, xf, margin,
                [&](ColliderId id, int part, const Manifold& m) {
                  out.append(py::make_tuple(id, part, m));
                  return true;
                },
                f);
            return out;
          },
          "shape"_a, "xf"_a, "margin"_a = 0.0f, "filter"_a = QueryFilter{},
          "The contacts the shape at xf would have: a list of (ColliderId, part, Manifold), one per part with a point "
          "within "
          "margin. Each manifold is collide(part, shape): its normal points from the collider to the shape (world); "
          "chains one-sided.")
      .def(
          "set_transforms",
          [](W& w, const py::object& ids_obj, const py::object& xfs) {
            ItemCount n;
            const std::vector<ColliderId> ids = ids_from(ids_obj, n);
            const Items<Transform> t =
                items<Transform>(xfs, "transforms", "a Transform or an (N, 4) array of [x, y, c, s]", n);
            py::array_t<bool> out(py::ssize_t(ids.size()));
            bool* o = out.mutable_data();
            BusyScope busy(w);
            py::gil_scoped_release nogil;
            std::vector<Transform> to(ids.size());
            for (size_t i = 0; i < ids.size(); ++i) {
              to[i] = t[i];
              o[i] = w.world.contains(ids[i]) && is_valid(to[i]);
            }
            w.world.set_transforms(ids, to);
            return out;
          },
          "ids"_a, "transforms"_a,
          "set_transform() for each id (a list of ColliderId or an id_array) with row i of an (N, 4) [x, y, c, s] "
          "array "
          "(or one Transform for all), in one call to the C++ set_transforms() (boxes on the world's threads); the GIL "
          "is "
          "released. Returns a bool array: False for a stale id or an invalid transform.")
      .def(
          "cast_rays",
          [](W& w, const py::object& rays, std::optional<float> radius, const QueryFilter& f) {
            ItemCount n;
            const Items<Ray> r = items<Ray>(
                rays, "rays", "a Ray or an (N, 4) array of [origin x, origin y, translation x, translation y]", n);
            if (n == kUnknown) n = 1;
            const float rad = radius ? finite_scalar(*radius, "radius") : 0.0f;
            py::array out = zeros(ray_result_dtype(), n);
            auto* o = static_cast<WorldCastResult*>(out.mutable_data());
            BusyScope busy(w);
            py::gil_scoped_release nogil;
            for (size_t i = 0; i < n; ++i) {
              const WorldCastResult hit = radius ? w.world.cast_circle(r[i], rad, f) : w.world.cast_ray(r[i], f);
              if (hit) {
                o[i].id = hit.id;
                o[i].part = hit.part;
                store(&o[i].hit, hit.hit);
              } else {
                o[i].id = ColliderId{};
                o[i].hit.fraction = 1;
              }
            }
            return out;
          },
          "rays"_a, "radius"_a = py::none(), "filter"_a = QueryFilter{},
          "cast_ray() (or cast_circle() with a radius) for each ray: WORLD_CAST_DTYPE records; a miss has hit.hit "
          "False "
          "and the default id (index 0xffffffff). The GIL is released.");

  bind_mover(m);
}

}  // namespace pebble::python
