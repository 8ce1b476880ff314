// The rule for a binding name that editors, `check` and rename keep: a letter or "_", then
// letters, digits, "_", "-" or "." (at most 200 characters). The reference runtime accepts any
// text as a name, so the runtime's first-error validation does not apply it: a plan a model
// writes with `"bind": "has space"` still runs, and `check` and the editor report it.

/** The longest binding name editors accept. */
export const MAX_BINDING_NAME_LENGTH = 200;

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function isValidBindingName(name: string): boolean {
  return bindingNameProblem(name) === undefined;
}

/** Why `name` is not a valid binding name, as a message; undefined when it is valid. */
export function bindingNameProblem(name: string): string | undefined {
  if (name.length === 0) return "a binding name cannot be empty";
  if (name.length > MAX_BINDING_NAME_LENGTH)
    return `a binding name can be at most ${MAX_BINDING_NAME_LENGTH} characters long`;
  if (!VALID_NAME.test(name)) {
    return `${JSON.stringify(name)} is not a valid binding name: use letters, digits, "_", "-" and ".", starting with a letter or "_"`;
  }
  return undefined;
}
