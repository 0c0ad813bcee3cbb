"""pebble: 2D collision detection on rounded convex polygons, from Python.

The C++ library (include/pebble/*.hpp) bound with pybind11. Names follow the C++ ones;
pebble.batch holds the numpy forms and pebble.prim the toolbox. docs/python.md.
"""
from . import _pebble
from ._pebble import *  # noqa: F401,F403
from ._pebble import batch, prim  # noqa: F401

# `import pebble.batch` and `from pebble.prim import Circle` work too.
import sys as _sys

_sys.modules[__name__ + ".batch"] = batch
_sys.modules[__name__ + ".prim"] = prim
del _sys

__doc__ = _pebble.__doc__
__version__ = _pebble.__version__  # "MAJOR.MINOR.PATCH", CMake's project version (pebble/version.hpp)
__all__ = [name for name in dir(_pebble) if not name.startswith("_")]  # batch and prim included
