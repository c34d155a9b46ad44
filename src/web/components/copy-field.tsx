/** A read-only value (a webhook URL, a new signing secret) with a copy button that says "Copied!" (SPEC §8). */
import { Check, Copy } from 'lucide-react';
import { Button } from './ui/button';
import { Label } from './ui/label';
import { Textarea } from './ui/textarea';
import { useCopyToClipboard } from '../lib/use-copy-to-clipboard';

export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { copied, copy } = useCopyToClipboard();

  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-start gap-2">
        {/* A wrapping box rather than a one-line input: the whole URL stays readable on a phone. */}
        <Textarea
          id={id}
          value={value}
          readOnly
          rows={1}
          spellCheck={false}
          className="min-h-9 resize-none break-all font-mono text-xs md:text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          type="button"
          variant="outline"
          onClick={() => copy(value)}
          aria-label={copied ? 'Copied!' : `Copy ${label}`}
        >
          {copied ? <Check /> : <Copy />}
          <span>{copied ? 'Copied!' : 'Copy'}</span>
        </Button>
      </div>
    </div>
  );
}
