import { buildPwa } from './lib/pwa-build.ts';

/** `npm run build`: the production build of the PWA, whatever NODE_ENV the shell has. */
buildPwa({ force: true });
