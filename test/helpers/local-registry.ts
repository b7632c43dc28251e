import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";

/** A package registry on loopback that publishes local tarballs and passes every other name to npm's own registry. */
export interface LocalRegistry {
  url: string;
  close(): Promise<void>;
}

interface Published {
  manifest: Record<string, unknown> & { name: string; version: string };
  file: string;
  bytes: Buffer;
}

/** The registry npm is configured with here (the real one, or a mirror). */
function upstreamRegistry(): string {
  return execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim().replace(/\/+$/, "");
}

/**
 * Serves `npm pack` tarballs as if they were published, so a fresh project installs them by name exactly as a user
 * would (`npm install oapi-mcp-gen`); other packuments are fetched from the configured registry, whose tarball URLs
 * they keep.
 */
export async function startLocalRegistry(tarballs: readonly string[]): Promise<LocalRegistry> {
  const upstream = upstreamRegistry();
  const published = new Map<string, Published>();
  for (const file of tarballs) {
    const manifest = JSON.parse(
      execFileSync("tar", ["-xzOf", file, "package/package.json"], { encoding: "utf8" }),
    ) as Published["manifest"];
    published.set(manifest.name, { manifest, file: basename(file), bytes: readFileSync(file) });
  }
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0] ?? "/");
    const address = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${address.port}`;
    for (const [name, item] of published) {
      if (path === `/${name}`) {
        const dist = {
          tarball: `${base}/${name}/-/${item.file}`,
          shasum: createHash("sha1").update(item.bytes).digest("hex"),
          integrity: `sha512-${createHash("sha512").update(item.bytes).digest("base64")}`,
        };
        const packument = {
          name,
          "dist-tags": { latest: item.manifest.version },
          versions: { [item.manifest.version]: { ...item.manifest, _id: `${name}@${item.manifest.version}`, dist } },
        };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument));
        return;
      }
      if (path === `/${name}/-/${item.file}`) {
        res.writeHead(200, { "content-type": "application/octet-stream" }).end(item.bytes);
        return;
      }
    }
    const packument = /^\/(@[a-z0-9._~-]+\/)?[a-z0-9._~-]+$/i.test(path);
    const tarball = /^\/(@[a-z0-9._~-]+\/)?[a-z0-9._~-]+\/-\/[a-z0-9._~-]+\.tgz$/i.test(path);
    if (req.method !== "GET" || !(packument || tarball)) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    const accept = req.headers.accept ?? "application/json";
    // npm asks this registry for every tarball too (it rewrites the default registry's host): pass those on as well.
    fetch(`${upstream}/${packument ? path.slice(1).replace("/", "%2f") : path.slice(1)}`, { headers: { accept } })
      .then(async (answer) => {
        res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
