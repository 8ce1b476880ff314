// The secret mask a session's outputs pass through: the key variable of every provider of its
// host profile, every environment variable whose name says it holds a secret, and every value a
// client passed for the session (keys from an editor's secret storage), whatever its name.
// A leaf (mask/secretMask.ts only): the extension bundles it.

import type { HostProfile } from "../host/profile";
import { environmentSecrets, SecretMask } from "../mask/secretMask";

export interface MaskSources {
  /** The environment providers read keys from. */
  readonly env: NodeJS.ProcessEnv;
  /** The host profile in force: its providers' key variables are secret. */
  readonly profile?: Pick<HostProfile, "providers">;
  /** Values a client passed for this session only: secret whatever their names. */
  readonly clientValues?: Iterable<string>;
}

/** A new mask over every secret these sources know. */
export function sessionMask(sources: MaskSources): SecretMask {
  return addSessionSecrets(new SecretMask(), sources);
}

/** Adds what these sources know to a mask (a profile found later, a client's keys). */
export function addSessionSecrets(mask: SecretMask, sources: MaskSources): SecretMask {
  mask.add(sources.clientValues ?? []);
  mask.add(environmentSecrets(sources.env, sources.profile));
  return mask;
}
