// The playground's distance panel names the shapes the right way round (issue 34): with A = box
// and B = rounded box it says from "box" to "rounded box", and point_a lies on the box. A chain
// still comes first (a chain segment must be the query's first shape). Debian's chromium, headless.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { serve } from '../tools/serve.mjs';

let server, browser, page;
const problems = [];

before(async () => {
  server = await serve(0);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1320, height: 720 } });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.playground !== undefined, null, { timeout: 30000 });
});

after(async () => {
  await browser?.close();
  server?.close();
});

const distance_panel = (a, b) => page.evaluate(([a, b]) => {
  window.playground.set_mode('distance');
  window.playground.select(a, b);
  const s = window.playground.state();
  return { from: s.from, to: s.to, distance: s.distance, normal: s.normal, point_a: s.point_a, point_b: s.point_b };
}, [a, b]);

test('distance: from A to B, point_a on A', async () => {
  const s = await distance_panel('box', 'rounded box');
  assert.equal(s.from, 'box');
  assert.equal(s.to, 'rounded box');
  // point_a is on the box's surface (the playground's box: half extents 0.6 x 0.4 at (1.0, 2.4), 0.2 rad).
  const gap = await page.evaluate((p) => {
    const pb = window.playground.pebble;
    const o = window.playground.objects().find((x) => x.name === 'box');
    const box = pb.Shape.box(0.6, 0.4);
    const d = pb.project_point(box, pb.Transform.from(o.x, o.y, o.angle), p).distance;
    box.delete();
    return d;
  }, s.point_a);
  assert.ok(Math.abs(gap) < 1e-4, `point_a is ${gap} from the box`);
  // The normal points from A to B: point_b - point_a = normal * distance.
  assert.ok(Math.abs(s.point_b.x - s.point_a.x - s.normal.x * s.distance) < 1e-5);
  assert.ok(Math.abs(s.point_b.y - s.point_a.y - s.normal.y * s.distance) < 1e-5);
  // The other way round, the other way round.
  const r = await distance_panel('rounded box', 'box');
  assert.deepEqual([r.from, r.to], ['rounded box', 'box']);
  assert.ok(Math.abs(r.distance - s.distance) < 1e-6);
});

test('distance: a chain comes first either way', async () => {
  for (const [a, b] of [['circle', 'terrain'], ['terrain', 'circle']]) {
    const s = await distance_panel(a, b);
    assert.deepEqual([s.from, s.to], ['terrain', 'circle'], `${a} / ${b}`);
  }
  assert.deepEqual(problems, []);
});
