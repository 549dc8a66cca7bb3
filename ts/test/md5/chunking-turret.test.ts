import { expect, test } from 'vitest';
import { turretEverySplit } from './_helpers.js';

test('turret.md5mesh: two-chunk splits at every 29th byte give the one-chunk result', () => {
  expect(turretEverySplit(29)).toBeGreaterThan(2000);
});
