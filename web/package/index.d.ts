// TypeScript declarations of pebble's JavaScript API (index.mjs). Names, fields, frames and signs
// are those of the C++ headers (include/pebble/): metres, radians, y up, counter-clockwise cores,
// outward normals; results are in world space, normals are unit vectors from A to B, signed
// distances and separations are negative when the shapes overlap. Every number is a 32-bit float
// in C++: values passed in are rounded to float, values returned are floats.

/** A 2D vector or point. */
export interface Vec2 { x: number; y: number; }
/** A rotation as cosine and sine of its angle. */
export interface Rot { c: number; s: number; }
/** A rigid motion mapping local coordinates to world: world = q * local + p. */
export interface Transform { p: Vec2; q: Rot; }
/** An axis-aligned box by its lower-left and upper-right corners. */
export interface Aabb { lower: Vec2; upper: Vec2; }
/** A ray from origin to origin + translation (world). */
export interface Ray { origin: Vec2; translation: Vec2; }
/** A Vec2 as an argument: an object {x, y} or an [x, y] array. */
export type Vec2Like = Vec2 | readonly [number, number];
/** A Transform as an argument: its position may be an [x, y] array. */
export interface TransformLike { p: Vec2Like; q: Rot; }
/** A Ray as an argument. */
export interface RayLike { origin: Vec2Like; translation: Vec2Like; }
/** An Aabb as an argument. */
export interface AabbLike { lower: Vec2Like; upper: Vec2Like; }
/** Points as objects or as [x, y] pairs. */
export type Points = ReadonlyArray<Vec2Like>;

/** Thrown by the shape makers for input they refuse; the message is C++'s InvalidShape message. */
export class InvalidShape extends Error {}
/** Thrown for settings that are not a shape (new CharacterMover's); an InvalidShape for one release, as in C++. */
export class InvalidSettings extends InvalidShape {}
/** Thrown by CollisionWorld.add for an invalid transform (C++: std::invalid_argument). */
export class InvalidArgument extends Error {}
/** Thrown by CollisionWorld.restore for truncated, corrupt or foreign bytes (C++: InvalidSnapshot). */
export class InvalidSnapshot extends Error {}

/** An object living in the WebAssembly heap: call delete() when done with it. */
export interface WasmObject {
  delete(): void;
  isDeleted(): boolean;
  clone(): this;
}

/** A convex core of 1..8 vertices grown by a radius (circle, capsule, segment, box, polygon, rounded). */
export interface Shape extends WasmObject {
  /** Core vertices: 1 (circle), 2 (capsule, segment) or 3..kMaxPolygonVertices. */
  vertex_count(): number;
  /** 0 for a point core, 2 for a segment core (both sides), else vertex_count(). */
  edge_count(): number;
  /** Core vertices in the shape's frame, counter-clockwise. */
  vertices(): Vec2[];
  /** Outward unit normal of edge i (from vertex i to vertex i + 1), shape frame. */
  normal(i: number): Vec2;
  /** Radius of the disc the core is grown by (>= 0). */
  radius(): number;
  /** Area centroid of the core, shape frame. */
  core_centroid(): Vec2;
  /** Radius of the smallest disc about core_centroid() holding the whole shape. */
  extent(): number;
}
export interface ShapeMakers {
  /** A disc of radius >= 0 centred at center (shape frame). */
  circle(radius: number, center?: Vec2Like): Shape;
  /** The points within radius of segment ab; capsule(a, a, r) is a circle. */
  capsule(a: Vec2Like, b: Vec2Like, radius: number): Shape;
  /** A capsule of radius 0. */
  segment(a: Vec2Like, b: Vec2Like): Shape;
  /** A box centred on the origin (or at center, turned by angle) with half extents > 0. */
  box(half_width: number, half_height: number): Shape;
  box(half_width: number, half_height: number, center: Vec2Like, angle: number): Shape;
  /** OUTER half extents, corners rounded by corner_radius (<= the smaller half extent). */
  rounded_box(half_width: number, half_height: number, corner_radius: number): Shape;
  /** The convex hull of the points (welded, collinear points removed), grown by radius. */
  polygon(points: Points, radius?: number): Shape;
}

