// pebble for JavaScript: the ES module entry of the npm package. It loads pebble_wasm.wasm (in a
// browser through fetch beside this file, in Node from the file system) and returns the API, with
// C++'s names and default arguments (index.d.ts declares it all; docs/web.md explains it).
import createPebbleModule from './pebble_wasm.mjs';

/** Thrown by the shape makers (Shape.*, Chain.*, decompose, mass_properties) for input they refuse;
 * the message is the C++ InvalidShape's. */
export class InvalidShape extends Error {
  constructor(message) {
    super(message);
    this.name = 'InvalidShape';
  }
}

/** Thrown for settings that are not a shape but cannot be used (new CharacterMover's settings); the
 * message is the C++ InvalidSettings'. A subclass of InvalidShape for one release, as in C++. */
export class InvalidSettings extends InvalidShape {
  constructor(message) {
    super(message);
    this.name = 'InvalidSettings';
  }
}

/** Thrown by CollisionWorld.add for a transform the world refuses (std::invalid_argument in C++). */
export class InvalidArgument extends Error {
  constructor(message) {
    super(message);
    this.name = 'InvalidArgument';
  }
}

/** Thrown by CollisionWorld.restore for bytes that are not a snapshot it can read (truncated,
 * corrupt, another format version); the message is the C++ InvalidSnapshot's. */
export class InvalidSnapshot extends Error {
  constructor(message) {
    super(message);
    this.name = 'InvalidSnapshot';
  }
}

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null &&
  typeof window === 'undefined';

/**
 * Loads the WebAssembly module and returns the pebble API. Options: `wasmBinary` (the .wasm bytes,
 * when you load them yourself) or `locateFile(name)` (where the .wasm is served from).
 */
export async function load(options = {}) {
  const moduleArgs = { InvalidShape, InvalidSettings, InvalidArgument, InvalidSnapshot, ...options };
  if (isNode && !moduleArgs.wasmBinary && !moduleArgs.locateFile) {
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(new URL('./pebble_wasm.wasm', import.meta.url));
  }
  const m = await createPebbleModule(moduleArgs);
  return wrap(m);
}

// ---------------------------------------------------------------------------------------------
// Arguments: a Vec2 may also be an [x, y] array (anywhere: in a Transform, a Ray, a Sweep, an
// Aabb), and a missing or wrong argument throws a TypeError that names the function and the
// argument (embind's own messages name neither). Values already in the C++ layout pass through
// uncopied.

function describe(v) {
  if (v === undefined || v === null) return String(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') {
    const name = v.constructor && v.constructor.name !== 'Object' ? `a ${v.constructor.name} ` : 'an object ';
    return `${name}with keys {${Object.keys(v).join(', ')}}`;
  }
  return `${typeof v} ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`;
}

function vec(v, where) {
  if (v !== null && typeof v === 'object') {
    if (typeof v.x === 'number' && typeof v.y === 'number') return v;
    if ((Array.isArray(v) || ArrayBuffer.isView(v)) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number') {
      return { x: v[0], y: v[1] };
    }
  }
  throw new TypeError(`${where}: expected a Vec2 {x, y} or an [x, y] array, got ${describe(v)}`);
}

function rot(q, where) {
  if (q !== null && typeof q === 'object' && typeof q.c === 'number' && typeof q.s === 'number') return q;
  throw new TypeError(`${where}: expected a Rot {c, s} (pebble.Rot.from_angle(radians)), got ${describe(q)}`);
}

function xf(t, where) {
  if (t !== null && typeof t === 'object' && 'p' in t && 'q' in t) {
    const p = vec(t.p, `${where}.p`);
    const q = rot(t.q, `${where}.q`);
    return p === t.p ? t : { p, q };
  }
  throw new TypeError(`${where}: expected a Transform {p, q} (pebble.Transform.from(x, y, angle)), got ${describe(t)}`);
}

