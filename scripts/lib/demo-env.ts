import { isLoopbackHost } from '../../sync-server/src/dev-tools/loopback.ts';

/**
 * `npm start` on one's own machine is the demo (README): emails land in the development
 * mailbox. So it turns the development tools on — but only when nothing says this is a
 * deployment: no NODE_ENV or DEV_TOOLS of its own, HOST and PUBLIC_URL (if given) on loopback.
 * The server never turns them on by itself and checks the same again (dev-tools.config.ts).
 */
export function demoEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NODE_ENV !== undefined || env.DEV_TOOLS !== undefined) return env;
  if (!isLoopbackHost(env.HOST ?? '127.0.0.1')) return env;
  if (
    env.PUBLIC_URL !== undefined &&
    !(URL.canParse(env.PUBLIC_URL) && isLoopbackHost(new URL(env.PUBLIC_URL).hostname))
  ) {
    return env;
  }
  return { ...env, NODE_ENV: 'development', DEV_TOOLS: '1' };
}
