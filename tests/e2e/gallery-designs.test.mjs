// Gallery designs in Chromium: the slideshow's thumbnail strip and the slideshow stay on
// the same slide both ways (a click on a thumbnail, the arrow keys), every slideshow
// transition moves with the keyboard, the newSwipe slideshow's hard start holds a swipe,
// the designs laid out by the server keep their layout, the slideshow's history deep links
// and its overflowing caption, and axe finds nothing in any gallery design.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test gallery-designs.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { axe, eventually, openClockedPage, resizeViewport, useServer } from './support.mjs';

const env = useServer({ name: 'gallery' });
const { serverLog } = env;

/** The page at `path` with its timers held (see `openClockedPage`). */
const openPage = (path, viewport) => openClockedPage(env, path, viewport);

/** Scrolls every gallery into view so that each island starts, and waits until the moving ones have. */
async function mountAll(page) {
  const blocks = page.locator('[data-block-type="gallery"]');
  const count = await blocks.count();
  for (let i = 0; i < count; i += 1) await blocks.nth(i).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll('[data-block-type="gallery"]')).every(
        (el) => !el.querySelector('ul.gallery--slideshow, ul.gallery--slider, ul.gallery--carousel') || el.classList.contains('gallery-viewer'),
      ),
    null,
    { timeout: 15_000 },
  );
  return count;
}

/** The index of the current slide and of the current thumbnail of a slideshow block. */
const currents = (show) =>
  show.evaluate((el) => ({
    slide: Array.from(el.querySelectorAll('ul.gallery > li')).findIndex((li) => li.classList.contains('is-current')),
    thumb: Array.from(el.querySelectorAll('.gallery-thumb')).findIndex((b) => b.getAttribute('aria-current') === 'true'),
  }));

test('a thumbnail click changes the slideshow, and the arrow keys move both', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/gallery-designs');
  await mountAll(page);
  const show = page.locator('[data-island="gallery"]').filter({ has: page.locator('.gallery--slideshow') });
  const strip = show.getByRole('group', { name: 'Thumbnails' });
  await strip.waitFor({ timeout: 10_000 });
  const total = await show.locator('ul.gallery > li').count();
  assert.equal(await strip.getByRole('button').count(), total, 'one thumbnail per slide');
  const status = show.locator('[aria-live="polite"]');
  assert.equal(await status.textContent(), `1 of ${total}`);
  assert.deepEqual(await currents(show), { slide: 0, thumb: 0 });

  const fourth = strip.getByRole('button', { name: `Show slide 4 of ${total}` });
  await fourth.scrollIntoViewIfNeeded();
  await fourth.click();
  assert.equal(await status.textContent(), `4 of ${total}`);
  assert.deepEqual(await currents(show), { slide: 3, thumb: 3 });
  assert.ok(await fourth.evaluate((el) => el === document.activeElement), 'the clicked thumbnail has focus');

  await page.clock.runFor(1_300); // the fade (1 s in, 1.2 s out) is over
  await page.keyboard.press('ArrowRight');
  assert.equal(await status.textContent(), `5 of ${total}`);
  assert.deepEqual(await currents(show), { slide: 4, thumb: 4 });
  await page.keyboard.press('ArrowRight');
  assert.equal(await status.textContent(), `5 of ${total}`, 'refused while in motion');
  await page.clock.runFor(1_300);
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await currents(show), { slide: 0, thumb: 0 }, 'loops to the first slide');
  await page.clock.runFor(1_300);
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await currents(show), { slide: total - 1, thumb: total - 1 });

  await page.clock.runFor(1_300);
  await strip.getByRole('button', { name: `Show slide 2 of ${total}` }).focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await currents(show), { slide: 1, thumb: 1 }, 'Enter activates a thumbnail');
  await page.clock.runFor(1_300);
  await strip.getByRole('button', { name: `Show slide 3 of ${total}` }).focus();
  await page.keyboard.press('Space');
  assert.deepEqual(await currents(show), { slide: 2, thumb: 2 }, 'Space activates a thumbnail');

  await page.clock.runFor(1_300);
  const visible = show.locator('ul.gallery > li.is-current img');
  assert.equal(await visible.getAttribute('alt'), await show.locator('ul.gallery > li').nth(2).locator('img').getAttribute('alt'));
  assert.deepEqual(errors, [], errors.join('\n') + serverLog());
  await context.close();
});

