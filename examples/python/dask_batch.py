"""One batch query split over a Dask cluster: N pairs of distinct convex polygons (each pair its
own two shapes, held in C++ as batch.ShapeList) and their transforms, cut into chunks; each worker
builds the ShapeLists of its chunk from the numpy arrays it is sent and answers it with
batch.distance; the chunks come back in order. Every result is the single call's bits, so the
cluster's answer equals one process's byte for byte, whatever the chunking or the worker.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/dask_batch.py [--pairs 2000000]
        [--chunk 250000] [--workers 2] [--scheduler tcp://host:8786] [-o distances.npy] [--sweep]

Without --scheduler it starts a LocalCluster of --workers processes (one thread each) on this
machine. With --scheduler it uses a running cluster: every worker needs the same pebble build
(pip install it on each; docs/python.md). --sweep times the cluster against one process for chunk
sizes from 1,000 to 1,000,000 pairs, and the round trip of an empty task.
"""
import argparse
import math
import time

import numpy as np

import pebble
from pebble import batch


def make_scene(pairs, seed=34):
    """The arrays of `pairs` random pairs: per side (N, 8, 2) float32 vertices padded with zeros,
    (N,) corner counts 3 to 8, (N,) radii, (N, 4) transforms [x, y, c, s]."""
    rng = np.random.default_rng(seed)

    def side():
        counts = rng.integers(3, 9, pairs)
        angles = 2 * math.pi * (np.arange(8)[None, :] + rng.uniform(0.1, 0.9, (pairs, 8))) / counts[:, None]
        r = rng.uniform(0.5, 1.0, (pairs, 8))
        v = np.stack([r * np.cos(angles), r * np.sin(angles)], axis=2).astype(np.float32)
        v[np.arange(8)[None, :] >= counts[:, None]] = 0
        radii = (rng.uniform(0, 0.2, pairs) * (rng.uniform(size=pairs) < 0.5)).astype(np.float32)
        xf = batch.transforms(rng.uniform(-20, 20, (pairs, 2)).astype(np.float32), rng.uniform(-3, 3, pairs).astype(np.float32))
        return v, counts, radii, xf

    return side() + side()


def distance_chunk(va, ka, ra, xa, vb, kb, rb, xb):
    """batch.distance over one chunk's arrays (runs on a worker): a DISTANCE_DTYPE array."""
    return batch.distance(batch.ShapeList(va, ka, ra), xa, batch.ShapeList(vb, kb, rb), xb)


def distance_part(part):
    return distance_chunk(*part)


def one_process(scene):
    return distance_chunk(*scene)


def on_cluster(client, scene, chunk):
    """The same answer from the cluster: the arrays of each chunk of `chunk` pairs sent to a
    worker (scatter), one task per chunk, the results gathered in order."""
    n = len(scene[0])
    parts = [tuple(a[s:s + chunk] for a in scene) for s in range(0, n, chunk)]
    futures = client.map(distance_part, client.scatter(parts, hash=False), pure=False)
    return np.concatenate(client.gather(futures))


def seconds(f, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return sorted(times)[len(times) // 2]


def sweep(client, workers):
    """Per-task overhead against pairs per task: one process and the cluster on the same pairs."""
    empty = seconds(lambda: client.gather([client.submit(int, i, pure=False) for i in range(100)])) / 100
    print(f"an empty task's round trip (100 in flight): {empty * 1e3:.2f} ms")
    print("| pairs per task | tasks | one process | cluster | cluster / one process |")
    print("|---:|---:|---:|---:|---:|")
    for per_task in (1_000, 10_000, 100_000, 1_000_000):
        scene = make_scene(per_task * workers)
        t_one = seconds(lambda: one_process(scene))
        t_cluster = seconds(lambda: on_cluster(client, scene, per_task))
        print(f"| {per_task:,} | {workers} | {t_one * 1e3:.1f} ms | {t_cluster * 1e3:.1f} ms | {t_cluster / t_one:.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=2_000_000)
    parser.add_argument("--chunk", type=int, default=250_000, help="pairs per task")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster processes (without --scheduler)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786")
    parser.add_argument("-o", "--output", help="save the cluster's distances (DISTANCE_DTYPE records) to this .npy file")
    parser.add_argument("--sweep", action="store_true", help="time chunk sizes from 1,000 to 1,000,000 pairs per task")
    args = parser.parse_args()

    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        client, cluster = Client(args.scheduler), None
        workers = len(client.scheduler_info()["workers"])
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client, workers = Client(cluster), args.workers
    try:
        versions = set(client.run(lambda: pebble.__version__).values())
        if versions != {pebble.__version__}:
            raise SystemExit(f"the workers run pebble {sorted(versions)}, this process {pebble.__version__}: install the same build everywhere")
        if args.sweep:
            sweep(client, workers)
            return
        scene = make_scene(args.pairs)
        t = time.perf_counter()
        local = one_process(scene)
        t_one = time.perf_counter() - t
        t = time.perf_counter()
        remote = on_cluster(client, scene, args.chunk)
        t_cluster = time.perf_counter() - t
        same = remote.tobytes() == local.tobytes()
        print(f"{args.pairs} pairs in {math.ceil(args.pairs / args.chunk)} tasks on {workers} workers: {t_cluster:.3f} s, "
              f"one process {t_one:.3f} s; equal bit for bit: {same}")
        if args.output:
            np.save(args.output, remote)
        if not same:
            raise SystemExit(1)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
