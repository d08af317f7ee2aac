// tests/k8s/assert-deploy.mjs - what the schemas cannot say about a rendered
// deploy/ bundle (tests/k8s/test_k8s_manifests.sh):
//   node tests/k8s/assert-deploy.mjs --dockerfile FILE [--expect-fail] [FLAGS:]FILE...
// FLAGS: a comma list of gpu and ring (e.g. gpu,ring:bundle.yaml).
// --expect-fail: every FILE must have a problem (broken copies).
// Every pod template: each container and initContainer adds IPC_LOCK, has
// requests == limits with whole CPUs (Guaranteed QoS, for the Topology
// Manager), requests an RDMA resource, runs the entrypoint, mounts the
// network-status downward-API file, and sends its termination message to
// /dev/termination-log; the pods attach a network whose
// NetworkAttachmentDefinition is in the bundle (when the bundle has one);
// an ib_doctor initContainer comes first.
// Pair bundles (default): the headless Service selects the server pod and
// targets its control port 18515; the server runs --oob tcp and its
// readiness probe is a TCP connect to that port; the client Job has
// backoffLimit 0, an activeDeadlineSeconds, restartPolicy Never, a
// podFailurePolicy (disruptions Ignored, exit codes 1-7 FailJob), a required
// anti-affinity to the server on kubernetes.io/hostname, and reaches the
// server through the Service's name with --oob tcp.
// --ring: Indexed Jobs whose pods use the headless Service as subdomain,
// one pod per node (anti-affinity to their own group), peers named
// <job>-%d.<service>.
// --gpu: every container has nvidia.com/gpu and both tools get --use_cuda.
// The user story, against the image (--dockerfile FILE, required: its last
// USER line is the user a container without runAsUser runs as): a root
// container adds IPC_LOCK; a container that is not root (runAsUser, its
// own or the pod's, not 0, or unset while the image's USER is not root)
// holds CAP_IPC_LOCK only through the file capabilities of the SETCAP=1
// image, so it must run an image tagged ...-setcap, add IPC_LOCK and not
// forbid privilege escalation.
// Hardening (docs/trust.md, docs/kubernetes.md): the pod's seccomp
// profile is RuntimeDefault; every container drops ALL capabilities and
// adds IPC_LOCK alone, has a read-only root filesystem with an emptyDir at
// /tmp, and a root one forbids privilege escalation; no tool runs with
// --allow-foreign-gid (in args or RDMABENCH_SERVER_ARGS) without
// --auth-key-file on a file of a required Secret volume it mounts. Pair
// bundles: the server binds its control port to $(POD_IP) (env from
// status.podIP) and a NetworkPolicy admits only the client pods to it.
import fs from "node:fs";
import YAML from "yaml";

// the uid of the last USER line of a Dockerfile (a name other than root:
// not root; no USER line: root)
function imageUser(dockerfile) {
  const users = [...fs.readFileSync(dockerfile, "utf8").matchAll(/^\s*USER\s+(\S+)/gim)].map((m) => m[1]);
  if (!users.length) return 0;
  const u = users[users.length - 1].split(":")[0];
  if (/^[0-9]+$/.test(u)) return Number(u);
  return u === "root" ? 0 : u;
}

// the image's tag ("" when none, or pinned by digest alone)
function imageTag(image) {
  const noDigest = image.split("@")[0];
  const last = noDigest.split("/").pop();
  return last.includes(":") ? last.split(":").pop() : "";
}

