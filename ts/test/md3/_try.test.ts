import { it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tremulousGame } from '../helpers/tremulous-game.js';
it('write', () => {
  for (const [p, b] of tremulousGame()) { mkdirSync(dirname(join('/tmp/tg', p)), { recursive: true }); writeFileSync(join('/tmp/tg', p), b); }
});
