// tests/k8s/validate.mjs - offline validation of Kubernetes manifests
// (tests/k8s/test_k8s_manifests.sh). Usage:
//   node tests/k8s/validate.mjs [--quiet] FILE...     (FILE "-": stdin)
// Each YAML document is checked by:
//   1. the yaml parser (syntax, duplicate keys);
//   2. for core kinds (v1 Service/Pod/ConfigMap, apps/v1 Deployment,
//      batch/v1 Job ...): kubernetes-models 4.x (Kubernetes 1.27 schemas);
//   3. every field known: kubernetes-models does not flag unknown fields,
//      so each object is also walked along the models' type declarations
//      (*.d.ts) and a field they do not declare is an error (a typo such
//      as "securtyContext" would otherwise pass and be dropped silently by
//      the API server);
//   4. NetworkAttachmentDefinition: ajv against the CRD's openAPIV3Schema
//      (tests/k8s/crds/), then its spec.config parsed as a CNI
//      configuration: cniVersion, name, a type (or plugins, each with a
//      type), whereabouts IPAM with a CIDR range, macvlan with a master;
//   5. kustomize Kustomization/Component files: known keys only.
// Exit 0 when every document passed, 1 otherwise (each error printed as
// FILE#DOC: PATH: MESSAGE). With --expect-invalid (broken copies, in one
// process): exit 0 when every FILE has an invalid document, 1 naming the
// files that passed.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import Ajv from "ajv";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const modelsDir = path.dirname(require.resolve("kubernetes-models/package.json"));
const nmDir = path.dirname(modelsDir);

// apiVersion/kind -> the kubernetes-models module that holds the class
const CORE = {
  "v1/Service": "v1/Service",
  "v1/Pod": "v1/Pod",
  "v1/ConfigMap": "v1/ConfigMap",
  "v1/Secret": "v1/Secret",
  "v1/ServiceAccount": "v1/ServiceAccount",
  "v1/Namespace": "v1/Namespace",
  "apps/v1/Deployment": "apps/v1/Deployment",
  "apps/v1/DaemonSet": "apps/v1/DaemonSet",
  "batch/v1/Job": "batch/v1/Job",
  "networking.k8s.io/v1/NetworkPolicy": "networking.k8s.io/v1/NetworkPolicy",
  "rbac.authorization.k8s.io/v1/Role": "rbac.authorization.k8s.io/v1/Role",
  "rbac.authorization.k8s.io/v1/RoleBinding": "rbac.authorization.k8s.io/v1/RoleBinding",
};

// ---------------------------------------------------------------- strict
// The models' .d.ts: "export interface IX { "field"?: TYPE; ... }" with
// TYPE an imported interface, Array<...> of one, a map or a leaf.
const dtsCache = new Map();
function parseDts(file) {
  if (dtsCache.has(file)) return dtsCache.get(file);
  const text = fs.readFileSync(file, "utf8");
  const imports = {};
  for (const m of text.matchAll(/^import \{ (\w+) \} from "([^"]+)";$/gm)) {
    const spec = m[2];
    imports[m[1]] = spec.startsWith(".")
      ? path.resolve(path.dirname(file), spec + ".d.ts")
      : path.join(nmDir, spec + ".d.ts");
  }
  const body = text.match(/^export interface \w+(?: extends [\w, ]+)? \{\n([\s\S]*?)^\}/m);
  let props = null;
  if (body) {
    props = {};
    const lines = body[1].split("\n");
    for (let i = 0; i < lines.length; i++) {
      const m = lines[i].match(/^ {4}"([^"]+)"\??: (.*)$/);
      if (!m) continue;
      let type = m[2];
      if (type === "{") { // a map: skip its body
        while (i + 1 < lines.length && !/^ {4}\};/.test(lines[++i]));
        props[m[1]] = { kind: "leaf" };
        continue;
      }
      type = type.replace(/;$/, "");
      let am = type.match(/^Array<(\w+)>$/);
      if (am && imports[am[1]]) props[m[1]] = { kind: "array", file: imports[am[1]] };
      else if (imports[type]) props[m[1]] = { kind: "object", file: imports[type] };
      else props[m[1]] = { kind: "leaf" };
    }
  }
  const res = { props };
  dtsCache.set(file, res);
  return res;
}

function strict(obj, file, where, errors) {
  const { props } = parseDts(file);
  if (!props || obj === null || typeof obj !== "object" || Array.isArray(obj)) return;
  for (const [k, v] of Object.entries(obj)) {
    const p = props[k];
    if (!p) {
      errors.push(`${where}/${k}: unknown field (not in the Kubernetes 1.27 schema of ${path.basename(file, ".d.ts")})`);
      continue;
    }
    if (p.kind === "object") strict(v, p.file, `${where}/${k}`, errors);
    else if (p.kind === "array" && Array.isArray(v))
      v.forEach((e, i) => strict(e, p.file, `${where}/${k}/${i}`, errors));
  }
}

// ---------------------------------------------------------------- CRDs
const ajv = new Ajv({ allErrors: true, strict: false });
const crdValidators = {};
for (const f of fs.readdirSync(path.join(here, "crds"))) {
  const crd = YAML.parse(fs.readFileSync(path.join(here, "crds", f), "utf8"));
  for (const v of crd.spec.versions) {
    const key = `${crd.spec.group}/${v.name}/${crd.spec.names.kind}`;
    crdValidators[key] = ajv.compile(v.schema.openAPIV3Schema);
  }
}

