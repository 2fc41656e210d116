import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside each built script and stylesheet; the server
 * sends the one the browser accepts (@fastify/static preCompressed) — ~70 % fewer bytes.
 */
function precompressAssets(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      for (const [fileName, output] of Object.entries(bundle)) {
        if (!/\.(js|css)$/.test(fileName)) continue;
        const source = output.type === 'chunk' ? output.code : output.source;
        const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source);
        if (bytes.length < 1024) continue;
        const file = path.join(outDir, fileName);
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    precompressAssets(),
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
  resolve: {
    // RxDB's leader election reaches `unload`, which listens to the deprecated `unload` event
    // (no back/forward cache, a Lighthouse deprecation): a pagehide-based stand-in instead.
    alias: [
      // `zod` with its eval-based compiler off before any schema is built (CSP: no eval).
      {
        find: /^zod$/,
        replacement: fileURLToPath(new URL('./src/lib/zod-without-eval.ts', import.meta.url)),
      },
      {
        find: /^unload$/,
        replacement: fileURLToPath(new URL('./src/sync/unload-shim.ts', import.meta.url)),
      },
    ],
  },
  build: { target: 'es2022', sourcemap: true },
  server: {
    proxy: {
      ...Object.fromEntries(
        [
          '/api',
          '/auth/logout',
          '/auth/external',
          '/dev',
          '/healthz',
          '/manifest.webmanifest',
          '/icons',
        ].map((p) => [p, apiTarget]),
      ),
      // /auth/login and /auth/login-with-google: pages on GET (Vite serves them), the API on POST.
      '/auth/login': {
        target: apiTarget,
        bypass: (req) => (req.method === 'GET' ? req.url : undefined),
      },
    },
  },
});
