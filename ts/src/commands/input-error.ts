/**
 * A failure that belongs to one file (an input, or an output that could not be written) and carries no file of its
 * own; `main` prints it on one line (report.ts) and exits 1. `note` adds context the cause cannot know. Its own
 * module: the command line's shell reports it without loading any command.
 */
export class InputError extends Error {
  constructor(readonly file: string, override readonly cause: unknown, readonly note?: string) {
    super(String(cause));
  }
}

/** Bad input described in words (no parser error or system error behind it). */
export const badInput = (file: string, message: string): InputError => new InputError(file, new Error(message));
