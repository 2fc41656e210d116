import { defineConfig } from 'vitest/config';

/** Three files that fail in the three ways `recapOf` reports; run by vitest-recap.test.ts only. */
export default defineConfig({ test: { include: ['*.fixture.ts'], root: import.meta.dirname } });
