import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "../../helpers/cli.js";

/** An API whose every operation names the account in its path and the tenant in a header (as Twilio and Xero do). */
function tenantApi() {
  const account = { name: "AccountSid", in: "path", required: true, schema: { type: "string" } };
  const tenant = { name: "xero-tenant-id", in: "header", required: true, schema: { type: "string" } };
  const operation = (id: string, extra: object[] = []) => ({
    operationId: id,
    parameters: [account, tenant, ...extra],
    responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
  });
  const id = { name: "Sid", in: "path", required: true, schema: { type: "string" } };
  return {
    openapi: "3.0.3",
    info: { title: "Phone", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    paths: {
      "/Accounts/{AccountSid}/Calls": { get: operation("ListCall"), post: operation("CreateCall") },
      "/Accounts/{AccountSid}/Calls/{Sid}": { get: operation("FetchCall", [id]), post: operation("UpdateCall", [id]) },
      "/Accounts/{AccountSid}/Messages": { get: operation("ListMessage"), post: operation("CreateMessage") },
      "/Accounts/{AccountSid}/Messages/{Sid}": { get: operation("FetchMessage", [id]) },
    },
  };
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "oapi-init-parameters-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("init proposes the parameters nearly every operation needs as the server's to supply", () => {
  it("the account and the tenant, from the environment; the tools then take neither, and the README names the variables", async () => {
    const project = join(scratch, "phone");
    await mkdir(project);
    await writeFile(join(project, "openapi.json"), JSON.stringify(tenantApi()));
    const init = runCli(["init", "openapi.json"], project);
    expect(init.status, init.stderr).toBe(0);
    const text = await readFile(join(project, "oapi-mcp.config.yaml"), "utf8");
    expect(text).toContain("nearly every operation needs (an account or tenant id)");
    const config = parse(text) as { parameters: unknown };
    expect(config.parameters).toEqual({ AccountSid: { env: "PHONE_ACCOUNTSID" }, "xero-tenant-id": { env: "PHONE_XERO_TENANT_ID" } });
    const generated = runCli(["openapi.json", "--out", "generated"], project);
    expect(generated.status, generated.stderr).toBe(0);
    const tool = await readFile(join(project, "generated/tools/list_call.ts"), "utf8");
    expect(tool).not.toMatch(/AccountSid: \{/);
    const readme = await readFile(join(project, "generated/README.md"), "utf8");
    expect(readme).toContain("`PHONE_ACCOUNTSID`");
    expect(readme).toContain("`PHONE_XERO_TENANT_ID`");
  });

  it("heads each tag's operations as a tag, so a tag called `hidden` reads as no x-mcp mark", async () => {
    const project = join(scratch, "tagged");
    await mkdir(project);
    const api = tenantApi();
    const calls = api.paths["/Accounts/{AccountSid}/Calls"];
    Object.assign(calls.get, { tags: ["hidden"] });
    await writeFile(join(project, "openapi.json"), JSON.stringify(api));
    expect(runCli(["init", "openapi.json"], project).status).toBe(0);
    const text = await readFile(join(project, "oapi-mcp.config.yaml"), "utf8");
    expect(text).toContain('  # tag "hidden" (1 operation)\n');
    expect(text).toContain("# Or select by rule: `select: { all: true }` for every operation");
    expect(text).toContain("  # no tag (6 operations)\n");
  });

  it("a parameter only some operations need (an item's Sid) stays the model's", async () => {
    const project = join(scratch, "phone-sid");
    await mkdir(project);
    await writeFile(join(project, "openapi.json"), JSON.stringify(tenantApi()));
    expect(runCli(["init", "openapi.json"], project).status).toBe(0);
    const config = parse(await readFile(join(project, "oapi-mcp.config.yaml"), "utf8")) as { parameters: Record<string, unknown> };
    expect(Object.keys(config.parameters)).not.toContain("Sid");
  });
});
