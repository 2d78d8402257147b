// Builds the two entries the server links by reading `dist/.vite/manifest.json`:
// `loader` (every published page, no React) and `dashboard` (the `/config/` area).
// Islands are the lazy chunks the loader imports on demand.
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

// Test files that need a worker of their own (vitest's `forks` pool) rather than a VM context in
// a shared one (`vmThreads`, several times faster to set up jsdom in): they use what a VM context
// lacks or keeps from the outer realm, namely `crypto.subtle` (the captcha solver and the form
// that runs it), a redefinable `window.location` (the map's place link) and a cookie jar that
// expires cookies by the faked clock (the visitor cookies).
const OWN_WORKER = [
  'src/islands/form/captcha.test.ts',
  'src/islands/form/form.test.tsx',
  'src/islands/map/map.test.ts',
  'src/loader/telemetry/cookies.test.ts',
];

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
    setupFiles: ['src/test/setup.ts'],
    // Every core: vitest's default leaves one to itself, which on two cores is one worker.
    maxWorkers: '100%',
    restoreMocks: true,
    unstubGlobals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'vm',
          pool: 'vmThreads',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...OWN_WORKER],
        },
      },
      { extends: true, test: { name: 'own-worker', pool: 'forks', include: OWN_WORKER } },
    ],
  },
});
