import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/helper.ts';

/*
 * Frames are checked both ways: what a feature publishes is checked against its kind's schema in
 * development and tests, so a payload no screen or bot could read fails where it is built rather
 * than reaching a dashboard.
 */
describe('sqlite: the publisher checks outgoing frames', () => {
  const t = useTestApp('sqlite');

  /** Every message published to admin dashboards from now on. */
  const adminMessages = () => {
    const messages: unknown[] = [];
    t.ctx.bus.subscribe('admin', (message) => messages.push(message));
    return messages;
  };

  it('sends a payload its schema accepts', async () => {
    const messages = adminMessages();
    await t.ctx.services.publisher.toAll('admin', 'licensing_changed', { entity: 'script_key' });
    expect(messages).toEqual([{ type: 'licensing_changed', payload: { entity: 'script_key' } }]);
  });

  it('refuses a payload its schema does not accept, naming the field, and sends nothing', () => {
    const messages = adminMessages();
    expect(() =>
      t.ctx.services.publisher.toAll('admin', 'licensing_changed', { entity: 'nothing' as 'script_key' }),
    ).toThrow(/^Invalid outgoing licensing_changed payload: entity: /);
    expect(() =>
      t.ctx.services.publisher.toTopic('bot:ghost-1', 'config', { version: 0, parameters: {} } as never),
    ).toThrow(/^Invalid outgoing config payload: /);
    expect(messages).toEqual([]);
  });

  it('refuses a type no protocol sends', () => {
    expect(() => t.ctx.services.publisher.toAll('admin', 'no_such_type', {})).toThrow(
      "No protocol sends no_such_type: add it to a protocol's sends",
    );
  });
});
