import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type JSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../runtime/base/logger.js";
import type { ToolDefinition } from "../../../runtime/base/tool.js";
import { createMcpServer } from "../../../runtime/protocol/mcp-server.js";
import { FAST_PATH_VERSIONS } from "../../../runtime/protocol/protocol-versions.js";
import { answerFast } from "../../../runtime/protocol/stateless-exchange.js";
import { createToolRuntime, type ToolRuntime } from "../../../runtime/tools/tool-runtime.js";
import { startMemosServer } from "../../helpers/memos-server.js";
import { startUpstream } from "../../helpers/upstream.js";

const tool: ToolDefinition = {
  name: "get_item",
  title: "Get item",
  description: "Reads one item.",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
  outputSchema: { type: "object", properties: { id: { type: "string" } } },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  _meta: { method: "GET", path: "/items/{id}" },
  http: { method: "GET", path: "/items/{id}", parameters: [{ argument: "id", name: "id", in: "path", required: true }], response: "json" },
};

/** A runtime whose fake upstream answers `{ id }`, 500 for the id "broken", and records the Authorization it got. */
function runtimeWithUpstream(): { runtime: ToolRuntime; authorizations: (string | null)[] } {
  const authorizations: (string | null)[] = [];
  const fake: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    authorizations.push(new Headers(init?.headers).get("authorization"));
    const id = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    return id === "broken" ? Response.json({ message: "boom" }, { status: 500 }) : Response.json({ id });
  };
  const runtime = createToolRuntime({
    identity: { name: "items", version: "1" },
    tools: [tool],
    upstream: { baseUrl: new URL("https://api.example/v1"), timeoutMs: 1_000, maxResponseBytes: 1_000_000, fetch: fake },
    log: silentLogger,
    auth: { schemes: {}, passthrough: { authorization: true, headers: [] } },
  });
  return { runtime, authorizations };
}

/** The SDK server's answer to one message, over an in-memory transport, with the caller's Authorization as fallback. */
async function sdkAnswer(runtime: ToolRuntime, message: JSONRPCMessage): Promise<unknown> {
  const server = createMcpServer(runtime, { authorization: "Bearer caller" });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answered = new Promise<unknown>((resolve) => {
    client.onmessage = resolve;
  });
  await server.connect(serverSide);
  await client.start();
  await client.send(message);
  const answer = await answered;
  await server.close();
  return answer;
}

const call = (id: number, params: Record<string, unknown>): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "tools/call", params });

const initialize = (id: number, capabilities: Record<string, unknown>, protocolVersion = "2025-11-25", info = {}): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities, clientInfo: { name: "test", version: "1", ...info } },
});

describe("the stateless fast path", () => {
  const answered: [string, JSONRPCMessage][] = [
    ["a call that succeeds", call(1, { name: "get_item", arguments: { id: "a1" } })],
    ["a call with a progress token", call(2, { name: "get_item", arguments: { id: "a2" }, _meta: { progressToken: 7 } })],
    ["a call with invalid arguments", call(3, { name: "get_item", arguments: { id: 5 } })],
    ["a call without its required argument", call(4, { name: "get_item" })],
    ["a call the upstream fails", call(5, { name: "get_item", arguments: { id: "broken" } })],
    ["a call of an unknown tool", call("six" as unknown as number, { name: "nope", arguments: {} })],
    ["tools/list", { jsonrpc: "2.0", id: 7, method: "tools/list" }],
    ["tools/list with a cursor", { jsonrpc: "2.0", id: 8, method: "tools/list", params: { cursor: "next" } }],
    ["ping", { jsonrpc: "2.0", id: 9, method: "ping" }],
    ["initialize", initialize(10, {})],
    ["initialize at an older version", initialize(11, {}, "2025-06-18")],
    [
      "initialize with the SDK client's capabilities and a titled client",
      initialize(12, { roots: { listChanged: true }, sampling: {}, elicitation: {} }, "2025-11-25", { title: "Client" }),
    ],
  ];
  it.each(answered)("answers %s exactly as the SDK server does", async (_, message) => {
    const { runtime, authorizations } = runtimeWithUpstream();
    const fast = answerFast(runtime, message, { authorization: "Bearer caller" });
    expect(fast).toBeDefined();
    const sdk = await sdkAnswer(runtime, message);
    expect(JSON.parse(await (fast ?? Promise.resolve("null")))).toEqual(sdk);
    for (const authorization of authorizations) expect(authorization).toBe("Bearer caller");
  });

  const delegated: [string, unknown][] = [
    [
      "initialize without clientInfo",
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } },
    ],
    ["initialize at a version the fast path does not know", initialize(1, {}, "2099-01-01")],
    ["initialize with an unknown capability", initialize(1, { telepathy: {} })],
    ["initialize with roots.listChanged not a boolean", initialize(1, { roots: { listChanged: "yes" } })],
    ["initialize with client icons", initialize(1, {}, "2025-11-25", { icons: [] })],
    ["a notification (answered 202 before this)", { jsonrpc: "2.0", method: "notifications/initialized" }],
    ["a batch", [call(1, { name: "get_item", arguments: { id: "a1" } })]],
    ["an unknown method", { jsonrpc: "2.0", id: 1, method: "resources/list" }],
    ["a message with an extra member", { ...call(1, { name: "get_item" }), extra: true }],
    ["a fractional id", { ...call(1, { name: "get_item" }), id: 1.5 }],
    ["a null id", { ...call(1, { name: "get_item" }), id: null }],
    ["arguments that are an array", call(1, { name: "get_item", arguments: ["a1"] })],
    ["a tool name that is not a string", call(1, { name: 42 })],
    ["a task-augmented call", call(1, { name: "get_item", arguments: { id: "a1" }, task: { ttl: 1000 } })],
    ["a progress token that is an object", call(1, { name: "get_item", _meta: { progressToken: {} } })],
    ["a cursor that is a number", { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: 3 } }],
    ["an own __proto__ member", JSON.parse('{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{}}')],
    ["a JSON-RPC 1.0 message", { jsonrpc: "1.0", id: 1, method: "ping" }],
  ];
  it.each(delegated)("leaves %s to the SDK", (_, message) => {
    const { runtime, authorizations } = runtimeWithUpstream();
    expect(answerFast(runtime, message, {})).toBeUndefined();
    expect(authorizations).toEqual([]);
  });
});

describe("the protocol versions the fast path answers", () => {
  it("are all versions the installed SDK supports", () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(expect.arrayContaining([...FAST_PATH_VERSIONS]));
  });
});

describe("notifications on the stateless endpoint", () => {
  it("are accepted with 202 and no body, as the SDK transport accepts them", async () => {
    const upstream = await startUpstream();
    const server = await startMemosServer(upstream.url);
    try {
      for (const body of [
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "gone" } },
      ]) {
        const response = await fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(202);
        expect(await response.text()).toBe("");
      }
    } finally {
      await server.close();
      await upstream.close();
    }
  });
});
