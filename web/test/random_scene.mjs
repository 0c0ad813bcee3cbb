// A deterministic random scene (docs/scene-format.md) with every kind of object and every query,
// for comparing the page's answers with `pebble query`'s. Numbers are short decimals, so the file
// reads back the same on both sides, except the angles: any float in the range (Math.fround, written
// in full), so that the rotations are not only the exact ones. Rot::from_angle is pebble's own
// cosine and sine, so both sides make the same rotation from them (docs/web.md, "Same bits as native").
export function random_scene(seed, count = 24) {
  let s = seed >>> 0 || 1;
  const next = () => {  // xorshift32
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
  const num = (lo, hi, step = 0.01) => Math.round((lo + (hi - lo) * next()) / step) * step;
  const r2 = (x) => Number(x.toFixed(2));
  const pt = (lo, hi) => [r2(num(lo, hi)), r2(num(lo, hi))];
  const angle = (lo, hi) => Math.fround(lo + (hi - lo) * next());
  const shapes = [
    () => ({ type: 'circle', radius: r2(num(0.1, 0.6)) }),
    () => ({ type: 'capsule', a: [-r2(num(0.1, 0.5)), 0], b: [r2(num(0.1, 0.5)), r2(num(-0.2, 0.2))], radius: r2(num(0.05, 0.3)) }),
    () => ({ type: 'segment', a: pt(-0.6, 0), b: pt(0, 0.6) }),
    () => ({ type: 'box', half_width: r2(num(0.1, 0.7)), half_height: r2(num(0.1, 0.7)) }),
    () => { const h = r2(num(0.2, 0.7)); return { type: 'rounded_box', half_width: h, half_height: r2(num(0.2, 0.7)), corner_radius: r2(num(0.02, 0.15)) }; },
    () => ({ type: 'polygon', points: Array.from({ length: 3 + Math.floor(next() * 6) }, () => pt(-0.6, 0.6)), radius: next() < 0.5 ? 0 : r2(num(0.02, 0.1)) }),
    () => ({ type: 'concave', points: [[0, 0], [1, 0], [1, 0.8], [0.6, 0.8], [0.6, 0.3], [0.3, 0.3], [0.3, 0.8], [0, 0.8]], radius: next() < 0.5 ? 0 : 0.03 }),
    () => ({ type: 'compound', parts: [{ type: 'box', half_width: 0.4, half_height: 0.1 }, { type: 'circle', radius: 0.2, center: [0.4, 0.1] }] }),
  ];
  const objects = [
    { name: 'hills', shape: { type: 'chain', points: [[6, -3], [3, -3.4], [0, -2.8], [-3, -3.5], [-6, -3]] } },
    { name: 'rock', shape: { type: 'loop', points: [[-1, 3], [1, 3.2], [0.5, 4], [-0.8, 3.8]] } },
  ];
  for (let i = 0; i < count; ++i) {
    const kind = Math.floor(next() * shapes.length);
    objects.push({ name: `o${i}`, shape: shapes[kind](), position: pt(-4, 4), angle: angle(-3.14, 3.14) });
  }
  const convex = objects.filter((o) => !['chain', 'loop', 'concave', 'compound'].includes(o.shape.type)).map((o) => o.name);
  const any = objects.map((o) => o.name);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const queries = [];
  for (let i = 0; i < 12; ++i) {
    const a = pick(convex), b = pick(convex);
    queries.push({ type: 'collide', a, b, margin: r2(num(0, 0.5)) });
    queries.push({ type: 'distance', a, b });
    queries.push({ type: 'overlap', a, b });
    queries.push({ type: 'project_point', object: a, point: pt(-4, 4) });
    queries.push({ type: 'contains', object: b, point: pt(-4, 4) });
    queries.push({ type: 'mass', object: pick(any.slice(2)), density: r2(num(0.5, 3)) });
    queries.push({ type: 'bounds', object: a });
    queries.push({ type: 'raycast', object: b, origin: pt(-5, 5), translation: pt(-6, 6), radius: next() < 0.5 ? 0 : r2(num(0.05, 0.3)) });
    queries.push({ type: 'shape_cast', a, translation_a: pt(-4, 4), b, translation_b: pt(-1, 1) });
    queries.push({ type: 'time_of_impact', a, a_to: { position: pt(-4, 4), angle: angle(-6, 6) }, b });
    queries.push({ type: 'closest_approach', a, velocity_a: pt(-3, 3), b, velocity_b: pt(-3, 3), horizon: r2(num(0.5, 3)) });
  }
  queries.push({ type: 'world_contacts', margin: 0.05 });
  for (let i = 0; i < 4; ++i) queries.push({ type: 'world_raycast', origin: pt(-6, 6), translation: pt(-12, 12), all: i % 2 === 0, radius: i < 2 ? 0 : 0.1 });
  return { comment: `random scene, seed ${seed}`, objects, queries };
}
