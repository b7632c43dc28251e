import { describe, expect, it } from "vitest";
import { AttemptBudget } from "../../../runtime/sign-in/attempt-budget.js";
import { InvalidToken, TokenVerifier, TooManyNewTokens } from "../../../runtime/sign-in/token-verifier.js";

const ISSUER = new URL("https://login.example.com");
const RESOURCE = new URL("https://mcp.example.com/mcp");

/** An authorization server that answers introspection from a table of active tokens, counting what it is asked. */
function authorizationServer() {
  const active = new Set<string>();
  const asked: string[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname.startsWith("/.well-known/"))
      return Response.json({ issuer: ISSUER.origin, introspection_endpoint: `${ISSUER.origin}/introspect` });
    const token = new URLSearchParams(String(init?.body)).get("token") ?? "";
    asked.push(token);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return Response.json(
      active.has(token)
        ? { active: true, sub: `user-${token}`, scope: "notes:read", aud: RESOURCE.href, exp: Math.floor(Date.now() / 1000) + 3600 }
        : { active: false },
    );
  }) as typeof fetch;
  return { active, asked, fetchFn };
}

const settings = (introspectionCacheMs?: number) => ({
  issuer: ISSUER,
  resource: RESOURCE,
  client: { id: "mcp", secret: "s" },
  ...(introspectionCacheMs !== undefined ? { introspectionCacheMs } : {}),
});

describe("opaque tokens, introspected", () => {
  it("are asked about at every request, so a token revoked at the authorization server is refused at the next one", async () => {
    const as = authorizationServer();
    as.active.add("alice");
    const verifier = new TokenVerifier(settings(), as.fetchFn);
    expect((await verifier.verify("alice", "10.0.0.1")).subject).toBe("user-alice");
    as.active.delete("alice");
    await expect(verifier.verify("alice", "10.0.0.1")).rejects.toThrow("the token is not active");
    expect(as.asked).toEqual(["alice", "alice"]);
  });

  it("keep an answer as long as AUTH_INTROSPECTION_CACHE_SECONDS says, and no longer than the token lives", async () => {
    const as = authorizationServer();
    as.active.add("bob");
    const verifier = new TokenVerifier(settings(60_000), as.fetchFn);
    await verifier.verify("bob");
    as.active.delete("bob");
    // Within the operator's bound a revocation is not seen yet: that is the trade the setting makes.
    expect((await verifier.verify("bob")).subject).toBe("user-bob");
    expect(as.asked).toEqual(["bob"]);
  });

  it("ask once for concurrent requests with one token, and refuse a refused token again without asking for a minute", async () => {
    const as = authorizationServer();
    as.active.add("carol");
    const verifier = new TokenVerifier(settings(), as.fetchFn);
    await Promise.all(Array.from({ length: 10 }, () => verifier.verify("carol", "10.0.0.2")));
    expect(as.asked).toEqual(["carol"]);
    for (let n = 0; n < 20; n++) await expect(verifier.verify("made-up", "10.0.0.2")).rejects.toBeInstanceOf(InvalidToken);
    expect(as.asked.filter((token) => token === "made-up")).toHaveLength(1);
  });

  it("introspect tokens never seen active within a budget per address group; another group and known tokens go on", async () => {
    const as = authorizationServer();
    as.active.add("dave");
    const verifier = new TokenVerifier(settings(), as.fetchFn);
    await verifier.verify("dave", "203.0.113.9");
    const flood = await Promise.allSettled(Array.from({ length: 60 }, (_, n) => verifier.verify(`random-${n}`, "203.0.113.9")));
    const budgeted = flood.filter((outcome) => outcome.status === "rejected" && outcome.reason instanceof TooManyNewTokens);
    expect(budgeted.length).toBeGreaterThanOrEqual(35);
    expect(as.asked.filter((token) => token.startsWith("random-")).length).toBeLessThanOrEqual(25);
    // Dave's own token, known active, is still asked about; and a colleague elsewhere signs in.
    expect((await verifier.verify("dave", "203.0.113.9")).subject).toBe("user-dave");
    as.active.add("erin");
    expect((await verifier.verify("erin", "198.51.100.7")).subject).toBe("user-erin");
  });
});

describe("an attempt budget per source", () => {
  it("gives a burst, then its rate, each source its own", () => {
    const budget = new AttemptBudget(3, 1);
    const at = 1_000_000;
    expect([1, 2, 3, 4].map(() => budget.take("a", at))).toEqual([true, true, true, false]);
    expect(budget.take("b", at)).toBe(true);
    expect(budget.retryAfter("a", at)).toBe(1);
    expect(budget.take("a", at + 1_000)).toBe(true);
    expect(budget.take("a", at + 1_000)).toBe(false);
  });
});
