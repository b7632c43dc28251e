/**
 * The values in a request as people type it: what they say which, not what to do. Taken out before the words are
 * ranked, so `text +1 555 010 4477 saying I'm running late` asks for a message, not for the words "running" and "late".
 */

/** A value's kind, kept as a hint at a parameter it may fill (`jane@acme.com` fills an email). */
type ValueHint = "email" | "url" | "phone" | "amount" | "address" | "reference";

/** What each kind of value hints at: a URL given to an API is most often where it should send events. */
export const HINTED: Readonly<Record<ValueHint, readonly string[]>> = {
  email: ["email"],
  url: ["url", "webhook"],
  phone: ["phone"],
  amount: ["amount"],
  address: ["address"],
  reference: ["external", "reference"],
};

/** ISO 4217 currency codes, as the platform knows them. */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/** A match that stays a word: `known` tells the words the document uses (lower-cased). */
type Kept = (match: string, known: (word: string) => boolean) => boolean;
/** An id-like word the document itself uses (`x509`, `sha256`) is a word. */
const KNOWN: Kept = (match, known) => known(match.toLowerCase());
/** Three capitals that name no currency (`PRJ 2026`) are no amount. */
const NO_CURRENCY: Kept = (match) => !CURRENCIES.has(match.slice(0, 3));

/** Each kind of value, in the order they are taken out (a URL before the e-mail inside it, a phone before a number). */
const VALUES: readonly { pattern: RegExp; hint?: ValueHint; as?: string; keep?: Kept }[] = [
  // Sending things to a URL (`send delivery events to https://…`, `ping https://… whenever`) is a webhook.
  {
    pattern: /\b(?:send|post|deliver|forward|push|ping|call|notify|hit)\b(.{0,80}?)\s(?:to\s+)?https?:\/\/\S+/gi,
    hint: "url",
    as: "webhook$1",
  },
  // What a message says, quoted or after `saying`: its words are content.
  { pattern: /["“”`]([^"“”`]{0,400})["“”`]/g },
  { pattern: /(^|\s)'[^']{1,400}'(?=[\s,.!?;:]|$)/g },
  { pattern: /\b(?:saying|that says|which says|with the (?:text|message|words))\b[^.!?]*/gi },
  { pattern: /\bhttps?:\/\/\S+|\bwww\.\S+/gi, hint: "url" },
  { pattern: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, hint: "email" },
  // +1 555 010 4477, (415) 555-0132, +442071838750: an international number, or ten digits in groups.
  // A long run of digits alone is an id, not a phone number.
  { pattern: /\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d){5,}|\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/g, hint: "phone" },
  {
    pattern: /[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?[kmb]\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:usd|eur|gbp|dollars?|euros?|pounds?|bucks|cents?)\b/gi,
    hint: "amount",
  },
  // A currency's ISO code before its amount (`EUR 1,200`, `CHF 80.50`).
  { pattern: /\b[A-Z]{3}\s?\d[\d,]*(?:\.\d+)?\b/g, hint: "amount", keep: NO_CURRENCY },
  { pattern: /\b\d+(?:\.\d+)?\s?%/g },
  // A street address (`4 Canal Street`, `500 main st apt 4`): a number, a name, a kind of street.
  {
    pattern:
      /\b\d{1,6}\s+(?:[A-Za-z]+\s+){1,3}(?:street|st|road|rd|avenue|ave|way|lane|ln|boulevard|blvd|drive|dr|court|ct|place|pl|square|sq)\b\.?(?:\s+(?:apt|suite|unit|ste)\.?\s*\w+)?/gi,
    hint: "address",
  },
  // A reference another system made (`ORD-55012`, `PRJ-2026-0415`): capitals, a dash, digits. APIs look one up as an
  // external id or a reference, not as their own id.
  { pattern: /\b[A-Z]{2,5}-\d+(?:-\d+)*\b/g, hint: "reference" },
  // Dates and times: 2024-03-01, 3/1/2024, Q1 2024, March 3rd, 3pm, 10:30.
  { pattern: /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g },
  { pattern: /\b\d{1,2}\/\d{1,2}(?:\/\d{2,4})?\b/g },
  { pattern: /\bQ[1-4](?:\s+(?:19|20)\d{2})?\b/g },
  {
    pattern:
      /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan(?:uary)?|feb(?:ruary)?|march|april|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/gi,
  },
  { pattern: /\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b/gi },
  { pattern: /\b(?:19|20)\d{2}\b/g },
  // An id: a number, a token with three digits in a row (`aaa111`), or a long one of letters and digits mixed
  // (`v3:Zr4TnB7yKc`); `ipv6`, `s3` and `mp3` stay words.
  // One the document uses as a word stays (`x509`, `sha256`).
  { pattern: /(?<![\w-])[\w:-]*\d{3,}[\w:-]*/g, keep: KNOWN },
  { pattern: /(?<![\w-])(?=[\w:-]*\d[\w:-]*\d)(?=[\w:-]*[A-Za-z])[\w:-]{8,}/g, keep: KNOWN },
  { pattern: /(?<![\w-])\d+(?:[.,]\d+)?(?![\w-])/g, keep: KNOWN },
];

/**
 * The request with its values taken out, and the kinds of value it held (each once, in order found). `known` tells
 * the words the document uses (lower-cased): an id-like one of them is a word.
 */
export function withoutValues(request: string, known: (word: string) => boolean = () => false): { text: string; hints: ValueHint[] } {
  const hints: ValueHint[] = [];
  let text = request;
  for (const { pattern, hint, as, keep } of VALUES) {
    text = text.replace(pattern, (match: string, lead: unknown) => {
      if (keep?.(match, known)) return match;
      if (hint !== undefined && !hints.includes(hint)) hints.push(hint);
      if (as !== undefined) return ` ${as.replace("$1", typeof lead === "string" ? lead : "")} `;
      // A pattern that keeps what came before its value (a space) puts it back.
      const kept = typeof lead === "string" && match.startsWith(lead) ? lead : "";
      return `${kept} `;
    });
  }
  return { text, hints };
}
