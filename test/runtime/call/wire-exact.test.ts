import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callerFromHeaders, createLogger, type RunningServer, serverUsage, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GeneratorConfig } from "../../../generator/config/index.js";
import { generateFromFile } from "../../../generator/generate.js";
import { toolDefinition } from "../../../templates/tool-module.js";
import { connectClient, testEnvironment } from "../../helpers/memos-server.js";
import { callTool, fileRoots, startSearch } from "../../helpers/search-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

const FIXTURES = new URL("../../fixtures/", import.meta.url).pathname;

/** Generates a document's tools in-process and serves them over HTTP against a recording upstream. */
async function serveGenerated(spec: string, config: GeneratorConfig, env: NodeJS.ProcessEnv = {}) {
  const generated = await generateFromFile(spec, config);
  const upstream = await startUpstream((_, res) => sendJson(res, 200, {}));
  const logged: Record<string, unknown>[] = [];
  const server: RunningServer = await startServer({
    identity: { name: "wire", version: "1" },
    tools: generated.tools.map((tool) => toolDefinition(tool) as ToolDefinition),
    env,
    log: createLogger("info", "json", { write: (line: string) => logged.push(JSON.parse(line)) }),
    environment: testEnvironment(upstream.url),
  });
  const client = await connectClient(server.url);
  return {
    generated,
    upstream,
    client,
    logged,
    close: async () => {
      await client.close();
      await server.close();
      await upstream.close();
    },
  };
}

