import { describe, expect, it } from 'vitest';
import { formatDate, formatFileSize } from './format.ts';

describe('formatDate', () => {
  it('shows a date in US English short format with hours and minutes', () => {
    expect(formatDate('2026-11-22T13:05:00.000Z', 'UTC')).toBe('Nov 22, 2026, 01:05 PM');
  });

  it('accepts epoch milliseconds and Date objects', () => {
    const ms = Date.UTC(2026, 0, 3, 9, 7);
    expect(formatDate(ms, 'UTC')).toBe('Jan 3, 2026, 09:07 AM');
    expect(formatDate(new Date(ms), 'UTC')).toBe('Jan 3, 2026, 09:07 AM');
  });

  it("reads 'Never' when the date is missing", () => {
    expect(formatDate(null)).toBe('Never');
    expect(formatDate(undefined)).toBe('Never');
    expect(formatDate('')).toBe('Never');
  });

  it("reads 'Invalid date' when the value does not parse", () => {
    expect(formatDate('not a date')).toBe('Invalid date');
    expect(formatDate(Number.NaN)).toBe('Invalid date');
  });
});

describe('formatFileSize', () => {
  it('shows bytes, KB with one decimal and MB with two, in steps of 1024', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1024)).toBe('1.0 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1024 * 1024)).toBe('1.00 MB');
    expect(formatFileSize(2.5 * 1024 * 1024)).toBe('2.50 MB');
  });
});
