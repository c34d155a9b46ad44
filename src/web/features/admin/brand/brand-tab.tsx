/**
 * The admin console's Brand tab ("Settings › Brand"): the brand's settings and images
 * beside a live preview of what clients will see and what the contrast guard adjusted. The
 * preview follows the form as the admin types (brandPalette runs here, no request); chosen or
 * removed images are held here too. "Save brand" sends the images first (each to its own upload or
 * remove endpoint), then the changed fields; "Discard changes" drops both. Other brand cards (mail
 * DNS) follow at the end.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  type AdminBrand,
  BRAND_TEXTS,
  type BrandAssetVariant,
  BrandSettings,
} from '../../../../contract/brand';
import { type BrandPalette, brandPalette } from '../../../../contract/brand-contrast';
import { QueryView } from '../../../components/query-view';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverFieldErrors, serverMessageOf } from '../../../lib/api';
import { failureToast } from '../../../lib/failure-toast';
import { toast } from '../../../lib/use-toast';
import { AdjustedList } from './adjusted-list';
import { BrandSettingsForm } from './brand-form';
import { type BrandFormInput, changedFields, formValuesOf, isBrandField } from './brand-form-values';
import {
  BrandImagesCard,
  type ImageProblems,
  type StagedImage,
  type StagedImages,
  shownImageUrl,
} from './brand-images';
import { BrandPreview, type PreviewBrand } from './brand-preview';
import { MailDnsCard } from './mail-dns-card';
import { useAdminBrand, useRemoveBrandImage, useSaveBrand, useUploadBrandImage } from './queries';

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * The palette of the colours as typed. A colour half typed shows the saved one meanwhile, so the
 * preview does not jump to something else on every keystroke.
 */
function useLivePalette(typed: { primary?: string; accent?: string }, brand: AdminBrand): BrandPalette {
  const complete = (value: string | undefined, saved: string) => {
    const trimmed = value?.trim() ?? '';
    return HEX.test(trimmed) ? trimmed : saved;
  };
  const primary = complete(typed.primary, brand.primaryColor);
  const accent = complete(typed.accent, brand.accentColor);
  return useMemo(() => brandPalette(primary, accent), [primary, accent]);
}

