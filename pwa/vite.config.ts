import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      // Our own service worker (src/sw/sw.ts) so later issues add push and sync code to it.
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      injectRegister: false,
      // The web app manifest is rendered by the server from manifest-templates/.
      manifest: false,
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png,woff2}'] },
      devOptions: { enabled: false },
    }),
  ],
  build: { target: 'es2022', sourcemap: true },
  server: {
    proxy: {
      ...Object.fromEntries(
        ['/api', '/auth/logout', '/auth/external', '/dev', '/healthz', '/manifest.webmanifest', '/icons'].map((p) => [p, apiTarget]),
      ),
      // /auth/login and /auth/login-with-google: pages on GET (Vite serves them), the API on POST.
      '/auth/login': { target: apiTarget, bypass: (req) => (req.method === 'GET' ? req.url : undefined) },
    },
  },
});
