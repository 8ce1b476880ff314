// "RLM Plan: Set Provider API Key": keeps a provider's key in VS Code's SecretStorage (the
// operating system's keychain where there is one), under the name of the environment variable
// the host profile's provider reads it from (`apiKeyEnv`). Never in a file, a setting, the run
// log or an output channel. A host profile's providers and their key variables come from the
// language server (`rlmPlan/hostProviders`): the client reads no host profile itself.
//
// Handing a stored key to a run: the run command reads the stored keys of the host profile's
// providers here and passes them in the server's run command (`env`) for that run only; a
// variable set in the environment VS Code started with works too (a stored key wins). Propose
// Plan calls a provider at once, so it asks for a key neither place has and stores it.

import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { HOST_PROFILE_FILENAME } from "@rlm-plan/core/editor";
import { CLIENT_SECRETS } from "./languageClient";
import { HostProvidersRequest } from "@rlm-plan/language-server/protocol";

const SET_PROVIDER_KEY_COMMAND = "rlmPlan.setProviderApiKey";
const SECRET_PREFIX = "rlmPlan.apiKey.";
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class ProviderKeys {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly client: LanguageClient,
  ) {}

  register(): vscode.Disposable {
    return vscode.commands.registerCommand(SET_PROVIDER_KEY_COMMAND, (variable?: unknown) =>
      this.setKey(typeof variable === "string" ? variable : undefined),
    );
  }

  private async setKey(given: string | undefined): Promise<void> {
    const variable = given ?? (await this.pickVariable());
    if (!variable) return;
    if (!VARIABLE_NAME.test(variable)) {
      void vscode.window.showErrorMessage(`${variable} is not an environment variable name (letters, digits, _).`);
      return;
    }
    const stored = (await this.secrets.get(SECRET_PREFIX + variable)) !== undefined;
    const key = await inputKey(
      variable,
      `Kept in VS Code's secret storage, never in a file.${stored ? " Leave empty to remove the stored key." : ""}`,
    );
    if (key === undefined) return;
    if (key.trim() === "") {
      if (stored) {
        await this.secrets.delete(SECRET_PREFIX + variable);
        void vscode.window.showInformationMessage(`Removed the stored key for ${variable}.`);
      }
      return;
    }
    await this.secrets.store(SECRET_PREFIX + variable, key.trim());
    CLIENT_SECRETS.add([key.trim()]);
    void vscode.window.showInformationMessage(
      `Stored the key for ${variable} in VS Code's secret storage; runs pass it to providers that read ${variable}.`,
    );
  }

  /**
   * The key a call to `provider`, which reads it from `variable`, is given now: the stored key;
   * none when the environment VS Code started with has one (the language server inherits it);
   * else the key the user types, stored for the next call. Undefined when the user cancels.
   */
  async keyForCall(variable: string, provider: string): Promise<Record<string, string> | undefined> {
    const stored = await this.keysForVariables([variable]);
    if (!VARIABLE_NAME.test(variable) || variable in stored || (process.env[variable] ?? "").trim() !== "") {
      return stored;
    }
    const key = (
      await inputKey(variable, `${provider} reads its key from ${variable}: no key is stored. Kept in secret storage.`)
    )?.trim();
    if (!key) return undefined;
    await this.secrets.store(SECRET_PREFIX + variable, key);
    // Before the key travels in the propose request, which the trace channel logs when verbose.
    CLIENT_SECRETS.add([key]);
    return { [variable]: key };
  }

  /** Stored keys for these variables, by name (those with no stored key are left out). */
  async keysForVariables(variables: readonly string[]): Promise<Record<string, string>> {
    const keys: Record<string, string> = {};
    for (const variable of new Set(variables)) {
      if (!VARIABLE_NAME.test(variable)) continue;
      const key = await this.secrets.get(SECRET_PREFIX + variable);
      if (key !== undefined) keys[variable] = key;
    }
    // Before the keys travel in a request (propose), which the trace channel logs when verbose.
    CLIENT_SECRETS.add(Object.values(keys));
    return keys;
  }

  /**
   * Stored keys of the providers of the host profile that applies to a plan (or of the profile
   * file `hostProfile`, when given), by variable name, for one run.
   */
  async keysFor(planUri: string, hostProfile?: string): Promise<Record<string, string>> {
    const providers = await this.providers({ uri: planUri, ...(hostProfile ? { hostProfile } : {}) });
    const keys = await this.keysForVariables(providers.flatMap((p) => (p.keyVariable ? [p.keyVariable] : [])));
    // Before the keys travel in the run request, which the trace channel logs when verbose.
    CLIENT_SECRETS.add(Object.values(keys));
    return keys;
  }

  /** The server's list of a profile's providers; none when it cannot answer (the run then says why). */
  private async providers(params: {
    uri: string;
    hostProfile?: string;
  }): Promise<readonly HostProvidersRequest.Provider[]> {
    try {
      return (await this.client.sendRequest(HostProvidersRequest.type, params)).providers;
    } catch {
      return [];
    }
  }

  /** The apiKeyEnv names of the providers in the workspace's host profiles, or one typed in. */
  private async pickVariable(): Promise<string | undefined> {
    const items: (vscode.QuickPickItem & { variable?: string })[] = [];
    const seen = new Set<string>();
    for (const file of await vscode.workspace.findFiles(`**/${HOST_PROFILE_FILENAME}`, "**/node_modules/**", 50)) {
      const providers = await this.providers({ uri: file.toString(), hostProfile: file.fsPath });
      for (const { name, keyVariable: variable } of providers) {
        if (!variable || seen.has(variable)) continue;
        seen.add(variable);
        const stored = (await this.secrets.get(SECRET_PREFIX + variable)) !== undefined;
        items.push({
          label: variable,
          description: `provider ${name} · ${vscode.workspace.asRelativePath(file)}`,
          detail: stored ? "A key is stored" : undefined,
          variable,
        });
      }
    }
    items.push({ label: "Another environment variable…", alwaysShow: true });
    const picked = await vscode.window.showQuickPick(items, {
      title: "Set Provider API Key",
      placeHolder: "The environment variable a provider reads its key from (apiKeyEnv)",
    });
    if (!picked) return undefined;
    if (picked.variable) return picked.variable;
    return vscode.window.showInputBox({
      title: "Environment variable name",
      prompt: "The apiKeyEnv of a provider in a host profile",
      validateInput: (value) =>
        VARIABLE_NAME.test(value) ? undefined : "Letters, digits and _, not starting with a digit",
    });
  }
}

/** A password input box for the key of `variable`; undefined when dismissed. */
function inputKey(variable: string, prompt: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `API key for ${variable}`,
    prompt,
    password: true,
    ignoreFocusOut: true,
    placeHolder: "sk-…",
  });
}
