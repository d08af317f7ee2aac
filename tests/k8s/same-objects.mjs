// tests/k8s/same-objects.mjs A.yaml B.yaml [A2 B2...] - exit 0 when each pair holds
// the same Kubernetes objects (compared by kind/name, key order and
// document order aside), else print the differences and exit 1. Used to
// hold the pinned kustomize to "kubectl kustomize" where kubectl exists.
import fs from "node:fs";
import { isDeepStrictEqual } from "node:util";
import YAML from "yaml";

const load = (f) => new Map(YAML.parseAllDocuments(fs.readFileSync(f, "utf8")).map((d) => d.toJS())
  .filter(Boolean).map((o) => [`${o.kind}/${o.metadata?.name}`, o]));
let bad = 0;
const files = process.argv.slice(2);
for (let i = 0; i + 1 < files.length; i += 2) {
const [a, b] = [files[i], files[i + 1]].map(load);
for (const k of new Set([...a.keys(), ...b.keys()])) {
  if (!a.has(k) || !b.has(k)) {
    console.log(`${k}: only in ${a.has(k) ? "the first" : "the second"}`);
    bad++;
  } else if (!isDeepStrictEqual(a.get(k), b.get(k))) {
    console.log(`${k}: differs\n--- first\n${YAML.stringify(a.get(k))}--- second\n${YAML.stringify(b.get(k))}`);
    bad++;
  }
}
}
process.exit(bad ? 1 : 0);
