/** MD5 (Doom 3) text formats: incremental tokenizer and push-driven md5mesh / md5anim parsers. */
export { Md5MeshParser, parseMd5Mesh } from './mesh.js';
export { recoverW } from '../quat.js';
export { Md5AnimParser, parseMd5Anim } from './anim.js';
export { Md5Tokenizer, decodeText, type Md5TokenSink } from './tokenizer.js';
export { parseDecimal, parseDecimalInto, type DecimalResult } from './number.js';
export { LIMITS } from './limits.js';
