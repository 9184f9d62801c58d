import { execFile } from 'node:child_process';

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
