/**
 * The query parameters of a database URL whose values are shown; node-postgres takes any other as a setting (the
 * password among them), so its value is hidden.
 */
const SHOWN_PARAMETERS = new Set([
  "application_name",
  "client_encoding",
  "connect_timeout",
  "fallback_application_name",
  "host",
  "port",
  "ssl",
  "sslmode",
  "sslnegotiation",
  "target_session_attrs",
  "uselibpqcompat",
  "user",
]);

/** What a hidden value is shown as. */
const HIDDEN = "***";

/**
 * A database URL as it may be logged or shown (the sign-in state's, the search catalogue's): its password hidden, whether in its user information or as a query
 * parameter (`?password=`), and so is the value of any other parameter that may hold a secret (`sslpassword`, `sslkey`).
 */
export function withoutSecrets(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "postgres://(unparsable URL)";
  }
  if (parsed.password !== "") parsed.password = HIDDEN;
  for (const name of new Set(parsed.searchParams.keys())) {
    if (!SHOWN_PARAMETERS.has(name.toLowerCase())) parsed.searchParams.set(name, HIDDEN);
  }
  return parsed.href;
}
