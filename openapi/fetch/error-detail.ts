/** The message of a thrown value (an Error's message, else its text). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The system error code of a thrown value (`ENOENT`, `EADDRINUSE`, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}
