/** Vite config of the panel: React, Tailwind CSS 4, built to dist/panel with hashed assets under /assets/. */
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL('../dist/panel', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `npx vite panel` during development: the API and sockets of a Gaffer on the default port.
    proxy: {
      '/api': 'http://127.0.0.1:8420',
      '/ws': { target: 'ws://127.0.0.1:8420', ws: true },
      '/login': 'http://127.0.0.1:8420',
    },
  },
});
