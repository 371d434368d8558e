import { crc32, deflateSync } from 'node:zlib';

/**
 * Real PNG files for uploads, made here rather than kept as binaries: a solid colour with a darker
 * band, so thumbnails in screenshots are told apart; `noise` makes the bytes incompressible (a large
 * upload whose progress can be watched).
 */
export function png(width: number, height: number, rgb: [number, number, number], noise = false): Buffer {
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0; // filter: none
    const band = y > height * 0.6 && y < height * 0.8;
    for (let x = 0; x < width; x++) {
      const at = y * row + 1 + x * 3;
      for (let c = 0; c < 3; c++) {
        const base = band ? Math.round(rgb[c]! * 0.6) : rgb[c]!;
        raw[at + c] = noise ? (base + ((Math.random() * 64) | 0)) & 0xff : base;
      }
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: noise ? 0 : 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Colours for a row of thumbnails. */
export const PALETTE: [number, number, number][] = [
  [232, 176, 75],
  [31, 42, 68],
  [88, 140, 126],
  [196, 90, 72],
  [120, 104, 168],
  [70, 130, 180],
];
