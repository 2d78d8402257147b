import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTransport, socketOf, type FakeSocket } from '../../test/fake-socket';
import { renderWithClient } from '../../test/render';
import { EditsPanel } from './edits-panel';

afterEach(() => {
  document.body.innerHTML = '';
});

const edit = (offset: number, name: string, objectId = 'site-1') => ({
  type: 'event',
  stream: 'edits',
  epoch: 'e1',
  offset,
  at: Date.now(),
  data: { name, actor: 'owner-1', action: 'save', objectType: 'site-header-footer', objectId, productPage: 'config', productSection: 'header-footer' },
});

describe('the edits panel', () => {
  it('lists each edit once, newest first, with event type, actor, target and a relative time', () => {
    const sockets: FakeSocket[] = [];
    const { container } = renderWithClient(<EditsPanel transport={fakeTransport(sockets)} />);
    expect(container.querySelector('h2')?.textContent).toBe('Edits');
    expect(container.textContent).toContain('No edits since this page opened.');
    const socket = socketOf(sockets, 'edits');
    act(() => socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 4 }));
    expect(container.querySelector('[data-status]')?.textContent).toBe('Live');
    act(() => {
      socket.send(edit(5, 'UserSavesSiteHeaderFooter'));
      socket.send(edit(6, 'UserSavesLanguages', 'site-2'));
      socket.send(edit(6, 'UserSavesLanguages', 'site-2'));
    });
    const items = [...container.querySelectorAll('li')];
    expect(items.map((li) => li.querySelector('.feed__title')?.textContent)).toEqual(['UserSavesLanguages', 'UserSavesSiteHeaderFooter']);
    expect(items[0]!.textContent).toContain('owner-1');
    expect(items[0]!.textContent).toContain('save site-header-footer site-2');
    expect(items[0]!.querySelector('time')?.textContent).toBe('just now');
  });

  it('drops the list when the server resets the stream, and keeps following', () => {
    const sockets: FakeSocket[] = [];
    const { container } = renderWithClient(<EditsPanel transport={fakeTransport(sockets)} />);
    const socket = socketOf(sockets, 'edits');
    act(() => {
      socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 0 });
      socket.send(edit(1, 'UserSavesSiteHeaderFooter'));
      socket.send({ type: 'reset', stream: 'edits', epoch: 'e2', offset: 9, reason: 'epoch-changed' });
    });
    expect(container.querySelectorAll('li')).toHaveLength(0);
    expect(container.textContent).toContain('The stream started over');
    act(() => socket.send({ ...edit(10, 'UserSavesLanguages'), epoch: 'e2' }));
    expect(container.querySelectorAll('li')).toHaveLength(1);
  });

  it('announces new edits politely, as one summary', () => {
    vi.useFakeTimers();
    try {
      const sockets: FakeSocket[] = [];
      const { container } = renderWithClient(<EditsPanel transport={fakeTransport(sockets)} />);
      const socket = socketOf(sockets, 'edits');
      const status = container.querySelector('[role="status"]')!;
      act(() => {
        socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 0 });
        socket.send(edit(1, 'A'));
        socket.send(edit(2, 'B'));
        socket.send(edit(3, 'C'));
      });
      expect(status.textContent).toBe('');
      act(() => vi.advanceTimersByTime(3_000));
      expect(status.textContent).toBe('3 new edits');
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes its socket when it goes away', () => {
    const sockets: FakeSocket[] = [];
    const { root } = renderWithClient(<EditsPanel transport={fakeTransport(sockets)} />);
    const socket = socketOf(sockets, 'edits');
    act(() => root.unmount());
    expect(socket.closedWith).toBe(1000);
  });
});