function checkCni(doc, errors) {
  let cfg;
  try {
    cfg = JSON.parse(doc.spec.config);
  } catch (e) {
    errors.push(`/spec/config: not JSON: ${e.message}`);
    return;
  }
  const need = (ok, msg) => ok || errors.push(`/spec/config: ${msg}`);
  need(typeof cfg.cniVersion === "string", "cniVersion must be a string");
  need(typeof cfg.name === "string", "name must be a string");
  need(cfg.name === doc.metadata?.name, `name "${cfg.name}" differs from metadata.name "${doc.metadata?.name}"`);
  const plugins = Array.isArray(cfg.plugins) ? cfg.plugins : [cfg];
  need(plugins.length > 0, "plugins is empty");
  for (const [i, p] of plugins.entries()) {
    const at = cfg.plugins ? `plugins[${i}]` : "";
    need(typeof p.type === "string" && p.type.length > 0, `${at} type must be a non-empty string`);
    if (p.type === "macvlan")
      need(typeof p.master === "string" && p.master.length > 0, `${at} macvlan needs "master" (the RDMA netdev)`);
    if (p.ipam !== undefined) {
      need(typeof p.ipam.type === "string", `${at} ipam.type must be a string`);
      if (p.ipam.type === "whereabouts")
        need(/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$|^[0-9a-fA-F:]+\/\d{1,3}$/.test(p.ipam.range ?? ""),
          `${at} whereabouts needs a CIDR "range", got ${JSON.stringify(p.ipam.range)}`);
    }
  }
  need(plugins.some((p) => p.ipam), "no plugin has an ipam section: the RDMA interface would get no IP");
}

// ---------------------------------------------------------------- kustomize
const KUSTOMIZE_KEYS = new Set(["apiVersion", "kind", "resources", "components",
  "patches", "images", "namespace", "namePrefix", "nameSuffix", "labels",
  "commonLabels", "commonAnnotations", "configMapGenerator", "secretGenerator",
  "generatorOptions", "replicas", "patchesJson6902", "patchesStrategicMerge",
  "replacements", "transformers", "generators", "crds", "openapi", "buildMetadata",
  "sortOptions", "vars", "helmCharts", "metadata"]);

// ---------------------------------------------------------------- main
async function loadModel(key) {
  const mod = await import(`kubernetes-models/${CORE[key]}`);
  const cls = Object.values(mod).find((v) => typeof v === "function" && v.kind);
  return { cls, dts: path.join(modelsDir, CORE[key] + ".d.ts") };
}

async function checkDoc(doc, errors) {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    errors.push("/: not a mapping");
    return;
  }
  const key = `${doc.apiVersion}/${doc.kind}`;
  if (doc.apiVersion?.startsWith("kustomize.config.k8s.io/")) {
    for (const k of Object.keys(doc))
      if (!KUSTOMIZE_KEYS.has(k)) errors.push(`/${k}: unknown kustomization field`);
    return;
  }
  if (CORE[key]) {
    const { cls, dts } = await loadModel(key);
    try {
      new cls(doc).validate();
    } catch (e) {
      const list = e.errors ?? [{ instancePath: "", message: e.message }];
      for (const er of list) errors.push(`${er.instancePath || "/"}: ${er.message}` +
        (er.params && Object.keys(er.params).length ? ` ${JSON.stringify(er.params)}` : ""));
    }
    strict(doc, dts, "", errors);
    return;
  }
  if (crdValidators[key]) {
    const v = crdValidators[key];
    if (!v(doc))
      for (const er of v.errors) errors.push(`${er.instancePath || "/"}: ${er.message}`);
    else if (doc.kind === "NetworkAttachmentDefinition") checkCni(doc, errors);
    return;
  }
  errors.push(`/: no schema for ${key}`);
}

const args = process.argv.slice(2);
const quiet = args.includes("--quiet");
const expectInvalid = args.includes("--expect-invalid");
let bad = 0, ndocs = 0;
const accepted = [];
for (const file of args.filter((a) => !a.startsWith("--"))) {
  const badBefore = bad;
  const text = fs.readFileSync(file === "-" ? 0 : file, "utf8");
  const docs = YAML.parseAllDocuments(text, { uniqueKeys: true });
  for (const [i, d] of docs.entries()) {
    const errors = [];
    for (const e of [...d.errors, ...d.warnings]) errors.push(`yaml: ${e.message.split("\n")[0]}`);
    const obj = errors.length ? null : d.toJS();
    if (obj === null && !errors.length) continue; // an empty document
    if (!errors.length) await checkDoc(obj, errors);
    ndocs++;
    const name = obj ? `${obj.kind}/${obj.metadata?.name ?? "-"}` : "?";
    for (const e of errors) console.log(`${file}#${i} ${name}: ${e}`);
    if (errors.length) bad++;
    else if (!quiet) console.log(`ok ${file}#${i} ${name}`);
  }
  if (bad === badBefore) accepted.push(file);
}
if (expectInvalid) {
  for (const f of accepted) console.log(`${f}: accepted, but it is broken`);
  console.log(`validate: ${accepted.length} of the broken files accepted`);
  process.exit(accepted.length ? 1 : 0);
}
console.log(`validate: ${ndocs} documents, ${bad} invalid`);
process.exit(bad ? 1 : 0);
