// The playground: shapes of every kind to drag and turn, and pebble's answers about them drawn
// live; a second tab runs the demo pile on the sandbox stepper. No framework: a canvas, the
// WebAssembly module (./pkg/index.mjs, the npm package) and this file.
import { load } from './pkg/index.mjs';
import { run_scene } from './scene.mjs';

const pb = await load();
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------
// Objects: a name, a kind, parts (convex Shapes in the object's frame) or a chain, and a pose.

const V = (x, y) => ({ x, y });
const objects = [];
function add_object(name, kind, x, y, angle, make) {
  const o = { name, kind, x, y, angle, parts: [], chain: null, segments: [], color: kColors[objects.length % kColors.length] };
  const made = make();
  if (made instanceof pb.Chain) {
    o.chain = made;
    for (let i = 0; i < made.segment_count(); ++i) o.segments.push(made.segment(i));
    o.parts = o.segments.map((s) => s.shape());
  } else {
    o.parts = Array.isArray(made) ? made : [made];
  }
  objects.push(o);
  return o;
}
const kColors = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#86bcb6', '#a0cbe8'];
const xf_of = (o) => pb.Transform.from(o.x, o.y, o.angle);
const is_chain = (o) => o.chain !== null;

add_object('circle', 'circle', -5.5, -2.57, 0, () => pb.Shape.circle(0.55));
add_object('capsule', 'capsule', -3.2, 2.6, 0.4, () => pb.Shape.capsule(V(-0.6, 0), V(0.6, 0), 0.3));
add_object('segment', 'segment', -1.0, 2.7, -0.3, () => pb.Shape.segment(V(-0.7, 0), V(0.7, 0)));
add_object('box', 'box', 1.0, 2.4, 0.2, () => pb.Shape.box(0.6, 0.4));
add_object('rounded box', 'rounded_box', 2.25, 2.2, -0.25, () => pb.Shape.rounded_box(0.7, 0.45, 0.15));
add_object('polygon', 'polygon', 4.4, 1.5, 0.1, () => pb.Shape.polygon([V(-0.6, -0.4), V(0.7, -0.5), V(0.5, 0.5), V(-0.1, 0.7), V(-0.7, 0.2)]));
add_object('rounded polygon', 'rounded_polygon', -4.6, 0.2, 0.3, () => pb.Shape.polygon([V(-0.5, -0.4), V(0.6, -0.4), V(0, 0.6)], 0.12));
add_object('concave', 'concave', -1.9, -0.4, 0, () => pb.decompose([V(0, 0), V(1.4, 0), V(1.4, 1.1), V(1.0, 1.1), V(1.0, 0.35), V(0.4, 0.35), V(0.4, 1.1), V(0, 1.1)], 0.04));
add_object('compound', 'compound', 1.4, 0.3, 0, () => [pb.Shape.box(0.6, 0.12), pb.Shape.circle(0.25, V(0.6, 0.2))]);
add_object('loop', 'loop', 4.6, 0.2, 0, () => pb.Chain.loop([V(-0.8, -0.5), V(0.8, -0.6), V(1.0, 0.4), V(-0.2, 0.8), V(-0.9, 0.3)]));
add_object('terrain', 'chain', 0, -3.6, 0, () => pb.Chain.open([V(7, -0.6), V(4.5, 0.3), V(2, -0.4), V(-0.5, 0.4), V(-3, -0.5), V(-5.5, 0.5), V(-7, 0.1)]));

let A = objects[3], B = objects[4];  // the pair the pair queries are about

// Handles: points the user drags that are not shapes (ray ends, translations, velocities).
const handles = {
  ray_from: V(-6.5, -1.8), ray_to: V(6.5, 1.4),
  translation: V(2.2, -1.2),  // of A, shape_cast and time_of_impact
  velocity_a: V(1.5, -0.6), velocity_b: V(-1.0, 0.3),  // closest_approach, m/s over 1 s
  mover_goal: V(6, -2.5),  // where the character mover walks (along x)
};
let pointer = V(0, 0);
let mode = 'contacts';

// ---------------------------------------------------------------------------------------------
// Drawing: world metres to canvas pixels, y up.

const canvas = $('view'), ctx = canvas.getContext('2d');
const view = { scale: 62, cx: canvas.width / 2, cy: canvas.height / 2 };
const sx = (p) => view.cx + p.x * view.scale, sy = (p) => view.cy - p.y * view.scale;
const to_world = (px, py) => V((px - view.cx) / view.scale, (view.cy - py) / view.scale);

