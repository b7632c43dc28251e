import { existsSync } from "node:fs";
import puppeteer, { type Browser } from "puppeteer-core";

/** Chromium for the browser tests: `CHROMIUM_PATH`, else Debian's (`apt-get install chromium`, which `npm test` installs as root). */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((path) => existsSync(path)) ??
  "chromium";

/** Headless Chromium as the browser tests run it (no sandbox: CI runs as root in a container). */
export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
}
