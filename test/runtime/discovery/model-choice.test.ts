import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CreateMessageRequest, CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type DiscoveryData, readServerEnvironment, silentLogger, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { DiscoveryService, discoveryOf, searchableOperation } from "oapi-mcp-gen-runtime/discovery";
import { OperationSearchIndex } from "oapi-mcp-gen-runtime/operation-index";
import { describe, expect, it } from "vitest";
import { choiceRequest, readChoice } from "../../../runtime/discovery/model-choice.js";
import { callingClient, createMcpServer } from "../../../runtime/protocol/mcp-server.js";
import { createToolRuntime } from "../../../runtime/tools/tool-runtime.js";
import type { AskModel, CallingClient } from "../../../runtime/tools/tool-runtime-contract.js";
import { testEnvironment } from "../../helpers/memos-server.js";

/** A registry tool from its method, path and title (search reads no more of it). */
function tool(name: string, method: string, path: string, title: string, description = title): ToolDefinition {
  return {
    name,
    title,
    description,
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: method === "GET" },
    _meta: { operationId: name, method, path },
    http: { method, path, parameters: [], response: "json" },
  } as unknown as ToolDefinition;
}

// "put the video in the showcase": Vimeo calls showcases albums, which words alone cannot know.
const TOOLS = [
  tool("video_get", "GET", "/videos/{id}", "Get a video"),
  tool("video_edit", "PATCH", "/videos/{id}", "Edit a video"),
  tool("album_add_video", "PUT", "/albums/{album}/videos/{id}", "Add a video to an album", "Add a video to an album (a showcase)."),
  tool("channel_add_video", "PUT", "/channels/{channel}/videos/{id}", "Add a video to a channel"),
  tool("video_delete", "DELETE", "/videos/{id}", "Delete a video"),
];

function discoveryData(tools: readonly ToolDefinition[], tags: string[][] = tools.map(() => ["Videos"])): DiscoveryData {
  const index = new OperationSearchIndex(tools.map((each, id) => searchableOperation(each, id, tags[id] ?? [])));
  return { alwaysList: [], tags, index: index.serialize() };
}

const service = () => new DiscoveryService(TOOLS, discoveryData(TOOLS), "Videos API");

/** search_operations with a calling client: its text, the names found, its note, total and next cursor. */
async function search(args: Record<string, unknown>, client: CallingClient = {}, on = service()) {
  const result = await on.call(undefined as never, "search_operations", args, {} as never, client);
  const content = result?.structuredContent as
    | { results?: { name: string }[]; note?: string; nextCursor?: string; total?: number }
    | undefined;
  const text = (result?.content as { text?: string }[] | undefined)?.[0]?.text ?? "";
  return { isError: result?.isError === true, text, names: content?.results?.map((hit) => hit.name) ?? [], ...content };
}

