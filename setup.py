"""Builds the Python module with CMake for `pip install .` (pyproject.toml holds the metadata).

Only the library and the module target are built (PEBBLE_BUILD_TESTS/BENCH/TOOLS off), in
setuptools' build_temp folder (or PEBBLE_PIP_BUILD_DIR, kept between runs), for the interpreter
running pip. The version comes from project() in CMakeLists.txt, the one place it is written.
PEBBLE_JOBS sets the number of compile jobs (default: all cores); CMAKE_ARGS adds CMake options.
"""
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def cmake_project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*pebble\s+VERSION\s+(\d+\.\d+\.\d+)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt: no `project(pebble VERSION x.y.z` line")
    return match.group(1)


class CMakeExtension(Extension):
    """The extension pebble._pebble, whose sources CMake knows (python/CMakeLists.txt)."""

    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(os.environ.get("PEBBLE_PIP_BUILD_DIR") or pathlib.Path(self.build_temp) / "cmake").resolve()
        build.mkdir(parents=True, exist_ok=True)
        args = ["-DCMAKE_BUILD_TYPE=Release", "-DPEBBLE_BUILD_TESTS=OFF", "-DPEBBLE_BUILD_BENCH=OFF",
                "-DPEBBLE_BUILD_TOOLS=OFF", "-DPEBBLE_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}"]
        try:  # pybind11 from pip, when there is one; else CMake finds Debian's pybind11-dev
            import pybind11
            args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        if shutil.which("ninja") and not (build / "CMakeCache.txt").exists():
            args += ["-G", "Ninja"]
        args += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), *args], check=True)
        jobs = os.environ.get("PEBBLE_JOBS", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "pebble_python", "-j", jobs], check=True)
        built = next((build / "python" / "pebble").glob("_pebble*" + (".pyd" if os.name == "nt" else ".so")), None)
        if built is None:
            raise RuntimeError(f"CMake built no module in {build / 'python' / 'pebble'}: are pybind11-dev and python3-dev installed?")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


# setuptools' own files (egg-info) go under build/ rather than into the source tree's root.
(ROOT / "build").mkdir(exist_ok=True)
setup(version=cmake_project_version(), ext_modules=[CMakeExtension("pebble._pebble")], cmdclass={"build_ext": CMakeBuild},
      options={"egg_info": {"egg_base": "build"}})
