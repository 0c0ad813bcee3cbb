// pebble.batch: the pair and point queries over numpy arrays, N items per call, with the GIL
// released while the loop runs (python/src/batch.hpp says how arguments are read).
#include "batch.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <span>
#include <type_traits>

#include "pebble/batch.hpp"

namespace pebble::python {

py::array_t<float> checked_floats(const py::array& a, const char* name, int k, const char* layout, size_t& count) {
  const py::dtype dt = a.dtype();
  const bool is_f32 = dt.equal(py::dtype::of<float>());
  const bool is_f64 = dt.equal(py::dtype::of<double>());
  if (!is_f32 && !is_f64)
    throw py::type_error(std::string(name) + ": expected a float32 or float64 array (" + layout + "), got dtype " +
                         py::str(py::handle(dt)).cast<std::string>());
  const auto shape_text = [&] { return py::str(a.attr("shape")).cast<std::string>(); };
  if (k == 1) {
    if (a.ndim() == 0) {
      count = kUnknown;
    } else if (a.ndim() == 1) {
      count = size_t(a.shape(0));
    } else {
      throw py::value_error(std::string(name) + ": expected " + layout + ", got an array of shape " + shape_text());
    }
  } else if (a.ndim() == 2 && a.shape(1) == k) {
    count = size_t(a.shape(0));
  } else if (a.ndim() == 1 && a.shape(0) == k) {
    count = kUnknown;
  } else {
    throw py::value_error(std::string(name) + ": expected " + layout + ", got an array of shape " + shape_text());
  }
  if (!(a.flags() & py::array::c_style))
    throw py::value_error(std::string(name) + ": the array is not C-contiguous (pass np.ascontiguousarray(...))");
  py::array_t<float> f;
  if (is_f32) {
    f = py::reinterpret_borrow<py::array_t<float>>(a);
  } else {
    // Values beyond float32's range become infinite and are refused below, without numpy's
    // overflow warning on the way.
    py::object quiet = py::module_::import("numpy").attr("errstate")("over"_a = "ignore");
    quiet.attr("__enter__")();
    f = py::array_t<float>(a.attr("astype")(py::dtype::of<float>()));
    quiet.attr("__exit__")(py::none(), py::none(), py::none());
  }
  const float* p = f.data();
  const size_t total = size_t(f.size());
  for (size_t i = 0; i < total; ++i) {
    if (!std::isfinite(p[i])) {
      const std::string where = k == 1 || count == kUnknown
                                    ? "[" + std::to_string(i) + "]"
                                    : "[" + std::to_string(i / size_t(k)) + ", " + std::to_string(i % size_t(k)) + "]";
      const std::string what = std::isnan(p[i]) ? "nan" : "infinite";
      throw py::value_error(std::string(name) + where + " is " + what + " (batch inputs must be finite" +
                            (is_f64 ? ", and within float32's range" : "") + ")");
    }
  }
  return f;
}

ShapeItems shape_items(const py::handle& obj, const char* name, ItemCount& n) {
  ShapeItems out;
  if (py::isinstance<Shape>(obj)) {
    out.single = &obj.cast<const Shape&>();
    out.keep.push_back(py::reinterpret_borrow<py::object>(obj));
    return out;
  }
  if (py::isinstance<ShapeList>(obj)) {
    const ShapeList& list = obj.cast<const ShapeList&>();
    out.array = list.shapes->data();
    out.index = list.index ? list.index->data() : nullptr;
    out.keep.push_back(py::reinterpret_borrow<py::object>(obj));
    merge_count(n, list.size(), name);
    return out;
  }
  if (py::isinstance<py::str>(obj) || !(py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)))
    throw py::type_error(std::string(name) + ": expected a Shape, a list of N Shapes or a ShapeList, got " +
                         py::str(py::type::of(obj)).cast<std::string>());
  // A tuple of the items (one C call; immutable, so no other thread can drop a shape from it
  // while the loop runs without the GIL), then each item's C++ value read in place.
  py::tuple items = py::reinterpret_steal<py::tuple>(PySequence_Tuple(obj.ptr()));
  if (!items) throw py::error_already_set();
  const size_t count = items.size();
  const PyObject* shape_type = py::type::of<Shape>().ptr();
  out.list.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    PyObject* item = PyTuple_GET_ITEM(items.ptr(), py::ssize_t(i));
    if (reinterpret_cast<const PyObject*>(Py_TYPE(item)) == shape_type) {
      auto* inst = reinterpret_cast<py::detail::instance*>(item);
      out.list.push_back(static_cast<const Shape*>(inst->get_value_and_holder().value_ptr()));
    } else if (py::isinstance<Shape>(item)) {
      out.list.push_back(&py::handle(item).cast<const Shape&>());
    } else {
      throw py::type_error(std::string(name) + "[" + std::to_string(i) + "]: expected a Shape, got " +
                           py::str(py::type::of(py::handle(item))).cast<std::string>());
    }
  }
  out.keep.push_back(std::move(items));
  merge_count(n, count, name);
  return out;
}

