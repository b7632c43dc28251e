import { existsSync } from "node:fs";

/** Chromium for the browser tests: `CHROMIUM_PATH`, else Debian's (`apt-get install chromium`, which `npm test` installs as root). */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((path) => existsSync(path)) ??
  "chromium";
