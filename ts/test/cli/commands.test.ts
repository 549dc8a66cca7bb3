/** The CLI's lazily loaded commands (commands.ts): each name loads the command that answers to it. */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';

describe('CLI commands, loaded on first use', () => {
  it('each name loads the command whose spec has that name, with a synopsis and a run', async () => {
    expect(Object.keys(COMMANDS).sort()).toEqual(['bench', 'convert', 'inspect']);
    for (const [name, load] of Object.entries(COMMANDS)) {
      const command = await load();
      expect(command.spec.name).toBe(name);
      expect(command.spec.usage.length).toBeGreaterThan(0);
      expect(typeof command.run).toBe('function');
    }
  });
});