/** One segment of a chain: one-sided (it collides on the right of a -> b), with ghost vertices. */
export interface ChainSegment extends WasmObject {
  readonly a: Vec2;
  readonly b: Vec2;
  /** Outward unit normal: the right perpendicular of b - a. */
  readonly normal: Vec2;
  readonly ghost_prev: Vec2;
  readonly ghost_next: Vec2;
  readonly has_prev: boolean;
  readonly has_next: boolean;
  /** The segment as a 2-vertex Shape of radius 0. */
  shape(): Shape;
}
/** One-sided terrain: points run counter-clockwise around the solid. */
export interface Chain extends WasmObject {
  segment_count(): number;
  segment(i: number): ChainSegment;
  points(): Vec2[];
  closed(): boolean;
}
export interface ChainMakers {
  /** An open chain of >= 2 points. */
  open(points: Points): Chain;
  /** A closed loop of >= 3 points. */
  loop(points: Points): Chain;
}

/** Terrain as heights at x = i * spacing, solid below, one-sided on top; cell i is part i in a world. */
export interface Heightfield extends WasmObject {
  cell_count(): number;
  /** Cell i (x from i * spacing to (i + 1) * spacing) as a chain segment a -> b, a its right end. */
  cell(i: number): ChainSegment;
  heights(): Float32Array;
  spacing(): number;
  /** (i * spacing, heights[i]) in the field's frame. */
  point(i: number): Vec2;
  /** The same terrain as an open Chain (its segment k is cell cell_count() - 1 - k). */
  chain(): Chain;
}
export interface HeightfieldMakers {
  /** A field of heights.length - 1 cells; throws InvalidShape naming the problem. */
  make(heights: number[] | Float32Array | Float64Array, spacing: number): Heightfield;
}

export interface MassProperties { mass: number; /** shape frame */ center: Vec2; /** about center */ inertia: number; }
export interface ProjectionResult {
  /** Closest point of the boundary. */ point: Vec2;
  /** Outward unit normal there. */ normal: Vec2;
  /** Signed distance from the boundary to the query point (< 0 inside). */ distance: number;
  inside: boolean;
}
export interface ContactPoint {
  /** Midway between the two surfaces (world). */ point: Vec2;
  /** Signed gap along the normal; < 0 is penetration. */ separation: number;
  /** Feature key (uint32): the same from frame to frame while the same features touch. */ id: number;
}
export interface Manifold {
  /** Unit, world, from A to B. */ normal: Vec2;
  /** 0, 1 or 2. */ count: number;
  /** count entries. */ points: ContactPoint[];
}
export interface DistanceResult {
  /** > 0 apart, 0 touching, < 0 overlapping (minus the penetration depth). */ distance: number;
  /** Unit, from A to B. */ normal: Vec2;
  /** On A's surface. */ point_a: Vec2;
  /** On B's surface; point_b - point_a = normal * distance. */ point_b: Vec2;
}
export interface CastResult {
  hit: boolean;
  /** Of the translation at the first touch, in [0, 1]; 1 without a hit. */ fraction: number;
  point: Vec2;
  /** The target's outward normal for rays; from A to B for cast_shape; {0,0} when starting inside. */ normal: Vec2;
}
/** A shape's motion over [0, 1]: its rotation centre (shape frame), that centre's world position and the angle at t = 0 and t = 1. */
export interface Sweep { local_center: Vec2; c0: Vec2; c1: Vec2; a0: number; a1: number; }
/** A Sweep as an argument. */
export interface SweepLike { local_center: Vec2Like; c0: Vec2Like; c1: Vec2Like; a0: number; a1: number; }
export interface ToiResult {
  state: 'hit' | 'separated' | 'overlapped' | 'failed';
  /** Time in [0, t_max]. */ fraction: number;
  /** Hit or overlapped: midway between the closest points, else {0,0}. */ point: Vec2;
  /** Hit or overlapped: unit, from A to B, else {0,0}. */ normal: Vec2;
}
export interface ApproachResult {
  /** They touch or overlap at some time within the horizon. */ hit: boolean;
  /** The first touch, or the time of least distance. */ time: number;
  distance: number;
  point_a: Vec2;
  point_b: Vec2;
  /** Unit, from A to B. */ normal: Vec2;
}
export interface ShapeCastOptions { /** Stop this far apart instead of touching. */ target_separation?: number; }
export interface ToiOptions { target_separation?: number; tolerance?: number; max_iterations?: number; }
export interface TileGrid {
  columns: number;
  rows: number;
  /** columns * rows cells, row 0 at the bottom; nonzero is solid. */
  solid: ArrayLike<number>;
  /** Lower-left corner of cell (0, 0); default {0, 0}. */ origin?: Vec2;
  /** Default {1, 1}. */ cell_size?: Vec2;
}
export interface Outline { points: Vec2[]; closed: boolean; }

