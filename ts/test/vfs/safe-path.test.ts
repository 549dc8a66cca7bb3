/** Where the CLI may write the output for an inner archive path: inside the output folder, or UNSAFE_PATH. */
import { describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { safeOutputPath, safeRelativePath } from '../../src/vfs/safe-path.js';

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ModelParseError) return e.code;
    throw e;
  }
  return 'OK';
}

describe('safeOutputPath', () => {
  it('mirrors an inner path under the output folder, in its separator style, dropping . and empty segments', () => {
    expect(safeOutputPath('out', 'models/players/sarge/lower.glb')).toBe('out/models/players/sarge/lower.glb');
    expect(safeOutputPath('/tmp/out/', 'models\\x\\.\\y.glb')).toBe('/tmp/out/models/x/y.glb');
    expect(safeOutputPath('C:\\out', 'models/x.glb')).toBe('C:\\out\\models\\x.glb');
    expect(safeOutputPath('/', 'a//b.glb')).toBe('/a/b.glb');
    expect(safeOutputPath('', 'a/b.glb')).toBe('a/b.glb');
    expect(safeRelativePath('./models/./x..y.md3')).toBe('models/x..y.md3'); // '..' inside a name is a name
  });

  it('refuses every way out of the folder, on any platform', () => {
    const bad = ['../x', 'a/../../x', 'a/..', '..\\x', '/etc/passwd', '\\\\server\\share\\x', 'C:x', 'c:\\windows\\x', 'a/b:stream',
      'CON', 'models/nul.md3', 'aux.txt', 'com1', 'LPT9.glb', 'a/b./c', 'trailing ', 'nul\0', 'tab\there', '', '.', './', '//'];
    for (const p of bad) expect(code(() => safeOutputPath('out', p)), JSON.stringify(p)).toBe('UNSAFE_PATH');
  });
});
