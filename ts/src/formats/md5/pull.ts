/**
 * Pull-driven parsing: a push parser whose callbacks hand out elements (md5anim frames, md5mesh meshes) turned into
 * an async generator that reads the source only as fast as the consumer takes elements.
 *
 * The parser pauses right after each element (`Md5ParserBase.pause`), so one element is handed out at a time
 * whatever the chunk size: a 1 GB `Uint8Array` and a 64 KiB stream both hold one chunk and one element. The next
 * chunk is requested only when the current one is used up. When the consumer stops (`break`, `return`, a throw),
 * the source is released (see {@link byteChunks}).
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { byteChunks, type ByteSource, type ReadOptions } from '../../base/source.js';

/** What {@link pullElements} drives: `write` returns the bytes consumed (less than all after a pause). */
export interface PausableParser<R> {
  write(chunk: Uint8Array): number;
  end(): R;
  pause(): void;
  readonly offset: number;
}

/**
 * Yields every element the parser emits, in order; returns the parser's result at the end of input (or throws its
 * error: TRUNCATED, BAD_COUNT, … at the end-of-input position). `makeParser` receives the `emit` function its
 * callbacks call; an emitted element is only valid until the consumer asks for the next one.
 */
export async function* pullElements<E, R>(
  makeParser: (emit: (element: E) => void) => PausableParser<R>,
  source: ByteSource,
  options: ReadOptions = {},
): AsyncGenerator<E, R, undefined> {
  const { signal, onProgress } = options;
  let pending: E | undefined;
  let has = false;
  const parser: PausableParser<R> = makeParser((element) => {
    pending = element;
    has = true;
    parser.pause();
  });
  let read = 0;
  for await (const chunk of byteChunks(source, options)) {
    let rest = chunk;
    while (rest.length > 0) {
      rest = rest.subarray(parser.write(rest));
      if (has) {
        const element = pending as E;
        pending = undefined;
        has = false;
        yield element;
        // A big chunk holds many elements: honour an abort between them, not only between chunks.
        if (signal?.aborted) throw new ModelParseError(ErrorCode.Aborted, 'the read was aborted', { offset: parser.offset });
      }
    }
    read += chunk.length;
    onProgress?.(read);
  }
  return parser.end();
}

/** A stream opened up to its header: the header, and the elements as a one-shot async iterable. */
export interface ElementReader<H, E> extends AsyncIterable<E> {
  readonly header: H;
  /** Stop reading and release the source (needed only when the elements are not iterated to the end or a break). */
  close(): Promise<void>;
}

/** Per-element work set up once the header is known (e.g. composing frames), and its clean-up. */
export interface ElementHooks<E> {
  each?: (element: E) => void;
  release?: () => void;
}

/**
 * Opens a pull-driven stream: reads until the parser reports its header (`onHeader`, which must come before any
 * element), then hands out elements as the reader is iterated. Errors before the header reject the returned promise;
 * later ones are thrown by the iteration.
 */
export async function openElements<H, E>(
  makeParser: (onHeader: (header: H) => void, onElement: (element: E) => void) => PausableParser<unknown>,
  source: ByteSource,
  options: ReadOptions,
  hooksFor: (header: H) => ElementHooks<E> = () => ({}),
): Promise<ElementReader<H, E>> {
  let header: H | undefined;
  const events = pullElements<E | null, unknown>(
    (emit) =>
      makeParser(
        (h) => {
          header = h;
          emit(null);
        },
        (e) => emit(e),
      ),
    source,
    options,
  );
  const first = await events.next();
  // The parsers report their header before the end of input can succeed, so this only guards the contract.
  if (first.done || header === undefined) throw new Error('stream ended without a header');
  const h: H = header;
  let hooks: ElementHooks<E>;
  try {
    hooks = hooksFor(h);
  } catch (e) {
    await events.return(undefined);
    throw e;
  }
  let used = false;
  let released = false;
  const release = async () => {
    await events.return(undefined);
    if (!released) {
      released = true;
      hooks.release?.();
    }
  };

  async function* elements(): AsyncGenerator<E, void, undefined> {
    try {
      for (;;) {
        const r = await events.next();
        if (r.done) return;
        const e = r.value as E;
        hooks.each?.(e);
        yield e;
      }
    } finally {
      await release();
    }
  }

  return {
    header: h,
    [Symbol.asyncIterator]() {
      if (used) throw new Error('a stream can be iterated once');
      used = true;
      return elements();
    },
    close() {
      used = true;
      return release();
    },
  };
}