float finite_scalar(float v, const char* name) {
  if (!std::isfinite(v)) throw py::value_error(std::string(name) + ": is not finite (batch inputs must be finite)");
  return v;
}

namespace {

py::object vec2_format() { return py::str("(2,)<f4"); }

py::dtype make_dtype(std::vector<const char*> names, std::vector<py::object> formats, std::vector<size_t> offsets,
                     size_t itemsize) {
  py::list n, f, o;
  for (const char* s : names) n.append(py::str(s));
  for (auto& s : formats) f.append(s);
  for (size_t s : offsets) o.append(py::int_(s));
  return py::dtype(n, f, o, py::ssize_t(itemsize));
}

py::object pair_of(const py::dtype& d) { return py::make_tuple(d, py::make_tuple(2)); }

// The dtypes live as long as the process (never destroyed after the interpreter is gone).
template <class Make>
const py::dtype& cached(py::dtype*& slot, Make make) {
  if (!slot) slot = new py::dtype(make());
  return *slot;
}

}  // namespace

#define PEBBLE_OFFSETS_OK(T) static_assert(std::is_standard_layout_v<T> && std::is_trivially_copyable_v<T>)

const py::dtype& contact_point_dtype() {
  PEBBLE_OFFSETS_OK(ContactPoint);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype({"point", "separation", "id"}, {vec2_format(), py::str("<f4"), py::str("<u4")},
                      {offsetof(ContactPoint, point), offsetof(ContactPoint, separation), offsetof(ContactPoint, id)},
                      sizeof(ContactPoint));
  });
}
const py::dtype& manifold_dtype() {
  PEBBLE_OFFSETS_OK(Manifold);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype({"normal", "count", "points"}, {vec2_format(), py::str("<i4"), pair_of(contact_point_dtype())},
                      {offsetof(Manifold, normal), offsetof(Manifold, count), offsetof(Manifold, points)},
                      sizeof(Manifold));
  });
}
const py::dtype& distance_dtype() {
  PEBBLE_OFFSETS_OK(DistanceResult);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype({"distance", "normal", "point_a", "point_b"},
                      {py::str("<f4"), vec2_format(), vec2_format(), vec2_format()},
                      {offsetof(DistanceResult, distance), offsetof(DistanceResult, normal),
                       offsetof(DistanceResult, point_a), offsetof(DistanceResult, point_b)},
                      sizeof(DistanceResult));
  });
}
const py::dtype& cast_hit_dtype() {
  PEBBLE_OFFSETS_OK(CastResult);
  static_assert(sizeof(bool) == 1);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype({"hit", "fraction", "point", "normal"},
                      {py::str("?"), py::str("<f4"), vec2_format(), vec2_format()},
                      {offsetof(CastResult, hit), offsetof(CastResult, fraction), offsetof(CastResult, point),
                       offsetof(CastResult, normal)},
                      sizeof(CastResult));
  });
}
const py::dtype& toi_dtype() {
  PEBBLE_OFFSETS_OK(ToiResult);
  static_assert(sizeof(ToiResult::State) == 4);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype({"state", "fraction", "point", "normal"},
                      {py::str("<i4"), py::str("<f4"), vec2_format(), vec2_format()},
                      {offsetof(ToiResult, state), offsetof(ToiResult, fraction), offsetof(ToiResult, point),
                       offsetof(ToiResult, normal)},
                      sizeof(ToiResult));
  });
}
const py::dtype& approach_dtype() {
  PEBBLE_OFFSETS_OK(ApproachResult);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype(
        {"hit", "time", "distance", "point_a", "point_b", "normal"},
        {py::str("?"), py::str("<f4"), py::str("<f4"), vec2_format(), vec2_format(), vec2_format()},
        {offsetof(ApproachResult, hit), offsetof(ApproachResult, time), offsetof(ApproachResult, distance),
         offsetof(ApproachResult, point_a), offsetof(ApproachResult, point_b), offsetof(ApproachResult, normal)},
        sizeof(ApproachResult));
  });
}
const py::dtype& projection_dtype() {
  PEBBLE_OFFSETS_OK(ProjectionResult);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype({"point", "normal", "distance", "inside"},
                      {vec2_format(), vec2_format(), py::str("<f4"), py::str("?")},
                      {offsetof(ProjectionResult, point), offsetof(ProjectionResult, normal),
                       offsetof(ProjectionResult, distance), offsetof(ProjectionResult, inside)},
                      sizeof(ProjectionResult));
  });
}
const py::dtype& collider_id_dtype() {
  PEBBLE_OFFSETS_OK(ColliderId);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype({"index", "generation", "world"}, {py::str("<u4"), py::str("<u4"), py::str("<u4")},
                      {offsetof(ColliderId, index), offsetof(ColliderId, generation), offsetof(ColliderId, world)},
                      sizeof(ColliderId));
  });
}
const py::dtype& contact_pair_dtype() {
  PEBBLE_OFFSETS_OK(ContactPair);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype({"a", "b", "manifold", "part_a", "part_b"},
                      {collider_id_dtype(), collider_id_dtype(), manifold_dtype(), py::str("<i4"), py::str("<i4")},
                      {offsetof(ContactPair, a), offsetof(ContactPair, b), offsetof(ContactPair, manifold),
                       offsetof(ContactPair, part_a), offsetof(ContactPair, part_b)},
                      sizeof(ContactPair));
  });
}
const py::dtype& ray_result_dtype() {
  PEBBLE_OFFSETS_OK(WorldCastResult);
  static py::dtype* d = nullptr;
  return cached(d, [] {
    return make_dtype({"id", "hit", "part"}, {collider_id_dtype(), cast_hit_dtype(), py::str("<i4")},
                      {offsetof(WorldCastResult, id), offsetof(WorldCastResult, hit), offsetof(WorldCastResult, part)},
                      sizeof(WorldCastResult));
  });
}

