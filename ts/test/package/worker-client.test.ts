/**
 * ModelWorker's failure modes, on a stand-in worker driven event by event (the same events a browser sends:
 * a bare `error` Event when the script fails to load, `message` events with the worker's replies). The real
 * browser, with a real 404 and a real HTML fallback page, is in bundlers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ModelWorker, type WorkerLike } from '../../src/worker/client.js';
import type { WorkerReply, WorkerRequest } from '../../src/worker/protocol.js';

/** A worker that records what it is sent and emits what the test tells it to. */
class StandInWorker implements WorkerLike {
  private readonly events = new EventTarget();
  sent: WorkerRequest[] = [];
  terminated = false;
  refuseNextPost: Error | null = null;
  postMessage(message: unknown): void {
    if (this.refuseNextPost) {
      const e = this.refuseNextPost;
      this.refuseNextPost = null;
      throw e;
    }
    this.sent.push(message as WorkerRequest);
  }
  terminate(): void {
    this.terminated = true;
  }
  /** The listener gets what a browser's Worker dispatches: `data` on a message, `message` on an error. */
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: { data?: unknown; message?: string }) => void): void {
    this.events.addEventListener(type, (e) => listener(e as Event & { data?: unknown; message?: string }));
  }
  reply(data: WorkerReply): void {
    this.events.dispatchEvent(new MessageEvent('message', { data }));
  }
  /** What a browser dispatches when a module worker's script cannot be fetched or evaluated. */
  failToLoad(): void {
    this.events.dispatchEvent(new Event('error'));
  }
  /** An uncaught exception inside a running worker (an ErrorEvent with a message). */
  crash(message: string): void {
    this.events.dispatchEvent(Object.assign(new Event('error'), { message }));
  }
}

const settle = <T>(p: Promise<T>) => p.then((value) => ({ value, error: undefined }), (error: Error) => ({ value: undefined, error }));

describe('ModelWorker when its script did not load', () => {
  it('rejects a call made after the failure, and every later call, instead of waiting forever', async () => {
    const fake = new StandInWorker();
    const w = new ModelWorker(fake);
    fake.failToLoad();
    const open = await settle(w.open([{ name: 'a.md2', source: new Uint8Array(8) }]));
    expect(open.error?.message).toMatch(/^the model worker script did not load: a 404, an HTML page served in its place, or a syntax error\. Serve the package's worker script \(idtech-models\/worker/);
    const calls: (() => Promise<unknown>)[] = [() => w.setClip(0), () => w.pose(0), () => w.setBackend('ts'), () => w.ready];
    for (const call of calls) {
      expect((await settle(call())).error).toBe(open.error);
    }
    expect(fake.sent).toEqual([]); // nothing was posted to a worker that cannot answer
    expect(fake.terminated).toBe(true);
  });

  it('rejects the calls already waiting when the failure arrives', async () => {
    const fake = new StandInWorker();
    const w = new ModelWorker(fake);
    const pending = [settle(w.open([{ name: 'a.md2', source: new Uint8Array(8) }])), settle(w.pose(3))];
    await Promise.resolve();
    expect(fake.sent.map((r) => r.type)).toEqual(['open', 'pose']);
    fake.failToLoad();
    const [open, pose] = await Promise.all(pending);
    expect(open.error?.message).toMatch(/did not load/);
    expect(pose.error).toBe(open.error);
  });

  it('keeps a stream it was given when the worker had already failed (nothing read, nothing transferred)', async () => {
    const fake = new StandInWorker();
    const w = new ModelWorker(fake);
    fake.failToLoad();
    const stream = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(4)) });
    await expect(w.open([{ name: 'a.md5mesh', source: stream }])).rejects.toThrow(/did not load/);
    expect(stream.locked).toBe(false);
  });
});

describe('ModelWorker once its script runs', () => {
  it('resolves ready on the worker\'s first message and answers calls by id', async () => {
    const fake = new StandInWorker();
    const w = new ModelWorker(fake);
    fake.reply({ id: 0, type: 'ready' });
    await w.ready;
    const clip = w.setClip(2);
    const backend = w.setBackend('ts');
    await Promise.resolve();
    expect(fake.sent).toEqual([{ type: 'clip', clip: 2, id: 1 }, { type: 'backend', backend: 'ts', id: 2 }]);
    fake.reply({ id: 2, type: 'done', backend: 'ts' });
    fake.reply({ id: 1, type: 'done' });
    expect(await backend).toBe('ts');
    await expect(clip).resolves.toBeUndefined();
  });

  it('treats an uncaught error in the worker as the end of it: pending and later calls reject with its message', async () => {
    const fake = new StandInWorker();
    const w = new ModelWorker(fake);
    fake.reply({ id: 0, type: 'ready' });
    const pose = settle(w.pose(1));
    await Promise.resolve();
    fake.crash('Uncaught RangeError: Maximum call stack size exceeded');
    const { error } = await pose;
    expect(error?.message).toBe('the model worker failed: Uncaught RangeError: Maximum call stack size exceeded');
    await expect(w.setClip(0)).rejects.toBe(error);
    expect(fake.terminated).toBe(true);
  });

  it('after terminate(), pending and later calls reject', async () => {
    const fake = new StandInWorker();
    const w = new ModelWorker(fake);
    fake.reply({ id: 0, type: 'ready' });
    const pose = settle(w.pose(0));
    w.terminate();
    expect((await pose).error?.message).toBe('the model worker was terminated');
    await expect(w.pose(0)).rejects.toThrow('the model worker was terminated');
    expect(fake.terminated).toBe(true);
  });

  it('a message that cannot be posted fails that call only', async () => {
    const fake = new StandInWorker();
    const w = new ModelWorker(fake);
    fake.reply({ id: 0, type: 'ready' });
    fake.refuseNextPost = new DOMException('An ArrayBuffer is detached and could not be cloned.', 'DataCloneError');
    await expect(w.setClip(1)).rejects.toThrow(/detached/);
    const clip = w.setClip(1);
    await Promise.resolve();
    fake.reply({ id: fake.sent.at(-1)!.id, type: 'done' });
    await expect(clip).resolves.toBeUndefined();
  });
});

describe('ModelWorker.create', () => {
  it('says what it needs where there are no Web Workers (Node)', () => {
    expect(typeof (globalThis as { Worker?: unknown }).Worker).toBe('undefined');
    expect(() => ModelWorker.create()).toThrow('ModelWorker needs Web Workers (a browser, Deno or Bun); in Node, use openPlayable on this thread');
  });
});
