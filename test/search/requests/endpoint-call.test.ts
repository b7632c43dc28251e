import { describe, expect, it } from "vitest";
import { callEndpoint } from "../../../search/requests/index.js";

/** A GET built for `url`, nothing unresolved. */
const request = (url: string) => ({ method: "GET", url, headers: {}, body: null, credentials: [], unresolved: [], public: true });

describe("call_endpoint's host policy", () => {
  it("names the hosts it may call as the operator allowed them: with their ports, or for any port", async () => {
    const hosts = new Map<string, ReadonlySet<number> | "any port">([
      ["127.0.0.1", new Set([44415, 8080])],
      ["::1", new Set([9000])],
      ["api.example.com", "any port"],
    ]);
    const policy = { hosts, credentials: new Map(), limits: { maxBytes: 1024, timeoutMs: 1000 } };
    await expect(callEndpoint(request("http://127.0.0.1:1/api"), policy)).rejects.toThrow(
      "calls to 127.0.0.1:1 are not allowed; this server may call: 127.0.0.1:44415, 127.0.0.1:8080, [::1]:9000, api.example.com (any port)",
    );
  });
});
