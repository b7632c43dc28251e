import { describe, expect, it } from "vitest";
import { generateFromDocument } from "../../../generator/generate.js";

/** A document whose oauth2 scheme has an authorization-code flow, and one operation that names no security. */
const document = {
  openapi: "3.1.0",
  info: { title: "Notes", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  components: {
    securitySchemes: {
      oauth: {
        type: "oauth2",
        flows: {
          authorizationCode: {
            authorizationUrl: "https://login.example.com/authorize",
            tokenUrl: "https://login.example.com/token",
            scopes: { "notes:read": "Read notes" },
          },
        },
      },
    },
  },
  paths: { "/notes": { get: { operationId: "listNotes", responses: { "200": { description: "ok" } } } } },
};

/** The generated server-settings module's text. */
async function settings(config: Record<string, unknown>): Promise<string> {
  const result = await generateFromDocument(structuredClone(document), { server: { name: "notes" }, select: { all: true }, ...config });
  return result.files.get("server-settings.ts") ?? "";
}

describe("proxy mode's provider in the generated registry", () => {
  it("comes from the document's authorization-code flow, even where no selected operation names its scheme", async () => {
    const text = await settings({ auth: { mode: "proxy" } });
    expect(text).toContain('mode: "proxy"');
    expect(text).toMatch(
      /provider: \{\s*authorizationUrl: "https:\/\/login\.example\.com\/authorize",\s*tokenUrl: "https:\/\/login\.example\.com\/token",?\s*\}/,
    );
  });

  it("the config's auth.provider takes its place, with scopes and the app's authentication", async () => {
    const provider = {
      authorizationUrl: "https://github.com/login/oauth/authorize",
      tokenUrl: "https://github.com/login/oauth/access_token",
      scopes: ["repo"],
      clientAuth: "post",
    };
    const text = await settings({ auth: { mode: "proxy", provider } });
    expect(text).toContain('authorizationUrl: "https://github.com/login/oauth/authorize"');
    expect(text).toContain('clientAuth: "post"');
    expect(text).not.toContain("login.example.com");
  });

  it("refuses a provider URL that is not http(s), and an unknown client authentication", async () => {
    await expect(
      settings({ auth: { provider: { authorizationUrl: "javascript:alert(1)", tokenUrl: "https://x.example/t" } } }),
    ).rejects.toThrow(/authorizationUrl/);
    await expect(
      settings({ auth: { provider: { authorizationUrl: "https://x.example/a", tokenUrl: "https://x.example/t", clientAuth: "jwt" } } }),
    ).rejects.toThrow(/clientAuth/);
  });
});