function check(gpu, ring, file, imgUser, dockerfile) {
const docs = YAML.parseAllDocuments(fs.readFileSync(file, "utf8")).map((d) => d.toJS()).filter(Boolean);
const errors = [];
const fail = (what, msg) => errors.push(`${what}: ${msg}`);
const byKind = (k) => docs.filter((d) => d.kind === k);
const RDMA = /^(rdma\/|nvidia\.com\/(sriov|hostdev)|mellanox\.com\/)/;
const nads = byKind("NetworkAttachmentDefinition").map((d) => d.metadata.name);
const ENTRY = "/usr/local/bin/rdmabench-entrypoint";

function checkPod(what, tpl) {
  const spec = tpl.spec;
  const net = tpl.metadata?.annotations?.["k8s.v1.cni.cncf.io/networks"];
  if (!net) fail(what, "no k8s.v1.cni.cncf.io/networks annotation: no RDMA interface");
  else if (nads.length && !nads.includes(net)) fail(what, `network "${net}" is not among the bundle's NADs (${nads})`);
  const vols = (spec.volumes ?? []).filter((v) => v.downwardAPI?.items?.some((i) =>
    i.path === "network-status" && i.fieldRef?.fieldPath === "metadata.annotations['k8s.v1.cni.cncf.io/network-status']"));
  if (vols.length !== 1) fail(what, "no downward-API volume with the network-status file");
  const init = spec.initContainers ?? [];
  if (init[0]?.name !== "doctor" || init[0]?.args?.[0] !== "doctor") fail(what, "the first initContainer is not the ib_doctor one");
  for (const c of [...init, ...spec.containers]) {
    const cw = `${what} container ${c.name}`;
    if (!c.securityContext?.capabilities?.add?.includes("IPC_LOCK")) fail(cw, "does not add IPC_LOCK");
    if (c.securityContext?.privileged) fail(cw, "is privileged (RDMA needs IPC_LOCK only)");
    const uid = c.securityContext?.runAsUser ?? spec.securityContext?.runAsUser ?? imgUser;
    if (uid !== 0) {
      const from = c.securityContext?.runAsUser !== undefined ? "its runAsUser"
        : spec.securityContext?.runAsUser !== undefined ? "the pod's runAsUser" : `${dockerfile}'s USER`;
      if (!c.image?.includes("@") && !imageTag(c.image ?? "").endsWith("-setcap"))
        fail(cw, `runs as uid ${uid} (${from}) with image ${c.image}: not root, so IPC_LOCK works only ` +
          "through the file capability of the SETCAP=1 image (tag ...-setcap); set runAsUser: 0 or use that image");
      if (c.securityContext?.allowPrivilegeEscalation === false)
        fail(cw, `runs as uid ${uid} with allowPrivilegeEscalation: false, which ignores the file capability`);
    }
    const rq = c.resources?.requests ?? {}, lm = c.resources?.limits ?? {};
    if (JSON.stringify(Object.entries(rq).sort()) !== JSON.stringify(Object.entries(lm).sort()))
      fail(cw, `requests ${JSON.stringify(rq)} differ from limits ${JSON.stringify(lm)} (not Guaranteed QoS)`);
    if (!/^[1-9][0-9]*$/.test(String(lm.cpu ?? ""))) fail(cw, `cpu "${lm.cpu}" is not a whole number of CPUs`);
    if (!lm.memory) fail(cw, "no memory limit");
    if (!Object.keys(lm).some((k) => RDMA.test(k))) fail(cw, `no RDMA resource in ${Object.keys(lm)}`);
    if (gpu && lm["nvidia.com/gpu"] !== "1") fail(cw, "no nvidia.com/gpu: 1");
    if (!gpu && lm["nvidia.com/gpu"] !== undefined) fail(cw, "asks for a GPU");
    if (c.command?.[0] !== ENTRY) fail(cw, `command is ${c.command}, not ${ENTRY}`);
    if ((c.terminationMessagePath ?? "/dev/termination-log") !== "/dev/termination-log") fail(cw, "termination message elsewhere");
    if (!(c.volumeMounts ?? []).some((m) => m.mountPath === "/etc/podinfo")) fail(cw, "network-status not mounted at /etc/podinfo");
    const env = Object.fromEntries((c.env ?? []).map((e) => [e.name, e]));
    for (const n of ["NODE_NAME", "POD_NAME"]) if (!env[n]?.valueFrom) fail(cw, `no downward-API ${n}`);
    checkHardened(cw, spec, c, uid);
    checkKey(cw, spec, c, args0(c));
    const sargs = (env.RDMABENCH_SERVER_ARGS?.value ?? "").split(/\s+/).filter(Boolean);
    if (sargs.length) checkKey(`${cw} (RDMABENCH_SERVER_ARGS)`, spec, c, sargs);
  }
  const seccomp = spec.securityContext?.seccompProfile?.type;
  if (seccomp !== "RuntimeDefault") fail(what, `the pod's seccompProfile is ${seccomp ?? "unset"}, not RuntimeDefault`);
  return spec;
}

// the fields RDMA needs (IPC_LOCK) and nothing more
function checkHardened(cw, spec, c, uid) {
  const sc = c.securityContext ?? {};
  const caps = sc.capabilities ?? {};
  if (!(caps.drop ?? []).includes("ALL")) fail(cw, "does not drop ALL capabilities");
  const extra = (caps.add ?? []).filter((x) => x !== "IPC_LOCK");
  if (extra.length) fail(cw, `adds ${extra} (RDMA needs IPC_LOCK only)`);
  if (uid === 0 && sc.allowPrivilegeEscalation !== false) fail(cw, "root without allowPrivilegeEscalation: false");
  if (sc.readOnlyRootFilesystem !== true) fail(cw, "root filesystem not read-only");
  const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === "/tmp");
  if (!tmp || !(spec.volumes ?? []).some((v) => v.name === tmp.name && v.emptyDir))
    fail(cw, "no emptyDir at /tmp (the entrypoint's and the tools' only writable place)");
}

