/**
 * The brand's images: the logo for light backgrounds, the logo for dark ones and the
 * app icon. Each shows what is saved on the background it is drawn on. A chosen file (checked
 * here first, then again by the server, which re-encodes it) or a removal is a draft the Brand tab
 * holds: nothing a client sees changes until "Save brand", and "Discard changes" drops it.
 */
import { type ChangeEvent, useState } from 'react';
import type { AdminBrand, BrandAssetVariant } from '../../../../contract/brand';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/utils';
import { brandFileProblem } from './queries';

const ACCEPT = 'image/png,image/webp,image/svg+xml,.png,.webp,.svg';

interface Slot {
  variant: BrandAssetVariant;
  title: string;
  hint: string;
  dark: boolean;
  url: (brand: AdminBrand) => string | null;
}

/** An image change not saved yet: a chosen file (shown from its bytes) or a removal. */
export type StagedImage = { kind: 'upload'; file: File; dataUrl: string } | { kind: 'remove' };
export type StagedImages = Partial<Record<BrandAssetVariant, StagedImage>>;
/** A variant's problems: a file refused in the browser, or the server's answer at the save. */
export type ImageProblems = Partial<Record<BrandAssetVariant, string>>;

/** What a slot shows: the staged file, nothing once a removal is staged, else what is saved. */
export function shownImageUrl(saved: string | null, staged: StagedImage | undefined): string | null {
  if (!staged) return saved;
  return staged.kind === 'upload' ? staged.dataUrl : null;
}

/** A data: URL, as the page's CSP allows for images (blob: it does not). */
function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

const SLOTS: readonly Slot[] = [
  {
    variant: 'light',
    title: 'Light logo',
    hint: 'For white backgrounds: login pages, headers, e-mails and reports. Any shape; shown about 32 px high.',
    dark: false,
    url: (b) => b.logoUrl,
  },
  {
    variant: 'dark',
    title: 'Dark logo',
    hint: 'For the dark theme. Without it, the name is shown there.',
    dark: true,
    url: (b) => b.logoDarkUrl,
  },
  {
    variant: 'icon',
    title: 'App icon',
    hint: 'Square: the browser tab and the installed app. Made from the logo when absent.',
    dark: false,
    url: (b) => b.iconUrl,
  },
];

function ImageSlot({
  slot,
  brand,
  staged,
  serverProblem,
  onStage,
}: {
  slot: Slot;
  brand: AdminBrand;
  staged: StagedImage | undefined;
  serverProblem: string | undefined;
  onStage: (variant: BrandAssetVariant, staged: StagedImage | null) => void;
}) {
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const problem = fileProblem ?? serverProblem ?? null;
  const saved = slot.url(brand);
  const url = shownImageUrl(saved, staged);
  const id = `brand-image-${slot.variant}`;
  const what = slot.title.toLowerCase();

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // The same file may be chosen again after a discard or a removal.
    input.value = '';
    if (!file) return;
    const wrong = brandFileProblem(file);
    setFileProblem(wrong);
    if (wrong) return;
    try {
      onStage(slot.variant, { kind: 'upload', file, dataUrl: await readAsDataUrl(file) });
    } catch {
      setFileProblem('The file could not be read.');
    }
  }

  function removeImage() {
    setFileProblem(null);
    // A file chosen over nothing saved is simply dropped; a saved image is removed at the save.
    onStage(slot.variant, saved ? { kind: 'remove' } : null);
  }

  const pendingNote =
    staged?.kind === 'upload'
      ? `${staged.file.name}: not saved yet. Save brand to use it.`
      : staged?.kind === 'remove'
        ? 'Removed when you save the brand.'
        : null;

  return (
    <section className="grid content-start gap-2" aria-labelledby={`${id}-title`} data-variant={slot.variant}>
      <h3 id={`${id}-title`} className="font-semibold text-sm">
        {slot.title}
      </h3>
      <div
        className={cn(
          'flex h-24 items-center justify-center rounded-md border p-3',
          slot.dark ? 'border-slate-700 bg-[#0f172b] text-slate-300' : 'bg-white text-slate-600',
          staged && 'border-dashed',
        )}
        data-testid={`${id}-swatch`}
      >
        {url ? (
          <img
            src={url}
            alt={staged ? `New ${what}, not saved` : `Current ${what}`}
            className={cn('max-w-full object-contain', slot.variant === 'icon' ? 'size-16' : 'h-10 w-auto')}
          />
        ) : (
          <span className="text-xs">No image</span>
        )}
      </div>
      {pendingNote && (
        <p className="text-amber-800 text-xs" data-testid={`${id}-staged`}>
          {pendingNote}
        </p>
      )}
      <Label htmlFor={id}>Upload {what}</Label>
      <Input
        id={id}
        type="file"
        accept={ACCEPT}
        onChange={choose}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
        className="h-auto py-1.5"
      />
      <p id={`${id}-hint`} className="text-muted-foreground text-xs">
        PNG, WebP or SVG, at most 1 MB. {slot.hint}
      </p>
      {problem && (
        <p id={`${id}-error`} role="alert" className="text-destructive text-xs">
          {problem}
        </p>
      )}
      {url && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="justify-self-start"
          onClick={removeImage}
          aria-label={`Remove ${what}`}
        >
          Remove
        </Button>
      )}
    </section>
  );
}

export function BrandImagesCard({
  brand,
  staged,
  problems,
  onStage,
}: {
  brand: AdminBrand;
  staged: StagedImages;
  problems: ImageProblems;
  onStage: (variant: BrandAssetVariant, staged: StagedImage | null) => void;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Logo and icon</CardTitle>
        <CardDescription>
          The server checks and re-encodes every image, so nothing inside an SVG can run. A new or removed
          image is saved with "Save brand".
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3 [&>*]:min-w-0">
        {SLOTS.map((slot) => (
          <ImageSlot
            key={slot.variant}
            slot={slot}
            brand={brand}
            staged={staged[slot.variant]}
            serverProblem={problems[slot.variant]}
            onStage={onStage}
          />
        ))}
      </CardContent>
    </Card>
  );
}