namespace {

constexpr const char* kTransforms = "a Transform or an (N, 4) array of [x, y, c, s]";
constexpr const char* kVectors = "a Vec2 or an (N, 2) array";
constexpr const char* kRays = "a Ray or an (N, 4) array of [origin x, origin y, translation x, translation y]";
constexpr const char* kSweeps = "a Sweep or an (N, 8) array of [local_center x, y, c0 x, y, c1 x, y, a0, a1]";

/// Runs f(i) for every item with the GIL released; one result record per item.
template <class R, class F>
py::array run(const py::dtype& dt, size_t n, F f) {
  if (n == kUnknown) n = 1;  // every argument was a single item
  py::array out = zeros(dt, n);
  R* o = static_cast<R*>(out.mutable_data());
  {
    py::gil_scoped_release nogil;
    for (size_t i = 0; i < n; ++i) store(o + i, f(i));
  }
  return out;
}

template <class F>
py::array run_bool(size_t n, F f) {
  if (n == kUnknown) n = 1;
  auto out = py::array_t<bool>(py::ssize_t(n));
  bool* o = out.mutable_data();
  {
    py::gil_scoped_release nogil;
    for (size_t i = 0; i < n; ++i) o[i] = f(i);
  }
  return out;
}

/// The pair queries pebble::batch answers: items built into BatchPair chunks (on the stack; disc
/// pairs then run in SIMD lanes), answered by `call`, each result stored into its record. The
/// results are the single calls' bit for bit (pebble/batch.hpp).
template <class R, class Pair, class Call>
void run_pairs(R* o, size_t n, Pair pair, Call call) {
  constexpr size_t kChunk = 256;
  BatchPair pairs[kChunk];
  R results[kChunk];
  py::gil_scoped_release nogil;
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t m = std::min(kChunk, n - start);
    for (size_t j = 0; j < m; ++j) pairs[j] = pair(start + j);
    call(std::span<const BatchPair>(pairs, m), std::span<R>(results, m));
    for (size_t j = 0; j < m; ++j) {
      if constexpr (std::is_arithmetic_v<R>) {
        o[start + j] = results[j];
      } else {
        store(o + start + j, results[j]);
      }
    }
  }
}

