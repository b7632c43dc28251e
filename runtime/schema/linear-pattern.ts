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
    const compiled = re2().compile(re2Syntax(pattern));
    test = (text) => compiled.test(text);
  } catch {
    test = () => true;
  }
  return { test, toString: () => `/${pattern}/` };
}

/** Why RE2 cannot run the pattern (so it will not be enforced), or undefined when it can. */
export function unenforcedReason(pattern: string): string | undefined {
  try {
    re2().compile(re2Syntax(pattern));
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^error parsing regexp: /, "");
  }
}

/** True when RE2 can run the pattern, i.e. it will be enforced. */
export function isLinearPattern(pattern: string): boolean {
  return unenforcedReason(pattern) === undefined;
}

/**
 * A JSON Schema (ECMAScript) pattern in RE2's spelling: `\uXXXX` and `\u{X…}` escapes become `\x{…}` (a surrogate pair
 * one code point); everything else is the same in both, or refused by RE2 with its reason.
 */
export function re2Syntax(pattern: string): string {
  let out = "";
  for (let at = 0; at < pattern.length; at++) {
    const character = pattern[at];
    if (character !== "\\") {
      out += character;
      continue;
    }
    const unicode = /^\\u(?:\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4}))(?:\\u([dD][c-fC-F][0-9a-fA-F]{2}))?/.exec(pattern.slice(at, at + 14));
    if (!unicode) {
      out += pattern.slice(at, at + 2);
      at++;
      continue;
    }
    const [whole, braced, unit = "", low] = unicode;
    let code = Number.parseInt(braced ?? unit, 16);
    let length = whole.length;
    if (braced === undefined && code >= 0xd800 && code <= 0xdbff && low !== undefined) {
      code = 0x10000 + ((code - 0xd800) << 10) + (Number.parseInt(low, 16) - 0xdc00);
    } else if (low !== undefined) length -= 6;
    out += `\\x{${code.toString(16)}}`;
    at += length - 1;
  }
  return out;
}
