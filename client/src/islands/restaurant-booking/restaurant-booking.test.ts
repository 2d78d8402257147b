import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OPENTABLE_WIDE_ABOVE_PX, TOCK_COLUMN_MAX_PX, bookingLayout, watchBookingLayout } from './layout';
import { ACCOUNT_URL, previewOnly, signedInOwner } from './preview';

function block(): HTMLElement {
  document.body.innerHTML = `<section class="block block--restaurant-booking"><h2>Reserve a table</h2>
    <p><a class="button" href="https://www.exploretock.com/x">Book a table</a></p></section>`;
  return document.querySelector('section')!;
}

beforeEach(() => {
  // jsdom lacks modal dialogs: open and close as the browser does.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.querySelectorAll('dialog').forEach((d) => d.remove());
});

describe('restaurant booking layout', () => {
  it('puts Tock in a column at 750 px or less', () => {
    expect(TOCK_COLUMN_MAX_PX).toBe(750);
    expect(bookingLayout('tock', 750)).toBe('restaurant-booking--column');
    expect(bookingLayout('Tock', 751)).toBe('restaurant-booking--row');
  });

  it('makes OpenTable wide above 850 px, otherwise standard', () => {
    expect(OPENTABLE_WIDE_ABOVE_PX).toBe(850);
    expect(bookingLayout('opentable', 851)).toBe('restaurant-booking--wide');
    expect(bookingLayout('opentable', 850)).toBe('restaurant-booking--standard');
    expect(bookingLayout('other', 900)).toBeNull();
  });

  it('follows the block width as it changes', () => {
    let resize = () => {};
    vi.stubGlobal('ResizeObserver', class { constructor(cb: () => void) { resize = cb; } observe() {} disconnect() {} });
    const el = block();
    let width = 900;
    Object.defineProperty(el, 'clientWidth', { get: () => width });
    watchBookingLayout(el, 'opentable');
    expect(el.classList.contains('restaurant-booking--wide')).toBe(true);
    width = 600;
    resize();
    expect(el.classList.contains('restaurant-booking--wide')).toBe(false);
    expect(el.classList.contains('restaurant-booking--standard')).toBe(true);
  });
});

describe('the owner preview', () => {
  it('asks who is signed in and recognises only the owner', async () => {
    const answer = (status: number, body: unknown) => vi.fn(async () => new Response(JSON.stringify(body), { status }));
    const owner = answer(200, { id: 'a', owner: true });
    expect(await signedInOwner(owner as unknown as typeof fetch)).toBe(true);
    expect((owner.mock.calls[0] as unknown[])[0]).toBe(ACCOUNT_URL);
    expect(await signedInOwner(answer(200, { id: 'a', owner: false }) as unknown as typeof fetch)).toBe(false);
    expect(await signedInOwner(answer(401, {}) as unknown as typeof fetch)).toBe(false);
    expect(await signedInOwner((() => Promise.reject(new TypeError('offline'))) as unknown as typeof fetch)).toBe(false);
  });

  it("shows the 'Preview Only' alert, in the provider's wording, instead of following the booking link", () => {
    const wording = [
      // Spec 000 §6 names the OpenTable block; spec 001 §6 speaks of the reservation block.
      ['opentable', 'Please log out of your account with the provider in order to use the OpenTable Block.'],
      ['tock', 'Please log out of your account with the provider in order to use the reservation block.'],
    ];
    for (const [provider, message] of wording) {
      document.querySelectorAll('dialog').forEach((d) => d.remove());
      const el = block();
      previewOnly(el, provider);
      const click = new MouseEvent('click', { bubbles: true, cancelable: true });
      el.querySelector('a')!.dispatchEvent(click);
      expect(click.defaultPrevented).toBe(true);
      const dialog = document.querySelector('dialog')!;
      expect(dialog.textContent).toContain('Preview Only');
      expect(dialog.textContent).toContain(message);
      el.remove();
    }
  });
});