/** Names one collider of one CollisionWorld. */
export interface ColliderId { index: number; generation: number; world: number; }
export interface Filter { category?: number; mask?: number; group?: number; }
export interface ColliderOptions {
  filter?: Filter;
  /** Never (or rarely) moves; chains default to fixed. */ fixed?: boolean;
  sensor?: boolean;
  /** Any integer up to 2^53. */ user_data?: number;
  fresh_contacts?: boolean;
}
export interface QueryFilter { mask?: number; sensors?: boolean; /** false: only colliders that move (default true) */ fixed?: boolean; }
export interface WorldSettings {
  /** contacts() holds the pairs at most this far apart (m); default 0.02. */ contact_margin?: number;
  reuse_contacts?: boolean;
  /** How far a touching pair may move before it is collided again: "box2d_v3" (0.05 m, 0.2 rad) or {distance, angle}; default: the contract's bounds (docs/world.md). */
  reuse_bounds?: "box2d_v3" | { distance?: number; angle?: number };
  /** The moving tree's fat-box margin (m); default 0.1. */ tree_margin?: number;
}
export interface ContactPair { a: ColliderId; b: ColliderId; part_a: number; part_b: number; /** from a to b */ manifold: Manifold; }
export interface ContactEvent { a: ColliderId; b: ColliderId; part_a: number; part_b: number; }
export interface WorldCastResult { id: ColliderId; part: number; hit: CastResult; }
/** @deprecated the old name of ProjectionResult (docs/api-changes.md). */
export type PointProjection = ProjectionResult;
/** @deprecated the old name of CastResult (docs/api-changes.md). */
export type CastHit = CastResult;
/** @deprecated the old name of ApproachResult (docs/api-changes.md). */
export type Approach = ApproachResult;
/** @deprecated the old name of WorldCastResult (docs/api-changes.md). */
export type RayResult = WorldCastResult;
export interface WorldStats {
  colliders: number; fixed: number; pairs: number; contacts: number; collided: number; reused: number;
  separated: number; new_pairs: number; part_slots: number;
}

