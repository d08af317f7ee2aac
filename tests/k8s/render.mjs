// tests/k8s/render.mjs - the part of kustomize that deploy/ uses, for
// machines without kubectl (tests/k8s/test_k8s_manifests.sh renders every
// overlay with it; where kubectl exists the test also renders with
// "kubectl kustomize" and requires the same objects).
//   node tests/k8s/render.mjs DIR             the rendered YAML on stdout
//   node tests/k8s/render.mjs DIR=OUT...      each DIR rendered into OUT
// Implemented: resources (files and directories), components, patches
// given as JSON 6902 operation lists (inline "patch" or "path"; target by
// group, version, kind, name; ops add, remove, replace, test), images
// (newName, newTag, digest). Anything else in a kustomization (strategic
// merge patches, namePrefix, labels, generators ...) is refused with exit 2,
// never ignored: an overlay that needs more must grow this file or be
// rendered by kubectl.
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";

const SUPPORTED = new Set(["apiVersion", "kind", "resources", "components", "patches", "images"]);

function die(msg) {
  console.error(`render: ${msg}`);
  process.exit(2);
}

function readKustomization(dir) {
  for (const n of ["kustomization.yaml", "kustomization.yml", "Kustomization"]) {
    const f = path.join(dir, n);
    if (fs.existsSync(f)) {
      const k = YAML.parse(fs.readFileSync(f, "utf8"));
      for (const key of Object.keys(k))
        if (!SUPPORTED.has(key)) die(`${f}: "${key}" is not implemented by render.mjs`);
      return { file: f, k };
    }
  }
  die(`${dir}: no kustomization.yaml`);
}

function loadResources(dir, list) {
  const out = [];
  for (const r of list ?? []) {
    const p = path.resolve(dir, r);
    if (fs.statSync(p).isDirectory()) out.push(...build(p, "Kustomization"));
    else
      for (const d of YAML.parseAllDocuments(fs.readFileSync(p, "utf8"))) {
        if (d.errors.length) die(`${p}: ${d.errors[0].message}`);
        const o = d.toJS();
        if (o !== null) out.push(o);
      }
  }
  return out;
}

// JSON pointer (RFC 6901) -> [parent, key]
function locate(doc, pointer, create) {
  if (pointer === "") die("a patch on the whole document is not implemented");
  const parts = pointer.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  let cur = doc;
  for (const p of parts.slice(0, -1)) {
    const next = Array.isArray(cur) ? cur[Number(p)] : cur?.[p];
    if (next === undefined || next === null) {
      if (!create) return [undefined, undefined];
      die(`path ${pointer}: ${p} does not exist`);
    }
    cur = next;
  }
  return [cur, parts[parts.length - 1]];
}

function applyOp(doc, op) {
  const [parent, key] = locate(doc, op.path, true);
  const isArr = Array.isArray(parent);
  const idx = isArr ? (key === "-" ? parent.length : Number(key)) : key;
  const has = isArr ? idx < parent.length : Object.prototype.hasOwnProperty.call(parent, key);
  const val = structuredClone(op.value);
  switch (op.op) {
    case "add":
      if (isArr) parent.splice(idx, 0, val);
      else parent[key] = val;
      break;
    case "replace":
      if (!has) die(`replace ${op.path}: nothing there`);
      parent[idx] = val;
      break;
    case "remove":
      if (!has) die(`remove ${op.path}: nothing there`);
      if (isArr) parent.splice(idx, 1);
      else delete parent[key];
      break;
    case "test":
      if (JSON.stringify(parent[idx]) !== JSON.stringify(val)) die(`test ${op.path} failed`);
      break;
    default:
      die(`JSON patch op "${op.op}" is not implemented`);
  }
}

function matches(doc, t) {
  const [group, version] = doc.apiVersion.includes("/") ? doc.apiVersion.split("/") : ["", doc.apiVersion];
  for (const k of Object.keys(t))
    if (!["group", "version", "kind", "name"].includes(k)) die(`patch target "${k}" is not implemented`);
  return (t.group === undefined || t.group === group) && (t.version === undefined || t.version === version) &&
    (t.kind === undefined || t.kind === doc.kind) && (t.name === undefined || t.name === doc.metadata?.name);
}

function applyPatches(dir, docs, patches) {
  for (const p of patches ?? []) {
    if (!p.target) die(`${dir}: a patch without a target (strategic merge) is not implemented`);
    const text = p.patch ?? fs.readFileSync(path.resolve(dir, p.path), "utf8");
    const ops = YAML.parse(text);
    if (!Array.isArray(ops)) die(`${dir}: only JSON 6902 patches (a list of operations) are implemented`);
    const hit = docs.filter((d) => matches(d, p.target));
    if (!hit.length) die(`${dir}: patch target ${JSON.stringify(p.target)} matches nothing`);
    for (const d of hit) for (const op of ops) applyOp(d, op);
  }
}

function podSpecs(d) {
  const s = d.spec ?? {};
  return [s, s.template?.spec, s.jobTemplate?.spec?.template?.spec].filter((x) => x && (x.containers || x.initContainers));
}

function applyImages(docs, images) {
  for (const im of images ?? [])
    for (const d of docs)
      for (const ps of podSpecs(d))
        for (const c of [...(ps.containers ?? []), ...(ps.initContainers ?? [])]) {
          const m = c.image?.match(/^([^@]*?)(?::([^:/@]+))?(?:@(.+))?$/);
          if (!m || m[1] !== im.name) continue;
          const name = im.newName ?? m[1];
          c.image = im.digest ? `${name}@${im.digest}` : `${name}${im.newTag ? ":" + im.newTag : m[2] ? ":" + m[2] : ""}`;
        }
}

function build(dir, want, docs = []) {
  const { file, k } = readKustomization(dir);
  if ((k.kind ?? "Kustomization") !== want) die(`${file}: a ${k.kind} where a ${want} is expected`);
  docs.push(...loadResources(dir, k.resources));
  for (const c of k.components ?? []) build(path.resolve(dir, c), "Component", docs);
  applyPatches(dir, docs, k.patches);
  applyImages(docs, k.images);
  return docs;
}

const render = (dir) => build(path.resolve(dir), "Kustomization")
  .map((d) => YAML.stringify(d, { lineWidth: 0 })).join("---\n");
const args = process.argv.slice(2);
if (!args.length) die("usage: node render.mjs DIR | DIR=OUT...");
if (args.length === 1 && !args[0].includes("=")) process.stdout.write(render(args[0]));
else
  for (const a of args) {
    const [dir, out] = a.split("=");
    if (!out) die(`${a}: want DIR=OUT`);
    fs.writeFileSync(out, render(dir));
  }
