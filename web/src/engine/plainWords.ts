/**
 * The engine's config refusals in plain words. A value of the wrong type or range is refused
 * by the JSON reader (serde), whose text names Rust types and a JSON position the user never
 * saw ("config JSON: invalid value: integer `-5`, expected u32 at line 1 column 77"); this
 * rewrites those into a sentence naming the field and what it takes. Messages the engine
 * already words (its own checks) pass through unchanged.
 */

/** What each Rust number type the config uses takes, in words. */
const TAKES: Record<string, string> = {
  u8: 'a whole number from 0 to 255',
  u16: 'a whole number from 0 to 65,535',
  u32: 'a whole number from 0 to 4,294,967,295',
  u64: 'a whole number from 0 to 18,446,744,073,709,551,615',
  usize: 'a whole number of at least 0',
  i32: 'a whole number',
  i64: 'a whole number',
  f32: 'a number',
  f64: 'a number',
  'a boolean': 'true or false',
  'a string': 'text',
};

/** serde's name of what it got ("integer `-5`", "string \"NaN\"", "floating point `1e+20`"). */
function got(what: string): string {
  const m = what.match(/^(?:integer|floating point) `(.*)`$/);
  if (m) return m[1];
  const s = what.match(/^string "(.*)"$/s);
  if (s) return `the text "${s[1]}"`;
  if (what === 'boolean `true`' || what === 'boolean `false`') return what.slice(9, -1);
  return what.replace(/`/g, "'");
}

/** `a`, `b`, `c` → a, b or c. */
function list(ticks: string): string {
  const items = [...ticks.matchAll(/`([^`]*)`/g)].map((m) => m[1]);
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}` : (items[0] ?? '');
}

/**
 * `message` (an engine refusal, optionally about config field `field`) in plain words:
 * serde's type and range errors become "FIELD must be …, not …"; anything else is returned
 * as it is, less serde's JSON position.
 */
export function plainConfigMessage(message: string, field?: string): string {
  const body = message.replace(/^config JSON: /, '').replace(/ at line \d+ column \d+$/, '');
  if (body === message) return message; // not the JSON reader's: the engine's own words
  const who = field ?? 'a setting';
  let m = body.match(/^invalid (?:value|type): (.+), expected (.+)$/s);
  if (m) {
    const takes = TAKES[m[2]] ?? m[2].replace(/`/g, "'");
    return `${who} must be ${takes}, not ${got(m[1])}`;
  }
  m = body.match(/^unknown variant `([^`]*)`, expected (?:one of )?(.+)$/s);
  if (m) return `${who} cannot be "${m[1]}": it is one of ${list(m[2])}`;
  m = body.match(/^unknown field `([^`]*)`, expected (?:one of )?(.+)$/s);
  if (m)
    return `${field ? `${field} has` : 'The settings have'} no field "${m[1]}" (${field ? 'its fields are' : 'they are'} ${list(m[2])})`;
  m = body.match(/^missing field `([^`]*)`$/);
  if (m) return `${who} needs its field "${m[1]}"`;
  return `${who}: ${body}`;
}
