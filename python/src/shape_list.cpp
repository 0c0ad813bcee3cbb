// pebble.batch.ShapeList (batch.hpp): many distinct shapes held in C++ for the batch forms. Built
// from numpy arrays of padded vertices, vertex counts and radii (row i is Shape.polygon(vertices[i,
// :counts[i]], radii[i])), or from Shapes; take() picks items by index without copying shapes.
#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "batch.hpp"

namespace pebble::python {

namespace {

constexpr int kPad = kMaxPolygonVertices;

/// A float32 C-contiguous copy (or view) of a real-valued array argument, of the given number of
/// dimensions.
py::array_t<float, py::array::c_style> float_array(const py::handle& obj, const char* name, int ndim) {
  const py::array a = py::array::ensure(obj);
  if (!a) throw py::type_error(std::string(name) + ": expected an array of numbers");
  const char kind = a.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u')
    throw py::type_error(std::string(name) + ": expected an array of numbers, got dtype " +
                         py::str(py::handle(a.dtype())).cast<std::string>());
  if (a.ndim() != ndim)
    throw py::value_error(std::string(name) + ": expected " + std::to_string(ndim) + " dimensions, got shape " +
                          py::str(a.attr("shape")).cast<std::string>());
  return py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
}

/// The shapes of the rows, built without the GIL; the first row that fails names itself.
std::vector<Shape> shapes_of_rows(const float* vertices, int width, const std::vector<int>& counts, const float* radii,
                                  size_t n) {
  std::vector<Shape> out;
  out.reserve(n);
  std::optional<std::string> error;
  {
    py::gil_scoped_release nogil;
    Vec2 row[kPad];
    for (size_t i = 0; i < n; ++i) {
      for (int j = 0; j < counts[i]; ++j)
        row[j] = {vertices[(i * size_t(width) + size_t(j)) * 2], vertices[(i * size_t(width) + size_t(j)) * 2 + 1]};
      try {
        out.push_back(Shape::polygon(std::span<const Vec2>(row, size_t(counts[i])), radii ? radii[i] : 0.0f));
      } catch (const InvalidShape& e) {
        error = "ShapeList row " + std::to_string(i) + ": " + e.what();
        break;
      }
    }
  }
  if (error) throw InvalidShape(*error);
  return out;
}

ShapeList from_arrays(const py::handle& vertices_obj, const py::object& counts_obj, const py::object& radii_obj) {
  const auto v = float_array(vertices_obj, "vertices", 3);
  const size_t n = size_t(v.shape(0));
  const int width = int(v.shape(1));
  if (width < 1 || width > kPad || v.shape(2) != 2)
    throw py::value_error("vertices: expected an (N, k, 2) array with k from 1 to 8, got shape " +
                          py::str(vertices_obj.attr("shape")).cast<std::string>());
  std::vector<int> counts(n, width);
  if (!counts_obj.is_none()) {
    const py::array c = py::array::ensure(counts_obj);
    if (!c || (c.dtype().kind() != 'i' && c.dtype().kind() != 'u'))
      throw py::type_error("counts: expected an (N,) array of integers");
    if (c.ndim() != 1 || size_t(c.shape(0)) != n)
      throw py::value_error("counts: expected " + std::to_string(n) + " items (one per row of vertices), got shape " +
                            py::str(c.attr("shape")).cast<std::string>());
    const auto ci = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(c);
    for (size_t i = 0; i < n; ++i) {
      const long long k = ci.data()[i];
      if (k < 1 || k > width)
        throw py::value_error("counts[" + std::to_string(i) + "] is " + std::to_string(k) + ": expected 1 to " +
                              std::to_string(width) + " (the rows' width)");
      counts[i] = int(k);
    }
  }
  py::array_t<float, py::array::c_style> r;
  std::vector<float> same;
  const float* radii = nullptr;
  if (!radii_obj.is_none()) {
    if (py::isinstance<py::float_>(radii_obj) || py::isinstance<py::int_>(radii_obj)) {
      same.assign(n, radii_obj.cast<float>());
      radii = same.data();
    } else {
      r = float_array(radii_obj, "radii", 1);
      if (size_t(r.shape(0)) != n)
        throw py::value_error("radii: expected " + std::to_string(n) + " items (one per row of vertices), got " +
                              std::to_string(r.shape(0)));
      radii = r.data();
    }
  }
  ShapeList out;
  out.shapes = std::make_shared<const std::vector<Shape>>(shapes_of_rows(v.data(), width, counts, radii, n));
  return out;
}

ShapeList from_shapes(const py::handle& obj) {
  std::vector<Shape> shapes;
  const auto seq = py::reinterpret_borrow<py::sequence>(obj);
  shapes.reserve(seq.size());
  for (size_t i = 0; i < seq.size(); ++i) {
    const py::object item = seq[i];
    if (!py::isinstance<Shape>(item))
      throw py::type_error("shapes[" + std::to_string(i) + "]: expected a Shape, got " +
                           py::str(py::type::of(item)).cast<std::string>());
    shapes.push_back(item.cast<const Shape&>());
  }
  ShapeList out;
  out.shapes = std::make_shared<const std::vector<Shape>>(std::move(shapes));
  return out;
}

/// The stored shapes as arrays: cores padded to 8 vertices (zeros past the count), counts, radii.
py::tuple core_arrays(const std::vector<Shape>& shapes) {
  const size_t n = shapes.size();
  py::array_t<float> v({py::ssize_t(n), py::ssize_t(kPad), py::ssize_t(2)});
  py::array_t<std::int32_t> c(py::ssize_t{py::ssize_t(n)});
  py::array_t<float> r(py::ssize_t{py::ssize_t(n)});
  float* vp = v.mutable_data();
  std::fill(vp, vp + n * kPad * 2, 0.0f);
  for (size_t i = 0; i < n; ++i) {
    const Shape& s = shapes[i];
    for (int j = 0; j < s.vertex_count(); ++j) {
      vp[(i * kPad + size_t(j)) * 2] = s.vertices()[size_t(j)].x;
      vp[(i * kPad + size_t(j)) * 2 + 1] = s.vertices()[size_t(j)].y;
    }
    c.mutable_data()[i] = s.vertex_count();
    r.mutable_data()[i] = s.radius();
  }
  return py::make_tuple(v, c, r);
}

std::shared_ptr<const std::vector<std::uint32_t>> checked_index(const py::handle& obj, size_t size,
                                                                const ShapeList& base) {
  const py::array a = py::array::ensure(obj);
  if (!a || (a.dtype().kind() != 'i' && a.dtype().kind() != 'u'))
    throw py::type_error("indices: expected an (N,) array of integers");
  if (a.ndim() != 1)
    throw py::value_error("indices: expected an (N,) array, got shape " + py::str(a.attr("shape")).cast<std::string>());
  const auto ai = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(a);
  auto index = std::make_shared<std::vector<std::uint32_t>>(size_t(ai.shape(0)));
  for (size_t i = 0; i < index->size(); ++i) {
    const long long k = ai.data()[i];
    if (k < 0 || size_t(k) >= size)
      throw py::index_error("indices[" + std::to_string(i) + "] is " + std::to_string(k) + ": the list has " +
                            std::to_string(size) + " items");
    (*index)[i] = base.index ? (*base.index)[size_t(k)] : std::uint32_t(k);
  }
  return index;
}

}  // namespace

void bind_shape_list(py::module_& m) {
  py::class_<ShapeList>(
      m, "ShapeList",
      "N shapes held in C++ for the batch forms, built once: pass it wherever a batch call takes a list of N "
      "Shapes, and it is read in place with no Python object per item (results equal the single calls bit for "
      "bit). ShapeList(vertices, counts=None, radii=None): row i is Shape.polygon(vertices[i, :counts[i]], "
      "radii[i]) (a hull: 1 point a circle, 2 a capsule), vertices an (N, k, 2) array (k <= 8, padded), counts "
      "(N,) integers (default k), radii (N,) or one number (default 0); an invalid row raises InvalidShape "
      "naming the row. ShapeList(shapes) from a sequence of Shapes. Immutable; pickles.")
      .def(py::init([](const py::object& vertices, const py::object& counts, const py::object& radii) {
             const bool shapes = (py::isinstance<py::list>(vertices) || py::isinstance<py::tuple>(vertices)) &&
                                 py::len(vertices) > 0 && py::isinstance<Shape>(vertices[py::int_(0)]);
             if (shapes) {
               if (!counts.is_none() || !radii.is_none())
                 throw py::value_error("ShapeList(shapes): counts and radii are for vertex arrays");
               return from_shapes(vertices);
             }
             return from_arrays(vertices, counts, radii);
           }),
           "vertices"_a, "counts"_a = py::none(), "radii"_a = py::none())
      .def("__len__", &ShapeList::size)
      .def(
          "__getitem__",
          [](const ShapeList& l, py::ssize_t i) {
            const py::ssize_t n = py::ssize_t(l.size());
            if (i < 0) i += n;
            if (i < 0 || i >= n) throw py::index_error("ShapeList index out of range");
            return l[size_t(i)];
          },
          "i"_a, "Item i as a Shape (a copy).")
      .def(
          "take",
          [](const ShapeList& l, const py::object& indices) {
            ShapeList out;
            out.shapes = l.shapes;
            out.index = checked_index(indices, l.size(), l);
            return out;
          },
          "indices"_a,
          "A ShapeList whose item i is this list's item indices[i], sharing the shapes (4 bytes per item): a few "
          "distinct shapes over N pairs.")
      .def(
          "shape_count", [](const ShapeList& l) { return l.shapes->size(); },
          "The number of distinct shapes stored (len() counts items).")
      .def("__repr__",
           [](const ShapeList& l) {
             return "ShapeList(" + std::to_string(l.size()) + " items, " + std::to_string(l.shapes->size()) +
                    " shapes)";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const ShapeList& l) {
            py::object index = py::none();
            if (l.index) {
              py::array_t<std::uint32_t> a(py::ssize_t{py::ssize_t(l.index->size())});
              std::copy(l.index->begin(), l.index->end(), a.mutable_data());
              index = a;
            }
            return py::make_tuple(core_arrays(*l.shapes), index);
          },
          [](const py::tuple& t) {
            state(t, 2, "ShapeList");
            const py::tuple cores = state(t[0].cast<py::tuple>(), 3, "ShapeList cores");
            ShapeList out = from_arrays(cores[0], cores[1], cores[2]);
            // A core is its own hull: rebuilt, each shape must be the one pickled.
            const auto v = float_array(cores[0], "vertices", 3);
            const auto c = cores[1].cast<py::array_t<std::int32_t>>();
            const auto r = cores[2].cast<py::array_t<float>>();
            for (size_t i = 0; i < out.shapes->size(); ++i) {
              const Shape& s = (*out.shapes)[i];
              bool same = s.vertex_count() == c.at(py::ssize_t(i)) && s.radius() == r.at(py::ssize_t(i));
              for (int j = 0; same && j < s.vertex_count(); ++j)
                same = s.vertices()[size_t(j)] == Vec2{v.at(py::ssize_t(i), j, 0), v.at(py::ssize_t(i), j, 1)};
              if (!same)
                throw py::value_error("ShapeList: pickled shape " + std::to_string(i) +
                                      " is not a core the makers give");
            }
            if (!t[1].is_none()) {
              ShapeList whole = out;
              out.index = checked_index(t[1], whole.shapes->size(), whole);
            }
            return out;
          }));
}

}  // namespace pebble::python
