import { z } from 'zod';

// zod 4 compiles object parsers with `new Function` when it may; under our
// Content-Security-Policy (no 'unsafe-eval') even its probe is a reported violation. Import this
// module first in every entry (page, service worker), before anything parses.
z.config({ jitless: true });