test('the server lays out autogrid, autocolumns, autorows and list without a script', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/gallery-designs');
  const layout = (design) =>
    page.locator(`ul.gallery--${design}`).evaluate((ul) => {
      const style = getComputedStyle(ul);
      const items = Array.from(ul.children).map((li) => li.getBoundingClientRect());
      return { display: style.display, columns: style.columnWidth, lefts: [...new Set(items.map((r) => Math.round(r.left)))].length, width: ul.clientWidth };
    });
  const autogrid = await layout('autogrid');
  assert.equal(autogrid.display, 'grid');
  assert.equal(autogrid.lefts, Math.min(5, Math.floor(autogrid.width / 250)), `columns of at least 250 px: ${JSON.stringify(autogrid)}`);
  const autocolumns = await layout('autocolumns');
  assert.equal(autocolumns.display, 'block');
  assert.equal(autocolumns.columns, '220px');
  const autorows = await layout('autorows');
  assert.equal(autorows.display, 'flex');
  const list = await layout('list');
  assert.equal(list.lefts, 1, 'one slide per row');
  assert.deepEqual(errors, []);
  await context.close();
});

test('every slideshow transition moves with the keyboard, and ken burns zooms the current slide', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/slideshow-transitions');
  await mountAll(page);
  const shows = page.locator('[data-island="gallery"]');
  const names = await shows.evaluateAll((els) =>
    els.map((el) => Array.from(el.classList).find((c) => c.startsWith('gallery-viewer--t-'))),
  );
  assert.deepEqual(names, ['gallery-viewer--t-kenburns', 'gallery-viewer--t-scroll', 'gallery-viewer--t-swipe', 'gallery-viewer--t-newswipe']);
  for (let i = 0; i < names.length; i += 1) {
    const show = shows.nth(i);
    const status = show.locator('[aria-live="polite"]');
    const next = show.getByRole('button', { name: 'Next slide' });
    await next.scrollIntoViewIfNeeded();
    await next.focus();
    const before = await status.textContent();
    assert.match(before, /^\d of 5$/);
    const at = Number(before.split(' ')[0]);
    await page.keyboard.press('ArrowRight');
    assert.equal(await status.textContent(), `${(at % 5) + 1} of 5`, names[i]);
    await page.clock.runFor(1_300);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await status.textContent(), before, names[i]);
    await page.clock.runFor(1_300);
    if (names[i].endsWith('scroll')) {
      const direction = await show.getAttribute('data-direction');
      assert.equal(direction, 'previous');
    }
  }
  const zoom = await shows
    .first()
    .locator('ul.gallery > li.is-current img')
    .evaluate((img) => getComputedStyle(img).animationName);
  assert.equal(zoom, 'gallery-kenburns');
  assert.deepEqual(errors, [], errors.join('\n') + serverLog());
  await context.close();
});

test('the newSwipe slideshow does not swipe back past its first photograph (a hard start)', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/slideshow-transitions');
  await mountAll(page);
  const show = page.locator('[data-island="gallery"].gallery-viewer--t-newswipe');
  const status = show.locator('[aria-live="polite"]');
  const list = show.locator('ul.gallery');
  await list.scrollIntoViewIfNeeded();
  const box = await list.boundingBox();
  const swipe = async (dx) => {
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 3];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx, y, { steps: 4 });
    await page.mouse.up();
  };
  assert.equal(await status.textContent(), '1 of 5');
  await swipe(150);
  assert.equal(await status.textContent(), '1 of 5', 'no wrap to the last photograph');
  await page.clock.runFor(1_300);
  await swipe(-150);
  assert.equal(await status.textContent(), '2 of 5');
  assert.deepEqual(errors, [], errors.join('\n') + serverLog());
  await context.close();
});

test('with reduced motion ken burns does not zoom and nothing autoplays', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/slideshow-transitions');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload({ waitUntil: 'load' });
  await mountAll(page);
  const first = page.locator('[data-island="gallery"]').first();
  assert.equal(await first.evaluate((el) => el.classList.contains('gallery-viewer--t-kenburns')), false);
  assert.equal(await first.getByRole('button', { name: 'Pause slideshow' }).count(), 0);
  const status = first.locator('[aria-live="polite"]');
  const before = await status.textContent();
  await page.clock.runFor(12_000);
  assert.equal(await status.textContent(), before);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the slideshow writes its slide to the address, and that address opens on it', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/gallery-designs');
  await mountAll(page);
  const show = page.locator('[data-island="gallery"]').filter({ has: page.locator('.gallery--slideshow') });
  const next = show.getByRole('button', { name: 'Next slide' });
  await next.scrollIntoViewIfNeeded();
  const length = await page.evaluate(() => history.length);
  await next.click();
  await page.clock.runFor(1_300);
  await next.click();
  assert.equal(new URL(page.url()).pathname, '/gallery-designs/slideshow-3');
  assert.deepEqual(await page.evaluate(() => history.state), { itemId: 'slideshow-3' });
  assert.equal(await page.evaluate(() => history.length), length, 'the entry is replaced, not pushed');

  await page.reload({ waitUntil: 'load' });
  assert.equal(new URL(page.url()).pathname, '/gallery-designs/slideshow-3');
  await mountAll(page);
  assert.equal(await show.locator('[aria-live="polite"]').textContent(), '3 of 5');
  assert.deepEqual(await currents(show), { slide: 2, thumb: 2 });

  const linked = await page.request.get(`${env.base}/gallery-designs/slideshow-3`);
  assert.equal(linked.status(), 200);
  assert.match(await linked.text(), /<li class="is-current" data-type="image" data-slide-id="slideshow-3"/);
  assert.equal((await page.request.get(`${env.base}/gallery-designs/slideshow-9`)).status(), 404);
  assert.deepEqual(errors, [], errors.join('\n') + serverLog());
  await context.close();
});

