/**
 * National identity numbers: the US Social Security number (`[SSN]`) and the UK National
 * Insurance number (`[NI]`), looked for whenever `nationalIds` is on, and each further country a
 * client names in `nationalIdCountries` (`[NATIONAL_ID]`). A country is one entry of
 * NATIONAL_ID_FORMATS: add a country there.
 */
import { luhnValid } from './cards';
import { hasContext } from './context';
import { runSpan, type Scan, spanOfTokens } from './scan';
import { wordsBefore } from './tokens';
import type { FoundKey } from './types';

interface NationalIdFormat {
  country: string;
  key: FoundKey;
  label: string;
  find(scan: Scan): void;
}

const SSN_CONTEXT = new Set(['ssn', 'social']);
const NI_CONTEXT_PHRASES = [['national', 'insurance'], ['ni', 'number'], ['nino']];

function validSsn(d: string): boolean {
  if (d.length !== 9) return false;
  const area = d.slice(0, 3);
  const group = d.slice(3, 5);
  const serial = d.slice(5);
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
}

export const NATIONAL_ID_FORMATS: NationalIdFormat[] = [
  {
    country: 'US',
    key: 'ssn',
    label: '[SSN]',
    find(scan) {
      for (const run of scan.runs) {
        const before = wordsBefore(scan.tokens, run.first, 6);
        if (before.includes('insurance')) continue; // "social insurance number": Canada's, not an SSN
        const named =
          hasContext(scan.tokens, run.first, 6, SSN_CONTEXT) ||
          wordsBefore(scan.tokens, run.first, 6).join(' ').includes('s s n');
        const shape = run.groups.map((g) => g.length).join('-');
        if (run.digits.length === 9 && (named || (shape === '3-2-4' && validSsn(run.digits))))
          scan.spans.push(runSpan(scan, run, 'ssn', '[SSN]'));
        // "the last four of my social are 6789"
        else if (run.digits.length === 4 && named && wordsBefore(scan.tokens, run.first, 8).includes('last'))
          scan.spans.push(runSpan(scan, run, 'ssn', '[SSN]'));
      }
    },
  },
  {
    country: 'GB',
    key: 'ni',
    label: '[NI]',
    find(scan) {
      const { tokens } = scan;
      const named = (i: number) => {
        const before = wordsBefore(tokens, i, 8).reverse().join(' ');
        return NI_CONTEXT_PHRASES.some((p) => before.includes(p.join(' ')));
      };
      for (const run of scan.runs) {
        if (run.digits.length !== 6) continue;
        // two prefix letters before the digits: "AB", or spelled "A B"
        let prefix = '';
        let firstTok = run.first - 1;
        const b1 = tokens[firstTok];
        if (b1?.kind === 'word' && b1.text.length === 2) prefix = b1.text;
        else if (
          b1?.kind === 'word' &&
          b1.text.length === 1 &&
          tokens[firstTok - 1]?.kind === 'word' &&
          tokens[firstTok - 1]!.text.length === 1
        ) {
          firstTok--;
          prefix = tokens[firstTok]!.text + b1.text;
        } else continue;
        const isNamed = named(firstTok);
        if (!isNamed && prefix !== prefix.toUpperCase()) continue;
        const up = prefix.toUpperCase();
        const validPrefix =
          /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]$/.test(up) &&
          !['BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'].includes(up);
        if (!isNamed && !validPrefix) continue;
        let lastTok = run.last;
        const gap = tokens[run.last + 1]?.text === ',' ? 1 : 0;
        const suffix = tokens[run.last + 1 + gap];
        if (suffix?.kind === 'word' && suffix.text.length === 1 && /^[A-Da-d]$/.test(suffix.text))
          lastTok += 1 + gap;
        else if (!isNamed) continue;
        scan.spans.push(spanOfTokens(scan, firstTok, lastTok, 'ni', '[NI]'));
      }
    },
  },
  {
    // Canada's Social Insurance Number: nine digits passing the Luhn check, never starting 0 or 8;
    // said after "social insurance" / "SIN", or written 3-3-3 (a phone is 3-3-4).
    country: 'CA',
    key: 'nationalId',
    label: '[NATIONAL_ID]',
    find(scan) {
      for (const run of scan.runs) {
        if (run.digits.length !== 9) continue;
        const before = wordsBefore(scan.tokens, run.first, 6);
        const named =
          before.join(' ').includes('insurance social') ||
          scan.tokens.slice(Math.max(0, run.first - 6), run.first).some((t) => t.text === 'SIN');
        const shaped = run.groups.map((g) => g.length).join('-') === '3-3-3';
        if ((named || (shaped && luhnValid(run.digits))) && !/^[08]/.test(run.digits))
          scan.spans.push(runSpan(scan, run, 'nationalId', '[NATIONAL_ID]'));
      }
    },
  },
];

export function detectNationalIds(scan: Scan): void {
  const countries = new Set(['US', 'GB', ...scan.options.nationalIdCountries.map((c) => c.toUpperCase())]);
  for (const format of NATIONAL_ID_FORMATS) if (countries.has(format.country)) format.find(scan);
}
