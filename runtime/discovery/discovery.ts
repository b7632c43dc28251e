import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../base/own-property.js";
import { invalidParams } from "../base/protocol-error.js";
import { excerpt, nearest } from "../base/suggest.js";
import type { JsonSchema, ToolDefinition } from "../base/tool.js";
import { words } from "../base/words.js";
import type { CallerCredentials } from "../call/credentials.js";
import { errorResult } from "../result/result.js";
import { callOperation } from "../tools/call-operation.js";
import { isInputRequired } from "../tools/confirmation.js";
import { describeOperation } from "../tools/describe-operation.js";
import type { AskModel, CallingClient, DiscoveryTools, ServedTool, ToolRuntime } from "../tools/tool-runtime-contract.js";
import { type ApiPart, apiParts } from "./api-parts.js";
import { type CodeBeside, DISCOVERY_TOOLS, discoveryToolDefinitions, MAX_SEARCH_LIMIT, METHODS } from "./discovery-tools.js";
import { contradiction, shownSummary } from "./hit-summary.js";
import { type IdSupplier, idSuppliers, suppliedIds } from "./id-suppliers.js";
import { type ChoiceContext, chooseWithModel, MODEL_CHOICE, type ModelChoice, NOTHING_MATCHED } from "./model-choice.js";
import type { OperationSearchIndex, SearchableOperation, SearchLexicon } from "./operation-index.js";
import { briefArguments, type Hit, type SearchPage, searchText, synopsis } from "./search-text.js";

/** What the generator writes for a discovery-mode server (`discovery.ts` beside the registry). */
export interface DiscoveryData {
  /** Operations listed as tools of their own beside the three discovery tools. */
  readonly alwaysList: readonly string[];
  /** Each tool's tags, in the registry's order. */
  readonly tags: readonly (readonly string[])[];
  /** `OperationSearchIndex.serialize()` over `searchableOperation` of the registry's tools, in order. */
  readonly index: string;
  /** What users may say for the API's words (WordNet, over its vocabulary), made at generation time. */
  readonly lexicon?: SearchLexicon;
  /** The first sentence of each tag's description, for the tags that have one: the search tool names the API's parts. */
  readonly tagNotes?: Readonly<Record<string, string>>;
  /** For each tool (by name), the ids another operation's response supplies, as the document's OpenAPI `links` say. */
  readonly links?: Readonly<Record<string, readonly IdSupplier[]>>;
}

/** What the search index holds of a tool (the id is its position in the registry); `tagNotes`: tags' descriptions. */
export function searchableOperation(
  tool: ToolDefinition,
  id: number,
  tags: readonly string[],
  tagNotes: ReadonlyMap<string, string> = new Map(),
): SearchableOperation {
  const properties = argumentWords(tool.inputSchema);
  const states = stateWords(properties.states, tool.description);
  return {
    id,
    path: tool._meta.path,
    method: tool._meta.method,
    operationId: [tool.name, tool._meta.operationId ?? ""].join(" "),
    summary: tool.title,
    description: tool.description,
    // A tag's own description says what its operations act on ("A Droplet is a DigitalOcean virtual machine").
    tags: [...tags, ...tags.map((tag) => tagNotes.get(tag) ?? "")].join(" ").trim(),
    parameters: properties.words.join(" "),
    ...(states.length > 0 ? { states: states.join(" ") } : {}),
    ...(tool._meta.deprecated ? { deprecated: true } : {}),
  };
}

