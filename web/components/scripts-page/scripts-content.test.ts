import { describe, expect, it } from 'vitest';
import { parseFeature, visibleInOrder } from './scripts-content.ts';

describe('visibleInOrder', () => {
  it('drops hidden items and sorts the rest by order, keeping ties in place', () => {
    const items = [
      { id: 'c', order: 2, visible: true },
      { id: 'hidden', order: 0, visible: false },
      { id: 'a', order: 0, visible: true },
      { id: 'b1', order: 1, visible: true },
      { id: 'b2', order: 1, visible: true },
    ];
    expect(visibleInOrder(items).map((i) => i.id)).toEqual(['a', 'b1', 'b2', 'c']);
  });

  it('treats a missing visible flag as visible and a missing order as 0, without touching the input', () => {
    const items = [{ id: 'x', order: 1 }, { id: 'y' }];
    expect(visibleInOrder(items).map((i) => i.id)).toEqual(['y', 'x']);
    expect(items.map((i) => i.id)).toEqual(['x', 'y']);
    expect(visibleInOrder(undefined)).toEqual([]);
  });
});

describe('parseFeature', () => {
  it('reads a known icon name before the colon', () => {
    expect(parseFeature('zap:Live finds')).toEqual({ icon: 'zap', text: 'Live finds' });
    expect(parseFeature('Crown: Pets at 10M/s')).toEqual({ icon: 'crown', text: 'Pets at 10M/s' });
  });

  it('keeps any other string whole', () => {
    expect(parseFeature('Note: works everywhere')).toEqual({ icon: null, text: 'Note: works everywhere' });
    expect(parseFeature('Plain text')).toEqual({ icon: null, text: 'Plain text' });
    expect(parseFeature(':leading colon')).toEqual({ icon: null, text: ':leading colon' });
  });
});
