// Requests a client sends for what the server computes of a plan, so that no client carries the
// runtime: the worst case as figures and budget rows (the VS Code status bar), and the host
// profile a plan needs (VS Code's "Create Host Profile").

import type { Feature } from "./feature";
import { hostProfileTemplate } from "../service/hostProfileTemplate";
import { HostProfileTemplateRequest, WorstCaseRequest } from "../protocol";
import { worstCase } from "../service/worstCase";

export const clientQueries: Feature = (ctx) => {
  ctx.connection.onRequest(
    WorstCaseRequest.type,
    ctx.guard.request(
      WorstCaseRequest.method,
      ({ uri }) => {
        const plan = ctx.workspace.plan(uri);
        return plan ? worstCase(plan, ctx.workspace.hostProfileFileFor(uri) ?? null) : null;
      },
      null,
    ),
  );
  ctx.connection.onRequest(
    HostProfileTemplateRequest.type,
    ctx.guard.request(
      HostProfileTemplateRequest.method,
      (params) =>
        typeof params?.uri === "string" && typeof params.text === "string"
          ? hostProfileTemplate(params)
          : { ok: false, message: `${HostProfileTemplateRequest.method} needs {"uri": ..., "text": ...}` },
      { ok: false, message: "the server could not answer" },
    ),
  );
};
