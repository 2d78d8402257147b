// Shaped images in Chromium (000 §9 "Shape mask aspect heights: 100 for most shapes, 150 for
// tall, 67 for wide"): a copy of the demo site with one more page of three shaped image
// blocks. Each image fills a frame of its shape's height for its width, clipped to the shape,
// with or without JavaScript; the image loader still loads it; axe finds nothing on the page.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test shapes.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { axe, demoSiteWithPage, problemPage, useServer } from './support.mjs';

const SHAPES = [
  { shape: 'circle', height: 100, clip: 'ellipse(50% 50%)' },
  { shape: 'tall-oval', height: 150, clip: 'ellipse(50% 50%)' },
  { shape: 'wide-rounded', height: 67, clip: 'inset(0px round 8% / 12%)' },
];

const PAGE = `id = "7a1b2c3d4e5f60718293a4b5"
url = "/shapes"
title = "Shapes"
description = "Three photographs in three shapes."
${SHAPES.map(
  ({ shape }, i) => `
[[blocks]]
kind = "image"
id = "7a1b2c3d4e5f60718293a4c${i}"
src = "porch.png"
alt = "The café porch, in a ${shape} frame"
focalPoint = "0.5,0.6"
shape = "${shape}"
`,
).join('')}`;

const env = useServer({
  name: 'shapes',
  site: (dataDir) => demoSiteWithPage(dataDir, 'shapes', PAGE),
});

/** Each shaped frame's shape name, height ÷ width, and its image's clip path and load state. */
const frames = (page) =>
  page.locator('.shape').evaluateAll((spans) =>
    spans.map((span) => {
      const box = span.getBoundingClientRect();
      const img = span.querySelector('img');
      const imgBox = img.getBoundingClientRect();
      return {
        name: [...span.classList].find((c) => c.startsWith('shape-') && !c.startsWith('shape--'))?.slice('shape-'.length),
        ratio: box.height / box.width,
        fills: Math.abs(imgBox.width - box.width) < 1 && Math.abs(imgBox.height - box.height) < 1,
        clip: getComputedStyle(img).clipPath,
        position: getComputedStyle(img).objectPosition,
        loaded: img.complete && img.naturalWidth > 0,
      };
    }),
  );

for (const javaScriptEnabled of [true, false]) {
  test(`shaped images take their shape's height and clip ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, { timeout: 60_000 }, async () => {
    const { context, page, problems } = await problemPage(env, { javaScriptEnabled, viewport: { width: 1200, height: 900 } });
    const response = await page.goto(`${env.base}/shapes`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200, env.serverLog());
    for (const img of await page.locator('.shape img').all()) await img.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => [...document.querySelectorAll('.shape img')].every((i) => i.complete && i.naturalWidth > 0), null, { timeout: 15_000 });
    const seen = await frames(page);
    assert.deepEqual(
      seen.map((f) => f.name),
      SHAPES.map((s) => s.shape),
    );
    SHAPES.forEach(({ shape, height, clip }, i) => {
      assert.ok(Math.abs(seen[i].ratio - height / 100) < 0.01, `${shape}: ${seen[i].ratio} for ${height / 100}`);
      assert.ok(seen[i].fills, `${shape}: the image fills its frame`);
      assert.equal(seen[i].clip, clip, shape);
      assert.equal(seen[i].position, '50% 60%', `${shape}: around its focal point`);
      assert.ok(seen[i].loaded, shape);
    });
    if (javaScriptEnabled) {
      assert.deepEqual(await axe(page), []);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}
