import { describe, expect, it } from 'vitest';
import { FileKeys } from '../../server/locations/file-keys.js';

/** The import's index of a file's keys (server/locations/file-keys.ts): exact, whatever the hashes. */
describe('FileKeys', () => {
  it('finds each key it was given, with its number, and no other', () => {
    const keys = new FileKeys();
    keys.set('ChIJN1t_tDeuEmsRUsoyG83frY4', 0);
    keys.set('café ümlaut\u00001 main st', 1);
    expect(keys.get('ChIJN1t_tDeuEmsRUsoyG83frY4')).toBe(0);
    expect(keys.get('café ümlaut\u00001 main st')).toBe(1);
    expect(keys.has('cafe umlaut\u00001 main st')).toBe(false);
    expect(keys.get('ChIJN1t_tDeuEmsRUsoyG83frY')).toBeUndefined();
    expect(keys.size).toBe(2);
  });

  it('keeps apart keys that share a hash (every key one hash here), and a key set again takes its new number', () => {
    const keys = new FileKeys(() => 7);
    const words = ['a', 'b', 'ab', 'ba', '', 'é', 'e\u0301'];
    words.forEach((word, at) => keys.set(word, at));
    words.forEach((word, at) => expect(keys.get(word)).toBe(at));
    expect(keys.has('c')).toBe(false);
    keys.set('ab', 99);
    expect(keys.get('ab')).toBe(99);
    expect(keys.size).toBe(words.length);
  });

  it('grows past its first sizes: 100,000 keys, long ones among them', () => {
    const keys = new FileKeys();
    const key = (i: number) =>
      `bluebird coffee roasters #${i}\u0000${i} oak avenue${i % 1000 === 0 ? 'x'.repeat(2000) : ''}`;
    for (let i = 0; i < 100_000; i++) keys.set(key(i), i);
    expect(keys.size).toBe(100_000);
    for (let i = 0; i < 100_000; i += 997) expect(keys.get(key(i))).toBe(i);
    expect(keys.get(key(100_000))).toBeUndefined();
  });

  it("add keeps a key's first number; keys with lone surrogates stay apart (UTF-8 would make them one)", () => {
    const keys = new FileKeys(() => 1);
    keys.add('a', 1);
    keys.add('a', 2);
    expect(keys.get('a')).toBe(1);
    keys.add('x\ud800', 3);
    keys.add('x\ud801', 4);
    keys.add('x\ud800', 5);
    keys.add('x\ufffd', 6);
    expect([keys.get('x\ud800'), keys.get('x\ud801'), keys.get('x\ufffd')]).toEqual([3, 4, 6]);
    expect(keys.has('x\udc00')).toBe(false);
    expect(keys.size).toBe(4);
  });

  it('answers as a Map would, through growth, for keys of ASCII, accents and emoji (a seeded random walk)', () => {
    let seed = 42;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const letters = ['a', 'b', 'é', '😀', '\u0000', ' ', 'z'];
    const word = () =>
      Array.from({ length: Math.floor(random() * 6) }, () => letters[Math.floor(random() * letters.length)]).join('');
    for (const hashOf of [undefined, (key: string) => key.length]) {
      const keys = new FileKeys(hashOf);
      const map = new Map<string, number>();
      for (let step = 0; step < 20_000; step++) {
        const key = word();
        if (random() < 0.5) {
          keys.add(key, step);
          if (!map.has(key)) map.set(key, step);
        } else {
          keys.set(key, step);
          map.set(key, step);
        }
        const probe = word();
        expect(keys.get(probe)).toBe(map.get(probe));
      }
      expect(keys.size).toBe(map.size);
      for (const [key, value] of map) expect(keys.get(key)).toBe(value);
    }
  });

  it('keys made to share one hash stay exact, and past a few slots from home they go to a Map, not a longer probe', () => {
    // A file whose addresses all hash alike (a review built 2^17 such keys for a fixed FNV-1a): each
    // look-up reads at most MAX_PROBES slots, the rest of the keys are kept as text in a Map.
    const keys = new FileKeys(() => 12345);
    const key = (i: number) => `address ${i} \u0000 same hash`;
    for (let i = 0; i < 5_000; i++) keys.add(key(i), i);
    keys.add(key(17), 99);
    keys.set(key(4_999), 7);
    expect(keys.size).toBe(5_000);
    expect(keys.outsideTable).toBeGreaterThan(4_900);
    expect(keys.get(key(17))).toBe(17);
    expect(keys.get(key(4_999))).toBe(7);
    expect(keys.get(key(5_000))).toBeUndefined();
    for (let i = 0; i < 5_000; i += 97) expect(keys.has(key(i))).toBe(true);
  });

  it('with its own hash, ordinary keys all stay in the table, in two tables alike', () => {
    const [a, b] = [new FileKeys(), new FileKeys()];
    for (let i = 0; i < 3_000; i++) {
      a.add(`k${i}`, i);
      b.add(`k${i}`, i);
    }
    for (let i = 0; i < 3_000; i += 7) expect([a.get(`k${i}`), b.get(`k${i}`)]).toEqual([i, i]);
    expect(a.outsideTable + b.outsideTable).toBe(0);
  });
});
