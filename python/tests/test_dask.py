"""examples/python/dask_batch.py on a LocalCluster of two worker processes (one thread each): the
cluster's answer to a batch query split into chunks equals one process's byte for byte. Skipped
when Debian's python3-dask and python3-distributed are not installed."""
import importlib.util
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import pebble
from conftest import SOURCE_DIR

pytest.importorskip("dask")
pytest.importorskip("distributed")

EXAMPLE = SOURCE_DIR / "examples" / "python" / "dask_batch.py"


def load_example():
    spec = importlib.util.spec_from_file_location("dask_batch", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cluster_equals_one_process(tmp_path):
    # The example as a script starts the LocalCluster(n_workers=2, threads_per_worker=1,
    # processes=True) itself; its workers import pebble from the same PYTHONPATH.
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(pebble.__file__).resolve().parents[1]))
    out = tmp_path / "distances.npy"
    run = subprocess.run([sys.executable, str(EXAMPLE), "--pairs", "60000", "--chunk", "7000", "--workers", "2", "-o", str(out)],
                         env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "60000 pairs in 9 tasks on 2 workers" in run.stdout and "equal bit for bit: True" in run.stdout, run.stdout
    cluster = np.load(out)
    example = load_example()
    scene = example.make_scene(60000)
    local = example.one_process(scene)
    assert cluster.dtype == pebble.batch.DISTANCE_DTYPE and len(cluster) == 60000
    assert cluster.tobytes() == local.tobytes()
    # and one process's batch is the single calls' (spot check; test_shape_list.py checks thousands)
    a = pebble.batch.ShapeList(scene[0], scene[1], scene[2])
    b = pebble.batch.ShapeList(scene[4], scene[5], scene[6])
    for i in (0, 1234, 59999):
        one = pebble.distance(a[i], scene[3][i], b[i], scene[7][i])
        assert one.distance == cluster["distance"][i]
        assert (one.point_a.x, one.point_a.y) == tuple(cluster["point_a"][i])
