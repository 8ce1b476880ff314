// A language server whose host profile has one provider, a scripted chat-completions server on
// 127.0.0.1 whose key is read from `keyVariable`: what the sentinel tests drive (the key handed to
// a run as the VS Code client does), with every run notification and shown message recorded.

import { after, before } from "node:test";
import { startChatServer, type ChatServer } from "../../support/chatServer";
import { hostProfile, ServerSession } from "@rlm-plan/lsp-harness";
import { recordRunNotifications, RUN_NOTIFICATIONS } from "./planRuns";

export interface SentinelServer {
  /** Started before the suite's tests, stopped after them. */
  chat: ChatServer;
  server: ServerSession;
  /** The run notifications and shown messages so far, as JSON. */
  readonly seen: string[];
}

/** `files`: more files of the workspace beside its host profile. */
export function useSentinelServer(keyVariable: string, files: Readonly<Record<string, string>> = {}): SentinelServer {
  const suite = { seen: [] as string[] } as SentinelServer;
  before(async () => {
    suite.chat = await startChatServer();
    suite.server = await new ServerSession({
      files: {
        "rlmplan.host.json": hostProfile({
          capabilities: ["model(local)"],
          providers: {
            local: { type: "openai-chat", baseUrl: suite.chat.baseUrl, model: "tiny", apiKeyEnv: keyVariable },
          },
        }),
        ...files,
      },
    }).start();
    recordRunNotifications(suite.server.client, suite.seen, [...RUN_NOTIFICATIONS, "window/showMessage"]);
  });
  after(async () => {
    await suite.server.dispose();
    await suite.chat.close();
  });
  return suite;
}
