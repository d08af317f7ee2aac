// tests/k8s/fake-kubelet.mjs - the cluster behind tests/k8s/fake-kubectl.sh:
// "runs" the Jobs of an applied manifest file on this machine, the way the
// kubelet would run their containers: the initContainer, then the
// container, each as its command + args (deploy/entrypoint.sh, found at
// /usr/local/bin/rdmabench-entrypoint in the image) with the manifest's
// env, the downward-API NODE_NAME/POD_NAME, JOB_COMPLETION_INDEX for
// Indexed Jobs, and the tools replaced by tests/k8s/fake-tool.sh.
//   node fake-kubelet.mjs STATE_DIR MANIFEST.yaml
// Writes STATE_DIR/pods/POD.{msg,log,rc,node,job} (msg: the termination
// message; POD.init.{msg,log,rc} for the initContainer) and
// STATE_DIR/jobs/JOB (Complete or Failed). Test knobs: FAKE_RESULT_<i>
// and FAKE_RC_<i> override FAKE_RESULT and FAKE_RC for the container;
// the initContainer's FAKE_RC is FAKE_DOCTOR_RC (default 0).
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import YAML from "yaml";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const [state, file] = process.argv.slice(2);
const bin = path.join(state, "bin");
fs.mkdirSync(path.join(state, "pods"), { recursive: true });
fs.mkdirSync(path.join(state, "jobs"), { recursive: true });
fs.mkdirSync(bin, { recursive: true });
for (const t of ["ib_write_bw", "ib_read_bw", "ib_send_bw", "ib_atomic_bw", "ib_write_lat", "ib_read_lat",
  "ib_send_lat", "ib_atomic_lat", "ib_doctor"]) {
  const l = path.join(bin, t);
  if (!fs.existsSync(l)) fs.symlinkSync(path.join(here, "fake-tool.sh"), l);
}

function run(c, pod, node, index, extraEnv, out) {
  if (c.command?.[0] !== "/usr/local/bin/rdmabench-entrypoint") throw new Error(`${pod}: unexpected command ${c.command}`);
  const env = { PATH: `${bin}:${process.env.PATH}`, TMPDIR: process.env.TMPDIR ?? "/tmp" };
  for (const k of Object.keys(process.env)) if (k.startsWith("FAKE_")) env[k] = process.env[k];
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.fieldRef?.fieldPath === "spec.nodeName") env[e.name] = node;
    else if (e.valueFrom?.fieldRef?.fieldPath === "metadata.name") env[e.name] = pod;
  }
  if (index !== null) env.JOB_COMPLETION_INDEX = String(index);
  for (const k of ["FAKE_RESULT", "FAKE_RC"])
    if (index !== null && process.env[`${k}_${index}`] !== undefined) env[k] = process.env[`${k}_${index}`];
  Object.assign(env, extraEnv);
  env.RDMABENCH_TERMINATION_LOG = `${out}.msg`;
  const r = spawnSync("sh", [path.join(root, "deploy/entrypoint.sh"), ...(c.args ?? [])],
    { env, cwd: state, encoding: "utf8", timeout: 60000 });
  fs.writeFileSync(`${out}.log`, (r.stdout ?? "") + (r.stderr ?? ""));
  fs.writeFileSync(`${out}.rc`, String(r.status ?? 137));
  return r.status ?? 137;
}

for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, "utf8")).map((d) => d.toJS())) {
  if (!doc || doc.kind !== "Job") continue;
  const spec = doc.spec.template.spec;
  const indexed = doc.spec.completionMode === "Indexed";
  const n = indexed ? doc.spec.completions : 1;
  const nodes = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms?.[0]?.matchExpressions?.[0]?.values ?? [];
  let failed = false;
  for (let i = 0; i < n; i++) {
    const pod = `${doc.metadata.name}-${indexed ? i + "-" : ""}fk${i}`;
    const node = spec.nodeSelector?.["kubernetes.io/hostname"] ?? nodes[i] ?? `node-${i}`;
    const out = path.join(state, "pods", pod);
    fs.writeFileSync(`${out}.node`, node);
    fs.writeFileSync(`${out}.job`, doc.metadata.name);
    fs.writeFileSync(`${out}.labels`, Object.entries(doc.spec.template.metadata?.labels ?? {})
      .map(([k, v]) => `${k}=${v}`).join("\n") + `\njob-name=${doc.metadata.name}\n`);
    let rc = 0;
    for (const c of spec.initContainers ?? []) {
      rc = run(c, pod, node, null, { FAKE_RC: process.env.FAKE_DOCTOR_RC ?? "0" }, `${out}.init`);
      if (rc !== 0) break;
    }
    if (rc === 0) rc = run(spec.containers[0], pod, node, indexed ? i : null, {}, out);
    if (rc !== 0) failed = true;
  }
  fs.writeFileSync(path.join(state, "jobs", doc.metadata.name), failed ? "Failed" : "Complete");
}
