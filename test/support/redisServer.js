"use strict";
// A real redis-server (Debian's package) for the queue's tests: started on a free 127.0.0.1
// port in a temporary folder, with nothing saved (`--save '' --appendonly no`), and killed after.
// Without /usr/bin/redis-server a test skips with a message, except in CI (CI=true), where it
// fails: scripts/install-e2e.sh installs it there.
Object.defineProperty(exports, "__esModule", { value: true });
exports.REDIS_SERVER = void 0;
exports.redisMissing = redisMissing;
exports.startRedis = startRedis;
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_net_1 = require("node:net");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
exports.REDIS_SERVER = process.env["REDIS_SERVER"] ?? "/usr/bin/redis-server";
/** Why the queue's tests cannot run here (redis-server missing), or undefined. Throws in CI. */
function redisMissing() {
    if ((0, node_fs_1.existsSync)(exports.REDIS_SERVER))
        return undefined;
    const message = `${exports.REDIS_SERVER} is missing: install Debian's redis-server (scripts/install-e2e.sh does, as root)`;
    if (process.env["CI"] === "true")
        throw new Error(`CI: ${message}`);
    return `skipped: ${message}`;
}
async function startRedis() {
    const port = await freePort();
    const dir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), "rlm-plan-redis-"));
    const child = (0, node_child_process_1.spawn)(exports.REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    await new Promise((resolve, reject) => {
        const onData = (chunk) => {
            output += chunk.toString("utf8");
            if (output.includes("Ready to accept connections"))
                resolve();
        };
        child.stdout?.on("data", onData);
        child.stderr?.on("data", onData);
        child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);
    return {
        port,
        url: (queue) => `redis://127.0.0.1:${port}/${queue}`,
        stop: async () => {
            process.off("exit", killOnExit);
            if (child.exitCode === null) {
                const exited = new Promise((resolve) => child.once("exit", resolve));
                child.kill("SIGKILL");
                await exited;
            }
            (0, node_fs_1.rmSync)(dir, { recursive: true, force: true });
        },
    };
}
function freePort() {
    return new Promise((resolve, reject) => {
        const server = (0, node_net_1.createServer)();
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => {
            const address = server.address();
            const port = typeof address === "object" && address ? address.port : 0;
            server.close(() => resolve(port));
        });
    });
}
//# sourceMappingURL=redisServer.js.map