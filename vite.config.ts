/// <reference types="vitest/config" />
// Vite serves and builds the app from web/, with public/ (the shipped traces) beside it.
// Vitest reads the `test` block; Playwright has its own config (playwright.config.ts).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'web',
  publicDir: '../public',
  // Relative asset URLs, so the built app works from any path (static hosting, file shares).
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022' },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Many tests run the real wasm engine over shipped traces: seconds each on a loaded
    // 2-core machine. The limit only catches hangs; speed is measured by `npm run bench`.
    testTimeout: 30_000,
  },
});
