"use strict";
// The CLI tests' set-up: the built `rlm-plan` run in a child process (NO_COLOR, from a given
// folder), and a temporary folder to write plans and host profiles into, removed after the test
// file's tests.
Object.defineProperty(exports, "__esModule", { value: true });
exports.LEFT_TO_PREFLIGHT = exports.CLI = exports.ROOT = void 0;
exports.runCli = runCli;
exports.runCliAsync = runCliAsync;
exports.cliWorkspace = cliWorkspace;
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const node_test_1 = require("node:test");
const childOutput_1 = require("./childOutput");
// Compiled to test/out/support: the repository root is three levels up.
exports.ROOT = (0, node_path_1.resolve)(__dirname, "..", "..", "..");
exports.CLI = (0, node_path_1.join)(exports.ROOT, "cli", "out", "main.js");
/** What a static `check` says when a host profile applies: it started nothing, and what it left to --preflight. */
exports.LEFT_TO_PREFLIGHT = "static check, no program started; left to --preflight: MCP tool lists and argument schemas, programs, provider keys, input files";
/** Runs the CLI with `args` from the folder `cwd` and waits for it to exit. */
function runCli(cwd, args) {
    const result = (0, node_child_process_1.spawnSync)(process.execPath, [exports.CLI, ...args], {
        cwd,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
/**
 * The CLI as a child process that does not block this one (a server the test runs answers
 * from it), with `env` over the test's environment.
 */
function runCliAsync(cwd, args, env = {}) {
    const child = (0, node_child_process_1.spawn)(process.execPath, [exports.CLI, ...args], {
        cwd,
        env: { ...process.env, NO_COLOR: "1", ...env },
        stdio: ["ignore", "pipe", "pipe"],
    });
    return (0, childOutput_1.childOutput)(child);
}
/** A fresh temporary folder named `rlm-plan-<name>-…`, removed after the calling file's tests. */
function cliWorkspace(name) {
    const dir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), `rlm-plan-${name}-`));
    (0, node_test_1.after)(() => (0, node_fs_1.rmSync)(dir, { recursive: true, force: true }));
    return {
        dir,
        write(path, text) {
            const file = (0, node_path_1.join)(dir, path);
            (0, node_fs_1.mkdirSync)((0, node_path_1.join)(file, ".."), { recursive: true });
            (0, node_fs_1.writeFileSync)(file, text);
            return file;
        },
        cli: (...args) => runCli(dir, args),
        check: (...args) => runCli(dir, ["check", ...args]),
    };
}
//# sourceMappingURL=cliWorkspace.js.map