// A node:test suite's server: started before the suite's tests, disposed after them (also when a
// test failed), so a test body only opens documents and asks. Not in the package's main entry,
// so the benchmarks do not load node:test.

import { after, before } from "node:test";
import { ServerSession, type ServerOptions } from "./session";

/**
 * A ServerSession for the enclosing describe (or file): its workspace now, its server in
 * before(). Register handlers with `onConnection`, not in a before hook of your own: node 20
 * runs a file's top-level before hooks concurrently, so such a hook may find no server yet.
 */
export function useServer(options: ServerOptions = {}): ServerSession {
  const server = new ServerSession(options);
  before(() => server.start());
  after(() => server.dispose());
  return server;
}
