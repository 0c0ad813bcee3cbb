// python/src/values.hpp — the fast way in for the small value types: a Vec2 or Transform argument
// is read straight from a tuple, a list or a numpy row, without pybind11's implicit conversion
// (which builds a temporary Python Vec2 through the class's overloaded constructor), and without
// the type-table lookup pybind11's generic caster makes for every argument. Anything the fast path
// does not take goes to pybind11's own caster, so its answers and errors are unchanged.
#pragma once

#include <pybind11/pybind11.h>

#include <pebble/math.hpp>

namespace pebble::python {

namespace py = pybind11;

/// The Python types of Vec2, Rot and Transform (set by bind_geometry once they exist).
inline PyTypeObject* vec2_type = nullptr;
inline PyTypeObject* rot_type = nullptr;
inline PyTypeObject* transform_type = nullptr;

/// The C++ value inside an instance of exactly the bound type, or null (another type, a subclass,
/// or an instance whose __init__ never ran).
template <class T>
T* exact_value(PyObject* o, PyTypeObject* type) noexcept {
  if (type == nullptr || Py_TYPE(o) != type) return nullptr;
  return static_cast<T*>(reinterpret_cast<py::detail::instance*>(o)->get_value_and_holder().value_ptr());
}

/// A tuple or list of two numbers, or a numpy array of shape (2,), as a Vec2: each number rounded
/// to float32 as a float argument is. False, with no Python error set, for anything else.
bool read_vec2(PyObject* o, Vec2& v) noexcept;
/// A pose as a Transform: a 2-tuple or 2-list (p, angle) or (p, Rot) with p anything read_vec2
/// takes or a Vec2 (the angle in radians, as Transform(p, angle) reads it), or a numpy array of
/// shape (4,) holding [x, y, c, s] (a row of the batch forms' transform arrays).
bool read_transform(PyObject* o, Transform& xf) noexcept;

/// Replaces the type's __init__ slot with one that builds the value from the positional
/// arguments (Vec2: x, y; Transform: p and an angle or a Rot) without pybind11's overload
/// resolution, and hands every other call (keywords, other arguments, subclasses) to the bound
/// __init__ overloads. Called once the class and all its methods are defined.
void install_fast_init_vec2(py::handle cls);
void install_fast_init_transform(py::handle cls);

}  // namespace pebble::python

namespace pybind11::detail {

/// The caster of a value class bound with py::class_: exact instances read in place (so methods
/// and property setters see the object itself), the forms `read` takes read into a local value,
/// everything else through pybind11's generic caster (subclasses, implicit conversions, None).
template <class T, bool (*read)(PyObject*, T&) noexcept, PyTypeObject** type>
struct fast_value_caster {
  static constexpr auto name = const_name<T>();
  template <typename U>
  using cast_op_type = detail::cast_op_type<U>;

  bool load(handle src, bool convert) {
    PyObject* o = src.ptr();
    if (o == nullptr) return false;
    if (T* p = pebble::python::exact_value<T>(o, *type)) {
      ptr = p;
      return true;
    }
    if (read(o, local)) {
      ptr = &local;
      return true;
    }
    type_caster_base<T> generic;
    if (!generic.load(src, convert)) return false;
    ptr = static_cast<T*>(generic.value);
    return true;
  }

  static handle cast(const T& src, return_value_policy policy, handle parent) {
    return type_caster_base<T>::cast(src, policy, parent);
  }
  static handle cast(T&& src, return_value_policy policy, handle parent) {
    return type_caster_base<T>::cast(std::move(src), policy, parent);
  }
  static handle cast(const T* src, return_value_policy policy, handle parent) {
    return type_caster_base<T>::cast(src, policy, parent);
  }

  operator T*() { return ptr; }
  operator T&() {
    if (ptr == nullptr) throw reference_cast_error();
    return *ptr;
  }

private:
  T local{};
  T* ptr = nullptr;
};

template <>
struct type_caster<pebble::Vec2>
    : fast_value_caster<pebble::Vec2, &pebble::python::read_vec2, &pebble::python::vec2_type> {};
template <>
struct type_caster<pebble::Transform>
    : fast_value_caster<pebble::Transform, &pebble::python::read_transform, &pebble::python::transform_type> {};

}  // namespace pybind11::detail
