// The determinism test's corpus (tests/determinism/digest.cpp: every query kind, 190k results) run
// by the WebAssembly build, the same library build as the npm package's: every digest line must
// equal expected_digest.txt, the bits every native build gives (g++ and clang++, -O0 and -O2, every
// SIMD path, x86-64 and ARM64), time_of_impact and the rotations from angles included: pebble
// computes its own cosine, sine and arctangent (docs/web.md, "Same bits as native").
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

test('the WebAssembly build gives the native bits on the whole determinism corpus', () => {
  const expected = lines(readFileSync(join(root, 'tests/determinism/expected_digest.txt'), 'utf8'));
  const wasm = lines(execFileSync('node', [join(root, 'build/wasm/pebble_digest.js')], { encoding: 'utf8' }));
  assert.deepEqual(Object.keys(wasm), Object.keys(expected));
  for (const kind of Object.keys(expected)) {
    assert.equal(wasm[kind].count, expected[kind].count, kind);
    assert.equal(wasm[kind].digest, expected[kind].digest, `${kind}: the WebAssembly bits differ from native`);
  }
});
