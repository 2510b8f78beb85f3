/**
 * Which document of a YAML stream the lines read so far end in, numbered as the yaml package
 * numbers them, for the checks that scan an input's text before it is parsed (input-limits.ts,
 * input-characters.ts) and must name the document of what they find: a `---` line at column 0
 * opens a document, the first one while only blank lines, comments and directives (`%YAML 1.2`)
 * came before it, else the next one.
 */
export class YamlDocumentCounter {
  /** Zero-based index of the current document. */
  public index = 0;
  private begun = false;

  /** Reads one line (a trailing carriage return allowed); true when it opened a document after the first. */
  public read(line: string): boolean {
    if (/^---(?:\s|$)/.test(line)) {
      const another = this.begun;
      if (another) this.index++;
      this.begun = true;
      return another;
    }
    if (line.trim() !== '' && !line.startsWith('#') && !line.startsWith('%')) this.begun = true;
    return false;
  }
}