/// The arguments of the motion queries (closest_approach, time_to_collision), read and checked.
struct MotionPairs {
  ItemCount n;
  ShapeItems sa, sb;
  Items<Transform> xa, xb;
  Items<Vec2> va, vb;
  BatchPair operator()(size_t i) const { return {{&sa[i], xa[i], va[i]}, {&sb[i], xb[i], vb[i]}}; }
};

MotionPairs motion_pairs(const py::object& a, const py::object& xa, const py::object& va, const py::object& b,
                         const py::object& xb, const py::object& vb, float horizon) {
  MotionPairs m;
  m.sa = shape_items(a, "a", m.n);
  m.sb = shape_items(b, "b", m.n);
  m.xa = items<Transform>(xa, "xa", kTransforms, m.n);
  m.xb = items<Transform>(xb, "xb", kTransforms, m.n);
  m.va = items<Vec2>(va, "velocity_a", kVectors, m.n);
  m.vb = items<Vec2>(vb, "velocity_b", kVectors, m.n);
  finite_scalar(horizon, "horizon");
  return m;
}

template <class R, class Pair, class Call>
py::array run_records(const py::dtype& dt, size_t n, Pair pair, Call call) {
  if (n == kUnknown) n = 1;
  py::array out = zeros(dt, n);
  run_pairs(static_cast<R*>(out.mutable_data()), n, pair, call);
  return out;
}

template <class R, class Pair, class Call>
py::array_t<R> run_values(size_t n, Pair pair, Call call) {
  if (n == kUnknown) n = 1;
  py::array_t<R> out(py::ssize_t{static_cast<py::ssize_t>(n)});
  run_pairs(out.mutable_data(), n, pair, call);
  return out;
}

}  // namespace

