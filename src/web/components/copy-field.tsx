/**
 * A read-only value with a copy button that says "Copied!" (SPEC §8): a labelled field (a webhook
 * URL, a new signing secret), or inline (`CopyValue`: a call's ID in the log and the drawer).
 */
import { Check, Copy } from 'lucide-react';
import { useCopyToClipboard } from '../lib/use-copy-to-clipboard';
import { cn } from '../lib/utils';
import { Button } from './ui/button';
import { Label } from './ui/label';
import { Textarea } from './ui/textarea';

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

/** A short value inline, in monospace, with a small copy button named for what it copies. */
export function CopyValue({ label, value, className }: { label: string; value: string; className?: string }) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <span className={cn('inline-flex items-center gap-1', className)}>
      <span className="select-all font-mono text-xs">{value}</span>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-7"
        onClick={() => copy(value)}
        aria-label={copied ? 'Copied!' : `Copy ${label} ${value}`}
        title={copied ? 'Copied!' : `Copy ${label}`}
      >
        {copied ? <Check /> : <Copy />}
      </Button>
    </span>
  );
}
