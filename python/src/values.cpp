// The fast way in for Vec2 and Transform (values.hpp). Where the time went before (perf, 400k
// calls of Transform((x, y), angle), about 2.9 us each): pybind11 tried Transform's two __init__
// overloads twice (without, then with conversions); each try turned the tuple into a Python Vec2
// through Vec2's own three overloads (formatting a TypeError for the (x, y) overload on the way),
// and every argument of every try looked its C++ type up by name in a hash table.
#include "values.hpp"

#include <pybind11/numpy.h>

#include <cstring>
#include <memory>

namespace pebble::python {

namespace {

/// A Python number as a float argument reads it: the double, rounded once to float32 (pybind11's
/// float caster does the same). False, with the error cleared, for anything that is not a number.
bool read_float(PyObject* o, float& f) noexcept {
  double d;
  if (PyFloat_CheckExact(o)) {
    d = PyFloat_AS_DOUBLE(o);
  } else {
    d = PyFloat_AsDouble(o);
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
  }
  f = float(d);
  return true;
}

/// n floats from a 1-D numpy array of exactly n items: float32 and float64 of native byte order
/// read in place (float64 rounded once), other real dtypes item by item as Python numbers.
bool read_array(PyObject* o, float* out, int n) noexcept {
  auto& api = py::detail::npy_api::get();
  if (!api.PyArray_Check_(o)) return false;
  const auto* a = py::detail::array_proxy(o);
  if (a->nd != 1 || a->dimensions[0] != n) return false;
  const auto* d = py::detail::array_descriptor_proxy(a->descr);
  const bool native = d->byteorder == '=' || d->byteorder == '|' || (d->byteorder == '<') == (PY_LITTLE_ENDIAN != 0);
  const char* p = a->data;
  const py::ssize_t step = a->strides[0];
  if (native && d->type_num == py::detail::npy_api::NPY_FLOAT_) {
    for (int i = 0; i < n; ++i) std::memcpy(&out[i], p + i * step, sizeof(float));
    return true;
  }
  if (native && d->type_num == py::detail::npy_api::NPY_DOUBLE_) {
    for (int i = 0; i < n; ++i) {
      double x;
      std::memcpy(&x, p + i * step, sizeof(double));
      out[i] = float(x);
    }
    return true;
  }
  if (d->kind != 'f' && d->kind != 'i' && d->kind != 'u' && d->kind != 'b')
    return false;  // complex, objects, ...: pybind11's way
  for (int i = 0; i < n; ++i) {
    PyObject* item = PySequence_GetItem(o, i);
    if (item == nullptr) {
      PyErr_Clear();
      return false;
    }
    const bool ok = read_float(item, out[i]);
    Py_DECREF(item);
    if (!ok) return false;
  }
  return true;
}

/// The two items of a tuple or list of length 2 (borrowed), or false.
bool pair_items(PyObject* o, PyObject*& first, PyObject*& second) noexcept {
  if (PyTuple_Check(o)) {
    if (PyTuple_GET_SIZE(o) != 2) return false;
    first = PyTuple_GET_ITEM(o, 0);
    second = PyTuple_GET_ITEM(o, 1);
    return true;
  }
  if (PyList_Check(o)) {
    if (PyList_GET_SIZE(o) != 2) return false;
    first = PyList_GET_ITEM(o, 0);
    second = PyList_GET_ITEM(o, 1);
    return true;
  }
  return false;
}

/// A point argument: a Vec2 or anything read_vec2 takes.
bool read_point(PyObject* o, Vec2& v) noexcept {
  if (const Vec2* p = exact_value<Vec2>(o, vec2_type)) {
    v = *p;
    return true;
  }
  return read_vec2(o, v);
}

/// The rotation of a pose: a Rot, or an angle in radians (Rot::from_angle of the float32 angle,
/// as Transform(p, angle) computes it).
bool read_rotation(PyObject* o, Rot& q) noexcept {
  if (const Rot* r = exact_value<Rot>(o, rot_type)) {
    q = *r;
    return true;
  }
  if (Py_TYPE(o) == rot_type) return false;  // a Rot never initialised: pybind11's error
  float angle;
  if (!read_float(o, angle)) return false;
  q = Rot::from_angle(angle);
  return true;
}

/// Gives the new instance self (of exactly the bound type T, __init__ not yet run) its value, as
/// pybind11's constructors do: the value allocated, then the holder built and the instance
/// registered by the type's init_instance.
template <class T>
void construct(PyObject* self, const py::detail::type_info* info, const T& value) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  auto v_h = inst->get_value_and_holder(info);
  v_h.value_ptr() = new T(value);
  info->init_instance(inst, nullptr);
}

/// The bound __init__ of each type, for the calls the fast one hands on, and pybind11's record of
/// the type.
initproc bound_vec2_init = nullptr;
initproc bound_transform_init = nullptr;
const py::detail::type_info* vec2_info = nullptr;
const py::detail::type_info* transform_info = nullptr;

/// Whether self is a fresh instance of exactly `type` and the call has `count` positional
/// arguments and no keywords: the only calls the fast __init__s answer themselves.
bool plain_call(PyObject* self, PyTypeObject* type, PyObject* args, PyObject* kwargs, py::ssize_t count) noexcept {
  if (Py_TYPE(self) != type || PyTuple_GET_SIZE(args) != count) return false;
  if (kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0) return false;
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  return !inst->get_value_and_holder().instance_registered();  // a second __init__: pybind11's rule
}

int fast_vec2_init(PyObject* self, PyObject* args, PyObject* kwargs) {
  float x, y;
  if (plain_call(self, vec2_type, args, kwargs, 2) && read_float(PyTuple_GET_ITEM(args, 0), x) &&
      read_float(PyTuple_GET_ITEM(args, 1), y)) {
    try {
      construct(self, vec2_info, Vec2{x, y});
    } catch (const std::bad_alloc&) {
      PyErr_NoMemory();
      return -1;
    }
    return 0;
  }
  return bound_vec2_init(self, args, kwargs);
}

int fast_transform_init(PyObject* self, PyObject* args, PyObject* kwargs) {
  Transform xf;
  if (plain_call(self, transform_type, args, kwargs, 2) && read_point(PyTuple_GET_ITEM(args, 0), xf.p) &&
      read_rotation(PyTuple_GET_ITEM(args, 1), xf.q)) {
    try {
      construct(self, transform_info, xf);
    } catch (const std::bad_alloc&) {
      PyErr_NoMemory();
      return -1;
    }
    return 0;
  }
  return bound_transform_init(self, args, kwargs);
}

void install(py::handle cls, initproc fast, initproc& bound, const py::detail::type_info*& info) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  info = py::detail::get_type_info(type);
  bound = type->tp_init;
  type->tp_init = fast;
  PyType_Modified(type);
}

}  // namespace

bool read_vec2(PyObject* o, Vec2& v) noexcept {
  PyObject *x, *y;
  if (pair_items(o, x, y)) return read_float(x, v.x) && read_float(y, v.y);
  if (PyTuple_Check(o) || PyList_Check(o) || PyUnicode_Check(o)) return false;
  float f[2];
  if (!read_array(o, f, 2)) return false;
  v = {f[0], f[1]};
  return true;
}

bool read_transform(PyObject* o, Transform& xf) noexcept {
  PyObject *p, *q;
  if (pair_items(o, p, q)) return read_point(p, xf.p) && read_rotation(q, xf.q);
  if (PyTuple_Check(o) || PyList_Check(o) || PyUnicode_Check(o)) return false;
  float f[4];
  if (!read_array(o, f, 4)) return false;
  xf = {{f[0], f[1]}, {f[2], f[3]}};
  return true;
}

void install_fast_init_vec2(py::handle cls) { install(cls, &fast_vec2_init, bound_vec2_init, vec2_info); }
void install_fast_init_transform(py::handle cls) {
  install(cls, &fast_transform_init, bound_transform_init, transform_info);
}

}  // namespace pebble::python
