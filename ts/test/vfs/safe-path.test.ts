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

  it('refuses DEL, every C1 control and the bidirectional formatting characters, as it does C0; the message shows each escaped', () => {
    const refused = [0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i), 0x61c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
    for (const c of refused) {
      const name = `models/a${String.fromCharCode(c)}gnp.md3`;
      let message = '';
      try {
        safeOutputPath('out', name);
      } catch (e) {
        expect((e as ModelParseError).code).toBe('UNSAFE_PATH');
        message = (e as Error).message;
      }
      expect(message, c.toString(16)).toContain(`"models/a\\u${c.toString(16).padStart(4, '0')}gnp.md3": a control character`);
    }
    // Their neighbours are names: the last C0 neighbour '~', NBSP and Latin-1 above C1, the zero-width joiners, an
    // Arabic letter beside U+061C, the CP437 letters a zip's names decode to.
    for (const ok of ['~', '\u00a0', '\u00a1', 'é', '\u200d', '\u2010', '\u2070', '\u061b', '\u061d', 'Ç', '░']) {
      expect(safeRelativePath(`models/a${ok}b.md3`)).toBe(`models/a${ok}b.md3`);
    }
  });
});
