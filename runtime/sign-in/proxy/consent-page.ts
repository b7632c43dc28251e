import type { ServerResponse } from "node:http";
import type { ClientRecord } from "./client-directory.js";

/** What the consent page shows: who asks, where the answer goes, what for, and where the user signs in. */
export interface ConsentView {
  server: string;
  client: ClientRecord;
  redirectUri: string;
  scopes: readonly string[];
  provider: URL;
  /** The sealed authorization request the form sends back. */
  request: string;
}

/** Text fit for HTML content and quoted attributes. */
function escaped(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Where a redirect URI sends the browser, as a person reads it: its host, or its scheme for an app's own. */
function redirectPlace(uri: string): string {
  const url = new URL(uri);
  return url.host ? url.host : `${url.protocol} (an app on this device)`;
}

/** Security headers for every page the proxy renders: no framing, no script, nothing cached. */
function sendPage(res: ServerResponse, status: number, title: string, body: string): void {
  res.statusCode = status;
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.setHeader("cache-control", "no-store");
  res.setHeader("x-frame-options", "DENY");
  res.setHeader("referrer-policy", "no-referrer");
  res.setHeader("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escaped(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}code{word-break:break-all}
button{font:inherit;padding:.5rem 1.25rem;margin-right:.75rem}</style></head>
<body>${body}</body></html>`);
}

/**
 * The consent page: names the client (and, for a registered one, that its name is its own claim), the host its answer
 * goes to, the scopes and the provider the user signs in at. Plain HTML without script: only its approve button sends
 * the user on, as a POST carrying the sealed request.
 */
export function sendConsentPage(res: ServerResponse, view: ConsentView): void {
  const { client } = view;
  const named = client.name
    ? `<strong id="client-name">${escaped(client.name)}</strong>`
    : `<strong id="client-name">An unnamed client</strong>`;
  const vouched =
    client.source === "metadata document"
      ? `Its identity is published at <code id="client-id">${escaped(client.id)}</code>.`
      : "It registered itself with this server; its name is its own claim.";
  const scopes =
    view.scopes.length > 0
      ? `<ul id="scopes">${view.scopes.map((scope) => `<li><code>${escaped(scope)}</code></li>`).join("")}</ul>`
      : `<p id="scopes">No particular scopes: what ${escaped(view.provider.host)} grants by default.</p>`;
  sendPage(
    res,
    200,
    `Allow access to ${view.server}?`,
    `<h1>Allow ${named} to use ${escaped(view.server)} as you?</h1>
<p>${vouched}</p>
<p>If you allow it, you sign in at <strong id="provider">${escaped(view.provider.host)}</strong>, and the client receives its access at
<strong id="redirect-host">${escaped(redirectPlace(view.redirectUri))}</strong>.</p>
<p>It asks for:</p>${scopes}
<p>Only allow a client you started yourself just now.</p>
<form method="post" action="/consent">
<input type="hidden" name="request" value="${escaped(view.request)}">
<button type="submit" name="decision" value="approve" id="approve">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>`,
  );
}

/** A sign-in error shown to the user, never sent to a redirect URI that could not be checked. */
export function sendErrorPage(res: ServerResponse, status: number, message: string): void {
  sendPage(res, status, "Sign-in stopped", `<h1>Sign-in stopped</h1><p id="error">${escaped(message)}</p>`);
}
