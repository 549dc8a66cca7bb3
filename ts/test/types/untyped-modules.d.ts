/** The parts of dev dependencies that ship no types which the tests use (tsconfig.test.json type-checks the tests). */

declare module 'gltf-validator' {
  /** One finding; severity 0 error, 1 warning, 2 info, 3 hint. */
  export interface ValidationMessage {
    code: string;
    message: string;
    severity: number;
    pointer?: string;
  }
  export interface ValidationReport {
    issues: { numErrors: number; numWarnings: number; numInfos: number; numHints: number; messages: ValidationMessage[] };
  }
  export function validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<ValidationReport>;
}

declare module 'semver' {
  const semver: { satisfies(version: string, range: string): boolean };
  export default semver;
}
