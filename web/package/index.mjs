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

/** Thrown by CollisionWorld.add for a transform the world refuses (std::invalid_argument in C++). */
export class InvalidArgument extends Error {
  constructor(message) {
    super(message);
    this.name = 'InvalidArgument';
  }
}

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null &&
  typeof window === 'undefined';

/**
 * Loads the WebAssembly module and returns the pebble API. Options: `wasmBinary` (the .wasm bytes,
 * when you load them yourself) or `locateFile(name)` (where the .wasm is served from).
 */
export async function load(options = {}) {
  const moduleArgs = { InvalidShape, InvalidArgument, ...options };
  if (isNode && !moduleArgs.wasmBinary && !moduleArgs.locateFile) {
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(new URL('./pebble_wasm.wasm', import.meta.url));
  }
  const m = await createPebbleModule(moduleArgs);
  return wrap(m);
}

function wrap(m) {
  const isSegment = (x) => x instanceof m.ChainSegment;

  // Embind checks argument counts exactly: give the C++ defaults to calls that leave them out.
  const W = m.CollisionWorld.prototype;
  const raw = {};
  for (const name of ['cast_ray', 'cast_circle', 'cast_shape', 'cast_ray_all', 'overlap_point', 'overlap_aabb',
    'overlap_shape', 'add_shape', 'add_parts', 'add_chain', 'collide_shape', 'nearest']) {
    raw[name] = W[name];
  }
  W.add = function add(collider, xf, options) {
    if (Array.isArray(collider)) return raw.add_parts.call(this, collider, xf, options);
    if (collider instanceof m.Chain) return raw.add_chain.call(this, collider, xf, options);
    return raw.add_shape.call(this, collider, xf, options);
  };
  W.add_shape = function (shape, xf, options) { return raw.add_shape.call(this, shape, xf, options); };
  W.add_parts = function (parts, xf, options) { return raw.add_parts.call(this, parts, xf, options); };
  W.add_chain = function (chain, xf, options) { return raw.add_chain.call(this, chain, xf, options); };
  const found = (r) => (r.found ? { id: r.id, part: r.part, hit: r.hit } : null);
  W.cast_ray = function (ray, filter) { return found(raw.cast_ray.call(this, ray, filter)); };
  W.cast_circle = function (ray, radius, filter) { return found(raw.cast_circle.call(this, ray, radius, filter)); };
  W.cast_shape = function (shape, xf, translation, filter) {
    return found(raw.cast_shape.call(this, shape, xf, translation, filter));
  };
  W.cast_ray_all = function (ray, radius = 0, filter) { return raw.cast_ray_all.call(this, ray, radius, filter); };
  W.overlap_point = function (point, filter) { return raw.overlap_point.call(this, point, filter); };
  W.overlap_aabb = function (box, filter) { return raw.overlap_aabb.call(this, box, filter); };
  W.overlap_shape = function (shape, xf, filter) { return raw.overlap_shape.call(this, shape, xf, filter); };
  W.collide_shape = function (shape, xf, margin = 0, filter) { return raw.collide_shape.call(this, shape, xf, margin, filter); };
  W.nearest = function (shape, xf, k, max_distance = Infinity, filter) {
    return raw.nearest.call(this, shape, xf, k, max_distance, filter);
  };
  W.within_radius = function (shape, xf, radius, k = 64, filter) { return raw.nearest.call(this, shape, xf, k, radius, filter); };
  const CharacterMover = m.CharacterMover;
  const M = CharacterMover.prototype;
  const rawMover = { step: M.step };
  M.step = function (world, velocity, dt) { return rawMover.step.call(this, world, velocity, dt); };

  const Rot = {
    /** cos and sin of the angle (radians, counter-clockwise), as C++'s Rot::from_angle computes them. */
    from_angle: (radians) => m.rot_from_angle(radians),
    identity: () => ({ c: 1, s: 0 }),
    /** The angle in (-pi, pi]. */
    angle: (q) => m.rot_angle(q),
  };
  const Transform = {
    identity: () => ({ p: { x: 0, y: 0 }, q: { c: 1, s: 0 } }),
    /** A transform from a position and an angle (radians). */
    from: (x, y, angle = 0) => ({ p: { x, y }, q: m.rot_from_angle(angle) }),
  };

  return {
    module: m,
    version: m.version(),
    kMaxPolygonVertices: m.kMaxPolygonVertices(),
    InvalidShape,
    InvalidArgument,
    Shape: m.Shape,
    Chain: m.Chain,
    ChainSegment: m.ChainSegment,
    CollisionWorld: m.CollisionWorld,
    CharacterMover,
    Stepper: m.Stepper,
    DemoPile: m.DemoPile,
    Rot,
    Transform,
    hex_id: (id) => m.hex_id(id),
    transform_point: (xf, v) => m.transform_point(xf, v),
    inv_transform_point: (xf, v) => m.inv_transform_point(xf, v),

    decompose: (points, radius = 0) => m.decompose(points, radius),
    mass_properties: (shape_or_parts, density = 1) =>
      Array.isArray(shape_or_parts) ? m.mass_properties_parts(shape_or_parts, density) : m.mass_properties(shape_or_parts, density),
    area: (shape) => m.area(shape),
    bounds: (shape, xf) => m.bounds(shape, xf),
    project_point: (shape, xf, p) => m.project_point(shape, xf, p),
    contains: (shape, xf, p) => m.contains(shape, xf, p),
    collide: (a, xa, b, xb, margin = 0) =>
      isSegment(a) ? m.collide_segment(a, xa, b, xb, margin) : m.collide(a, xa, b, xb, margin),
    distance: (a, xa, b, xb) => (isSegment(a) ? m.distance_segment(a, xa, b, xb) : m.distance(a, xa, b, xb)),
    overlap: (a, xa, b, xb) => m.overlap(a, xa, b, xb),
    raycast: (target, xf, ray, radius = 0) =>
      isSegment(target) ? m.raycast_segment(target, xf, ray, radius) : m.raycast(target, xf, ray, radius),
    shape_cast: (a, xa, translation_a, b, xb, translation_b, options = {}) =>
      (isSegment(b) ? m.shape_cast_segment : m.shape_cast)(a, xa, translation_a, b, xb, translation_b,
        options.target_separation ?? 0),
    sweep_transform: (sweep, t) => m.sweep_transform(sweep, t),
    time_of_impact: (a, sweep_a, b, sweep_b, t_max = 1, options = {}) =>
      (isSegment(b) ? m.time_of_impact_segment : m.time_of_impact)(a, sweep_a, b, sweep_b, t_max,
        options.target_separation ?? 0, options.tolerance ?? 0, options.max_iterations ?? 0),
    closest_approach: (a, xa, velocity_a, b, xb, velocity_b, horizon) =>
      (isSegment(b) ? m.closest_approach_segment : m.closest_approach)(a, xa, velocity_a, b, xb, velocity_b, horizon),
    time_to_collision: (a, xa, velocity_a, b, xb, velocity_b, horizon) =>
      m.time_to_collision(a, xa, velocity_a, b, xb, velocity_b, horizon),
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
