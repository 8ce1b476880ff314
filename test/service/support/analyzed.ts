// The in-process feature harness: an AnalyzedPlan built from a cursor-marked fixture text (and
// an optional host profile) the way the server's workspace builds one, without a server, so a
// test calls the feature function itself (service/) and asserts on exactly what it returns.

import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseHostProfile, type HostProfile, type HostProfileResult } from "@rlm-plan/core/host/profile";
import { analyzePlan, type AnalyzedPlan } from "@rlm-plan/language-server/service/analyzedPlan";
import { hostStatusOf, type HostStatus } from "@rlm-plan/language-server/service/hostView";
import type { CompletionItem, CompletionList, Hover, Position } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { fixture, hostProfile } from "../../protocol/support/lspClient";

/** Where fixtures live: never read or written (hosts are parsed from text), only named. */
const FOLDER = join(tmpdir(), "rlm-plan-service-fixtures");

export interface PlanOptions {
  /** The host profile in force, as an object (written as its file would be) or its text. */
  readonly host?: Record<string, unknown> | string;
  /** The plan file's name in the fixture folder, or its absolute path (default `plan.rlmplan.json`). */
  readonly name?: string;
}

export interface AnalyzedFixture {
  readonly plan: AnalyzedPlan;
  readonly uri: string;
  /** The text without its cursor mark. */
  readonly text: string;
}

export interface AnalyzedAtCursor extends AnalyzedFixture {
  /** Where the `|` was. */
  readonly position: Position;
}

/** The host profile fixtures are under, and its URI (where navigation into it points). */
export const HOST_FILE = join(FOLDER, "rlmplan.host.json");
export const HOST_URI = pathToFileURL(HOST_FILE).href;

/** `host` parsed as the profile file would be. */
export function hostProfileResult(host: NonNullable<PlanOptions["host"]>): HostProfileResult {
  return parseHostProfile(typeof host === "string" ? host : hostProfile(host), HOST_FILE);
}

/** `host` parsed as the workspace holds a usable profile (navigation and quick fixes use it). */
export function usableHostProfile(host: NonNullable<PlanOptions["host"]>): HostProfile {
  const result = hostProfileResult(host);
  if (!result.ok) throw new Error(`the fixture's host profile has errors: ${JSON.stringify(result.errors)}`);
  return result.profile;
}

/** The host status the workspace would give a plan under `host`: "none" without one. */
export function hostStatus(host: PlanOptions["host"]): HostStatus {
  if (host === undefined) return { kind: "none" };
  return hostStatusOf(HOST_FILE, hostProfileResult(host), undefined);
}

let version = 0;

/** `text` analysed as the open plan `options.name` under `options.host`. */
export function analyzed(text: string, options: PlanOptions = {}): AnalyzedFixture {
  const uri = pathToFileURL(resolve(FOLDER, options.name ?? "plan.rlmplan.json")).href;
  const document = TextDocument.create(uri, "rlm-plan", ++version, text);
  return { plan: analyzePlan(document, hostStatus(options.host)), uri, text };
}

/** A fixture with exactly one `|` marking the cursor, analysed; the position is the mark's. */
export function analyzedAt(marked: string, options: PlanOptions = {}): AnalyzedAtCursor {
  const { text, position } = fixture(marked);
  return { ...analyzed(text, options), position };
}

/** A feature's answer as a client receives it: JSON on the wire drops undefined fields. */
export function onTheWire<T>(answer: T): T {
  return answer === undefined ? answer : (JSON.parse(JSON.stringify(answer)) as T);
}

/** A completion answer's items, whether the feature answered a list or an array. */
export function itemsOf(answer: CompletionItem[] | CompletionList | null): CompletionItem[] {
  if (!answer) return [];
  return onTheWire(Array.isArray(answer) ? answer : answer.items);
}

/** A hover's markdown (every hover of this server is one markup block); undefined for none. */
export function hoverValue(answer: Hover | null | undefined): string | undefined {
  const contents = answer?.contents;
  return contents && typeof contents === "object" && "value" in contents ? contents.value : undefined;
}
