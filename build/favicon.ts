/**
 * Writes web/public/favicon.ico from web/public/favicon.svg: the SVG drawn by Chromium at 16, 32
 * and 48 px (transparent corners), each PNG stored as it is in one ICO file, as browsers, tabs and
 * bookmark tools ask for /favicon.ico whatever the page links. Run it after changing the SVG, and
 * commit both: `npx tsx build/favicon.ts` (CHROMIUM_PATH chooses another Chromium).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const SIZES = [16, 32, 48];
const svgPath = fileURLToPath(new URL('../web/public/favicon.svg', import.meta.url));
const icoPath = fileURLToPath(new URL('../web/public/favicon.ico', import.meta.url));

/** The SVG drawn at each size, as PNG images with an alpha channel. */
async function renderPngs(svg: string): Promise<Buffer[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    const pngs: Buffer[] = [];
    for (const size of SIZES) {
      await page.setContent(
        `<body style="margin:0"><img src="${src}" width="${size}" height="${size}" style="display:block"></body>`,
      );
      await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
      pngs.push(
        await page.screenshot({ clip: { x: 0, y: 0, width: size, height: size }, omitBackground: true }),
      );
    }
    return pngs;
  } finally {
    await browser.close();
  }
}

/** An ICO file holding each PNG as it is (ICO's PNG entries: every browser and Windows since Vista). */
function icoOf(pngs: Buffer[], sizes: number[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1: icon
  header.writeUInt16LE(pngs.length, 4);
  const entries: Buffer[] = [];
  let offset = header.length + 16 * pngs.length;
  pngs.forEach((png, i) => {
    const size = sizes[i] ?? 0;
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    entries.push(entry);
  });
  return Buffer.concat([header, ...entries, ...pngs]);
}

const pngs = await renderPngs(readFileSync(svgPath, 'utf8'));
writeFileSync(icoPath, icoOf(pngs, SIZES));
console.log(`wrote ${icoPath}: ${SIZES.join(', ')} px`);
