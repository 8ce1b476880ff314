// A run's number as a user types it (`runs show RUN`, `run --resume RUN`): decimal digits only,
// no sign, space, leading zero, exponent or hex, so each run has one spelling and `0x4`, `1e0`
// and ` 4` are not taken for run 4. The one parser every front end asks.

/** The run number `text` spells, or undefined when it is not one (1 to 2^53 - 1, plain decimal). */
export function parseRunId(text: string): number | undefined {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** What a refused run number is told: "RUN is a run number (1, 2, ...: rlm-plan runs list), not "0x4"". */
export function runIdRefusal(what: string, text: string): string {
  return `${what} needs a run number as rlm-plan runs list shows it (decimal digits: 1, 2, ...), not ${JSON.stringify(text)}`;
}
