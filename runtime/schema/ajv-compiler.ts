import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { linearPattern } from "./linear-pattern.js";
import { linearUniqueItems } from "./unique-items.js";

// ajv-formats ships CommonJS: Node's default import is `module.exports`, whose `default` property is the plugin too.
const addFormats = addFormatsModule.default;

/**
 * How arguments and results are checked: own properties only (a property named `constructor` is data, not
 * `Object.prototype`'s), document `pattern`s on a linear-time engine, and `uniqueItems` in linear time.
 */
const VALIDATOR_OPTIONS = {
  allErrors: true,
  strict: false,
  validateSchema: false,
  logger: false,
  ownProperties: true,
  // `code` names the engine in standalone validator code, which this runtime does not emit.
  code: { regExp: Object.assign(linearPattern, { code: "linearPattern" }) },
} as const;

/** A fresh Ajv (draft 2020-12, with formats) configured as above. Loaded on demand: Ajv is most of start-up. */
export function createCompiler(): Ajv2020 {
  return linearUniqueItems(addFormats(new Ajv2020(VALIDATOR_OPTIONS)));
}
