import { describe, expect, it } from 'vitest';
import { parseFrame } from './frames';

describe('parseFrame', () => {
  it('reads the three frames of its own stream', () => {
    expect(parseFrame('{"type":"hello","stream":"edits","epoch":"e1","offset":3}', 'edits')).toEqual({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 3 });
    expect(parseFrame('{"type":"event","stream":"errors","epoch":"e1","offset":4,"at":5,"data":{"x":1}}', 'errors')).toEqual({ type: 'event', stream: 'errors', epoch: 'e1', offset: 4, at: 5, data: { x: 1 } });
    expect(parseFrame('{"type":"reset","stream":"edits","epoch":"e2","offset":0,"reason":"beyond-history"}', 'edits')).toEqual({ type: 'reset', stream: 'edits', epoch: 'e2', offset: 0, reason: 'beyond-history' });
  });

  it('reads a reset with an unknown reason as epoch-changed, so the dashboard reloads everything', () => {
    expect(parseFrame('{"type":"reset","stream":"edits","epoch":"e2","offset":1,"reason":"moon-phase"}', 'edits')).toEqual({ type: 'reset', stream: 'edits', epoch: 'e2', offset: 1, reason: 'epoch-changed' });
    expect(parseFrame('{"type":"reset","stream":"edits","epoch":"e2","offset":1}', 'edits')).toMatchObject({ reason: 'epoch-changed' });
  });

  it('ignores frames of another stream, other types, bad positions and text that is not JSON', () => {
    for (const text of [
      '{"type":"hello","stream":"errors","epoch":"e1","offset":3}',
      '{"type":"ping","stream":"edits","epoch":"e1","offset":3}',
      '{"type":"hello","stream":"edits","epoch":"e1","offset":-1}',
      '{"type":"hello","stream":"edits","epoch":1,"offset":3}',
      'not json',
    ]) {
      expect(parseFrame(text, 'edits'), text).toBeNull();
    }
  });
});
