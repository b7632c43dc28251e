/** Words for the characters one class range or escape admits. */
const RANGES: [RegExp, string][] = [
  [/^a-z/, "lower-case letters"],
  [/^A-Z/, "upper-case letters"],
  [/^0-9/, "digits"],
  [/^\\d/, "digits"],
  [/^\\w/, "letters, digits and _"],
  [/^\\s/, "spaces"],
];

/** What a character class (`a-z0-9_-`) admits, in words; undefined for one too intricate to say plainly. */
function classWords(body: string): string | undefined {
  const words: string[] = [];
  const singles: string[] = [];
  let rest = body;
  while (rest.length > 0) {
    const range = RANGES.find(([pattern]) => pattern.test(rest));
    if (range) {
      words.push(range[1]);
      rest = rest.replace(range[0], "");
      continue;
    }
    const escaped = /^\\([.\-_+/@:#~])/.exec(rest);
    const single = escaped?.[1] ?? (/^[.\-_+/@:#~ ]/.test(rest) ? rest[0] : undefined);
    if (single === undefined) return undefined;
    singles.push(single === " " ? "space" : `"${single}"`);
    rest = rest.slice(escaped ? 2 : 1);
  }
  const all = [...words, ...singles];
  return all.length <= 1 ? all.join("") : `${all.slice(0, -1).join(", ")} and ${all.at(-1)}`;
}

/** How long a quantifier lets the text be, in words. */
function lengthWords(quantifier: string): string {
  if (quantifier === "+") return "";
  if (quantifier === "*") return " (or nothing)";
  const exact = /^\{(\d+)\}$/.exec(quantifier);
  if (exact) return `, exactly ${exact[1]} of them`;
  const bounded = /^\{(\d+),(\d*)\}$/.exec(quantifier);
  if (!bounded) return "";
  return bounded[2] === "" ? `, at least ${bounded[1]}` : `, ${bounded[1]} to ${bounded[2]} of them`;
}

/**
 * What a `pattern` lets a string hold, said plainly where the pattern is one character class repeated
 * (`^[a-z0-9-]+$`: "lower-case letters, digits and "-" only"), with the pattern itself beside it for precision.
 */
export function patternWords(pattern: string): string {
  const simple = /^\^\[([^\]^[]+)\](\+|\*|\{\d+(?:,\d*)?\})\$$/.exec(pattern);
  const words = simple?.[1] !== undefined ? classWords(simple[1]) : undefined;
  if (simple?.[2] === undefined || words === undefined) return `must match the pattern ${pattern}`;
  return `may hold ${words} only${lengthWords(simple[2])} (pattern ${pattern})`;
}
