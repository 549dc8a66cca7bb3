/**
 * Counts the bytes of every typed array allocated while a parse runs, so the fuzzer can check the memory bound of
 * docs/errors.md on each input. The global typed-array constructors are replaced by counting subclasses (library
 * code looks `Float32Array` & co. up at call time, so it picks them up without any hook in the library); a view on
 * an existing buffer (`subarray`, `new Uint8Array(buffer, …)`) allocates nothing and is not counted. `instanceof`
 * keeps working both ways through `Symbol.hasInstance`.
 *
 * Counting is cumulative, so it bounds the peak too: a list that grows by doubling is charged for every copy.
 */

const NAMES = [
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

let counting = false;
let allocated = 0;
let installed = false;
/** While metering with a cap (`meteredAsync(fn, cap)`): the count at which a construction throws `AllocationCapExceeded`. */
let capAt = Infinity;

/**
 * Thrown by a typed-array construction that would take a capped run past its cap, BEFORE the array is made: a run
 * heading for gigabytes (the writers' campaign, gltf-writers.ts) stops at the cap instead of taking the machine's memory.
 */
export class AllocationCapExceeded extends Error {
  constructor(readonly requested: number, readonly total: number) {
    super(`typed arrays of ${total} bytes asked for (the last ${requested}): past the run's cap`);
  }
}

/** Bytes a typed-array construction will allocate, when its arguments say so before it runs (a length or an array-like). */
function requestedBytes(args: unknown[], bytesPerElement: number): number {
  const a = args[0];
  if (typeof a === 'number') return a * bytesPerElement;
  if (a && typeof a === 'object' && !(a instanceof ArrayBuffer) && typeof (a as { length?: unknown }).length === 'number') return (a as { length: number }).length * bytesPerElement;
  return 0;
}

type AnyTypedArrayCtor = new (...args: unknown[]) => ArrayBufferView;

/** Replace the global typed-array constructors by counting ones (idempotent; they count only while metering). */
export function installAllocMeter(): void {
  if (installed) return;
  installed = true;
  const g = globalThis as unknown as Record<string, AnyTypedArrayCtor>;
  for (const name of NAMES) {
    const Original = g[name];
    if (!Original) continue;
    const perElement = (Original as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    const Counting = class extends Original {
      constructor(...args: unknown[]) {
        if (counting && capAt !== Infinity) {
          const want = requestedBytes(args, perElement);
          if (allocated + want > capAt) throw new AllocationCapExceeded(want, allocated + want);
        }
        super(...args);
        const a = args[0];
        if (counting && !(a instanceof ArrayBuffer) && !(typeof SharedArrayBuffer !== 'undefined' && a instanceof SharedArrayBuffer)) {
          allocated += this.byteLength;
        }
      }
      static override [Symbol.hasInstance](x: unknown): boolean {
        return x instanceof Original;
      }
    };
    Object.defineProperty(Counting, 'name', { value: name });
    g[name] = Counting as unknown as AnyTypedArrayCtor;
  }
}

/** Run `fn` and return what it returned (or threw) together with the typed-array bytes it allocated. */
export function metered<T>(fn: () => T): { bytes: number; value?: T; error?: unknown } {
  installAllocMeter();
  const before = allocated;
  counting = true;
  try {
    const value = fn();
    return { bytes: allocated - before, value };
  } catch (error) {
    return { bytes: allocated - before, error };
  } finally {
    counting = false;
  }
}

/**
 * `metered` for an asynchronous `fn` (the glTF import): counts from the call until its promise settles. Only one
 * metered run may be in flight (the fuzz loop awaits each input), or the counts would mix. With a `cap`, a typed-array
 * construction that would take the run's count past it throws `AllocationCapExceeded` instead of allocating.
 */
export async function meteredAsync<T>(fn: () => Promise<T>, cap = Infinity): Promise<{ bytes: number; value?: T; error?: unknown }> {
  installAllocMeter();
  const before = allocated;
  counting = true;
  capAt = before + cap;
  try {
    const value = await fn();
    return { bytes: allocated - before, value };
  } catch (error) {
    return { bytes: allocated - before, error };
  } finally {
    counting = false;
    capAt = Infinity;
  }
}
