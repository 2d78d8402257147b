import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeBeacon, stubBeacon, stubXhr } from './test-support';
import { beacon, gateTelemetry, newVisitorId } from './transport';

afterEach(() => {
  removeBeacon();
  gateTelemetry(() => true);
  vi.useRealTimers();
});

describe('new ids', () => {
  it('are 32 hex digits beginning with the millisecond they were made, so later ids sort after', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_700_000_000_000);
    const first = newVisitorId();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    // 1,700,000,000,000 + 2^44 is 0x118bcfe56800.
    expect(first.slice(0, 12)).toBe('118bcfe56800');
    expect(newVisitorId()).not.toBe(first);
    vi.setSystemTime(1_700_000_000_001);
    expect(newVisitorId() > first).toBe(true);
  });
});

describe('beacons', () => {
  it('go by sendBeacon when the browser takes them, with no request of their own', () => {
    const sent = stubBeacon();
    const { sent: posted } = stubXhr();
    beacon('/api/1/performance/records', '[1]', 'text/plain');
    expect(sent.calls).toEqual([{ url: '/api/1/performance/records', body: '[1]' }]);
    expect(posted).toHaveLength(0);
  });

  it('fall back to a text/plain XMLHttpRequest POST when there is no beacon or it is refused', () => {
    const { sent } = stubXhr();
    beacon('/records', '[1]', 'text/plain');
    stubBeacon(false);
    beacon('/records', '[2]', 'text/plain');
    expect(sent).toEqual([
      { method: 'POST', url: '/records', headers: { 'Content-Type': 'text/plain' }, body: '[1]' },
      { method: 'POST', url: '/records', headers: { 'Content-Type': 'text/plain' }, body: '[2]' },
    ]);
  });

  it('fall back when the beacon throws, and send nothing without consent', () => {
    const { sent } = stubXhr();
    const refused = stubBeacon();
    refused.mock.mockImplementation(() => {
      throw new TypeError('over the quota');
    });
    beacon('/records', '[1]', 'text/plain');
    expect(sent).toHaveLength(1);
    gateTelemetry(() => false);
    beacon('/records', '[2]', 'text/plain');
    expect(sent).toHaveLength(1);
    expect(refused.mock).toHaveBeenCalledTimes(1);
  });
});
