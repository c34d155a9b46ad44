/**
 * The recordings the simulator serves: a committed MP3 (spoken sample, made once with espeak-ng
 * and lame) when the caller asks for audio/mpeg, and Bland's default WAV otherwise (a tone made
 * here, so the WAV path needs no fixture). Plus single-range parsing for 206 answers.
 */
import { readFileSync } from 'node:fs';

let mp3: Buffer | null = null;
let wav: Buffer | null = null;

export function sampleMp3(): Buffer {
  mp3 ??= readFileSync(new URL('./fixtures/sample-call.mp3', import.meta.url));
  return mp3;
}

/** Three seconds of a quiet 440 Hz tone, 8 kHz 16-bit mono PCM. */
export function sampleWav(): Buffer {
  if (wav) return wav;
  const rate = 8000;
  const samples = rate * 3;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 6000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  wav = Buffer.concat([header, data]);
  return wav;
}

export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * `bytes=a-b`, `bytes=a-` and `bytes=-n` (one range). Anything else, several ranges included,
 * is ignored and the whole file is sent, as RFC 9110 allows.
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
