"""Shared set-up of the Python tests: finds the built module and the C++ corpus program.

Run by ctest (python_test), which sets PYTHONPATH, PEBBLE_PY_CORPUS and PEBBLE_BUILD_DIR; by hand:
    PYTHONPATH=build/release/python /usr/bin/python3 -m pytest python/tests
"""
import os
import pathlib
import struct
import sys

import pytest
from hypothesis import settings

# No example database: nothing is written into the source or build tree, and every run draws anew
# from the fixed seed of each test's strategy.
settings.register_profile("pebble", database=None, derandomize=True)
settings.load_profile("pebble")

SOURCE_DIR = pathlib.Path(os.environ.get("PEBBLE_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
BUILD_DIR = pathlib.Path(os.environ.get("PEBBLE_BUILD_DIR", SOURCE_DIR / "build" / "release"))
if "PYTHONPATH" not in os.environ:
    sys.path.insert(0, str(BUILD_DIR / "python"))

import pebble  # noqa: E402


def f32(x):
    """x rounded to float32, as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def bits(x):
    """The 32 bits of the float32 x as 8 hex digits (the corpus program's format)."""
    return "%08x" % struct.unpack("<I", struct.pack("<f", x))[0]


@pytest.fixture(scope="session")
def corpus_program():
    path = os.environ.get("PEBBLE_PY_CORPUS", str(BUILD_DIR / "python" / "pebble_py_corpus"))
    if not pathlib.Path(path).exists():
        pytest.fail(f"the C++ corpus program {path} is missing: build the release preset first")
    return path


@pytest.fixture
def shapes():
    """A few shapes of every core size."""
    return [
        pebble.Shape.circle(0.5),
        pebble.Shape.capsule((-0.5, 0), (0.5, 0.1), 0.2),
        pebble.Shape.segment((-1, 0), (1, 0.3)),
        pebble.Shape.box(0.6, 0.4),
        pebble.Shape.rounded_box(0.7, 0.5, 0.1),
        pebble.Shape.polygon([(0, 0), (1, 0), (1.2, 0.8), (0.3, 1.1), (-0.4, 0.6)]),
        pebble.Shape.polygon([(0, 0), (1, 0), (0.5, 0.9)], 0.05),
    ]