function ray(r, where) {
  if (r !== null && typeof r === 'object' && 'origin' in r && 'translation' in r) {
    const origin = vec(r.origin, `${where}.origin`);
    const translation = vec(r.translation, `${where}.translation`);
    return origin === r.origin && translation === r.translation ? r : { origin, translation };
  }
  throw new TypeError(`${where}: expected a Ray {origin, translation}, got ${describe(r)}`);
}

function aabb(b, where) {
  if (b !== null && typeof b === 'object' && 'lower' in b && 'upper' in b) {
    const lower = vec(b.lower, `${where}.lower`);
    const upper = vec(b.upper, `${where}.upper`);
    return lower === b.lower && upper === b.upper ? b : { lower, upper };
  }
  throw new TypeError(`${where}: expected an Aabb {lower, upper}, got ${describe(b)}`);
}

function sweep(s, where) {
  if (s !== null && typeof s === 'object' && typeof s.a0 === 'number' && typeof s.a1 === 'number') {
    const local_center = vec(s.local_center, `${where}.local_center`);
    const c0 = vec(s.c0, `${where}.c0`);
    const c1 = vec(s.c1, `${where}.c1`);
    return local_center === s.local_center && c0 === s.c0 && c1 === s.c1 ? s : { local_center, c0, c1, a0: s.a0, a1: s.a1 };
  }
  throw new TypeError(`${where}: expected a Sweep {local_center, c0, c1, a0, a1}, got ${describe(s)}`);
}

function num(x, where) {
  if (typeof x === 'number') return x;
  throw new TypeError(`${where}: expected a number, got ${describe(x)}`);
}

function points(list, where) {
  if (!Array.isArray(list)) throw new TypeError(`${where}: expected an array of points ({x, y} or [x, y]), got ${describe(list)}`);
  list.forEach((p, i) => vec(p, `${where}[${i}]`));
  return list;
}

/** The shortest decimal text that reads back as the same 32-bit float. */
function f32(x) {
  for (let digits = 1; digits < 9; ++digits) {
    const text = Number(x.toPrecision(digits));
    if (Math.fround(text) === x) return String(text);
  }
  return String(x);
}
const pair = (v) => `(${f32(v.x)}, ${f32(v.y)})`;