// --allow-foreign-gid only with --auth-key-file on a required Secret's file
function checkKey(cw, spec, c, a) {
  if (!a.includes("--allow-foreign-gid")) return;
  const key = a[a.indexOf("--auth-key-file") + 1];
  if (!a.includes("--auth-key-file") || !key) { fail(cw, "--allow-foreign-gid without --auth-key-file (a reflector for anyone)"); return; }
  const m = (c.volumeMounts ?? []).find((x) => key.startsWith(x.mountPath + "/"));
  const v = m && (spec.volumes ?? []).find((x) => x.name === m.name);
  if (!v?.secret || v.secret.optional !== false) fail(cw, `--auth-key-file ${key}: not on a required Secret volume`);
}

// podFailurePolicy: a disruption is retried (Ignore, the first rule), the
// documented exit codes of the tools and ib_doctor fail the Job at once
const VERDICTS = [1, 2, 3, 4, 5, 6, 7];
function checkFailurePolicy(w, j) {
  const rules = j.spec.podFailurePolicy?.rules ?? [];
  const r0 = rules[0];
  if (r0?.action !== "Ignore" || !(r0.onPodConditions ?? []).some((c) => c.type === "DisruptionTarget" && (c.status ?? "True") === "True"))
    fail(w, "podFailurePolicy's first rule does not Ignore a DisruptionTarget (a preempted or evicted pod would fail the Job)");
  const fj = rules.find((r) => r.action === "FailJob" && r.onExitCodes?.operator === "In");
  const missing = VERDICTS.filter((c) => !(fj?.onExitCodes.values ?? []).includes(c));
  if (missing.length) fail(w, `podFailurePolicy does not FailJob on exit code(s) ${missing} (the tools' and ib_doctor's verdicts)`);
  if (j.spec.template.spec.restartPolicy !== "Never") fail(w, "podFailurePolicy needs restartPolicy Never");
}

const args0 = (c) => c.args ?? [];
const hasOob = (a) => a.some((x, i) => x === "--oob" && a[i + 1] === "tcp");