/** A scene of colliders: broadphase (AABB trees), narrowphase, persistent contacts, scene queries. */
export interface CollisionWorld extends WasmObject {
  /** A shape, a compound (array of shapes in the collider's frame), a chain or a heightfield; options or user_data. */
  add(collider: Shape | Shape[] | Chain | Heightfield, xf: TransformLike, options?: ColliderOptions | number): ColliderId;
  add_shape(shape: Shape, xf: TransformLike, options?: ColliderOptions | number): ColliderId;
  add_parts(parts: Shape[], xf: TransformLike, options?: ColliderOptions | number): ColliderId;
  add_chain(chain: Chain, xf: TransformLike, options?: ColliderOptions | number): ColliderId;
  /** A heightfield, fixed unless the options say otherwise; contacts and hits name the cell. */
  add_heightfield(field: Heightfield, xf: TransformLike, options?: ColliderOptions | number): ColliderId;
  remove(id: ColliderId): boolean;
  /** The whole state (docs/world.md, "Snapshot and restore"); CollisionWorld.restore(bytes) gives it back. */
  save(): Uint8Array;
  set_transform(id: ColliderId, xf: TransformLike): boolean;
  set_shape(id: ColliderId, shape: Shape): boolean;
  set_user_data(id: ColliderId, user_data: number): boolean;
  contains(id: ColliderId): boolean;
  size(): number;
  part_count(id: ColliderId): number;
  transform(id: ColliderId): Transform | null;
  user_data(id: ColliderId): number | null;
  /** The box the trees hold for it. */
  box(id: ColliderId): Aabb;
  /** Registers a collider for set_transforms(), in order. */
  track(id: ColliderId): void;
  /** Moves the tracked colliders: poses holds x, y, cos, sin per collider, in track() order. Returns how many moved. */
  set_transforms(poses: Float32Array | ArrayLike<number>): number;
  /** Broadphase and narrowphase: brings contacts() and the events up to date. */
  update(): void;
  /** Records every call that changes the world, in memory (C++ start_recording). Only on a new world. */
  start_recording(): void;
  /** Stops recording and returns the recording's bytes (what `pebble replay FILE` and replay() read). */
  stop_recording(): Uint8Array;
  recording(): boolean;
  /** The last update's digest (contacts and events, every bit) as 16 hex digits. */
  update_digest(): string;
  contact_count(): number;
  contacts(): ContactPair[];
  touch_begin_events(): ContactEvent[];
  touch_end_events(): ContactEvent[];
  /** @deprecated the old name of touch_begin_events (docs/api-changes.md). */
  begin_touch_events(): ContactEvent[];
  /** @deprecated the old name of touch_end_events (docs/api-changes.md). */
  end_touch_events(): ContactEvent[];
  stats(): WorldStats;
  /** The closest hit, or null. */
  cast_ray(ray: RayLike, filter?: QueryFilter): WorldCastResult | null;
  cast_circle(ray: RayLike, radius: number, filter?: QueryFilter): WorldCastResult | null;
  /** hit.normal is the collider's outward normal. */
  cast_shape(shape: Shape, xf: TransformLike, translation: Vec2Like, filter?: QueryFilter): WorldCastResult | null;
  /** Every hit of the ray (radius 0) or circle, by fraction. */
  cast_ray_all(ray: RayLike, radius?: number, filter?: QueryFilter): WorldCastResult[];
  /** Many rays in one call: origin x, y, translation x, y per ray; per ray the closest hit's fraction (1: none) and collider index (-1: none). */
  cast_rays(rays: Float32Array | ArrayLike<number>): { fraction: Float32Array; index: Int32Array };
  overlap_point(point: Vec2Like, filter?: QueryFilter): ColliderId[];
  overlap_aabb(box: AabbLike, filter?: QueryFilter): ColliderId[];
  overlap_shape(shape: Shape, xf: TransformLike, filter?: QueryFilter): ColliderId[];
  /** The contacts the shape at xf would have, per collider part within margin; each manifold's normal points from the collider to the shape. */
  collide_shape(shape: Shape, xf: TransformLike, margin?: number, filter?: QueryFilter): { id: ColliderId; part: number; manifold: Manifold }[];
  /** The k colliders nearest the shape by distance() to their nearest part (signed, < 0 overlapping), within max_distance, nearest first. */
  nearest(shape: Shape, xf: TransformLike, k: number, max_distance?: number, filter?: QueryFilter): Neighbor[];
  /** The colliders within radius of the shape, nearest first (at most k, default 64). */
  within_radius(shape: Shape, xf: TransformLike, radius: number, k?: number, filter?: QueryFilter): Neighbor[];
  /** The parts whose tree boxes overlap the box (no exact test: the candidates of any query confined to it), moving colliders first. Each shape and segment is a copy: delete() it. */
  parts_in_box(box: AabbLike, filter?: QueryFilter): PartView[];
}

/** A collider found by nearest / within_radius. */
export interface Neighbor { id: ColliderId; part: number; distance: number; }
/** A part found by parts_in_box: its shape in the collider's frame, its chain segment (with ghost vertices) or null, the collider's transform, the part's world box. */
export interface PartView { id: ColliderId; part: number; shape: Shape; segment: ChainSegment | null; xf: Transform; box: Aabb; fixed: boolean; }

