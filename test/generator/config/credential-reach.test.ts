import { describe, expect, it } from "vitest";
import { generateFromDocument } from "../../../generator/generate.js";
import type { OpenApiDocument } from "../../../openapi/document/index.js";

/** A document shaped like Directus's: a query key (`access_token`) the document declares on a few operations only. */
function keyedDocument(declaredOn: number, global = false): OpenApiDocument {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 8; i++) {
    paths[`/items${i}`] = {
      get: {
        operationId: `readItems${i}`,
        ...(i < declaredOn ? { security: [{ KeyAuth: [] }] } : {}),
        responses: { "200": { description: "ok" } },
      },
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: "CMS", version: "1" },
    servers: [{ url: "https://cms.example.com" }],
    paths,
    components: { securitySchemes: { KeyAuth: { type: "apiKey", in: "query", name: "access_token" } } },
    ...(global ? { security: [{ KeyAuth: [] }] } : {}),
  } as OpenApiDocument;
}

const config = { server: { name: "cms" }, select: { all: true }, mode: "tools" } as const;

describe("a server-held credential that reaches few operations", () => {
  it("is named at generation, with auth.apply: all, when the document declares it on under half of them", async () => {
    const { warnings } = await generateFromDocument(keyedDocument(2), config);
    expect(warnings).toContain(
      "auth: the document declares KeyAuth on 2 of 8 selected operations, so its server-held credential (KEY_AUTH_API_KEY) goes only with those; if the API takes it everywhere, set auth.apply: all",
    );
  });

  it("writes the variables of a scheme no selected operation declares, for start-up to name when one is set", async () => {
    const { files } = await generateFromDocument(keyedDocument(0), config);
    expect(files.get("server-settings.ts")).toContain('undeclared: { KeyAuth: ["KEY_AUTH_API_KEY"] }');
  });

  it("is not named when each operation declares its own scheme (most declare one)", async () => {
    const document = keyedDocument(0);
    const schemes = ["KeyAuth", "OtherKey"];
    Object.values(document.paths as Record<string, unknown>).forEach((item, index) => {
      (item as { get: Record<string, unknown> }).get.security = [{ [schemes[index % 2] as string]: [] }];
    });
    (document.components as { securitySchemes: Record<string, unknown> }).securitySchemes.OtherKey = {
      type: "apiKey",
      in: "header",
      name: "X-Other",
    };
    const { warnings } = await generateFromDocument(document, config);
    expect(warnings.filter((warning) => warning.startsWith("auth:"))).toEqual([]);
  });

  it("is not named when the document declares it globally, on half, or when auth.apply is all", async () => {
    for (const [document, apply] of [
      [keyedDocument(0, true), "declared"],
      [keyedDocument(4), "declared"],
      [keyedDocument(1), "all"],
    ] as const) {
      const { warnings } = await generateFromDocument(document, { ...config, auth: { apply } });
      expect(warnings.filter((warning) => warning.startsWith("auth:"))).toEqual([]);
    }
  });
});

describe("scopes the config names for an operation (resource mode)", () => {
  it("go into the tool's definition beside the document's security", async () => {
    const { files } = await generateFromDocument(keyedDocument(0), { ...config, overrides: { readItems3: { scopes: ["cms:read"] } } });
    expect(files.get("tools/read_items3.ts")).toContain('scopes: ["cms:read"]');
    expect(files.get("tools/read_items4.ts")).not.toContain("scopes:");
  });
});
