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

/*
 * What a socket sends straight (answers, the fleet's stream, the feed's finds) is checked too, against
 * the schema its protocol declares for the type, once per frame however many sockets get it.
 */
describe('sqlite: sockets check the frames they send', () => {
  const t = useTestApp('sqlite');
  const protocolOf = (kind: string) => {
    const protocol = t.ctx.services.transport.registered.find((p) => p.kind === kind);
    if (!protocol) throw new Error(`no ${kind} protocol`);
    return protocol;
  };

  it("accepts each protocol's own answers and refuses a bad one, naming the field", () => {
    const bot = t.ctx.services.transport.outgoingCheckFor(protocolOf('bot'));
    expect(bot).toBeDefined();
    expect(() => bot?.('hello', { ghostId: 'ghost-1', serverTime: 1 })).not.toThrow();
    expect(() => bot?.('ack', { requestId: 'r-1', seq: 7 })).not.toThrow();
    expect(() => bot?.('hello', { ghostId: 'ghost-1' })).toThrow(
      /^Invalid outgoing hello payload: serverTime: /,
    );
    const admin = t.ctx.services.transport.outgoingCheckFor(protocolOf('admin'));
    expect(() => admin?.('server_hop', { botId: 'bot-7' })).toThrow(/^Invalid outgoing server_hop payload: /);
  });

  it('refuses a type the protocol does not declare', () => {
    const feed = [...t.ctx.services.transport.registered].find((p) => p.path === '/ws/feed');
    if (!feed) throw new Error('no feed protocol');
    const check = t.ctx.services.transport.outgoingCheckFor(feed);
    expect(() => check?.('config', { version: 1 })).toThrow(
      `The ${feed.kind} protocol does not send config: add it to its sends`,
    );
  });
});
