import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './lib/pwa-build.ts';

/**
 * `npm run dev`: the API server (restarting on change, seeded like `npm start`) on PORT
 * (3000) and Vite's dev server with hot reload on 5173, proxying server paths to the API.
 */
const port = process.env.PORT ?? '3000';
const children: ChildProcess[] = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', path.join(repoRoot, 'scripts/start.ts')], {
    stdio: 'inherit',
    // Development on this machine: the mailbox and sent notices under /dev (the server
    // refuses DEV_TOOLS on a non-loopback HOST; DEV_TOOLS=0 leaves them off).
    env: {
      NODE_ENV: 'development',
      DEV_TOOLS: '1',
      ...process.env,
      PORT: port,
      SKIP_PWA_BUILD: '1',
    },
  }),
  spawn('npx', ['vite', '--port', '5173'], {
    cwd: path.join(repoRoot, 'pwa'),
    stdio: 'inherit',
    env: { ...process.env, API_URL: `http://127.0.0.1:${port}` },
  }),
];
console.log(`Open http://localhost:5173 (the API runs on ${port}).`);
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && process.exit(code));
