"""The Python examples run: scene.py writes its picture, crowd.py brings every agent home."""
import os
import subprocess
import pathlib
import sys

import pebble
from conftest import SOURCE_DIR


def run(script, *args, cwd):
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=str(pathlib.Path(pebble.__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, str(SOURCE_DIR / "examples" / "python" / script), *args], env=env, cwd=cwd,
                          capture_output=True, text=True, check=True, timeout=120).stdout


def test_scene_draws(tmp_path):
    out = run("scene.py", "-o", str(tmp_path / "scene.png"), cwd=tmp_path)
    assert (tmp_path / "scene.png").stat().st_size > 10000 and "wrote" in out


def test_crowd_arrives(tmp_path):
    out = run("crowd.py", "--agents", "24", cwd=tmp_path)
    assert out.startswith("24 agents, 600 steps: 24 arrived"), out
    least = float(out.split("least gap between two agents ")[1].split()[0])
    assert least >= 0, out