/** The outline of a core grown by a radius, in world space: arcs around the core's corners. */
function outline(shape, xf) {
  const v = shape.vertices(), r = shape.radius(), n = v.length, out = [];
  const w = v.map((p) => pb.transform_point(xf, p));
  if (n === 1) {
    for (let k = 0; k <= 32; ++k) out.push(V(w[0].x + r * Math.cos(k * Math.PI / 16), w[0].y + r * Math.sin(k * Math.PI / 16)));
    return out;
  }
  const normal = (i) => {  // outward normal of edge i -> i+1 (world), CCW core
    const a = w[i], b = w[(i + 1) % n], dx = b.x - a.x, dy = b.y - a.y, l = Math.hypot(dx, dy) || 1;
    return V(dy / l, -dx / l);
  };
  for (let i = 0; i < n; ++i) {
    const n0 = normal((i + n - 1) % n), n1 = normal(i);
    if (r > 0) {
      const a0 = Math.atan2(n0.y, n0.x);
      let a1 = Math.atan2(n1.y, n1.x);
      while (a1 < a0) a1 += 2 * Math.PI;
      const steps = Math.max(2, Math.ceil((a1 - a0) / 0.2));
      for (let k = 0; k <= steps; ++k) {
        const t = a0 + (a1 - a0) * k / steps;
        out.push(V(w[i].x + r * Math.cos(t), w[i].y + r * Math.sin(t)));
      }
    } else {
      out.push(w[i]);
    }
  }
  out.push(out[0]);
  return out;
}

