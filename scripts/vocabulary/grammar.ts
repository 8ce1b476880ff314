// The TextMate grammar (syntaxes/rlm-plan.tmLanguage.json): JSON with comments, plus scopes
// for the plan's vocabulary. Every alternation of names (operations, actions, selector and
// strategy types, transforms, reducers, reference kinds) comes from the AST's tables; the
// scopes and the JSON structure are written here.

import {
  CONTEXT_ACTIONS,
  DISCRIMINATORS,
  MAP_TRANSFORMS,
  OPERATIONS,
  PARTITION_STRATEGIES,
  REDUCERS,
  REFERENCE_KINDS,
  SELECTOR_CONSTANTS,
  SELECTOR_TYPES,
  STEP_FIELDS,
} from "@rlm-plan/core";

type Rule = Record<string, unknown>;

const S = ".rlm-plan";
/** Any JSON string's content, as a capture. */
const ANY_TEXT = '(?:[^"\\\\]|\\\\.)*';

function scope(name: string): { name: string } {
  return { name: `${name}${S}` };
}

function alternation(names: readonly string[]): string {
  return names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
}

/** The seven captures of `"key": "value"`, the value's text scoped as `valueScope`. */
function memberCaptures(valueScope: string): Rule {
  return {
    "1": scope(`support.type.property-name${S} punctuation.support.type.property-name.begin`),
    "2": scope("support.type.property-name"),
    "3": scope(`support.type.property-name${S} punctuation.support.type.property-name.end`),
    "4": scope("punctuation.separator.dictionary.key-value"),
    "5": scope(`string.quoted.double${S} punctuation.definition.string.begin`),
    "6": scope(`string.quoted.double${S} ${valueScope}`),
    "7": scope(`string.quoted.double${S} punctuation.definition.string.end`),
  };
}

function memberPattern(key: string, value: string): string {
  return `(")(${alternation([key])})(")\\s*(:)\\s*(")(${value})(")`;
}

/** `"key": "one|of|these"` (or any text), the value scoped. */
function member(key: string, value: string, valueScope: string): Rule {
  return { match: memberPattern(key, value), captures: memberCaptures(valueScope) };
}

/**
 * An object whose discriminator comes first (`{"op": "tool", ...}`): until the object ends, a
 * `"name"` member is the tool's, the input's or the variable's name.
 */
function scopedObject(discriminator: string, form: string, valueScope: string, meta: string, nameScope: string): Rule {
  return {
    name: `${meta}${S}`,
    begin: memberPattern(discriminator, alternation([form])),
    beginCaptures: memberCaptures(valueScope),
    end: "(?=\\})",
    patterns: [member("name", ANY_TEXT, nameScope), { include: "#members" }],
  };
}

const OPERATION = "keyword.control.operation";
const REFERENCE = "keyword.other.reference";

/** Reference kinds whose "name" gets its own scope; the others are highlighted as kinds only. */
const NAMED_REFERENCES: Readonly<Record<string, { meta: string; name: string }>> = {
  var: { meta: "meta.reference.var", name: "variable.other.reference" },
  input: { meta: "meta.reference.input", name: "variable.other.constant.input" },
};

