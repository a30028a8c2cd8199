import { act } from '@testing-library/react';
import type { WebSocketConstructor } from '@/lib/realtime-client.ts';

/** A socket the test opens, feeds and closes by hand. */
export class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  readonly sent: Array<{ type: string; payload: unknown }> = [];
  closedWith: number | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1005) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    act(() => {
      this.readyState = 1;
      this.onopen?.({});
    });
  }
  receive(type: string, payload: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify({ type, payload, id: 'x', timestamp: 'y' }) }));
  }
}

/** RealtimeProvider options that connect to a FakeWebSocket at ws://test/ws. */
export const fakeSocketOptions = () => ({
  url: 'ws://test/ws',
  WebSocket: FakeWebSocket as unknown as WebSocketConstructor,
});
