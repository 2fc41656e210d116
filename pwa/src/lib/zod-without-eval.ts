import { z } from 'zod/v4';

// zod 4 compiles object parsers with `new Function` when it may, and probes whether it may the
// moment the first z.object() is built — at module load. Under our Content-Security-Policy (no
// 'unsafe-eval') even that probe is a reported violation. So `zod` itself resolves to this
// module in the build (vite.config.ts alias): every schema module imports it, and it switches
// the compiler off before any of them builds an object — whatever order the chunks load in.
z.config({ jitless: true });

export * from 'zod/v4';
export default z;
