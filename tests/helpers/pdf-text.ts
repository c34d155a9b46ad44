import { inflateSync } from 'node:zlib';

/**
 * The text a PDF shows, a line per text operation: PDFKit writes the standard fonts' text as hex
 * strings in Tj/TJ, inside deflated content streams. Latin-1 decoded, so typographic quotes read
 * as their WinAnsi bytes: assert on plain words.
 */
export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const m of pdf.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1], 'latin1')).toString('latin1');
    } catch {
      content = m[1];
    }
    for (const op of content.matchAll(/\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]+)>\s*Tj/g)) {
      const hexes = op[1] ? [...op[1].matchAll(/<([0-9a-fA-F]+)>/g)].map((h) => h[1]) : [op[2]];
      lines.push(hexes.map((h) => Buffer.from(h, 'hex').toString('latin1')).join(''));
    }
  }
  return lines.join('\n');
}

/** The PDF's words as one line: a sentence wrapped over two lines still reads whole. */
export const pdfWords = (pdf: Buffer) => pdfText(pdf).replace(/\s+/g, ' ');
