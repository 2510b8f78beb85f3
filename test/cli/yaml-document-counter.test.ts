import { YamlDocumentCounter } from '../../src/cli/yaml-document-counter';
import { yamlPackage } from '../../src/core/yaml-package';

/** The counter's index after reading every line of `text`. */
function indexAfter(text: string): number {
  const documents = new YamlDocumentCounter();
  for (const line of text.split('\n')) documents.read(line);
  return documents.index;
}

describe('YamlDocumentCounter', () => {
  test.each([
    ['a: 1\n', 0],
    ['---\na: 1\n', 0],
    ['# comment\n\n---\na: 1\n', 0],
    ['%YAML 1.2\n---\na: 1\n', 0],
    ['a: 1\n---\nb: 2\n', 1],
    ['---\na: 1\n---\nb: 2\n', 1],
    ['---\n---\nb: 2\n', 1],
    ['a: 1\r\n---\r\nb: 2\r\n', 1],
    ['a: 1\n--- # second\nb: 2\n---\nc: 3\n', 2],
  ])('%j is in document %i, as the yaml package counts', (text, index) => {
    expect(indexAfter(text)).toBe(index);
    expect(yamlPackage().parseAllDocuments(text)).toHaveLength(index + 1);
  });

  test('read says when a line opened a document after the first', () => {
    const documents = new YamlDocumentCounter();
    expect(['---', 'a: 1', '---', 'b: 2', '  ---'].map((line) => documents.read(line))).toEqual([false, false, true, false, false]);
  });
});
