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

# The names of the last release, kept for one more (docs/api-changes.md): each still works and
# warns with a DeprecationWarning naming its replacement. Not in __all__ or the stubs.
import warnings as _warnings

_OLD_NAMES = {
    _pebble: {
        "raycast": "cast_ray",
        "shape_cast": "cast_shape",
        "CastHit": "CastResult",
        "Approach": "ApproachResult",
        "PointProjection": "ProjectionResult",
        "MoverCast": "MoverCastResult",
        "RayResult": "WorldCastResult",
    },
    batch: {
        "raycast": "cast_ray",
        "shape_cast": "cast_shape",
        "CAST_HIT_DTYPE": "CAST_DTYPE",
        "POINT_PROJECTION_DTYPE": "PROJECTION_DTYPE",
        "RAY_RESULT_DTYPE": "WORLD_CAST_DTYPE",
    },
}
_OLD_METHODS = {
    "begin_touch_events": "touch_begin_events",
    "end_touch_events": "touch_end_events",
    "begin_part_touch_events": "part_touch_begin_events",
    "end_part_touch_events": "part_touch_end_events",
}


def _old_name_getter(module, prefix, names):
    def __getattr__(name):
        new = names.get(name)
        if new is None:
            raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")
        _warnings.warn(f"{prefix}{name} is deprecated: use {prefix}{new} (docs/api-changes.md)", DeprecationWarning,
                       stacklevel=2)
        return getattr(module, new)

    return __getattr__


def _old_method(old, new):
    def method(self, *args, **kwargs):
        _warnings.warn(f"CollisionWorld.{old}() is deprecated: use {new}() (docs/api-changes.md)", DeprecationWarning,
                       stacklevel=2)
        return getattr(self, new)(*args, **kwargs)

    method.__name__ = old
    method.__doc__ = f"Deprecated: use {new}()."
    return method


# pebble.X, pebble._pebble.X (what old pickles name) and pebble.batch.X.
__getattr__ = _old_name_getter(_pebble, "pebble.", _OLD_NAMES[_pebble])
_pebble.__getattr__ = __getattr__
batch.__getattr__ = _old_name_getter(batch, "pebble.batch.", _OLD_NAMES[batch])
for _old, _new in _OLD_METHODS.items():
    setattr(_pebble.CollisionWorld, _old, _old_method(_old, _new))
del _old, _new
