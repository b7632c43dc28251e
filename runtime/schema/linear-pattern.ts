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
}

/** Accepts every text: a pattern RE2 cannot run (look-around, back-references) is not checked rather than risked. */
const UNCHECKED: PatternMatcher = { test: () => true };

/**
 * A document's `pattern` compiled for a linear-time engine (RE2), so caller input can never make matching
 * exponential (`^(a+)+$`); patterns outside RE2's syntax are left unchecked (the generator warns about them).
 */
export function linearPattern(pattern: string): PatternMatcher {
  try {
    const compiled = re2().compile(pattern);
    return { test: (text) => compiled.test(text) };
  } catch {
    return UNCHECKED;
  }
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
