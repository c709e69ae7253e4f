import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Served by the gateway at /console (services/gateway/src/http/console-static.ts): every asset
// is a file of its own under /console/assets, so the page runs under `script-src 'self'`.
export default defineConfig({
  base: '/console/',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Inlined assets would be data: URLs, which the CSP refuses for scripts and styles.
    assetsInlineLimit: 0,
  },
});
