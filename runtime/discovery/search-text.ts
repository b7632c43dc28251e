import { words } from "../base/words.js";

/** One search hit as `search_operations` shows it. */
export interface Hit {
  name: string;
  /** The document's operationId, where the name differs from it (the API's own docs use it). */
  operationId?: string;
  method: string;
  path: string;
  summary: string;
  arguments: string;
  readOnly: boolean;
  destructive: boolean;
  /** The document marks it deprecated. */
  deprecated?: true;
}

/** A page of search results, as `structuredContent` carries it. */
export interface SearchPage {
  results: Hit[];
  total: number;
  nextCursor?: string;
  note?: string;
}

/**
 * The page as a model reads it: one line per operation (number, name, summary, method, what it does to data) and its
 * arguments beneath (`brief`, by result: the required ones, the optional ones named). The JSON in `structuredContent`
 * has each one's path and arguments' types too; `describe_operation` has everything.
 */
export function searchText(page: SearchPage, offset: number, brief: readonly string[]): string {
  const { results, total, nextCursor, note } = page;
  const shown =
    results.length === 0
      ? `No operation matched (${total} in all).`
      : `Operations ${offset + 1}–${offset + results.length} of ${total} matching, best first` +
        (nextCursor === undefined ? "." : `; the next page: cursor "${nextCursor}".`);
  const lines = [shown, ...(note === undefined ? [] : [note])];
  results.forEach((hit, at) => {
    // The operationId where it says more than the name (either is accepted where a name is).
    const id = hit.operationId === undefined || sameWords(hit.operationId, hit.name) ? "" : ` (operationId ${hit.operationId})`;
    const does = effect(hit);
    lines.push(`${offset + at + 1}. ${hit.name}${id} — ${hit.summary} (${hit.method}${does ? `; ${does}` : ""})`);
    lines.push(`   ${hit.arguments === "" ? "needs nothing" : (brief[at] ?? hit.arguments)}`);
  });
  return lines.join("\n");
}

/** What calling it does, where its method does not say: a GET that reads says nothing; deprecated ones say so. */
function effect(hit: Hit): string {
  const what = hit.readOnly ? (hit.method === "GET" ? "" : "reads") : hit.destructive ? "changes or deletes data" : "changes data";
  return [what, hit.deprecated ? "deprecated" : ""].filter((part) => part !== "").join("; ");
}

/** Whether two names spell the same words (`pulls/list` and `pulls_list`). */
function sameWords(a: string, b: string): boolean {
  const spelled = (name: string) => words(name).join(" ");
  return spelled(a) === spelled(b);
}
