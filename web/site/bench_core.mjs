// pebble's WebAssembly build against planck.js on the same scenes, in Node (web/bench/bench.mjs)
// and in the browser (bench.html). Both engines get the same poses and the same rays:
//
// - a pile of 500 boxes and circles falling into a container, simulated once by pebble's sandbox
//   stepper; its poses of `frames` steps (from 0.5 s to 3.5 s: the fall, the pile forming and
//   coming to rest) are then replayed into each engine's collision world:
//   every body moved (pebble: CollisionWorld.set_transforms, one call for all; planck:
//   Body.setTransform per body), then the broadphase and the contacts (pebble: update(); planck:
//   findNewContacts() + updateContacts(), what World.step runs before its solver);
// - 100k ray casts, closest hit, against the settled pile (pebble: cast_rays on a Float32Array,
//   and cast_ray one call per ray; planck: World.rayCast with a callback that clips the ray).

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

const kWalls = [  // half width, half height, x, y: the container's floor and walls
  [12.5, 0.5, 0, -0.5], [0.5, 12, -12.5, 11], [0.5, 12, 12.5, 11],
];

/** The pile: body sizes and kinds, and `frames` steps of poses (x, y, cos, sin, angle). */
export function record_pile(pb, { count = 500, settle = 30, frames = 180 } = {}) {
  const next = rng(7);
  const bodies = [];
  for (let i = 0; i < count; ++i) {
    const col = i % 25, row = Math.floor(i / 25);
    const x = -11.4 + col * 0.95 + 0.1 * next(), y = 0.6 + row * 0.95;
    if (i % 2 === 0) bodies.push({ kind: 'box', hw: 0.2 + 0.25 * next(), hh: 0.2 + 0.25 * next(), x, y, angle: next() - 0.5 });
    else bodies.push({ kind: 'circle', r: 0.2 + 0.2 * next(), x, y, angle: 0 });
  }
  const stepper = new pb.module.Stepper();  // the sandbox stepper: in the build, not in the package's API
  const shapes = [];
  for (const [hw, hh, x, y] of kWalls) {
    const s = pb.Shape.box(hw, hh);
    shapes.push(s);
    stepper.add({ shape: s, position: { x, y }, density: 0 });
  }
  for (const b of bodies) {
    const s = b.kind === 'box' ? pb.Shape.box(b.hw, b.hh) : pb.Shape.circle(b.r);
    shapes.push(s);
    stepper.add({ shape: s, position: { x: b.x, y: b.y }, angle: b.angle });
  }
  for (let i = 0; i < settle; ++i) stepper.step(1 / 60);
  const poses = [];
  for (let i = 0; i < frames; ++i) {
    stepper.step(1 / 60);
    const all = stepper.poses();  // walls first
    const p = new Float32Array(4 * count), angle = new Float64Array(count);
    p.set(all.subarray(4 * kWalls.length));
    for (let k = 0; k < count; ++k) angle[k] = Math.atan2(p[4 * k + 3], p[4 * k + 2]);
    poses.push({ p, angle });
  }
  stepper.delete();
  for (const s of shapes) s.delete();
  return { bodies, poses };
}

