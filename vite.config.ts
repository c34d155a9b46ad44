import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { brandFirstHtml } from './scripts/vite-brand-html';
import { precompress } from './scripts/vite-precompress';

const API_ORIGIN = `http://localhost:${process.env.API_PORT ?? 5001}`;

// The browser app: index.html at the project root, entry src/web/main.tsx, built into dist/web,
// which the API server serves with an SPA fallback. In dev, /api goes to the API server.
export default defineConfig({
  root: '.',
  plugins: [react(), tailwindcss(), precompress(), brandFirstHtml(API_ORIGIN)],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Every route is its own lazy chunk; heavy libraries (charts, payments) stay out of the entry.
    chunkSizeWarningLimit: 600,
  },
  // Lazily imported libraries are pre-bundled up front in dev; discovered later, Vite re-optimises
  // and reloads mid-session, which can leave two copies of React on the page.
  optimizeDeps: {
    include: [
      'recharts',
      '@stripe/react-stripe-js',
      '@stripe/stripe-js/pure',
      '@radix-ui/react-tabs',
      '@radix-ui/react-select',
      '@radix-ui/react-dialog',
      '@radix-ui/react-alert-dialog',
      '@radix-ui/react-checkbox',
      '@radix-ui/react-switch',
      '@radix-ui/react-toggle-group',
      'react-hook-form',
      '@hookform/resolvers/zod',
      'zod',
    ],
  },
  server: {
    proxy: {
      '/api': { target: API_ORIGIN, changeOrigin: false },
      // The brand's images, icons and manifest are the API server's too (brand/assets-routes.ts).
      '/brand-assets': { target: API_ORIGIN, changeOrigin: false },
      '/brand-icons': { target: API_ORIGIN, changeOrigin: false },
      '/manifest.webmanifest': { target: API_ORIGIN, changeOrigin: false },
      '/favicon.ico': { target: API_ORIGIN, changeOrigin: false },
      // Probes and metrics answer from the API server, not as the app's HTML (exact paths only).
      '^/(healthz|readyz|metrics)$': { target: API_ORIGIN, changeOrigin: false },
    },
  },
});
