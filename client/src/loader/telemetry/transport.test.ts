import { afterEach, describe, expect, it } from 'vitest';
import { removeBeacon, stubBeacon, stubXhr } from './test-support';
import { beacon, gateTelemetry } from './transport';

afterEach(() => {
  removeBeacon();
  gateTelemetry(() => true);
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