/** A model that answers every prompt with `answer`, keeping what it was asked. */
function model(answer: string | Error): { askModel: AskModel; asked: CreateMessageRequest["params"][] } {
  const asked: CreateMessageRequest["params"][] = [];
  const askModel: AskModel = async (params) => {
    asked.push(params);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { askModel, asked };
}

const promptOf = (params: CreateMessageRequest["params"] | undefined) => {
  const content = params?.messages[0]?.content;
  return content && "text" in content ? String(content.text) : "";
};

describe("the client's model chooses among the search's best matches (MCP sampling)", () => {
  it("reads the numbers an answer names, in its order, without repeats or strays, at most five", () => {
    expect(readChoice("3, 12, 1", 20)).toEqual([2, 11, 0]);
    expect(readChoice("Operations 4 and 4, then 99 and 2.", 10)).toEqual([3, 1]);
    expect(readChoice("1,2,3,4,5,6,7", 10)).toEqual([0, 1, 2, 3, 4]);
    expect(readChoice("0", 10)).toEqual([]);
    expect(readChoice("0, or maybe 99", 10)).toEqual([]);
    // Only whole numbers of the candidates shown count: a stray sign, a decimal or a number past the list names nothing.
    for (const stray of ["I cannot tell.", "-1", "3.5", "99, 100", ""]) expect(readChoice(stray, 50)).toBeUndefined();
  });

  it("shows the model the request and numbered one-line candidates, with no context of the conversation", () => {
    const linked = tool(
      "create",
      "POST",
      "/users/{id}/meetings",
      "Create a meeting",
      "[Create a meeting](https://x.example/a) **now**.\n\nMore.",
    );
    const params = choiceRequest("Zoom API", 'schedule "standup"', [linked, ...TOOLS]);
    expect(promptOf(params)).toBe(
      [
        "API: Zoom API",
        'Request: "schedule \\"standup\\""',
        "Operations:",
        "1. POST /users/{id}/meetings: Create a meeting now.",
        "2. GET /videos/{id}: Get a video",
        "3. PATCH /videos/{id}: Edit a video",
        "4. PUT /albums/{album}/videos/{id}: Add a video to an album (a showcase).",
        "5. PUT /channels/{channel}/videos/{id}: Add a video to a channel",
        "6. DELETE /videos/{id}: Delete a video",
      ].join("\n"),
    );
    expect(params).toMatchObject({ includeContext: "none", temperature: 0, maxTokens: 40 });
    expect(params.systemPrompt).toContain("at most 5");
    const long = tool("long", "GET", "/long", "Long", `Long. ${"word ".repeat(100)}`);
    expect(
      promptOf(choiceRequest("API", "q", [long]))
        .split("\n")
        .at(-1)?.length,
    ).toBeLessThan(200);
  });

  it("puts the model's picks first and says so; the rest follow in the index's order", async () => {
    const plain = await search({ query: "put the video in the showcase" });
    const { askModel, asked } = model("4, 2");
    const chosen = await search({ query: "put the video in the showcase" }, { askModel });
    expect(asked).toHaveLength(1);
    const shown = promptOf(asked[0]).split("\n").slice(3);
    expect(shown).toHaveLength(plain.names.length);
    const picked = [shown[3], shown[1]].map(
      (line) => TOOLS.find((each) => line?.includes(`${each._meta.method} ${each._meta.path}:`))?.name,
    );
    expect(chosen.names.slice(0, 2)).toEqual(picked);
    expect(new Set(chosen.names)).toEqual(new Set(plain.names));
    expect(chosen.names.slice(2)).toEqual(plain.names.filter((name) => !picked.includes(name)));
    expect(chosen.note).toBe("Your model chose the first 2 results among the 5 best matches; the rest follow in the index's order.");
  });

  it("keeps the model's choice on later pages, without asking again", async () => {
    const { askModel, asked } = model("5");
    const first = await search({ query: "video", limit: 2 }, { askModel });
    expect(first.nextCursor).toMatch(/^2:\d:[0-9a-f]{8}$/);
    const second = await search({ query: "video", limit: 2, cursor: first.nextCursor }, { askModel });
    const third = await search({ query: "video", limit: 2, cursor: second.nextCursor }, { askModel });
    expect(asked).toHaveLength(1);
    const pages = [...first.names, ...second.names, ...third.names];
    expect(new Set(pages).size).toBe(pages.length);
    expect(pages).toHaveLength(5);
    expect(pages[0]).toBe(first.names[0]);
  });

  it("keeps the index's order, with a note, when the model finds none fits, names nothing, or fails", async () => {
    const plain = await search({ query: "change the video" });
    const cases: [string | Error, string][] = [
      ["0", "Your model found none of the 5 best matches does what the query asks"],
      ["no idea", "Your model's answer named none of the 5 best matches"],
      [new Error("Request timed out"), "Your model was asked to choose among the 5 best matches but did not answer (Request timed out)"],
    ];
    for (const [answer, note] of cases) {
      const found = await search({ query: "change the video" }, { askModel: model(answer).askModel });
      expect(found.names).toEqual(plain.names);
      expect(found.note).toContain(note);
      expect(found.isError).toBe(false);
    }
  });

  it("does not ask for a list of every operation, an operation named exactly, one match in a part, or a later page", async () => {
    const { askModel, asked } = model("1");
    await search({ query: "" }, { askModel });
    await search({ query: "video_delete" }, { askModel });
    await search({ query: "channel", tag: "Videos", method: "DELETE" }, { askModel });
    await search({ query: "video", cursor: "2" }, { askModel });
    expect(asked).toHaveLength(0);
  });

  it("when none of the matches fits, lets the model name the parts to look in and choose among their operations", async () => {
    const tags = [["Videos"], ["Videos"], ["Albums"], ["Channels"], ["Videos"]];
    const parts = new DiscoveryService(TOOLS, discoveryData(TOOLS, tags), "Videos API");
    const asked: string[] = [];
    // A model that knows a showcase is an album, which the index cannot find for "showcase" alone.
    const askModel: AskModel = async (params) => {
      const prompt = promptOf(params);
      asked.push(prompt);
      const lines = prompt.split("\n");
      const numberOf = (word: string) => lines.find((line) => line.includes(word))?.split(".")[0] ?? "0";
      if (prompt.includes("\nParts:\n")) return numberOf("Albums");
      return asked.length === 1 ? "0" : numberOf("/albums/");
    };
    const found = await search({ query: "feature it in my showcase" }, { askModel }, parts);
    expect(asked).toHaveLength(3);
    expect(asked[1]).toContain('Request: "feature it in my showcase"\nParts:\n1. ');
    expect(asked[2]).toBe(
      'API: Videos API\nRequest: "feature it in my showcase"\nOperations:\n1. PUT /albums/{album}/videos/{id}: Add a video to an album (a showcase).',
    );
    expect(found.names[0]).toBe("album_add_video");
    expect(found.note).toBe(
      'Your model found the one match does not do what the query asks; it named the part "Albums", and chose the first result among their operations; the rest follow in the index\'s order.',
    );
    // The next page keeps the choice, though the index never matched it.
    // Its choice outside the matches leads, and the next page goes on with the matches.
    const answers = ["0", "2", "1"];
    const outside: AskModel = async () => answers.shift() ?? "0";
    const first = await search({ query: "channel", limit: 1 }, { askModel: outside }, parts);
    const next = await search({ query: "channel", limit: 1, cursor: first.nextCursor }, {}, parts);
    expect([...first.names, ...next.names, first.total]).toEqual(["album_add_video", "channel_add_video", 2]);
  });

  it("when nothing matches, asks the model for the parts at once; with none named, says what to try", async () => {
    const tags = [["Videos"], ["Videos"], ["Albums"], ["Channels"], ["Videos"]];
    const parts = new DiscoveryService(TOOLS, discoveryData(TOOLS, tags), "Videos API");
    for (const [partAnswer, first, note] of [
      ["2", "album_add_video", 'Nothing matched the query\'s words; your model named the part "Albums", and chose the first result'],
      ["0", undefined, "Nothing matched the query's words, and your model named no part that would hold it"],
    ] as const) {
      const asked: string[] = [];
      const askModel: AskModel = async (params) => {
        asked.push(promptOf(params));
        return asked.length === 1 ? partAnswer : "1";
      };
      const found = await search({ query: "qwerty" }, { askModel }, parts);
      expect(asked[0]).toContain("\nParts:\n1. Videos (3 operations)\n2. Albums (1 operation)\n3. Channels (1 operation)");
      expect(found.names[0]).toBe(first);
      expect(found.note).toContain(note);
    }
  });

  it("refuses a cursor it could not have returned", async () => {
    for (const cursor of ["2:1.2.3.4.5.6", "2:", "x", "2:1..2"]) {
      expect((await search({ query: "video", cursor })).isError).toBe(true);
    }
    // A cursor carrying the model's choice serves only the search it came from.
    const first = await search({ query: "video", limit: 2 }, { askModel: model("5").askModel });
    const other = await search({ query: "delete", limit: 2, cursor: first.nextCursor });
    expect(other.isError).toBe(true);
    expect(other.text).toContain("this cursor belongs to another search");
    expect((await search({ query: "video", limit: 2, tag: "Videos", cursor: first.nextCursor })).isError).toBe(true);
    expect((await search({ query: "video", limit: 2, cursor: first.nextCursor })).isError).toBe(false);
    // A cursor naming one operation twice (made by hand: the key is no secret) still lists each operation once.
    const doubled = first.nextCursor?.replace(/^2:(\d+):/, "0:$1.$1:");
    const pages = await search({ query: "video", limit: 50, cursor: doubled });
    expect(new Set(pages.names).size).toBe(pages.names.length);
  });

  it("says which question went unanswered when the model stops answering after saying none fits", async () => {
    const tags = [["Videos"], ["Videos"], ["Albums"], ["Channels"], ["Videos"]];
    const parts = new DiscoveryService(TOOLS, discoveryData(TOOLS, tags), "Videos API");
    let asked = 0;
    const askModel: AskModel = async () => {
      asked++;
      if (asked === 1) return "0";
      throw new Error("Request timed out");
    };
    const found = await search({ query: "change the video" }, { askModel }, parts);
    expect(found.note).toBe(
      "Your model found none of the 5 best matches does what the query asks. Your model was asked which parts of the API would hold it but did not answer (Request timed out); the results are in the index's order.",
    );
  });
});

/** A discovery-mode runtime over the tools, as a generated server builds it. */
function runtimeOver(samplingOff = false) {
  return createToolRuntime({
    identity: { name: "videos", version: "1" },
    tools: TOOLS,
    upstream: { baseUrl: new URL("https://api.example"), timeoutMs: 1_000, maxResponseBytes: 1_000 },
    log: silentLogger,
    discovery: discoveryOf(discoveryData(TOOLS)),
    samplingOff,
  });
}

/** An SDK client that offers sampling (or not) and answers with `answer`, keeping the requests it got. */
function samplingClient(offers: boolean, answer = "4") {
  const client = new Client({ name: "sampling-test", version: "1" }, { capabilities: offers ? { sampling: {} } : {} });
  const asked: CreateMessageRequest["params"][] = [];
  if (offers)
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request.params);
      return { model: "test-model", role: "assistant", content: { type: "text", text: answer } };
    });
  return { client, asked };
}

