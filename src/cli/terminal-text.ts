/**
 * What the CLI prints on standard error quotes its input — names, values, file names — and the
 * input may hold control characters (escaped in a double-quoted YAML string, or in a file name).
 * Printed raw, an ESC could recolor or rewrite the terminal, a carriage return hide a line, a bidi
 * control reorder what is shown. Each is shown escaped instead (`\u001b`); line feeds and tabs,
 * which the messages themselves use, stay.
 */

/** C0 controls but tab and line feed, DEL, C1 controls, and the bidi embedding, override and isolate controls. */
const UNSAFE_ON_A_TERMINAL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafe(line: string): string {
  return line.replace(UNSAFE_ON_A_TERMINAL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