test('a path suffix naming a list slide opens the lightbox on it', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/gallery-designs/list-2');
  const list = page.locator('ul.gallery--list');
  assert.equal(await list.getAttribute('data-linked-slide'), 'list-2');
  const dialog = page.getByRole('dialog', { name: 'Gallery' });
  await dialog.waitFor({ timeout: 10_000 });
  const total = await list.locator('a[data-lightbox]').count();
  assert.equal(await dialog.locator('[aria-live="polite"]').textContent(), `2 of ${total}`);
  const setNumber = await list.evaluate((el) => Array.from(document.querySelectorAll('[data-lightbox-set]')).indexOf(el) + 1);
  assert.equal(await page.evaluate(() => location.hash), `#lightbox=${setNumber}-2`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  assert.equal(new URL(page.url()).pathname, '/gallery-designs/list-2', 'the address is the deep link again');
  assert.deepEqual(errors, [], errors.join('\n') + serverLog());
  await context.close();
});

test('a caption taller than its slide overflows at 40 % and scrolls, and fits again on a wider window', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/gallery-designs', { width: 390, height: 844 });
  await mountAll(page);
  const show = page.locator('[data-island="gallery"]').filter({ has: page.locator('.gallery--slideshow') });
  const caption = show.locator('ul.gallery > li').first().locator('figcaption');
  assert.match(await caption.getAttribute('class'), /gallery-meta gallery-meta--bottom-left gallery-meta--overflow/);
  assert.equal(await caption.getAttribute('tabindex'), '0');
  assert.equal(await caption.getAttribute('aria-label'), 'Caption of slide 1');
  const sizes = await caption.evaluate((el) => ({
    height: el.getBoundingClientRect().height,
    slide: el.closest('figure').getBoundingClientRect().height,
    scrolls: el.scrollHeight > el.clientHeight,
  }));
  assert.ok(Math.abs(sizes.height - sizes.slide * 0.4) < 2, `fixed at 40 %: ${JSON.stringify(sizes)}`);
  assert.ok(sizes.scrolls, 'the caption scrolls');
  const short = show.locator('ul.gallery > li').nth(1).locator('figcaption');
  assert.equal(await short.getAttribute('class'), 'gallery-meta gallery-meta--bottom-left');
  assert.equal(await short.getAttribute('tabindex'), null, 'a caption that fits is no tab stop once measured');

  await resizeViewport(page, { width: 1200, height: 900 });
  // The resize emitter's 100 ms and the 150 ms debounce: the clock moves on until the caption has been measured again.
  await eventually(
    async () => (await caption.getAttribute('class')) === 'gallery-meta gallery-meta--bottom-left',
    'the caption still overflows on a wider window',
    { step: () => page.clock.runFor(200) },
  );
  assert.equal(await caption.getAttribute('tabindex'), null);
  assert.deepEqual(errors, [], errors.join('\n') + serverLog());
  await context.close();
});

test('axe finds nothing in any gallery design', { timeout: 90_000 }, async () => {
  for (const [path, viewport] of [
    ['/gallery-designs', { width: 1200, height: 900 }],
    ['/slideshow-transitions', { width: 1200, height: 900 }],
    ['/gallery-designs', { width: 390, height: 844 }],
  ]) {
    const { context, page, errors } = await openPage(path, viewport);
    const count = await mountAll(page);
    assert.ok(count >= 4, `${path} has its galleries`);
    // CSS transitions run on real time (only timers are faked): a fade still under way
    // would be judged on its half-transparent text, so let the finite ones end first.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime))
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    assert.deepEqual(await axe(page, { include: [['[data-block-type="gallery"]']] }, ['wcag2a', 'wcag2aa']), [], `${path} at ${viewport.width} px`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
