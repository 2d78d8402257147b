// Builds the two entries the server links by reading `dist/.vite/manifest.json`:
// `loader` (every published page, no React) and `dashboard` (the `/config/` area).
// Islands are the lazy chunks the loader imports on demand.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    assetsDir: 'assets',
    target: 'es2022',
    rolldownOptions: {
      input: {
        loader: 'src/loader/index.ts',
        dashboard: 'src/dashboard/main.tsx',
      },
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        // React in one shared chunk, downloaded only by pages with an island and the dashboard.
        codeSplitting: {
          groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Every core: vitest's default leaves one to itself, which on two cores is one worker.
    maxWorkers: '100%',
    restoreMocks: true,
    unstubGlobals: true,
  },
});
