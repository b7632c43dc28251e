import { RE2JS } from "re2js";

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
    const compiled = RE2JS.compile(pattern);
    return { test: (text) => compiled.test(text) };
  } catch {
    return UNCHECKED;
  }
}

/** True when RE2 can run the pattern, i.e. it will be enforced. */
export function isLinearPattern(pattern: string): boolean {
  try {
    RE2JS.compile(pattern);
    return true;
  } catch {
    return false;
  }
}
