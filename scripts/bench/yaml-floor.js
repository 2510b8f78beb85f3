// The floors of the CLI benchmark: a process that only parses an input YAML file and writes given
// objects as YAML to stdout, doing none of the translation in between.
//   node yaml-floor.js yaml|js-yaml|cdk8s INPUT.yaml OBJECTS.json
// yaml, js-yaml: parse and write with that library.
// cdk8s: js-yaml's, plus what cdk8s costs to hold and render the same objects: each becomes an
// ApiObject of one Chart, rendered by Chart.toJson (which validates the chart first, as cdk8s does)
// before it is written. What no CLI built on cdk8s constructs can go below.
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
} else if (library === 'js-yaml' || library === 'cdk8s') {
  const jsYaml = require('js-yaml');
  jsYaml.loadAll(text);
  let written = objects;
  if (library === 'cdk8s') {
    const { ApiObject, App, Chart } = require('cdk8s');
    const chart = new Chart(new App(), 'floor');
    objects.forEach((o, i) => new ApiObject(chart, `o${i}`, o));
    written = chart.toJson();
  }
  out = written.map((o) => jsYaml.dump(o, { noRefs: true })).join('---\n');
} else {
  throw new Error(`unknown floor ${library}: yaml, js-yaml or cdk8s`);
}
process.stdout.write(out);
