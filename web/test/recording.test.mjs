// Recording in the browser build, replayed by the native program: a world driven from JavaScript
// records its calls (CollisionWorld.start_recording/stop_recording); replay() in WebAssembly and
// `pebble replay FILE` natively (PEBBLE_QUERY, the native program scripts/web.sh test passes) both
// find every update's digest equal: the two builds agree bit for bit on the whole run.
// Uses the package folder of PEBBLE_WASM_DIR (default build/wasm; scripts/web.sh builds it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const pkg = join(resolve(root, process.env.PEBBLE_WASM_DIR ?? 'build/wasm'), 'pkg');
const { load } = await import(pathToFileURL(join(pkg, 'index.mjs')).href);
const native = process.env.PEBBLE_QUERY ? resolve(root, process.env.PEBBLE_QUERY) : null;

test('a recording made in WebAssembly replays in WebAssembly and natively with every digest equal', async () => {
  const pb = await load();
  const world = new pb.CollisionWorld();
  world.start_recording();
  assert.equal(world.recording(), true);
  world.add(pb.Chain.open([{ x: 8, y: 0 }, { x: 0, y: -1 }, { x: -8, y: 0 }]), pb.Transform.identity());
  const ids = [];
  for (let i = 0; i < 30; ++i) {
    const s = i % 3 === 0 ? pb.Shape.circle(0.4) : i % 3 === 1 ? pb.Shape.capsule({ x: -0.3, y: 0 }, { x: 0.3, y: 0 }, 0.2)
      : pb.Shape.rounded_box(0.4, 0.3, 0.1);
    ids.push(world.add(s, pb.Transform.from(-6 + 0.45 * i, 0.3 * (i % 4), 0.2 * i)));
  }
  const digests = [];
  for (let step = 0; step < 40; ++step) {
    ids.forEach((id, k) => world.set_transform(id, pb.Transform.from(-6 + 0.45 * k + 0.01 * step, 0.3 * (k % 4) - 0.02 * step, 0.2 * k + 0.03 * step)));
    if (step === 20) world.remove(ids[5]);
    world.update();
    digests.push(world.update_digest());
  }
  const bytes = world.stop_recording();
  assert.equal(world.recording(), false);
  assert.ok(bytes instanceof Uint8Array && bytes.length > 1000);
  assert.ok(world.contact_count() > 0);

  const report = pb.replay(bytes);
  assert.equal(report.mismatches, 0, report.first_problem);
  assert.equal(report.updates, 40);
  assert.equal(report.digest, digests[digests.length - 1]);

  const changed = bytes.slice();
  changed[changed.length - 12] ^= 1;
  assert.equal(pb.replay(changed).mismatches, 1);
  assert.throws(() => pb.replay(new Uint8Array([1, 2, 3])), /not a pebble recording/);
  assert.throws(() => pb.replay('bytes'), TypeError);

  if (native) {
    const file = join(mkdtempSync(join(tmpdir(), 'pebble-rec-')), 'wasm.rec');
    writeFileSync(file, bytes);
    const out = execFileSync(native, ['replay', file], { encoding: 'utf8' });
    assert.match(out, /every call and update agrees/);
    assert.ok(out.includes(`digest ${digests[digests.length - 1]}`), out);
  }
});
