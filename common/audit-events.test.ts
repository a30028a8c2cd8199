import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_EVENT_AREAS, AUDIT_EVENT_TYPES, AUDIT_EVENTS, auditEventLabel } from './audit-events.ts';

const SERVER = join(import.meta.dirname, '..', 'server');

/** The server's own code (not its tests and fixtures), as text. */
function serverSources(): string[] {
  return readdirSync(SERVER, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !/\.(test|fixtures)\.ts$/.test(file) && !file.includes('test/'))
    .map((file) => readFileSync(join(SERVER, file), 'utf8'));
}

/**
 * Every event id the server's code writes as an audit entry's `eventType`: a quoted id, a template
 * (`configuration_${kind}`, as a pattern), or a constant holding an id (RATE_LIMIT_HIT).
 */
function writtenEventTypes(): { ids: Set<string>; patterns: Set<string> } {
  const sources = serverSources();
  const constants = new Map<string, string>();
  for (const text of sources) {
    for (const [, name, value] of text.matchAll(/export const ([A-Z_]+) = '([a-z_]+)';/g))
      constants.set(name!, value!);
  }
  const ids = new Set<string>();
  const patterns = new Set<string>();
  for (const text of sources) {
    for (const [, quote, id] of text.matchAll(/eventType: (['"`])([a-z_${}A-Za-z]+)\1/g)) {
      if (quote === '`' && id!.includes('${')) patterns.add(id!);
      else ids.add(id!);
    }
    for (const [, name] of text.matchAll(/eventType: ([A-Z_]+)\b/g)) {
      const id = constants.get(name!);
      if (id === undefined) throw new Error(`eventType ${name}: no exported constant holds its id`);
      ids.add(id);
    }
  }
  return { ids, patterns };
}

describe('the audit events', () => {
  it('name every event the server writes (an id with no name would show as the raw id)', () => {
    const { ids, patterns } = writtenEventTypes();
    // The scan finds the server's writes at all: the licensing path's and a constant's.
    expect(ids).toContain('binding_attempt');
    expect(ids).toContain('rate_limit_hit');
    const unnamed = [...ids].filter((id) => !Object.hasOwn(AUDIT_EVENTS, id));
    expect(unnamed).toEqual([]);
    for (const pattern of patterns) {
      const matcher = new RegExp(`^${pattern.replace(/\$\{[^}]+\}/g, '[a-z_]+')}$`);
      expect(
        AUDIT_EVENT_TYPES.some((id) => matcher.test(id)),
        pattern,
      ).toBe(true);
    }
    // The emergency control writes its two events through one template.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template's text as the source spells it
    expect(patterns).toContain('configuration_${kind}');
  });

  it('names each event differently, in plain words, within one of the areas', () => {
    const labels = Object.values(AUDIT_EVENTS).map((event) => event.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const event of Object.values(AUDIT_EVENTS)) {
      expect(event.label).toMatch(/^[A-Z]/);
      expect(event.label).not.toContain('_');
      expect(AUDIT_EVENT_AREAS).toContain(event.area);
    }
    expect(auditEventLabel('configuration_emergency_stop')).toBe('Emergency stop');
    expect(auditEventLabel('license_key_created')).toBe('License key created');
  });

  it('reads an id this build does not know as its words', () => {
    expect(auditEventLabel('some_new_event')).toBe('Some new event');
  });
});
