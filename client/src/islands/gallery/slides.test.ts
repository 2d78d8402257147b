import { describe, expect, it } from 'vitest';
import { type SlideEvent, Slides, normalise } from './slides';

function watched(slides: Slides): SlideEvent[] {
  const events: SlideEvent[] = [];
  slides.on((event) => events.push(event));
  return events;
}

describe('gallery slides', () => {
  it('normalises indexes modulo the slide count', () => {
    expect(normalise(5, 5)).toBe(0);
    expect(normalise(-1, 5)).toBe(4);
    expect(normalise(12, 5)).toBe(2);
    expect(normalise(3, 0)).toBe(0);
    expect(normalise(Number.NaN, 4)).toBe(0);
    expect(new Slides(4, true, 9).index).toBe(1);
  });

  it('wraps around when looping', () => {
    const slides = new Slides(3);
    const events = watched(slides);
    slides.previous();
    expect(slides.index).toBe(2);
    slides.settle();
    slides.next();
    expect(slides.index).toBe(0);
    expect(events).toEqual([
      { type: 'change', index: 2, previous: 0 },
      { type: 'change', index: 0, previous: 2 },
    ]);
  });

  it('stays and reports reached-end and reached-beginning without looping', () => {
    const slides = new Slides(2, false);
    const events = watched(slides);
    expect(slides.previous()).toBe('reached-beginning');
    expect(slides.index).toBe(0);
    slides.next();
    slides.settle();
    expect(slides.next()).toBe('reached-end');
    expect(slides.index).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['reached-beginning', 'change', 'reached-end']);
  });

  it('refuses index changes while a transition is in motion', () => {
    const slides = new Slides(5);
    expect(slides.go(2)).toBeNull();
    expect(slides.inMotion).toBe(true);
    expect(slides.go(3)).toBe('in-motion');
    expect(slides.index).toBe(2);
    slides.settle();
    expect(slides.go(3)).toBeNull();
    expect(slides.index).toBe(3);
  });

  it('keeps linked galleries on the same index, and waits for a linked one in motion elsewhere', () => {
    const slideshow = new Slides(5);
    const strip = new Slides(5);
    slideshow.link(strip);
    slideshow.go(3);
    expect(strip.index).toBe(3);
    slideshow.settle();
    expect(slideshow.go(4)).toBe('linked-in-motion');
    strip.settle();
    expect(strip.go(1)).toBeNull();
    expect(slideshow.index).toBe(1);
  });

  it('has nothing to do when empty', () => {
    expect(new Slides(0).next()).toBe('empty');
  });
});
