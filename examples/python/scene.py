"""Draws a small pebble scene with matplotlib: shapes in a CollisionWorld, their contact points and
normals after update(), and a fan of rays cast into the world in one batch call.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/scene.py [-o scene.png]
"""
import argparse
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import pebble  # noqa: E402


def outline(shape, xf, n=12):
    """Points around the rounded shape (world): each core corner's arc, then the next one."""
    core = [pebble.transform_point(xf, v) for v in shape.vertices()]
    r = shape.radius()
    if len(core) == 1:
        c = core[0]
        return [(c.x + r * math.cos(t), c.y + r * math.sin(t)) for t in np.linspace(0, 2 * math.pi, 48)]
    if r == 0:
        return [(p.x, p.y) for p in core] + [(core[0].x, core[0].y)]
    pts = []
    k = len(core)
    for i in range(k):
        prev, cur, nxt = core[i - 1], core[i], core[(i + 1) % k]
        a0 = math.atan2(cur.x - prev.x, -(cur.y - prev.y)) if k > 2 or i == 0 else 0.0
        n_in = (cur.y - prev.y, -(cur.x - prev.x))
        n_out = (nxt.y - cur.y, -(nxt.x - cur.x))
        a0, a1 = math.atan2(n_in[1], n_in[0]), math.atan2(n_out[1], n_out[0])
        if a1 < a0:
            a1 += 2 * math.pi
        for t in np.linspace(a0, a1, n):
            pts.append((cur.x + r * math.cos(t), cur.y + r * math.sin(t)))
    return pts + [pts[0]]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-o", "--output", default="scene.png")
    args = parser.parse_args()

    world = pebble.CollisionWorld()
    ground = pebble.Chain.open([(6, 0), (3, -0.2), (0, 0.3), (-3, -0.1), (-6, 0.4)])
    world.add(ground, pebble.Transform())
    things = [
        (pebble.Shape.rounded_box(0.8, 0.45, 0.12), pebble.Transform((-3.2, 0.3), 0.1)),
        (pebble.Shape.circle(0.5), pebble.Transform((-2.2, 1.0))),
        (pebble.Shape.capsule((-0.6, 0), (0.6, 0), 0.25), pebble.Transform((-0.3, 0.5), -0.15)),
        (pebble.Shape.polygon([(0, 0), (1.2, 0), (1.4, 0.9), (0.4, 1.3), (-0.3, 0.7)]), pebble.Transform((0.6, 0.26), 0.05)),
        (pebble.Shape.box(0.5, 0.5), pebble.Transform((2.4, 0.4), 0.5)),
        (pebble.Shape.polygon([(0, 0), (1, 0), (0.5, 0.8)], 0.08), pebble.Transform((3.4, 0.05), -0.2)),
    ]
    concave = pebble.decompose([(0, 0), (1.6, 0), (1.6, 1.2), (1.1, 1.2), (1.1, 0.5), (0.5, 0.5), (0.5, 1.2), (0, 1.2)], 0.04)
    ids = [world.add(s, xf) for s, xf in things]
    cid = world.add(concave, pebble.Transform((4.3, 0.4), 0.1))
    world.update()

    fig, ax = plt.subplots(figsize=(10, 5), dpi=100)
    for seg in ground.segments():
        ax.plot([seg.a.x, seg.b.x], [seg.a.y, seg.b.y], color="#5a4a3a", lw=3, solid_capstyle="round")
    for id in ids + [cid]:
        xf = world.transform(id)
        for k in range(world.part_count(id)):
            pts = np.array(outline(world.part(id, k), xf))
            ax.fill(pts[:, 0], pts[:, 1], color="#9ecae1" if id != cid else "#c7e9c0", ec="#3182bd" if id != cid else "#31a354", lw=1.2)
    # Contacts: points (midway between the surfaces) and normals (from a to b).
    for rec in world.contacts_array():
        m = rec["manifold"]
        for j in range(m["count"]):
            p = m["points"][j]["point"]
            ax.plot(*p, "o", color="#d62728", ms=4, zorder=5)
            ax.arrow(p[0], p[1], 0.35 * m["normal"][0], 0.35 * m["normal"][1], color="#d62728", width=0.01, head_width=0.07, zorder=5)
    # A fan of rays from above, cast in one call; each drawn to its hit, with the surface normal.
    angles = np.linspace(-2.6, -0.55, 25)
    origin = np.array([0.5, 4.2], np.float32)
    rays = np.zeros((len(angles), 4), np.float32)
    rays[:, :2] = origin
    rays[:, 2] = 9 * np.cos(angles)
    rays[:, 3] = 9 * np.sin(angles)
    hits = world.cast_rays(rays)
    for ray, h in zip(rays, hits):
        f = h["hit"]["fraction"] if h["hit"]["hit"] else 1.0
        end = ray[:2] + f * ray[2:]
        ax.plot([ray[0], end[0]], [ray[1], end[1]], color="#fd8d3c", lw=0.8, zorder=4)
        if h["hit"]["hit"]:
            n = h["hit"]["normal"]
            ax.plot([end[0], end[0] + 0.2 * n[0]], [end[1], end[1] + 0.2 * n[1]], color="#636363", lw=1, zorder=4)
    ax.plot(*origin, "*", color="#fd8d3c", ms=12)
    ax.set_aspect("equal")
    ax.set_xlim(-6.3, 6.3)
    ax.set_ylim(-0.8, 4.5)
    ax.set_title(f"pebble from Python: {len(world)} colliders, {len(world.contacts())} contact pairs, {int(hits['hit']['hit'].sum())}/{len(rays)} rays hit")
    ax.axis("off")
    fig.tight_layout()
    fig.savefig(args.output)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
