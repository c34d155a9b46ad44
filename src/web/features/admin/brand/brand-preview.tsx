/**
 * The Brand tab's live preview: the login page, the dashboard header (light and dark
 * theme), an e-mail and the monthly report's first page in miniature, drawn from the form's
 * values and the palette the contrast guard derives from them, so what the admin sees is what
 * clients will see. Pictures only: nothing in it can be focused or pressed.
 */
import type { CSSProperties, ReactNode } from 'react';
import type { BrandPalette } from '../../../../contract/brand-contrast';

export interface PreviewBrand {
  name: string;
  loginHeadline: string;
  loginText: string;
  footerText: string;
  supportEmail: string;
  logoUrl: string | null;
  logoDarkUrl: string | null;
}

/** The dark theme's card (styles.css .dark --card), where the dark logo and primaryDark show. */
const DARK_SURFACE = '#0f172b';

function Frame({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <figure className="grid gap-1.5" aria-label={label}>
      <figcaption className="font-medium text-muted-foreground text-xs">{label}</figcaption>
      <div className={`overflow-hidden rounded-md border ${className ?? ''}`}>{children}</div>
    </figure>
  );
}

/** The logo at the height the product shows it, or the name where there is none. */
function Mark({
  url,
  name,
  height,
  className,
  style,
}: {
  url: string | null;
  name: string;
  height: number;
  className?: string;
  style?: CSSProperties;
}) {
  if (url) {
    // Shrinks, keeping its shape, before the header's links do (at 390 px a wide logo would
    // otherwise push them out of the frame).
    return (
      <img
        src={url}
        alt={name}
        style={{ height }}
        className="w-auto min-w-0 max-w-[60%] shrink object-contain object-left"
      />
    );
  }
  return (
    <span className={`truncate font-semibold ${className ?? ''}`} style={style}>
      {name}
    </span>
  );
}

/** A button as a picture: the primary fill with the foreground the guard picked. */
function FakeButton({ palette, children }: { palette: BrandPalette; children: ReactNode }) {
  return (
    <span
      className="inline-flex items-center justify-center rounded px-3 py-1 font-medium text-xs"
      style={{ backgroundColor: palette.primary, color: palette.primaryForeground }}
    >
      {children}
    </span>
  );
}

function LoginPreview({ brand, palette }: { brand: PreviewBrand; palette: BrandPalette }) {
  return (
    <Frame label="Login page" className="bg-muted p-4">
      <div className="mx-auto grid max-w-64 gap-2 rounded-md border bg-card p-4 text-card-foreground shadow-xs">
        <div className="flex justify-center">
          <Mark url={brand.logoUrl} name={brand.name} height={28} className="text-base" />
        </div>
        <p className="text-center font-semibold text-sm">{brand.loginHeadline || 'Client Login'}</p>
        {brand.loginText && <p className="text-center text-muted-foreground text-xs">{brand.loginText}</p>}
        <span className="h-6 rounded border bg-background" />
        <span className="h-6 rounded border bg-background" />
        <FakeButton palette={palette}>Sign In</FakeButton>
        {brand.supportEmail && (
          <p className="text-center text-xs">
            Need help? <span style={{ color: palette.primaryText }}>{brand.supportEmail}</span>
          </p>
        )}
      </div>
    </Frame>
  );
}

function HeaderPreview({ brand, palette }: { brand: PreviewBrand; palette: BrandPalette }) {
  return (
    <Frame label="Dashboard header, light and dark theme">
      <div className="flex items-center justify-between gap-3 border-b bg-card px-3 py-2">
        <Mark url={brand.logoUrl} name={brand.name} height={24} className="text-sm" />
        <span className="flex shrink-0 items-center gap-3 text-xs">
          <span className="font-medium" style={{ color: palette.primaryText }}>
            Dashboard
          </span>
          <FakeButton palette={palette}>Settings</FakeButton>
        </span>
      </div>
      <div
        className="flex items-center justify-between gap-3 px-3 py-2"
        style={{ backgroundColor: DARK_SURFACE }}
      >
        <Mark url={brand.logoDarkUrl} name={brand.name} height={24} className="text-sm text-white" />
        <span className="flex shrink-0 items-center gap-3 text-xs">
          <span className="font-medium" style={{ color: palette.primaryDark }}>
            Dashboard
          </span>
          <span
            className="inline-flex rounded px-3 py-1 font-medium"
            style={{ backgroundColor: palette.primaryDark, color: palette.primaryDarkForeground }}
          >
            Settings
          </span>
        </span>
      </div>
    </Frame>
  );
}

function EmailPreview({ brand, palette }: { brand: PreviewBrand; palette: BrandPalette }) {
  return (
    <Frame label="E-mail" className="bg-muted p-3">
      <div className="grid gap-2 rounded-md bg-card p-3 text-card-foreground text-xs">
        <div className="border-b pb-2">
          <Mark url={brand.logoUrl} name={brand.name} height={22} className="text-sm" />
        </div>
        <p className="font-semibold text-sm">New call: appointment booked</p>
        <p className="text-muted-foreground">A caller booked an appointment for Tuesday at 10:00.</p>
        <span>
          <FakeButton palette={palette}>View call</FakeButton>
        </span>
        <p className="border-t pt-2 text-muted-foreground">{brand.footerText || `Sent by ${brand.name}`}</p>
      </div>
    </Frame>
  );
}

function ReportPreview({ brand, palette }: { brand: PreviewBrand; palette: BrandPalette }) {
  return (
    <Frame label="Monthly report, first page" className="bg-muted p-3">
      <div className="mx-auto flex aspect-[1/1.414] max-w-56 flex-col gap-2 bg-white p-3 text-[10px] text-slate-900 shadow-xs">
        <div className="flex items-center justify-between gap-2">
          <Mark url={brand.logoUrl} name={brand.name} height={18} className="text-xs" />
          {brand.logoUrl && <span className="truncate font-semibold">{brand.name}</span>}
        </div>
        <p
          className="rounded-sm px-2 py-1 font-semibold"
          style={{ backgroundColor: palette.primary, color: palette.primaryForeground }}
        >
          Monthly report
        </p>
        <div className="grid grid-cols-2 gap-1.5">
          {['Calls', 'Answered', 'Booked', 'Minutes'].map((label) => (
            <span key={label} className="rounded-sm border border-slate-200 px-1.5 py-1">
              {label}
            </span>
          ))}
        </div>
        <span className="h-10 rounded-sm border border-slate-200" />
        <p className="mt-auto border-slate-200 border-t pt-1 text-slate-600">
          {brand.footerText || brand.name}
        </p>
      </div>
    </Frame>
  );
}

export function BrandPreview({ brand, palette }: { brand: PreviewBrand; palette: BrandPalette }) {
  return (
    <div className="grid gap-4" data-testid="brand-preview">
      <LoginPreview brand={brand} palette={palette} />
      <HeaderPreview brand={brand} palette={palette} />
      <EmailPreview brand={brand} palette={palette} />
      <ReportPreview brand={brand} palette={palette} />
    </div>
  );
}
