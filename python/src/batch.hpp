// python/src/batch.hpp — reading numpy arguments of the batch forms and writing their structured
// results. Every check happens here, with the GIL held, before a batch loop releases it:
// wrong type or dtype raise TypeError, wrong shape, non-contiguous memory or a value that is not
// finite raise ValueError, each naming the argument.
//
// Layout: an input of k floats per item (Vec2: 2, Transform: 4 as x, y, c, s, Ray: 4 as origin x,
// y and translation x, y, Sweep: 8 as local_center, c0, c1, a0, a1) is one pebble object, which
// every item shares, or a C-contiguous (N, k) array (a (k,) array is one item). float32 arrays are
// read in place; float64 arrays are rounded to float32 once (as a Python float is for a single
// call); other dtypes are refused. Results are structured arrays whose records have the C++
// struct's layout (field names as in C++).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"

namespace pebble::python {

inline constexpr size_t kUnknown = std::numeric_limits<size_t>::max();

/// The item count N of a batch call (kUnknown while every argument read so far was one item) and
/// the argument that set it, so that a mismatch names both arguments.
struct ItemCount {
  size_t n = kUnknown;
  const char* from = nullptr;
  ItemCount& operator=(size_t v) {
    n = v;
    return *this;
  }
  operator size_t() const { return n; }
};

/// Takes the item count of one argument: every array or list argument must have the same N.
inline void merge_count(ItemCount& n, size_t count, const char* name) {
  if (n.n == kUnknown) {
    n.n = count;
    n.from = name;
  } else if (n.n != count) {
    throw py::value_error(std::string(name) + ": has " + std::to_string(count) + " items where " + n.from + " has " +
                          std::to_string(n.n));
  }
}

/// N items of T (a struct of k floats), or one item that every index sees.
template <class T>
struct Items {
  const T* data = nullptr;  // null: every index reads `single`
  T single{};
  py::object keep;  // the array read (or its float32 copy)
  const T& operator[](size_t i) const { return data ? data[i] : single; }
};

/// The float32 array of an input array, after the dtype, shape and contiguity checks. k == 1:
/// (N,) or a 0-d array; else (N, k) or (k,). Sets count (kUnknown for a single item).
py::array_t<float> checked_floats(const py::array& a, const char* name, int k, const char* layout, size_t& count);

template <class T>
Items<T> items(const py::handle& obj, const char* name, const char* layout, ItemCount& n) {
  static_assert(sizeof(T) % sizeof(float) == 0);
  constexpr int k = int(sizeof(T) / sizeof(float));
  Items<T> out;
  if (py::isinstance<py::array>(obj)) {
    size_t count = kUnknown;
    const py::array_t<float> f = checked_floats(py::reinterpret_borrow<py::array>(obj), name, k, layout, count);
    if (count == kUnknown) {
      std::memcpy(static_cast<void*>(&out.single), f.data(), sizeof(T));
    } else {
      merge_count(n, count, name);
      out.data = reinterpret_cast<const T*>(f.data());
      out.keep = f;
    }
    return out;
  }
  try {
    out.single = obj.cast<T>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(name) + ": expected " + layout + ", got " +
                         py::str(py::type::of(obj)).cast<std::string>());
  }
  const float* f = reinterpret_cast<const float*>(&out.single);
  for (int j = 0; j < k; ++j)
    if (!std::isfinite(f[j]))
      throw py::value_error(std::string(name) + ": is not finite (batch inputs must be finite)");
  return out;
}

/// pebble.batch.ShapeList: shapes held in C++, built once (from numpy arrays of vertices, counts
/// and radii, or from Shapes) and read in place by every batch call, with no Python object per
/// item. Immutable, so a batch loop may read it without the GIL. take() makes a list that shares
/// the shapes and holds an index per item.
struct ShapeList {
  std::shared_ptr<const std::vector<Shape>> shapes;
  std::shared_ptr<const std::vector<std::uint32_t>> index;  // null: item i is shapes[i]
  size_t size() const { return index ? index->size() : shapes->size(); }
  const Shape& operator[](size_t i) const { return index ? (*shapes)[(*index)[i]] : (*shapes)[i]; }
};

/// One shape for every item, a sequence of N shapes, or a ShapeList of N items (kept alive while
/// the loop runs).
struct ShapeItems {
  const Shape* single = nullptr;
  std::vector<const Shape*> list;
  const Shape* array = nullptr;          // a ShapeList's shapes
  const std::uint32_t* index = nullptr;  // and its index, if it has one
  std::vector<py::object> keep;
  const Shape& operator[](size_t i) const {
    if (single) return *single;
    if (array) return index ? array[index[i]] : array[i];
    return *list[i];
  }
};
ShapeItems shape_items(const py::handle& obj, const char* name, ItemCount& n);

/// Binds batch.ShapeList (shape_list.cpp).
void bind_shape_list(py::module_& batch);

/// A scalar parameter of a batch call: must be finite.
float finite_scalar(float v, const char* name);

/// The structured dtypes of the results, built once (offsets and sizes from the C++ structs).
const py::dtype& contact_point_dtype();
const py::dtype& manifold_dtype();
const py::dtype& distance_dtype();
const py::dtype& cast_hit_dtype();
const py::dtype& toi_dtype();
const py::dtype& approach_dtype();
const py::dtype& projection_dtype();
const py::dtype& collider_id_dtype();
const py::dtype& contact_pair_dtype();
const py::dtype& ray_result_dtype();

/// A zero-filled 1-D array of n records of the given dtype (zero padding: deterministic bytes).
inline py::array zeros(const py::dtype& dt, size_t n) {
  return py::module_::import("numpy").attr("zeros")(py::int_(n), dt).cast<py::array>();
}

/// Field-wise stores, so that the padding bytes of the zeroed records stay zero.
inline void store(Manifold* o, const Manifold& r) { *o = r; }
inline void store(DistanceResult* o, const DistanceResult& r) { *o = r; }
inline void store(CastResult* o, const CastResult& r) {
  o->hit = r.hit;
  o->fraction = r.fraction;
  o->point = r.point;
  o->normal = r.normal;
}
inline void store(ToiResult* o, const ToiResult& r) { *o = r; }
inline void store(ApproachResult* o, const ApproachResult& r) {
  o->hit = r.hit;
  o->time = r.time;
  o->distance = r.distance;
  o->point_a = r.point_a;
  o->point_b = r.point_b;
  o->normal = r.normal;
}
inline void store(ProjectionResult* o, const ProjectionResult& r) {
  o->point = r.point;
  o->normal = r.normal;
  o->distance = r.distance;
  o->inside = r.inside;
}

}  // namespace pebble::python
