import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { getServerId, SERVER_ID_HEADER } from './session-id.ts';
import { isUploadAborted, UploadNetworkError, uploadWithProgress } from './upload.ts';

/** A stand-in XMLHttpRequest the test drives by hand: progress, answer, network failure. */
class FakeXhr extends EventTarget {
  static sent: FakeXhr[] = [];
  readonly upload = new EventTarget();
  readonly headers: Record<string, string> = {};
  method = '';
  url = '';
  body: unknown;
  withCredentials = false;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.dispatchEvent(new Event('abort'));
  }

  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
  }
  answer(status: number, body: string, statusText = '') {
    this.status = status;
    this.statusText = statusText;
    this.responseText = body;
    this.dispatchEvent(new Event('load'));
  }
}

function form(): FormData {
  const data = new FormData();
  data.append('file', new File(['print("hi")'], 'hello.lua'));
  return data;
}

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('uploadWithProgress', () => {
  it('posts the form with credentials and the server id, reports progress and resolves the JSON answer', async () => {
    const fractions: number[] = [];
    const body = form();
    const done = uploadWithProgress<{ version: number }>('/api/admin/scripts/upload', body, {
      onProgress: (f) => fractions.push(f),
    });
    const xhr = FakeXhr.sent[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/admin/scripts/upload');
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.headers[SERVER_ID_HEADER]).toBe(getServerId());
    expect(xhr.headers['Content-Type']).toBeUndefined();
    expect(xhr.body).toBe(body);

    xhr.progress(25, 100);
    xhr.progress(100, 100);
    xhr.answer(201, JSON.stringify({ version: 2 }));
    await expect(done).resolves.toEqual({ version: 2 });
    expect(fractions).toEqual([0, 0.25, 1, 1]);
  });

  it("rejects a refused upload with an ApiError carrying the server's message", async () => {
    const done = uploadWithProgress('/u', form());
    FakeXhr.sent[0]!.answer(
      400,
      JSON.stringify({ error: "Lua syntax error on line 3: '=' expected near 'end'" }),
      'Bad Request',
    );
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).serverMessage).toBe("Lua syntax error on line 3: '=' expected near 'end'");
  });

  it('rejects with a network error when the request never completes', async () => {
    const done = uploadWithProgress('/u', form());
    FakeXhr.sent[0]!.dispatchEvent(new Event('error'));
    await expect(done).rejects.toBeInstanceOf(UploadNetworkError);
  });

  it('cancels the request when its signal aborts, and sends nothing for an aborted signal', async () => {
    const controller = new AbortController();
    const done = uploadWithProgress('/u', form(), { signal: controller.signal });
    controller.abort();
    const error = await done.catch((e: unknown) => e);
    expect(isUploadAborted(error)).toBe(true);
    expect(FakeXhr.sent[0]!.aborted).toBe(true);

    const late = uploadWithProgress('/u', form(), { signal: controller.signal });
    expect(isUploadAborted(await late.catch((e: unknown) => e))).toBe(true);
    expect(FakeXhr.sent).toHaveLength(1);
  });
});
