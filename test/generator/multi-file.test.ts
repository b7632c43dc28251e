import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../generator/base/index.js";
import { generateFromFile } from "../../generator/generate.js";
import { DocumentParseError } from "../../openapi/document/index.js";
import { startUpstream } from "../helpers/upstream.js";

const THING = "type: object\nproperties:\n  id: {type: string}\n  owner: {$ref: './person.yaml'}\n";
const PERSON = "type: object\nproperties:\n  name: {type: string}\n";

/** A document whose one response schema is `ref`. */
function documentWith(ref: string, extra = ""): string {
  return `openapi: 3.0.3
info: {title: multi, version: "1"}
paths:
  /things:
    get:
      operationId: getThing
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "${ref}"}
${extra}`;
}

/** The generation's error, as its message lines. */
async function failure(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    if (error instanceof DocumentParseError || error instanceof UserError) return error.message;
    throw error;
  }
  return "";
}

describe("multi-file documents", () => {
  let scratch: string;
  const config = { server: { name: "multi" }, select: { all: true } };
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "oapi-multi-"));
    await mkdir(join(scratch, "api/schemas"), { recursive: true });
    await writeFile(join(scratch, "api/schemas/thing.yaml"), THING);
    await writeFile(join(scratch, "api/schemas/person.yaml"), PERSON);
    await writeFile(join(scratch, "secret.yaml"), PERSON);
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("bundles files beside the document, references inside them included", async () => {
    await writeFile(join(scratch, "api/ok.yaml"), documentWith("./schemas/thing.yaml"));
    const result = await generateFromFile(join(scratch, "api/ok.yaml"), config);
    const [tool] = result.tools;
    expect(JSON.stringify(tool?.outputSchema)).toContain('"name"');
    expect(result.files.get("api-types.ts")).toContain("owner?:");
  });

  it("names a missing file, a missing pointer and a file outside the folder, one line each", async () => {
    await writeFile(join(scratch, "api/missing.yaml"), documentWith("./schemas/nothing.yaml"));
    expect(await failure(generateFromFile(join(scratch, "api/missing.yaml"), config))).toMatch(
      /cannot follow \$ref: file not found: schemas\/nothing\.yaml$/,
    );
    await writeFile(join(scratch, "api/pointer.yaml"), documentWith("./schemas/person.yaml#/nowhere"));
    expect(await failure(generateFromFile(join(scratch, "api/pointer.yaml"), config))).toMatch(
      /the referenced file has nothing at that pointer$/,
    );
    await writeFile(join(scratch, "api/outside.yaml"), documentWith("../secret.yaml"));
    const outside = await failure(generateFromFile(join(scratch, "api/outside.yaml"), config));
    expect(outside).toMatch(/\.\.\/secret\.yaml is outside the document's folder \(allow it with externalRefs\.outsideFolder: true\)$/);
    const allowed = await generateFromFile(join(scratch, "api/outside.yaml"), { ...config, externalRefs: { outsideFolder: true } });
    expect(allowed.tools).toHaveLength(1);
  });

  it("follows URL references only when the config allows them, through the guarded fetch", async () => {
    const server = await startUpstream((_, res) => {
      res.writeHead(200, { "content-type": "application/yaml" });
      res.end(PERSON);
    });
    try {
      const url = new URL("/person.yaml", server.url).href;
      await writeFile(join(scratch, "api/remote.yaml"), documentWith(url));
      expect(await failure(generateFromFile(join(scratch, "api/remote.yaml"), config))).toContain(
        "references to URLs are off (allow them with externalRefs.urls: true)",
      );
      const guarded = await failure(generateFromFile(join(scratch, "api/remote.yaml"), { ...config, externalRefs: { urls: true } }));
      expect(guarded).toMatch(/127\.0\.0\.1/);
      expect(server.requests).toHaveLength(0);
      const result = await generateFromFile(join(scratch, "api/remote.yaml"), { ...config, externalRefs: { urls: ["127.0.0.1"] } });
      expect(JSON.stringify(result.tools[0]?.outputSchema)).toContain('"name"');
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("leaves out discriminator mappings that name files the document does not carry (DigitalOcean)", async () => {
    const schema = `components:
  schemas:
    Action:
      type: object
      properties: {type: {type: string}}
      oneOf: [{$ref: "#/components/schemas/Attach"}]
      discriminator:
        propertyName: type
        mapping: {attach: "models/attach.yml", detach: "#/nowhere"}
    Attach:
      type: object
      properties: {type: {type: string}}
`;
    await writeFile(join(scratch, "api/mapping.yaml"), documentWith("#/components/schemas/Action", schema));
    const result = await generateFromFile(join(scratch, "api/mapping.yaml"), config);
    expect(result.tools.map((tool) => tool.name)).toEqual(["get_thing"]);
  });
});
