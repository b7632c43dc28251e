// Confirmation before a destructive call (config `confirm`), with the SDK clients as they are: elicitation while the
// call waits (2025-11-25, a session), input_required and the retry (2026-07-28), and the refusal where neither works.
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools as memosTools, serverIdentity } from "../../../generated/index.js";
import type { ToolDefinition } from "../../../runtime/base/tool.js";
import type { CodeSettings } from "../../../runtime/code/code-settings.js";
import type { RunningServer } from "../../../runtime/http/http-server.js";
import { startServer } from "../../../runtime/serve/serve.js";
import { confirmationQuestion, confirmCall } from "../../../runtime/tools/confirmation.js";
import { requestStateSealer } from "../../../runtime/tools/request-state.js";
import { testEnvironment } from "../../helpers/memos-server.js";
import { modernToolCall } from "../../helpers/search-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

const DELETE = "memo_delete_memo";
/** The Memos tools, with deleting a memo confirmed by the user. */
const tools: ToolDefinition[] = memosTools.map((tool) => (tool.name === DELETE ? { ...tool, confirm: true } : tool));
const ARGS = { memo: "abc" };

/** The text of a tool result. */
const textOf = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? []).map((part) => part.text).join("\n");

describe("confirmation before a call the config marks confirm", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const servers: RunningServer[] = [];
  /** Upstream calls that deleted something. */
  const deletes = () => upstream.requests.filter((request) => request.method === "DELETE");

  /** What the servers logged: the message and its fields. */
  const logged: [message: string, fields: Record<string, unknown>][] = [];
  const log = {
    info: (message: string, fields: Record<string, unknown> = {}) => logged.push([message, fields]),
    warn: (message: string, fields: Record<string, unknown> = {}) => logged.push([message, fields]),
    error: (message: string, fields: Record<string, unknown> = {}) => logged.push([message, fields]),
  };

  async function serve(overrides: Parameters<typeof testEnvironment>[1] = {}, code?: CodeSettings): Promise<URL> {
    const server = await startServer({
      identity: serverIdentity,
      tools,
      log,
      ...(code ? { code } : {}),
      environment: testEnvironment(upstream.url, overrides),
    });
    servers.push(server);
    return new URL(`${server.url}`);
  }

  beforeAll(async () => {
    upstream = await startUpstream((_, res) => sendJson(res, 200, {}));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await upstream.close();
  });

  it("2025-11-25 in a session: the user is shown the call, and a yes sends it once; a no sends nothing", async () => {
    const url = await serve({ sessions: { maxSessions: 10, idleMs: 60_000, maxPerClient: 10 } });
    for (const answer of ["accept", "decline"] as const) {
      const asked: string[] = [];
      const client = new Client({ name: "confirming", version: "1" }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params.message);
        return answer === "accept" ? { action: "accept", content: { confirm: true } } : { action: "decline" };
      });
      await client.connect(new StreamableHTTPClientTransport(url));
      const before = deletes().length;
      const result = await client.callTool({ name: DELETE, arguments: ARGS });
      await client.close();
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain(`Confirm ${DELETE}`);
      expect(asked[0]).toContain('"memo": "abc"');
      if (answer === "accept") {
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(deletes().length - before).toBe(1);
        expect(deletes().at(-1)?.path).toBe("/api/v1/memos/abc");
      } else {
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe(`The user declined ${DELETE}; nothing was sent to the API.`);
        expect(deletes().length).toBe(before);
      }
    }
  });

  it("a user who ticks no is a no; tools without confirm are never asked about", async () => {
    const url = await serve({ sessions: { maxSessions: 10, idleMs: 60_000, maxPerClient: 10 } });
    let asked = 0;
    const client = new Client({ name: "confirming", version: "1" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked += 1;
      return { action: "accept", content: { confirm: false } };
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    const before = deletes().length;
    const refused = await client.callTool({ name: DELETE, arguments: ARGS });
    const listed = await client.callTool({ name: "memo_list_memos", arguments: {} });
    await client.close();
    expect(textOf(refused)).toBe(`The user declined ${DELETE}; nothing was sent to the API.`);
    expect(listed.isError).toBeFalsy();
    expect(asked).toBe(1);
    expect(deletes().length).toBe(before);
  });

  it("a client that cannot be asked (no elicitation, or stateless HTTP) is refused, unless the operator allows it", async () => {
    const stateless = await serve();
    const before = deletes().length;
    // Declaring elicitation does not help where the exchange carries no request back (stateless JSON responses).
    for (const capabilities of [{}, { elicitation: {} }]) {
      const client = new Client({ name: "plain", version: "1" }, { capabilities });
      if ("elicitation" in capabilities)
        client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { confirm: true } }));
      await client.connect(new StreamableHTTPClientTransport(stateless));
      const result = await client.callTool({ name: DELETE, arguments: ARGS });
      await client.close();
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        new RegExp(
          `^${DELETE} asks the user to confirm each call, and this client cannot be asked: .*nothing was sent to the API\\..*MCP_CONFIRM=best-effort`,
        ),
      );
    }
    expect(deletes().length).toBe(before);
    const allowed = await serve({ confirmBestEffort: true });
    const client = new Client({ name: "plain", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(allowed));
    const result = await client.callTool({ name: DELETE, arguments: ARGS });
    await client.close();
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(deletes().length).toBe(before + 1);
    // Allowed, it is still marked: at start, and on the call's own line.
    expect(logged.some(([message, fields]) => message.includes("MCP_CONFIRM=best-effort") && String(fields.tools) === DELETE)).toBe(true);
    const calls = logged.filter(([message, fields]) => message === "tool call" && fields.tool === DELETE);
    expect(calls.at(-1)?.[1]).toMatchObject({ outcome: "ok", confirmation: "skipped" });
  });

  it("code mode: a program's call asks the user while the program waits, and is refused where the client cannot be asked", async () => {
    const code: CodeSettings = { allowWrites: [DELETE], timeoutMs: 10_000 };
    const program = `return await api.${DELETE}({ memo: "abc" });`;
    const session = await serve({ sessions: { maxSessions: 10, idleMs: 60_000, maxPerClient: 10 } }, code);
    let asked = 0;
    const client = new Client({ name: "confirming", version: "1" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked += 1;
      return { action: "accept", content: { confirm: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(session));
    const before = deletes().length;
    const ran = await client.callTool({ name: "run_code", arguments: { code: program } });
    await client.close();
    expect(ran.isError, textOf(ran)).toBeFalsy();
    expect(asked).toBe(1);
    expect(deletes().length).toBe(before + 1);
    const stateless = await serve({}, code);
    const plain = new Client({ name: "plain", version: "1" });
    await plain.connect(new StreamableHTTPClientTransport(stateless));
    const refused = await plain.callTool({ name: "run_code", arguments: { code: program } });
    await plain.close();
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`api.${DELETE} asks the user to confirm each call, and a program can ask only`);
    expect(deletes().length).toBe(before + 1);
  });

  it("2026-07-28: the server answers input_required and acts on the retry; the SDK 2.x client asks its user in between", async () => {
    const url = await serve();
    for (const answer of ["accept", "decline"] as const) {
      const asked: unknown[] = [];
      const client = new ClientV2(
        { name: "modern", version: "1" },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      client.setRequestHandler("elicitation/create", (request) => {
        asked.push(request.params);
        return answer === "accept" ? { action: "accept", content: { confirm: true } } : { action: "decline" };
      });
      await client.connect(new StreamableHTTPClientTransportV2(url));
      const before = deletes().length;
      const result = await client.callTool({ name: DELETE, arguments: ARGS });
      await client.close();
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ mode: "form", requestedSchema: { required: ["confirm"] } });
      if (answer === "accept") {
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(deletes().length - before).toBe(1);
      } else {
        expect(textOf(result)).toBe(`The user declined ${DELETE}; nothing was sent to the API.`);
        expect(deletes().length).toBe(before);
      }
    }
  });

  it("2026-07-28, a hostile caller: a forged, altered, foreign or replayed requestState only asks again, and sends nothing", async () => {
    const url = await serve();
    const meta = (elicitation: boolean) => ({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": elicitation ? { elicitation: {} } : {},
    });
    let id = 0;
    const call = async (args: Record<string, unknown>, extra: Record<string, unknown> = {}, elicitation = true) => {
      const params = { name: DELETE, arguments: args, _meta: meta(elicitation), ...extra };
      const text = await modernToolCall(url, DELETE, JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params }));
      return JSON.parse(text) as { result: Record<string, unknown> };
    };
    const yes = { inputResponses: { confirm: { action: "accept", content: { confirm: true } } } };
    const before = deletes().length;
    const first = await call(ARGS);
    expect(first.result.resultType).toBe("input_required");
    expect(first.result).not.toHaveProperty("content");
    const state = first.result.requestState as string;
    expect(typeof state).toBe("string");
    // No state, a forged one, one altered by a character, one issued for other arguments: asked again each time.
    const other = (await call({ memo: "other" })).result.requestState as string;
    const altered = `${state.slice(0, 10)}${state[10] === "A" ? "B" : "A"}${state.slice(11)}`;
    for (const requestState of [undefined, "e30.AAAA", altered, other]) {
      const retry = await call(ARGS, { ...yes, ...(requestState !== undefined ? { requestState } : {}) });
      expect(retry.result.resultType, String(requestState)).toBe("input_required");
    }
    expect(deletes().length).toBe(before);
    // The real answer to the real question runs once; the same retry again is a replay, asked anew.
    const done = await call(ARGS, { ...yes, requestState: state });
    expect(done.result.resultType).toBe("complete");
    expect(done.result.isError).toBeFalsy();
    const replay = await call(ARGS, { ...yes, requestState: state });
    expect(replay.result.resultType).toBe("input_required");
    expect(deletes().length).toBe(before + 1);
    // A 2026 client that declared no elicitation is refused, not asked.
    const plain = await call(ARGS, {}, false);
    expect(plain.result.resultType).toBe("complete");
    expect(plain.result.isError).toBe(true);
    expect(deletes().length).toBe(before + 1);
  });
});

