import * as fs from 'fs';
import { parseAllDocuments } from 'yaml';

/** One YAML document of an input file, with where it came from. */
export interface InputDocument {
  readonly file: string;
  /** Zero-based index of the document in its file. */
  readonly index: number;
  readonly content: any;
}

/** A problem with an input document, printed as `FILE[doc N]: path: message`. */
export interface InputProblem {
  readonly file: string;
  readonly index?: number;
  readonly subject?: string;
  readonly message: string;
}

export function formatProblem(p: InputProblem): string {
  const where = p.index === undefined ? p.file : `${p.file}[doc ${p.index}]`;
  return `${where}: ${p.subject ? p.subject + ': ' : ''}${p.message}`;
}

/**
 * Reads every YAML document of every file. Empty documents (a trailing `---`) are skipped;
 * unreadable files and YAML syntax errors become problems, not exceptions.
 */
export function readInputDocuments(files: readonly string[]): { documents: InputDocument[]; problems: InputProblem[] } {
  const documents: InputDocument[] = [];
  const problems: InputProblem[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e: any) {
      problems.push({ file, message: `cannot read file: ${e.code ?? e.message}` });
      continue;
    }
    parseAllDocuments(text).forEach((doc: any, index: number) => {
      if (doc.errors?.length > 0) {
        for (const err of doc.errors) problems.push({ file, index, message: `invalid YAML: ${err.message.split('\n')[0]}` });
        return;
      }
      const content = doc.toJS();
      if (content === null || content === undefined) return;
      documents.push({ file, index, content });
    });
  }
  return { documents, problems };
}
