#!/usr/bin/env node
/**
 * Renders Circa's icons from one drawing (run by hand after changing it; the PNGs are committed):
 * - resources/icon.png (1024 px): window and installer icon; electron-builder derives the macOS
 *   .icns and Windows .ico from it (macOS needs at least 512 px).
 * - resources/tray.png (32 px): the tray icon on Windows and Linux.
 * - resources/trayTemplate.png + trayTemplate@2x.png (16/32 px): macOS menu-bar icon. A "Template"
 *   image is black with alpha; macOS recolours it for light and dark menu bars.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'resources');

function drawing({ frame, paper, ink }) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256">
  <rect x="16" y="32" width="224" height="192" rx="22" fill="${frame}"/>
  <rect x="44" y="60" width="168" height="136" rx="6" fill="${paper}"/>
  <text x="128" y="168" text-anchor="middle" font-family="DejaVu Serif, Georgia, serif" font-weight="bold" font-size="92" fill="${ink}">c.</text>
</svg>`;
}

const colour = drawing({ frame: '#8b4a1f', paper: '#f7f2ea', ink: '#8b4a1f' });
// Template: the frame and the letters opaque black, the paper transparent.
const template = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256">
  <path fill-rule="evenodd" d="M38 32h180a22 22 0 0 1 22 22v148a22 22 0 0 1-22 22H38a22 22 0 0 1-22-22V54a22 22 0 0 1 22-22zM50 60h156a6 6 0 0 1 6 6v124a6 6 0 0 1-6 6H50a6 6 0 0 1-6-6V66a6 6 0 0 1 6-6z"/>
  <text x="128" y="168" text-anchor="middle" font-family="DejaVu Serif, Georgia, serif" font-weight="bold" font-size="92">c.</text>
</svg>`;

async function render(svg, size, file) {
  await sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 256) + 1 })
    .resize(size, size)
    .png()
    .toFile(path.join(dir, file));
}

await render(colour, 1024, 'icon.png');
await render(colour, 32, 'tray.png');
await render(template, 16, 'trayTemplate.png');
await render(template, 32, 'trayTemplate@2x.png');
console.log('icons written to resources/');
