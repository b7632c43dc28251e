/**
 * Document text as one plain line for a model to read: Markdown links and images keep their text, HTML tags, bare
 * addresses and bold markers go, and whitespace runs become one space.
 */
export function plainLine(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]{0,200}>/g, " ")
    .replace(/\bhttps?:\/\/\S+/g, " ")
    .replace(/\*\*/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