const firstName = async (client: Client) => {
  const result = await client.callTool({ name: "search_operations", arguments: { query: "put the video in the showcase" } });
  return (result.structuredContent as { results: { name: string }[] }).results[0]?.name;
};

describe("sampling over the SDK's transports", () => {
  it("asks the model of a client that offers sampling, and no other; MCP_SAMPLING=off never asks", async () => {
    const plain = await search({ query: "put the video in the showcase" });
    for (const [offers, off, asks] of [
      [true, false, true],
      [false, false, false],
      [true, true, false],
    ] as const) {
      const server = createMcpServer(runtimeOver(off));
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      // The model names the index's last match, so its choice shows in the first result.
      const { client, asked } = samplingClient(offers, String(plain.names.length));
      await server.connect(serverSide);
      await client.connect(clientSide);
      expect(await firstName(client)).toBe(asks ? plain.names.at(-1) : plain.names[0]);
      expect(asked.length).toBe(asks ? 1 : 0);
      await client.close();
      await server.close();
    }
  });

  it("reads MCP_SAMPLING: on by default, off, or a clear error", () => {
    const base = { API_BASE_URL: "https://api.example" };
    expect(readServerEnvironment(base).samplingOff).toBeUndefined();
    expect(readServerEnvironment({ ...base, MCP_SAMPLING: "on" }).samplingOff).toBeUndefined();
    expect(readServerEnvironment({ ...base, MCP_SAMPLING: " off " }).samplingOff).toBe(true);
    expect(() => readServerEnvironment({ ...base, MCP_SAMPLING: "maybe" })).toThrow('MCP_SAMPLING: "maybe" must be on or off');
  });

  it("reaches the model over Streamable HTTP with sessions, not with MCP_SAMPLING=off, and never when stateless", async () => {
    const sessions = { sessions: { maxSessions: 5, idleMs: 60_000, maxPerClient: 5 } };
    for (const [settings, asks] of [
      [sessions, true],
      [{ ...sessions, samplingOff: true }, false],
      [{}, false],
    ] as const) {
      const server = await startServer({
        identity: { name: "videos", version: "1" },
        tools: TOOLS,
        discovery: discoveryData(TOOLS),
        log: silentLogger,
        environment: testEnvironment(new URL("https://api.example"), settings),
      });
      const { client, asked } = samplingClient(true, "5");
      try {
        await client.connect(new StreamableHTTPClientTransport(server.url));
        const first = await firstName(client);
        expect(asked.length).toBe(asks ? 1 : 0);
        if (asks) expect(promptOf(asked[0])).toContain('Request: "put the video in the showcase"');
        expect(first).toBeDefined();
      } finally {
        await client.close();
        await server.close();
      }
    }
  });

  it("waits for the model within one budget for the whole call, then goes on without it", async () => {
    const server = new Server({ name: "budget", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(CallToolRequestSchema, async (_, extra) => {
      const { askModel } = callingClient(runtimeOver(), server, extra, 300);
      const outcomes: string[] = [];
      for (let question = 0; question < 2; question++) {
        const started = Date.now();
        await askModel?.({ messages: [], maxTokens: 1 }).catch((error: Error) =>
          outcomes.push(`${error.message} after ${Date.now() - started} ms`),
        );
      }
      return { content: [{ type: "text", text: outcomes.join("\n") }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "silent-model", version: "1" }, { capabilities: { sampling: {} } });
    // A model that never answers.
    client.setRequestHandler(CreateMessageRequestSchema, () => new Promise(() => {}));
    await server.connect(serverSide);
    await client.connect(clientSide);
    const result = await client.callTool({ name: "search", arguments: {} });
    const [first, second] = String((result.content as { text: string }[])[0]?.text).split("\n");
    expect(first).toMatch(/timed out/i);
    expect(Number(/after (\d+) ms/.exec(first ?? "")?.[1])).toBeLessThan(2_000);
    expect(second).toMatch(/^the 0.3 s for the model were spent after \d+ ms$/);
    await client.close();
    await server.close();
  });
});
