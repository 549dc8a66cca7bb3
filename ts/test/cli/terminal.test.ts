/**
 * The one gate every line the CLI prints passes through (cli/terminal.ts): control characters escaped in JSON's
 * own form (so `--json` output stays JSON), line feeds and tabs kept, stderr lines cut with their length. The CLI
 * tests (cli-security.test.ts) drive it through the built command with hostile names.
 */
import { describe, expect, it } from 'vitest';
import { capLines, MAX_LINE, printable } from '../../src/commands/terminal.js';

describe('printable', () => {
  it('escapes every C0 control but line feed and tab, DEL, C1 and the bidi overrides; leaves the rest alone', () => {
    const all = Array.from({ length: 0x2070 }, (_, i) => String.fromCharCode(i)).join('');
    const out = printable(all);
    const kept = [...out.replace(/\\u[0-9a-f]{4}/g, '')];
    for (const c of kept) {
      const code = c.charCodeAt(0);
      expect(code === 10 || code === 9 || (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && !(code >= 0x202a && code <= 0x202e) && !(code >= 0x2066 && code <= 0x2069)), `U+${code.toString(16)}`).toBe(true);
    }
    expect(printable('\x1b]0;pwned\x07')).toBe('\\u001b]0;pwned\\u0007');
    expect(printable('a\x9b31mb\u202ec\r\n')).toBe('a\\u009b31mb\\u202ec\\u000d\n');
    expect(printable('é ü 日本 \t tab')).toBe('é ü 日本 \t tab');
  });

  it('JSON stays JSON: the escapes are JSON escapes, and the value reads back the same', () => {
    const value = { name: 'x\x9b\x7f\u202e\u2066y', list: ['\x1b'] };
    expect(JSON.parse(printable(JSON.stringify(value)))).toEqual(value);
  });
});

describe('capLines', () => {
  it('cuts each line past MAX_LINE with how many characters it left out; short text is untouched', () => {
    const long = 'x'.repeat(MAX_LINE + 1000);
    expect(capLines(`ok\n${long}\nend`)).toBe(`ok\n${'x'.repeat(MAX_LINE)}… (1000 more characters)\nend`);
    expect(capLines('short\nlines')).toBe('short\nlines');
  });
});
