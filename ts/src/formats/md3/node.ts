/** MD3 files from paths in Node. */
import { readingFile } from '../../base/errors.js';
import type { ReadOptions } from '../../base/source.js';
import { fileChunks, pathText } from '../../load/node.js';
import type { Md3Model } from '../../base/model.js';
import { parseMd3Stream } from './stream.js';

/** An MD3 file, streamed: only its header and then its declared ofsEnd bytes are ever held. */
export function loadMd3(path: string | URL, options?: ReadOptions): Promise<Md3Model> {
  return readingFile(pathText(path), () => parseMd3Stream(fileChunks(path), options));
}
