// The extension module pebble._pebble; python/pebble/__init__.py re-exports it as `pebble`.
#include "common.hpp"

#include <pebble/version.hpp>

PYBIND11_MODULE(_pebble, m) {
  m.doc() =
      "pebble: 2D collision detection on rounded convex polygons (C++20), from Python.\n\n"
      "Every collider is a convex core of 1 to 8 vertices grown by a radius. Conventions as in C++: float32, y up,\n"
      "counter-clockwise; a Transform maps local to world (world = q * local + p); normals in results are unit\n"
      "vectors in world space pointing from A to B; signed distances are negative when shapes overlap.";
  pebble::python::bind_geometry(m);
  pebble::python::bind_queries(m);
  pebble::python::bind_world(m);
  pebble::python::bind_primitives(m);
  pebble::python::bind_batch(m);
  // The library's version, from CMake's project() (pebble/version.hpp); pebble.__version__.
  m.attr("__version__") = pebble::version();
}