void bind_batch(py::module_& top) {
  py::module_ m = top.def_submodule(
      "batch",
      "The queries over numpy arrays: N items per call, no Python loop per item, the GIL released while they run.\n\n"
      "Each shape argument is one Shape, a list of N Shapes or a ShapeList of N items; each transform, vector, ray or "
      "sweep argument is one\n"
      "pebble object or a C-contiguous (N, k) array (Transform: [x, y, c, s]; Vec2: [x, y]; Ray: [origin x, origin y,\n"
      "translation x, translation y]; Sweep: [local_center x, y, c0 x, y, c1 x, y, a0, a1]). float32 is read in "
      "place,\n"
      "float64 is rounded to float32 once (as single calls round Python floats). Wrong dtypes raise TypeError; wrong\n"
      "shapes, non-contiguous arrays and values that are not finite raise ValueError. Results are structured arrays\n"
      "with the C++ struct's fields (frames and signs as the single forms); item i equals the single call on item i.");

  bind_shape_list(m);

  m.attr("MANIFOLD_DTYPE") = manifold_dtype();
  m.attr("CONTACT_POINT_DTYPE") = contact_point_dtype();
  m.attr("DISTANCE_DTYPE") = distance_dtype();
  m.attr("CAST_DTYPE") = cast_hit_dtype();
  m.attr("TOI_DTYPE") = toi_dtype();
  m.attr("APPROACH_DTYPE") = approach_dtype();
  m.attr("PROJECTION_DTYPE") = projection_dtype();
  m.attr("COLLIDER_ID_DTYPE") = collider_id_dtype();
  m.attr("CONTACT_PAIR_DTYPE") = contact_pair_dtype();
  m.attr("WORLD_CAST_DTYPE") = ray_result_dtype();

  m.def(
      "transforms",
      [](const py::array& positions, const py::array& angles) {
        size_t n = kUnknown, na = kUnknown;
        const py::array_t<float> p = checked_floats(positions, "positions", 2, "an (N, 2) array", n);
        const py::array_t<float> a = checked_floats(angles, "angles", 1, "an (N,) array", na);
        if (n == kUnknown || na == kUnknown) throw py::value_error("transforms: expected an (N, 2) and an (N,) array");
        if (n != na)
          throw py::value_error("angles: has " + std::to_string(na) + " items where positions has " +
                                std::to_string(n));
        py::array_t<float> out({py::ssize_t(n), py::ssize_t(4)});
        float* o = out.mutable_data();
        const float* pp = p.data();
        const float* aa = a.data();
        {
          py::gil_scoped_release nogil;
          for (size_t i = 0; i < n; ++i) {
            const Rot q = Rot::from_angle(aa[i]);
            o[4 * i] = pp[2 * i];
            o[4 * i + 1] = pp[2 * i + 1];
            o[4 * i + 2] = q.c;
            o[4 * i + 3] = q.s;
          }
        }
        return out;
      },
      "positions"_a, "angles"_a,
      "An (N, 4) float32 array of transforms [x, y, c, s] from (N, 2) positions and (N,) angles (radians), "
      "each rotation as Rot.from_angle makes it.");

  m.def(
      "collide",
      [](const py::object& a, const py::object& xa, const py::object& b, const py::object& xb, float margin) {
        ItemCount n;
        const ShapeItems sa = shape_items(a, "a", n), sb = shape_items(b, "b", n);
        const Items<Transform> ta = items<Transform>(xa, "xa", kTransforms, n),
                               tb = items<Transform>(xb, "xb", kTransforms, n);
        finite_scalar(margin, "margin");
        return run<Manifold>(manifold_dtype(), n,
                             [&](size_t i) { return collide(sa[i], ta[i], sb[i], tb[i], margin); });
      },
      "a"_a, "xa"_a, "b"_a, "xb"_a, "margin"_a = 0.0f,
      "collide() per item: MANIFOLD_DTYPE records (normal: world, from A to B; points[j] for j < count: point "
      "world, midway between the surfaces, separation < 0 penetrating, id).");

  m.def(
      "distance",
      [](const py::object& a, const py::object& xa, const py::object& b, const py::object& xb) {
        ItemCount n;
        const ShapeItems sa = shape_items(a, "a", n), sb = shape_items(b, "b", n);
        const Items<Transform> ta = items<Transform>(xa, "xa", kTransforms, n),
                               tb = items<Transform>(xb, "xb", kTransforms, n);
        return run_records<DistanceResult>(
            distance_dtype(), n,
            [&](size_t i) {
              return BatchPair{{&sa[i], ta[i], {}}, {&sb[i], tb[i], {}}};
            },
            [](std::span<const BatchPair> p, std::span<DistanceResult> r) { pebble::batch::distance(p, r); });
      },
      "a"_a, "xa"_a, "b"_a, "xb"_a,
      "distance() per item: DISTANCE_DTYPE records (distance < 0 overlapping; normal world, from A to B; "
      "point_b - point_a = normal * distance).");

  m.def(
      "overlap",
      [](const py::object& a, const py::object& xa, const py::object& b, const py::object& xb) {
        ItemCount n;
        const ShapeItems sa = shape_items(a, "a", n), sb = shape_items(b, "b", n);
        const Items<Transform> ta = items<Transform>(xa, "xa", kTransforms, n),
                               tb = items<Transform>(xb, "xb", kTransforms, n);
        return run_values<bool>(
            n,
            [&](size_t i) {
              return BatchPair{{&sa[i], ta[i], {}}, {&sb[i], tb[i], {}}};
            },
            [](std::span<const BatchPair> p, std::span<bool> r) { pebble::batch::overlap(p, r); });
      },
      "a"_a, "xa"_a, "b"_a, "xb"_a, "overlap() per item: a bool array (distance <= 0).");

  m.def(
      "cast_ray",
      [](const py::object& shape, const py::object& xf, const py::object& ray, std::optional<float> radius) {
        ItemCount n;
        const ShapeItems s = shape_items(shape, "shape", n);
        const Items<Transform> t = items<Transform>(xf, "xf", kTransforms, n);
        const Items<Ray> r = items<Ray>(ray, "ray", kRays, n);
        if (radius) {
          const float rad = finite_scalar(*radius, "radius");
          return run<CastResult>(cast_hit_dtype(), n, [&](size_t i) { return cast_ray(s[i], t[i], r[i], rad); });
        }
        return run<CastResult>(cast_hit_dtype(), n, [&](size_t i) { return cast_ray(s[i], t[i], r[i]); });
      },
      "shape"_a, "xf"_a, "ray"_a, "radius"_a = py::none(),
      "cast_ray() per item (with radius: the circle cast): CAST_DTYPE records (point on the shape's surface, "
      "normal its outward normal there, world; starting inside: fraction 0, normal (0, 0)).");

  m.def(
      "cast_shape",
      [](const py::object& a, const py::object& xa, const py::object& ta_, const py::object& b, const py::object& xb,
         const py::object& tb_, std::optional<float> target_separation) {
        ItemCount n;
        const ShapeItems sa = shape_items(a, "a", n), sb = shape_items(b, "b", n);
        const Items<Transform> xfa = items<Transform>(xa, "xa", kTransforms, n),
                               xfb = items<Transform>(xb, "xb", kTransforms, n);
        const Items<Vec2> va = items<Vec2>(ta_, "translation_a", kVectors, n),
                          vb = items<Vec2>(tb_, "translation_b", kVectors, n);
        if (target_separation) {
          const ShapeCastOptions options{finite_scalar(*target_separation, "target_separation")};
          return run<CastResult>(cast_hit_dtype(), n, [&](size_t i) {
            return cast_shape(sa[i], xfa[i], va[i], sb[i], xfb[i], vb[i], options);
          });
        }
        return run<CastResult>(cast_hit_dtype(), n,
                               [&](size_t i) { return cast_shape(sa[i], xfa[i], va[i], sb[i], xfb[i], vb[i]); });
      },
      "a"_a, "xa"_a, "translation_a"_a, "b"_a, "xb"_a, "translation_b"_a, "target_separation"_a = py::none(),
      "cast_shape() per item: CAST_DTYPE records (first fraction in [0, 1] of both motions at which they "
      "touch; point the contact point then; normal unit, world, from A to B).");

  m.def(
      "time_of_impact",
      [](const py::object& a, const py::object& sweep_a, const py::object& b, const py::object& sweep_b, float t_max,
         std::optional<ToiOptions> options) {
        ItemCount n;
        const ShapeItems sa = shape_items(a, "a", n), sb = shape_items(b, "b", n);
        const Items<Sweep> wa = items<Sweep>(sweep_a, "sweep_a", kSweeps, n),
                           wb = items<Sweep>(sweep_b, "sweep_b", kSweeps, n);
        finite_scalar(t_max, "t_max");
        if (options) {
          const ToiOptions o = *options;
          finite_scalar(o.target_separation, "options.target_separation");
          finite_scalar(o.tolerance, "options.tolerance");
          return run<ToiResult>(toi_dtype(), n,
                                [&](size_t i) { return time_of_impact(sa[i], wa[i], sb[i], wb[i], t_max, o); });
        }
        return run<ToiResult>(toi_dtype(), n,
                              [&](size_t i) { return time_of_impact(sa[i], wa[i], sb[i], wb[i], t_max); });
      },
      "a"_a, "sweep_a"_a, "b"_a, "sweep_b"_a, "t_max"_a = 1.0f, "options"_a = py::none(),
      "time_of_impact() per item: TOI_DTYPE records (state: int(ToiResult.State) 0 hit, 1 separated, 2 "
      "overlapped, 3 failed; fraction; point and normal (A to B), world).");

  m.def(
      "closest_approach",
      [](const py::object& a, const py::object& xa, const py::object& va_, const py::object& b, const py::object& xb,
         const py::object& vb_, float horizon) {
        const MotionPairs m = motion_pairs(a, xa, va_, b, xb, vb_, horizon);
        return run_records<ApproachResult>(approach_dtype(), m.n, std::cref(m),
                                           [horizon](std::span<const BatchPair> p, std::span<ApproachResult> r) {
                                             pebble::batch::closest_approach(p, horizon, r);
                                           });
      },
      "a"_a, "xa"_a, "velocity_a"_a, "b"_a, "xb"_a, "velocity_b"_a, "horizon"_a,
      "closest_approach() per item: APPROACH_DTYPE records (hit, time, signed distance then, point_a, point_b, "
      "normal from A to B, world). Pairs of two discs run in SIMD lanes (pebble::batch), with the same bits.");

  m.def(
      "time_to_collision",
      [](const py::object& a, const py::object& xa, const py::object& va_, const py::object& b, const py::object& xb,
         const py::object& vb_, float horizon) {
        const MotionPairs m = motion_pairs(a, xa, va_, b, xb, vb_, horizon);
        return run_values<float>(m.n, std::cref(m), [horizon](std::span<const BatchPair> p, std::span<float> r) {
          pebble::batch::time_to_collision(p, horizon, r);
        });
      },
      "a"_a, "xa"_a, "velocity_a"_a, "b"_a, "xb"_a, "velocity_b"_a, "horizon"_a,
      "time_to_collision() per item: a float32 array, the first time in [0, horizon] the shapes touch (0 when "
      "they start touching), inf (kNoCollision) when they do not.");

  m.def(
      "project_point",
      [](const py::object& shape, const py::object& xf, const py::object& p) {
        ItemCount n;
        const ShapeItems s = shape_items(shape, "shape", n);
        const Items<Transform> t = items<Transform>(xf, "xf", kTransforms, n);
        const Items<Vec2> q = items<Vec2>(p, "p", kVectors, n);
        return run<ProjectionResult>(projection_dtype(), n, [&](size_t i) { return project_point(s[i], t[i], q[i]); });
      },
      "shape"_a, "xf"_a, "p"_a,
      "project_point() per item: PROJECTION_DTYPE records (point, outward normal, signed distance < 0 "
      "inside, inside; world).");

  m.def(
      "contains",
      [](const py::object& shape, const py::object& xf, const py::object& p) {
        ItemCount n;
        const ShapeItems s = shape_items(shape, "shape", n);
        const Items<Transform> t = items<Transform>(xf, "xf", kTransforms, n);
        const Items<Vec2> q = items<Vec2>(p, "p", kVectors, n);
        return run_bool(n, [&](size_t i) { return contains(s[i], t[i], q[i]); });
      },
      "shape"_a, "xf"_a, "p"_a, "contains() per item: a bool array.");
}

}  // namespace pebble::python
