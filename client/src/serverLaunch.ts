// How the extension starts the language server, without VS Code's types: the module to fork,
// Node's flags and the environment, for a normal and a debug launch. languageClient.ts turns it
// into the language client's server options; test/unit/serverLaunch.flags.test.ts forks the
// real server with it. Every launch carries the server's Node flags (ServerNodeFlags).

import { CodeCacheEnvironment, ServerNodeFlags } from "@rlm-plan/language-server/protocol";

export interface ServerLaunch {
  /** The module VS Code forks (over Node IPC). */
  readonly module: string;
  readonly execArgv: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * `bundle` is dist/server.js, `cachedStart` dist/serverStart.js (the bundle loaded with V8's
 * code cache, kept in `cacheDir`: shared-runtime/src/codeCache.ts, bench/README.md).
 */
export function serverLaunch(
  bundle: string,
  cachedStart: string,
  cacheDir: string,
  env: NodeJS.ProcessEnv,
): { readonly run: ServerLaunch; readonly debug: ServerLaunch } {
  return {
    run: {
      module: cachedStart,
      execArgv: [...ServerNodeFlags.flags],
      env: { ...env, [CodeCacheEnvironment.variable]: cacheDir },
    },
    // The bundle is minified but keeps its names; its linked source map ships beside it. Only
    // the debug launch maps stack traces with it: --enable-source-maps costs every start about a
    // tenth more (bench/README.md).
    debug: {
      module: bundle,
      execArgv: [...ServerNodeFlags.flags, "--enable-source-maps", "--nolazy", "--inspect=6011"],
    },
  };
}
