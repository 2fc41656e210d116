import * as rruleModule from 'rrule';

/**
 * `rrule` ships a UMD bundle as its "main" and ES modules as its "module": bundlers (Vite,
 * Vitest) see named exports, Node's own ESM loader (the server, tsx) sees only `default`.
 * Read the class from whichever is there, once.
 */
type RRuleExports = typeof rruleModule;
const loaded = rruleModule as RRuleExports & { default?: RRuleExports };
const found = loaded.RRule ?? loaded.default?.RRule;
if (!found) throw new Error('rrule did not load: no RRule export.');

export const RRule: RRuleExports['RRule'] = found;
export type RRule = InstanceType<RRuleExports['RRule']>;
export type { Weekday } from 'rrule';
