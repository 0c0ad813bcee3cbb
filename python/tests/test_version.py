"""pebble.__version__ is the library's version(): CMake's project version, written only in the
top-level CMakeLists.txt (issue 34)."""
import re

import pebble
from conftest import SOURCE_DIR


def project_version():
    text = (SOURCE_DIR / "CMakeLists.txt").read_text()
    return re.search(r"project\(pebble VERSION (\d+\.\d+\.\d+)", text).group(1)


def test_version_is_the_cmake_project_version():
    assert pebble.__version__ == project_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", pebble.__version__)
    assert pebble._pebble.__version__ == pebble.__version__
