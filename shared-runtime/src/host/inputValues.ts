// Input values given for one run (a test case's inputs, a queued job's inputs) over a host
// profile's: each named value replaces the profile's input of that name, which is then never
// built. The one rule `rlm-plan test`, the plan session and the queue's workers share.

import { newJsonObject, setOwn, type JsonValue } from "../json";
import type { HostFactory } from "../run/startRun";

/** `factory`'s host with `values` as inputs (a profile input of the same name is not built). */
export function withInputValues(factory: HostFactory, values: Readonly<Record<string, JsonValue>>): HostFactory {
  const own = (name: string) => Object.prototype.hasOwnProperty.call(values, name);
  if (Object.keys(values).length === 0) return factory;
  return async (needs) => {
    const inputs = new Set([...needs.inputs].filter((name) => !own(name)));
    const setup = await factory({ ...needs, inputs });
    if (!setup.ok) return setup;
    const merged = newJsonObject();
    const built = setup.built.host.inputs;
    if (built && typeof built === "object")
      for (const [name, value] of Object.entries(built)) setOwn(merged, name, value as JsonValue);
    for (const name of Object.keys(values)) setOwn(merged, name, values[name] as JsonValue);
    return { ok: true, built: { ...setup.built, host: { ...setup.built.host, inputs: merged } } };
  };
}