/** CharacterMover's settings (lengths in world units, angles in radians); missing fields keep the C++ defaults (docs/mover.md). */
export interface MoverSettings {
  /** default {x: 0, y: 1} */ up?: Vec2Like;
  /** default 50 degrees: steeper surfaces are walls */ max_slope?: number;
  /** default 0.3 */ step_height?: number;
  /** default 0.2 */ snap_distance?: number;
  /** default 0.01: the gap kept to colliders */ skin?: number;
  /** default 10 per second */ push_speed?: number;
  /** default 8 */ max_iterations?: number;
  filter?: QueryFilter;
}
export interface MoverGround { grounded: boolean; /** unit, world */ normal: Vec2; point: Vec2; collider: ColliderId; part: number; }
export interface MoverStep {
  transform: Transform;
  /** the velocity asked, clipped by what the mover met: feed it back, plus gravity */ velocity: Vec2;
  ground: MoverGround;
  stepped: boolean;
  snapped: boolean;
  pushed: boolean;
}
/** A character of any shape moved through a world one step at a time (pebble/mover.hpp). The constructor throws InvalidSettings (an InvalidShape) for unusable settings. */
export interface CharacterMover extends WasmObject {
  /** Moves by velocity * dt (world frame); dt <= 0 or non-finite input: no motion. */
  step(world: CollisionWorld, velocity: Vec2Like, dt: number): MoverStep;
  transform(): Transform;
  /** Teleports (no casts; the ground is forgotten). */
  set_transform(xf: TransformLike): void;
  /** The mover's own collider, which its queries then ignore. */
  set_self(id: ColliderId): void;
}

/** What replay() found. */
export interface ReplayReport {
  calls: number;
  updates: number;
  mismatches: number;
  first_mismatch: number;
  /** The last update's digest, 16 hex digits. */
  digest: string;
  first_problem: string;
}

export interface Pebble {
  readonly version: string;
  readonly kMaxPolygonVertices: number;
  readonly InvalidShape: typeof InvalidShape;
  readonly InvalidSettings: typeof InvalidSettings;
  readonly InvalidArgument: typeof InvalidArgument;
  readonly InvalidSnapshot: typeof InvalidSnapshot;
  readonly Shape: ShapeMakers;
  readonly Chain: ChainMakers;
  readonly CollisionWorld: {
    new (settings?: WorldSettings): CollisionWorld;
    /** The world save() wrote, with the same ids; throws InvalidSnapshot naming the problem otherwise. */
    restore(bytes: Uint8Array): CollisionWorld;
  };
  readonly Heightfield: HeightfieldMakers;
  readonly CharacterMover: { new (shape: Shape, xf: TransformLike, settings?: MoverSettings): CharacterMover };
  readonly ChainSegment: Function;
  readonly Rot: { from_angle(radians: number): Rot; identity(): Rot; angle(q: Rot): number; normalize(q: Rot): Rot };
  readonly Transform: { identity(): Transform; from(x: number, y: number, angle?: number): Transform };
  /** The raw Emscripten module. */
  readonly module: unknown;
  /** A feature id as "0x%08x", as `pebble query` prints it. */
  hex_id(id: number): string;
  /** Replays a recording on a new world, checking every call's result and update's digest. Throws InvalidArgument for bytes that are not a recording. */
  replay(bytes: Uint8Array): ReplayReport;
  transform_point(xf: TransformLike, v: Vec2Like): Vec2;
  inv_transform_point(xf: TransformLike, v: Vec2Like): Vec2;