function path(points) {
  ctx.beginPath();
  points.forEach((p, i) => (i ? ctx.lineTo(sx(p), sy(p)) : ctx.moveTo(sx(p), sy(p))));
}
function draw_object(o, xf = xf_of(o), style = {}) {
  if (is_chain(o)) {
    const pts = o.chain.points().map((p) => pb.transform_point(xf, p));
    if (o.chain.closed()) pts.push(pts[0]);
    path(pts);
    if (o.chain.closed()) {
      ctx.fillStyle = o.color + '55';
      ctx.fill();
    }
    ctx.strokeStyle = o.color;
    ctx.lineWidth = 2.5;
    ctx.stroke();
    // ticks on the colliding side
    ctx.lineWidth = 1;
    for (const s of o.segments) {
      const a = pb.transform_point(xf, s.a), b = pb.transform_point(xf, s.b);
      const nrm = V(xf.q.c * s.normal.x - xf.q.s * s.normal.y, xf.q.s * s.normal.x + xf.q.c * s.normal.y);
      for (let t = 0.1; t < 1; t += 0.2) {
        const m = V(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
        path([m, V(m.x + 0.12 * nrm.x, m.y + 0.12 * nrm.y)]);
        ctx.stroke();
      }
    }
    return;
  }
  for (const part of o.parts) {
    path(outline(part, xf));
    if (!style.dashed) {
      ctx.fillStyle = o.color + (style.faint ? '22' : '66');
      ctx.fill();
    }
    ctx.setLineDash(style.dashed ? [5, 4] : []);
    ctx.strokeStyle = o.color;
    ctx.lineWidth = style.faint ? 1 : 1.6;
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
function dot(p, color, r = 4, hollow = false) {
  ctx.beginPath();
  ctx.arc(sx(p), sy(p), r, 0, 2 * Math.PI);
  if (hollow) {
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5;
    ctx.stroke();
  } else {
    ctx.fillStyle = color;
    ctx.fill();
  }
}
function arrow(from, to, color, width = 1.6) {
  const dx = sx(to) - sx(from), dy = sy(to) - sy(from), l = Math.hypot(dx, dy);
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = width;
  path([from, to]);
  ctx.stroke();
  if (l < 2) return;
  const ux = dx / l, uy = dy / l, h = 8;
  ctx.beginPath();
  ctx.moveTo(sx(to), sy(to));
  ctx.lineTo(sx(to) - h * ux - 0.5 * h * uy, sy(to) - h * uy + 0.5 * h * ux);
  ctx.lineTo(sx(to) - h * ux + 0.5 * h * uy, sy(to) - h * uy - 0.5 * h * ux);
  ctx.fill();
}
function label(p, text, color = '#26323a', dx = 6, dy = -6) {
  ctx.font = '12px system-ui, sans-serif';
  ctx.fillStyle = color;
  ctx.fillText(text, sx(p) + dx, sy(p) + dy);
}
function handle(p, color) {
  ctx.beginPath();
  ctx.arc(sx(p), sy(p), 7, 0, 2 * Math.PI);
  ctx.fillStyle = '#fff';
  ctx.fill();
  ctx.strokeStyle = color;
  ctx.lineWidth = 2;
  ctx.stroke();
}
const add = (a, b) => V(a.x + b.x, a.y + b.y);
const sub = (a, b) => V(a.x - b.x, a.y - b.y);
const scale = (a, s) => V(a.x * s, a.y * s);
const fmt = (x) => (typeof x === 'number' ? Number(x.toPrecision(6)) : x);
const pretty = (v) => JSON.stringify(v, (k, x) => fmt(x), 1).replace(/\n\s*(?=[\]}\d-])/g, ' ').replace(/\[\n\s*/g, '[');

// ---------------------------------------------------------------------------------------------
// The queries. Pair queries run over every pair of parts (a chain's segments are one-sided
// ChainSegments) and report the pair that answers first or closest.

/** [{part_a, part_b, a, b}] where a, b are Shapes or ChainSegments (a chain is always B). */
function part_pairs(oa, ob) {
  const pairs = [];
  const sides = (o) => (is_chain(o) ? o.segments : o.parts);
  sides(oa).forEach((a, i) => sides(ob).forEach((b, j) => pairs.push({ part_a: i, part_b: j, a, b })));
  return pairs;
}

function world_of_objects(margin) {
  const world = new pb.CollisionWorld({ contact_margin: margin });
  const ids = new Map();
  objects.forEach((o, i) => {
    const xf = xf_of(o);
    const id = is_chain(o) ? world.add(o.chain, xf, { fixed: true, user_data: i })
      : o.parts.length > 1 ? world.add(o.parts, xf, i) : world.add(o.parts[0], xf, i);
    ids.set(id.index, { i, id });
  });
  return {
    world,
    object_of: (id) => objects[ids.get(id.index).i],
    id_of: (o) => [...ids.values()].find((e) => objects[e.i] === o)?.id,
  };
}

/** Swaps A and B when A is a chain, which the motion queries cannot move. */
function movable_pair() {
  if (is_chain(A) && !is_chain(B)) return [B, A];
  return [A, B];
}

let last = {};  // what the result panel shows, for the tests (window.playground.state())

function run_mode() {
  const out = { query: mode, A: A.name, B: B.name };
  const xa = xf_of(A), xb = xf_of(B);
  if (mode === 'contacts') {
    // Every touching pair in a CollisionWorld (speculative margin 0.05), and A-B's manifolds.
    const { world, object_of } = world_of_objects(0.05);
    world.update();
    for (const c of world.contacts()) {
      const m = c.manifold;
      for (const p of m.points) {
        dot(p.point, '#c2542d', 4, p.separation > 0);
        arrow(p.point, add(p.point, scale(m.normal, 0.45)), '#c2542d', 1.2);
        label(p.point, pb.hex_id(p.id).replace(/^0x0+(?=.)/, '0x'), '#8a3a1e');
      }
    }
    world.delete();
    out.manifolds = [];
    if (is_chain(A) && is_chain(B)) {
      out.note = 'chains do not collide with chains';
    } else {
      const [oa, ob] = is_chain(A) ? [B, A] : [A, B];
      for (const pr of part_pairs(ob, oa)) {  // chain segments first: collide(segment, xs, shape, xf)
        if (!is_chain(ob) && !(pr.a instanceof pb.Shape)) continue;
        const m = pb.collide(pr.a, xf_of(ob), pr.b, xf_of(oa), 0.05);
        if (m.count > 0) {
          out.manifolds.push({ part_a: pr.part_a, part_b: pr.part_b, normal: m.normal, count: m.count,
            points: m.points.map((p) => ({ point: p.point, separation: p.separation, id: pb.hex_id(p.id) })) });
        }
      }
      if (is_chain(A)) out.order = `${ob.name} is a in each manifold (chains come first)`;
      else out.order = `${B.name} first in each manifold (normal from ${B.name} to ${A.name})`;
    }
  } else if (mode === 'distance') {
    // A is the query's first shape (point_a lies on it, the normal points from it), unless only B is
    // a chain: a chain segment must come first.
    let best = null;
    const [first, second] = is_chain(B) && !is_chain(A) ? [B, A] : [A, B];
    for (const pr of part_pairs(first, second)) {
      const d = pb.distance(pr.a, xf_of(first), pr.b, xf_of(second));
      if (!best || d.distance < best.d.distance) best = { d, part_a: pr.part_a, part_b: pr.part_b };
    }
    const d = best.d;
    ctx.setLineDash([4, 3]);
    arrow(d.point_a, d.point_b, '#26323a');
    ctx.setLineDash([]);
    dot(d.point_a, '#26323a');
    dot(d.point_b, '#26323a');
    label(V((d.point_a.x + d.point_b.x) / 2, (d.point_a.y + d.point_b.y) / 2), `distance ${fmt(d.distance)}`);
    Object.assign(out, { from: first.name, to: second.name, part_from: best.part_a, part_to: best.part_b, distance: d.distance,
      normal: d.normal, point_a: d.point_a, point_b: d.point_b });
  } else if (mode === 'point') {
    let best = null;
    for (const [i, part] of A.parts.entries()) {
      const p = pb.project_point(part, xa, pointer);
      if (!best || Math.abs(p.distance) < Math.abs(best.p.distance)) best = { p, part: i };
    }
    const p = best.p;
    dot(pointer, p.inside ? '#59a14f' : '#26323a');
    dot(p.point, '#c2542d');
    ctx.setLineDash([4, 3]);
    path([pointer, p.point]);
    ctx.strokeStyle = '#26323a';
    ctx.stroke();
    ctx.setLineDash([]);
    arrow(p.point, add(p.point, scale(p.normal, 0.5)), '#c2542d');
    Object.assign(out, { object: A.name, part: best.part, point: pointer, closest: p.point, normal: p.normal,
      distance: p.distance, inside: p.inside, contains: A.parts.some((s) => pb.contains(s, xa, pointer)) });
  } else if (mode === 'ray' || mode === 'circle') {
    const radius = mode === 'circle' ? 0.3 : 0;
    const { world, object_of } = world_of_objects(0.02);
    const ray = { origin: handles.ray_from, translation: sub(handles.ray_to, handles.ray_from) };
    const hits = world.cast_ray_all(ray, radius);
    world.delete();
    const first = hits[0];
    const end = first ? add(ray.origin, scale(ray.translation, first.hit.fraction)) : handles.ray_to;
    arrow(ray.origin, end, '#26323a', 2);
    ctx.setLineDash([5, 4]);
    path([end, handles.ray_to]);
    ctx.stroke();
    ctx.setLineDash([]);
    if (radius > 0) {
      ctx.strokeStyle = '#26323a';
      for (const c of [ray.origin, end]) {
        ctx.beginPath();
        ctx.arc(sx(c), sy(c), radius * view.scale, 0, 2 * Math.PI);
        ctx.stroke();
      }
    }
    for (const h of hits) {
      dot(h.hit.point, '#c2542d');
      arrow(h.hit.point, add(h.hit.point, scale(h.hit.normal, 0.4)), '#c2542d');
    }
    out.radius = radius;
    out.ray = ray;
    out.hits = hits.map((h) => ({ object: object_of(h.id).name, part: h.part, ...h.hit }));
    handle(handles.ray_from, '#26323a');
    handle(handles.ray_to, '#26323a');
  } else if (mode === 'shape_cast' || mode === 'toi') {
    const [oa, ob] = movable_pair();
    const x0 = xf_of(oa), t = handles.translation;
    const turn = mode === 'toi' ? 2.5 : 0;  // radians A turns over the motion
    const x1 = pb.Transform.from(oa.x + t.x, oa.y + t.y, oa.angle + turn);
    let best = null;
    for (const pr of part_pairs(oa, ob)) {
      if (!(pr.a instanceof pb.Shape)) continue;
      if (mode === 'shape_cast') {
        const h = pb.cast_shape(pr.a, x0, t, pr.b, xf_of(ob), V(0, 0));
        if (h.hit && (!best || h.fraction < best.r.fraction)) best = { r: h, part_a: pr.part_a, part_b: pr.part_b };
      } else {
        const c = pb.mass_properties(oa.parts.length > 1 ? oa.parts : oa.parts[0]).center;
        const sweep_a = { local_center: c, c0: pb.transform_point(x0, c), c1: pb.transform_point(x1, c), a0: oa.angle, a1: oa.angle + turn };
        const cb = ob.parts.length > 1 || is_chain(ob) ? V(0, 0) : pb.mass_properties(ob.parts[0]).center;
        const xb0 = xf_of(ob);
        const sweep_b = { local_center: cb, c0: pb.transform_point(xb0, cb), c1: pb.transform_point(xb0, cb), a0: ob.angle, a1: ob.angle };
        const r = pb.time_of_impact(pr.a, sweep_a, pr.b, sweep_b, 1);
        if (r.state !== 'separated' && (!best || r.fraction < best.r.fraction)) best = { r, part_a: pr.part_a, part_b: pr.part_b, sweep_a };
      }
    }
    // The swept poses: the motion in steps, then the pose at the hit (dashed when none).
    const steps = 8;
    for (let k = 1; k <= steps; ++k) {
      const f = k / steps;
      const x = mode === 'toi'
        ? pb.Transform.from(oa.x + t.x * f, oa.y + t.y * f, oa.angle + turn * f)
        : pb.Transform.from(oa.x + t.x * f, oa.y + t.y * f, oa.angle);
      draw_object(oa, x, { faint: true, dashed: k === steps });
    }
    arrow(V(oa.x, oa.y), add(V(oa.x, oa.y), t), '#26323a');
    handle(add(V(oa.x, oa.y), t), '#26323a');
    if (best) {
      const f = mode === 'toi' ? best.r.fraction : best.r.fraction;
      const at = mode === 'toi' ? pb.sweep_transform(best.sweep_a, f) : pb.Transform.from(oa.x + t.x * f, oa.y + t.y * f, oa.angle);
      draw_object(oa, at, { dashed: false, faint: false });
      dot(best.r.point, '#c2542d', 5);
      arrow(best.r.point, add(best.r.point, scale(best.r.normal, 0.5)), '#c2542d');
    }
    Object.assign(out, { moving: oa.name, target: ob.name, translation: t, turn, result: best ? { part_a: best.part_a, part_b: best.part_b, ...best.r } : { hit: false } });
  } else if (mode === 'mover') {
    // A walks as a character (pebble::CharacterMover, upright) toward the handle for 4 s at
    // 60 Hz with gravity, through the world of every other object: the path and where it ends.
    if (is_chain(A) || A.parts.length !== 1) {
      out.note = 'the mover takes one convex shape: click a shape of one part to make it A';
    } else {
      const { world, id_of } = world_of_objects(0.02);
      const start = pb.Transform.from(A.x, A.y, 0);
      const mover = new pb.CharacterMover(A.parts[0], start, {});
      mover.set_self(id_of(A));
      const goal = handles.mover_goal;
      let vy = 0, stepped = 0, snapped = 0, grounded = 0, last_step = null;
      const trail = [V(A.x, A.y)];
      for (let i = 0; i < 240; ++i) {
        const dx = goal.x - mover.transform().p.x;
        const vx = Math.abs(dx) < 0.05 ? 0 : Math.sign(dx) * 3;
        last_step = mover.step(world, V(vx, vy - 20 / 60), 1 / 60);
        vy = last_step.velocity.y;
        stepped += last_step.stepped;
        snapped += last_step.snapped;
        grounded += last_step.ground.grounded;
        if (i % 5 === 4) trail.push(last_step.transform.p);
      }
      mover.delete();
      world.delete();
      ctx.setLineDash([4, 3]);
      path(trail);
      ctx.strokeStyle = '#4e79a7';
      ctx.lineWidth = 2;
      ctx.stroke();
      ctx.setLineDash([]);
      draw_object(A, last_step.transform, { dashed: true });
      if (last_step.ground.grounded) {
        dot(last_step.ground.point, '#c2542d', 4);
        arrow(last_step.ground.point, add(last_step.ground.point, scale(last_step.ground.normal, 0.5)), '#c2542d');
      }
      handle(goal, '#4e79a7');
      label(goal, 'walk toward here', '#4e79a7');
      Object.assign(out, { character: A.name, steps: 240, end: last_step.transform.p, grounded_at_end: last_step.ground.grounded,
        ground_normal: last_step.ground.normal, grounded_steps: grounded, stepped, snapped });
    }
  } else if (mode === 'approach') {
    const [oa, ob] = movable_pair();
    const va = handles.velocity_a, vb = is_chain(ob) ? V(0, 0) : handles.velocity_b;
    let best = null;
    for (const pr of part_pairs(oa, ob)) {
      if (!(pr.a instanceof pb.Shape)) continue;
      const r = pb.closest_approach(pr.a, xf_of(oa), va, pr.b, xf_of(ob), vb, 1);
      const key = r.hit ? r.time - 10 : r.distance;  // any touch beats any miss; then the earliest
      if (!best || key < best.key) best = { r, key, part_a: pr.part_a, part_b: pr.part_b };
    }
    const r = best.r;
    const at = (o, v) => pb.Transform.from(o.x + v.x * r.time, o.y + v.y * r.time, o.angle);
    draw_object(oa, at(oa, va), { dashed: true });
    if (!is_chain(ob)) draw_object(ob, at(ob, vb), { dashed: true });
    arrow(V(oa.x, oa.y), add(V(oa.x, oa.y), va), '#4e79a7', 2.2);
    handle(add(V(oa.x, oa.y), va), '#4e79a7');
    if (!is_chain(ob)) {
      arrow(V(ob.x, ob.y), add(V(ob.x, ob.y), vb), '#e15759', 2.2);
      handle(add(V(ob.x, ob.y), vb), '#e15759');
    }
    ctx.setLineDash([4, 3]);
    path([r.point_a, r.point_b]);
    ctx.strokeStyle = '#26323a';
    ctx.stroke();
    ctx.setLineDash([]);
    dot(r.point_a, '#26323a');
    dot(r.point_b, '#26323a');
    label(r.point_b, `t = ${fmt(r.time)} s, d = ${fmt(r.distance)}`);
    Object.assign(out, { a: oa.name, b: ob.name, velocity_a: va, velocity_b: vb, horizon: 1, part_a: best.part_a, part_b: best.part_b, ...r });
  }
  return out;
}

function draw() {
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  // grid, 1 m
  ctx.strokeStyle = '#eeeae2';
  ctx.lineWidth = 1;
  for (let x = Math.ceil(-view.cx / view.scale); x * view.scale < view.cx; ++x) path([V(x, -20), V(x, 20)]), ctx.stroke();
  for (let y = Math.ceil(-view.cy / view.scale); y * view.scale < view.cy; ++y) path([V(-20, y), V(20, y)]), ctx.stroke();
  for (const o of objects) draw_object(o);
  for (const o of objects) label(V(o.x, o.y), o === A ? `A ${o.name}` : o === B ? `B ${o.name}` : o.name, o === A || o === B ? '#000' : '#6b7780', -20, 4);
  last = run_mode();
  $('pair').textContent = `A = ${A.name}, B = ${B.name}`;
  $('result').textContent = pretty(last);
}

// ---------------------------------------------------------------------------------------------
// Input: drag shapes and handles, turn with the wheel or Q / E.

function object_at(p) {
  for (let i = objects.length - 1; i >= 0; --i) {
    const o = objects[i], xf = xf_of(o);
    if (is_chain(o)) {
      if (o.chain.closed() ? o.parts.length && inside_loop(o, xf, p) : o.segments.some((s) => pb.distance(s, xf, pb_point, pb.Transform.from(p.x, p.y)).distance < 0.15)) return o;
    } else if (o.parts.some((s) => pb.project_point(s, xf, p).distance < 0.05)) {
      return o;
    }
  }
  return null;
}
const pb_point = pb.Shape.circle(0);
function inside_loop(o, xf, p) {
  const pts = o.chain.points().map((q) => pb.transform_point(xf, q));
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    if ((pts[i].y > p.y) !== (pts[j].y > p.y) && p.x < (pts[j].x - pts[i].x) * (p.y - pts[i].y) / (pts[j].y - pts[i].y) + pts[i].x) inside = !inside;
  }
  return inside;
}
function handle_at(p) {
  const near = (q) => Math.hypot(q.x - p.x, q.y - p.y) < 0.15;
  const [oa, ob] = movable_pair();
  if ((mode === 'ray' || mode === 'circle')) {
    if (near(handles.ray_from)) return { get: () => handles.ray_from, set: (q) => (handles.ray_from = q) };
    if (near(handles.ray_to)) return { get: () => handles.ray_to, set: (q) => (handles.ray_to = q) };
  }
  if ((mode === 'shape_cast' || mode === 'toi') && near(add(V(oa.x, oa.y), handles.translation))) {
    return { set: (q) => (handles.translation = sub(q, V(oa.x, oa.y))) };
  }
  if (mode === 'mover' && near(handles.mover_goal)) {
    return { get: () => handles.mover_goal, set: (q) => (handles.mover_goal = q) };
  }
  if (mode === 'approach') {
    if (near(add(V(oa.x, oa.y), handles.velocity_a))) return { set: (q) => (handles.velocity_a = sub(q, V(oa.x, oa.y))) };
    if (near(add(V(ob.x, ob.y), handles.velocity_b))) return { set: (q) => (handles.velocity_b = sub(q, V(ob.x, ob.y))) };
  }
  return null;
}

let drag = null;
canvas.addEventListener('pointerdown', (e) => {
  const p = to_world(e.offsetX, e.offsetY);
  const h = handle_at(p);
  if (h) {
    drag = { handle: h };
  } else {
    const o = object_at(p);
    if (!o) return;
    if (o !== A) [A, B] = [o, A];
    drag = { object: o, dx: o.x - p.x, dy: o.y - p.y };
  }
  canvas.setPointerCapture(e.pointerId);
  draw();
});
canvas.addEventListener('pointermove', (e) => {
  pointer = to_world(e.offsetX, e.offsetY);
  if (drag?.handle) drag.handle.set(pointer);
  if (drag?.object) {
    drag.object.x = pointer.x + drag.dx;
    drag.object.y = pointer.y + drag.dy;
  }
  draw();
});
canvas.addEventListener('pointerup', () => (drag = null));
canvas.addEventListener('wheel', (e) => {
  const o = object_at(to_world(e.offsetX, e.offsetY));
  if (!o) return;
  e.preventDefault();
  o.angle += e.deltaY > 0 ? 0.08 : -0.08;
  draw();
}, { passive: false });
window.addEventListener('keydown', (e) => {
  const o = object_at(pointer) ?? A;
  if (e.key === 'q' || e.key === 'e') {
    o.angle += e.key === 'q' ? 0.08 : -0.08;
    draw();
  }
});
$('mode').addEventListener('change', (e) => {
  mode = e.target.value;
  draw();
});

// ---------------------------------------------------------------------------------------------
// The pile tab: the demo scene on the sandbox stepper, one 1/60 s step per animation frame.

const pile_canvas = $('pile-view'), pctx = pile_canvas.getContext('2d');
const kind_colors = ['#8d8579', '#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1'];
let pile = null, pile_outlines = [], pile_kinds = [], pile_running = false;
const pile_state = { steps: 0, step_ms: [], frame_ms: [], settled: false, settled_at: null };

function restart_pile() {
  if (pile) pile.delete();
  pile = new pb.module.DemoPile(200, 1);  // the sandbox's demo scene: in the build, not in the package's API
  pile_outlines = [];
  pile_kinds = [];
  Object.assign(pile_state, { steps: 0, step_ms: [], frame_ms: [], settled: false, settled_at: null });
}
function pile_step() {
  const t0 = performance.now();
  pile.step(1 / 60);
  pile_state.step_ms.push(performance.now() - t0);
  if (pile_state.step_ms.length > 120) pile_state.step_ms.shift();
  pile_state.steps++;
  const n = pile.body_count();
  while (pile_outlines.length < n) pile_outlines.push(pile.outline(pile_outlines.length));
  if (pile_kinds.length < n) pile_kinds = pile.kinds();
  if (!pile_state.settled && pile.all_released() && pile.max_point_speed() < 0.01) {
    pile_state.settled = true;
    pile_state.settled_at = pile.time();
  }
}
function draw_pile() {
  const box = pile.container_view(), w = pile_canvas.width, h = pile_canvas.height;
  const s = Math.min(w / (box.upper.x - box.lower.x), h / (box.upper.y - box.lower.y)) * 0.95;
  const ox = w / 2 - s * (box.lower.x + box.upper.x) / 2, oy = h / 2 + s * (box.lower.y + box.upper.y) / 2;
  const X = (p) => ox + s * p.x, Y = (p) => oy - s * p.y;
  pctx.clearRect(0, 0, w, h);
  const poses = pile.poses();
  for (let i = 0; i < pile_outlines.length; ++i) {
    const o = pile_outlines[i], q = { p: { x: poses[4 * i], y: poses[4 * i + 1] }, q: { c: poses[4 * i + 2], s: poses[4 * i + 3] } };
    const tp = (v) => V(q.q.c * v.x - q.q.s * v.y + q.p.x, q.q.s * v.x + q.q.c * v.y + q.p.y);
    const color = kind_colors[pile_kinds[i] ?? 0];
    if (o.chain) {
      pctx.beginPath();
      o.points.forEach((p, k) => (k ? pctx.lineTo(X(tp(p)), Y(tp(p))) : pctx.moveTo(X(tp(p)), Y(tp(p)))));
      if (o.closed) pctx.closePath();
      pctx.fillStyle = color + '88';
      if (o.closed) pctx.fill();
      pctx.strokeStyle = color;
      pctx.lineWidth = 1.5;
      pctx.stroke();
      continue;
    }
    for (const part of o.parts) {
      pctx.beginPath();
      const v = part.vertices.map(tp), r = part.radius * s;
      if (v.length === 1) {
        pctx.arc(X(v[0]), Y(v[0]), r, 0, 2 * Math.PI);
      } else if (r === 0) {
        v.forEach((p, k) => (k ? pctx.lineTo(X(p), Y(p)) : pctx.moveTo(X(p), Y(p))));
        pctx.closePath();
      } else {
        // rounded: arcs between the edges' outward normals (canvas y down: angles negated)
        const n = v.length;
        for (let k = 0; k < n; ++k) {
          const a = v[(k + n - 1) % n], b = v[k], c = v[(k + 1) % n];
          const a0 = Math.atan2(-(b.x - a.x), b.y - a.y), a1 = Math.atan2(-(c.x - b.x), c.y - b.y);
          pctx.arc(X(b), Y(b), r, -a0, -a1, true);
        }
        pctx.closePath();
      }
      pctx.fillStyle = color + (o.static ? '66' : 'cc');
      pctx.fill();
      pctx.strokeStyle = '#26323a55';
      pctx.lineWidth = 1;
      pctx.stroke();
    }
  }
  const mean = (a) => a.reduce((x, y) => x + y, 0) / Math.max(1, a.length);
  const stats = pile.stats();
  $('pile-stats').textContent = pretty({
    bodies: pile.body_count(), time_s: pile.time(), step_ms: mean(pile_state.step_ms),
    frames_per_second: 1000 / mean(pile_state.frame_ms), contacts: stats.manifolds, points: stats.points,
    max_penetration_m: stats.max_penetration, kinetic_energy_J: pile.kinetic_energy(), fastest_point_m_s: pile.max_point_speed(),
    settled: pile_state.settled ? `at ${fmt(pile_state.settled_at)} s` : 'not yet',
  });
}
let last_frame = null;
function pile_frame(t) {
  if (!pile_running) return;
  if (last_frame !== null) {
    pile_state.frame_ms.push(t - last_frame);
    if (pile_state.frame_ms.length > 120) pile_state.frame_ms.shift();
  }
  last_frame = t;
  pile_step();
  draw_pile();
  requestAnimationFrame(pile_frame);
}
function show_tab(name) {
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('active', b.dataset.tab === name);
  for (const p of document.querySelectorAll('.panel')) p.classList.toggle('active', p.id === name);
  pile_running = name === 'pile';
  if (pile_running) {
    if (!pile) restart_pile();
    last_frame = null;
    requestAnimationFrame(pile_frame);
  }
}
for (const b of document.querySelectorAll('.tab')) b.addEventListener('click', () => show_tab(b.dataset.tab));
$('pile-restart').addEventListener('click', restart_pile);

// ---------------------------------------------------------------------------------------------

draw();
$('status').textContent = `pebble ${pb.version}, WebAssembly`;
if (location.hash === '#pile') show_tab('pile');

/** For the browser tests and the console. */
window.playground = {
  pebble: pb,
  run_scene: (scene) => run_scene(pb, scene),
  state: () => last,
  objects: () => objects.map((o) => ({ name: o.name, x: o.x, y: o.y, angle: o.angle, screen: { x: sx(o), y: sy(o) } })),
  set_mode: (m) => { mode = m; $('mode').value = m; draw(); },
  select: (a, b) => { A = objects.find((o) => o.name === a); B = objects.find((o) => o.name === b); draw(); },
  pile: () => ({ ...pile_state, time: pile?.time(), bodies: pile?.body_count(), all_released: pile?.all_released(),
    fastest_point: pile?.max_point_speed(), kinetic_energy: pile?.kinetic_energy(), max_penetration: pile?.measure().max_penetration }),
  show_tab,
};