export function grammar(): Rule {
  if (!Object.hasOwn(STEP_FIELDS.tool, "name")) throw new Error('the grammar scopes a tool step\'s "name"');
  const references = Object.keys(NAMED_REFERENCES).filter((kind) =>
    (REFERENCE_KINDS as readonly string[]).includes(kind),
  );
  const otherReferences = REFERENCE_KINDS.filter((kind) => !Object.hasOwn(NAMED_REFERENCES, kind));
  return {
    $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    name: "RLM Plan",
    scopeName: "source.rlm-plan",
    fileTypes: ["rlmplan.json", "rlmplan"],
    comment:
      'Typed LLM plans: JSON with comments, plus scopes for operations, reference kinds, binding names, tools, providers, inputs and context actions. Names are recognised by the member they are the value of; a tool\'s or a reference\'s name is recognised when its "op"/"ref" member comes first in the object. Generated from the runtime\'s vocabulary (npm run generate): do not edit.',
    patterns: [{ include: "#value" }],
    repository: {
      value: {
        patterns: ["#comments", "#object", "#array", "#string", "#number", "#constant"].map((include) => ({ include })),
      },
      comments: {
        patterns: [
          {
            name: `comment.block${S}`,
            begin: "/\\*",
            beginCaptures: { "0": scope("punctuation.definition.comment.begin") },
            end: "\\*/",
            endCaptures: { "0": scope("punctuation.definition.comment.end") },
          },
          {
            name: `comment.line.double-slash${S}`,
            match: "(//).*$\\n?",
            captures: { "1": scope("punctuation.definition.comment") },
          },
        ],
      },
      object: {
        name: `meta.structure.dictionary${S}`,
        begin: "\\{",
        beginCaptures: { "0": scope("punctuation.definition.dictionary.begin") },
        end: "\\}",
        endCaptures: { "0": scope("punctuation.definition.dictionary.end") },
        patterns: [
          scopedObject(DISCRIMINATORS.step, "tool", OPERATION, "meta.step.tool", "entity.name.function.tool"),
          ...references.map((kind) => {
            const named = NAMED_REFERENCES[kind] as { meta: string; name: string };
            return scopedObject(DISCRIMINATORS.reference, kind, REFERENCE, named.meta, named.name);
          }),
          { include: "#members" },
        ],
      },
      members: {
        patterns: [
          { include: "#comments" },
          member(DISCRIMINATORS.step, alternation(OPERATIONS), OPERATION),
          member(DISCRIMINATORS.reference, alternation(otherReferences), REFERENCE),
          member("bind", ANY_TEXT, "variable.other.binding"),
          member("provider", ANY_TEXT, "entity.name.type.provider"),
          member("key", ANY_TEXT, "variable.other.property"),
          member("label", ANY_TEXT, "entity.name.label.checkpoint"),
          member(DISCRIMINATORS.action, alternation(CONTEXT_ACTIONS), "support.function.action"),
          member(
            DISCRIMINATORS.selector,
            alternation([...SELECTOR_TYPES, ...PARTITION_STRATEGIES]),
            "support.constant.kind",
          ),
          member("selector", alternation(SELECTOR_CONSTANTS), "support.constant.kind"),
          member("transform", alternation(MAP_TRANSFORMS), "support.constant.transform"),
          member("reducer", alternation(REDUCERS), "support.constant.reducer"),
          { include: "#key" },
          {
            name: `meta.structure.dictionary.value${S}`,
            begin: ":",
            beginCaptures: { "0": scope("punctuation.separator.dictionary.key-value") },
            end: "(,)|(?=\\})",
            endCaptures: { "1": scope("punctuation.separator.dictionary.pair") },
            patterns: [{ include: "#value" }],
          },
          { match: ",", name: `punctuation.separator.dictionary.pair${S}` },
        ],
      },
      key: {
        name: `string.json${S} support.type.property-name${S}`,
        begin: '"',
        beginCaptures: { "0": scope("punctuation.support.type.property-name.begin") },
        end: '"',
        endCaptures: { "0": scope("punctuation.support.type.property-name.end") },
        patterns: [{ include: "#escape" }],
      },
      array: {
        name: `meta.structure.array${S}`,
        begin: "\\[",
        beginCaptures: { "0": scope("punctuation.definition.array.begin") },
        end: "\\]",
        endCaptures: { "0": scope("punctuation.definition.array.end") },
        patterns: [{ include: "#value" }, { match: ",", name: `punctuation.separator.array${S}` }],
      },
      string: {
        name: `string.quoted.double${S}`,
        begin: '"',
        beginCaptures: { "0": scope("punctuation.definition.string.begin") },
        end: '"',
        endCaptures: { "0": scope("punctuation.definition.string.end") },
        patterns: [{ include: "#escape" }],
      },
      escape: {
        patterns: [
          { match: '\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})', name: `constant.character.escape${S}` },
          { match: "\\\\.", name: `invalid.illegal.unrecognized-string-escape${S}` },
        ],
      },
      number: {
        match: "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?",
        name: `constant.numeric${S}`,
      },
      constant: { match: "\\b(?:true|false|null)\\b", name: `constant.language${S}` },
    },
  };
}