  /** A simple (concave) polygon, either winding, into convex shapes of at most 8 corners grown by radius. */
  decompose(polygon: Points, radius?: number): Shape[];
  /** Of a shape, or of a compound's parts (taken as disjoint). Density >= 0. */
  mass_properties(shape_or_parts: Shape | Shape[], density?: number): MassProperties;
  area(shape: Shape): number;
  /** Tight world box, radius included. */
  bounds(shape: Shape, xf: TransformLike): Aabb;
  project_point(shape: Shape, xf: TransformLike, point: Vec2Like): ProjectionResult;
  contains(shape: Shape, xf: TransformLike, point: Vec2Like): boolean;
  /** Contact points whose separation is at most margin; a may be a chain segment. */
  collide(a: Shape | ChainSegment, xa: TransformLike, b: Shape, xb: TransformLike, margin?: number): Manifold;
  distance(a: Shape | ChainSegment, xa: TransformLike, b: Shape, xb: TransformLike): DistanceResult;
  overlap(a: Shape, xa: TransformLike, b: Shape, xb: TransformLike): boolean;
  /** A ray (radius 0) or a circle cast (radius > 0) against a shape or a one-sided chain segment. */
  cast_ray(target: Shape | ChainSegment, xf: TransformLike, ray: RayLike, radius?: number): CastResult;
  /** First fraction in [0, 1] at which the translating shapes touch; normal from A to B. */
  cast_shape(a: Shape, xa: TransformLike, translation_a: Vec2Like, b: Shape | ChainSegment, xb: TransformLike, translation_b: Vec2Like,
    options?: ShapeCastOptions): CastResult;
  /** @deprecated the old name of cast_ray (docs/api-changes.md). */
  raycast(target: Shape | ChainSegment, xf: TransformLike, ray: RayLike, radius?: number): CastResult;
  /** @deprecated the old name of cast_shape (docs/api-changes.md). */
  shape_cast(a: Shape, xa: TransformLike, translation_a: Vec2Like, b: Shape | ChainSegment, xb: TransformLike, translation_b: Vec2Like,
    options?: ShapeCastOptions): CastResult;
  sweep_transform(sweep: SweepLike, t: number): Transform;
  /** Translating and turning shapes: the first touch, never tunnelling. */
  time_of_impact(a: Shape, sweep_a: SweepLike, b: Shape | ChainSegment, sweep_b: SweepLike, t_max?: number, options?: ToiOptions): ToiResult;
  /** Time in [0, horizon] of least distance, or of first touch, in linear motion. */
  closest_approach(a: Shape, xa: TransformLike, velocity_a: Vec2Like, b: Shape | ChainSegment, xb: TransformLike, velocity_b: Vec2Like,
    horizon: number): ApproachResult;
  /** First time in [0, horizon] the shapes touch in linear motion (0 when touching at the start), or Infinity. */
  time_to_collision(a: Shape, xa: TransformLike, velocity_a: Vec2Like, b: Shape, xb: TransformLike, velocity_b: Vec2Like, horizon: number): number;
  /** time_to_collision's answer when the shapes do not touch by the horizon (Infinity). */
  readonly kNoCollision: number;
  /** Many pairs per call (pebble/batch.hpp); disc pairs run in SIMD lanes where the build has them. */
  batch: BatchQueries;
  /** A tile map's solid cells as loops for chains. */
  outline_tiles(grid: TileGrid, max_segment_length?: number): Outline[];
  /** Only the tops of the solid cells (one-way platforms), as open chains. */
  outline_tile_tops(grid: TileGrid, max_segment_length?: number): Outline[];
}

/**
 * The batch queries: pair i is (shapes_a[i] or the one shape_a, states_a body i or its one body) against the same
 * of b. States hold 6 numbers per body: x, y, c, s (the rotation), velocity x, velocity y. Arrays of different
 * lengths (other than 1) throw InvalidArgument. Item i equals the single query on pair i, bit for bit.
 */
export interface BatchQueries {
  time_to_collision(shapes_a: Shape | Shape[], states_a: ArrayLike<number>, shapes_b: Shape | Shape[], states_b: ArrayLike<number>,
    horizon: number): Float32Array;
  closest_approach(shapes_a: Shape | Shape[], states_a: ArrayLike<number>, shapes_b: Shape | Shape[], states_b: ArrayLike<number>,
    horizon: number): BatchApproach;
  distance(shapes_a: Shape | Shape[], states_a: ArrayLike<number>, shapes_b: Shape | Shape[], states_b: ArrayLike<number>): BatchDistance;
  /** 1 where the pair touches or overlaps. */
  overlap(shapes_a: Shape | Shape[], states_a: ArrayLike<number>, shapes_b: Shape | Shape[], states_b: ArrayLike<number>): Uint8Array;
}

/** Per pair: hit (0 or 1), time, distance; point_a, point_b and normal as x, y pairs. */
export interface BatchApproach {
  hit: Uint8Array;
  time: Float32Array;
  distance: Float32Array;
  point_a: Float32Array;
  point_b: Float32Array;
  normal: Float32Array;
}

/** Per pair: distance; normal, point_a and point_b as x, y pairs. */
export interface BatchDistance {
  distance: Float32Array;
  normal: Float32Array;
  point_a: Float32Array;
  point_b: Float32Array;
}

export interface LoadOptions {
  /** The .wasm bytes, when you load them yourself. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where a file of the package (pebble_wasm.wasm) is served from. */
  locateFile?: (name: string, prefix: string) => string;
}
/** Loads the WebAssembly module (fetch in a browser, the file system in Node) and returns the API. */
export function load(options?: LoadOptions): Promise<Pebble>;
export default load;
