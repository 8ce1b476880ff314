// Node's flags for every launch of the language server, in one place: the VS Code client's
// server options (client/src/serverLaunch.ts), the `rlm-plan-language-server` command (bin/,
// which starts the server again with them when it was not given them), the test and benchmark
// harness. A module of its own with no imports, so the command can read it before loading
// anything else; protocol.ts re-exports it for the client.

/* eslint-disable @typescript-eslint/no-namespace -- a namespace like protocol.ts's messages */

export namespace ServerNodeFlags {
  /**
   * A young generation of 32 MB a semi-space instead of V8's 16: the analysis of a 60,000-step
   * plan keeps about 40 MB of new objects, and with the default most of them were copied twice
   * and then marked in the old generation during the analysis (bench/README.md, issue 22 target
   * 4, fourth pass). V8 sizes its heap at start (`v8.setFlagsFromString` cannot raise the young
   * generation), hence a flag. V8 grows the young generation only while objects survive in it,
   * so a server with small plans stays small.
   */
  export const flags: readonly string[] = ["--max-semi-space-size=32"];

  /**
   * Whether a process's Node flags (`execArgv`) or its NODE_OPTIONS (which Node applies without
   * listing them in `execArgv`) already set the young generation's size.
   */
  export function given(execArgv: readonly string[], nodeOptions = ""): boolean {
    return [...execArgv, ...nodeOptions.split(/\s+/)].some((flag) => /^--max[-_]semi[-_]space[-_]size(=|$)/.test(flag));
  }
}