/** A description naming `me` as a value, quoted or as code. */
const SAYS_ME = /["'`\u2018\u201c]me["'`\u2019\u201d]/i;

/** Enumerations this short name what an operation can be asked to do (`action`: end, recover). */
const MAX_ENUM_VALUES = 12;

/**
 * The words of an operation's arguments: the names of its parameters and of its body's properties, and their short
 * string enumerations (`action: end | recover` is how Zoom ends a meeting); and, apart, the string values of its
 * status-like arguments: the states it sets or filters by.
 */
function argumentWords(schema: JsonSchema): { words: string[]; states: string[] } {
  const found: string[] = [];
  const states: string[] = [];
  const read = (properties: unknown, depth: number) => {
    if (!isRecord(properties)) return;
    for (const [name, property] of Object.entries(properties)) {
      found.push(name);
      if (!isRecord(property)) continue;
      // An argument that takes `"me"` for the caller (Asana's user_gid, Zoom's userId) answers "who am I?".
      if (depth === 0 && typeof property.description === "string" && SAYS_ME.test(property.description)) found.push("me");
      const values = (Array.isArray(property.enum) ? property.enum : []).filter(
        (value): value is string => typeof value === "string" && value.length <= 24,
      );
      if (Array.isArray(property.enum) && property.enum.length <= MAX_ENUM_VALUES) found.push(...values);
      if (STATE_ARGUMENT.test(name)) states.push(...values.slice(0, MAX_ENUM_VALUES));
      if (depth === 0 && name === "body") read(property.properties, 1);
    }
  };
  read(schema.properties, 0);
  return { words: found, states };
}

/** An argument naming a state: `status`, `state`, `invoice_status`, `action` (Zoom's `end | recover`). */
const STATE_ARGUMENT = /(?:^|_|[a-z])(?:status|state|action)$/i;
/**
 * Words a description lists in capitals (`CANCELLED – available when…`), as documents list states in prose; not
 * placeholders (`PROJECT_ID`) nor HTTP's words.
 */
const LISTED_CONSTANT = /(?<![\w{])(?!(?:DELETE|POST|PATCH|HEAD|OPTIONS|HTTP|HTTPS|JSON|TRUE|FALSE|NULL)\b)[A-Z]{4,24}(?![\w}])/g;

/** The states an operation sets or filters by: its arguments' (above), and, where its description speaks of a status, the constants it lists in capitals. */
function stateWords(arguments_: readonly string[], description: string): string[] {
  const found = [...arguments_];
  if (/\b(?:status|state)\b/i.test(description)) for (const [constant] of description.matchAll(LISTED_CONSTANT)) found.push(constant);
  return [...new Set(found)];
}

/**
 * A discovery-mode server's three tools over its registry: ranked search with the search server's index (loaded from
 * the generated data, never rebuilt), full descriptions, and calls that run the operation exactly as its own tool
 * would (same validation, request building, credentials and result shaping).
 */
export class DiscoveryService implements DiscoveryTools {
  readonly listed: readonly ServedTool[];
  private readonly order: readonly ToolDefinition[];
  private readonly alwaysListed: ReadonlySet<string>;
  /** The registry's tools by name and by operationId, for the names callers pass. */
  private readonly byName: ReadonlyMap<string, ToolDefinition>;
  /** And by `METHOD /path`, as search results and the API's own documentation show them. */
  private readonly byRoute: ReadonlyMap<string, ToolDefinition>;
  private index: Promise<OperationSearchIndex> | undefined;
  /** The ids each tool needs that another operation supplies (linked, or the list of their collection), found on the first search. */
  private suppliers: Map<string, IdSupplier[]> | undefined;
  /** The API's tags, the most central first, as the search tool names them. */
  private readonly parts: readonly ApiPart[];

  constructor(
    tools: readonly ToolDefinition[],
    private readonly data: DiscoveryData,
    private readonly apiTitle: string,
    private readonly code: CodeBeside = "none",
  ) {
    this.order = tools;
    this.alwaysListed = new Set(data.alwaysList);
    const byOperationId = tools.flatMap((tool) => (tool._meta.operationId ? [[tool._meta.operationId, tool] as const] : []));
    this.byName = new Map([...byOperationId, ...tools.map((tool) => [tool.name, tool] as const)]);
    this.byRoute = new Map(tools.map((tool) => [routeKey(`${tool._meta.method} ${tool._meta.path}`), tool] as const).reverse());
    this.parts = apiParts(
      data.tags,
      data.tagNotes,
      tools.map((tool) => tool._meta.path),
    );
    this.listed = discoveryToolDefinitions(apiTitle, tools, code, this.parts);
  }

  /** Whether an operation is also listed as a tool of its own. */
  listsDirectly(name: string): boolean {
    return this.alwaysListed.has(name);
  }

  /** Runs one of the three discovery tools; undefined for an operation listed as its own tool; any other name throws. */
  call(
    runtime: ToolRuntime,
    name: string,
    args: Record<string, unknown>,
    caller: CallerCredentials,
    client: CallingClient = {},
  ): Promise<CallToolResult> | undefined {
    if (name === DISCOVERY_TOOLS.search) return this.search(args, client, runtime);
    if (name === DISCOVERY_TOOLS.describe) return Promise.resolve(this.describe(args));
    if (name === DISCOVERY_TOOLS.call && this.code !== "instead") return this.callOperation(runtime, args, caller, client);
    if (this.listsDirectly(name)) return undefined;
    const hint = runtime.tools.has(name) ? ` (call it with ${DISCOVERY_TOOLS.call})` : "";
    throw invalidParams(`Unknown tool: ${name}${hint}`);
  }

  /** The registry's tools ranked for a query, best first (what `search_operations` pages through). */
  async rank(query: string): Promise<ToolDefinition[]> {
    const hits = (await this.searchIndex()).search(query);
    return hits.flatMap((hit) => this.order[hit.id] ?? []);
  }

  private async search(args: Record<string, unknown>, client: CallingClient, runtime?: ToolRuntime): Promise<CallToolResult> {
    const problem = searchArgumentsProblem(args);
    if (problem) return errorResult(`${DISCOVERY_TOOLS.search}: ${problem}`);
    const query = String(args.query).trim();
    // An empty tag names no part.
    const tag = typeof args.tag === "string" && args.tag.trim() !== "" ? await this.tagNamed(args.tag) : undefined;
    if (tag !== undefined && "error" in tag) return tag.error;
    const method = typeof args.method === "string" ? args.method.toUpperCase() : undefined;
    const kept = (id: number) => {
      const tool = this.order[id];
      if (!tool) return false;
      if (method && tool._meta.method.toUpperCase() !== method) return false;
      return !tag || (this.data.tags[id] ?? []).some((candidate) => candidate.toLowerCase() === tag.lower);
    };
    const everyKept = this.order.map((_, id) => id).filter(kept);
    let matching = query === "" ? everyKept : (await this.searchIndex()).search(query, kept).map((hit) => hit.id);
    // Within a part the caller chose, every operation of it is shown: the matches first, then the rest in order.
    const part = tag === undefined ? "" : `tagged ${JSON.stringify(tag.name)}${method ? ` with method ${method}` : ""}`;
    const notes: string[] = [];
    if (tag?.loose) notes.push(`The tag ${JSON.stringify(String(args.tag).trim())} is taken as ${JSON.stringify(tag.name)}.`);
    if (tag !== undefined && everyKept.length === 0) notes.push(`No operation is ${part}.`);
    else if (query !== "" && tag !== undefined && matching.length < everyKept.length) {
      const count = everyKept.length === 1 ? "its one operation" : `all ${everyKept.length} of its operations`;
      notes.push(
        matching.length === 0
          ? `No operation ${part} matched the query; the results are ${count}.`
          : `The results are the ${everyKept.length} operations ${part}: the ${matching.length === 1 ? "one that matches" : `${matching.length} that match`} the query first, then the rest.`,
      );
      matching = followedByTheRest(matching, everyKept);
    }
    const limit = typeof args.limit === "number" ? args.limit : 10;
    // A cursor that carries the model's choice belongs to one search: the same query, tag and method.
    const searched = () => searchKey(query, tag?.name, method);
    const { offset, picks: paged, key } = readCursor(args.cursor);
    if (key !== undefined && key !== searched())
      return errorResult(`${DISCOVERY_TOOLS.search}: this cursor belongs to another search; pass the query, tag and method it came with`);
    // The first page of a request in words may be ordered by the client's model; later pages keep its choice. With no
    // tag, the model may name the parts to look in when none of the matches fits (or nothing matched).
    const asking =
      paged === undefined && offset === 0 && query !== "" && !this.byName.has(query) && (matching.length > 1 || tag === undefined);
    const chosen =
      asking && client.askModel ? await this.modelChoice(client.askModel, query, matching, kept, tag === undefined, runtime) : undefined;
    if (chosen !== undefined) notes.push(chosen.note);
    else if (query !== "" && matching.length === 0 && tag === undefined && paged === undefined) notes.push(NOTHING_MATCHED);
    // The model may choose outside the matches (within the parts it named), never outside the tag and method asked.
    const picks = [...new Set(paged ?? chosen?.picks ?? [])].filter(kept);
    if (picks.length > 0) matching = followedByTheRest(picks, matching);
    const note = notes.length > 0 ? notes.join(" ") : undefined;
    const tools = matching.slice(offset, offset + limit).flatMap((id) => this.order[id] ?? []);
    const page = tools.map(hitOf);
    const next = offset + limit < matching.length ? { nextCursor: cursorOf(offset + limit, picks, searched) } : {};
    const answer: SearchPage = { results: page, total: matching.length, ...next, ...(note ? { note } : {}) };
    // The model reads the compact text; the JSON the output schema describes is the structured content.
    // Where a result needs an id that another operation supplies (by the document's links, else the list of its
    // collection), it says which (and where that operation is shown).
    this.suppliers ??= idSuppliers(this.order, this.data.links);
    const shownAt = new Map(tools.map((tool, at) => [tool.name, offset + at + 1] as const));
    const brief = tools.map((tool) => `${briefArguments(tool.inputSchema)}${suppliedIds(this.suppliers?.get(tool.name), shownAt)}`);
    return { content: [{ type: "text", text: searchText(answer, offset, brief) }], structuredContent: { ...answer } };
  }

  /** The client's model's choice among the matches (see `chooseWithModel`); a failure leaves the index's order. */
  private async modelChoice(
    askModel: AskModel,
    query: string,
    matching: readonly number[],
    allowed: (id: number) => boolean,
    parts: boolean,
    runtime?: ToolRuntime,
  ): Promise<ModelChoice> {
    const context: ChoiceContext = {
      apiTitle: this.apiTitle,
      tools: this.order,
      parts: this.parts,
      rankWithin: async (asked, ids) => {
        const within = (id: number) => ids.has(id) && allowed(id);
        const found = (await this.searchIndex()).search(asked, within).map((hit) => hit.id);
        return followedByTheRest(
          found,
          [...ids].filter(within).sort((a, b) => a - b),
        );
      },
    };
    const choice = await chooseWithModel(askModel, context, query, matching, parts);
    if (choice.failed !== undefined)
      runtime?.log.warn("sampling for search failed; the index's order stands", { reason: excerpt(choice.failed, 200) });
    return choice;
  }

  /**
   * The tag a caller names, as the registry spells it: without regard to case or spaces around it; else the one whose
   * words are the words asked, compared as the search compares them (`priority` → Issue priorities, `statuses` →
   * Status); else, of the tags that hold every word asked, the one with the fewest others (`worklogs` → Issue
   * worklogs). Otherwise an error naming the tags that share its words, then the nearest by spelling, then all of them.
   */
  private async tagNamed(asked: string): Promise<{ name: string; lower: string; loose: boolean } | { error: CallToolResult }> {
    const { normalizeTerm } = await import("./operation-index.js");
    const termsOf = (text: string) => words(text).flatMap((word) => normalizeTerm(word) ?? []);
    const names = this.parts.map((part) => part.tag);
    const found = (name: string, loose: boolean) => ({ name, lower: name.toLowerCase(), loose });
    const exact = names.find((name) => name.toLowerCase() === asked.trim().toLowerCase());
    if (exact !== undefined) return found(exact, false);
    const wanted = termsOf(asked);
    const same = names.find((name) => sameWords(termsOf(name), wanted));
    if (same !== undefined) return found(same, true);
    const holding = names.filter((name) => wanted.length > 0 && wanted.every((word) => termsOf(name).includes(word)));
    const fewest = Math.min(...holding.map((name) => termsOf(name).length));
    const closest = holding.filter((name) => termsOf(name).length === fewest);
    if (closest.length === 1 && closest[0] !== undefined) return found(closest[0], true);
    const sharing = names.filter((name) => termsOf(name).some((word) => wanted.includes(word)));
    const quoted = (list: readonly string[]) => list.map((each) => JSON.stringify(each)).join(", ");
    const all = excerpt(quoted(names), 4000);
    if (closest.length > 1) {
      return {
        error: errorResult(`${DISCOVERY_TOOLS.search}: several tags hold "${excerpt(asked, 80)}": ${quoted(closest)}; pass one of them.`),
      };
    }
    const nearby = [...new Set([...sharing, ...nearest(asked, names, 3)])].slice(0, 5);
    return {
      error: errorResult(
        `${DISCOVERY_TOOLS.search}: no operation has the tag "${excerpt(asked, 80)}".` +
          (nearby.length > 0 ? ` Did you mean ${quoted(nearby)}? The tags are: ${all}.` : " No operation has a tag."),
      ),
    };
  }

  private describe(args: Record<string, unknown>): CallToolResult {
    const stray = Object.keys(args).find((key) => key !== "name" && key !== "at");
    if (stray !== undefined)
      return errorResult(`${DISCOVERY_TOOLS.describe}: unknown argument "${excerpt(stray, 40)}"; it takes name and at`);
    const found = this.operation(args.name, DISCOVERY_TOOLS.describe);
    if ("error" in found) return found.error;
    return describeOperation(found.tool, args.at, this.code !== "none");
  }

  private async callOperation(
    runtime: ToolRuntime,
    args: Record<string, unknown>,
    caller: CallerCredentials,
    client?: CallingClient,
  ): Promise<CallToolResult> {
    // Its input schema says `additionalProperties: false`: a stray `headers` or `body` beside `arguments` is refused.
    const stray = Object.keys(args).find((key) => key !== "name" && key !== "arguments");
    if (stray !== undefined)
      return errorResult(
        `${DISCOVERY_TOOLS.call}: unknown argument "${excerpt(stray, 40)}"; it takes name and arguments (the operation's own)`,
      );
    const found = this.operation(args.name, DISCOVERY_TOOLS.call);
    if ("error" in found) return found.error;
    const { tool } = found;
    const result = await callOperation(runtime, tool, args.arguments ?? {}, caller, DISCOVERY_TOOLS.call, client);
    if (isInputRequired(result)) return result;
    return { ...result, _meta: { ...result._meta, operation: tool.name, annotations: tool.annotations } };
  }

  /** The registry's tool named by a caller, or an error result with the nearest names. */
  private operation(name: unknown, asking: string): { tool: ToolDefinition } | { error: CallToolResult } {
    if (typeof name !== "string" || name === "") return { error: errorResult(`${asking}: name must be an operation's name`) };
    const tool = this.byName.get(name) ?? this.byRoute.get(routeKey(name));
    if (tool) return { tool };
    const names = this.order.map((candidate) => candidate.name);
    const suggestions = nearest(name, names, 3);
    return {
      error: errorResult(
        `${asking}: no operation is named "${name.slice(0, 80)}". Did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}? ` +
          `${DISCOVERY_TOOLS.search} finds operations by what they do.`,
      ),
    };
  }

  private searchIndex(): Promise<OperationSearchIndex> {
    this.index ??= import("./operation-index.js").then(
      ({ OperationSearchIndex }) =>
        new OperationSearchIndex(
          this.order.map((tool, id) => searchableOperation(tool, id, this.data.tags[id] ?? [])),
          this.data.index,
          this.data.lexicon,
        ),
    );
    return this.index;
  }
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length > 0 && a.length === b.length && a.every((word) => b.includes(word));
}

/** What is wrong with `search_operations` arguments, if anything. */
function searchArgumentsProblem(args: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(args)) {
    if (!["query", "tag", "method", "limit", "cursor"].includes(key)) return `unknown argument "${key.slice(0, 40)}"`;
  }
  if (args.query === undefined) return 'query is required (a request in words, or "" to list operations)';
  if (typeof args.query !== "string" || args.query.length > 500) return "query must be a string of at most 500 characters";
  if (args.tag !== undefined && (typeof args.tag !== "string" || args.tag.length > 200)) return "tag must be a string";
  const asked = typeof args.method === "string" ? args.method.toUpperCase() : args.method;
  if (asked !== undefined && !METHODS.some((method) => method === asked)) return `method must be one of ${METHODS.join(", ")}`;
  const { limit, cursor } = args;
  if (limit !== undefined && !(Number.isInteger(limit) && Number(limit) >= 1 && Number(limit) <= MAX_SEARCH_LIMIT)) {
    return `limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}`;
  }
  if (cursor !== undefined && !(typeof cursor === "string" && CURSOR.test(cursor))) return "cursor must be a nextCursor it returned";
  return undefined;
}

