// python/src/common.hpp — what the binding's files share: the bind_* entry points, float and
// struct formatting for the reprs, and the conversion of Python point lists.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <charconv>
#include <string>
#include <vector>

#include <pebble/pebble.hpp>

#include "values.hpp"

namespace pebble::python {

namespace py = pybind11;
using namespace pybind11::literals;

void bind_geometry(py::module_& m);    // math, shapes, mass, chains, decompose, tiles
void bind_queries(py::module_& m);     // the pair and point queries, one at a time
void bind_world(py::module_& m);       // CollisionWorld and its value types
void bind_batch(py::module_& m);       // pebble.batch: the numpy forms
void bind_primitives(py::module_& m);  // pebble.prim: the toolbox

/// The shortest text that reads back as the same float (repr of the float32 value).
inline std::string fmt(float x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}
inline std::string fmt(Vec2 v) { return "(" + fmt(v.x) + ", " + fmt(v.y) + ")"; }
inline std::string fmt(bool b) { return b ? "True" : "False"; }

/// A list of points from Python: a sequence of Vec2 or 2-sequences, or an (N, 2) array. Throws
/// TypeError or ValueError naming the problem.
std::vector<Vec2> points_from(const py::handle& obj, const char* what);

/// Pickling (py::pickle): a value's state is a tuple of plain floats, ints, bools and tuples, so
/// that it reads back bit for bit (a float32 survives the trip through a Python float) and does
/// not depend on the module's memory layout. state() checks the tuple's length.
inline py::tuple state(const py::tuple& t, size_t n, const char* type) {
  if (t.size() != n)
    throw py::value_error(std::string(type) + ": a pickled state of " + std::to_string(n) + " items, got " +
                          std::to_string(t.size()));
  return t;
}
/// __reduce__ of a class bound with py::pickle: cls.__new__(cls), then __setstate__, for every
/// pickle protocol. (Without it protocols 0 and 1 take copyreg's path, which pybind11 cannot
/// serve: the process aborts.)
inline py::tuple reduce_by_state(const py::object& self) {
  return py::make_tuple(py::module_::import("copyreg").attr("__newobj__"), py::make_tuple(py::type::of(self)),
                        self.attr("__getstate__")());
}
inline py::tuple pickled(Vec2 v) { return py::make_tuple(v.x, v.y); }
inline Vec2 unpickled_vec2(const py::handle& h) {
  const py::tuple t = state(h.cast<py::tuple>(), 2, "Vec2");
  return {t[0].cast<float>(), t[1].cast<float>()};
}

/// The pickled states of the results the world's types hold too (bind_queries.cpp).
py::tuple pickled(const Manifold& mf);
Manifold unpickled_manifold(const py::handle& state);
py::tuple pickled(const CastResult& h);
CastResult unpickled_cast_hit(const py::handle& state);

/// The Python-side types of a point list and of the batch arguments, as the stubs spell them.
struct PointList {
  std::vector<Vec2> points;
};

}  // namespace pebble::python

namespace pybind11::detail {
/// PointList arguments accept any sequence of points or an (N, 2) array, and read as
/// `PointsLike` in signatures and stubs.
template <>
struct type_caster<pebble::python::PointList> {
  PYBIND11_TYPE_CASTER(pebble::python::PointList, const_name("PointsLike"));
  bool load(handle src, bool) {
    if (!src || src.is_none() || PyUnicode_Check(src.ptr()) || PyBytes_Check(src.ptr())) return false;
    if (!isinstance<array>(src) && !PySequence_Check(src.ptr())) return false;
    value.points = pebble::python::points_from(src, "points");
    return true;
  }
  static handle cast(const pebble::python::PointList& v, return_value_policy policy, handle parent) {
    return list_caster<std::vector<pebble::Vec2>, pebble::Vec2>::cast(v.points, policy, parent);
  }
};
}  // namespace pybind11::detail