if (!ring) {
  const svc = byKind("Service");
  const dep = byKind("Deployment");
  const job = byKind("Job");
  if (svc.length !== 1 || dep.length !== 1 || job.length !== 1) fail(file, "want one Service, one Deployment, one Job");
  else {
    const [s, d, j] = [svc[0], dep[0], job[0]];
    const sl = d.spec.template.metadata.labels;
    if (s.spec.clusterIP !== "None") fail("Service", "not headless (clusterIP: None)");
    for (const [k, v] of Object.entries(s.spec.selector)) if (sl[k] !== v) fail("Service", `selector ${k}=${v} misses the server pod`);
    const port = s.spec.ports?.[0];
    const spec = checkPod("server", d.spec.template);
    const sc = spec.containers[0];
    const cport = sc.ports?.find((p) => p.name === port?.targetPort || p.containerPort === port?.targetPort);
    if (port?.port !== 18515 || cport?.containerPort !== 18515) fail("Service", "does not reach the server's port 18515");
    if (args0(sc)[0] !== "server" || !hasOob(args0(sc))) fail("server", `args ${args0(sc)}: want server TOOL --oob tcp`);
    const probe = sc.readinessProbe?.tcpSocket?.port;
    if (probe !== cport?.name && probe !== 18515) fail("server", "readiness probe is not a TCP connect to the control port");
    if (d.spec.replicas !== 1) fail("server", "replicas is not 1");
    const sa = args0(sc), ip = (sc.env ?? []).find((e) => e.name === "POD_IP");
    if (sa[sa.indexOf("--bind") + 1] !== "$(POD_IP)" || !sa.includes("--bind") || ip?.valueFrom?.fieldRef?.fieldPath !== "status.podIP")
      fail("server", "does not --bind $(POD_IP) (env POD_IP from status.podIP)");
    const np = byKind("NetworkPolicy").find((n) => Object.entries(n.spec.podSelector?.matchLabels ?? {}).every(([k, v]) => sl[k] === v));
    const jl = j.spec.template.metadata.labels;
    if (!np || np.spec.policyTypes?.join() !== "Ingress" || np.spec.ingress?.length !== 1 ||
      !np.spec.ingress[0].from?.every((f) => Object.entries(f.podSelector?.matchLabels ?? {}).every(([k, v]) => jl[k] === v)) ||
      np.spec.ingress[0].ports?.map((p) => `${p.protocol}/${p.port}`).join() !== "TCP/18515")
      fail("server", "no NetworkPolicy that admits only the client pods, to TCP 18515");
    const jspec = checkPod("client", j.spec.template);
    if (j.spec.backoffLimit !== 0) fail("client Job", "backoffLimit is not 0");
    if (!(j.spec.activeDeadlineSeconds > 0)) fail("client Job", "no activeDeadlineSeconds");
    if (jspec.restartPolicy !== "Never") fail("client Job", "restartPolicy is not Never");
    checkFailurePolicy("client Job", j);
    const anti = jspec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    if (!anti.some((t) => t.topologyKey === "kubernetes.io/hostname" &&
      Object.entries(t.labelSelector?.matchLabels ?? {}).every(([k, v]) => sl[k] === v) &&
      Object.keys(t.labelSelector?.matchLabels ?? {}).length))
      fail("client Job", "no required anti-affinity to the server pod on kubernetes.io/hostname");
    const ca = args0(jspec.containers[0]);
    if (ca[0] !== "client" || ca[2] !== s.metadata.name || !hasOob(ca))
      fail("client Job", `args ${ca}: want client TOOL ${s.metadata.name} --oob tcp`);
    if (ca[1] !== args0(sc)[1]) fail("client Job", `tool ${ca[1]} differs from the server's ${args0(sc)[1]}`);
    for (const [w, c] of [["server", sc], ["client", jspec.containers[0]]])
      if (gpu !== args0(c).includes("--use_cuda")) fail(w, gpu ? "no --use_cuda" : "--use_cuda without the gpu overlay");
  }
} else {
  const svc = byKind("Service");
  if (svc.length !== 1 || svc[0].spec.clusterIP !== "None") fail(file, "want one headless Service");
  const jobs = byKind("Job");
  if (!jobs.length) fail(file, "no Job");
  for (const j of jobs) {
    const w = `Job ${j.metadata.name}`;
    const spec = checkPod(w, j.spec.template);
    if (j.spec.completionMode !== "Indexed") fail(w, "not Indexed");
    if (j.spec.completions !== j.spec.parallelism) fail(w, "completions != parallelism: the ring's pods must run together");
    if (spec.subdomain !== svc[0]?.metadata.name) fail(w, "subdomain is not the headless Service");
    const lbl = j.spec.template.metadata.labels;
    if (!Object.entries(svc[0]?.spec.selector ?? {}).every(([k, v]) => lbl[k] === v)) fail(w, "the Service does not select its pods");
    const nodes = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]
      ?.matchExpressions?.[0]?.values ?? [];
    if (nodes.length !== j.spec.completions) fail(w, `${j.spec.completions} pods for ${nodes.length} nodes`);
    const anti = spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0];
    if (anti?.topologyKey !== "kubernetes.io/hostname" || anti?.labelSelector?.matchLabels?.["rdmabench/group"] !== lbl["rdmabench/group"])
      fail(w, "pods are not one per node");
    const c = spec.containers[0];
    const env = Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));
    if (env.RDMABENCH_PEER_FORMAT !== `${j.metadata.name}-%d.${svc[0]?.metadata.name}`) fail(w, `peer format ${env.RDMABENCH_PEER_FORMAT}`);
    if (Number(env.RDMABENCH_RING_SIZE) !== j.spec.completions) fail(w, "RDMABENCH_RING_SIZE != completions");
    if (args0(c)[0] !== "ring" || !hasOob(args0(c)) || !/--oob tcp/.test(env.RDMABENCH_SERVER_ARGS ?? ""))
      fail(w, "the ring pods do not use --oob tcp on both sides");
    if (gpu !== args0(c).includes("--use_cuda")) fail(w, "--use_cuda does not match --gpu");
    if (j.spec.backoffLimit !== 0 || !(j.spec.activeDeadlineSeconds > 0)) fail(w, "backoffLimit 0 and a deadline wanted");
    checkFailurePolicy(w, j);
  }
}
return errors;
}

const args = process.argv.slice(2);
const expectFail = args.includes("--expect-fail");
const di = args.indexOf("--dockerfile");
if (di < 0 || !args[di + 1]) {
  console.error("assert-deploy: --dockerfile FILE is required (its USER is the user of a container without runAsUser)");
  process.exit(2);
}
const dockerfile = args[di + 1];
const imgUser = imageUser(dockerfile);
args.splice(di, 2);
let bad = 0;
for (const a of args.filter((x) => !x.startsWith("--"))) {
  const m = a.match(/^([a-z,]*):(.*)$/);
  const flags = m ? m[1].split(",") : [];
  const file = m ? m[2] : a;
  const errors = check(flags.includes("gpu"), flags.includes("ring"), file, imgUser, dockerfile);
  if (expectFail) {
    if (!errors.length) { console.log(`${file}: no problem found, but it is broken`); bad++; }
    continue;
  }
  for (const e of errors) console.log(`${file}: ${e}`);
  if (errors.length) bad++;
}
console.log(`assert-deploy: ${bad} file(s) ${expectFail ? "without the expected problem" : "with problems"}`);
process.exit(bad ? 1 : 0);