/** `20`, or `20:7.3.41:1a2b3c4d`: where the next page starts, the operations the client's model put first, and whose search it was. */
const CURSOR = new RegExp(`^\\d{1,9}(:\\d{1,9}(\\.\\d{1,9}){0,${MODEL_CHOICE.picks - 1}}:[0-9a-f]{8})?$`);

function cursorOf(offset: number, picks: readonly number[], key: () => string): string {
  return picks.length > 0 ? `${offset}:${picks.join(".")}:${key()}` : String(offset);
}

/** A checked cursor's offset and, when the first page was the model's choice, the operations it put first and its search's key. */
function readCursor(cursor: unknown): { offset: number; picks?: number[]; key?: string } {
  if (typeof cursor !== "string") return { offset: 0 };
  const [offset, picks, key] = cursor.split(":");
  return { offset: Number(offset), ...(picks && key ? { picks: picks.split(".").map(Number), key } : {}) };
}

/** Eight hex digits that name one search (query, tag, method). */
function searchKey(query: string, tag: string | undefined, method: string | undefined): string {
  return createHash("sha256")
    .update(JSON.stringify([query, tag ?? "", method ?? ""]))
    .digest("hex")
    .slice(0, 8);
}

/** `first`, then the ids of `all` it lacks, in their order: a part's matches, then its other operations. */
function followedByTheRest(first: readonly number[], all: readonly number[]): number[] {
  const shown = new Set(first);
  return [...first, ...all.filter((id) => !shown.has(id))];
}

/** `post  /pets` → `POST /pets`: a route as a caller may write it, in one spelling. */
function routeKey(route: string): string {
  const [method = "", path = ""] = route.trim().split(/\s+/, 2);
  return `${method.toUpperCase()} ${path}`;
}

/** The hit's flag where the document's summary contradicts the operation's method. */
function contradictionOf(tool: ToolDefinition): { contradiction?: string } {
  const said = contradiction(tool._meta.method, tool.title);
  return said === undefined ? {} : { contradiction: said };
}

/** A search result for a tool. */
function hitOf(tool: ToolDefinition): Hit {
  const { readOnlyHint, destructiveHint } = tool.annotations;
  const { operationId } = tool._meta;
  return {
    name: tool.name,
    ...(operationId && operationId !== tool.name ? { operationId } : {}),
    method: tool._meta.method,
    path: tool._meta.path,
    summary: shownSummary(tool),
    ...contradictionOf(tool),
    arguments: synopsis(tool.inputSchema),
    readOnly: readOnlyHint === true,
    destructive: readOnlyHint !== true && destructiveHint !== false,
    ...(tool._meta.deprecated ? { deprecated: true } : {}),
  };
}
