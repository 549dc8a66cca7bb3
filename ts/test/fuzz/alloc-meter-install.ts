/**
 * Installs the allocation meter when first imported. glTF Transform builds its componentType → typed-array table
 * when its module loads and compares `array.constructor` against the globals later, so the counting constructors
 * must be in place before it loads: import this first in anything that meters the glTF import.
 */
import { installAllocMeter } from './alloc-meter.js';

installAllocMeter();
