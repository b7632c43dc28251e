import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initConfig } from "../../../generator/cli/index.js";

const GITHUB = createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json");
const SLACK = "test/fixtures/slack/slack.com.json";
const STRIPE = "test/fixtures/stripe/stripe.com.json";
const GOOGLE_ADMIN = "test/fixtures/management/google-admin-directory.json";
const INFLUXDB = "test/fixtures/management/influxdb-oss.json";
const MEMOS = "examples/memos/openapi.yaml";

/** Each operation of a document by operationId: its method, path and whether it is deprecated. */
async function operationsOf(file: string): Promise<Map<string, { method: string; path: string; deprecated: boolean; summary: string }>> {
  const document = JSON.parse(await readFile(file, "utf8")) as {
    paths: Record<string, Record<string, { operationId?: string; deprecated?: boolean; summary?: string }>>;
  };
  const found = new Map<string, { method: string; path: string; deprecated: boolean; summary: string }>();
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(item))
      if (operation.operationId)
        found.set(operation.operationId, { method, path, deprecated: operation.deprecated === true, summary: operation.summary ?? "" });
  return found;
}

describe("init's first selection: the operations of everyday use", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "init-selection-"));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  /** The operationIds init selects (the config's uncommented entries), and the document's operations. */
  const selection = async (file: string, name: string) => {
    const config = join(folder, `${name}.yaml`);
    await initConfig(file, config, true);
    const text = await readFile(config, "utf8");
    const selected = [...text.matchAll(/^ {2}- "?([^"\s]+)"?\s+#/gm)].map((match) => match[1] ?? "");
    return { selected, operations: await operationsOf(file) };
  };

  const expectEveryday = (selected: string[], operations: Awaited<ReturnType<typeof operationsOf>>, management = false) => {
    expect(selected.length).toBeGreaterThan(0);
    for (const id of selected) {
      const operation = operations.get(id);
      expect(operation, id).toBeDefined();
      expect(operation?.deprecated, `${id} is deprecated`).toBe(false);
      expect(operation?.method, `${id} deletes`).not.toBe("delete");
      expect(operation?.summary ?? "", `${id} deletes`).not.toMatch(/^(?:delete|remove|cancel|archive)/i);
      if (!management) expect(operation?.path ?? "", `${id} is for administrators`).not.toMatch(/(?:^|[/.])admin[./]/);
      expect(operation?.path ?? "", `${id} is a probe`).not.toMatch(/\/(?:health|ready|ping|metrics)(?:\/|$)/);
    }
  };

  it("on Slack, posts messages, lists conversations, reads their history and lists users; no admin method", async () => {
    const { selected, operations } = await selection(SLACK, "slack");
    expect(selected).toEqual(expect.arrayContaining(["chat_postMessage", "conversations_list", "conversations_history", "users_list"]));
    expectEveryday(selected, operations);
  }, 60_000);

  it("on Stripe, takes customers, payment intents and refunds", async () => {
    const { selected, operations } = await selection(STRIPE, "stripe");
    expect(selected).toEqual(
      expect.arrayContaining([
        "GetCustomers",
        "PostCustomers",
        "GetPaymentIntents",
        "GetPaymentIntentsIntent",
        "GetRefunds",
        "GetRefundsRefund",
      ]),
    );
    expect(selected.some((id) => id.includes("TestHelpers") || id.includes("Treasury"))).toBe(false);
    expectEveryday(selected, operations);
  }, 60_000);

  it("on a management API whose every path lies under /admin (Google's Admin SDK), takes its core resources, not its tokens", async () => {
    const { selected, operations } = await selection(GOOGLE_ADMIN, "google-admin");
    expect(selected).toEqual(
      expect.arrayContaining([
        "directory.users.list",
        "directory.users.get",
        "directory.users.insert",
        "directory.users.patch",
        "directory.groups.list",
        "directory.groups.get",
        "directory.orgunits.list",
        "directory.orgunits.insert",
      ]),
    );
    expect(selected.filter((id) => /tokens|asps|verificationCodes|channels/.test(id))).toEqual([]);
    expectEveryday(selected, operations, true);
  }, 60_000);

  it("on a server's API (InfluxDB), takes buckets, dashboards and tasks; never its probes (health, ready, ping, metrics) or tokens", async () => {
    const { selected, operations } = await selection(INFLUXDB, "influxdb");
    expect(selected).toEqual(
      expect.arrayContaining(["GetBuckets", "PostBuckets", "GetBucketsID", "PatchBucketsID", "GetTasks", "PostTasks", "GetDashboards"]),
    );
    expect(selected.filter((id) => /Health|Ready|Ping|Metrics|Authorizations|Setup/.test(id))).toEqual([]);
    expectEveryday(selected, operations);
  }, 60_000);

  it("on Memos, takes its memos and attachments, none of its users, identity providers, tokens, webhooks or instance settings", async () => {
    const config = join(folder, "memos.yaml");
    // The next command it suggests names the config it wrote (not the default the generator looks for by itself).
    expect(await initConfig(MEMOS, config, true)).toContain(`then run \`npx oapi-mcp-gen ${MEMOS} --config ${config} --out generated\``);
    const selected = [...(await readFile(config, "utf8")).matchAll(/^ {2}- "?([^"\s]+)"?\s+#/gm)].map((match) => match[1] ?? "");
    expect(selected).toEqual(
      expect.arrayContaining(["MemoService_ListMemos", "MemoService_CreateMemo", "MemoService_GetMemo", "MemoService_UpdateMemo"]),
    );
    expect(selected).toEqual(expect.arrayContaining(["AttachmentService_ListAttachments", "AttachmentService_GetAttachment"]));
    expect(selected.filter((id) => /^(?:UserService|IdentityProviderService|InstanceService|AuthService)_|Token|Webhook/.test(id))).toEqual(
      [],
    );
  }, 60_000);

  it("on GitHub, takes the issues and pull requests of a repository", async () => {
    const { selected, operations } = await selection(GITHUB, "github");
    expect(selected).toEqual(expect.arrayContaining(["issues/list-for-repo", "issues/get", "pulls/list", "pulls/get"]));
    expectEveryday(selected, operations);
  }, 60_000);
});