function BrandEditor({ brand }: { brand: AdminBrand }) {
  const form = useForm<BrandFormInput, unknown, BrandSettings>({
    resolver: zodResolver(BrandSettings),
    defaultValues: formValuesOf(brand),
  });
  const save = useSaveBrand();
  const upload = useUploadBrandImage();
  const remove = useRemoveBrandImage();
  const values = useWatch({ control: form.control });
  const [staged, setStaged] = useState<StagedImages>({});
  const [imageProblems, setImageProblems] = useState<ImageProblems>({});
  const [savingImages, setSavingImages] = useState(false);
  const imagesChanged = Object.keys(staged).length > 0;

  function stage(variant: BrandAssetVariant, image: StagedImage | null) {
    setStaged(({ [variant]: _, ...rest }) => (image ? { ...rest, [variant]: image } : rest));
    setImageProblems(({ [variant]: _, ...rest }) => rest);
  }

  function discard() {
    form.reset(formValuesOf(brand));
    setStaged({});
    setImageProblems({});
  }

  /** Sends each staged image; what failed stays staged with the server's reason beside it. */
  async function saveImages(): Promise<boolean> {
    const problems: ImageProblems = {};
    // Object.entries is [string, …][]; `staged` is keyed by BrandAssetVariant
    for (const [variant, image] of Object.entries(staged) as [BrandAssetVariant, StagedImage][]) {
      try {
        if (image.kind === 'upload') await upload.mutateAsync({ variant, file: image.file });
        else await remove.mutateAsync(variant);
        setStaged(({ [variant]: _, ...rest }) => rest);
      } catch (error) {
        problems[variant] = serverMessageOf(
          error,
          image.kind === 'upload' ? 'The image could not be uploaded.' : 'The image could not be removed.',
        );
      }
    }
    setImageProblems(problems);
    return Object.keys(problems).length === 0;
  }

  // Another admin's save (a refetch with a newer time) replaces the form, unless this one has edits.
  const updatedAt = brand.updatedAt;
  const { reset } = form;
  const isDirty = form.formState.isDirty;
  const seen = useRef(updatedAt);
  useEffect(() => {
    if (seen.current === updatedAt) return;
    seen.current = updatedAt;
    if (!isDirty) reset(formValuesOf(brand));
  }, [updatedAt, isDirty, reset, brand]);

  const palette = useLivePalette({ primary: values.primaryColor, accent: values.accentColor }, brand);
  const preview: PreviewBrand = {
    name: values.name?.trim() || brand.name,
    loginHeadline: values.loginHeadline?.trim() ?? '',
    loginText: values.loginText?.trim() ?? '',
    footerText: values.footerText?.trim() ?? '',
    supportEmail: values.supportEmail?.trim() ?? '',
    logoUrl: shownImageUrl(brand.logoUrl, staged.light),
    logoDarkUrl: shownImageUrl(brand.logoDarkUrl, staged.dark),
  };

  const submit = form.handleSubmit(async (next) => {
    const changes = changedFields(next, brand);
    if (Object.keys(changes).length === 0 && !imagesChanged) {
      form.reset(formValuesOf(brand));
      toast({ title: 'Nothing to save', description: 'The brand is as saved.' });
      return;
    }
    if (imagesChanged) {
      setSavingImages(true);
      const imagesSaved = await saveImages().finally(() => setSavingImages(false));
      if (!imagesSaved) {
        failureToast('Brand not saved', null, 'An image could not be saved: see beside it.');
        return;
      }
    }
    if (Object.keys(changes).length === 0) {
      form.reset(formValuesOf(brand));
      toast({ title: BRAND_TEXTS.saved });
      return;
    }
    save.mutate(changes, {
      onSuccess: (saved) => {
        seen.current = saved.updatedAt;
        form.reset(formValuesOf(saved));
        toast({ title: BRAND_TEXTS.saved });
      },
      onError: (error) => {
        for (const [field, message] of Object.entries(serverFieldErrors(error))) {
          if (isBrandField(field)) form.setError(field, { message });
        }
        failureToast('Brand not saved', error, 'The brand could not be saved.');
      },
    });
  });

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
      <div className="grid min-w-0 gap-6">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{BRAND_TEXTS.heading}</h2>
            </CardTitle>
            <CardDescription>{BRAND_TEXTS.intro}</CardDescription>
          </CardHeader>
          <CardContent>
            <BrandSettingsForm
              form={form}
              onSubmit={submit}
              onDiscard={discard}
              pending={save.isPending || savingImages}
              imagesChanged={imagesChanged}
            />
          </CardContent>
        </Card>
        <BrandImagesCard brand={brand} staged={staged} problems={imageProblems} onStage={stage} />
      </div>
      <div className="grid min-w-0 gap-6">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{BRAND_TEXTS.previewHeading}</h2>
            </CardTitle>
            <CardDescription>
              What your clients see, as you type. Saved when you press Save brand.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <BrandPreview brand={preview} palette={palette} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>{BRAND_TEXTS.adjustedHeading}</h2>
            </CardTitle>
            <CardDescription>
              Colours the product changes so text stays readable (WCAG AA: 4.5:1 for text, 3:1 for lines and
              icons).
            </CardDescription>
          </CardHeader>
          <CardContent>
            <AdjustedList palette={palette} />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

export function BrandTab() {
  const brand = useAdminBrand();
  return (
    <div className="grid min-w-0 gap-6 [&>*]:min-w-0">
      <QueryView
        query={brand}
        what="the brand"
        isEmpty={(data) => !data}
        loading={<Skeleton className="h-96 w-full" aria-label="Loading the brand" />}
        empty={null}
      >
        {(data) => <BrandEditor brand={data} />}
      </QueryView>
      <MailDnsCard />
    </div>
  );
}
