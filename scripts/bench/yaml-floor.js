// The floor of the CLI benchmark: a process that only parses an input YAML file and writes given
// objects as YAML to stdout, with one YAML library, doing none of the translation in between.
//   node yaml-floor.js yaml|js-yaml INPUT.yaml OBJECTS.json
'use strict';
const fs = require('fs');
const [library, input, objectsFile] = process.argv.slice(2);
const text = fs.readFileSync(input, 'utf8');
const objects = JSON.parse(fs.readFileSync(objectsFile, 'utf8'));
let out;
if (library === 'yaml') {
  const YAML = require('yaml');
  YAML.parseAllDocuments(text).map((d) => d.toJS());
  out = objects.map((o) => YAML.stringify(o)).join('---\n');
} else if (library === 'js-yaml') {
  const jsYaml = require('js-yaml');
  jsYaml.loadAll(text);
  out = objects.map((o) => jsYaml.dump(o, { noRefs: true })).join('---\n');
} else {
  throw new Error(`unknown library ${library}: yaml or js-yaml`);
}
process.stdout.write(out);
