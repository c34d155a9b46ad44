/**
 * The brand's images: the logo for light backgrounds, the logo for dark ones and the
 * app icon. Each shows what is saved on the background it is drawn on, uploads as soon as a file
 * is chosen (checked here first, then again by the server, which re-encodes it) and can be removed.
 */
import { type ChangeEvent, useState } from 'react';
import type { AdminBrand, BrandAssetVariant } from '../../../../contract/brand';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { failureToast } from '../../../lib/failure-toast';
import { serverMessageOf } from '../../../lib/api';
import { toast } from '../../../lib/use-toast';
import { cn } from '../../../lib/utils';
import { brandFileProblem, useRemoveBrandImage, useUploadBrandImage } from './queries';

const ACCEPT = 'image/png,image/webp,image/svg+xml,.png,.webp,.svg';

interface Slot {
  variant: BrandAssetVariant;
  title: string;
  hint: string;
  dark: boolean;
  url: (brand: AdminBrand) => string | null;
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

function ImageSlot({ slot, brand }: { slot: Slot; brand: AdminBrand }) {
  const upload = useUploadBrandImage();
  const remove = useRemoveBrandImage();
  const [problem, setProblem] = useState<string | null>(null);
  const url = slot.url(brand);
  const id = `brand-image-${slot.variant}`;
  const what = slot.title.toLowerCase();

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    const wrong = brandFileProblem(file);
    setProblem(wrong);
    if (wrong) {
      input.value = '';
      return;
    }
    upload.mutate(
      { variant: slot.variant, file },
      {
        onSuccess: () => toast({ title: `${slot.title} uploaded` }),
        onError: (error) => {
          setProblem(serverMessageOf(error, 'The image could not be uploaded.'));
          failureToast('Upload failed', error, 'The image could not be uploaded.');
        },
        // The same file may be chosen again after a failure or a removal.
        onSettled: () => {
          input.value = '';
        },
      },
    );
  }

  function removeImage() {
    setProblem(null);
    remove.mutate(slot.variant, {
      onSuccess: () => toast({ title: `${slot.title} removed` }),
      onError: (error) => failureToast('Remove failed', error, 'The image could not be removed.'),
    });
  }

  return (
    <section className="grid content-start gap-2" aria-labelledby={`${id}-title`} data-variant={slot.variant}>
      <h3 id={`${id}-title`} className="font-semibold text-sm">
        {slot.title}
      </h3>
      <div
        className={cn(
          'flex h-24 items-center justify-center rounded-md border p-3',
          slot.dark ? 'border-slate-700 bg-[#0f172b] text-slate-300' : 'bg-white text-slate-600',
        )}
        data-testid={`${id}-swatch`}
      >
        {upload.isPending ? (
          <Spinner className="size-5 text-current" />
        ) : url ? (
          <img
            src={url}
            alt={`Current ${what}`}
            className={cn('max-w-full object-contain', slot.variant === 'icon' ? 'size-16' : 'h-10 w-auto')}
          />
        ) : (
          <span className="text-xs">No image</span>
        )}
      </div>
      <Label htmlFor={id}>Upload {what}</Label>
      <Input
        id={id}
        type="file"
        accept={ACCEPT}
        onChange={choose}
        disabled={upload.isPending}
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
          disabled={remove.isPending}
          aria-label={`Remove ${what}`}
        >
          Remove
        </Button>
      )}
    </section>
  );
}

export function BrandImagesCard({ brand }: { brand: AdminBrand }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Logo and icon</CardTitle>
        <CardDescription>
          The server checks and re-encodes every image, so nothing inside an SVG can run.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3 [&>*]:min-w-0">
        {SLOTS.map((slot) => (
          <ImageSlot key={slot.variant} slot={slot} brand={brand} />
        ))}
      </CardContent>
    </Card>
  );
}
