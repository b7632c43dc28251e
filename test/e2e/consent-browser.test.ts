import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/chromium.js";
import { startProxyStack } from "../helpers/proxy-stack.js";

type Stack = Awaited<ReturnType<typeof startProxyStack>>;
let stack: Stack;
let browser: Browser;
/** The MCP client's own redirect endpoint: it records what comes back. */
let client: { url: string; received: URLSearchParams[]; close(): Promise<void> };

beforeAll(async () => {
  stack = await startProxyStack();
  const received: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://client.test");
    // The browser asks for a favicon too.
    if (url.pathname === "/callback") received.push(url.searchParams);
    res.setHeader("content-type", "text/html");
    res.end("<p id='done'>back at the client</p>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  client = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
  await stack?.close();
});

/** A client registered by name for the recording redirect endpoint; its authorization URL. */
async function authorizationUrl(name: string): Promise<string> {
  const registered = await fetch(new URL("/register", stack.publicUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: name, redirect_uris: [client.url] }),
  });
  const { client_id } = (await registered.json()) as { client_id: string };
  const url = new URL("/authorize", stack.publicUrl);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: client.url,
    state: "browser-state",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    scope: "memos:read memos:write",
  }).toString();
  return url.href;
}

describe("the consent page in headless Chromium", () => {
  it("names the client, where its answer goes and the scopes; runs no script; only Allow sends the user on to the provider", async () => {
    const page = await browser.newPage();
    const provider = stack.provider.issuer.origin;
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await page.setJavaScriptEnabled(false);
    await page.goto(await authorizationUrl("Acme <Notes> App"), { waitUntil: "load" });
    expect(await page.$eval("#client-name", (node) => node.textContent)).toBe("Acme <Notes> App");
    expect(await page.$eval("#redirect-host", (node) => node.textContent)).toBe(new URL(client.url).host);
    expect(await page.$$eval("#scopes li", (nodes) => nodes.map((node) => node.textContent))).toEqual(["memos:read", "memos:write"]);
    expect(await page.$eval("#provider", (node) => node.textContent)).toBe(stack.provider.issuer.host);
    expect(await page.$$eval("script", (nodes) => nodes.length)).toBe(0);
    // Nothing reached the provider by showing the page; its only way on is the form's two buttons.
    expect(requested.filter((url) => url.startsWith(provider))).toEqual([]);
    expect(await page.$$eval("form", (forms) => forms.map((form) => [form.method, new URL(form.action).pathname]))).toEqual([
      ["post", "/consent"],
    ]);
    expect(await page.$$eval("button", (buttons) => buttons.map((button) => button.id))).toEqual(["approve", "deny"]);
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("#approve")]);
    expect(requested.some((url) => url.startsWith(`${provider}/auth`))).toBe(true);
    expect(page.url().startsWith(client.url)).toBe(true);
    const back = client.received.at(-1);
    expect(back?.get("code"), back?.toString()).toBeTruthy();
    expect(back?.get("state")).toBe("browser-state");
    expect(back?.get("iss")).toBe(stack.publicUrl);
    await page.close();
  });

  it("Deny sends the user back to the client with access_denied, and never to the provider", async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await page.goto(await authorizationUrl("Deny Me"), { waitUntil: "load" });
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("#deny")]);
    expect(page.url().startsWith(client.url)).toBe(true);
    expect(client.received.at(-1)?.get("error")).toBe("access_denied");
    expect(client.received.at(-1)?.get("code")).toBeNull();
    expect(requested.filter((url) => url.startsWith(stack.provider.issuer.origin))).toEqual([]);
    await page.close();
  });

  it("cannot be framed by another site, and a consent form posted from another site is refused", async () => {
    const page = await browser.newPage();
    const response = await page.goto(await authorizationUrl("Framed"), { waitUntil: "load" });
    expect(response?.headers()["x-frame-options"]).toBe("DENY");
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    const request = await page.$eval("input[name=request]", (node) => node.getAttribute("value") ?? "");
    // Another origin's page auto-submitting the form: the browser sends its Origin, and SameSite keeps the cookie back.
    const evil = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(
        `<form id="f" method="post" action="${stack.publicUrl}/consent"><input name="request" value="${request}"><input name="decision" value="approve"></form><script>document.getElementById("f").submit()</script>`,
      );
    });
    await new Promise<void>((resolve) => evil.listen(0, "localhost", resolve));
    try {
      const attack = await browser.newPage();
      const answered = attack.waitForResponse((reply) => reply.url() === `${stack.publicUrl}/consent`, { timeout: 10_000 });
      // The page navigates away as soon as it loads; its form's answer is what counts.
      void attack.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`).catch(() => undefined);
      expect((await answered).status()).toBe(403);
      await attack.close();
    } finally {
      evil.closeAllConnections();
      await new Promise<void>((resolve) => evil.close(() => resolve()));
    }
    await page.close();
  });
});
