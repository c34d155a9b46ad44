/**
 * The Brand settings form: the agency's name, colours, support contacts, login-page
 * words, footer and e-mail sender. Validated with the contract's BrandSettings; a save sends only
 * the fields that changed and shows the server's 400 messages beside their fields.
 */
import type { UseFormReturn } from 'react-hook-form';
import type { BrandSettings } from '../../../../contract/brand';
import { FormSection, TextAreaField, TextField } from '../../../components/form-fields';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import type { BrandFormInput } from './brand-form-values';
import { ColourField } from './colour-field';

type BrandForm = UseFormReturn<BrandFormInput, unknown, BrandSettings>;

export function BrandSettingsForm({
  form,
  onSubmit,
  onDiscard,
  pending,
  imagesChanged,
}: {
  form: BrandForm;
  onSubmit: () => void;
  onDiscard: () => void;
  pending: boolean;
  /** Images chosen or removed but not saved yet: they make the brand unsaved as a field does. */
  imagesChanged: boolean;
}) {
  const { errors } = form.formState;
  const isDirty = form.formState.isDirty || imagesChanged;
  const field = (name: keyof BrandFormInput) => ({
    registration: form.register(name),
    error: errors[name]?.message,
  });

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      noValidate
      className="grid gap-6"
      aria-label="Brand settings"
    >
      <FormSection title="Name and colours" description="The name replaces the product's own on every page.">
        <TextField
          id="brand-name"
          label="Agency name"
          required
          autoComplete="organization"
          className="sm:col-span-2"
          {...field('name')}
        />
        <ColourField
          id="brand-primary"
          label="Primary colour"
          name="primaryColor"
          control={form.control}
          error={errors.primaryColor?.message}
        />
        <ColourField
          id="brand-accent"
          label="Accent colour"
          name="accentColor"
          control={form.control}
          error={errors.accentColor?.message}
        />
      </FormSection>

      <FormSection title="Support" description="Shown on the login pages and in e-mails when set.">
        <TextField id="brand-support-email" label="Support e-mail" type="email" {...field('supportEmail')} />
        <TextField id="brand-support-phone" label="Support phone" type="tel" {...field('supportPhone')} />
        <TextField
          id="brand-support-url"
          label="Support web address"
          type="url"
          placeholder="https://"
          className="sm:col-span-2"
          {...field('supportUrl')}
        />
      </FormSection>

      <FormSection title="Login page">
        <TextField
          id="brand-login-headline"
          label="Login headline"
          className="sm:col-span-2"
          {...field('loginHeadline')}
        />
        <TextAreaField
          id="brand-login-text"
          label="Login text"
          className="sm:col-span-2"
          {...field('loginText')}
        />
      </FormSection>

      <FormSection title="Public page" description="The page at the site's address, once the brand is saved.">
        <TextField
          id="brand-landing-headline"
          label="Page headline"
          hint="“Welcome to” and the agency name when empty; the page text then invites clients to sign in."
          className="sm:col-span-2"
          {...field('landingHeadline')}
        />
        <TextAreaField
          id="brand-landing-text"
          label="Page text"
          className="sm:col-span-2"
          {...field('landingText')}
        />
      </FormSection>

      <FormSection title="Footer and e-mail" description="The footer closes every e-mail and report.">
        <TextAreaField
          id="brand-footer"
          label="Footer text"
          className="sm:col-span-2"
          {...field('footerText')}
        />
        <TextField
          id="brand-sender-name"
          label="E-mail sender name"
          hint="The name e-mails come from; the agency name when empty."
          {...field('emailSenderName')}
        />
        <TextField
          id="brand-reply-to"
          label="E-mail reply-to"
          type="email"
          hint="Where replies go; none when empty."
          {...field('emailReplyTo')}
        />
      </FormSection>

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDiscard} disabled={!isDirty || pending}>
          Discard changes
        </Button>
        <PendingButton type="submit" pending={pending} pendingLabel="Saving..." disabled={!isDirty}>
          Save brand
        </PendingButton>
      </div>
    </form>
  );
}
