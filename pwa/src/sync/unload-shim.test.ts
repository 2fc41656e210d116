import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as UnloadShim from './unload-shim.ts';

type Shim = typeof UnloadShim;

/** A page's event target with the two page-lifecycle events the shim listens to. */
class FakeWindow extends EventTarget {
  location = { reload: vi.fn() };
  hide(persisted: boolean) {
    this.dispatchEvent(Object.assign(new Event('pagehide'), { persisted }));
  }
  show(persisted: boolean) {
    this.dispatchEvent(Object.assign(new Event('pageshow'), { persisted }));
  }
}

describe('the unload stand-in for leader election', () => {
  let page: FakeWindow;
  let shim: Shim;
  const added: string[] = [];
  beforeEach(async () => {
    page = new FakeWindow();
    const spy = vi.spyOn(page, 'addEventListener');
    vi.stubGlobal('window', page);
    vi.resetModules();
    shim = await import('./unload-shim.ts');
    added.length = 0;
    spy.mockImplementation(function (this: FakeWindow, type, listener, options) {
      added.push(type);
      EventTarget.prototype.addEventListener.call(this, type, listener, options);
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('runs each listener once when the page goes away, and never listens to unload', () => {
    const die = vi.fn();
    shim.add(die);
    expect(added).toEqual(['pagehide', 'pageshow']);
    expect(added).not.toContain('unload');
    page.hide(false);
    page.hide(false);
    expect(die).toHaveBeenCalledTimes(1);
    expect(shim.getSize()).toBe(0);
  });

  it('lets a listener be removed or run early', () => {
    const removed = vi.fn();
    const early = vi.fn();
    shim.add(removed).remove();
    const handle = shim.add(early);
    handle.run();
    page.hide(false);
    expect(removed).not.toHaveBeenCalled();
    expect(early).toHaveBeenCalledTimes(1);
  });

  it('gives up leadership for the back/forward cache and reloads when brought back', () => {
    const die = vi.fn();
    shim.add(die);
    page.hide(true);
    expect(die).toHaveBeenCalledTimes(1);
    page.show(true);
    expect(page.location.reload).toHaveBeenCalledTimes(1);
  });

  it('does not reload a page that held no leadership when it was cached', () => {
    shim.add(vi.fn()).remove();
    page.hide(true);
    page.show(true);
    expect(page.location.reload).not.toHaveBeenCalled();
  });
});
