import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statfsDiskReader } from './disk-alert.ts';

describe('the disk the data lives on', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is read from the nearest directory that exists when the data directory is not made yet', async () => {
    dir = mkdtempSync(join(tmpdir(), 'scanline-disk-'));
    const missing = await statfsDiskReader.read(join(dir, 'data', 'not-yet'));
    const parent = await statfsDiskReader.read(dir);
    expect(missing.totalBytes).toBe(parent.totalBytes);
    expect(missing.totalBytes).toBeGreaterThan(0);
  });
});
