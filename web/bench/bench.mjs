// pebble's WebAssembly build against planck.js (from npm) in Node: scripts/web.sh bench. The
// scenes and the method are in web/site/bench_core.mjs; the same code runs in the browser at
// /bench.html (scripts/web.sh serve). Prints a Markdown table (docs/web.md).
import * as planck from 'planck';
import { load } from '../../build/wasm/pkg/index.mjs';
import { run_all, table } from '../site/bench_core.mjs';

const pb = await load();
const { rows, record_ms } = run_all(pb, planck);
console.log(`node ${process.version}, planck ${JSON.parse(await (await import('node:fs/promises')).readFile(new URL('../node_modules/planck/package.json', import.meta.url))).version}, pebble ${pb.version} (pile recorded by the sandbox stepper in ${record_ms.toFixed(0)} ms)\n`);
console.log(table(rows));