function median(a) {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

/** pebble: a CollisionWorld with the walls (fixed) and the bodies. */
function pebble_world(pb, pile, reuse_contacts = true) {
  const world = new pb.CollisionWorld({ contact_margin: 0.02, reuse_contacts });
  const shapes = [];
  for (const [hw, hh, x, y] of kWalls) {
    const s = pb.Shape.box(hw, hh);
    shapes.push(s);
    world.add(s, pb.Transform.from(x, y), { fixed: true });
  }
  const ids = [];
  const first = pile.poses[0].p;
  pile.bodies.forEach((b, k) => {
    const s = b.kind === 'box' ? pb.Shape.box(b.hw, b.hh) : pb.Shape.circle(b.r);
    shapes.push(s);
    const id = world.add(s, { p: { x: first[4 * k], y: first[4 * k + 1] }, q: { c: first[4 * k + 2], s: first[4 * k + 3] } });
    world.track(id);
    ids.push(id);
  });
  world.update();
  return { world, ids, free: () => { world.delete(); shapes.forEach((s) => s.delete()); } };
}

function planck_world(planck, pile) {
  const world = new planck.World({ gravity: { x: 0, y: 0 } });
  const ground = world.createBody({ type: 'static' });
  for (const [hw, hh, x, y] of kWalls) ground.createFixture(new planck.Box(hw, hh, { x, y }, 0));
  const first = pile.poses[0];
  const bodies = pile.bodies.map((b, k) => {
    const body = world.createBody({ type: 'dynamic', position: { x: first.p[4 * k], y: first.p[4 * k + 1] }, angle: first.angle[k] });
    body.createFixture(b.kind === 'box' ? new planck.Box(b.hw, b.hh) : new planck.Circle(b.r), { density: 1 });
    return body;
  });
  world.findNewContacts();
  world.updateContacts();
  return { world, bodies };
}

function planck_touching(world) {
  let n = 0;
  for (let c = world.getContactList(); c; c = c.getNext()) if (c.isTouching()) ++n;
  return n;
}

/** Replays the pile `passes` times into each engine: the median over passes of the mean ms per step. */
export function bench_pile(pb, planck, pile, { passes = 5 } = {}) {
  const rows = [];
  const W = pebble_world(pb, pile);
  const t_pebble = [], t_pebble_each = [];
  let contacts_pebble = 0;
  const frames = pile.poses.length;
  for (let pass = 0; pass <= passes; ++pass) {
    const t0 = performance.now();
    for (const { p } of pile.poses) {
      W.world.set_transforms(p);
      W.world.update();
      contacts_pebble = W.world.contact_count();
    }
    if (pass > 0) t_pebble.push((performance.now() - t0) / frames);
  }
  // The same with one set_transform call per body (a Transform object each): the cost of the
  // JS/wasm border when a program moves bodies one by one.
  for (let pass = 0; pass <= passes; ++pass) {
    const t0 = performance.now();
    for (const { p } of pile.poses) {
      for (let k = 0; k < W.ids.length; ++k) {
        W.world.set_transform(W.ids[k], { p: { x: p[4 * k], y: p[4 * k + 1] }, q: { c: p[4 * k + 2], s: p[4 * k + 3] } });
      }
      W.world.update();
      W.world.contact_count();
    }
    if (pass > 0) t_pebble_each.push((performance.now() - t0) / frames);
  }
  W.free();
  // Without contact reuse: every pair whose colliders moved is collided anew, as planck does.
  const F = pebble_world(pb, pile, false);
  const t_fresh = [];
  for (let pass = 0; pass <= passes; ++pass) {
    const t0 = performance.now();
    for (const { p } of pile.poses) {
      F.world.set_transforms(p);
      F.world.update();
      F.world.contact_count();
    }
    if (pass > 0) t_fresh.push((performance.now() - t0) / frames);
  }
  F.free();

  const P = planck_world(planck, pile);
  const t_planck = [];
  let contacts_planck = 0;
  for (let pass = 0; pass <= passes; ++pass) {
    const t0 = performance.now();
    for (const { p, angle } of pile.poses) {
      for (let k = 0; k < P.bodies.length; ++k) P.bodies[k].setTransform({ x: p[4 * k], y: p[4 * k + 1] }, angle[k]);
      P.world.findNewContacts();
      P.world.updateContacts();
      contacts_planck = planck_touching(P.world);
    }
    if (pass > 0) t_planck.push((performance.now() - t0) / frames);
  }
  const planck_ms = median(t_planck);
  rows.push({ what: 'pile of 500 boxes and circles: move all, broadphase + contacts, per step (ms)',
    pebble: median(t_pebble), planck: planck_ms, note: `touching pairs at the end: pebble ${contacts_pebble}, planck ${contacts_planck}` });
  rows.push({ what: '  the same, pebble without contact reuse (reuse_contacts: false)', pebble: median(t_fresh), planck: planck_ms, note: '' });
  rows.push({ what: '  the same, pebble moving each body by its own set_transform call', pebble: median(t_pebble_each), planck: planck_ms, note: '' });
  return rows;
}

/** 100k rays against the pile's last frame: total ms. */
export function bench_rays(pb, planck, pile, { count = 100000, passes = 3 } = {}) {
  const next = rng(11);
  const rays = new Float32Array(4 * count), objs = [];
  for (let i = 0; i < count; ++i) {
    const a = 2 * Math.PI * next();
    rays.set([-12 + 24 * next(), 12 * next(), 6 * Math.cos(a), 6 * Math.sin(a)], 4 * i);
  }
  for (let i = 0; i < count; ++i) {
    const [ox, oy, tx, ty] = rays.subarray(4 * i, 4 * i + 4);
    objs.push({ origin: { x: ox, y: oy }, translation: { x: tx, y: ty }, end: { x: ox + tx, y: oy + ty } });
  }
  const last = { ...pile, poses: [pile.poses[pile.poses.length - 1]] };
  const W = pebble_world(pb, last);
  const t_batch = [], t_each = [], t_planck = [];
  let hits_pebble = 0, hits_each = 0, hits_planck = 0;
  for (let pass = 0; pass <= passes; ++pass) {
    let t0 = performance.now();
    const r = W.world.cast_rays(rays);
    if (pass > 0) t_batch.push(performance.now() - t0);
    hits_pebble = r.index.reduce((n, k) => n + (k >= 0 ? 1 : 0), 0);
    t0 = performance.now();
    let h = 0;
    for (let i = 0; i < count; ++i) if (W.world.cast_ray(objs[i]) !== null) ++h;
    if (pass > 0) t_each.push(performance.now() - t0);
    hits_each = h;
  }
  W.free();
  const P = planck_world(planck, last);
  for (let pass = 0; pass <= passes; ++pass) {
    const t0 = performance.now();
    let h = 0;
    for (let i = 0; i < count; ++i) {
      let hit = false;
      P.world.rayCast(objs[i].origin, objs[i].end, (fixture, point, normal, fraction) => {
        hit = true;
        return fraction;  // clip: the closest hit
      });
      if (hit) ++h;
    }
    if (pass > 0) t_planck.push(performance.now() - t0);
    hits_planck = h;
  }
  return [
    { what: `${count / 1000}k ray casts, closest hit: pebble cast_rays (one call), total (ms)`, pebble: median(t_batch), planck: median(t_planck),
      note: `rays that hit: pebble ${hits_pebble}, planck ${hits_planck}` },
    { what: `  the same, pebble cast_ray one call per ray`, pebble: median(t_each), planck: median(t_planck), note: `pebble ${hits_each} hits` },
  ];
}

export function table(rows) {
  const lines = ['| scene | pebble (WASM) | planck.js | planck / pebble | |', '|---|---:|---:|---:|---|'];
  for (const r of rows) lines.push(`| ${r.what.trim()} | ${r.pebble.toFixed(2)} | ${r.planck.toFixed(2)} | ${(r.planck / r.pebble).toFixed(2)} | ${r.note} |`);
  return lines.join('\n');
}

export function run_all(pb, planck, options = {}) {
  const t0 = performance.now();
  const pile = record_pile(pb, options);
  const record_ms = performance.now() - t0;
  const rows = [...bench_pile(pb, planck, pile, options), ...bench_rays(pb, planck, pile, options)];
  return { rows, record_ms };
}
