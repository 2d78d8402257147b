import { afterEach, describe, expect, it, vi } from 'vitest';
import { boot } from './boot';
import { pageLifecycle } from './lifecycle';

afterEach(() => {
  vi.restoreAllMocks();
  delete window.Veranda;
});

describe('the page lifecycle', () => {
  it('runs every initialiser once, in order, then is initialised', () => {
    const ran: string[] = [];
    const life = pageLifecycle([() => void ran.push('a'), () => void ran.push('b')]);
    expect(life.isInitialised).toBe(false);
    expect(life.initialise()).toBe(true);
    expect(ran).toEqual(['a', 'b']);
    expect(life.isInitialised).toBe(true);
  });

  it("logs 'Detected second run, this is bad.' on a second run and runs nothing again", () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const run = vi.fn();
    const life = pageLifecycle([run]);
    life.initialise();
    expect(life.initialise()).toBe(false);
    expect(run).toHaveBeenCalledOnce();
    expect(error).toHaveBeenCalledWith('Detected second run, this is bad.');
  });

  it('logs a failing initialiser and still runs the rest', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const after = vi.fn();
    const boom = new Error('boom');
    const life = pageLifecycle([
      () => {
        throw boom;
      },
      after,
    ]);
    life.initialise();
    expect(after).toHaveBeenCalledOnce();
    expect(life.isInitialised).toBe(true);
    expect(error.mock.calls[0]?.[1]).toBe(boom);
  });

  it('destroys: runs the destructors newest first, clears the flag, and may start again', () => {
    const order: string[] = [];
    const life = pageLifecycle([() => () => void order.push('a'), () => () => void order.push('b')]);
    life.initialise();
    life.destroy();
    expect(order).toEqual(['b', 'a']);
    expect(life.isInitialised).toBe(false);
    expect(life.initialise()).toBe(true);
  });
});

describe('boot', () => {
  it('exposes the lifecycle and detects the loader started twice', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = boot(window);
    expect(first.lifecycle?.isInitialised).toBe(true);
    const second = boot(window);
    expect(second).toBe(first);
    expect(error).toHaveBeenCalledWith('Detected second run, this is bad.');
  });

  it('starts again after the global destroy, without the second-run message', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    boot(window).lifecycle?.destroy();
    expect(window.Veranda?.lifecycle?.isInitialised).toBe(false);
    expect(boot(window).lifecycle?.isInitialised).toBe(true);
    expect(error).not.toHaveBeenCalledWith('Detected second run, this is bad.');
  });

  it('stops watching islands that have not started when the page is destroyed', async () => {
    document.body.innerHTML = '<div data-island="accordion" id="a"></div>';
    const observed: IntersectionObserver[] = [];
    const disconnect = vi.fn();
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor() {
          observed.push(this as unknown as IntersectionObserver);
        }
        observe() {}
        disconnect = disconnect;
      },
    );
    boot(window).lifecycle?.destroy();
    expect(observed).toHaveLength(1);
    expect(disconnect).toHaveBeenCalled();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
  });
});
