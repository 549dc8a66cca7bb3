/**
 * Parsing without I/O: a parser written as a generator yields the byte ranges it needs and receives their bytes.
 * The same parser then runs over a file handle, a Blob or HTTP ranges (`runPlan`) and synchronously over bytes in
 * memory (`runPlanSync`, used by the fuzzer), so the code that judges hostile input is one code.
 */
import type { RandomAccessReader } from './reader.js';
import { checkRange } from './reader.js';

export interface ReadRequest {
  offset: number;
  length: number;
}

export type ReadPlan<T> = Generator<ReadRequest, T, Uint8Array>;

export async function runPlan<T>(plan: ReadPlan<T>, reader: RandomAccessReader, signal?: AbortSignal): Promise<T> {
  let step = plan.next(undefined as unknown as Uint8Array);
  while (!step.done) {
    const bytes = await reader.read(step.value.offset, step.value.length, signal);
    step = plan.next(bytes);
  }
  return step.value;
}

export function runPlanSync<T>(plan: ReadPlan<T>, bytes: Uint8Array, name = 'memory'): T {
  let step = plan.next(undefined as unknown as Uint8Array);
  while (!step.done) {
    const { offset, length } = step.value;
    checkRange(name, bytes.length, offset, length);
    step = plan.next(bytes.subarray(offset, offset + length));
  }
  return step.value;
}