function wrap(m) {
  const isSegment = (x) => x instanceof m.ChainSegment;
  const shape = (s, where) => {
    if (s instanceof m.Shape) return s;
    throw new TypeError(`${where}: expected a Shape, got ${describe(s)}`);
  };
  const target = (s, where) => {
    if (s instanceof m.Shape || s instanceof m.ChainSegment) return s;
    throw new TypeError(`${where}: expected a Shape or a ChainSegment, got ${describe(s)}`);
  };

  // Readable objects: String(shape) is what Python's repr prints.
  m.Shape.prototype.toString = function () {
    return `Shape(vertices=[${this.vertices().map(pair).join(', ')}], radius=${f32(this.radius())})`;
  };
  m.ChainSegment.prototype.toString = function () {
    return `ChainSegment(a=${pair(this.a)}, b=${pair(this.b)})`;
  };
  m.Chain.prototype.toString = function () {
    return `Chain(${this.closed() ? 'loop' : 'open'}, ${this.segment_count()} segments)`;
  };
  m.CollisionWorld.prototype.toString = function () { return `CollisionWorld(${this.size()} colliders)`; };

  const rawShape = {};
  for (const name of ['circle', 'capsule', 'segment', 'box', 'rounded_box', 'polygon']) rawShape[name] = m.Shape[name];
  m.Shape.circle = (radius, center) => (center === undefined ? rawShape.circle(num(radius, 'Shape.circle: radius'))
    : rawShape.circle(num(radius, 'Shape.circle: radius'), vec(center, 'Shape.circle: center')));
  m.Shape.capsule = (a, b, radius) => rawShape.capsule(vec(a, 'Shape.capsule: a'), vec(b, 'Shape.capsule: b'),
    num(radius, 'Shape.capsule: radius'));
  m.Shape.segment = (a, b) => rawShape.segment(vec(a, 'Shape.segment: a'), vec(b, 'Shape.segment: b'));
  m.Shape.box = (hw, hh, center, angle) => (center === undefined && angle === undefined
    ? rawShape.box(num(hw, 'Shape.box: half_width'), num(hh, 'Shape.box: half_height'))
    : rawShape.box(num(hw, 'Shape.box: half_width'), num(hh, 'Shape.box: half_height'), vec(center, 'Shape.box: center'),
      num(angle, 'Shape.box: angle')));
  m.Shape.rounded_box = (hw, hh, r) => rawShape.rounded_box(num(hw, 'Shape.rounded_box: half_width'),
    num(hh, 'Shape.rounded_box: half_height'), num(r, 'Shape.rounded_box: corner_radius'));
  m.Shape.polygon = (list, radius) => (radius === undefined ? rawShape.polygon(points(list, 'Shape.polygon: points'))
    : rawShape.polygon(points(list, 'Shape.polygon: points'), num(radius, 'Shape.polygon: radius')));
  // Embind's dispatcher of an overloaded static (circle, box, polygon) looks its table up on the
  // class's current property, the wrapper now: hand the table on.
  for (const name of Object.keys(rawShape)) {
    if (rawShape[name].overloadTable) m.Shape[name].overloadTable = rawShape[name].overloadTable;
  }
  const rawChain = { open: m.Chain.open, loop: m.Chain.loop };
  m.Chain.open = (list) => rawChain.open(points(list, 'Chain.open: points'));
  m.Chain.loop = (list) => rawChain.loop(points(list, 'Chain.loop: points'));
  const rawHeightfield = { make: m.Heightfield.make };
  m.Heightfield.make = (heights, spacing) => {
    const where = 'Heightfield.make: heights';
    if (Array.isArray(heights)) heights.forEach((h, i) => num(h, `${where}[${i}]`));
    else if (!(heights instanceof Float32Array || heights instanceof Float64Array)) {
      throw new TypeError(`${where}: expected an array of numbers or a Float32Array, got ${describe(heights)}`);
    }
    return rawHeightfield.make(heights, num(spacing, 'Heightfield.make: spacing'));
  };
  m.Heightfield.prototype.toString = function () {
    return `Heightfield(${this.cell_count()} cells, spacing=${f32(this.spacing())})`;
  };

  // Embind checks argument counts exactly: give the C++ defaults to calls that leave them out.
  const W = m.CollisionWorld.prototype;
  const raw = {};
  for (const name of ['cast_ray', 'cast_circle', 'cast_shape', 'cast_ray_all', 'overlap_point', 'overlap_aabb',
    'overlap_shape', 'add_shape', 'add_parts', 'add_chain', 'add_heightfield', 'collide_shape', 'nearest', 'parts_in_box']) {
    raw[name] = W[name];
  }
  raw.set_transform = W.set_transform;
  const where = (fn, arg) => `CollisionWorld.${fn}: ${arg}`;
  W.add = function add(collider, t, options) {
    if (Array.isArray(collider)) return raw.add_parts.call(this, collider, xf(t, where('add', 'xf')), options);
    if (collider instanceof m.Chain) return raw.add_chain.call(this, collider, xf(t, where('add', 'xf')), options);
    if (collider instanceof m.Heightfield) return raw.add_heightfield.call(this, collider, xf(t, where('add', 'xf')), options);
    if (!(collider instanceof m.Shape)) {
      throw new TypeError(`${where('add', 'collider')}: expected a Shape, an array of Shapes, a Chain or a Heightfield, got ${describe(collider)}`);
    }
    return raw.add_shape.call(this, collider, xf(t, where('add', 'xf')), options);
  };
  W.add_shape = function (s, t, options) {
    return raw.add_shape.call(this, shape(s, where('add_shape', 'shape')), xf(t, where('add_shape', 'xf')), options);
  };
  W.add_parts = function (parts, t, options) { return raw.add_parts.call(this, parts, xf(t, where('add_parts', 'xf')), options); };
  W.add_chain = function (chain, t, options) { return raw.add_chain.call(this, chain, xf(t, where('add_chain', 'xf')), options); };
  W.add_heightfield = function (field, t, options) {
    return raw.add_heightfield.call(this, field, xf(t, where('add_heightfield', 'xf')), options);
  };
  W.set_transform = function (id, t) { return raw.set_transform.call(this, id, xf(t, where('set_transform', 'xf'))); };
  const found = (r) => (r.found ? { id: r.id, part: r.part, hit: r.hit } : null);
  W.cast_ray = function (r, filter) { return found(raw.cast_ray.call(this, ray(r, where('cast_ray', 'ray')), filter)); };
  W.cast_circle = function (r, radius, filter) {
    return found(raw.cast_circle.call(this, ray(r, where('cast_circle', 'ray')), num(radius, where('cast_circle', 'radius')), filter));
  };
  W.cast_shape = function (s, t, translation, filter) {
    return found(raw.cast_shape.call(this, shape(s, where('cast_shape', 'shape')), xf(t, where('cast_shape', 'xf')),
      vec(translation, where('cast_shape', 'translation')), filter));
  };
  W.cast_ray_all = function (r, radius = 0, filter) {
    return raw.cast_ray_all.call(this, ray(r, where('cast_ray_all', 'ray')), num(radius, where('cast_ray_all', 'radius')), filter);
  };
  W.overlap_point = function (point, filter) { return raw.overlap_point.call(this, vec(point, where('overlap_point', 'point')), filter); };
  W.overlap_aabb = function (box, filter) { return raw.overlap_aabb.call(this, aabb(box, where('overlap_aabb', 'box')), filter); };
  W.parts_in_box = function (box, filter) { return raw.parts_in_box.call(this, aabb(box, where('parts_in_box', 'box')), filter); };
  W.overlap_shape = function (s, t, filter) {
    return raw.overlap_shape.call(this, shape(s, where('overlap_shape', 'shape')), xf(t, where('overlap_shape', 'xf')), filter);
  };
  W.collide_shape = function (s, t, margin = 0, filter) {
    return raw.collide_shape.call(this, shape(s, where('collide_shape', 'shape')), xf(t, where('collide_shape', 'xf')),
      num(margin, where('collide_shape', 'margin')), filter);
  };
  W.nearest = function (s, t, k, max_distance = Infinity, filter) {
    return raw.nearest.call(this, shape(s, where('nearest', 'shape')), xf(t, where('nearest', 'xf')), num(k, where('nearest', 'k')),
      num(max_distance, where('nearest', 'max_distance')), filter);
  };
  W.within_radius = function (s, t, radius, k = 64, filter) {
    return raw.nearest.call(this, shape(s, where('within_radius', 'shape')), xf(t, where('within_radius', 'xf')),
      num(k, where('within_radius', 'k')), num(radius, where('within_radius', 'radius')), filter);
  };
  // The mover's constructor checks its arguments too; `new pebble.CharacterMover(...)` still gives
  // an instance of the embind class (a constructor that returns an object hands that object to new).
  const RawMover = m.CharacterMover;
  function CharacterMover(s, t, settings = {}) {
    if (settings === null || typeof settings !== 'object') {
      throw new TypeError(`CharacterMover: settings: expected an object, got ${describe(settings)}`);
    }
    const checked = settings.up === undefined ? settings : { ...settings, up: vec(settings.up, 'CharacterMover: settings.up') };
    return new RawMover(shape(s, 'CharacterMover: shape'), xf(t, 'CharacterMover: xf'), checked);
  }
  CharacterMover.prototype = RawMover.prototype;
  const M = RawMover.prototype;
  const rawMover = { step: M.step, set_transform: M.set_transform };
  M.step = function (world, velocity, dt) {
    return rawMover.step.call(this, world, vec(velocity, 'CharacterMover.step: velocity'), num(dt, 'CharacterMover.step: dt'));
  };
  M.set_transform = function (t) { return rawMover.set_transform.call(this, xf(t, 'CharacterMover.set_transform: xf')); };
  M.toString = function () { return `CharacterMover(at ${pair(this.transform().p)})`; };

  const Rot = {
    /** cos and sin of the angle (radians, counter-clockwise), as C++'s Rot::from_angle computes them. */
    from_angle: (radians) => m.rot_from_angle(radians),
    identity: () => ({ c: 1, s: 0 }),
    /** The angle in [-pi, pi] (pebble's own atan2, the same bits as native). */
    angle: (q) => m.rot_angle(q),
    /** q scaled to unit length, for a rotation composed many times over: queries refuse one whose
     * c*c + s*s is more than 1e-5 off 1. The identity for zero or non-finite q. */
    normalize: (q) => m.rot_normalize(rot(q, 'Rot.normalize: q')),
  };
  const Transform = {
    identity: () => ({ p: { x: 0, y: 0 }, q: { c: 1, s: 0 } }),
    /** A transform from a position and an angle (radians). */
    from: (x, y, angle = 0) => ({ p: { x, y }, q: m.rot_from_angle(angle) }),
  };

  const cast_ray = (s, t, r, radius = 0) => {
    const args = [target(s, 'cast_ray: target'), xf(t, 'cast_ray: xf'), ray(r, 'cast_ray: ray'), num(radius, 'cast_ray: radius')];
    return isSegment(s) ? m.cast_ray_segment(...args) : m.cast_ray(...args);
  };
  const cast_shape = (a, xa, translation_a, b, xb, translation_b, options = {}) =>
    (isSegment(b) ? m.cast_shape_segment : m.cast_shape)(shape(a, 'cast_shape: a'), xf(xa, 'cast_shape: xa'),
      vec(translation_a, 'cast_shape: translation_a'), target(b, 'cast_shape: b'), xf(xb, 'cast_shape: xb'),
      vec(translation_b, 'cast_shape: translation_b'), options.target_separation ?? 0);

  return {
    module: m,
    version: m.version(),
    kMaxPolygonVertices: m.kMaxPolygonVertices(),
    InvalidShape,
    InvalidSettings,
    InvalidArgument,
    InvalidSnapshot,
    Shape: m.Shape,
    Chain: m.Chain,
    ChainSegment: m.ChainSegment,
    Heightfield: m.Heightfield,
    CollisionWorld: m.CollisionWorld,
    CharacterMover,
    Rot,
    Transform,
    hex_id: (id) => m.hex_id(num(id, 'hex_id: id')),
    /** Replays a recording (CollisionWorld.stop_recording()'s bytes) on a new world; checks every call and update. */
    replay: (bytes) => {
      if (!(bytes instanceof Uint8Array)) throw new TypeError(`replay: bytes: expected a Uint8Array, got ${describe(bytes)}`);
      return m.replay(bytes);
    },
    transform_point: (t, v) => m.transform_point(xf(t, 'transform_point: xf'), vec(v, 'transform_point: v')),
    inv_transform_point: (t, v) => m.inv_transform_point(xf(t, 'inv_transform_point: xf'), vec(v, 'inv_transform_point: v')),

    decompose: (list, radius = 0) => m.decompose(points(list, 'decompose: polygon'), num(radius, 'decompose: radius')),
    mass_properties: (shape_or_parts, density = 1) =>
      Array.isArray(shape_or_parts) ? m.mass_properties_parts(shape_or_parts, num(density, 'mass_properties: density'))
        : m.mass_properties(shape(shape_or_parts, 'mass_properties: shape'), num(density, 'mass_properties: density')),
    area: (s) => m.area(shape(s, 'area: shape')),
    bounds: (s, t) => m.bounds(shape(s, 'bounds: shape'), xf(t, 'bounds: xf')),
    project_point: (s, t, p) => m.project_point(shape(s, 'project_point: shape'), xf(t, 'project_point: xf'), vec(p, 'project_point: point')),
    contains: (s, t, p) => m.contains(shape(s, 'contains: shape'), xf(t, 'contains: xf'), vec(p, 'contains: point')),
    collide: (a, xa, b, xb, margin = 0) => {
      const args = [target(a, 'collide: a'), xf(xa, 'collide: xa'), shape(b, 'collide: b'), xf(xb, 'collide: xb'), num(margin, 'collide: margin')];
      return isSegment(a) ? m.collide_segment(...args) : m.collide(...args);
    },
    distance: (a, xa, b, xb) => {
      const args = [target(a, 'distance: a'), xf(xa, 'distance: xa'), shape(b, 'distance: b'), xf(xb, 'distance: xb')];
      return isSegment(a) ? m.distance_segment(...args) : m.distance(...args);
    },
    overlap: (a, xa, b, xb) => m.overlap(shape(a, 'overlap: a'), xf(xa, 'overlap: xa'), shape(b, 'overlap: b'), xf(xb, 'overlap: xb')),
    cast_ray,
    cast_shape,
    /** @deprecated the old name of cast_ray (docs/api-changes.md); goes in the next release. */
    raycast: cast_ray,
    /** @deprecated the old name of cast_shape (docs/api-changes.md); goes in the next release. */
    shape_cast: cast_shape,
    sweep_transform: (s, t) => m.sweep_transform(sweep(s, 'sweep_transform: sweep'), num(t, 'sweep_transform: t')),
    time_of_impact: (a, sweep_a, b, sweep_b, t_max = 1, options = {}) =>
      (isSegment(b) ? m.time_of_impact_segment : m.time_of_impact)(shape(a, 'time_of_impact: a'), sweep(sweep_a, 'time_of_impact: sweep_a'),
        target(b, 'time_of_impact: b'), sweep(sweep_b, 'time_of_impact: sweep_b'), num(t_max, 'time_of_impact: t_max'),
        options.target_separation ?? 0, options.tolerance ?? 0, options.max_iterations ?? 0),
    closest_approach: (a, xa, velocity_a, b, xb, velocity_b, horizon) =>
      (isSegment(b) ? m.closest_approach_segment : m.closest_approach)(shape(a, 'closest_approach: a'), xf(xa, 'closest_approach: xa'),
        vec(velocity_a, 'closest_approach: velocity_a'), target(b, 'closest_approach: b'), xf(xb, 'closest_approach: xb'),
        vec(velocity_b, 'closest_approach: velocity_b'), num(horizon, 'closest_approach: horizon')),
    time_to_collision: (a, xa, velocity_a, b, xb, velocity_b, horizon) =>
      m.time_to_collision(shape(a, 'time_to_collision: a'), xf(xa, 'time_to_collision: xa'), vec(velocity_a, 'time_to_collision: velocity_a'),
        shape(b, 'time_to_collision: b'), xf(xb, 'time_to_collision: xb'), vec(velocity_b, 'time_to_collision: velocity_b'),
        num(horizon, 'time_to_collision: horizon')),
    kNoCollision: Infinity,
    batch: {
      time_to_collision: (shapes_a, states_a, shapes_b, states_b, horizon) =>
        m.batch_time_to_collision(shapes_a, states_a, shapes_b, states_b, horizon),
      closest_approach: (shapes_a, states_a, shapes_b, states_b, horizon) =>
        m.batch_closest_approach(shapes_a, states_a, shapes_b, states_b, horizon),
      distance: (shapes_a, states_a, shapes_b, states_b) => m.batch_distance(shapes_a, states_a, shapes_b, states_b),
      overlap: (shapes_a, states_a, shapes_b, states_b) => m.batch_overlap(shapes_a, states_a, shapes_b, states_b),
    },
    outline_tiles: (grid, max_segment_length = 0) => m.outline_tiles(grid, max_segment_length),
    outline_tile_tops: (grid, max_segment_length = 0) => m.outline_tile_tops(grid, max_segment_length),
  };
}

export default load;