describe("Stripe's form bodies, as its encoding objects declare them (deepObject, arrays indexed)", () => {
  let served: Awaited<ReturnType<typeof serveGenerated>>;
  beforeAll(async () => {
    served = await serveGenerated(`${FIXTURES}stripe/openapi.json`, {
      server: { name: "stripe" },
      operations: ["PostCheckoutSessions", "PostSubscriptions", "PostPaymentMethods"],
    });
  }, 60_000);
  afterAll(() => served.close());

  it.each<[string, Record<string, unknown>, string, [string, string][]]>([
    [
      "post_checkout_sessions",
      {
        success_url: "https://example.com/ok?s={CHECKOUT_SESSION_ID}",
        mode: "payment",
        line_items: [{ price: "price_1", quantity: 2 }],
        payment_method_types: ["card", "link"],
        metadata: { order: "42" },
        expand: ["payment_intent"],
      },
      "success_url=https%3A%2F%2Fexample.com%2Fok%3Fs%3D%7BCHECKOUT_SESSION_ID%7D&mode=payment" +
        "&line_items%5B0%5D%5Bprice%5D=price_1&line_items%5B0%5D%5Bquantity%5D=2" +
        "&payment_method_types%5B0%5D=card&payment_method_types%5B1%5D=link&metadata%5Border%5D=42&expand%5B0%5D=payment_intent",
      [
        ["success_url", "https://example.com/ok?s={CHECKOUT_SESSION_ID}"],
        ["mode", "payment"],
        ["line_items[0][price]", "price_1"],
        ["line_items[0][quantity]", "2"],
        ["payment_method_types[0]", "card"],
        ["payment_method_types[1]", "link"],
        ["metadata[order]", "42"],
        ["expand[0]", "payment_intent"],
      ],
    ],
    [
      "post_subscriptions",
      {
        customer: "cus_1",
        items: [{ price: "price_1", quantity: 1 }, { price: "price_2" }],
        default_tax_rates: ["txr_1"],
        trial_end: "now",
        payment_settings: { payment_method_types: ["card"], save_default_payment_method: "on_subscription" },
        metadata: { plan: "pro" },
      },
      "customer=cus_1&items%5B0%5D%5Bprice%5D=price_1&items%5B0%5D%5Bquantity%5D=1&items%5B1%5D%5Bprice%5D=price_2" +
        "&default_tax_rates%5B0%5D=txr_1&trial_end=now&payment_settings%5Bpayment_method_types%5D%5B0%5D=card" +
        "&payment_settings%5Bsave_default_payment_method%5D=on_subscription&metadata%5Bplan%5D=pro",
      [
        ["customer", "cus_1"],
        ["items[0][price]", "price_1"],
        ["items[0][quantity]", "1"],
        ["items[1][price]", "price_2"],
        ["default_tax_rates[0]", "txr_1"],
        ["trial_end", "now"],
        ["payment_settings[payment_method_types][0]", "card"],
        ["payment_settings[save_default_payment_method]", "on_subscription"],
        ["metadata[plan]", "pro"],
      ],
    ],
    [
      "post_payment_methods",
      {
        type: "card",
        card: { number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" },
        billing_details: { name: "Jenny Rosen", address: { city: "Berlin", country: "DE" } },
      },
      "type=card&card%5Bnumber%5D=4242424242424242&card%5Bexp_month%5D=12&card%5Bexp_year%5D=2030&card%5Bcvc%5D=123" +
        "&billing_details%5Bname%5D=Jenny%20Rosen&billing_details%5Baddress%5D%5Bcity%5D=Berlin&billing_details%5Baddress%5D%5Bcountry%5D=DE",
      [
        ["type", "card"],
        ["card[number]", "4242424242424242"],
        ["card[exp_month]", "12"],
        ["card[exp_year]", "2030"],
        ["card[cvc]", "123"],
        ["billing_details[name]", "Jenny Rosen"],
        ["billing_details[address][city]", "Berlin"],
        ["billing_details[address][country]", "DE"],
      ],
    ],
  ])("%s sends exactly the bytes Stripe reads", async (name, body, bytes, pairs) => {
    const result = await callTool(served.client, name, { body });
    expect(result.isError, result.text).toBe(false);
    const received = served.upstream.requests.at(-1);
    expect(received?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(received?.body).toBe(bytes);
    // What a form parser (Stripe's, Rack's) reads back.
    expect([...new URLSearchParams(received?.body)]).toEqual(pairs);
  });
});

describe("Slack's token parameter, supplied by the server from its environment", () => {
  let served: Awaited<ReturnType<typeof serveGenerated>>;
  beforeAll(async () => {
    served = await serveGenerated(
      `${FIXTURES}slack/openapi.json`,
      {
        server: { name: "slack" },
        select: { all: true },
        parameters: { token: { env: "SLACK_TOKEN" } },
        overrides: { conversations_list: { parameters: { cursor: { hide: true } } } },
      },
      { SLACK_TOKEN: "xoxb-server-token" },
    );
  }, 60_000);
  afterAll(() => served.close());

  it("is in no tool's input schema, type or README row, and is listed as an environment variable", async () => {
    const { tools } = await served.client.listTools();
    // chat_postMessage's listing is cut to fit, so describe_operation is listed beside the six.
    expect(tools.map((tool) => tool.name)).toContain("describe_operation");
    expect(tools).toHaveLength(7);
    for (const tool of tools) expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain("token");
    // Nor in a form body that declares it (admin.emoji.add), which then refuses it.
    const emoji = tools.find((tool) => tool.name === "admin_emoji_add")?.inputSchema.properties?.body as Record<string, unknown>;
    expect(Object.keys(emoji.properties as object)).toEqual(["name", "url"]);
    expect(emoji).toMatchObject({ required: ["name", "url"], additionalProperties: false });
    expect(Object.keys(tools.find((tool) => tool.name === "conversations_list")?.inputSchema.properties ?? {})).not.toContain("cursor");
    const files = served.generated.files;
    expect(files.get("tools/auth_test.ts")).toContain("export type AuthTestArgs = Record<string, never>;");
    expect(files.get("README.md")).toContain("| `SLACK_TOKEN` | body `token`, header `token`, query `token` | 6 tools |");
    expect(files.get("README.md")).toContain('"SLACK_TOKEN": "<token>"');
    const help = serverUsage(
      { name: "slack", version: "1" },
      {},
      undefined,
      served.generated.tools.map((tool) => toolDefinition(tool) as ToolDefinition),
    );
    expect(help).toContain('  SLACK_TOKEN             the body property "token", header parameter "token", query parameter "token"');
  });

  it("sends the server's token in the header or query the document declares; a caller's token is refused", async () => {
    expect((await callTool(served.client, "auth_test", {})).isError).toBe(false);
    expect(served.upstream.requests.at(-1)?.headers.token).toBe("xoxb-server-token");
    await callTool(served.client, "users_lookup_by_email", { email: "grace@example.com" });
    expect(served.upstream.requests.at(-1)?.search).toBe("?token=xoxb-server-token&email=grace%40example.com");
    await callTool(served.client, "admin_emoji_add", { body: { name: "party", url: "https://e.example/p.png" } });
    expect(served.upstream.requests.at(-1)?.body).toBe("name=party&url=https%3A%2F%2Fe.example%2Fp.png&token=xoxb-server-token");
    const inBody = await callTool(served.client, "admin_emoji_add", { body: { name: "p", url: "u", token: "model-token" } });
    expect(inBody.text).toMatch(/unknown property "token"/);
    const sent = served.upstream.requests.length;
    const smuggled = await callTool(served.client, "auth_test", { token: "caller-token" });
    expect(smuggled.isError).toBe(true);
    expect(smuggled.text).toMatch(/unknown property "token"/);
    expect(served.upstream.requests.length).toBe(sent);
  });

  it("says which variable is missing when the server has none (an empty one counts as unset)", async () => {
    const bare = await serveGenerated(
      `${FIXTURES}slack/openapi.json`,
      { server: { name: "slack" }, select: { all: true }, parameters: { token: { env: "SLACK_TOKEN" } } },
      { SLACK_TOKEN: "" },
    );
    try {
      const failed = await callTool(bare.client, "auth_test", {});
      expect(failed.isError).toBe(true);
      expect(failed.text).toBe(
        'This server cannot call auth_test: the server\'s SLACK_TOKEN is not set (it supplies the header parameter "token").',
      );
      expect(bare.upstream.requests).toHaveLength(0);
      const body = await callTool(bare.client, "admin_emoji_add", { body: { name: "p", url: "u" } });
      expect(body.text).toBe(
        'This server cannot call admin_emoji_add: the server\'s SLACK_TOKEN is not set (it supplies the body property "token").',
      );
      // An optional one is left out instead.
      expect((await callTool(bare.client, "conversations_list", {})).isError).toBe(false);
      expect(bare.upstream.requests.at(-1)?.search).toBe("");
      expect(
        bare.logged.find((line) => line.message === "parameters the server supplies are not set; calls that need them fail until they are"),
      ).toMatchObject({ variables: ["SLACK_TOKEN"] });
    } finally {
      await bare.close();
    }
  });
});

describe("header parameters that frame, route or authenticate a request (red-team repro 08)", () => {
  const dir = { path: "" };
  let served: Awaited<ReturnType<typeof serveGenerated>>;
  beforeAll(async () => {
    dir.path = await mkdtemp(join(tmpdir(), "wire-headers-"));
    await writeFile(
      join(dir.path, "openapi.yaml"),
      [
        "openapi: 3.0.3",
        "info: { title: H, version: '1' }",
        "paths:",
        "  /a:",
        "    get:",
        "      operationId: get_a",
        "      parameters:",
        "        - { name: Content-Length, in: header, schema: { type: string } }",
        "        - { name: Host, in: header, schema: { type: string } }",
        "        - { name: Transfer-Encoding, in: header, schema: { type: string } }",
        "        - { name: Proxy-Authorization, in: header, schema: { type: string } }",
        "        - { name: Cookie, in: header, schema: { type: string } }",
        "        - { name: X-Trace, in: header, schema: { type: string } }",
        "      responses: { '200': { description: ok, content: { application/json: { schema: { type: object } } } } }",
      ].join("\n"),
    );
    served = await serveGenerated(join(dir.path, "openapi.yaml"), { server: { name: "h" }, select: { all: true } });
  }, 60_000);
  afterAll(async () => {
    await served.close();
    await rm(dir.path, { recursive: true, force: true });
  });

  it("drops them with one warning naming the operation and keeps the others", async () => {
    const [tool] = served.generated.tools;
    expect(Object.keys((tool?.inputSchema.properties as object) ?? {})).toEqual(["X-Trace"]);
    expect(tool?.warnings.filter((warning) => warning.includes("header parameter(s) left out"))).toEqual([
      'get_a: header parameter(s) left out: "Content-Length" frames or routes the request (HTTP sets it); "Host" frames or routes the request (HTTP sets it); "Transfer-Encoding" frames or routes the request (HTTP sets it); "Proxy-Authorization" frames or routes the request (HTTP sets it); "Cookie" is not a parameter (cookies are `in: cookie` parameters)',
    ]);
  });

  it("refuses them in auth.passthrough.headers too, and the runtime never forwards them from a caller", async () => {
    await expect(
      generateFromFile(join(dir.path, "openapi.yaml"), {
        server: { name: "h" },
        select: { all: true },
        auth: { passthrough: { headers: ["X-Request-Id", "Host", "Content-Length", "Authorization"] } },
      }),
    ).rejects.toThrow(
      [
        'auth.passthrough.headers: "Host" frames or routes the request (HTTP sets it); it cannot be passed through',
        'auth.passthrough.headers: "Content-Length" frames or routes the request (HTTP sets it); it cannot be passed through',
        'auth.passthrough.headers: "Authorization" is ignored as a parameter (OpenAPI); it cannot be passed through (auth.passthrough.authorization forwards it)',
      ].join("\n"),
    );
    const caller = callerFromHeaders({ host: "evil.example", "content-length": "170", "x-request-id": "r1" }, [
      "Host",
      "Content-Length",
      "X-Request-Id",
    ]);
    expect(caller).toEqual({ headers: { "x-request-id": "r1" } });
  });

  it("lets no caller frame another caller's request or route it elsewhere", async () => {
    const refused = await callTool(served.client, "get_a", { "Content-Length": "170", Host: "other-vhost.example" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/unknown property "Content-Length"/);
    const victim = await served.client.callTool({ name: "get_a", arguments: { "X-Trace": "b" } });
    expect(victim.isError).toBeFalsy();
    const [received] = served.upstream.requests;
    expect(served.upstream.requests).toHaveLength(1);
    expect(received).toMatchObject({ method: "GET", path: "/a", body: "" });
    expect(received?.headers.host).toBe(served.upstream.url.host);
    expect(received?.headers["x-trace"]).toBe("b");
  });
});

describe("the search server's call_endpoint and build_request (red-team repro 01)", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: Awaited<ReturnType<typeof startSearch>>;
  let client: Client;
  let dir: string;
  beforeAll(async () => {
    upstream = await startUpstream((_, res) => sendJson(res, 200, {}));
    dir = await mkdtemp(join(tmpdir(), "wire-search-"));
    await writeFile(
      join(dir, "evil.yaml"),
      [
        "openapi: 3.0.3",
        "info: { title: Evil, version: '1' }",
        `servers: [ { url: '${upstream.url.origin}' } ]`,
        "components: { securitySchemes: { bearer: { type: http, scheme: bearer } } }",
        "paths:",
        "  /a:",
        "    post:",
        "      operationId: smuggle",
        "      security: [ { bearer: [] } ]",
        "      parameters:",
        "        - { name: Content-Length, in: header, schema: { type: string } }",
        "        - { name: Connection, in: header, schema: { type: string } }",
        "        - { name: Host, in: header, schema: { type: string } }",
        "        - { name: Cookie, in: header, schema: { type: string } }",
        "        - { name: X-Trace, in: header, schema: { type: string } }",
        "      requestBody: { content: { text/plain: { schema: { type: string } } } }",
        "      responses: { '200': { description: ok } }",
      ].join("\n"),
    );
    const credentials = join(dir, "credentials.json");
    await writeFile(credentials, JSON.stringify({ "127.0.0.1": { Authorization: "Bearer OPERATOR_SECRET" } }));
    server = await startSearch(["--memory", ...fileRoots(dir), "--allow-calls", "127.0.0.1", "--call-credentials", credentials]);
    client = await connectClient(server.url);
    const loaded = await callTool(client, "load_openapi", { name: "evil", url: join(dir, "evil.yaml") });
    expect(loaded.isError, loaded.text).toBe(false);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses framing, routing and cookie headers as parameters, sending nothing", async () => {
    for (const parameters of [
      { "Content-Length": "0", Connection: "keep-alive" },
      { Host: "attacker.example" },
      { Cookie: "session=caller-chosen" },
    ]) {
      const result = await callTool(client, "call_endpoint", {
        name: "evil",
        operation_id: "smuggle",
        parameters,
        body: "DELETE /admin/everything HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      });
      expect(result.isError, result.text).toBe(true);
      expect(result.text).toMatch(/cannot be set: the header (frames or routes the request|is not a parameter)/);
    }
    expect(upstream.requests).toHaveLength(0);
    const built = await callTool(client, "build_request", { name: "evil", operation_id: "smuggle", parameters: { Host: "x" } });
    expect(built.isError).toBe(true);
  });

  it("sends one request, to the allowed host, with the operator's credential and its own framing", async () => {
    const result = await callTool(client, "call_endpoint", {
      name: "evil",
      operation_id: "smuggle",
      parameters: { "X-Trace": "t" },
      body: "DELETE /admin/everything HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    });
    expect(result.isError, result.text).toBe(false);
    expect(upstream.requests).toHaveLength(1);
    const [received] = upstream.requests;
    expect(received).toMatchObject({ method: "POST", path: "/a", body: "DELETE /admin/everything HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" });
    expect(received?.headers).toMatchObject({ host: upstream.url.host, authorization: "Bearer OPERATOR_SECRET", "x-trace": "t" });
    expect(received?.headers["content-length"]).toBe(String(Buffer.byteLength(received?.body ?? "")));
    expect(received?.headers.cookie).toBeUndefined();
  });
});

describe("an API key header name the document spells wrongly", () => {
  it("is reported as the document's problem, not as an unreachable upstream, and nothing is sent", async () => {
    const upstream = await startUpstream((_, res) => sendJson(res, 200, {}));
    const tool: ToolDefinition = {
      name: "get_a",
      title: "A",
      description: "GET /a",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      _meta: { method: "GET", path: "/a" },
      http: { method: "GET", path: "/a", parameters: [], response: "json" },
      security: [{ key: [] }],
    };
    const server = await startServer({
      identity: { name: "k", version: "1" },
      tools: [tool],
      auth: {
        schemes: { key: { type: "apiKey", in: "header", name: "X-Key\r\nX-Injected: 1", env: { apiKey: "K_API_KEY" } } },
        passthrough: { authorization: true, headers: [] },
      },
      env: { K_API_KEY: "secret" },
      log: createLogger("silent", "json"),
      environment: testEnvironment(upstream.url),
    });
    const client = await connectClient(server.url);
    try {
      const result = await callTool(client, "get_a", {});
      expect(result.isError).toBe(true);
      expect(result.text).toBe(
        'Authentication failed: the API key header "X-Key\\r\\nX-Injected: 1" of scheme key is not a valid header name',
      );
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await client.close();
      await server.close();
      await upstream.close();
    }
  });
});
