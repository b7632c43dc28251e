import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SealingKeys, SealRefused } from "../../../runtime/sign-in/proxy/sealed.js";

const key = () => Uint8Array.from(randomBytes(32));

describe("sealing keys bound to the resource they serve", () => {
  it("opens what replicas of one resource seal, and nothing another resource sealed with the same key", async () => {
    const shared = key();
    const resource = new URL("https://mcp.example.com/mcp");
    const sealed = await new SealingKeys(resource, shared).seal("refresh", { sub: "mia" }, 60);
    expect((await new SealingKeys(new URL(resource.href), shared).open("refresh", sealed)).sub).toBe("mia");
    const other = new SealingKeys(new URL("https://other.example.com/mcp"), shared);
    await expect(other.open("refresh", sealed)).rejects.toBeInstanceOf(SealRefused);
    // Rotated: the previous key, bound the same way, still opens it.
    expect((await new SealingKeys(resource, key(), shared).open("refresh", sealed)).sub).toBe("mia");
  });

  it("binds a PUBLIC_URL of any length (HKDF's info is bounded)", async () => {
    const long = new URL(`https://mcp.example.com/${"a".repeat(5_000)}/mcp`);
    const keys = new SealingKeys(long, key());
    expect((await keys.open("client", await keys.seal("client", { name: "x" }, 60))).name).toBe("x");
  });
});
