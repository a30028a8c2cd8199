import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api.ts';
import { serverFieldError } from './server-field-error.ts';

const answer = (status: number, body: unknown) => new ApiError(status, JSON.stringify(body), '');
const FIELDS = ['url', 'expiresAt', 'maxBindings'] as const;

describe('serverFieldError', () => {
  it("finds the field a schema 400 names in its issues, with the server's text without the field's name", () => {
    const error = answer(400, {
      error: 'maxBindings: maxBindings must be between 1 and 10',
      issues: [{ path: 'maxBindings', message: 'maxBindings must be between 1 and 10' }],
    });
    expect(serverFieldError(error, FIELDS)).toEqual({
      field: 'maxBindings',
      message: 'maxBindings must be between 1 and 10',
    });
  });

  it("finds the field a service's text starts with", () => {
    expect(serverFieldError(answer(400, { error: 'expiresAt must be in the future' }), FIELDS)).toEqual({
      field: 'expiresAt',
      message: 'expiresAt must be in the future',
    });
    expect(serverFieldError(answer(400, { error: 'url: The URL must use https' }), FIELDS)).toEqual({
      field: 'url',
      message: 'The URL must use https',
    });
  });

  it('names no field for a text about something else, a 5xx, or no answer at all', () => {
    expect(serverFieldError(answer(400, { error: 'Name is required' }), FIELDS)).toBeNull();
    expect(serverFieldError(answer(404, { error: 'License key not found' }), FIELDS)).toBeNull();
    expect(serverFieldError(answer(503, { error: 'url: unavailable' }), FIELDS)).toBeNull();
    expect(serverFieldError(new TypeError('Failed to fetch'), FIELDS)).toBeNull();
  });
});
