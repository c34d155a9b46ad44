import type { ReactNode } from 'react';

/** Stand-in content for a page that is still being built; replaced page by page. */
export function PlaceholderPanel({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-4xl flex-col gap-4 px-4 py-10 sm:px-6">
      <h1 className="font-bold text-2xl tracking-tight">{title}</h1>
      {children}
    </main>
  );
}
