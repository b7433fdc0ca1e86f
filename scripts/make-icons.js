#!/usr/bin/env node
// Draws Cairn's icon (three stacked stones on a teal rounded square) as PNGs with no image
// library: each pixel is 4x4 supersampled for smooth edges, then zlib-compressed into a PNG.
//   node scripts/make-icons.js   → build/icon.png (512), resources/icon.png (256), resources/tray.png (32), resources/tray@2x.png (64)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEAL = [46, 107, 111];
const STONE = [255, 255, 255];

// Shapes in unit coordinates (0..1): the tile and three stones, widest at the bottom.
const STONES = [
  { cx: 0.5, cy: 0.7, rx: 0.3, ry: 0.12 },
  { cx: 0.5, cy: 0.5, rx: 0.22, ry: 0.1 },
  { cx: 0.5, cy: 0.32, rx: 0.14, ry: 0.08 },
];

function insideRoundedSquare(x, y, radius) {
  const dx = Math.max(radius - x, 0, x - (1 - radius));
  const dy = Math.max(radius - y, 0, y - (1 - radius));
  return dx * dx + dy * dy <= radius * radius;
}

function colourAt(x, y, withTile) {
  if (STONES.some((s) => ((x - s.cx) / s.rx) ** 2 + ((y - s.cy) / s.ry) ** 2 <= 1))
    return withTile ? [...STONE, 255] : [...TEAL, 255];
  if (withTile && insideRoundedSquare(x, y, 0.2)) return [...TEAL, 255];
  return [0, 0, 0, 0];
}

function render(size, withTile) {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const [r, g, b, a] = colourAt(
            (px + (sx + 0.5) / samples) / size,
            (py + (sy + 0.5) / samples) / size,
            withTile,
          );
          sum[0] += r * a;
          sum[1] += g * a;
          sum[2] += b * a;
          sum[3] += a;
        }
      }
      const offset = (py * size + px) * 4;
      const alpha = sum[3] / (samples * samples);
      pixels[offset] = sum[3] ? Math.round(sum[0] / sum[3]) : 0;
      pixels[offset + 1] = sum[3] ? Math.round(sum[1] / sum[3]) : 0;
      pixels[offset + 2] = sum[3] ? Math.round(sum[2] / sum[3]) : 0;
      pixels[offset + 3] = Math.round(alpha);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

// PNG layout: https://www.w3.org/TR/png/ (8-bit RGBA, filter type 0 on every row).
function encodePng(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const OUTPUTS = [
  { file: 'build/icon.png', size: 512, tile: true },
  { file: 'resources/icon.png', size: 256, tile: true },
  { file: 'resources/tray.png', size: 32, tile: true },
  { file: 'resources/tray@2x.png', size: 64, tile: true },
];

for (const { file, size, tile } of OUTPUTS) {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, encodePng(size, render(size, tile)));
  console.log(`${file} ${size}x${size}`);
}
