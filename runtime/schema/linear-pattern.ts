import { createRequire } from "node:module";
import type { RE2JS } from "re2js";

const require = createRequire(import.meta.url);
let engine: typeof RE2JS | undefined;

/** RE2, loaded on first use (a server that never compiles a pattern never loads it). */
function re2(): typeof RE2JS {
  if (engine === undefined) {
    const loaded: typeof import("re2js") = require("re2js");
    engine = loaded.RE2JS;
  }
  return engine;
}

/** What Ajv needs of a compiled `pattern`. */
export interface PatternMatcher {
  test(text: string): boolean;
  /** The key Ajv keeps the matcher under: one per pattern. */
  toString(): string;
}

/**
 * A document's `pattern` compiled for a linear-time engine (RE2), so caller input can never make matching
 * exponential (`^(a+)+$`); patterns outside RE2's syntax (look-around, back-references) accept every text rather than
 * risk it (the generator warns about them). Ajv keeps one matcher per `toString()`, so each names its own pattern:
 * matchers that all printed `[object Object]` made every pattern of a compiler test with the first one compiled.
 */
export function linearPattern(pattern: string): PatternMatcher {
  let test: (text: string) => boolean;
  try {
    const compiled = re2().compile(pattern);
    test = (text) => compiled.test(text);
  } catch {
    test = () => true;
  }
  return { test, toString: () => `/${pattern}/` };
}

/** True when RE2 can run the pattern, i.e. it will be enforced. */
export function isLinearPattern(pattern: string): boolean {
  try {
    re2().compile(pattern);
    return true;
  } catch {
    return false;
  }
}
