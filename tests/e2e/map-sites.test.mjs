// The map island with a site's own `[maps]` settings, in Chromium. Each server serves a copy
// of the demo site with a `[maps]` table added; nothing leaves the machine (tile and script
// addresses are answered here, every other outside address with 204).
//
// - A site with imagery, label-overlay, relief and unlabelled tiles: the contact map switches
//   to them as its block data asks for Satellite, terrain or no labels, and back.
// - A site with a Google Maps key: the page loads Google's script with the key, language and
//   region, and draws the map with the block's options (a stand-in `google.maps` records the
//   calls); new block data reaches Google as the map type it names. When the script fails, the
//   address fallback is what shows.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test map-sites.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { assertMapFallback, demoSiteWith, quietContext, useServer, watchedPage } from './support.mjs';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const MAP_BLOCK = '#block-376abb23787fb6bb544e37f2';
/** The contact map's block data, as the site has it. */
const CONTACT_MAP = {
  mapLat: 40.720882,
  mapLng: -74.000988,
  mapZoom: 15,
  addressTitle: 'Veranda Café & Supply',
  style: 'Grayscale',
};

/**
 * A stand-in for Google's Maps script: `google.maps.Map` and `Marker` record what they are
 * given in `window.__googleCalls`, and the script calls the callback its address names.
 */
const FAKE_GOOGLE = `
(() => {
  const calls = (window.__googleCalls = []);
  class Map {
    constructor(el, options) {
      calls.push(['Map', { label: el.getAttribute('aria-label'), ...options }]);
      el.append(Object.assign(document.createElement('div'), { className: 'fake-google-map' }));
    }
    setOptions(o) { calls.push(['setOptions', o]); }
    setCenter(c) { calls.push(['setCenter', c]); }
    panTo(c) { calls.push(['panTo', c]); }
    setZoom(z) { calls.push(['setZoom', z]); }
  }
  class Marker {
    constructor(o) { calls.push(['Marker', { position: o.position, title: o.title, draggable: o.draggable }]); }
    setPosition(p) { calls.push(['setPosition', p]); }
    setTitle(t) { calls.push(['setTitle', t]); }
    setDraggable(d) { calls.push(['setDraggable', d]); }
    addListener(name) { calls.push(['addListener', name]); return { remove() {} }; }
    setMap() {}
  }
  window.google = { maps: { Map, Marker } };
  const callback = new URL(document.currentScript.src).searchParams.get('callback');
  setTimeout(() => window[callback](), 0);
})();
`;

/** One server for a copy of the demo site with `mapsToml` added, and a browser. */
const siteWith = (mapsToml) => useServer({ name: 'map-sites', site: (dataDir) => demoSiteWith(dataDir, mapsToml) });

/**
 * The contact page with outside addresses answered by `answer(url)` (a route.fulfill options
 * object, or null for 204); every outside address asked for is in `requests`.
 */
async function openContact(env, answer) {
  const requests = [];
  const outside = (route, url) => {
    requests.push(url.href);
    const answered = answer(url.href);
    return answered ? route.fulfill(answered) : undefined;
  };
  const context = await quietContext(env, { reducedMotion: 'reduce', viewport: { width: 1200, height: 900 } }, { outside });
  const { page, errors, console } = await watchedPage(context);
  await page.goto(`${env.base}/contact`, { waitUntil: 'load' });
  await page.locator(MAP_BLOCK).scrollIntoViewIfNeeded();
  return { context, page, errors, console, requests };
}

/** Sends the map block new data, as the editor's live changes do. */
function sendBlockData(page, data) {
  return page.locator(MAP_BLOCK).evaluate(
    (el, detail) => el.dispatchEvent(new CustomEvent('veranda:block-data', { detail })),
    data,
  );
}

