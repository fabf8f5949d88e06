import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.ts';

/**
 * The console build: hashed assets under /assets (the gateway serves them with a long cache),
 * one chunk per area through the router's lazy routes, MapLibre and the charts only where used.
 * `pnpm --filter @corridor/console dev` proxies /api (and the live socket) to a running stack.
 */
export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    reportCompressedSize: false,
  },
  server: {
    proxy: { '/api': { target: process.env.CORRIDOR_API ?? 'http://127.0.0.1:8082', ws: true, changeOrigin: false } },
  },
});
