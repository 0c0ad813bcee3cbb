// The determinism test's corpus (tests/determinism/digest.cpp: every query kind, 140k results) run
// by the WebAssembly build: its digest lines must equal expected_digest.txt, the bits every native
// build gives (g++ and clang++, -O0 and -O2, every SIMD path), except for time_of_impact, whose
// sweeps start from Rot::from_angle(a0): std::cos and std::sin of Emscripten's libc (musl) and of
// glibc differ in the last bit for about 1 angle in 60 (docs/web.md, "Same bits as native").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const lines = (text) => Object.fromEntries(text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => {
  const [kind, digest, count] = l.trim().split(/\s+/);
  return [kind, { digest, count }];
}));

test('the WebAssembly build gives the native bits on the determinism corpus (time_of_impact aside: libm)', () => {
  const expected = lines(readFileSync(join(root, 'tests/determinism/expected_digest.txt'), 'utf8'));
  const wasm = lines(execFileSync('node', [join(root, 'build/wasm/pebble_digest.js')], { encoding: 'utf8' }));
  assert.deepEqual(Object.keys(wasm), Object.keys(expected));
  const known = new Set(['toi', 'all']);  // 'all' hashes the toi results too
  for (const kind of Object.keys(expected)) {
    assert.equal(wasm[kind].count, expected[kind].count, kind);
    if (!known.has(kind)) assert.equal(wasm[kind].digest, expected[kind].digest, `${kind}: the WebAssembly bits differ from native`);
  }
  console.log(`# time_of_impact: ${wasm.toi.digest === expected.toi.digest ? 'the same bits' : 'differs (libm cos/sin at the sweeps\' start angles)'}`);
});