describe("what the user is shown and how answers are sealed", () => {
  const tool = tools.find((entry) => entry.name === DELETE) as ToolDefinition;

  it("names the operation and its arguments, with marks that hide or reorder text escaped, and long arguments cut", () => {
    const question = confirmationQuestion(tool, { memo: "abc\u202Egpj.exe", note: "x".repeat(5_000) });
    expect(question.message).toMatch(
      /^Confirm memo_delete_memo \(Delete memo\): DELETE \/api\/v1\/memos\/\{memo\} with these arguments:\n/,
    );
    expect(question.message).toContain("abc\\u202egpj.exe");
    expect(question.message).not.toContain("\u202E");
    expect(question.message).toMatch(/… \(\d+ more characters\)$/);
    expect(question.message.length).toBeLessThan(2_300);
  });

  it("a program's call asks only a client it can ask while it runs; elsewhere it is refused with where to call it", async () => {
    const runtime = { confirmBestEffort: false } as Parameters<typeof confirmCall>[0];
    const refused = await confirmCall(runtime, tool, ARGS, { inProgram: true, rounds: { canElicit: true } });
    expect(refused.go).toBe(false);
    if (!refused.go)
      expect(textOf(refused.result)).toMatch(/^api\.memo_delete_memo asks the user to confirm each call, and a program can ask only/);
    const asked = await confirmCall(runtime, tool, ARGS, { inProgram: true, askUser: async () => ({ action: "accept", confirmed: true }) });
    expect(asked.go).toBe(true);
  });

  it("a sealed state opens only with its key, before it expires, and is answered once", () => {
    const sealer = requestStateSealer("k".repeat(32));
    const state = sealer.seal({ call: "t:1", principal: "anonymous", expires: Date.now() + 1_000 });
    const claims = sealer.open(state);
    expect(claims).toMatchObject({ call: "t:1", principal: "anonymous" });
    expect(requestStateSealer(`${"k".repeat(31)}j`).open(state)).toBeUndefined();
    expect(sealer.open(state, Date.now() + 2_000)).toBeUndefined();
    if (!claims) throw new Error("unopened");
    expect(sealer.consume(claims)).toBe(true);
    expect(sealer.consume(claims)).toBe(false);
  });
});