describe('a site with tiles for each look', () => {
  const env = siteWith(`[maps]
tileUrl = "https://streets.tiles.test/{z}/{x}/{y}.png"
satelliteTileUrl = "https://imagery.tiles.test/{z}/{y}/{x}.jpg"
labelOverlayUrl = "https://labels.tiles.test/{z}/{x}/{y}.png"
terrainTileUrl = "https://relief.tiles.test/{z}/{x}/{y}.png"
unlabelledTileUrl = "https://plain.tiles.test/{z}/{x}/{y}.png"
tileAttribution = "Streets, imagery and relief: Example Tiles"`);

  test('the map switches tiles for Satellite, labels and terrain, and back', { timeout: 90_000 }, async () => {
    const png = (url) => (url.includes('.tiles.test/') ? { status: 200, contentType: 'image/png', body: PNG } : null);
    const { context, page, errors, requests } = await openContact(env, png);
    const canvas = page.locator(`${MAP_BLOCK} .map-canvas`);
    await canvas.locator('.leaflet-tile-loaded').first().waitFor({ timeout: 20_000 });
    const hosts = () => new Set(requests.map((u) => new URL(u).host));
    assert.deepEqual([...hosts()].filter((h) => h.endsWith('.tiles.test')), ['streets.tiles.test']);
    assert.equal(await canvas.getAttribute('class').then((c) => c.includes('map-canvas--grayscale')), true);
    assert.match(await page.locator(`${MAP_BLOCK} .leaflet-control-attribution`).innerText(), /Example Tiles/);

    /** Waits until a tile from `host` has loaded into the map. */
    const tileFrom = (host) =>
      page.waitForFunction(
        (h) => [...document.querySelectorAll('.block--map img.leaflet-tile-loaded')].some((img) => img.src.includes(h)),
        host,
        { timeout: 20_000 },
      );

    await sendBlockData(page, { ...CONTACT_MAP, style: 'Satellite' });
    await tileFrom('imagery.tiles.test');
    await tileFrom('labels.tiles.test');
    assert.ok(requests.some((u) => /^https:\/\/imagery\.tiles\.test\/15\/\d+\/\d+\.jpg$/.test(u)), requests.join('\n'));
    assert.ok(await canvas.evaluate((el) => el.classList.contains('map-canvas--unfiltered')), 'imagery is drawn unfiltered');
    assert.equal(await page.locator(`${MAP_BLOCK} .map-label-overlay`).count(), 1, 'one label overlay');

    await sendBlockData(page, { ...CONTACT_MAP, style: 'Satellite', showLabels: false });
    await page.locator(`${MAP_BLOCK} .map-label-overlay`).waitFor({ state: 'detached', timeout: 10_000 });

    await sendBlockData(page, { ...CONTACT_MAP, style: 'MinimalDark', showTerrain: true });
    await tileFrom('relief.tiles.test');
    assert.ok(await canvas.evaluate((el) => el.classList.contains('map-canvas--minimaldark')));
    assert.equal(await page.locator(`${MAP_BLOCK} img.leaflet-tile[src*="imagery.tiles.test"]`).count(), 0, 'the imagery is gone');

    await sendBlockData(page, { ...CONTACT_MAP, showLabels: false });
    await tileFrom('plain.tiles.test');

    await sendBlockData(page, CONTACT_MAP);
    await page.waitForFunction(
      () => {
        const tiles = [...document.querySelectorAll('.block--map img.leaflet-tile')];
        return tiles.length > 0 && tiles.every((img) => img.src.includes('streets.tiles.test'));
      },
      null,
      { timeout: 20_000 },
    );
    assert.ok(!requests.some((u) => u.startsWith('https://tile.openstreetmap.org/')), 'the site tiles replace the default');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('a site with a Google Maps key', () => {
  const env = siteWith(`[maps]
googleMapsApiKey = "test-key-123"
language = "fr"
region = "CA"`);

  test('the map is drawn by Google with the key, language, region and block options', { timeout: 60_000 }, async () => {
    const google = (url) =>
      url.startsWith('https://maps.googleapis.com/maps/api/js?')
        ? { status: 200, contentType: 'text/javascript', body: FAKE_GOOGLE }
        : null;
    const { context, page, errors, requests } = await openContact(env, google);
    await page.locator(`${MAP_BLOCK} .fake-google-map`).waitFor({ state: 'attached', timeout: 20_000 });
    const script = new URL(requests.find((u) => u.startsWith('https://maps.googleapis.com/')));
    assert.equal(script.searchParams.get('key'), 'test-key-123');
    assert.equal(script.searchParams.get('language'), 'fr');
    assert.equal(script.searchParams.get('region'), 'CA');
    assert.equal(requests.filter((u) => u.startsWith('https://maps.googleapis.com/')).length, 1, 'the script loads once');
    assert.ok(!requests.some((u) => u.startsWith('https://tile.openstreetmap.org/')), 'no Leaflet tiles with Google');

    const calls = await page.evaluate(() => window.__googleCalls);
    const [, created] = calls.find(([name]) => name === 'Map');
    assert.equal(created.label, 'Map of Veranda Café & Supply');
    assert.deepEqual(created.center, { lat: 40.720882, lng: -74.000988 });
    assert.equal(created.zoom, 15);
    assert.equal(created.mapTypeId, 'roadmap');
    assert.deepEqual(created.styles, [{ stylers: [{ saturation: -100 }] }], 'Grayscale');
    const [, marker] = calls.find(([name]) => name === 'Marker');
    assert.deepEqual(marker, { position: { lat: 40.720882, lng: -74.000988 }, title: 'Veranda Café & Supply', draggable: false });
    assert.ok(calls.some(([name, event]) => name === 'addListener' && event === 'click'), 'a marker click is listened to');

    await sendBlockData(page, { ...CONTACT_MAP, style: 'Satellite', mapZoom: 9 });
    await page.waitForFunction(() => window.__googleCalls.some(([name]) => name === 'setOptions'), null, { timeout: 10_000 });
    const updates = await page.evaluate(() => window.__googleCalls.filter(([name]) => name === 'setOptions' || name === 'setZoom'));
    assert.deepEqual(updates.map(([name, v]) => (name === 'setOptions' ? v.mapTypeId : v)), ['hybrid', 9]);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('when Google\'s script fails, the address fallback is what shows', { timeout: 60_000 }, async () => {
    const failing = (url) => (url.startsWith('https://maps.googleapis.com/') ? { status: 500, body: '' } : null);
    const { context, page, errors, console } = await openContact(env, failing);
    const block = page.locator(MAP_BLOCK);
    await assertMapFallback(block, console, errors);
    await context.close();
  });
});
