"""A small crowd on batch closest_approach: discs walk across a circle to the opposite side; each
step, every pair close enough to matter is asked in one call when (and whether) it would touch
within a horizon at current velocities, and the agents of a pair that would touch steer apart,
the sooner the touch the harder. Then one batch.distance call gives every near pair its gap g and
normal n, and each agent's velocity slides along, then is scaled down until, n.v <= (g - skin) / (2 tau) for
each of its pairs (v = 0 always meets them): the pair's separation along n then never falls below the
skin during the step, so no two agents ever overlap (docs/crowds.md derives it).

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/crowd.py [--agents 40] [--steps 600] [-o crowd.png]
"""
import argparse
import math

import numpy as np

import pebble
from pebble import batch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agents", type=int, default=40)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--horizon", type=float, default=1.5, help="seconds of look-ahead")
    parser.add_argument("-o", "--output", help="draw the paths to this PNG (matplotlib)")
    args = parser.parse_args()

    n, radius, speed, dt = args.agents, 0.3, 1.2, 0.05
    skin, tau = 0.002, 0.5  # the gap kept, and the time over which a pair may close it
    disc = pebble.Shape.circle(radius)
    angles = np.linspace(0, 2 * math.pi, n, endpoint=False)
    ring = 6.0
    pos = np.stack([ring * np.cos(angles), ring * np.sin(angles)], axis=1).astype(np.float32)
    goal = -pos
    vel = np.zeros_like(pos)
    no_turn = np.zeros(n, np.float32)
    paths = [pos.copy()]
    closest = math.inf
    queries = 0
    for step in range(args.steps):
        to_goal = goal - pos
        dist_goal = np.linalg.norm(to_goal, axis=1, keepdims=True)
        preferred = np.where(dist_goal > 0.05, to_goal / np.maximum(dist_goal, 1e-6) * np.minimum(speed, dist_goal / dt), 0)
        # Candidate pairs: centres within the distance both could close over the horizon.
        i, j = np.triu_indices(n, 1)
        gap = np.linalg.norm(pos[i] - pos[j], axis=1)
        near = gap < 2 * radius + 2 * speed * args.horizon
        i, j = i[near], j[near]
        steer = np.zeros_like(pos)
        if len(i):
            xf = batch.transforms(pos, no_turn)
            a = batch.closest_approach(disc, xf[i], preferred[i].astype(np.float32), disc, xf[j], preferred[j].astype(np.float32),
                                       args.horizon)
            queries += len(i)
            hit = a["hit"]
            # Push along the normal at the predicted touch (from A to B): A back, B forward; sooner is harder.
            urgency = (1.0 - a["time"] / args.horizon)[:, None] * hit[:, None]
            # Along the normal, plus a turn to the right of it: both agents keep right, so that head-on
            # pairs pass each other instead of pushing straight back.
            normal = a["normal"]
            right = np.stack([normal[:, 1], -normal[:, 0]], axis=1)
            push = (normal + 0.8 * right) * urgency * speed * 1.5
            np.add.at(steer, i[hit], -push[hit])
            np.add.at(steer, j[hit], push[hit])
        vel = preferred + steer
        norms = np.linalg.norm(vel, axis=1, keepdims=True)
        vel = np.where(norms > speed, vel / np.maximum(norms, 1e-6) * speed, vel).astype(np.float32)
        # Safety: each pair within reach this step gets n.v_i <= b and -n.v_j <= b, b = (g - skin) / (2 tau).
        i, j = np.triu_indices(n, 1)
        reach = np.linalg.norm(pos[i] - pos[j], axis=1) < 2 * radius + 2 * speed * dt + 0.05
        i, j = i[reach], j[reach]
        if len(i):
            xf = batch.transforms(pos, no_turn)
            d = batch.distance(disc, xf[i], disc, xf[j])
            closest = min(closest, float(np.min(d["distance"])))
            normal = d["normal"].astype(np.float64)
            bound = np.maximum(d["distance"].astype(np.float64) - skin, 0) / (2 * tau)
            # First slide: remove each violated constraint's excess along its normal (a few Jacobi
            # passes keep the sideways motion), then scale down what still breaks one.
            for _ in range(4):
                fix = np.zeros((n, 2))
                for who, sign in ((i, 1.0), (j, -1.0)):
                    excess = np.maximum(sign * np.sum(normal * vel[who], axis=1) - bound, 0)
                    np.add.at(fix, who, -(sign * excess)[:, None] * normal)
                vel = (vel + 0.5 * fix).astype(np.float32)
            scale = np.ones(n)
            for who, sign in ((i, 1.0), (j, -1.0)):
                along = sign * np.sum(normal * vel[who], axis=1)
                over = along > bound
                np.minimum.at(scale, who[over], bound[over] / along[over])
            vel = (vel * scale[:, None]).astype(np.float32)
        pos = (pos + vel * dt).astype(np.float32)
        paths.append(pos.copy())
    arrived = int(np.sum(np.linalg.norm(goal - pos, axis=1) < 0.1))
    verdict = "no two ever overlapped" if closest >= 0 else "two overlapped"
    print(f"{n} agents, {args.steps} steps: {arrived} arrived, {queries} closest_approach queries in "
          f"{args.steps} batch calls, least gap between two agents {closest:.3f} ({verdict})")
    if args.output:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        paths = np.array(paths)
        fig, ax = plt.subplots(figsize=(6, 6), dpi=100)
        for k in range(n):
            ax.plot(paths[:, k, 0], paths[:, k, 1], lw=0.8)
            ax.add_patch(plt.Circle(paths[-1, k], radius, fill=False, lw=0.8))
        ax.set_aspect("equal")
        ax.axis("off")
        fig.savefig(args.output)
        print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
