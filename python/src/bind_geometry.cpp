// The value types (pebble/math.hpp), the shapes and their makers (shape.hpp), mass (mass.hpp),
// chains (chain.hpp), heightfields (heightfield.hpp), decompose (decompose.hpp) and tile outlines (tiles.hpp).
#include <cmath>
#include <string>

#include "common.hpp"

namespace pebble::python {

std::vector<Vec2> points_from(const py::handle& obj, const char* what) {
  std::vector<Vec2> out;
  if (py::isinstance<py::array>(obj)) {
    const auto a = py::reinterpret_borrow<py::array>(obj);
    if (a.dtype().kind() != 'f' && a.dtype().kind() != 'i' && a.dtype().kind() != 'u')
      throw py::type_error(std::string(what) + ": expected an (N, 2) array of numbers, got dtype " +
                           py::str(py::handle(a.dtype())).cast<std::string>());
    if (a.ndim() != 2 || a.shape(1) != 2)
      throw py::value_error(std::string(what) + ": expected an (N, 2) array, got shape " +
                            py::str(obj.attr("shape")).cast<std::string>());
    const auto f = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
    const float* p = f.data();
    out.reserve(size_t(f.shape(0)));
    for (py::ssize_t i = 0; i < f.shape(0); ++i) out.push_back({p[2 * i], p[2 * i + 1]});
    return out;
  }
  if (!PySequence_Check(obj.ptr()))
    throw py::type_error(std::string(what) + ": expected a sequence of points or an (N, 2) array");
  const auto seq = py::reinterpret_borrow<py::sequence>(obj);
  out.reserve(seq.size());
  for (size_t i = 0; i < seq.size(); ++i) {
    try {
      out.push_back(seq[i].cast<Vec2>());
    } catch (const py::cast_error&) {
      throw py::type_error(std::string(what) + "[" + std::to_string(i) +
                           "]: expected a Vec2 or a pair of numbers, got " + py::repr(seq[i]).cast<std::string>());
    }
  }
  return out;
}

namespace {

Vec2 vec2_from_sequence(const py::sequence& s) {
  if (s.size() != 2) throw py::value_error("Vec2: expected 2 numbers, got " + std::to_string(s.size()));
  return {s[0].cast<float>(), s[1].cast<float>()};
}

std::string shape_repr(const Shape& s) {
  std::string out = "Shape(vertices=[";
  for (int i = 0; i < s.vertex_count(); ++i) out += (i ? ", " : "") + fmt(s.vertices()[size_t(i)]);
  return out + "], radius=" + fmt(s.radius()) + ")";
}

bool same_shape(const Shape& a, const Shape& b) {
  if (a.vertex_count() != b.vertex_count() || a.radius() != b.radius()) return false;
  for (int i = 0; i < a.vertex_count(); ++i)
    if (!(a.vertices()[size_t(i)] == b.vertices()[size_t(i)])) return false;
  return true;
}

/// A pickled shape is its core and radius; the makers rebuild it (a core is its own hull, so the
/// hull gives back the same vertices in the same order, and the normals follow from them). The
/// check makes a state that does not rebuild exactly an error rather than a different shape.
Shape unpickled_shape(const py::tuple& t) {
  state(t, 2, "Shape");
  const auto items = t[0].cast<py::tuple>();
  std::vector<Vec2> core;
  for (const py::handle v : items) core.push_back(unpickled_vec2(v));
  const float radius = t[1].cast<float>();
  const Shape s = core.size() == 1 ? Shape::circle(radius, core[0]) : Shape::polygon(core, radius);
  bool same = size_t(s.vertex_count()) == core.size() && s.radius() == radius;
  for (size_t i = 0; same && i < core.size(); ++i) same = s.vertices()[i] == core[i];
  if (!same)
    throw py::value_error("Shape: the pickled core " + py::repr(items).cast<std::string>() +
                          " is not a core the makers give");
  return s;
}

}  // namespace

void bind_geometry(py::module_& m) {
  m.attr("kMaxPolygonVertices") = kMaxPolygonVertices;
  m.attr("kLinearSlop") = kLinearSlop;
  m.attr("kDefaultContactMargin") = kDefaultContactMargin;
  m.attr("kMaxWorldCoordinate") = kMaxWorldCoordinate;
  m.attr("kMaxShapeExtent") = kMaxShapeExtent;
  m.attr("kHugeDistance") = kHugeDistance;
  m.attr("kNoCollision") = kNoCollision;
  m.attr("kMaxToiIterations") = kMaxToiIterations;

  // Shape makers throw pebble::InvalidShape (a std::invalid_argument): in Python a ValueError
  // subclass with the same message (registered after pybind11's own std::invalid_argument
  // translation, so it wins).
  const auto& invalid_shape = py::register_exception<InvalidShape>(m, "InvalidShape", PyExc_ValueError);
  // Settings that are not a shape (CharacterMover's): an InvalidShape subclass for one release, as in
  // C++ (registered after it, so that it is tried first).
  py::register_exception<InvalidSettings>(m, "InvalidSettings", invalid_shape.ptr());

  py::class_<Vec2> vec2(m, "Vec2",
                        "A 2D vector or point (float32 components). Tuples and lists of two numbers and numpy arrays "
                        "of shape (2,) convert to it.");
  vec2.def(py::init([](float x, float y) {
             return Vec2{x, y};
           }),
           "x"_a = 0.0f, "y"_a = 0.0f)
      .def(py::init([](const py::tuple& t) { return vec2_from_sequence(t); }), "xy"_a)
      .def(py::init([](const py::list& t) { return vec2_from_sequence(t); }), "xy"_a)
      .def_readwrite("x", &Vec2::x)
      .def_readwrite("y", &Vec2::y)
      .def(
          "__eq__", [](Vec2 a, Vec2 b) { return a == b; }, py::is_operator())
      .def("__repr__", [](Vec2 v) { return "Vec2" + fmt(v); })
      .def("__len__", [](Vec2) { return 2; })
      .def("__getitem__",
           [](Vec2 v, int i) {
             if (i == 0 || i == -2) return v.x;
             if (i == 1 || i == -1) return v.y;
             throw py::index_error("Vec2 index out of range");
           })
      .def("__iter__", [](Vec2 v) { return py::iter(py::make_tuple(v.x, v.y)); })
      .def(
          "__add__", [](Vec2 a, Vec2 b) { return a + b; }, py::is_operator())
      .def(
          "__sub__", [](Vec2 a, Vec2 b) { return a - b; }, py::is_operator())
      .def(
          "__mul__", [](Vec2 a, float s) { return a * s; }, py::is_operator())
      .def(
          "__rmul__", [](Vec2 a, float s) { return s * a; }, py::is_operator())
      .def(
          "__truediv__", [](Vec2 a, float s) { return a / s; }, py::is_operator())
      .def("__neg__", [](Vec2 a) { return -a; })
      .def("__copy__", [](Vec2 v) { return v; })
      .def(
          "__deepcopy__", [](Vec2 v, py::dict) { return v; }, "memo"_a)
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](Vec2 v) { return pickled(v); }, [](const py::tuple& t) { return unpickled_vec2(t); }));
  py::implicitly_convertible<py::tuple, Vec2>();
  py::implicitly_convertible<py::list, Vec2>();
  vec2_type = reinterpret_cast<PyTypeObject*>(vec2.ptr());
  install_fast_init_vec2(vec2);
  m.def(
      "dot", [](Vec2 a, Vec2 b) { return dot(a, b); }, "a"_a, "b"_a);
  m.def(
      "cross", [](Vec2 a, Vec2 b) { return cross(a, b); }, "a"_a, "b"_a,
      "z of the 3D cross product: positive when b is counter-clockwise from a.");
  m.def(
      "length", [](Vec2 v) { return length(v); }, "v"_a);
  m.def(
      "normalize", [](Vec2 v) { return normalize(v); }, "v"_a,
      "Unit vector along v, or (0, 0) when v is zero or not finite.");

  py::class_<Rot> rot(m, "Rot", "A rotation stored as the cosine c and sine s of its angle.");
  rot.def(py::init([](float c, float s) {
            return Rot{c, s};
          }),
          "c"_a = 1.0f, "s"_a = 0.0f)
      .def_readwrite("c", &Rot::c)
      .def_readwrite("s", &Rot::s)
      .def_static(
          "from_angle", &Rot::from_angle, "radians"_a,
          "The rotation by the angle (radians, counter-clockwise): c = cos, s = sin in float32, by pebble's own "
          "trigonometry, so the same bits on every platform.")
      .def_static("identity", &Rot::identity)
      .def("angle", &Rot::angle, "The angle in [-pi, pi] (pebble's own atan2: the same bits on every platform).")
      .def(
          "normalized", [](Rot q) { return normalize(q); },
          "This rotation scaled to unit length (in double, rounded once), for one composed many times over: queries "
          "refuse a rotation whose c*c + s*s is more than 1e-5 off 1 (kRotationTolerance). Identity for zero or "
          "non-finite.")
      .def(
          "__eq__", [](Rot a, Rot b) { return a == b; }, py::is_operator())
      .def("__repr__", [](Rot q) { return "Rot(c=" + fmt(q.c) + ", s=" + fmt(q.s) + ")"; })
      .def("__copy__", [](Rot v) { return v; })
      .def(
          "__deepcopy__", [](Rot v, py::dict) { return v; }, "memo"_a)
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](Rot q) { return py::make_tuple(q.c, q.s); },
                      [](const py::tuple& t) {
                        state(t, 2, "Rot");
                        return Rot{t[0].cast<float>(), t[1].cast<float>()};
                      }));

  py::class_<Transform> transform(
      m, "Transform",
      "A rigid motion mapping local coordinates to world: world = q * local + p. "
      "Transform(p, q) with a Rot, or Transform(p, angle) with an angle in radians. Where a Transform is expected, a "
      "pose (p, angle) or (p, Rot) as a tuple or list, or a numpy array [x, y, c, s] of shape (4,), converts to it.");
  transform.def(py::init([](Vec2 p, Rot q) {
                  return Transform{p, q};
                }),
                "p"_a = Vec2{}, "q"_a = Rot{})
      .def(py::init([](Vec2 p, float angle) {
             return Transform{p, Rot::from_angle(angle)};
           }),
           "p"_a, "angle"_a)
      .def_readwrite("p", &Transform::p)
      .def_readwrite("q", &Transform::q)
      .def_static("identity", &Transform::identity)
      .def(
          "__eq__", [](const Transform& a, const Transform& b) { return a == b; }, py::is_operator())
      .def("__repr__",
           [](const Transform& x) {
             return "Transform(p=Vec2" + fmt(x.p) + ", q=Rot(c=" + fmt(x.q.c) + ", s=" + fmt(x.q.s) + "))";
           })
      .def("__copy__", [](const Transform& v) { return v; })
      .def(
          "__deepcopy__", [](const Transform& v, py::dict) { return v; }, "memo"_a)
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const Transform& x) { return py::make_tuple(x.p.x, x.p.y, x.q.c, x.q.s); },
          [](const py::tuple& t) {
            state(t, 4, "Transform");
            return Transform{{t[0].cast<float>(), t[1].cast<float>()}, {t[2].cast<float>(), t[3].cast<float>()}};
          }));
  rot_type = reinterpret_cast<PyTypeObject*>(rot.ptr());
  transform_type = reinterpret_cast<PyTypeObject*>(transform.ptr());
  install_fast_init_transform(transform);
  m.def("transform_point", &transform_point, "xf"_a, "v"_a, "Local point to world: q * v + p.");
  m.def("inv_transform_point", &inv_transform_point, "xf"_a, "v"_a, "World point to local.");
  m.def("mul", py::overload_cast<const Transform&, const Transform&>(&mul), "a"_a, "b"_a,
        "The composition a * b (apply b, then a).");
  m.def("inv_mul", py::overload_cast<const Transform&, const Transform&>(&inv_mul), "a"_a, "b"_a,
        "a^-1 * b: b expressed in a's frame.");
  m.def("inverse", &inverse, "xf"_a);
  m.def("is_valid", py::overload_cast<const Transform&>(&is_valid), "xf"_a,
        "True when every field is finite, |p| <= kMaxWorldCoordinate and q is a unit rotation; queries "
        "return their empty result for any other transform.");

  py::class_<Aabb>(m, "Aabb", "An axis-aligned box by its lower-left and upper-right corners (boundary included).")
      .def(py::init([](Vec2 lower, Vec2 upper) {
             return Aabb{lower, upper};
           }),
           "lower"_a = Vec2{}, "upper"_a = Vec2{})
      .def_readwrite("lower", &Aabb::lower)
      .def_readwrite("upper", &Aabb::upper)
      .def(
          "__eq__", [](const Aabb& a, const Aabb& b) { return a == b; }, py::is_operator())
      .def("__repr__",
           [](const Aabb& a) { return "Aabb(lower=Vec2" + fmt(a.lower) + ", upper=Vec2" + fmt(a.upper) + ")"; })
      .def("__copy__", [](const Aabb& v) { return v; })
      .def(
          "__deepcopy__", [](const Aabb& v, py::dict) { return v; }, "memo"_a)
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](const Aabb& a) { return py::make_tuple(pickled(a.lower), pickled(a.upper)); },
                      [](const py::tuple& t) {
                        state(t, 2, "Aabb");
                        return Aabb{unpickled_vec2(t[0]), unpickled_vec2(t[1])};
                      }));

  py::class_<Shape>(m, "Shape",
                    "A convex core (1 to 8 vertices, counter-clockwise, local frame) grown by a disc of "
                    "radius r (pebble/shape.hpp). Immutable; == compares the core vertices and the radius "
                    "exactly. The makers raise InvalidShape (a ValueError) with the C++ message.")
      .def_static("circle", &Shape::circle, "radius"_a, "center"_a = Vec2{},
                  "A disc of the given radius (>= 0) centred at center (local frame).")
      .def_static("capsule", &Shape::capsule, "a"_a, "b"_a, "radius"_a,
                  "The points within radius of segment ab; capsule(a, a, r) is a circle.")
      .def_static("segment", &Shape::segment, "a"_a, "b"_a, "A capsule of radius 0.")
      .def_static("box", py::overload_cast<float, float>(&Shape::box), "half_width"_a, "half_height"_a,
                  "A box centred on the origin with the given half extents (> 0).")
      .def_static("box", py::overload_cast<float, float, Vec2, float>(&Shape::box), "half_width"_a, "half_height"_a,
                  "center"_a, "angle"_a,
                  "A box of the given half extents centred at center and turned by angle (radians), local frame.")
      .def_static(
          "rounded_box", &Shape::rounded_box, "half_width"_a, "half_height"_a, "corner_radius"_a,
          "A box of OUTER half extents with corners rounded by corner_radius (core = half extents - corner_radius).")
      .def_static(
          "polygon", [](const PointList& points, float radius) { return Shape::polygon(points.points, radius); },
          "points"_a, "radius"_a = 0.0f,
          "The convex hull of the points (near-equal points welded, collinear ones removed), grown outward by radius.")
      .def_static(
          "from_vertices",
          [](const PointList& core, float radius) { return Shape::from_vertices(core.points, radius); }, "core"_a,
          "radius"_a,
          "The shape whose core is exactly these vertices in this order (a stored vertices() and radius, bit for bit). "
          "Raises InvalidShape unless polygon() would keep every vertex.")
      .def("vertex_count", &Shape::vertex_count, "Number of core vertices: 1, 2, or 3..8.")
      .def(
          "vertices", [](const Shape& s) { return std::vector<Vec2>(s.vertices().begin(), s.vertices().end()); },
          "Core vertices in the local frame, counter-clockwise.")
      .def("edge_count", &Shape::edge_count,
           "Number of core edges: 0 for a point, 2 for a segment (both sides), else vertex_count().")
      .def(
          "normal",
          [](const Shape& s, int i) {
            if (i < 0 || i >= s.edge_count()) throw py::index_error("Shape.normal: edge index out of range");
            return s.normal(i);
          },
          "i"_a, "Outward unit normal of edge i (from vertex i to vertex i+1), local frame.")
      .def("radius", &Shape::radius, "Radius of the disc the core is grown by (>= 0).")
      .def("core_centroid", &Shape::core_centroid, "Area centroid of the core, local frame.")
      .def("extent", &Shape::extent, "Radius of the smallest disc around core_centroid() holding the whole shape.")
      .def("__eq__", &same_shape, py::is_operator())
      .def("__hash__",
           [](const Shape& s) {
             size_t h = std::hash<float>()(s.radius());
             for (const Vec2 v : s.vertices())
               h = h * 1000003u ^ std::hash<float>()(v.x) * 31u ^ std::hash<float>()(v.y);
             return h;
           })
      .def("__repr__", &shape_repr)
      .def("__copy__", [](const Shape& v) { return v; })
      .def(
          "__deepcopy__", [](const Shape& v, py::dict) { return v; }, "memo"_a)
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle(
          [](const Shape& s) {
            py::tuple core(size_t(s.vertex_count()));
            for (int i = 0; i < s.vertex_count(); ++i) core[size_t(i)] = pickled(s.vertices()[size_t(i)]);
            return py::make_tuple(core, s.radius());
          },
          [](const py::tuple& t) { return unpickled_shape(t); }));

  py::class_<MassProperties>(m, "MassProperties",
                             "Mass, centre of mass (local frame) and rotational inertia about the centre.")
      .def(py::init([](float mass, Vec2 center, float inertia) {
             return MassProperties{mass, center, inertia};
           }),
           "mass"_a, "center"_a, "inertia"_a)
      .def_readonly("mass", &MassProperties::mass, "density x area")
      .def_readonly("center", &MassProperties::center, "centre of mass, local frame")
      .def_readonly("inertia", &MassProperties::inertia, "about center: density x integral of |x - center|^2 dA")
      .def(
          "__eq__",
          [](const MassProperties& a, const MassProperties& b) {
            return a.mass == b.mass && a.center == b.center && a.inertia == b.inertia;
          },
          py::is_operator())
      .def("__repr__",
           [](const MassProperties& p) {
             return "MassProperties(mass=" + fmt(p.mass) + ", center=Vec2" + fmt(p.center) +
                    ", inertia=" + fmt(p.inertia) + ")";
           })
      .def("__reduce__", &reduce_by_state)
      .def(py::pickle([](const MassProperties& p) { return py::make_tuple(p.mass, pickled(p.center), p.inertia); },
                      [](const py::tuple& t) {
                        state(t, 3, "MassProperties");
                        return MassProperties{t[0].cast<float>(), unpickled_vec2(t[1]), t[2].cast<float>()};
                      }));
  m.def("mass_properties", py::overload_cast<const Shape&, float>(&mass_properties), "shape"_a, "density"_a = 1.0f,
        "Exact mass properties at uniform density: centre in the local frame, inertia about that centre. "
        "Raises InvalidShape for a negative or non-finite density.");
  m.def(
      "mass_properties", [](const std::vector<Shape>& parts, float density) { return mass_properties(parts, density); },
      "parts"_a, "density"_a = 1.0f,
      "Mass properties of a compound whose parts are given in its frame (parallel axis theorem). "
      "Raises InvalidShape for an empty list.");
  m.def("area", &area, "shape"_a, "The area of the rounded shape.");
  m.def("bounds", py::overload_cast<const Shape&, const Transform&>(&bounds), "shape"_a, "xf"_a,
        "The world axis-aligned box of the shape under xf, radius included (padded by a few float steps); "
        "an invalid transform gives Aabb() at the origin.");
  m.def(
      "simd_path", [] { return std::string(simd_path_name(simd_path())); },
      "The instruction set the contact queries run on: 'scalar', 'sse2', 'avx2' or 'neon' (PEBBLE_SIMD picks another "
      "at load).");

  py::class_<ChainSegment>(
      m, "ChainSegment",
      "One segment a -> b of a chain with its neighbours' far points (ghost vertices), chain frame. "
      "It collides on its right side: normal is the right perpendicular of b - a.")
      .def_static(
          "make",
          [](Vec2 a, Vec2 b, std::optional<Vec2> prev, std::optional<Vec2> next) {
            return ChainSegment::make(a, b, prev ? &*prev : nullptr, next ? &*next : nullptr);
          },
          "a"_a, "b"_a, "ghost_prev"_a = py::none(), "ghost_next"_a = py::none())
      .def_readonly("shape", &ChainSegment::shape)
      .def_readonly("a", &ChainSegment::a)
      .def_readonly("b", &ChainSegment::b)
      .def_readonly("normal", &ChainSegment::normal, "outward unit normal, chain frame")
      .def_readonly("ghost_prev", &ChainSegment::ghost_prev)
      .def_readonly("ghost_next", &ChainSegment::ghost_next)
      .def_readonly("has_prev", &ChainSegment::has_prev)
      .def_readonly("has_next", &ChainSegment::has_next)
      .def("__repr__", [](const ChainSegment& s) {
        return "ChainSegment(a=Vec2" + fmt(s.a) + ", b=Vec2" + fmt(s.b) + ", has_prev=" + fmt(s.has_prev) +
               ", has_next=" + fmt(s.has_next) + ")";
      });

  py::class_<Chain>(m, "Chain",
                    "A one-sided chain of segments (terrain). Points run counter-clockwise around the solid, so a "
                    "segment a -> b collides on its right side.")
      .def_static(
          "open", [](const PointList& p) { return Chain::open(p.points); }, "points"_a,
          "An open chain through the points (>= 2).")
      .def_static(
          "loop", [](const PointList& p) { return Chain::loop(p.points); }, "points"_a,
          "A closed loop through the points (>= 3; the first is not repeated).")
      .def("segment_count", &Chain::segment_count)
      .def(
          "segment",
          [](const Chain& c, int i) {
            if (i < 0 || i >= c.segment_count()) throw py::index_error("Chain.segment: index out of range");
            return c.segment(i);
          },
          "i"_a)
      .def("segments",
           [](const Chain& c) { return std::vector<ChainSegment>(c.segments().begin(), c.segments().end()); })
      .def("points", [](const Chain& c) { return std::vector<Vec2>(c.points().begin(), c.points().end()); })
      .def("closed", &Chain::closed)
      .def("__repr__", [](const Chain& c) {
        return std::string("Chain(") + (c.closed() ? "loop" : "open") + ", " + std::to_string(c.segment_count()) +
               " segments)";
      });

  py::class_<Heightfield>(
      m, "Heightfield",
      "Terrain as heights at x = i * spacing (its frame), solid below, one-sided on top: cell i (x from "
      "i * spacing to (i + 1) * spacing) is a chain segment with ghost vertices and, in a world, part i.")
      .def_static(
          "make",
          [](const py::object& heights, float spacing) {
            const py::array a = py::array::ensure(heights);
            if (!a || (a.size() > 0 && a.dtype().kind() != 'f' && a.dtype().kind() != 'i' && a.dtype().kind() != 'u'))
              throw py::type_error("heights: expected a sequence or 1D array of numbers");
            if (a.ndim() != 1)
              throw py::value_error("heights: expected a 1D sequence, got " + std::to_string(a.ndim()) + " dimensions");
            const auto f = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
            return Heightfield::make(std::span<const float>(f.data(), size_t(f.size())), spacing);
          },
          "heights"_a, "spacing"_a,
          "A field of len(heights) - 1 cells. Raises InvalidShape naming the problem: fewer than 2 heights, a "
          "height not finite (no holes) or beyond kMaxShapeExtent, a spacing not finite and > 0, a field wider "
          "than kMaxShapeExtent.")
      .def("cell_count", &Heightfield::cell_count)
      .def(
          "cell",
          [](const Heightfield& h, int i) {
            if (i < 0 || i >= h.cell_count()) throw py::index_error("Heightfield.cell: index out of range");
            return h.cell(i);
          },
          "i"_a, "Cell i as a ChainSegment a -> b (a its right end, b its left), normal up.")
      .def("cells", [](const Heightfield& h) { return std::vector<ChainSegment>(h.cells().begin(), h.cells().end()); })
      .def(
          "heights",
          [](const Heightfield& h) { return py::array_t<float>(py::ssize_t(h.heights().size()), h.heights().data()); },
          "The heights as given (a copy, float32).")
      .def("spacing", &Heightfield::spacing)
      .def(
          "point",
          [](const Heightfield& h, int i) {
            if (i < 0 || i > h.cell_count()) throw py::index_error("Heightfield.point: index out of range");
            return h.point(i);
          },
          "i"_a, "(i * spacing, heights[i]) in the field's frame.")
      .def("chain", &Heightfield::chain,
           "The same terrain as an open Chain (its segment k is cell cell_count() - 1 - k).")
      .def("__repr__", [](const Heightfield& h) {
        return "Heightfield(" + std::to_string(h.cell_count()) + " cells, spacing=" + fmt(h.spacing()) + ")";
      });

  m.def(
      "decompose", [](const PointList& polygon, float radius) { return decompose(polygon.points, radius); },
      "polygon"_a, "radius"_a = 0.0f,
      "A simple polygon (either winding) cut into convex Shapes of at most 8 corners whose union is the polygon "
      "grown by radius. Raises InvalidShape naming the problem for self-intersecting or degenerate input.");

  py::class_<Outline>(m, "Outline", "One outline of a tile map: points in order, a loop when closed.")
      .def_readonly("points", &Outline::points)
      .def_readonly("closed", &Outline::closed)
      .def("__repr__", [](const Outline& o) {
        return "Outline(" + std::to_string(o.points.size()) + " points, closed=" + fmt(o.closed) + ")";
      });
  const auto tiles = [](bool tops) {
    return [tops](const py::array& solid, Vec2 origin, Vec2 cell_size, float max_segment_length) {
      if (solid.ndim() != 2) throw py::value_error("solid: expected a 2D array (rows, columns), row 0 at the bottom");
      const char kind = solid.dtype().kind();
      if (kind != 'b' && kind != 'u' && kind != 'i')
        throw py::type_error("solid: expected an array of bool or integers");
      const auto cells =
          py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>::ensure(solid.attr("astype")("uint8"));
      TileGrid grid;
      grid.rows = int(cells.shape(0));
      grid.columns = int(cells.shape(1));
      grid.solid = std::span<const std::uint8_t>(cells.data(), size_t(cells.size()));
      grid.origin = origin;
      grid.cell_size = cell_size;
      return tops ? outline_tile_tops(grid, max_segment_length) : outline_tiles(grid, max_segment_length);
    };
  };
  m.def("outline_tiles", tiles(false), "solid"_a, "origin"_a = Vec2{0, 0}, "cell_size"_a = Vec2{1, 1},
        "max_segment_length"_a = 0.0f,
        "The boundary of the solid cells (solid[row, col] nonzero, row 0 at the bottom) as closed outlines "
        "running counter-clockwise around the solid, ready for Chain.loop.");
  m.def("outline_tile_tops", tiles(true), "solid"_a, "origin"_a = Vec2{0, 0}, "cell_size"_a = Vec2{1, 1},
        "max_segment_length"_a = 0.0f,
        "The upward-facing surfaces of the solid cells as open outlines, right to left.");
}

}  // namespace pebble::python
