/**
 * What a JPEG's header says, without decoding: the marker segments are walked from SOI to the first scan (SOS), each
 * length inside the file, and the frame header (SOFn) gives size, precision, components and the coding process. The
 * engines decode JPEG with libjpeg (ioquake3 code/renderercommon/tr_image_jpg.c, Doom 3 `LoadJPG`); here the bytes go
 * on as they are and the browser (or three.js) decodes them.
 */
import { ErrorCode, type ParseWarning } from '../base/errors.js';
import { fail, need, u16be } from './bytes.js';
import type { ImageInfo } from './types.js';

export interface JpegInfo extends ImageInfo {
  /** Bits per sample (8 for baseline; 12 for extended; 2–16 for lossless). */
  precision: number;
  components: number;
  progressive: boolean;
  /** SOF0 baseline, SOF1 extended, SOF2 progressive, SOF3 lossless, … (the marker's low nibble). */
  process: number;
  warnings: ParseWarning[];
}

const PROCESS_NAMES = ['baseline', 'extended', 'progressive', 'lossless', '', 'differential sequential', 'differential progressive', 'differential lossless',
  '', 'arithmetic extended', 'arithmetic progressive', 'arithmetic lossless', '', 'arithmetic differential sequential', 'arithmetic differential progressive', 'arithmetic differential lossless'];

export function isJpeg(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC). */
const isFrameMarker = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

export function jpegInfo(b: Uint8Array): JpegInfo {
  need(b, 2, 'a JPEG SOI marker');
  if (b[0] !== 0xff || b[1] !== 0xd8) fail(ErrorCode.BadMagic, 'a JPEG starts with FF D8', 0);
  let frame: Omit<JpegInfo, 'warnings'> | null = null;
  let at = 2;
  for (;;) {
    need(b, at + 2, 'a JPEG marker');
    if (b[at] !== 0xff) fail(ErrorCode.BadOffset, `JPEG segments lead to byte ${at}, which is 0x${b[at].toString(16)}, not a marker`, at);
    let m = b[at + 1];
    while (m === 0xff) {
      at++; // fill bytes before a marker
      need(b, at + 2, 'a JPEG marker');
      m = b[at + 1];
    }
    if (m === 0xd8 || m === 0x01 || (m >= 0xd0 && m <= 0xd7)) {
      at += 2; // standalone markers carry no length
      continue;
    }
    if (m === 0xd9) fail(ErrorCode.MissingBlock, `JPEG ends (EOI) before ${frame ? 'its first scan' : 'a frame header (SOF)'}`, at);
    need(b, at + 4, 'a JPEG segment length');
    const length = u16be(b, at + 2);
    if (length < 2) fail(ErrorCode.BadCount, `JPEG segment FF ${m.toString(16).toUpperCase()} declares ${length} bytes (at least 2)`, at + 2);
    if (at + 2 + length > b.length) fail(ErrorCode.Truncated, `JPEG segment FF ${m.toString(16).toUpperCase()} of ${length} bytes runs past the end of the file`, b.length);
    if (isFrameMarker(m) && !frame) {
      if (length < 8) fail(ErrorCode.Truncated, `JPEG frame header of ${length} bytes (at least 8)`, at + 2);
      const precision = b[at + 4];
      const height = u16be(b, at + 5);
      const width = u16be(b, at + 7);
      const components = b[at + 9];
      if (width === 0) fail(ErrorCode.BadCount, 'JPEG width 0', at + 7);
      if (height === 0) fail(ErrorCode.Unsupported, 'JPEG height 0 (set later by a DNL marker; libjpeg refuses it)', at + 5);
      if (components === 0) fail(ErrorCode.BadCount, 'JPEG frame with 0 components', at + 9);
      const process = m & 0x0f;
      const progressive = process === 2 || process === 6 || process === 10 || process === 14;
      frame = {
        format: 'jpeg',
        width,
        height,
        hasAlpha: false,
        precision,
        components,
        progressive,
        process,
        detail: `JPEG ${PROCESS_NAMES[process]}, ${components} component${components === 1 ? '' : 's'}, ${precision}-bit`,
      };
    }
    if (m === 0xda) {
      if (!frame) fail(ErrorCode.MissingBlock, 'JPEG scan (SOS) before any frame header (SOF)', at);
      break;
    }
    at += 2 + length;
  }
  const warnings: ParseWarning[] = [];
  // A JPEG ends with EOI; real files sometimes carry bytes after it, so look near the end, not at the last two bytes.
  let eoi = -1;
  for (let i = b.length - 2; i >= Math.max(at, b.length - 1024); i--) {
    if (b[i] === 0xff && b[i + 1] === 0xd9) {
      eoi = i;
      break;
    }
  }
  if (eoi < 0) warnings.push({ code: 'NO_EOI', message: 'no EOI marker (FF D9) near the end: the file may be truncated', offset: b.length });
  return { ...frame!, warnings };
}
