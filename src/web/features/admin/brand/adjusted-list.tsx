/**
 * "Adjusted for readability": each colour pair the contrast guard changed, in words,
 * with the colour the admin chose and the one the product draws instead, side by side.
 */
import { ArrowRight } from 'lucide-react';
import type { BrandPalette } from '../../../../contract/brand-contrast';
import { readabilityNotes } from './brand-words';

function Swatch({ color }: { color: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 font-mono text-xs">
      <span aria-hidden className="size-5 shrink-0 rounded border" style={{ backgroundColor: color }} />
      {color}
    </span>
  );
}

export function AdjustedList({ palette }: { palette: BrandPalette }) {
  const notes = readabilityNotes(palette);
  if (notes.length === 0) {
    return (
      <p className="text-muted-foreground text-sm">Every colour reads well as chosen; nothing was changed.</p>
    );
  }
  return (
    <ul className="grid gap-3" data-testid="brand-adjusted">
      {notes.map((note) => (
        <li key={note.id} data-pair={note.id} className="grid gap-1.5 rounded-md border p-3 text-sm">
          <p>{note.text}.</p>
          <p className="flex flex-wrap items-center gap-2">
            <Swatch color={note.from} />
            <ArrowRight aria-hidden className="size-4 text-muted-foreground" />
            <span className="sr-only">becomes</span>
            <Swatch color={note.to} />
          </p>
        </li>
      ))}
    </ul>
  );
}
