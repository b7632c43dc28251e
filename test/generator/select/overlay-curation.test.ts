// Curation without forking the document: an OpenAPI Overlay and the document's x-mcp marks, against the config that
// says the same, on Stripe's whole document (452 operations).
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "../../helpers/cli.js";

const STRIPE = join(ROOT, "test/fixtures/stripe/stripe.com.json");
const FIXTURE = join(ROOT, "test/fixtures/stripe-overlay");
/** What a generated server's tools are: every file but the README, the types (the document's own words) and the deploy kit. */
const TOOL_FILES = ["index.ts", "schemas.ts", "server-settings.ts", "client.ts", "server.ts"];

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "oapi-overlay-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** The tool modules of a generated folder, by file name. */
async function toolModules(folder: string): Promise<Record<string, string>> {
  const files = [...(await readdir(join(folder, "tools"))).map((file) => `tools/${file}`), ...TOOL_FILES];
  return Object.fromEntries(await Promise.all(files.map(async (file) => [file, await readFile(join(folder, file), "utf8")] as const)));
}

describe("an overlay curates a Stripe-sized document", () => {
  it("generates the same tools as the equivalent config (renames, hidden operations, descriptions, scopes, confirm), and the golden tree is current", async () => {
    const check = runCli([STRIPE, "--config", join(FIXTURE, "oapi-mcp.config.yaml"), "--out", join(FIXTURE, "generated"), "--check"]);
    expect(check.status, check.stderr).toBe(0);
    const out = join(scratch, "equivalent");
    const equivalent = runCli([STRIPE, "--config", join(FIXTURE, "equivalent.config.yaml"), "--out", out]);
    expect(equivalent.status, equivalent.stderr).toBe(0);
    const curated = await toolModules(join(FIXTURE, "generated"));
    expect(Object.keys(curated).filter((file) => file.startsWith("tools/"))).toEqual([
      "tools/customer_balance_history.ts",
      "tools/customer_create.ts",
      "tools/customer_get.ts",
      "tools/customer_update.ts",
      "tools/customers_list.ts",
    ]);
    expect(await toolModules(out)).toEqual(curated);
    expect(curated["tools/customer_update.ts"]).toMatch(/\n {2}confirm: true,\n/);
    expect(curated["tools/customer_create.ts"]).toMatch(/\n {2}scopes: \["customers:write"\],\n/);
    // Each run says what it read: the overlay's name, and that the configs agree on what reaches tools/list.
    expect(equivalent.stdout.match(/about \d+ tokens/)?.[0]).toBe(check.stdout.match(/about \d+ tokens/)?.[0] ?? "about 8514 tokens");
  });

  it("reports an action that targets nothing, and the README names the overlays and the x-mcp marks", async () => {
    const out = join(scratch, "again");
    const run = runCli([STRIPE, "--config", join(FIXTURE, "oapi-mcp.config.yaml"), "--out", out]);
    expect(run.stderr).toMatch(
      /^warning: overlay \S*overlay\.yaml: action 8 \(an operation this document does not have\) targeting \$\.paths\['\/v1\/customer_accounts'\]\.get matches nothing in the document$/m,
    );
    const readme = await readFile(join(out, "README.md"), "utf8");
    expect(readme).toContain("The document is curated by OpenAPI Overlays, applied in order before anything reads it: `overlay.yaml`");
    expect(readme).toContain("beneath the config's own overrides: `GetCustomers`, `PostCustomers`");
  });

  it("--overlay on the command line: applied after the config's, named in the CI workflow and the README's check, and an input of --check", async () => {
    const project = join(scratch, "project");
    await cp(FIXTURE, project, { recursive: true, filter: (source) => !source.includes("/generated") });
    await writeFile(
      join(project, "more.yaml"),
      "overlay: 1.0.0\ninfo: { title: more, version: '1' }\nactions:\n  - target: $.paths['/v1/customers/{customer}'].get\n    update: { x-mcp: { name: customer_read } }\n",
    );
    const args = [STRIPE, "--config", "oapi-mcp.config.yaml", "--overlay", "more.yaml", "--out", "generated"];
    expect(runCli(args, project).status).toBe(0);
    const tools = await toolModules(join(project, "generated"));
    expect(Object.keys(tools)).toContain("tools/customer_read.ts");
    expect(await readFile(join(project, "generated/deploy/oapi-mcp-check.yml"), "utf8")).toContain("--overlay more.yaml");
    expect(await readFile(join(project, "generated/README.md"), "utf8")).toContain("--overlay more.yaml --out generated --check");
    expect(runCli([...args, "--check"], project).status).toBe(0);
    // The overlay is an input: changing it makes the committed tree stale, and --check says which files.
    await writeFile(
      join(project, "more.yaml"),
      (await readFile(join(project, "more.yaml"), "utf8")).replace("customer_read", "customer_fetch"),
    );
    const stale = runCli([...args, "--check"], project);
    expect(stale.status).toBe(1);
    expect(stale.stdout + stale.stderr).toContain("customer_fetch");
  });

  it("refuses what is not an overlay in one line, and a mark of the wrong kind is a warning, never code", async () => {
    const bad = join(scratch, "bad.yaml");
    await writeFile(bad, "overlay: 2.0.0\nactions: []\n");
    const refused = runCli([STRIPE, "--overlay", bad, "--out", join(scratch, "never")]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `error: ${bad}: not an OpenAPI Overlay: "overlay" must name the Overlay version (1.0.0 or 1.1.0), not "2.0.0"; "info" must have a title and a version; "actions" must be a list of at least one action`,
    );
    const marks = join(scratch, "marks.yaml");
    await writeFile(
      marks,
      [
        "overlay: 1.0.0",
        "info: { title: marks, version: '1' }",
        "actions:",
        "  - target: $.paths['/v1/customers'].get",
        '    update: { x-mcp: { name: "List\\"); process.exit(1); //", hidden: "yes", colour: blue } }',
        "",
      ].join("\n"),
    );
    const config = join(scratch, "marks.config.yaml");
    await writeFile(config, "server: { name: marks }\noperations: [GetCustomers]\n");
    const out = join(scratch, "marks");
    const run = runCli([STRIPE, "--config", config, "--overlay", marks, "--out", out]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain("GetCustomers: x-mcp.name: a tool name is 1 to 64 of a-z, 0-9 and _; ignored");
    expect(run.stderr).toContain("GetCustomers: x-mcp.hidden: must be true or false; ignored");
    expect(run.stderr).toContain("GetCustomers: x-mcp.colour: is not a mark this generator reads");
    expect(await readdir(join(out, "tools"))).toEqual(["get_customers.ts"]);
  });

  it("init --overlay lists what the document hides without selecting it, names tools as x-mcp does, and writes the overlay into the config", async () => {
    const project = join(scratch, "init");
    await cp(FIXTURE, project, { recursive: true, filter: (source) => !source.includes("/generated") });
    const init = runCli(["init", STRIPE, "--overlay", "overlay.yaml", "--config", "fresh.yaml"], project);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/^wrote fresh\.yaml: 452 operations listed/);
    expect(init.stdout).toContain(
      "; 2 hidden by x-mcp (DeleteCustomersCustomer, PostCustomersCustomerBalanceTransactions), listed but not selected;",
    );
    expect(init.stderr).toContain("action 8 (an operation this document does not have)");
    const config = await readFile(join(project, "fresh.yaml"), "utf8");
    expect(config).toContain('overlays:\n  - "overlay.yaml"\n');
    expect(config).toMatch(
      /# - DeleteCustomersCustomer {2}# delete_customers_customer, DELETE \/v1\/customers\/\{customer\}, .*\(hidden by the document's x-mcp\)/,
    );
    expect(config).toMatch(/- GetCustomers {2}# customers_list, GET \/v1\/customers,/);
    // Generating from the config init wrote applies the overlay again.
    const generated = runCli([STRIPE, "--config", "fresh.yaml", "--out", "out"], project);
    expect(generated.status, generated.stderr).toBe(0);
    expect(generated.stderr).toContain("action 8");
  });
});
