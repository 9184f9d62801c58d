import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The text of a PDF, extracted by pdf-parse (PDF.js) in a child Node process: PDF.js is an ES
 * module that loads its worker by a dynamic import, which jest's CommonJS sandbox cannot do.
 */
export function pdfText(pdf: Uint8Array): Promise<string> {
  const script = `
    const { PDFParse } = require('pdf-parse');
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', async () => {
      const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
      try { process.stdout.write((await parser.getText()).text); } finally { await parser.destroy(); }
    });`;
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['-e', script],
      { cwd: __dirname, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        // The last lines say why (the first ones repeat PDF.js's minified source).
        if (err) reject(new Error(`pdf text: ${stderr.slice(-400)}`));
        else resolve(stdout);
      },
    );
    child.stdin?.end(Buffer.from(pdf));
  });
}

export interface PdfFont {
  name: string;
  type: string;
  embedded: boolean;
  /** As `pdffonts` decides it: the name carries a subset tag (`ABCDEF+`, ISO 32000-1 §9.6.4). */
  subset: boolean;
  unicode: boolean;
}

/** The fonts of a PDF as poppler's `pdffonts` (Debian `poppler-utils`) lists them. */
export function pdfFonts(pdf: Uint8Array): Promise<PdfFont[]> {
  const folder = mkdtempSync(path.join(tmpdir(), 'pdffonts-'));
  const file = path.join(folder, 'document.pdf');
  writeFileSync(file, pdf);
  return new Promise<PdfFont[]>((resolve, reject) => {
    execFile('pdffonts', [file], (err, stdout, stderr) => {
      if (err) return reject(new Error(`pdffonts: ${stderr || err.message}`));
      // name, type (may hold spaces), encoding, emb, sub, uni, object ID (two columns): read from the right.
      const rows = stdout.split('\n').slice(2).filter(Boolean);
      resolve(
        rows.map((row) => {
          const cells = row.trim().split(/\s+/);
          const [emb, sub, uni] = cells.slice(-5, -2);
          return {
            name: cells[0],
            type: cells.slice(1, -6).join(' '),
            embedded: emb === 'yes',
            subset: sub === 'yes',
            unicode: uni === 'yes',
          };
        }),
      );
    });
  }).finally(() => rmSync(folder, { recursive: true, force: true }));
}

export interface PdfWord {
  text: string;
  /** In points from the page's top-left corner, as poppler's `pdftotext -bbox` gives them. */
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** The words of a PDF's first page with their boxes, as poppler's `pdftotext -bbox` places them. */
export function pdfWords(pdf: Uint8Array): Promise<PdfWord[]> {
  const folder = mkdtempSync(path.join(tmpdir(), 'pdfwords-'));
  const file = path.join(folder, 'document.pdf');
  writeFileSync(file, pdf);
  return new Promise<PdfWord[]>((resolve, reject) => {
    execFile('pdftotext', ['-bbox', '-f', '1', '-l', '1', file, '-'], (err, stdout, stderr) => {
      if (err) return reject(new Error(`pdftotext: ${stderr || err.message}`));
      const unescape = (text: string) =>
        text.replace(
          /&(lt|gt|quot|apos|amp);/g,
          (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!,
        );
      const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
      resolve(
        [...stdout.matchAll(word)].map(([, xMin, yMin, xMax, yMax, text]) => ({
          text: unescape(text),
          xMin: Number(xMin),
          yMin: Number(yMin),
          xMax: Number(xMax),
          yMax: Number(yMax),
        })),
      );
    });
  }).finally(() => rmSync(folder, { recursive: true, force: true }));
}
